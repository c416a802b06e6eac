//! Linked Increases Algorithm (LIA; Raiciu, Handley, Wischik, RFC 6356 §3), the additive increase
//! of PTP's MPCCP (§5-D-5, eq. (2)-(3)) and of MPTCP's default coupling (`coupling = "lia"`).
//!
//! Why RFC 6356: the paper's equations (2)-(4) did not survive the text conversion. What is left
//! says the control law is MPTCP's "Linked Increase (Semi-coupled)" (its ref. 6), that eq. (2) is an
//! additive increase over the sum of the windows of all in-use paths with an aggressiveness
//! parameter alpha, and that alpha "is calculated automatically in Linked Increase" (eq. (3)) from
//! every path's window and RTT. That is RFC 6356's algorithm, so we use it as specified there, in
//! packets (Interests) instead of bytes:
//!
//! * per Data acknowledged on path i in congestion avoidance:
//!   `cwnd_i += min(alpha / cwnd_total, 1 / cwnd_i)`;
//! * `alpha = cwnd_total * max_i(cwnd_i / rtt_i^2) / (sum_i cwnd_i / rtt_i)^2`.
//!
//! The first term couples the paths (together they take no more than one TCP flow on the best
//! path); the cap `1 / cwnd_i` keeps any single path from being more aggressive than plain TCP.
//! With one path alpha is exactly 1 and the increase is Reno's `1 / cwnd`. The surviving text of
//! eq. (2) also names a "reference RTT" `rtt_mu` and a ratio `rtt_mu / rtt_p` compensating RTT
//! unfairness; RFC 6356 has no such factor because alpha already carries the RTT compensation (the
//! `rtt_i^2` and `rtt_i` terms), and without the equation or its ref. 17 we cannot tell what
//! else it was, so we leave it out.
//!
//! Degenerate input (no paths, a window or RTT that is zero, negative or not finite, or sums that
//! overflow) has no meaningful coupling: `lia_alpha` then returns 1 (a single TCP flow) and
//! `lia_increase` the uncoupled Reno increase `1 / cwnd_i`. A consumer should therefore give paths
//! without an RTT sample yet some estimate (e.g. the initial RTO) if it wants them coupled.

use super::coupling::{reno_increase, usable, Coupling, PathView};

/// RFC 6356's coupling, by name `"lia"`.
pub struct LinkedIncrease;

impl Coupling for LinkedIncrease {
    fn name(&self) -> &'static str {
        "lia"
    }

    fn increase(&self, paths: &[PathView], i: usize) -> f64 {
        lia_increase(paths, i)
    }
}

/// `(alpha, cwnd_total)`, or `None` when the input is degenerate (see the module comment).
fn coupling(paths: &[PathView]) -> Option<(f64, f64)> {
    if paths.is_empty() || !paths.iter().all(usable) {
        return None;
    }
    let total: f64 = paths.iter().map(|p| p.cwnd).sum();
    let best = paths.iter().map(|p| p.cwnd / (p.rtt * p.rtt)).fold(0.0, f64::max);
    let rate: f64 = paths.iter().map(|p| p.cwnd / p.rtt).sum();
    let alpha = total * best / (rate * rate);
    // Extreme windows or RTTs can overflow to inf/inf; treat that as no coupling information.
    (alpha.is_finite() && alpha > 0.0 && total.is_finite()).then_some((alpha, total))
}

/// RFC 6356 §3's alpha over all in-use paths (windows in Interests, RTTs in seconds). 1 for one
/// path and for degenerate input.
pub fn lia_alpha(paths: &[PathView]) -> f64 {
    coupling(paths).map_or(1.0, |(alpha, _)| alpha)
}

