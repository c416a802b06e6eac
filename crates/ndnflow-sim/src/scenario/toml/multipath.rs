//! The readers of the multipath transports' consumer options: `cc = { algorithm = "ptp", ... }`
//! (PTP's consumer, `ndnflow_core::app::multipath::ptp`; docs/protocols/ptp.md) and
//! `cc = { algorithm = "mptcp", coupling = "lia", ... }` (docs/protocols/multipath.md).

use ndnflow_core::app::multipath::{CouplingName, MpccpConfig, MptcpConfig, PtpConfig};

use super::values::Tbl;
use super::{Reader, Res};

/// The keys `algorithm = "ptp"` takes.
pub(super) const PTP_KEYS: &[&str] = &[
    "max_paths",
    "reselect_every",
    "probe_rate",
    "coupling",
    "initial_window",
    "initial_ssthresh",
    "beta",
    "min_window",
];

/// The keys `algorithm = "mptcp"` takes.
pub(super) const MPTCP_KEYS: &[&str] =
    &["coupling", "max_paths", "probe_rate", "initial_window", "initial_ssthresh", "beta", "min_window"];

impl Reader<'_, '_> {
    pub(super) fn cc_ptp(&self, t: &Tbl<'_, '_>) -> Res<PtpConfig> {
        let mut c = PtpConfig::default();
        self.path_window(t, &mut c.mpccp)?;
        self.paths_common(t, &mut c.max_paths, &mut c.probe_rate, &mut c.coupling)?;
        if let Some(x) = t.get("reselect_every") {
            c.reselect_every = self.duration(x, &t.field("reselect_every"))?;
            if c.reselect_every.as_nanos() == 0 {
                return Err(self.ctx.err(x.span(), &t.field("reselect_every"), "must be longer than 0"));
            }
        }
        Ok(c)
    }

    pub(super) fn cc_mptcp(&self, t: &Tbl<'_, '_>) -> Res<MptcpConfig> {
        let mut c = MptcpConfig::default();
        self.path_window(t, &mut c.subflow)?;
        self.paths_common(t, &mut c.max_paths, &mut c.probe_rate, &mut c.coupling)?;
        Ok(c)
    }

    /// Each path's window machine: initial_window, initial_ssthresh, beta, min_window.
    fn path_window(&self, t: &Tbl<'_, '_>, m: &mut MpccpConfig) -> Res<()> {
        self.cc_window(t, &mut m.initial_window, &mut m.initial_ssthresh, &mut m.beta)?;
        if let Some(x) = t.get("min_window") {
            m.min_window = self.cc_number(x, &t.field("min_window"), 1.0, true, "must be at least 1 (Interests)")?;
        }
        Ok(())
    }

    /// max_paths, probe_rate and coupling, as both transports take them.
    fn paths_common(
        &self,
        t: &Tbl<'_, '_>,
        max_paths: &mut usize,
        probe_rate: &mut f64,
        coupling: &mut CouplingName,
    ) -> Res<()> {
        if let Some(x) = t.get("max_paths") {
            *max_paths = self.u32_value(x, &t.field("max_paths"), 1)? as usize;
        }
        if let Some(x) = t.get("probe_rate") {
            *probe_rate = self.cc_number(
                x,
                &t.field("probe_rate"),
                0.0,
                false,
                "must be positive (probing Interests per second)",
            )?;
        }
        if let Some(x) = t.get("coupling") {
            let names: Vec<&str> = CouplingName::names().collect();
            let name = self.choice(x, &t.field("coupling"), &names)?;
            *coupling = CouplingName::parse(name).unwrap_or(*coupling);
        }
        Ok(())
    }
}
