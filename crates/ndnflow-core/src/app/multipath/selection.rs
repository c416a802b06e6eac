//! How a PTP consumer chooses its in-use paths among those its probes found (Ye et al., "PTP:
//! Path-specified Transport Protocol", §4-C and Appendix I).
//!
//! * `Bandwidth` (§4-C-1, the rule PTP's experiments run): every period T the in-use path that
//!   delivered least gives its slot to a random unused path.
//! * `BandwidthProbed`: the same, with "a random unused path" drawn as the probes draw it, in
//!   proportion to how many probes found each unused path (the next path the probes bring back
//!   that is not in use). A reading tried after Scenario 5's results were known, so not the
//!   default (docs/experiments/ptp.md, "Scenario 5").
//! * `Random` (Appendix I, "randomly choose N in-use paths from all eligible transmission
//!   paths"): every T a random in-use path gives its slot to a random unused one. Our reading: the
//!   bandwidth rule with its ranking taken away, so that the two differ only in the ranking.
//! * `Hop` ("prefers to choose the in-use paths with smaller numbers of hops"), `Latency` ("the
//!   consumer measures the averaged latency (from the RTTs of the probing packets) of each path
//!   [...] then the N paths with the lowest latencies are selected") and `LatencyVariance` ("the
//!   in-use paths are selected from the N paths with the lowest variance"): ranked rules. Every T
//!   the in-use set becomes the N best-ranked paths known (ties: paths in use stay, then the
//!   path found first). §4-C-2 limits changes to one per T; a ranked rule ranks every known path,
//!   so one change can be the whole set, where the bandwidth rule, which can only rank the paths
//!   it has used, swaps one.
//!
//! Latencies come from probes only, as the appendix says: each probe's RTT is a sample of the
//! path it found, and a path keeps its last `PROBE_SAMPLES`. The appendix's variance rule is
//! garbled in the text ("a nonlinear function (with a window length W) is then applied to the
//! sorted RTTs to obtain the moving variance"); we read it as each path's own RTT variance over
//! its last W probe samples, W = `PROBE_SAMPLES`, the "jitter" the appendix names as the rule's
//! purpose. A path with fewer than two samples has no variance and ranks after every path that
//! has one.
//!
//! * `Hybrid` (Appendix I's "hybrid combinations": "first find out the paths that can satisfy the
//!   bandwidth requirement and then select the N paths that can minimize the latency jitter"): a
//!   ranked rule in three tiers. The paper leaves the requirement to the application, so it is a
//!   parameter, `min_path_rate`, each path's share (our reading of "paths that can satisfy" it:
//!   one path at a time). A path's bandwidth is what it delivered over its last period in use
//!   (§4-C-1's measure; the probes tell none, §4-C-1's footnote), in bits per second of Data on
//!   the wire. First the paths known to satisfy the requirement, then the paths not measured yet
//!   (the only way to find out is to use them), each tier by jitter as `LatencyVariance` ranks;
//!   last the paths known to fall short, the fastest first, so that slots are not left empty
//!   while paths are known.

use crate::Time;

/// W: how many probe RTTs of a path the latency rules read (our choice: the paper gives none; ten
/// is one second of probing at §3-A's 10 probes per second).
pub const PROBE_SAMPLES: usize = 10;

/// A rule for choosing the in-use paths.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum PathSelection {
    #[default]
    Bandwidth,
    BandwidthProbed,
    Random,
    Hop,
    Latency,
    LatencyVariance,
    /// The application's bandwidth requirement of each path, bits per second.
    Hybrid {
        min_path_rate: u64,
    },
}

impl PathSelection {
    /// The scenario words, in the order docs list them (`hybrid` without its requirement, which
    /// the scenario gives apart).
    pub const NAMES: [(&'static str, PathSelection); 7] = [
        ("bandwidth", PathSelection::Bandwidth),
        ("bandwidth-probed", PathSelection::BandwidthProbed),
        ("random", PathSelection::Random),
        ("hop", PathSelection::Hop),
        ("latency", PathSelection::Latency),
        ("latency-variance", PathSelection::LatencyVariance),
        ("hybrid", PathSelection::Hybrid { min_path_rate: 0 }),
    ];

    pub fn parse(word: &str) -> Option<PathSelection> {
        Self::NAMES.iter().find(|(w, _)| *w == word).map(|&(_, s)| s)
    }

    /// Whether the rule ranks every known path (and so may change the whole in-use set at once).
    pub fn is_ranked(self) -> bool {
        matches!(
            self,
            PathSelection::Hop | PathSelection::Latency | PathSelection::LatencyVariance | PathSelection::Hybrid { .. }
        )
    }
}

/// What the probes told of one path: how many found it, and their last `PROBE_SAMPLES` RTTs, in
/// seconds.
#[derive(Clone, Debug, Default)]
pub struct PathProbes {
    samples: [f64; PROBE_SAMPLES],
    count: usize,
    finds: u64,
}

impl PathProbes {
    pub const EMPTY: PathProbes = PathProbes { samples: [0.0; PROBE_SAMPLES], count: 0, finds: 0 };