/// The congestion-avoidance increase of path `i`'s window per Data received on it:
/// `min(alpha / cwnd_total, 1 / cwnd_i)`. Falls back to `1 / cwnd_i` for degenerate input and to 0
/// when `i` is not a path. Never NaN, never negative.
pub fn lia_increase(paths: &[PathView], i: usize) -> f64 {
    let Some(w) = paths.get(i).map(|p| p.cwnd) else {
        return 0.0;
    };
    match coupling(paths) {
        Some((alpha, total)) => (alpha / total).min(reno_increase(w)),
        None => reno_increase(w),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() < 1e-12
    }

    /// Paths given as (cwnd, rtt in seconds).
    fn v(paths: &[(f64, f64)]) -> Vec<PathView> {
        paths.iter().map(|&(cwnd, rtt)| PathView { cwnd, rtt, ..PathView::default() }).collect()
    }

    #[test]
    fn one_path_is_plain_tcp() {
        // alpha = w * (w / r^2) / (w / r)^2 = 1; increase = min(1 / w, 1 / w).
        for (w, rtt) in [(1.0, 0.05), (10.0, 0.1), (123.5, 2.0)] {
            assert!(close(lia_alpha(&v(&[(w, rtt)])), 1.0));
            assert!(close(lia_increase(&v(&[(w, rtt)]), 0), 1.0 / w));
        }
    }

    #[test]
    fn two_equal_paths_share_one_tcp_increase() {
        // alpha = 20 * (10 / 0.01) / (100 + 100)^2 = 20000 / 40000 = 0.5;
        // increase = min(0.5 / 20, 1 / 10) = 0.025: each path gets half of a TCP flow's 1/20.
        let paths = [(10.0, 0.1), (10.0, 0.1)];
        assert!(close(lia_alpha(&v(&paths)), 0.5));
        assert!(close(lia_increase(&v(&paths), 0), 0.025));
        assert!(close(lia_increase(&v(&paths), 1), 0.025));
    }

    #[test]
    fn different_rtts() {
        // w/r^2: 10/0.01 = 1000 and 10/0.04 = 250, max 1000; sum w/r = 100 + 50 = 150.
        // alpha = 20 * 1000 / 150^2 = 20000 / 22500 = 8/9; increase = min(8/9/20, 1/10) = 2/45.
        let paths = [(10.0, 0.1), (10.0, 0.2)];
        assert!(close(lia_alpha(&v(&paths)), 8.0 / 9.0));
        assert!(close(lia_increase(&v(&paths), 0), 2.0 / 45.0));
        assert!(close(lia_increase(&v(&paths), 1), 2.0 / 45.0));
    }

    #[test]
    fn the_tcp_cap_binds_on_a_large_slow_path() {
        // Path 0: w 1, rtt 0.01 -> w/r^2 = 10000, w/r = 100. Path 1: w 20, rtt 0.1 -> 2000, 200.
        // alpha = 21 * 10000 / 300^2 = 7/3; alpha / total = 1/9.
        // Path 0: min(1/9, 1/1) = 1/9. Path 1: min(1/9, 1/20) = 1/20, capped at plain TCP.
        let paths = [(1.0, 0.01), (20.0, 0.1)];
        assert!(close(lia_alpha(&v(&paths)), 7.0 / 3.0));
        assert!(close(lia_increase(&v(&paths), 0), 1.0 / 9.0));
        assert!(close(lia_increase(&v(&paths), 1), 1.0 / 20.0));
    }

    #[test]
    fn degenerate_input_falls_back_to_uncoupled() {
        assert_eq!(lia_alpha(&v(&[])), 1.0);
        assert_eq!(lia_increase(&v(&[]), 0), 0.0);
        assert_eq!(lia_increase(&v(&[(10.0, 0.1)]), 1), 0.0);
        // One path without an RTT sample: no coupling, 1/w.
        assert_eq!(lia_alpha(&v(&[(10.0, 0.0)])), 1.0);
        assert!(close(lia_increase(&v(&[(10.0, 0.0)]), 0), 0.1));
        // An empty window counts as one Interest.
        assert_eq!(lia_alpha(&v(&[(0.0, 0.1)])), 1.0);
        assert_eq!(lia_increase(&v(&[(0.0, 0.1)]), 0), 1.0);
        // One bad path among good ones uncouples all of them.
        let paths = [(10.0, 0.1), (4.0, f64::NAN)];
        assert_eq!(lia_alpha(&v(&paths)), 1.0);
        assert!(close(lia_increase(&v(&paths), 0), 0.1));
        assert!(close(lia_increase(&v(&paths), 1), 0.25));
    }

    #[test]
    fn never_nan_never_negative() {
        let odd = [0.0, -1.0, 1e-300, 1e300, f64::MAX, f64::MIN_POSITIVE, f64::INFINITY, f64::NAN];
        for &w in &odd {
            for &rtt in &odd {
                for paths in [vec![(w, rtt)], vec![(w, rtt), (5.0, 0.1)], vec![(3.0, 0.2), (w, rtt), (w, 0.1)]] {
                    let a = lia_alpha(&v(&paths));
                    assert!(a.is_finite() && a > 0.0, "alpha {a} for {paths:?}");
                    for i in 0..=paths.len() {
                        let inc = lia_increase(&v(&paths), i);
                        assert!(inc.is_finite() && inc >= 0.0, "increase {inc} for {paths:?} at {i}");
                    }
                }
            }
        }
    }
}
