//! Turns a validated `Scenario` into the simulator's nodes, link directions and applications.

use ndnflow_core::app::{CatalogConfig, Consumer, ConsumerConfig, Producer, ProducerConfig, ZipfMandelbrot};
use ndnflow_core::fw::{FaceKind, Forwarder};
use ndnflow_core::table::FaceId;
use ndnflow_core::{Name, Time};
use rustc_hash::FxHashMap;

use crate::link::{DirReliability, LinkDir};
use crate::rng::{component_rng, component_seed};
use crate::routing;
use crate::scenario::model::*;
use crate::trace::DirName;

/// Where a face of a node leads.
#[derive(Clone, Copy, Debug)]
pub enum FaceTarget {
    /// Out onto this link direction.
    Link(u32),
    /// To this application.
    App(u32),
}

pub struct Node {
    pub fw: Forwarder,
    pub faces: Vec<FaceTarget>,
    /// The earliest NodeWake scheduled and not yet fired (`Time::MAX` if none).
    pub wake_at: Time,
}

pub enum App {
    Producer(Producer),
    Consumer(Box<Consumer>),
}

pub struct AppSlot {
    pub node: usize,
    pub face: FaceId,
    pub app: App,
    pub wake_at: Time,
    /// Index into `Scenario::consumers`, for consumers.
    pub consumer: Option<usize>,
    pub done: bool,
}

pub struct Network {
    pub nodes: Vec<Node>,
    pub dirs: Vec<LinkDir>,
    pub apps: Vec<AppSlot>,
    /// For each scenario link, its two directions (a->b, b->a).
    pub link_dirs: Vec<(usize, usize)>,
    /// Each consumer's id (see `consumer_ids`), in scenario order.
    pub consumer_ids: Vec<String>,
    /// Each link direction's name ("a->b"), indexed like `dirs`.
    pub dir_names: Vec<DirName>,
}

/// The limit of a direction's output queue, as the forwarder sees it on the face (FPF). On a
/// direction with an MTU a packet limit counts link frames, so the face reports it in bytes,
/// packets x MTU, as ndnSIM's NetDeviceTransport does for a packet-mode queue (its send-queue
/// capacity is packets x 1500 there).
fn queue_limit(spec: &LinkDirSpec) -> ndnflow_core::link::Limit {
    use ndnflow_core::link::Limit;
    match (spec.queue.limit(), spec.mtu) {
        (QueueLimit::Packets(n), Some(mtu)) => Limit::Bytes(n.saturating_mul(mtu as usize)),
        (QueueLimit::Packets(n), None) => Limit::Packets(n),
        (QueueLimit::Bytes(n), _) => Limit::Bytes(n),
    }
}

fn forwarder(spec: &NodeSpec, seed: u64) -> Forwarder {
    Forwarder::new(spec.forwarder.clone(), seed)
}

/// One Zipf table per distinct (objects, alpha, q), shared by the consumers of that catalog: a
/// table is 8 bytes an object, and a hundred consumers of a million objects would otherwise hold
/// 800 MB of copies.
#[derive(Default)]
struct CatalogTables(FxHashMap<(u64, u64, u64), ZipfMandelbrot>);

impl CatalogTables {
    fn get(&mut self, c: &CatalogConfig) -> ZipfMandelbrot {
        self.0.entry(c.table_key()).or_insert_with(|| ZipfMandelbrot::new(c.objects, c.alpha, c.q)).clone()
    }
}

pub fn consumer_config(c: &ConsumerSpec) -> ConsumerConfig {
    ConsumerConfig {
        name: c.name.clone(),
        start: c.start,
        stop: c.stop,
        segments: c.segments,
        cc: c.cc,
        lifetime: c.lifetime,
        rtt: c.rto,
        max_retries: c.max_retries,
        in_flight: c.in_flight,
        send_jitter: c.send_jitter,
        catalog: c.catalog,
        batches: c.batches.clone(),
    }
}

pub fn build(s: &Scenario) -> Network {
    build_with_progress(s, &mut |_, _| {})
}

/// How often, in links, `build_with_progress` reports: often enough for a bar to move on a
/// 100,000-link scenario, rarely enough to cost nothing on a small one.
pub const PROGRESS_EVERY_LINKS: usize = 1024;

