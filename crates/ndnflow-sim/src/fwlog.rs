//! The forwarding log's simulator side (docs/protocols/forwarder.md, "Forwarding log"): the
//! records the forwarders (`ndnflow_core::fw::log`) and the link queues (`link_log.rs`) push,
//! taken in the order they happen, bounded by `max_records`, and turned into rows of text columns
//! (`trace_schema::FORWARDING`) when the run's traces are read. The Python front writes them as
//! `forwarding.parquet` and, one line per row, as `forwarding.log`.

use ndnflow_core::fw::log::{DecisionKind, Detail, ForwardingLog, FwRecord, LpSummary, NackDecisionKind};
use ndnflow_core::table::FaceId;

/// The records of a run, in the order they happened (within an instant, in the order the engine
/// ran the steps), each with the index of its node.
#[derive(Clone, Debug, Default)]
pub struct FwLogRecorder {
    pub max_records: u64,
    pub records: Vec<(u32, FwRecord)>,
    /// Records that came after the cap, counted and not kept.
    pub dropped: u64,
}

impl FwLogRecorder {
    pub fn new(max_records: u64) -> FwLogRecorder {
        FwLogRecorder { max_records, records: Vec::new(), dropped: 0 }
    }

    /// Takes what `log` (node `node`'s forwarder's, or a queue's of that node) holds.
    pub fn take(&mut self, node: usize, log: &mut ForwardingLog) {
        for record in log.drain() {
            if (self.records.len() as u64) < self.max_records {
                self.records.push((node as u32, record));
            } else {
                self.dropped += 1;
            }
        }
    }
}

/// The rows of the log as `trace_schema::FORWARDING` reads them: `time_s` per row, and per row
/// an entry of `lines` with its text columns (`row[k] == k`: each row is its own label entry).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ForwardingSeries {
    pub time_s: Vec<f64>,
    pub row: Vec<u32>,
    pub lines: Vec<LogLine>,
}

/// The text columns of one row.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LogLine {
    pub node: String,
    pub event: String,
    pub face_in: String,
    pub face_out: String,
    pub name: String,
    pub nonce: String,
    pub detail: String,
}

/// The recorder's records as rows; `node_name` names a node, `face` a node's face ("c" for the
/// link to node c, "app:..." for an application).
pub fn series(
    rec: &FwLogRecorder,
    node_name: impl Fn(usize) -> String,
    face: impl Fn(usize, FaceId) -> String,
) -> ForwardingSeries {
    let mut out = ForwardingSeries::default();
    for (k, (node, r)) in rec.records.iter().enumerate() {
        let n = *node as usize;
        let label = |f: Option<FaceId>| f.map(|f| face(n, f)).unwrap_or_default();
        out.time_s.push(r.time.as_secs_f64());
        out.row.push(k as u32);
        out.lines.push(LogLine {
            node: node_name(n),
            event: r.event.nfd_name().to_string(),
            face_in: label(r.face_in),
            face_out: label(r.face_out),
            name: r.name.to_string(),
            nonce: r.nonce.map(|x| x.to_string()).unwrap_or_default(),
            detail: detail_text(&r.detail, |f| face(n, f)),
        });
    }
    out
}

/// A record's detail column: "key=value" words, or the strategy's own reason in words.
pub fn detail_text(detail: &Detail, face: impl Fn(FaceId) -> String) -> String {
    match detail {
        Detail::None => String::new(),
        Detail::Lp(lp) => lp_text(lp),
        Detail::Decision { strategy, decision, reason } => {
            let what = match decision {
                DecisionKind::Forward(n) => format!("forward to {n}"),
                DecisionKind::Reject(r) => format!("reject Nack={r:?}"),
                DecisionKind::Suppress => "suppress".to_string(),
            };
            match reason.as_ref() {
                "" => format!("strategy={strategy} {what}"),
                why => format!("strategy={strategy} {what}: {why}"),
            }
        }
        Detail::NackDecision { strategy, decision } => {
            let what = match decision {
                NackDecisionKind::Wait => "wait for other upstreams".to_string(),
                NackDecisionKind::Retry(n) => format!("retry on {n}"),
                NackDecisionKind::NackDownstream(r) => format!("nack downstream Nack={r:?}"),
            };
            format!("strategy={strategy} {what}")
        }
        Detail::Nack { reason, lp } => match lp_text(lp) {
            lp if lp.is_empty() => format!("reason={reason:?}"),
            lp => format!("reason={reason:?} {lp}"),
        },
        Detail::Finalize { satisfied: true, cause } => format!("satisfied by {cause}"),
        Detail::Finalize { satisfied: false, cause } => format!("unsatisfied: {cause}"),
        Detail::Shares(shares) => {
            let parts: Vec<String> = shares.iter().map(|(f, p)| format!("{}={:.2}%", face(*f), p * 100.0)).collect();
            parts.join(" ")
        }
        Detail::Queue { packet, cause, sojourn, queued } => {
            let mut text = format!("packet={packet}");
            if !cause.is_empty() {
                text += &format!(" cause=\"{cause}\"");
            }
            text + &format!(" sojourn_ms={:.3} queued={queued}", sojourn.as_millis_f64())
        }
    }
}

/// The link-header fields set, as "mark=1 hops=2 flags=0x4 tags=3 top=17 path=5".
fn lp_text(lp: &LpSummary) -> String {
    let mut words = Vec::new();
    if lp.mark != 0 {
        words.push(format!("mark={}", lp.mark));
    }
    if let Some(h) = lp.hop_count {
        words.push(format!("hops={h}"));
    }
    if lp.flags != 0 {
        words.push(format!("flags={:#x}", lp.flags));
    }
    if lp.tags > 0 {
        words.push(format!("tags={}", lp.tags));
    }
    if let Some(t) = lp.top_tag {
        words.push(format!("top={t}"));
    }
    if let Some(p) = lp.path_id {
        words.push(format!("path={p}"));
    }
    if lp.non_discovery {
        words.push("non-discovery".to_string());
    }
    if lp.announcement {
        words.push("prefix-announcement".to_string());
    }
    words.join(" ")
}
