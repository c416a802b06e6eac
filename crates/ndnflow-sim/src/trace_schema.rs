//! The columns of the time series, `links`, `consumers` and `paths`: name, type, unit and meaning, in
//! the one place they are defined. The PyO3 layer converts a run's series by walking these tables,
//! and the Python front reads its column lists and dtypes from them (`_core.trace_schema()`), so a
//! column added here reaches the DataFrames and the Parquet files with no other edit.
//! docs/protocols/links.md ("Traces") explains each column at length; a test keeps its tables
//! listing exactly these columns, in this order.

use crate::fwlog::{ForwardingSeries, LogLine};
use crate::trace::{ConsumerName, ConsumerSeries, DirName, LinkSeries, ObjectSeries, PathName, PathSeries};
use crate::trace_counters::{FaceName, FaceSeries, NodeSeries};
use crate::trace_interests::{InterestName, InterestSeries};

/// How a column's values are read from its series.
pub enum Values<S: 'static, L: 'static> {
    Float(fn(&S) -> &[f64]),
    /// Counters and gauges; Python stores them as int64 (they never come near 2^63).
    Int(fn(&S) -> &[u64]),
    /// A label of the row's link direction or consumer, from the run's name table (rows hold an
    /// index into it, so a long trace holds no string per row).
    Label(fn(&L) -> &str),
}

/// One column of a trace. `S` is the series it is read from, `L` the name-table entry its rows
/// point to.
pub struct Column<S: 'static, L: 'static> {
    pub name: &'static str,
    /// Unit of the values, "" for labels.
    pub unit: &'static str,
    pub meaning: &'static str,
    pub values: Values<S, L>,
}

impl<S, L> Column<S, L> {
    /// The column's type as numpy and pandas name it.
    pub fn dtype(&self) -> &'static str {
        match self.values {
            Values::Float(_) => "float64",
            Values::Int(_) => "int64",
            Values::Label(_) => "str",
        }
    }

    const fn float(name: &'static str, unit: &'static str, meaning: &'static str, f: fn(&S) -> &[f64]) -> Self {
        Column { name, unit, meaning, values: Values::Float(f) }
    }

    const fn int(name: &'static str, unit: &'static str, meaning: &'static str, f: fn(&S) -> &[u64]) -> Self {
        Column { name, unit, meaning, values: Values::Int(f) }
    }

    const fn label(name: &'static str, meaning: &'static str, f: fn(&L) -> &str) -> Self {
        Column { name, unit: "", meaning, values: Values::Label(f) }
    }
}

/// A trace: its columns, and where each row's index into the name table is.
pub struct Table<S: 'static, L: 'static> {
    /// "links" or "consumers", as `Results` and the Parquet files name the trace.
    pub name: &'static str,
    /// What one row is.
    pub row: &'static str,
    /// Each row's index into the name table.
    pub codes: fn(&S) -> &[u32],
    pub columns: &'static [Column<S, L>],
}

type LinkColumn = Column<LinkSeries, DirName>;
type ConsumerColumn = Column<ConsumerSeries, ConsumerName>;
type PathColumn = Column<PathSeries, PathName>;
type ObjectColumn = Column<ObjectSeries, ConsumerName>;
type ForwardingColumn = Column<ForwardingSeries, LogLine>;
type InterestColumn = Column<InterestSeries, InterestName>;
type FaceColumn = Column<FaceSeries, FaceName>;
type NodeColumn = Column<NodeSeries, String>;

pub static LINKS: Table<LinkSeries, DirName> = Table {
    name: "links",
    row: "one link direction (underlay hops included) in one time bin",
    codes: |s| &s.dir,
    columns: &[
        LinkColumn::float("time_s", "s", "start of the bin", |s| &s.time_s),
        LinkColumn::label("link", "the direction's name: \"src->dst\", underlay hops \"src->dst/uK\"", |n| &n.name),
        LinkColumn::label("src", "node the direction leaves", |n| &n.src),
        LinkColumn::label("dst", "node the direction reaches", |n| &n.dst),
        LinkColumn::int("bytes", "bytes", "wire bytes of the packets whose transmission started in the bin", |s| {
            &s.bytes
        }),
        LinkColumn::int("packets", "packets", "packets whose transmission started in the bin", |s| &s.packets),
        LinkColumn::int("interests", "packets", "of which Interests", |s| &s.interests),
        LinkColumn::int("data", "packets", "of which Data", |s| &s.data),
        LinkColumn::int("nacks", "packets", "of which Nacks", |s| &s.nacks),
        LinkColumn::int("drops", "packets", "dropped by the direction's queue or while it was down", |s| &s.drops),
        LinkColumn::int("marks", "packets", "congestion-marked by this direction", |s| &s.marks),
        LinkColumn::int("losses", "packets", "lost on the wire by the loss model", |s| &s.losses),
        LinkColumn::float("throughput_bps", "bit/s", "bytes x 8 / bin width", |s| &s.throughput_bps),
        LinkColumn::int("queue_packets", "packets", "queue length at the end of the bin", |s| &s.queue_packets),
        LinkColumn::int("queue_bytes", "bytes", "queue length at the end of the bin", |s| &s.queue_bytes),
        LinkColumn::float(
            "sojourn_ms",
            "ms",
            "mean queueing delay of the packets that started transmission in the bin; NaN if none",
            |s| &s.sojourn_ms,
        ),
    ],
};

