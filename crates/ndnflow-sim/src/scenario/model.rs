//! The validated scenario model: what the engine runs.
//!
//! The TOML reader (`scenario::toml`), the ndnSIM topology importer and the Python builder all end
//! here. Everything in this model has been checked (nodes exist, units parsed, numbers in range), so
//! the engine never meets bad input.

pub use ndnflow_core::fw::strategy::{AsfConfig, PafConfig, PconConfig};
pub use ndnflow_core::fw::InterestMarks;
use ndnflow_core::link::ShaperDrop;
use ndnflow_core::{Name, Time};

/// Index of a node in `Scenario::nodes`.
pub type NodeId = usize;

/// Which next hops the automatic routes give a node towards a producer (`[simulation] next_hops`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum NextHops {
    /// Every neighbour that reaches the producer without coming back, each at its cost (ndnSIM's
    /// `GlobalRoutingHelper::CalculateAllPossibleRoutes`).
    #[default]
    AllPossible,
    /// The first hop of the node's shortest path to each producer only (ndnSIM's
    /// `GlobalRoutingHelper::CalculateRoutes`).
    ShortestPath,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Scenario {
    /// Simulated time the run lasts at most.
    pub duration: Time,
    /// Seed from which every component's own random stream is derived.
    pub seed: u64,
    /// Width of the time bins of the link and consumer traces.
    pub bin: Time,
    /// Metric of the automatic shortest-path routes.
    pub routing: RoutingMetric,
    /// Which next hops the automatic routes install.
    pub next_hops: NextHops,
    pub nodes: Vec<NodeSpec>,
    pub links: Vec<LinkSpec>,
    pub producers: Vec<ProducerSpec>,
    pub consumers: Vec<ConsumerSpec>,
    /// Static FIB entries, installed beside the automatic routes.
    pub routes: Vec<RouteSpec>,
    /// Scheduled link changes, in the order given.
    pub events: Vec<LinkEvent>,
    /// Bytes the run may need (`crate::memory`): a scenario estimated above it is refused, and a
    /// run that grows past it stops with what it computed.
    pub memory_limit: u64,
    /// The optional traces `[trace]` turns on (all off by default).
    pub trace: TraceSpec,
}

/// Which optional traces a run records (`[trace]`, docs/scenario-format.md): one field per
/// instrument, each off by default, so that a run that asks for none records what it always did.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct TraceSpec {
    /// One row per segment a consumer got Data for or gave up (ndnSIM's AppDelayTracer),
    /// `interests.parquet`.
    pub interests: bool,
    /// `faces = true`: per node, face and bin, the face's packet counters (ndnSIM's L3RateTracer).
    pub faces: bool,
    /// `nodes = true`: per node and bin, Content Store and PIT counters (ndnSIM's CsTracer).
    pub nodes: bool,
    /// Link directions written as pcap captures (`pcap = ["a->b", "c-d"]`), in the order given,
    /// each once (`crate::capture`).
    pub pcap: Vec<CapturedDirection>,
    /// The forwarding log (`[trace] forwarding = { ... }`; docs/protocols/forwarder.md).
    pub forwarding: Option<ForwardingLogSpec>,
}

/// One link direction a scenario captures.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CapturedDirection {
    /// Index into `Scenario::links`.
    pub link: usize,
    pub from: NodeId,
    pub to: NodeId,
}

/// Which pipeline steps, strategy decisions and queue events the forwarding log keeps.
#[derive(Clone, Debug, PartialEq)]
pub struct ForwardingLogSpec {
    /// The nodes logged, in scenario order; every node when the scenario names none.
    pub nodes: Vec<NodeId>,
    /// Only names under this prefix ("/" by default).
    pub prefix: Name,
    /// `Trace` adds every packet a queue takes in and sends to `Debug`'s steps, drops and marks.
    pub level: LogLevel,
    /// Records kept at most; those after are counted, not kept.
    pub max_records: u64,
}

/// NFD's log levels, as far as the forwarding log distinguishes them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LogLevel {
    Debug,
    Trace,
}

