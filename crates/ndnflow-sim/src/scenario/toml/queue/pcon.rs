//! `discipline = "pcon"`: CoDel's detection with PCON's marking (PCON §3.1-3.2, §3.6): it always
//! marks, spaces marks from 1.1 x the interval and tracks the highly congested state.
//! Parameters, defaults and units: docs/protocols/queues.md and docs/protocols/pcon.md.

use super::codel::{Defaults, KEYS, LIMIT};
use super::QueueReader;
use crate::scenario::model::{CodelMode, QueueLimit, QueueSpec};
use crate::scenario::toml::values::Tbl;
use crate::scenario::toml::{Reader, Res};

pub(super) const READER: QueueReader = QueueReader {
    name: "pcon",
    keys: KEYS,
    default_limit: LIMIT,
    read,
    hint: Some((&["mode"], "discipline = \"pcon\" always marks; use discipline = \"codel\" to choose a mode")),
};

/// PCON §3.2 starts marks at 1.1 x the interval; §3.6's state after
/// `ndnflow_core::link::codel::PCON_HIGH_CONG_INTERVALS` intervals of marking.
const PCON: Defaults = Defaults {
    mode: CodelMode::Mark,
    law_factor: 1.1,
    high_cong_intervals: Some(ndnflow_core::link::codel::PCON_HIGH_CONG_INTERVALS),
};

fn read(r: &Reader<'_, '_>, t: &Tbl<'_, '_>, limit: QueueLimit) -> Res<QueueSpec> {
    r.codel(t, limit, &PCON)
}
