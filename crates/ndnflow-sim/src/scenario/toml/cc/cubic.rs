//! `algorithm = "cubic"`: CUBIC window (RFC 8312; ndnSIM ConsumerPcon CUBIC; ndnget `cubic`).

use ndnflow_core::app::cc::{CcConfig, CubicConfig};

use super::{CcReader, SIGNALS, WINDOW};
use crate::scenario::toml::values::Tbl;
use crate::scenario::toml::{Reader, Res};

pub(super) const READER: CcReader =
    CcReader { name: "cubic", keys: &[WINDOW, SIGNALS, &["c", "fast_convergence", "reno_friendly"]], read, hint: None };

fn read(r: &Reader<'_, '_>, t: &Tbl<'_, '_>) -> Res<CcConfig> {
    let mut c = CubicConfig::default();
    r.cc_window(t, &mut c.initial_window, &mut c.initial_ssthresh, &mut c.beta)?;
    r.cc_signals(t, &mut c.signals)?;
    if let Some(x) = t.get("c") {
        c.c = r.cc_number(x, &t.field("c"), 0.0, false, "must be positive (Interests/s^3)")?;
    }
    r.cc_flag(t, "fast_convergence", &mut c.fast_convergence)?;
    r.cc_flag(t, "reno_friendly", &mut c.reno_friendly)?;
    Ok(CcConfig::Cubic(c))
}