/// `build`, telling `progress(done, total)` how far it is, in steps of one node, link or
/// producer's routes (total: their sum), with `done` growing and ending at `total`.
pub fn build_with_progress(s: &Scenario, progress: &mut dyn FnMut(usize, usize)) -> Network {
    let total = s.nodes.len() + s.links.len() + s.producers.len();
    let mut nodes: Vec<Node> = s
        .nodes
        .iter()
        .map(|spec| Node {
            fw: forwarder(spec, component_seed(s.seed, "node", &spec.name)),
            faces: Vec::new(),
            wake_at: Time::MAX,
        })
        .collect();
    progress(s.nodes.len(), total);

    // Links: one face per end, one LinkDir per direction. Face of `to` for dir d is added first.
    let mut dirs = Vec::with_capacity(s.links.len() * 2);
    let mut dir_names = Vec::with_capacity(s.links.len() * 2);
    let mut link_dirs = Vec::with_capacity(s.links.len());
    // (node, edge index in routing::edges order) -> face at that node
    let mut edge_face: Vec<FaceId> = Vec::with_capacity(s.links.len() * 2);
    for (k, l) in s.links.iter().enumerate() {
        if k > 0 && k % PROGRESS_EVERY_LINKS == 0 {
            progress(s.nodes.len() + k, total);
        }
        let face_a = nodes[l.a].fw.add_face(FaceKind::Link);
        let face_b = nodes[l.b].fw.add_face(FaceKind::Link);
        // Each end learns the rate Data arrive at (the other direction) and its own queue (FPF).
        nodes[l.a].fw.set_face_link(face_a, l.ba.bandwidth_bps, queue_limit(&l.ab));
        nodes[l.b].fw.set_face_link(face_b, l.ab.bandwidth_bps, queue_limit(&l.ba));
        let mut dir = |from: (usize, FaceId), to: (usize, FaceId), spec: &LinkDirSpec, reverse: &LinkDirSpec| {
            let index = dirs.len();
            let (src, dst) = (s.nodes[from.0].name.clone(), s.nodes[to.0].name.clone());
            let name = direction_name(&src, &dst);
            let rng = component_rng(s.seed, "link", &name);
            dirs.push(LinkDir::new(index, (from, to), spec, reverse, rng));
            // The underlay hops of an overlay link: "a->b/u1", "a->b/u2", ... chained after it.
            let mut last = index;
            for (k, hop) in spec.underlay.iter().enumerate() {
                let hop_name = underlay_name(&name, k);
                let rng = component_rng(s.seed, "link", &hop_name);
                let d = LinkDir::underlay(&dirs[index], hop, rng);
                dirs.push(d);
                dirs[last].next = Some((dirs.len() - 1) as u32);
                last = dirs.len() - 1;
                dir_names.push(DirName { name: hop_name, src: src.clone(), dst: dst.clone() });
            }
            dir_names.insert(index, DirName { name, src, dst });
            (index, last)
        };
        let (ab, ab_last) = dir((l.a, face_a), (l.b, face_b), &l.ab, &l.ba);
        let (ba, ba_last) = dir((l.b, face_b), (l.a, face_a), &l.ba, &l.ab);
        // A shaped direction learns the Data size from what the end of the reverse chain delivers.
        if l.ab.shaper.is_some() {
            dirs[ba_last].feeds_shaper = Some(ab as u32);
        }
        if l.ba.shaper.is_some() {
            dirs[ab_last].feeds_shaper = Some(ba as u32);
        }
        // Loss detection (PCON §3.5) is NDNLPv2 reliability, which both faces of the link run.
        if l.ab.loss_detection != LossDetection::None || l.ba.loss_detection != LossDetection::None {
            dirs[ab].reliability = Some(Box::new(DirReliability::new(ba)));
            dirs[ba].reliability = Some(Box::new(DirReliability::new(ab)));
        }
        nodes[l.a].faces.push(FaceTarget::Link(ab as u32));
        nodes[l.b].faces.push(FaceTarget::Link(ba as u32));
        link_dirs.push((ab, ba));
        edge_face.push(face_a);
        edge_face.push(face_b);
    }

    let mut apps = Vec::new();
    for p in &s.producers {
        let face = nodes[p.node].fw.add_face(FaceKind::App);
        nodes[p.node].faces.push(FaceTarget::App(apps.len() as u32));
        nodes[p.node].fw.fib.add_nexthop(&p.prefix, face, 0);
        apps.push(AppSlot {
            node: p.node,
            face,
            app: App::Producer(Producer::new(ProducerConfig {
                prefix: p.prefix.clone(),
                payload: p.payload,
                payload_changes: p.payload_changes.clone(),
                segments: p.segments,
                freshness: p.freshness,
            })),
            wake_at: Time::MAX,
            consumer: None,
            done: true,
        });
    }
    let ids = consumer_ids(s);
    let mut tables = CatalogTables::default();
    for (i, c) in s.consumers.iter().enumerate() {
        let face = nodes[c.node].fw.add_face(FaceKind::App);
        let seed = component_seed(s.seed, "consumer", &format!("{} {}", ids[i], c.name));
        nodes[c.node].faces.push(FaceTarget::App(apps.len() as u32));
        let table = c.catalog.map(|catalog| tables.get(&catalog));
        apps.push(AppSlot {
            node: c.node,
            face,
            app: App::Consumer(Box::new(Consumer::with_catalog_table(consumer_config(c), seed, table))),
            wake_at: Time::MAX,
            consumer: Some(i),
            done: false,
        });
    }

    let done = s.nodes.len() + s.links.len();
    progress(done, total);
    install_routes(s, &mut nodes, &edge_face, &mut |p| progress(done + p, total));
    progress(total, total);
    Network { nodes, dirs, apps, link_dirs, consumer_ids: ids, dir_names }
}

