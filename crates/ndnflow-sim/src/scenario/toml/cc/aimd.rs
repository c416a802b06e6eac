//! `algorithm = "aimd"`: AIMD window (ndnSIM ConsumerPcon AIMD; ndnget `aimd`; docs/protocols/
//! congestion-control.md).

use ndnflow_core::app::cc::{AimdConfig, CcConfig};

use super::{CcReader, SIGNALS, WINDOW};
use crate::scenario::toml::values::Tbl;
use crate::scenario::toml::{Reader, Res};

pub(super) const READER: CcReader = CcReader { name: "aimd", keys: &[WINDOW, SIGNALS], read, hint: None };

fn read(r: &Reader<'_, '_>, t: &Tbl<'_, '_>) -> Res<CcConfig> {
    let mut c = AimdConfig::default();
    r.cc_window(t, &mut c.initial_window, &mut c.initial_ssthresh, &mut c.beta)?;
    r.cc_signals(t, &mut c.signals)?;
    Ok(CcConfig::Aimd(c))
}