pub static CONSUMERS: Table<ConsumerSeries, ConsumerName> = Table {
    name: "consumers",
    row: "one consumer in one time bin",
    codes: |s| &s.consumer,
    columns: &[
        ConsumerColumn::float("time_s", "s", "start of the bin", |s| &s.time_s),
        ConsumerColumn::label("consumer", "the consumer's id: its node, or \"node#k\" on a node with several", |n| {
            &n.id
        }),
        ConsumerColumn::label("node", "node the consumer runs on", |n| &n.node),
        ConsumerColumn::float("goodput_bps", "bit/s", "Content bytes accepted x 8 / bin width", |s| &s.goodput_bps),
        ConsumerColumn::int("data", "packets", "Data accepted", |s| &s.data),
        ConsumerColumn::int("interests", "packets", "Interests sent, retransmissions included", |s| &s.interests),
        ConsumerColumn::int("retransmissions", "count", "Interests sent again", |s| &s.retransmissions),
        ConsumerColumn::int("timeouts", "count", "retransmission timer expiries", |s| &s.timeouts),
        ConsumerColumn::int("nacks", "count", "Nacks received", |s| &s.nacks),
        ConsumerColumn::int(
            "losses",
            "count",
            "Interests a multipath transport found lost by order (not by a Nack)",
            |s| &s.losses,
        ),
        ConsumerColumn::int("marks", "packets", "congestion-marked Data received", |s| &s.marks),
        ConsumerColumn::float(
            "window",
            "Interests",
            "the controller's window at the end of the bin; NaN for rate-based consumers and while inactive",
            |s| &s.window,
        ),
        ConsumerColumn::float("rtt_ms", "ms", "mean RTT sample of the bin; NaN if none", |s| &s.rtt_ms),
    ],
};

/// PTP §6 asks for each consumer's paths "found, in use, failed, per-path rate and window over
/// time"; only multipath consumers (PTP, MPTCP) have rows.
pub static PATHS: Table<PathSeries, PathName> = Table {
    name: "paths",
    row: "one path of a multipath consumer in one time bin, from the bin it was found",
    codes: |s| &s.path,
    columns: &[
        PathColumn::float("time_s", "s", "start of the bin", |s| &s.time_s),
        PathColumn::label("consumer", "the consumer's id, as in consumers.parquet", |n| &n.consumer),
        PathColumn::label("node", "node the consumer runs on", |n| &n.node),
        PathColumn::int(
            "path",
            "index",
            "the path's index among its consumer's paths, in the order found (as summary.json's paths list)",
            |s| &s.index,
        ),
        PathColumn::label(
            "route",
            "its tag stack, bottom (the producer's node) first, faces separated by spaces",
            |n| &n.route,
        ),
        PathColumn::int("in_use", "0 or 1", "1 if the path was in use at the end of the bin", |s| &s.in_use),
        PathColumn::int("failed", "0 or 1", "1 if the path was failed (Nack NoRoute) at the end of the bin", |s| {
            &s.failed
        }),
        PathColumn::int("data", "packets", "Data received on the path in the bin (probes not included)", |s| &s.data),
        PathColumn::float("window", "Interests", "the path's congestion window at the end of the bin", |s| &s.window),
        PathColumn::float(
            "srtt_ms",
            "ms",
            "the path's smoothed RTT at the end of the bin; NaN before its first sample",
            |s| &s.srtt_ms,
        ),
        PathColumn::float(
            "sharing",
            "sub-flows",
            "SMIC: the sub-flows found to share its bottleneck, itself included (|S_r|), at the end of the bin while in use; NaN otherwise",
            |s| &s.sharing,
        ),
    ],
};

