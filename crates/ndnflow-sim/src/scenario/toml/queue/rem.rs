//! `discipline = "rem"`: CHoPCoP's random early marking (RED's linear marking probability between
//! two thresholds on the queue length, every Data marked above the upper one;
//! `ndnflow_core::link::rem`). Parameters, defaults and units: docs/protocols/chopcop.md.

use super::QueueReader;
use crate::scenario::model::{QueueLimit, QueueSpec};
use crate::scenario::toml::values::Tbl;
use crate::scenario::toml::{Reader, Res};

pub(super) const READER: QueueReader = QueueReader {
    name: "rem",
    keys: &["min_th", "max_th", "max_p", "weight"],
    // As drop-tail's: REM marks and drops only what does not fit.
    default_limit: QueueLimit::Packets(100),
    read,
    hint: None,
};

/// The thresholds (packets), the top probability and the averaging weight; every key optional.
fn read(r: &Reader<'_, '_>, t: &Tbl<'_, '_>, limit: QueueLimit) -> Res<QueueSpec> {
    let mut rem = ndnflow_core::link::RemConfig::default();
    for (key, slot) in [("min_th", &mut rem.min_th), ("max_th", &mut rem.max_th)] {
        if let Some(x) = t.get(key) {
            *slot = r.number(x, &t.field(key))?;
            if !(*slot >= 0.0 && slot.is_finite()) {
                let msg = format!("a queue length in packets, at least 0, found {slot}");
                return Err(r.ctx.err(x.span(), &t.field(key), msg));
            }
        }
    }
    if rem.max_th <= rem.min_th {
        let key = if t.get("max_th").is_some() { "max_th" } else { "min_th" };
        let msg = format!("max_th ({}) must be above min_th ({}) (packets)", rem.max_th, rem.min_th);
        return Err(r.ctx.err(t.key_span(key), &t.field(key), msg));
    }
    for (key, slot) in [("max_p", &mut rem.max_p), ("weight", &mut rem.weight)] {
        if let Some(x) = t.get(key) {
            *slot = r.number(x, &t.field(key))?;
            if !(*slot > 0.0 && *slot <= 1.0) {
                let msg = format!("must be above 0 and at most 1, found {slot}");
                return Err(r.ctx.err(x.span(), &t.field(key), msg));
            }
        }
    }
    Ok(QueueSpec::Rem { limit, rem })
}
