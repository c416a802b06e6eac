//! `strategy = "asf"` or `{ name = "asf", probing-interval = "60s", max-timeouts = 3 }`: NFD's
//! Adaptive SRTT-based Forwarding, with NFD's parameter names (NFD daemon/fw/asf-strategy.cpp;
//! defaults and units in docs/protocols/forwarder.md, section asf).

use super::{Build, StrategyReader};
use crate::scenario::model::{AsfConfig, StrategyKind};
use crate::scenario::toml::values::Tbl;
use crate::scenario::toml::{Reader, Res};
use ndnflow_core::fw::strategy::asf::MIN_PROBING_INTERVAL;

pub(super) const READER: StrategyReader =
    StrategyReader { names: &["asf"], keys: &["probing-interval", "max-timeouts"], build: Build::Read(read) };

fn read(r: &Reader<'_, '_>, t: Option<&Tbl<'_, '_>>) -> Res<StrategyKind> {
    let mut c = AsfConfig::default();
    let Some(t) = t else {
        return Ok(StrategyKind::Asf(c));
    };
    if let Some(x) = t.get("probing-interval") {
        let field = t.field("probing-interval");
        c.probing_interval = r.duration(x, &field)?;
        // NFD's ProbingModule::setProbingInterval refuses it the same way.
        if c.probing_interval < MIN_PROBING_INTERVAL {
            return Err(r.ctx.err(
                x.span(),
                &field,
                format!("must be at least 1s (NFD's minimum), found {}", c.probing_interval),
            ));
        }
    }
    if let Some(x) = t.get("max-timeouts") {
        c.max_timeouts = r.u32_value(x, &t.field("max-timeouts"), 0)?;
    }
    Ok(StrategyKind::Asf(c))
}