/// The default bound of the forwarding log (our choice: about 10 MB of text, 100 bytes a line).
pub const DEFAULT_MAX_LOG_RECORDS: u64 = 100_000;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum RoutingMetric {
    /// Sum of link metrics (1 per link unless the link sets `metric`), as ndnSIM's global routing.
    #[default]
    HopCount,
    /// Sum of propagation delays.
    Delay,
    /// No automatic routes: only the static ones.
    None,
}

#[derive(Clone, Debug, PartialEq)]
pub struct NodeSpec {
    pub name: String,
    /// What the node's forwarder is built from: Content Store, strategies, what it does with
    /// Interest marks, route labels and the straggler time. The defaults are the forwarder's own
    /// (`ForwarderConfig::default`: no cache, best-route, marks noted in the PIT).
    pub forwarder: ForwarderConfig,
}

/// The Content Store's replacement policy and the forwarder's configuration, as the core takes them.
pub use ndnflow_core::fw::ForwarderConfig;
pub use ndnflow_core::table::CsPolicy;

/// A node's strategy choice: the forwarder's own names, so a scenario holds what the forwarder
/// builds ("pi", "rfa" alias "cf", "drf", "pcon", "fpf", "paf", ...; see the TOML reader).
pub use ndnflow_core::fw::config::StrategyName as StrategyKind;

#[derive(Clone, Debug, PartialEq)]
pub struct LinkSpec {
    pub a: NodeId,
    pub b: NodeId,
    /// Direction a -> b.
    pub ab: LinkDirSpec,
    /// Direction b -> a.
    pub ba: LinkDirSpec,
    /// Routing cost for `RoutingMetric::HopCount` (ndnSIM topology "metric" column), default 1.
    pub metric: u64,
}

#[derive(Clone, Debug, PartialEq)]
pub struct LinkDirSpec {
    pub bandwidth_bps: u64,
    pub delay: Time,
    pub queue: QueueSpec,
    pub loss: LossSpec,
    /// Hops of an IP underlay the NDN link tunnels through, in order (PCON §4.6 "UDP tunnel"):
    /// each queues, serialises and delays the frames again, unseen by the forwarders.
    pub underlay: Vec<UnderlayHop>,
    /// Whether a lost frame is reported back as a Nack (PCON §3.5).
    pub loss_detection: LossDetection,
    /// Hop-by-hop Interest shaping of the Interests sent on this direction (PCON §4.6, after Wang
    /// et al.); `None`: Interests go straight to the output queue.
    pub shaper: Option<ShaperSpec>,
    /// Link MTU in bytes: frames larger than it are sent as NDNLPv2 fragments, each queued,
    /// serialised and dropped on its own (docs/protocols/links.md, "Fragmentation"); `None`: whole
    /// frames (the default).
    pub mtu: Option<u32>,
    /// NFD's send-queue congestion marker on this direction's face (docs/protocols/queues.md, "NFD
    /// congestion marking"); `None`: no marker (the default).
    pub marking: Option<NfdMarkSpec>,
}

impl LinkDirSpec {
    /// Propagation delay end to end, underlay included.
    pub fn total_delay(&self) -> Time {
        self.underlay.iter().fold(self.delay, |t, h| t + h.delay)
    }

    /// The send-queue capacity NFD's marker caps its threshold with, in bytes: a byte limit as
    /// it is; a packet limit times the MTU, or times 1500 B without one (ns-3's point-to-point
    /// default MTU, which ndnSIM's transport multiplies a packet-limited queue by).
    pub fn send_queue_capacity(&self) -> usize {
        match self.queue.limit() {
            QueueLimit::Bytes(n) => n,
            QueueLimit::Packets(n) => n.saturating_mul(self.mtu.unwrap_or(NS3_P2P_MTU) as usize),
        }
    }
}

/// ns-3 `PointToPointNetDevice`'s default MTU, bytes.
pub const NS3_P2P_MTU: u32 = 1500;

