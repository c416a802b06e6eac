//! What a forwarder is built from: its strategies, what it does with Interest marks, route
//! labels and the straggler time (`ForwarderConfig`), and how the built-in strategies and router
//! extensions are made.

use super::ext::{Dpccp, DpccpConfig, ForwarderExtension, InvalidTag, Mircc, Mpfp, RouteLabels, Smic, SmicConfig};
use super::strategy::{
    AsfConfig, AsfStrategy, BestRouteStrategy, DrfStrategy, FpfStrategy, MulticastStrategy, PafConfig, PafStrategy,
    PconConfig, PconStrategy, PiStrategy, RandomStrategy, RfaStrategy, SelfLearningStrategy, Strategy,
};
use crate::table::{CsPolicy, SimulatedCacheConfig};
use crate::{Name, Time};

/// Which built-in strategy a prefix uses.
#[derive(Clone, Copy, Debug, PartialEq, Default)]
pub enum StrategyName {
    #[default]
    BestRoute,
    Multicast,
    /// Fewest pending Interests (PCON's "PI" baseline).
    Pi,
    /// Carofiglio et al.'s Request Forwarding Algorithm (PCON's "CF" baseline).
    Rfa,
    /// Dynamic Request Forwarding: weighted round robin by pending Interests.
    Drf,
    /// PCON's mark-driven multipath forwarding (§3.4).
    Pcon(PconConfig),
    /// Fast Pipeline Filling: the lowest-RTT face whose pending Interests are below its capacity
    /// rtt x rate + queue (Thibaud et al. §II-B); needs `Forwarder::set_face_link`.
    Fpf,
    /// Probability-based Adaptive Forwarding (Qian et al., IM 2013): per-face probabilities
    /// reinforced by RTT, ant-colony style (the PTP paper's Sol.4).
    Paf(PafConfig),
    /// One eligible next hop drawn uniformly at random per Interest (NFD RandomStrategy).
    Random,
    /// NFD's self-learning strategy: discovery Interests broadcast where there is no route, routes
    /// learned from the prefix announcements their Data bring back.
    SelfLearning,
    /// Adaptive SRTT-based Forwarding (NFD AsfStrategy): the lowest-SRTT face, with periodic
    /// probes of the others.
    Asf(AsfConfig),
}

/// `seed` feeds the strategies that draw at random (rfa, pcon, paf, random, asf); the others ignore it.
pub(super) fn make_strategy(name: StrategyName, seed: u64) -> Box<dyn Strategy> {
    match name {
        StrategyName::BestRoute => Box::new(BestRouteStrategy::new()),
        StrategyName::Multicast => Box::new(MulticastStrategy::new()),
        StrategyName::Pi => Box::new(PiStrategy::new()),
        StrategyName::Rfa => Box::new(RfaStrategy::new(seed)),
        StrategyName::Drf => Box::new(DrfStrategy::new()),
        StrategyName::Pcon(config) => Box::new(PconStrategy::new(config, seed)),
        StrategyName::Fpf => Box::new(FpfStrategy::new()),
        StrategyName::Paf(config) => Box::new(PafStrategy::new(config, seed)),
        StrategyName::Random => Box::new(RandomStrategy::new(seed)),
        StrategyName::SelfLearning => Box::new(SelfLearningStrategy::new()),
        StrategyName::Asf(config) => Box::new(AsfStrategy::new(config, seed)),
    }
}

/// The router extensions a config asks for, in hook order: route labels, MPFP, DPCCP, MIRCC, SMIC.
/// Their hooks write distinct link-header fields (the trajectory id; PTP's flags and tags;
/// DPCCP's hop count and drain flag; MIRCC's rates and class bit; SMIC's path id), so the order
/// changes no packet; it is fixed so that it never depends on anything else. MPFP's
/// `forward_interest` runs before SMIC's: an Interest with a valid PTP tag and a path id goes by
/// its tag, which names the face outright.
pub(super) fn make_extensions(config: &ForwarderConfig, nonce_seed: u64) -> Vec<Box<dyn ForwarderExtension>> {
    let mut extensions: Vec<Box<dyn ForwarderExtension>> = Vec::new();
    // SMIC's trajectory id is the route label's fold (fw/ext/smic.rs): one fold, whichever asks.
    if config.route_labels || config.smic.is_some() {
        extensions.push(Box::new(RouteLabels));
    }
    if config.ptp {
        // Its own stream, apart from the strategies' (`strategy_seed` mixes another constant).
        let seed = crate::mix::mix64(nonce_seed ^ 0x4D50_4650_5052_4F42);
        extensions.push(Box::new(Mpfp::new(config.fab_capacity, config.invalid_tag, seed)));
    }
    if let Some(dpccp) = config.dpccp {
        extensions.push(Box::new(Dpccp::new(dpccp)));
    }
    if config.mircc {
        extensions.push(Box::new(Mircc::new()));
    }
    if let Some(smic) = config.smic {
        extensions.push(Box::new(Smic::new(smic, crate::mix::mix64(nonce_seed ^ 0x5A1C_0BA7_5A1C_0BA7))));
    }
    extensions
}

/// The simulated cache's stream, apart from the Content Store's, the strategies' and MPFP's.
pub(super) fn sim_cache_seed(nonce_seed: u64) -> u64 {
    crate::mix::mix64(nonce_seed ^ 0x5CAC_4E5C_AC4E_5CAC)
}

