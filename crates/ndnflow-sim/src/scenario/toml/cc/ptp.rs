//! `algorithm = "ptp"`: PTP's consumer (`ndnflow_core::app::multipath::ptp`; docs/protocols/ptp.md),
//! and the keys of a path-specified transport that MPTCP's reader shares.

use ndnflow_core::app::cc::CcConfig;
use ndnflow_core::app::multipath::{CouplingName, MpccpConfig, PathSelection, PtpConfig};
use ndnflow_core::Time;

use super::CcReader;
use crate::scenario::toml::values::Tbl;
use crate::scenario::toml::{Reader, Res};

/// Each path's window machine.
pub(super) const PATH_WINDOW: &[&str] = &["initial_window", "initial_ssthresh", "beta", "min_window"];
/// The path set: how many, how they are found, how they are coupled.
pub(super) const PATHS: &[&str] = &["max_paths", "probe_rate", "coupling", "min_rto"];

pub(super) const READER: CcReader = CcReader {
    name: "ptp",
    keys: &[PATHS, &["reselect_every", "selection", "min_path_rate"], PATH_WINDOW],
    read,
    hint: None,
};

fn read(r: &Reader<'_, '_>, t: &Tbl<'_, '_>) -> Res<CcConfig> {
    let mut c = PtpConfig::default();
    r.path_window(t, &mut c.mpccp)?;
    r.paths_common(t, &mut c.max_paths, &mut c.probe_rate, &mut c.coupling, &mut c.min_rto)?;
    if let Some(x) = t.get("reselect_every") {
        c.reselect_every = r.duration(x, &t.field("reselect_every"))?;
        if c.reselect_every.as_nanos() == 0 {
            return Err(r.ctx.err(x.span(), &t.field("reselect_every"), "must be longer than 0"));
        }
    }
    if let Some(x) = t.get("selection") {
        let names: Vec<&str> = PathSelection::NAMES.iter().map(|(w, _)| *w).collect();
        let word = r.choice(x, &t.field("selection"), &names)?;
        c.selection = PathSelection::parse(word).unwrap_or(c.selection);
    }
    read_min_path_rate(r, t, &mut c.selection)?;
    Ok(CcConfig::Ptp(c))
}

/// The hybrid rule's bandwidth requirement: the paper leaves it to the application, so it has no
/// default and the rule needs it; no other rule reads it.
fn read_min_path_rate(r: &Reader<'_, '_>, t: &Tbl<'_, '_>, selection: &mut PathSelection) -> Res<()> {
    let field = t.field("min_path_rate");
    match (t.get("min_path_rate"), selection) {
        (Some(x), PathSelection::Hybrid { min_path_rate }) => *min_path_rate = r.bandwidth(x, &field)?,
        (None, PathSelection::Hybrid { .. }) => {
            let msg = "selection = \"hybrid\" needs the application's bandwidth requirement of each path, \
                       e.g. min_path_rate = \"1Mbps\"";
            return Err(r.ctx.err(t.key_span("selection"), &field, msg));
        }
        (Some(x), _) => {
            return Err(r.ctx.err(x.span(), &field, "applies only to selection = \"hybrid\""));
        }
        (None, _) => {}
    }
    Ok(())
}

impl Reader<'_, '_> {
    /// Each path's window machine: `PATH_WINDOW`.
    pub(super) fn path_window(&self, t: &Tbl<'_, '_>, m: &mut MpccpConfig) -> Res<()> {
        self.cc_window(t, &mut m.initial_window, &mut m.initial_ssthresh, &mut m.beta)?;
        if let Some(x) = t.get("min_window") {
            m.min_window = self.cc_number(x, &t.field("min_window"), 1.0, true, "must be at least 1 (Interests)")?;
            // A path's window starts at initial_window and no decrease takes it below min_window:
            // a floor above the start would be met only at the first loss (the core would raise
            // the start to it), so say so here rather than run something else than was written.
            if m.min_window > m.initial_window {
                let msg = format!(
                    "min_window ({}) must not exceed initial_window ({}), where each path's window starts",
                    m.min_window, m.initial_window
                );
                return Err(self.ctx.err(x.span(), &t.field("min_window"), msg));
            }
        }
        Ok(())
    }

    /// `PATHS`: max_paths, probe_rate, coupling (any registered name) and the paths' min_rto.
    pub(super) fn paths_common(
        &self,
        t: &Tbl<'_, '_>,
        max_paths: &mut usize,
        probe_rate: &mut f64,
        coupling: &mut CouplingName,
        min_rto: &mut Time,
    ) -> Res<()> {
        if let Some(x) = t.get("min_rto") {
            *min_rto = self.positive_duration(x, &t.field("min_rto"))?;
        }
        if let Some(x) = t.get("max_paths") {
            *max_paths = self.u32_value(x, &t.field("max_paths"), 1)? as usize;
        }
        if let Some(x) = t.get("probe_rate") {
            let what = "must be positive (probing Interests per second)";
            *probe_rate = self.cc_number(x, &t.field("probe_rate"), 0.0, false, what)?;
        }
        if let Some(x) = t.get("coupling") {
            let names: Vec<&str> = CouplingName::names().collect();
            let name = self.choice(x, &t.field("coupling"), &names)?;
            *coupling = CouplingName::parse(name).unwrap_or(*coupling);
        }
        Ok(())
    }
}