/// NFD's congestion marker (GenericLinkService `checkCongestionLevel`), as a link option.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NfdMarkSpec {
    /// NFD's `defaultCongestionThreshold`, bytes (65 536); the marker uses
    /// min(this, send queue capacity / 2).
    pub threshold: usize,
    /// NFD's `baseCongestionMarkingInterval` (100 ms).
    pub interval: Time,
}

impl Default for NfdMarkSpec {
    fn default() -> Self {
        let d = ndnflow_core::link::NfdMarkConfig::default();
        NfdMarkSpec { threshold: d.threshold, interval: d.interval }
    }
}

/// One router-to-router hop of an IP underlay.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct UnderlayHop {
    pub bandwidth_bps: u64,
    pub delay: Time,
    pub queue: QueueSpec,
}

/// An Interest shaper on one link direction (docs/protocols/shaper.md): Interests leave at
/// `capacity x headroom / (8 x average Data size)` per second, the excess waits in a CoDel-managed
/// queue whose drops come back as marked Nacks.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ShaperSpec {
    /// The Data capacity the shaper assumes, bit/s; `None`: the bandwidth of the reverse direction
    /// (the link's own Data direction, PCON §4.6 Shaper_Overlay).
    pub capacity_bps: Option<u64>,
    /// Share of the capacity the shaper fills (Wang et al.'s `Headroom`, 0.98).
    pub headroom: f64,
    /// Interests the shaper's queue holds (Wang et al.'s `MaxInterest`, 100).
    pub limit: usize,
    /// CoDel target of the shaper's queue (RFC 8289: 5 ms).
    pub target: Time,
    /// CoDel interval of the shaper's queue (RFC 8289: 100 ms).
    pub interval: Time,
    /// Per-flow fair share (CHoPCoP): a flow is this many leading name components; `None`: one
    /// FIFO for all Interests.
    pub flow_components: Option<usize>,
    /// What the queue drops by besides its limit; `None`: CoDel for one FIFO (PCON §4.6), tail
    /// drop alone for per-flow queues (CHoPCoP's FISP delays Interests).
    pub drop: Option<ShaperDrop>,
}

impl Default for ShaperSpec {
    fn default() -> Self {
        ShaperSpec {
            capacity_bps: None,
            headroom: 0.98,
            limit: 100,
            target: Time::from_millis(5),
            interval: Time::from_millis(100),
            flow_components: None,
            drop: None,
        }
    }
}

