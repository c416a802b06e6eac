//! `algorithm = "bic"` (ndnSIM ConsumerPcon BIC) and its PCON-CS preset `algorithm = "pcon"`
//! (PCON §3.3: a decrease on every marked Data, CWA for timeouts and Nacks), which fixes the
//! signal keys.

use ndnflow_core::app::cc::{BicConfig, CcConfig};

use super::{CcReader, SIGNALS, WINDOW};
use crate::scenario::toml::values::Tbl;
use crate::scenario::toml::{Reader, Res};

const BIC_KEYS: &[&str] = &["low_window", "max_increment", "fast_convergence"];

pub(super) const BIC: CcReader = CcReader { name: "bic", keys: &[WINDOW, SIGNALS, BIC_KEYS], read, hint: None };

pub(super) const PCON: CcReader = CcReader {
    name: "pcon",
    keys: &[WINDOW, &["rtt_suppress", "per_window"], BIC_KEYS],
    read,
    hint: Some((
        &["cwa", "react_to_marks", "cwa_on_marks", "decrease_on_unmarked_nacks"],
        " (PCON-CS always decreases on every mark, uses CWA for losses and only retransmits on an unmarked Nack; use algorithm = \"bic\" to change that)",
    )),
};

/// Both presets start from PCON-CS's values; "pcon" has rejected the signal keys it fixes.
fn read(r: &Reader<'_, '_>, t: &Tbl<'_, '_>) -> Res<CcConfig> {
    let mut c = BicConfig::pcon();
    r.cc_window(t, &mut c.initial_window, &mut c.initial_ssthresh, &mut c.beta)?;
    r.cc_signals(t, &mut c.signals)?;
    if let Some(x) = t.get("low_window") {
        c.low_window = r.cc_number(x, &t.field("low_window"), 1.0, true, "must be at least 1 (Interests)")?;
    }
    if let Some(x) = t.get("max_increment") {
        c.max_increment =
            r.cc_number(x, &t.field("max_increment"), 0.0, false, "must be positive (Interests per RTT)")?;
    }
    r.cc_flag(t, "fast_convergence", &mut c.fast_convergence)?;
    Ok(CcConfig::Bic(c))
}