/// The catalog workload's per-object completion times (SMIC §5's retrieval time); only catalog
/// consumers have rows.
pub static OBJECTS: Table<ObjectSeries, ConsumerName> = Table {
    name: "objects",
    row: "one object a catalog consumer requested, in the order requested",
    codes: |s| &s.consumer,
    columns: &[
        ObjectColumn::label("consumer", "the consumer's id, as in consumers.parquet", |n| &n.id),
        ObjectColumn::label("node", "node the consumer runs on", |n| &n.node),
        ObjectColumn::int(
            "object",
            "rank",
            "the object's popularity rank, 1 = most popular; its name is <name>/<rank>",
            |s| &s.rank,
        ),
        ObjectColumn::float("start_s", "s", "when its first Interest could leave (the previous object's end)", |s| {
            &s.start_s
        }),
        ObjectColumn::float("end_s", "s", "when its last segment arrived; NaN if unfinished at the run's end", |s| {
            &s.end_s
        }),
        ObjectColumn::int("bytes", "bytes", "Content bytes received for it", |s| &s.bytes),
        ObjectColumn::int(
            "paths",
            "count",
            "distinct paths its Data came over (a multipath consumer's paths; 1 for single path)",
            |s| &s.paths,
        ),
    ],
};

/// ndnSIM's AppDelayTracer (`[trace] interests = true`): one row per segment a consumer got Data
/// for, and one per segment it gave up; only with the trace on.
pub static INTERESTS: Table<InterestSeries, InterestName> = Table {
    name: "interests",
    row: "one segment a consumer got Data for or gave up, in the order settled",
    codes: |s| &s.consumer,
    columns: &[
        InterestColumn::label("consumer", "the consumer's id, as in consumers.parquet", |n| &n.id),
        InterestColumn::label("node", "node the consumer runs on", |n| &n.node),
        InterestColumn::label("prefix", "the consumer's name (a catalog consumer's prefix)", |n| &n.prefix),
        InterestColumn::int("object", "rank", "a catalog consumer's object, named <prefix>/<rank>; 0 otherwise", |s| {
            &s.object
        }),
        InterestColumn::int("segment", "number", "the segment number in the Data's name", |s| &s.segment),
        InterestColumn::float("first_sent_s", "s", "when its first Interest left", |s| &s.first_sent_s),
        InterestColumn::float("last_sent_s", "s", "when its last Interest left", |s| &s.last_sent_s),
        InterestColumn::float("arrival_s", "s", "when its Data arrived; NaN if given up", |s| &s.arrival_s),
        InterestColumn::float("last_delay_s", "s", "arrival - last send (AppDelayTracer's LastDelay); NaN if given up", |s| {
            &s.last_delay_s
        }),
        InterestColumn::float("full_delay_s", "s", "arrival - first send (AppDelayTracer's FullDelay); NaN if given up", |s| {
            &s.full_delay_s
        }),
        InterestColumn::int("retransmissions", "count", "Interests sent again for it", |s| &s.retransmissions),
        InterestColumn::float(
            "path",
            "index",
            "the path its last Interest took: a multipath consumer's path index (as paths.parquet), SMIC's path id; NaN for single path",
            |s| &s.path,
        ),
        InterestColumn::float(
            "hops",
            "links",
            "links its Data crossed from the node that answered (producer's or store's) to the consumer's; NaN if given up",
            |s| &s.hops,
        ),
        InterestColumn::float(
            "from_cache",
            "0/1",
            "1 when a Content Store or simulated cache answered, 0 when a producer did; NaN if given up",
            |s| &s.from_cache,
        ),
    ],
};

/// ndnSIM's L3RateTracer per face (`[trace] faces = true`); docs/protocols/links.md says how each
/// counter compares with NFD's FaceCounters and ndnSIM's.
pub static FACES: Table<FaceSeries, FaceName> = Table {
    name: "faces",
    row: "one face of one node in one time bin",
    codes: |s| &s.face,
    columns: &[
        FaceColumn::float("time_s", "s", "start of the bin", |s| &s.time_s),
        FaceColumn::label("node", "node the face belongs to", |n| &n.node),
        FaceColumn::label(
            "face",
            "the neighbour's name for a link face; \"app\" for the node's application (\"app#k\" on a node with several)",
            |n| &n.face,
        ),
        FaceColumn::label("kind", "\"link\" or \"app\"", |n| n.kind),
        FaceColumn::int("in_interests", "packets", "Interests received on the face", |s| &s.packets.in_interests),
        FaceColumn::int("out_interests", "packets", "Interests sent on the face", |s| &s.packets.out_interests),
        FaceColumn::int("in_data", "packets", "Data received on the face", |s| &s.packets.in_data),
        FaceColumn::int("out_data", "packets", "Data sent on the face", |s| &s.packets.out_data),
        FaceColumn::int("in_nacks", "packets", "Nacks received on the face (a link's given-up Data included)", |s| {
            &s.packets.in_nacks
        }),
        FaceColumn::int("out_nacks", "packets", "Nacks sent on the face", |s| &s.packets.out_nacks),
        FaceColumn::int("in_bytes", "bytes", "NDN packet bytes received (no link header)", |s| &s.in_bytes),
        FaceColumn::int("out_bytes", "bytes", "NDN packet bytes sent (no link header)", |s| &s.out_bytes),
        FaceColumn::int(
            "satisfied",
            "count",
            "Interests from this face satisfied: its in-records of PIT entries a Data satisfied, and its Content Store hits",
            |s| &s.satisfied,
        ),
        FaceColumn::int("timed_out", "count", "its in-records of PIT entries that expired unsatisfied", |s| {
            &s.timed_out
        }),
    ],
};

