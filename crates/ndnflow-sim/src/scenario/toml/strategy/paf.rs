//! `strategy = "paf"` or `{ name = "paf", ... }`: Probability-based Adaptive Forwarding (Qian et
//! al., IM 2013; the PTP paper's Sol.4; parameters, defaults and units in
//! docs/protocols/forwarder.md, section paf).

use super::{Build, StrategyReader};
use crate::scenario::model::{PafConfig, StrategyKind};
use crate::scenario::toml::values::Tbl;
use crate::scenario::toml::{Reader, Res};

pub(super) const READER: StrategyReader =
    StrategyReader { names: &["paf"], keys: &["alpha", "penalty", "explore"], build: Build::Read(read) };

/// Every parameter is a probability or a share of one, in [0, 1].
fn read(r: &Reader<'_, '_>, t: Option<&Tbl<'_, '_>>) -> Res<StrategyKind> {
    let mut c = PafConfig::default();
    if let Some(t) = t {
        for (key, slot) in [("alpha", &mut c.alpha), ("penalty", &mut c.penalty), ("explore", &mut c.explore)] {
            if let Some(x) = t.get(key) {
                *slot = r.probability(x, &t.field(key))?;
            }
        }
    }
    Ok(StrategyKind::Paf(c))
}
