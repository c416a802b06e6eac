//! The per-face and per-node time series `[trace] faces` and `nodes` turn on: ndnSIM's
//! L3RateTracer (utils/tracers/l3-rate-tracer.cpp: per face, In/Out Interests, Data and Nacks,
//! Satisfied and TimedOut Interests) and CsTracer (utils/tracers/ndn-cs-tracer.cpp: CacheHits,
//! CacheMisses), with the PIT and Content Store sizes.
//!
//! The forwarder keeps its counters as cumulative integers whether or not anyone reads them (NFD
//! keeps FaceCounters and ForwarderCounters the same way); at each bin end the recorder stores the
//! differences, as it does for links, so rows add up to the totals. Where ndnSIM writes an
//! exponentially weighted rate per period, a row holds the raw count of its bin (ndnSIM's
//! PacketsRaw): a rate is a division by the bin width away, an average cannot be undone.

use ndnflow_core::fw::{FaceCounters, ForwarderCounters};
use ndnflow_core::Time;

use crate::build::{FaceTarget, Network};
use crate::scenario::model::{Scenario, TraceSpec};

/// Pushes one value per listed column.
macro_rules! push_row {
    ($series:expr, $($column:ident = $value:expr),+ $(,)?) => {{ $($series.$column.push($value);)+ }};
}

/// Drops every row from index `keep` on, in each listed column.
macro_rules! truncate_rows {
    ($series:expr, $keep:expr, $($column:ident),+) => {{ $($series.$column.truncate($keep);)+ }};
}

/// Packets received and sent, by kind: the columns the face and node traces share.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct PacketColumns {
    pub in_interests: Vec<u64>,
    pub out_interests: Vec<u64>,
    pub in_data: Vec<u64>,
    pub out_data: Vec<u64>,
    pub in_nacks: Vec<u64>,
    pub out_nacks: Vec<u64>,
}

impl PacketColumns {
    /// One row: counts by kind (`FaceCounters::INTERESTS`, `DATA`, `NACKS`).
    fn push(&mut self, received: [u64; 3], sent: [u64; 3]) {
        let [i, d, n] = received;
        let [oi, od, on] = sent;
        push_row!(self, in_interests = i, in_data = d, in_nacks = n, out_interests = oi, out_data = od, out_nacks = on);
    }

    fn truncate(&mut self, keep: usize) {
        truncate_rows!(self, keep, in_interests, out_interests, in_data, out_data, in_nacks, out_nacks);
    }
}

/// One row per (face, bin), columnar; `face` indexes `Results::face_names`.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct FaceSeries {
    pub time_s: Vec<f64>,
    pub face: Vec<u32>,
    pub packets: PacketColumns,
    pub in_bytes: Vec<u64>,
    pub out_bytes: Vec<u64>,
    pub satisfied: Vec<u64>,
    pub timed_out: Vec<u64>,
}

/// One row per (node, bin), columnar; `node` indexes `Results::node_names`.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct NodeSeries {
    pub time_s: Vec<f64>,
    pub node: Vec<u32>,
    pub packets: PacketColumns,
    pub cs_hits: Vec<u64>,
    pub cs_misses: Vec<u64>,
    pub forwarded: Vec<u64>,
    pub aggregated: Vec<u64>,
    pub rejected: Vec<u64>,
    pub loops: Vec<u64>,
    pub hop_limit_drops: Vec<u64>,
    pub unsolicited_data: Vec<u64>,
    pub expired: Vec<u64>,
    pub cs_entries: Vec<u64>,
    pub cs_bytes: Vec<u64>,
    pub pit_entries: Vec<u64>,
}

/// A face as its rows name it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FaceName {
    pub node: String,
    /// The neighbour's name for a link face; "app" for a node's only application, "app#k" (k
    /// from 0: its producers in file order, then its consumers) on a node with several.
    pub face: String,
    /// "link" or "app".
    pub kind: &'static str,
}

/// Each face's name, faces of the first node first, each node's in `FaceId` order (the order
/// of `Recorder` rows within a bin).
pub fn face_names(s: &Scenario, net: &Network) -> Vec<FaceName> {
    let mut names = Vec::new();
    for (n, node) in net.nodes.iter().enumerate() {
        let apps = node.faces.iter().filter(|f| matches!(f, FaceTarget::App(_))).count();
        let mut k = 0;
        for target in &node.faces {
            let (face, kind) = match *target {
                FaceTarget::Link(d) => (s.nodes[net.dirs[d as usize].to].name.clone(), "link"),
                FaceTarget::App(_) if apps == 1 => ("app".to_string(), "app"),
                FaceTarget::App(_) => {
                    k += 1;
                    (format!("app#{}", k - 1), "app")
                }
            };
            names.push(FaceName { node: s.nodes[n].name.clone(), face, kind });
        }
    }
    names
}