/// Per-node forwarder counters (`[trace] nodes = true`): ndnSIM's CsTracer, the PIT's size, and
/// what became of each Interest (docs/protocols/links.md states the identity they satisfy).
pub static NODES: Table<NodeSeries, String> = Table {
    name: "nodes",
    row: "one node in one time bin",
    codes: |s| &s.node,
    columns: &[
        NodeColumn::float("time_s", "s", "start of the bin", |s| &s.time_s),
        NodeColumn::label("node", "the node's name", |n| n),
        NodeColumn::int("in_interests", "packets", "Interests received, on every face", |s| &s.packets.in_interests),
        NodeColumn::int("out_interests", "packets", "Interests sent, on every face", |s| &s.packets.out_interests),
        NodeColumn::int("in_data", "packets", "Data received", |s| &s.packets.in_data),
        NodeColumn::int("out_data", "packets", "Data sent", |s| &s.packets.out_data),
        NodeColumn::int("in_nacks", "packets", "Nacks received", |s| &s.packets.in_nacks),
        NodeColumn::int("out_nacks", "packets", "Nacks sent", |s| &s.packets.out_nacks),
        NodeColumn::int("cs_hits", "count", "Interests answered from the Content Store", |s| &s.cs_hits),
        NodeColumn::int("cs_misses", "count", "Content Store lookups that found nothing", |s| &s.cs_misses),
        NodeColumn::int("forwarded", "count", "Interests past the Content Store the strategy forwarded", |s| {
            &s.forwarded
        }),
        NodeColumn::int("aggregated", "count", "Interests that joined a pending entry without being forwarded", |s| {
            &s.aggregated
        }),
        NodeColumn::int("rejected", "count", "Interests past the Content Store the strategy Nacked", |s| &s.rejected),
        NodeColumn::int("loops", "count", "Interests dropped as loops (nonce seen), each answered by a Nack", |s| {
            &s.loops
        }),
        NodeColumn::int("hop_limit_drops", "count", "Interests dropped on arrival with HopLimit 0", |s| {
            &s.hop_limit_drops
        }),
        NodeColumn::int("unsolicited_data", "packets", "Data that matched no PIT entry", |s| &s.unsolicited_data),
        NodeColumn::int("expired", "count", "PIT entries that expired unsatisfied", |s| &s.expired),
        NodeColumn::int("cs_entries", "packets", "Data in the Content Store at the end of the bin", |s| &s.cs_entries),
        NodeColumn::int("cs_bytes", "bytes", "their payload bytes at the end of the bin", |s| &s.cs_bytes),
        NodeColumn::int("pit_entries", "count", "PIT entries at the end of the bin (lingering ones included)", |s| {
            &s.pit_entries
        }),
    ],
};

/// The forwarding log (`[trace] forwarding`; docs/protocols/forwarder.md, "Forwarding log"):
/// NFD's Forwarder and Strategy DEBUG lines, and queue drops and marks; only runs with the log on
/// have rows. Each row is its own label entry (`LogLine`).
pub static FORWARDING: Table<ForwardingSeries, LogLine> = Table {
    name: "forwarding",
    row: "one pipeline step, strategy decision or queue event at one node, in the order they ran",
    codes: |s| &s.row,
    columns: &[
        ForwardingColumn::float("time_s", "s", "simulated time of the step", |s| &s.time_s),
        ForwardingColumn::label("node", "node the step ran at (for a queue event, the sending node)", |l| &l.node),
        ForwardingColumn::label("event", "NFD's name for the step, e.g. onIncomingInterest", |l| &l.event),
        ForwardingColumn::label(
            "face_in",
            "face it came in on: the neighbour's name, or app:<consumer id>, app:producer; \"\" if none",
            |l| &l.face_in,
        ),
        ForwardingColumn::label("face_out", "face it goes out on, named as face_in; \"\" if none", |l| &l.face_out),
        ForwardingColumn::label("name", "the packet's name (a FIB prefix for forwardingPercentages)", |l| &l.name),
        ForwardingColumn::label("nonce", "the Interest's or Nack's nonce, decimal; \"\" if none", |l| &l.nonce),
        ForwardingColumn::label(
            "detail",
            "the decision and its reason, link-header fields, Nack reason, queue cause",
            |l| &l.detail,
        ),
    ],
};

#[cfg(test)]
#[path = "trace_schema_tests.rs"]
mod tests;