/// PCON §3.5 local link loss detection: positive acknowledgements per frame tell the sender which
/// frames were lost, and each loss becomes a Nack.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum LossDetection {
    /// Losses are silent (consumers and PIT entries time out).
    #[default]
    None,
    /// IP-overlay link: a loss is congestion in the underlay, reported as a marked Nack.
    Overlay,
    /// Wireless link: a loss is random, reported as an unmarked Nack (retransmission only).
    Wireless,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum QueueLimit {
    Packets(usize),
    Bytes(usize),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CodelMode {
    /// RFC 8289: drop the packet at the head of the queue.
    Drop,
    /// Set the NDNLPv2 congestion mark on the dequeued packet instead of dropping it (PCON §3.1).
    Mark,
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub enum QueueSpec {
    DropTail {
        limit: QueueLimit,
    },
    /// CoDel; `law_interval` spaces the drops or marks (RFC 8289: = interval; PCON: 1.1 x).
    Codel {
        limit: QueueLimit,
        target: Time,
        interval: Time,
        mode: CodelMode,
        law_interval: Time,
        /// PCON §3.6: the highly congested state after this long marking (mark mode only).
        high_cong_after: Option<Time>,
        /// Marks and §3.6 flags go on the next arriving packet, as in the authors' ndnSIM fork
        /// (`signal = "arrival"`), instead of the departing one (mark mode only).
        signal_on_arrival: bool,
    },
    /// CHoPCoP's random early marking (docs/protocols/chopcop.md): Data leaving a queue of
    /// `min_th..max_th` packets are marked with a probability rising linearly to `max_p`, all
    /// from `max_th` on.
    Rem {
        limit: QueueLimit,
        rem: ndnflow_core::link::RemConfig,
    },
    /// MIRCC's link rate (docs/protocols/mircc.md): a drop-tail FIFO that computes RCP's rate in
    /// two classes and stamps it into departing Data.
    Mircc {
        limit: QueueLimit,
        mircc: ndnflow_core::link::MirccConfig,
    },
}

impl QueueSpec {
    /// The queue's capacity, whatever the discipline.
    pub fn limit(&self) -> QueueLimit {
        match *self {
            QueueSpec::DropTail { limit }
            | QueueSpec::Codel { limit, .. }
            | QueueSpec::Rem { limit, .. }
            | QueueSpec::Mircc { limit, .. } => limit,
        }
    }
}

impl Default for QueueSpec {
    /// ns-3's default DropTailQueue of 100 packets, as ndnSIM links have.
    fn default() -> Self {
        QueueSpec::DropTail { limit: QueueLimit::Packets(100) }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Default)]
pub enum LossSpec {
    #[default]
    None,
    /// Each packet is lost with probability `p`.
    Bernoulli { p: f64 },
    /// Two-state Markov chain: Good -> Bad with `p`, Bad -> Good with `r`; in Good a packet is lost
    /// with `loss_good` (1 - k), in Bad with `loss_bad` (1 - h).
    GilbertElliott { p: f64, r: f64, loss_good: f64, loss_bad: f64 },
}

#[derive(Clone, Debug, PartialEq)]
pub struct ProducerSpec {
    pub node: NodeId,
    pub prefix: Name,
    /// Content bytes per Data.
    pub payload: usize,
    /// Scheduled payload sizes: from each instant on, Data carry that many bytes (PCON §4.3's
    /// "Payload x50" experiment). Strictly increasing in time.
    pub payload_changes: Vec<(Time, usize)>,
    /// Number of segments of every object under the prefix; the last one carries FinalBlockId.
    pub segments: Option<u64>,
    pub freshness: Option<Time>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct ConsumerSpec {
    pub node: NodeId,
    /// Object name; Interests go to /name/seg=N.
    pub name: Name,
    pub start: Time,
    pub stop: Option<Time>,
    /// Segments to fetch; `None` fetches until the producer's FinalBlockId or the stop time.
    pub segments: Option<u64>,
    pub cc: CcConfig,
    /// InterestLifetime (ndnSIM Consumer `LifeTime` default 2 s).
    pub lifetime: Time,
    pub rto: RttOptions,
    /// Retransmissions allowed per segment before the consumer gives up (None = unlimited).
    pub max_retries: Option<u32>,
    /// How the Interests in flight are counted against the window (`in_flight`).
    pub in_flight: ndnflow_core::app::InFlightRule,
    /// Upper bound of the random delay before each send opportunity (`send_jitter`, ns-2's TCP
    /// `overhead_`; zero: none).
    pub send_jitter: Time,
    /// Objects `<name>/<rank>` fetched one after another by Zipf-Mandelbrot popularity
    /// (`catalog`); `None`: the one object `name`.
    pub catalog: Option<ndnflow_core::app::CatalogConfig>,
    /// Segments asked for in batches at given times after the start (`batches`, ndnSIM
    /// ConsumerBatches); `segments` is then their total.
    pub batches: Option<ndnflow_core::app::Batches>,
}

/// The consumer's window or rate algorithm and the retransmission timer, as the core takes them
/// (`RttOptions::default()` is ndn-cxx's RttEstimator: initial 1 s, min 200 ms, max 1 min).
pub use ndnflow_core::app::cc::CcConfig;
pub use ndnflow_core::app::RttOptions;

#[derive(Clone, Debug, PartialEq)]
pub struct RouteSpec {
    pub node: NodeId,
    pub prefix: Name,
    pub nexthop: NodeId,
    pub cost: u64,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LinkDirection {
    Both,
    AtoB,
    BtoA,
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub enum LinkChange {
    Bandwidth(u64),
    Up,
    Down,
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LinkEvent {
    pub at: Time,
    /// Index into `Scenario::links`.
    pub link: usize,
    pub direction: LinkDirection,
    pub change: LinkChange,
}
