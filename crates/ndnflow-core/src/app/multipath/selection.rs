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
//! has one. The appendix's "hybrid combinations" need a per-application bandwidth requirement
//! the paper leaves undefined; they are not built.

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
}

impl PathSelection {
    /// The scenario words, in the order docs list them.
    pub const NAMES: [(&'static str, PathSelection); 6] = [
        ("bandwidth", PathSelection::Bandwidth),
        ("bandwidth-probed", PathSelection::BandwidthProbed),
        ("random", PathSelection::Random),
        ("hop", PathSelection::Hop),
        ("latency", PathSelection::Latency),
        ("latency-variance", PathSelection::LatencyVariance),
    ];

    pub fn parse(word: &str) -> Option<PathSelection> {
        Self::NAMES.iter().find(|(w, _)| *w == word).map(|&(_, s)| s)
    }

    /// Whether the rule ranks every known path (and so may change the whole in-use set at once).
    pub fn is_ranked(self) -> bool {
        matches!(self, PathSelection::Hop | PathSelection::Latency | PathSelection::LatencyVariance)
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

/// What a ranked rule knows of one path: its tag stack's length and its probe RTTs.
pub struct Candidate<'a> {
    pub hops: usize,
    pub probes: &'a PathProbes,
    pub in_use: bool,
}

impl PathSelection {
    /// The rank of a path under a ranked rule: lower is better; a path with no measure ranks last.
    pub fn rank(self, c: &Candidate<'_>) -> f64 {
        let measure = match self {
            PathSelection::Hop => Some(c.hops as f64),
            PathSelection::Latency => c.probes.mean(),
            PathSelection::LatencyVariance => c.probes.variance(),
            PathSelection::Bandwidth | PathSelection::BandwidthProbed | PathSelection::Random => Some(0.0),
        };
        measure.unwrap_or(f64::INFINITY)
    }

    /// Under a ranked rule, the indices of the `n` best candidates (ties: in use first, then the
    /// lower index, the path found first). `candidates` holds (index, candidate) of every path
    /// that may be used.
    pub fn best(self, candidates: &[(usize, Candidate<'_>)], n: usize) -> Vec<usize> {
        let mut order: Vec<(f64, bool, usize)> =
            candidates.iter().map(|(i, c)| (self.rank(c), !c.in_use, *i)).collect();
        order.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)).then(a.2.cmp(&b.2)));
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
        let c = |hops, probes, in_use| Candidate { hops, probes, in_use };
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
    }
}