/// Automatic shortest-path routes to every producer prefix (every loop-free next hop, or only the
/// first hop of the shortest path: `NextHops`), then the scenario's static routes. Two producers
/// of one prefix whose routes leave a node on the same face give it the cheaper cost.
/// `routed(k)`: the routes to the first `k` producers are computed.
fn install_routes(s: &Scenario, nodes: &mut [Node], edge_face: &[FaceId], routed: &mut dyn FnMut(usize)) {
    let edges = routing::edges(s);
    if s.routing != RoutingMetric::None {
        // Per (node, prefix, face) keep the cheapest cost over producers of the same prefix.
        let mut best: FxHashMap<(usize, Name, FaceId), u64> = FxHashMap::default();
        let mut order: Vec<(usize, Name, FaceId)> = Vec::new();
        for (k, p) in s.producers.iter().enumerate() {
            routed(k);
            let hops = match s.next_hops {
                NextHops::AllPossible => routing::routes_to(s.nodes.len(), &edges, p.node),
                NextHops::ShortestPath => routing::shortest_routes_to(s.nodes.len(), &edges, p.node),
            };
            for hop in hops {
                let key = (hop.node, p.prefix.clone(), edge_face[hop.edge]);
                match best.get_mut(&key) {
                    Some(c) => *c = (*c).min(hop.cost),
                    None => {
                        best.insert(key.clone(), hop.cost);
                        order.push(key);
                    }
                }
            }
        }
        for key in order {
            let cost = best[&key];
            nodes[key.0].fw.fib.add_nexthop(&key.1, key.2, cost);
        }
    }
    for r in &s.routes {
        let face = edges.iter().position(|e| e.from == r.node && e.to == r.nexthop).map(|i| edge_face[i]);
        if let Some(face) = face {
            nodes[r.node].fw.fib.add_nexthop(&r.prefix, face, r.cost);
        }
    }
}

/// A link direction's name in results: "a->b".
pub fn direction_name(src: &str, dst: &str) -> String {
    format!("{src}->{dst}")
}

/// The name of the `k`-th (from 0) underlay hop of direction `direction`: "a->b/u1" for k = 0.
pub fn underlay_name(direction: &str, k: usize) -> String {
    format!("{direction}/u{}", k + 1)
}

/// Consumer ids: the node's name when it runs one consumer, else "node#k" in file order.
pub fn consumer_ids(s: &Scenario) -> Vec<String> {
    let mut per_node = vec![0usize; s.nodes.len()];
    for c in &s.consumers {
        per_node[c.node] += 1;
    }
    let mut seen = vec![0usize; s.nodes.len()];
    s.consumers
        .iter()
        .map(|c| {
            let name = &s.nodes[c.node].name;
            let k = seen[c.node];
            seen[c.node] += 1;
            if per_node[c.node] == 1 {
                name.clone()
            } else {
                format!("{name}#{k}")
            }
        })
        .collect()
}