    /// A probe found the path, with its RTT (`None` under Karn's rule for a resent segment).
    pub fn found(&mut self, rtt: Option<Time>) {
        self.finds += 1;
        if let Some(rtt) = rtt {
            self.add(rtt);
        }
    }

    /// How many probes found the path.
    pub fn finds(&self) -> u64 {
        self.finds
    }

    pub fn add(&mut self, rtt: Time) {
        self.samples[self.count % PROBE_SAMPLES] = rtt.as_secs_f64();
        self.count += 1;
    }

    fn window(&self) -> &[f64] {
        &self.samples[..self.count.min(PROBE_SAMPLES)]
    }

    /// Mean of the samples kept, `None` without any.
    pub fn mean(&self) -> Option<f64> {
        let w = self.window();
        (!w.is_empty()).then(|| w.iter().sum::<f64>() / w.len() as f64)
    }

    /// Sample variance (n - 1) of the samples kept, `None` with fewer than two.
    pub fn variance(&self) -> Option<f64> {
        let w = self.window();
        let mean = self.mean()?;
        (w.len() >= 2).then(|| w.iter().map(|x| (x - mean) * (x - mean)).sum::<f64>() / (w.len() - 1) as f64)
    }
}

/// What a ranked rule knows of one path: its tag stack's length, its probe RTTs and the
/// bandwidth it delivered over its last period in use (bits per second; `None`: not measured).
pub struct Candidate<'a> {
    pub hops: usize,
    pub probes: &'a PathProbes,
    pub in_use: bool,
    pub bandwidth: Option<f64>,
}

impl PathSelection {
    /// The rank of a path under a ranked rule, (tier, measure): lower is better; a path with no
    /// measure ranks last in its tier. Only `Hybrid` has more than one tier.
    pub fn rank(self, c: &Candidate<'_>) -> (u8, f64) {
        let (tier, measure) = match self {
            PathSelection::Hop => (0, Some(c.hops as f64)),
            PathSelection::Latency => (0, c.probes.mean()),
            PathSelection::LatencyVariance => (0, c.probes.variance()),
            PathSelection::Hybrid { min_path_rate } => match c.bandwidth {
                Some(b) if b >= min_path_rate as f64 => (0, c.probes.variance()),
                None => (1, c.probes.variance()),
                Some(b) => (2, Some(-b)),
            },
            PathSelection::Bandwidth | PathSelection::BandwidthProbed | PathSelection::Random => (0, Some(0.0)),
        };
        (tier, measure.unwrap_or(f64::INFINITY))
    }

