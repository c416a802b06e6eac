//! The reader of a link direction's transmit queue, `queue = { discipline = "...", ... }`: a
//! `QueueReader` per discipline (its name, the keys it takes, its default limit, a function that
//! reads the rest) registered in `QUEUES`. The shared part here finds the discipline, rejects keys
//! that belong to another one (naming the disciplines that take them), and reads the limit
//! (`packets` or `bytes`), which every discipline has.
//!
//! Adding a queue discipline: its core type in `ndnflow_core::link`, a `QueueSpec` variant and its
//! build, a file here with its `READER`, one line in `QUEUES`, its rows in docs/scenario-format.md
//! and docs/protocols/queues.md, and a test.

mod codel;
mod droptail;
mod mircc;
mod pcon;
mod rem;

use super::values::Tbl;
use super::{Reader, Res, Val};
use crate::scenario::model::{QueueLimit, QueueSpec};

/// One discipline's reader.
pub(super) struct QueueReader {
    /// The `discipline` value.
    name: &'static str,
    /// The keys it takes besides `discipline` and the limit.
    keys: &'static [&'static str],
    /// The limit when neither `packets` nor `bytes` is given.
    default_limit: QueueLimit,
    read: fn(&Reader<'_, '_>, &Tbl<'_, '_>, QueueLimit) -> Res<QueueSpec>,
    /// Said after "only applies to ..." when one of `hint_keys` is given.
    hint: Option<(&'static [&'static str], &'static str)>,
}

/// Every discipline, in the order error messages list them; the first is the default.
const QUEUES: &[QueueReader] = &[droptail::READER, codel::READER, pcon::READER, rem::READER, mircc::READER];

/// The limit's keys, which every discipline takes.
const LIMIT: &[&str] = &["packets", "bytes"];

const WHAT: &str = "a table such as { discipline = \"droptail\", packets = 100 }";

/// `"key" only applies to discipline = "a" or "b"`, naming every discipline that takes the key.
fn key_refused(key: &str, queue: &QueueReader) -> String {
    let takers: Vec<String> =
        QUEUES.iter().filter(|q| q.keys.contains(&key)).map(|q| format!("{:?}", q.name)).collect();
    let mut msg = format!("{key:?} only applies to discipline = {}", takers.join(" or "));
    if let Some((keys, hint)) = queue.hint {
        if keys.contains(&key) {
            msg.push_str("; ");
            msg.push_str(hint);
        }
    }
    msg
}

impl Reader<'_, '_> {
    pub(super) fn queue(&self, v: &Val<'_>, path: &str) -> Res<QueueSpec> {
        let mut all: Vec<&str> = vec!["discipline"];
        for key in LIMIT.iter().chain(QUEUES.iter().flat_map(|q| q.keys.iter())) {
            if !all.contains(key) {
                all.push(key);
            }
        }
        let t = self.table(v, path, &all, WHAT)?;
        let names: Vec<&str> = QUEUES.iter().map(|q| q.name).collect();
        let queue = match t.get("discipline") {
            Some(d) => {
                let name = self.choice(d, &t.field("discipline"), &names)?;
                QUEUES.iter().find(|q| q.name == name).unwrap_or(&QUEUES[0])
            }
            None => &QUEUES[0],
        };
        let limit = self.queue_limit(&t)?.unwrap_or(queue.default_limit);
        if let Some((key, _)) = t.entries.iter().find(|(k, _)| {
            let k = k.get_ref().as_ref();
            !(k == "discipline" || LIMIT.contains(&k) || queue.keys.contains(&k))
        }) {
            let key = key.get_ref().as_ref();
            return Err(self.ctx.err(t.key_span(key), &t.field(key), key_refused(key, queue)));
        }
        (queue.read)(self, &t, limit)
    }

    /// `packets = N` or `bytes = size`, not both; `None` when neither is given.
    fn queue_limit(&self, t: &Tbl<'_, '_>) -> Res<Option<QueueLimit>> {
        match (t.get("packets"), t.get("bytes")) {
            (Some(_), Some(_)) => Err(self.ctx.err(
                t.key_span("bytes"),
                &t.field("bytes"),
                "give either packets or bytes as the queue limit, not both",
            )),
            (Some(p), None) => {
                let n = self.positive_uint(p, &t.field("packets"))?;
                let n = usize::try_from(n).map_err(|_| self.ctx.err(p.span(), &t.field("packets"), "too large"))?;
                Ok(Some(QueueLimit::Packets(n)))
            }
            (None, Some(b)) => {
                let n = self.size(b, &t.field("bytes"))?;
                if n == 0 {
                    return Err(self.ctx.err(b.span(), &t.field("bytes"), "queue limit must be at least 1 byte"));
                }
                Ok(Some(QueueLimit::Bytes(n)))
            }
            (None, None) => Ok(None),
        }
    }
}
