//! `discipline = "codel"`: CoDel (RFC 8289; `ndnflow_core::link::codel`), dropping by default or
//! marking with `mode = "mark"` (PCON §3.1), and the reading it shares with `pcon` (a CoDel queue
//! with PCON's marking defaults). Parameters, defaults and units: docs/protocols/queues.md.

use ndnflow_core::Time;

use super::QueueReader;
use crate::scenario::model::{CodelMode, QueueLimit, QueueSpec};
use crate::scenario::toml::values::Tbl;
use crate::scenario::toml::{Reader, Res};

/// The keys of a CoDel queue besides `mode`, which `pcon` shares.
pub(super) const KEYS: &[&str] = &["target", "interval", "mark_interval", "high_cong_after", "signal"];

/// ns-3's CoDelQueueDisc default MaxSize, 1500 packets.
pub(super) const LIMIT: QueueLimit = QueueLimit::Packets(1500);

pub(super) const READER: QueueReader = QueueReader {
    name: "codel",
    keys: &["target", "interval", "mode", "mark_interval", "high_cong_after", "signal"],
    default_limit: LIMIT,
    read,
    hint: None,
};

/// What a discipline built on CoDel leaves at other values than RFC 8289's when not given.
pub(super) struct Defaults {
    pub(super) mode: CodelMode,
    /// The marking law's interval as a multiple of `interval`.
    pub(super) law_factor: f64,
    /// PCON §3.6's highly congested state after this many intervals of marking, or never.
    pub(super) high_cong_intervals: Option<u64>,
}

/// RFC 8289: drops, spaced by the interval; no highly congested state.
const RFC_8289: Defaults = Defaults { mode: CodelMode::Drop, law_factor: 1.0, high_cong_intervals: None };

fn read(r: &Reader<'_, '_>, t: &Tbl<'_, '_>, limit: QueueLimit) -> Res<QueueSpec> {
    r.codel(t, limit, &RFC_8289)
}

impl Reader<'_, '_> {
    pub(super) fn codel(&self, t: &Tbl<'_, '_>, limit: QueueLimit, d: &Defaults) -> Res<QueueSpec> {
        let target = match t.get("target") {
            Some(x) => self.positive_duration(x, &t.field("target"))?,
            None => Time::from_millis(5),
        };
        let interval = match t.get("interval") {
            Some(x) => self.positive_duration(x, &t.field("interval"))?,
            None => Time::from_millis(100),
        };
        let mode = match t.get("mode") {
            Some(m) => match self.choice(m, &t.field("mode"), &["drop", "mark"])? {
                "mark" => CodelMode::Mark,
                _ => CodelMode::Drop,
            },
            None => d.mode,
        };
        let law_interval = match t.get("mark_interval") {
            Some(x) => self.positive_duration(x, &t.field("mark_interval"))?,
            None if d.law_factor == 1.0 => interval,
            None => Time((interval.0 as f64 * d.law_factor).round() as u64),
        };
        let high_cong_after = match t.get("high_cong_after") {
            Some(x) if mode == CodelMode::Mark => Some(self.positive_duration(x, &t.field("high_cong_after"))?),
            Some(_) => return Err(self.needs_marking(t, "high_cong_after", "the highly congested state (PCON §3.6)")),
            None => d.high_cong_intervals.map(|n| interval * n),
        };
        // Where a mark goes: the departing packet (default) or, as in the authors' ndnSIM fork, the
        // next arriving one (docs/protocols/queues.md).
        let signal_on_arrival = match t.get("signal") {
            Some(x) if mode == CodelMode::Mark => {
                self.choice(x, &t.field("signal"), &["departure", "arrival"])? == "arrival"
            }
            Some(_) => return Err(self.needs_marking(t, "signal", "signal")),
            None => false,
        };
        Ok(QueueSpec::Codel { limit, target, interval, mode, law_interval, high_cong_after, signal_on_arrival })
    }

    fn needs_marking(&self, t: &Tbl<'_, '_>, key: &str, what: &str) -> crate::scenario::toml::ScenarioError {
        let msg = format!("{what} needs a marking queue: mode = \"mark\" or discipline = \"pcon\"");
        self.ctx.err(t.key_span(key), &t.field(key), msg)
    }
}