    /// Under a ranked rule, the indices of the `n` best candidates (ties: in use first, then the
    /// lower index, the path found first). `candidates` holds (index, candidate) of every path
    /// that may be used.
    pub fn best(self, candidates: &[(usize, Candidate<'_>)], n: usize) -> Vec<usize> {
        let mut order: Vec<((u8, f64), bool, usize)> =
            candidates.iter().map(|(i, c)| (self.rank(c), !c.in_use, *i)).collect();
        order.sort_by(|a, b| {
            (a.0 .0.cmp(&b.0 .0)).then(a.0 .1.total_cmp(&b.0 .1)).then(a.1.cmp(&b.1)).then(a.2.cmp(&b.2))
        });
        order.into_iter().take(n).map(|(_, _, i)| i).collect()
    }
}

/// The index whose share of the summed `weights` holds `x` (a draw in `0..sum`): index k for
/// `x` in `[w_0 + ... + w_(k-1), w_0 + ... + w_k)`; `None` past the sum.
pub fn weighted_index(weights: &[u64], mut x: u64) -> Option<usize> {
    for (k, &w) in weights.iter().enumerate() {
        if x < w {
            return Some(k);
        }
        x -= w;
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rtts(ms: &[u64]) -> PathProbes {
        let mut p = PathProbes::default();
        for &m in ms {
            p.add(Time::from_millis(m));
        }
        p
    }

    #[test]
    fn probe_rtts_keep_the_last_w_samples() {
        // 100 ms once, then ten of 200 ms: the first falls out of the window of ten.
        let mut ms = vec![100];
        ms.extend([200; PROBE_SAMPLES]);
        let p = rtts(&ms);
        assert!((p.mean().unwrap() - 0.2).abs() < 1e-12);
        assert!(p.variance().unwrap() < 1e-20);
    }

    #[test]
    fn variance_is_the_sample_variance() {
        // 100, 200, 300 ms: mean 0.2 s, squared deviations 0.01 + 0 + 0.01 over n - 1 = 2: 0.01 s^2.
        let p = rtts(&[100, 200, 300]);
        assert!((p.variance().unwrap() - 0.01).abs() < 1e-12);
        assert_eq!(rtts(&[100]).variance(), None);
        assert_eq!(PathProbes::default().mean(), None);
    }

    #[test]
    fn ranked_rules_pick_the_best_and_keep_paths_in_use_on_ties() {
        let (fast, slow, jittery, none) = (rtts(&[50, 50]), rtts(&[300, 300]), rtts(&[20, 180]), PathProbes::default());
        let c = |hops, probes, in_use| Candidate { hops, probes, in_use, bandwidth: None };
        let paths =
            [(0, c(5, &slow, true)), (1, c(3, &fast, false)), (2, c(4, &jittery, false)), (3, c(3, &none, true))];
        // Fewest hops: paths 1 and 3 (3 hops each; 3 is in use, so it comes first).
        assert_eq!(PathSelection::Hop.best(&paths, 2), vec![3, 1]);
        // Mean RTT: fast 50 ms, jittery 100 ms, slow 300 ms; no samples last.
        assert_eq!(PathSelection::Latency.best(&paths, 3), vec![1, 2, 0]);
        // Variance: fast and slow 0 (slow in use first), jittery 0.0128 s^2, none last.
        assert_eq!(PathSelection::LatencyVariance.best(&paths, 4), vec![0, 1, 2, 3]);
    }

    #[test]
    fn the_hybrid_rule_ranks_paths_that_meet_the_requirement_then_unmeasured_then_the_fastest() {
        // A requirement of 2 Mbit/s a path. Jitter: steady 0 s^2, jittery 0.0128 s^2, none without.
        let (steady, jittery, none) = (rtts(&[50, 50]), rtts(&[20, 180]), PathProbes::default());
        let c =
            |probes, in_use, mbps: Option<f64>| Candidate { hops: 3, probes, in_use, bandwidth: mbps.map(|m| m * 1e6) };
        let paths = [
            (0, c(&steady, true, Some(1.0))),   // steady, but 1 Mbit/s: short
            (1, c(&jittery, true, Some(3.0))),  // meets it, jittery
            (2, c(&steady, false, None)),       // not measured, steady
            (3, c(&jittery, false, Some(2.0))), // meets it exactly, jittery, not in use
            (4, c(&none, false, Some(1.5))),    // short, but faster than path 0
            (5, c(&steady, false, Some(5.0))),  // meets it, steady
        ];
        let rule = PathSelection::Hybrid { min_path_rate: 2_000_000 };
        // Tier 0 by jitter (5; then 1 and 3 alike, 1 in use first), tier 1 (2), tier 2 by
        // bandwidth (4 at 1.5 Mbit/s before 0 at 1).
        assert_eq!(rule.best(&paths, 6), vec![5, 1, 3, 2, 4, 0]);
        // With two slots the steady path that falls short (0) goes, though it has the least jitter.
        assert_eq!(rule.best(&paths, 2), vec![5, 1]);
        // No requirement: every measured path meets it, by jitter (4 has none: last of them);
        // only the unmeasured one ranks after them.
        assert_eq!(PathSelection::Hybrid { min_path_rate: 0 }.best(&paths, 6), vec![0, 5, 1, 3, 4, 2]);
    }

    #[test]
    fn a_weighted_draw_falls_in_its_share() {
        // Weights 3 and 1: draws 0, 1, 2 fall in the first share, 3 in the second, 4 past both.
        let picks: Vec<Option<usize>> = (0..5).map(|x| weighted_index(&[3, 1], x)).collect();
        assert_eq!(picks, vec![Some(0), Some(0), Some(0), Some(1), None]);
        assert_eq!(weighted_index(&[0, 2], 0), Some(1), "a zero weight is never drawn");
    }

    #[test]
    fn scenario_words_round_trip() {
        for (word, rule) in PathSelection::NAMES {
            assert_eq!(PathSelection::parse(word), Some(rule));
        }
        assert_eq!(PathSelection::parse("hops"), None);
        assert!(PathSelection::Hop.is_ranked() && !PathSelection::Bandwidth.is_ranked());
        assert!(PathSelection::Hybrid { min_path_rate: 1 }.is_ranked());
    }
}
