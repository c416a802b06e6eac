//! The reader of a multipath transport's consumer options: `cc = { algorithm = "ptp", ... }`
//! (PTP's consumer, `ndnflow_core::app::multipath::ptp`; docs/protocols/ptp.md).

use ndnflow_core::app::multipath::PtpConfig;

use super::values::Tbl;
use super::{Reader, Res};

/// The keys `algorithm = "ptp"` takes.
pub(super) const PTP_KEYS: &[&str] =
    &["max_paths", "reselect_every", "probe_rate", "initial_window", "initial_ssthresh", "beta", "min_window"];

impl Reader<'_, '_> {
    pub(super) fn cc_ptp(&self, t: &Tbl<'_, '_>) -> Res<PtpConfig> {
        let mut c = PtpConfig::default();
        let m = &mut c.mpccp;
        self.cc_window(t, &mut m.initial_window, &mut m.initial_ssthresh, &mut m.beta)?;
        if let Some(x) = t.get("min_window") {
            m.min_window = self.cc_number(x, &t.field("min_window"), 1.0, true, "must be at least 1 (Interests)")?;
        }
        if let Some(x) = t.get("max_paths") {
            c.max_paths = self.u32_value(x, &t.field("max_paths"), 1)? as usize;
        }
        if let Some(x) = t.get("reselect_every") {
            c.reselect_every = self.duration(x, &t.field("reselect_every"))?;
            if c.reselect_every.as_nanos() == 0 {
                return Err(self.ctx.err(x.span(), &t.field("reselect_every"), "must be longer than 0"));
            }
        }
        if let Some(x) = t.get("probe_rate") {
            c.probe_rate = self.cc_number(
                x,
                &t.field("probe_rate"),
                0.0,
                false,
                "must be positive (probing Interests per second)",
            )?;
        }
        Ok(c)
    }
}
