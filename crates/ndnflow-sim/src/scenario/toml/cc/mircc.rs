//! `algorithm = "mircc"`: MIRCC's consumer (`ndnflow_core::app::multipath::mircc`;
//! docs/protocols/mircc.md).

use ndnflow_core::app::cc::CcConfig;
use ndnflow_core::app::multipath::{MirccConfig, PathRate, PrimaryRule};

use super::CcReader;
use crate::scenario::toml::values::Tbl;
use crate::scenario::toml::{Reader, Res};

pub(super) const READER: CcReader = CcReader {
    name: "mircc",
    keys: &[&["max_paths", "probe_rate", "initial_window", "min_rto", "path_rate", "primary"]],
    read,
    hint: None,
};

fn read(r: &Reader<'_, '_>, t: &Tbl<'_, '_>) -> Res<CcConfig> {
    let mut c = MirccConfig::default();
    if let Some(x) = t.get("max_paths") {
        c.max_paths = r.u32_value(x, &t.field("max_paths"), 1)? as usize;
    }
    if let Some(x) = t.get("min_rto") {
        c.min_rto = r.positive_duration(x, &t.field("min_rto"))?;
    }
    if let Some(x) = t.get("probe_rate") {
        c.probe_rate =
            r.cc_number(x, &t.field("probe_rate"), 0.0, false, "must be positive (probing Interests per second)")?;
    }
    if let Some(x) = t.get("initial_window") {
        c.initial_window =
            r.cc_number(x, &t.field("initial_window"), 0.0, false, "must be positive (Interests per RTT)")?;
    }
    if let Some(x) = t.get("path_rate") {
        let names: Vec<&str> = PathRate::NAMES.iter().map(|(w, _)| *w).collect();
        let word = r.choice(x, &t.field("path_rate"), &names)?;
        c.path_rate = PathRate::NAMES.iter().find(|(w, _)| *w == word).map_or(c.path_rate, |&(_, p)| p);
    }
    if let Some(x) = t.get("primary") {
        let names: Vec<&str> = PrimaryRule::NAMES.iter().map(|(w, _)| *w).collect();
        let word = r.choice(x, &t.field("primary"), &names)?;
        c.primary = PrimaryRule::NAMES.iter().find(|(w, _)| *w == word).map_or(c.primary, |&(_, p)| p);
    }
    Ok(CcConfig::Mircc(c))
}
