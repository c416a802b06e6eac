//! `discipline = "mircc"`: MIRCC's link rate (RCP's law in two classes, stamped into departing
//! Data; `ndnflow_core::link::mircc`). Parameters, defaults and units: docs/protocols/mircc.md.

use ndnflow_core::link::MirccConfig;

use super::QueueReader;
use crate::scenario::model::{QueueLimit, QueueSpec};
use crate::scenario::toml::values::Tbl;
use crate::scenario::toml::{Reader, Res};

pub(super) const READER: QueueReader = QueueReader {
    name: "mircc",
    keys: &["eta", "alpha", "beta", "interval", "rtt"],
    // As drop-tail's: the queue itself only refuses what does not fit.
    default_limit: QueueLimit::Packets(100),
    read,
    hint: None,
};

/// η in (0, 1], α above 0, β at least 0, the interval and the RTT above 0; every key optional.
fn read(r: &Reader<'_, '_>, t: &Tbl<'_, '_>, limit: QueueLimit) -> Res<QueueSpec> {
    let mut mircc = MirccConfig::default();
    if let Some(x) = t.get("eta") {
        mircc.eta = r.number(x, &t.field("eta"))?;
        if !(mircc.eta > 0.0 && mircc.eta <= 1.0) {
            let msg = format!("the target share of the bandwidth must be above 0 and at most 1, found {}", mircc.eta);
            return Err(r.ctx.err(x.span(), &t.field("eta"), msg));
        }
    }
    // β = 0 is RCP without its queue term; α = 0 would leave the rates where they start.
    for (key, slot, least) in [("alpha", &mut mircc.alpha, "above 0"), ("beta", &mut mircc.beta, "at least 0")] {
        if let Some(x) = t.get(key) {
            *slot = r.number(x, &t.field(key))?;
            if *slot < 0.0 || (*slot == 0.0 && key == "alpha") {
                let msg = format!("a gain must be {least}, found {slot}");
                return Err(r.ctx.err(x.span(), &t.field(key), msg));
            }
        }
    }
    for (key, slot) in [("interval", &mut mircc.interval), ("rtt", &mut mircc.rtt)] {
        if let Some(x) = t.get(key) {
            *slot = r.positive_duration(x, &t.field(key))?;
        }
    }
    Ok(QueueSpec::Mircc { limit, mircc })
}
