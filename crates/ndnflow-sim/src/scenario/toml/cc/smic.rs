//! `algorithm = "smic"`: SMIC's consumer (`ndnflow_core::app::multipath::smic`;
//! docs/protocols/smic.md#consumer), and with `coupling = "lia"` / `"olia"` the paper's MPTCP
//! baselines over the same sub-flows.

use ndnflow_core::app::cc::CcConfig;
use ndnflow_core::app::multipath::{CouplingName, SmicConsumerConfig, SmicIncrease};

use super::CcReader;
use crate::scenario::toml::values::Tbl;
use crate::scenario::toml::{Reader, Res};

pub(super) const READER: CcReader = CcReader {
    name: "smic",
    keys: &[&[
        "coupling",
        "path_ids",
        "respread",
        "initial_window",
        "history",
        "rmse",
        "bandwidth_difference",
        "lia_rtt_ratio",
        "halving",
        "sharing_test",
    ]],
    read,
    hint: None,
};

/// Most path ids a consumer spreads over (the paper's pool is 11; a larger one only costs
/// spreading Interests, but each id holds a slot).
const MAX_PATH_IDS: u32 = 65_536;

fn read(r: &Reader<'_, '_>, t: &Tbl<'_, '_>) -> Res<CcConfig> {
    let mut c = SmicConsumerConfig::default();
    if let Some(x) = t.get("coupling") {
        let mut names = vec!["smic"];
        names.extend(CouplingName::names());
        let name = r.choice(x, &t.field("coupling"), &names)?;
        c.increase = CouplingName::parse(name).map_or(SmicIncrease::Algorithm1, SmicIncrease::Coupled);
    }
    if let Some(x) = t.get("path_ids") {
        let field = t.field("path_ids");
        let n = r.u32_value(x, &field, 1)?;
        if n > MAX_PATH_IDS {
            return Err(r.ctx.err(x.span(), &field, format!("at most {MAX_PATH_IDS} path ids, found {n}")));
        }
        c.path_ids = n;
    }
    if let Some(x) = t.get("respread") {
        c.respread = r.positive_duration(x, &t.field("respread"))?;
    }
    if let Some(x) = t.get("initial_window") {
        c.initial_window = r.cc_number(x, &t.field("initial_window"), 1.0, true, "must be at least 1 (Interests)")?;
    }
    if let Some(x) = t.get("history") {
        c.sharing.history = r.u32_value(x, &t.field("history"), 1)? as usize;
    }
    if let Some(x) = t.get("rmse") {
        c.sharing.rmse = r.positive_duration(x, &t.field("rmse"))?.as_secs_f64();
    }
    if let Some(x) = t.get("bandwidth_difference") {
        let field = t.field("bandwidth_difference");
        let d =
            r.cc_number(x, &field, 0.0, false, "must be in (0, 1] (a difference relative to the larger estimate)")?;
        if d > 1.0 {
            return Err(r.ctx.err(
                x.span(),
                &field,
                format!("must be in (0, 1] (a difference relative to the larger estimate), found {d}"),
            ));
        }
        c.sharing.bandwidth_difference = d;
    }
    if let Some(x) = t.get("lia_rtt_ratio") {
        let what = "must be above 1 (largest over smallest smoothed RTT)";
        c.lia_rtt_ratio = Some(r.cc_number(x, &t.field("lia_rtt_ratio"), 1.0, false, what)?);
    }
    // Once per loss episode (ours) or at every timed-out Interest (Algorithm 1, the authors' code).
    if let Some(x) = t.get("halving") {
        c.every_timeout = r.choice(x, &t.field("halving"), &["per-episode", "per-timeout"])? == "per-timeout";
    }
    // Bottleneck sharing tested at a sub-flow's timeouts (Algorithm 1) or at every Data as well
    // (the authors' code).
    if let Some(x) = t.get("sharing_test") {
        c.sharing_on_data = r.choice(x, &t.field("sharing_test"), &["timeout", "data"])? == "data";
    }
    Ok(CcConfig::Smic(c))
}
