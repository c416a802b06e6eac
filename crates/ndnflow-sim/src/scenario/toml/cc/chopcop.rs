//! `algorithm = "chopcop"`: CHoPCoP's receiver window (AIMD halving at most once per window on
//! marks, timeouts and Nack(Congestion); docs/protocols/chopcop.md).

use ndnflow_core::app::cc::{chopcop_defaults, CcConfig};

use super::{CcReader, SIGNALS, WINDOW};
use crate::scenario::toml::values::Tbl;
use crate::scenario::toml::{Reader, Res};

pub(super) const READER: CcReader = CcReader { name: "chopcop", keys: &[WINDOW, SIGNALS], read, hint: None };

fn read(r: &Reader<'_, '_>, t: &Tbl<'_, '_>) -> Res<CcConfig> {
    let mut c = chopcop_defaults();
    r.cc_window(t, &mut c.initial_window, &mut c.initial_ssthresh, &mut c.beta)?;
    r.cc_signals(t, &mut c.signals)?;
    Ok(CcConfig::Chopcop(c))
}