/// The Content Store's admission stream, apart from the strategies' and the extensions'.
pub(super) fn cs_seed(nonce_seed: u64) -> u64 {
    crate::mix::mix64(nonce_seed ^ 0xC5AD_0A17_C5AD_0A17)
}

/// The stream random replacement draws its victims from, apart from admission's, so that turning
/// one on does not move the other's draws.
pub(super) fn cs_eviction_seed(nonce_seed: u64) -> u64 {
    crate::mix::mix64(nonce_seed ^ 0xE71C_7E5E_ED00_C5C5)
}

/// The seed of the `index`-th strategy instance of a forwarder seeded with `nonce_seed`, so
/// instances and nodes draw independent streams.
pub(super) fn strategy_seed(nonce_seed: u64, index: usize) -> u64 {
    crate::mix::mix64(crate::mix::mix64(nonce_seed ^ 0x5EED_57A7_E61E_5EED) ^ index as u64)
}

/// What a forwarder does with a congestion mark on an arriving Interest.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum InterestMarks {
    /// Note it in the in-record and mark the Data sent back (PCON §3.1, §4.3 Cross_Opp_2).
    #[default]
    Pit,
    /// Ignore it (PCON §4.3 Cross_Opp_1: only the Data path signals congestion).
    Ignore,
}

#[derive(Clone, Debug, PartialEq)]
pub struct ForwarderConfig {
    pub cs_policy: CsPolicy,
    /// Content Store capacity in Data packets; 0 turns it off; `usize::MAX` when only `cs_bytes`
    /// limits it.
    pub cs_capacity: usize,
    /// Content Store limit on the payload bytes of the Data it holds together (SMIC §5 sizes
    /// stores in bytes, a chunk weighing its payload); `None`, the default: no byte limit.
    pub cs_bytes: Option<usize>,
    /// Probability that the Content Store admits a Data of a new name (PTP §6-E caches half of
    /// the Data "randomly selected"); 1, the default, admits all, as NFD does.
    pub cs_admit: f64,
    /// Strategy for "/".
    pub default_strategy: StrategyName,
    /// Strategy choices for longer prefixes.
    pub strategy_choices: Vec<(Name, StrategyName)>,
    pub interest_marks: InterestMarks,
    /// Route labels (Carofiglio et al., INFOCOM NOMEN 2013, as RAAQM uses them): fold the face each
    /// Data arrived on into its trajectory id on the way down, so that a consumer can tell routes
    /// apart. Off by default: the label costs 12 bytes of link header per Data. Installs the
    /// `ext::RouteLabels` extension.
    pub route_labels: bool,
    /// How long a satisfied PIT entry stays: the straggler timer of older NFD (100 ms in the NFD
    /// 0.4 of ndnSIM 2.1, which PCON's authors used; current NFD erases the entry at once). While
    /// it stays, a later copy of the Data (from another upstream the Interest went to) reaches the
    /// strategy and the Content Store instead of being dropped as unsolicited; it goes nowhere
    /// else. 0 (the default): the entry goes at once.
    pub straggler: Time,
    /// PTP's path-specified forwarding (MPFP, Ye et al. §4): probing, tag switching, the
    /// from-cache flag. Off by default: a stock forwarder ignores PTP's link-header fields.
    /// Installs the `ext::Mpfp` extension.
    pub ptp: bool,
    /// Flows the Forwarding Acceleration Base keeps (PTP §4-B), when `ptp` is on; 0 = none, every
    /// tag check then runs a longest-prefix match.
    pub fab_capacity: usize,
    /// What a PTP router does with a tag that names no usable next hop (§4-C-2's Nack by default).
    pub invalid_tag: InvalidTag,
    /// DPCCP's router side (§VI-C hop count, §VI-E-7 RTT-probing labels and drain flag). Off by
    /// default: a stock forwarder sends Data without a hop count. Installs `ext::Dpccp`.
    pub dpccp: Option<DpccpConfig>,
    /// MIRCC's forwarder side: the class bit and the links' rates go on from hop to hop. Off by
    /// default: a stock forwarder drops them. Installs `ext::Mircc`.
    pub mircc: bool,
    /// SMIC's router side (§3.3.2, §4.2): an Interest with a path id goes to next hop
    /// Hash(path id) mod c; turns route labels on for the trajectory id. Off by default: a stock
    /// forwarder forwards by strategy and drops the path id. Installs `ext::Smic`.
    pub smic: Option<SmicConfig>,
    /// DPCCP §VII-A's simulated cache: answers Interests under a prefix with probability kappa,
    /// storing nothing. None by default.
    pub simulated_cache: Option<SimulatedCacheConfig>,
}

impl Default for ForwarderConfig {
    /// No Content Store: ndnSIM's default is an LRU store of 100 packets and NFD's holds 65536, but
    /// a router here caches only when its scenario says so, so that no result depends on a cache
    /// nobody asked for. Best-route for "/", Interest marks noted in the PIT, no route labels, no
    /// straggler time.
    fn default() -> Self {
        ForwarderConfig {
            cs_policy: CsPolicy::Lru,
            cs_capacity: 0,
            cs_bytes: None,
            cs_admit: 1.0,
            default_strategy: StrategyName::BestRoute,
            strategy_choices: Vec::new(),
            interest_marks: InterestMarks::Pit,
            route_labels: false,
            straggler: Time::ZERO,
            ptp: false,
            fab_capacity: crate::table::Fab::DEFAULT_CAPACITY,
            invalid_tag: InvalidTag::Nack,
            dpccp: None,
            mircc: false,
            smic: None,
            simulated_cache: None,
        }
    }
}
