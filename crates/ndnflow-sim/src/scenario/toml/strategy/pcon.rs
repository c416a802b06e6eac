//! `strategy = "pcon"` or `{ name = "pcon", ... }`: PCON's mark-driven multipath forwarding
//! (PCON §3.4, Algorithm 2; parameters, defaults and units in docs/protocols/pcon.md).

use super::{Build, StrategyReader};
use crate::scenario::model::{PconConfig, StrategyKind};
use crate::scenario::toml::values::Tbl;
use crate::scenario::toml::{Reader, Res};

pub(super) const READER: StrategyReader = StrategyReader {
    names: &["pcon"],
    keys: &[
        "change_perc",
        "distance",
        "quiet_interval",
        "shift_back",
        "nack_interval",
        "lower_threshold",
        "probe_fraction",
        "initial",
        "expiry_reduction",
    ],
    build: Build::Read(read),
};

fn read(r: &Reader<'_, '_>, t: Option<&Tbl<'_, '_>>) -> Res<StrategyKind> {
    let mut c = PconConfig::default();
    let Some(t) = t else {
        return Ok(StrategyKind::Pcon(c));
    };
    for (key, slot) in [
        ("change_perc", &mut c.change_perc),
        ("shift_back", &mut c.shift_back),
        ("lower_threshold", &mut c.lower_threshold),
        ("probe_fraction", &mut c.probe_fraction),
    ] {
        if let Some(x) = t.get(key) {
            *slot = r.probability(x, &t.field(key))?;
        }
    }
    for (key, slot) in [("distance", &mut c.distance), ("expiry_reduction", &mut c.expiry_reduction)] {
        if let Some(x) = t.get(key) {
            *slot = r.boolean(x, &t.field(key))?;
        }
    }
    if let Some(x) = t.get("quiet_interval") {
        c.quiet_interval = r.positive_duration(x, &t.field("quiet_interval"))?;
    }
    // Zero is allowed: every marked Nack then reduces (no once-per-interval limit).
    if let Some(x) = t.get("nack_interval") {
        c.nack_interval = r.duration(x, &t.field("nack_interval"))?;
    }
    if let Some(x) = t.get("initial") {
        c.start_equal = r.choice(x, &t.field("initial"), &["shortest", "equal"])? == "equal";
    }
    Ok(StrategyKind::Pcon(c))
}