/// Samples the forwarders' counters at each bin end (`trace::Recorder` calls it at its own).
#[derive(Clone, Debug)]
pub struct CounterRecorder {
    spec: TraceSpec,
    last_faces: Vec<FaceCounters>,
    last_nodes: Vec<ForwarderCounters>,
    /// The counters at the last closed bin's start and the row counts before it: what reopening
    /// that bin needs.
    prev_faces: Vec<FaceCounters>,
    prev_nodes: Vec<ForwarderCounters>,
    rows_before: (usize, usize),
    pub faces: FaceSeries,
    pub nodes: NodeSeries,
}

impl CounterRecorder {
    /// A recorder for the traces `spec` turns on; `None` when it turns on neither.
    pub fn new(spec: &TraceSpec, net: &Network) -> Option<CounterRecorder> {
        if !spec.faces && !spec.nodes {
            return None;
        }
        let n_faces = net.nodes.iter().map(|n| n.faces.len()).sum();
        let n_nodes = net.nodes.len();
        Some(CounterRecorder {
            spec: spec.clone(),
            last_faces: vec![FaceCounters::default(); n_faces],
            last_nodes: vec![ForwarderCounters::default(); n_nodes],
            prev_faces: vec![FaceCounters::default(); n_faces],
            prev_nodes: vec![ForwarderCounters::default(); n_nodes],
            rows_before: (0, 0),
            faces: FaceSeries::default(),
            nodes: NodeSeries::default(),
        })
    }

    pub fn rows(&self) -> usize {
        self.faces.time_s.len() + self.nodes.time_s.len()
    }

    /// Closes the bin starting at `start` with the counters `net` holds now.
    pub fn push_bin(&mut self, start: Time, net: &Network) {
        self.prev_faces.clone_from(&self.last_faces);
        self.prev_nodes.clone_from(&self.last_nodes);
        self.rows_before = (self.faces.time_s.len(), self.nodes.time_s.len());
        let t = start.as_secs_f64();
        let mut code = 0;
        for (n, node) in net.nodes.iter().enumerate() {
            let fw = &node.fw;
            if self.spec.faces {
                for c in fw.face_counters() {
                    self.push_face(t, code, *c);
                    code += 1;
                }
            }
            if self.spec.nodes {
                let sizes = [fw.cs.len() as u64, fw.cs.bytes() as u64, fw.pit.len() as u64];
                self.push_node(t, n, fw.counters, sizes);
            }
        }
    }

    /// Takes the last closed bin's rows back out and restores the counters of its start.
    pub fn reopen_last_bin(&mut self) {
        let (faces, nodes) = self.rows_before;
        #[rustfmt::skip]
        truncate_rows!(self.faces, faces, time_s, face, in_bytes, out_bytes, satisfied, timed_out);
        #[rustfmt::skip]
        truncate_rows!(self.nodes, nodes, time_s, node, cs_hits, cs_misses, forwarded, aggregated, rejected, loops,
                       hop_limit_drops, unsolicited_data, expired, cs_entries, cs_bytes, pit_entries);
        self.faces.packets.truncate(faces);
        self.nodes.packets.truncate(nodes);
        std::mem::swap(&mut self.last_faces, &mut self.prev_faces);
        std::mem::swap(&mut self.last_nodes, &mut self.prev_nodes);
    }

    fn push_face(&mut self, t: f64, code: usize, c: FaceCounters) {
        let p = std::mem::replace(&mut self.last_faces[code], c);
        self.faces.packets.push(minus(c.received, p.received), minus(c.sent, p.sent));
        push_row!(
            self.faces,
            time_s = t,
            face = code as u32,
            in_bytes = c.in_bytes - p.in_bytes,
            out_bytes = c.out_bytes - p.out_bytes,
            satisfied = c.satisfied - p.satisfied,
            timed_out = c.timed_out - p.timed_out,
        );
    }

    /// `[cs entries, cs bytes, pit entries]` are gauges at the bin's end.
    fn push_node(&mut self, t: f64, n: usize, c: ForwarderCounters, [cs_entries, cs_bytes, pit_entries]: [u64; 3]) {
        let p = std::mem::replace(&mut self.last_nodes[n], c);
        let received = [c.in_interests - p.in_interests, c.in_data - p.in_data, c.in_nacks - p.in_nacks];
        let sent = [c.out_interests - p.out_interests, c.out_data - p.out_data, c.out_nacks - p.out_nacks];
        self.nodes.packets.push(received, sent);
        push_row!(
            self.nodes,
            time_s = t,
            node = n as u32,
            cs_hits = c.cs_hits - p.cs_hits,
            cs_misses = c.cs_misses - p.cs_misses,
            forwarded = c.forwarded - p.forwarded,
            aggregated = c.aggregated - p.aggregated,
            rejected = c.rejected - p.rejected,
            loops = c.duplicates - p.duplicates,
            hop_limit_drops = c.hop_limit_on_arrival - p.hop_limit_on_arrival,
            unsolicited_data = c.unsolicited_data - p.unsolicited_data,
            expired = c.expired - p.expired,
            cs_entries = cs_entries,
            cs_bytes = cs_bytes,
            pit_entries = pit_entries,
        );
    }
}

/// `a - b`, kind by kind.
fn minus(a: [u64; 3], b: [u64; 3]) -> [u64; 3] {
    [a[0] - b[0], a[1] - b[1], a[2] - b[2]]
}
