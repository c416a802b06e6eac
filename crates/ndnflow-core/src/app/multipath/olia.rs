//! OLIA, the Opportunistic Linked Increases Algorithm (Khalili, Gast, Popovic, Le Boudec, "MPTCP is
//! not Pareto-optimal: performance issues and a possible solution", IEEE/ACM ToN 2013, §V), in
//! packets (Interests) instead of bytes. Per Data received on path r in congestion avoidance:
//!
//! `w_r += (w_r / rtt_r^2) / (sum_p w_p / rtt_p)^2 + alpha_r / w_r`
//!
//! The first term is the increase that makes the paths together as aggressive as one TCP flow on
//! the best path; `alpha_r` moves window from the paths with the largest windows to the paths that
//! are best but not yet largest, so that traffic leaves congested paths (LIA's Pareto defect).
//!
//! * `l_r`, the "smoothed" number of packets between losses on r: the larger of the count between
//!   its last two loss events and the count since the last one (`PathView::between_losses`,
//!   `since_loss`), so that a long loss-free run counts before the next loss arrives.
//! * Best paths B: the paths with the largest `l_r / rtt_r^2` (a TCP flow's rate on r is
//!   proportional to `sqrt(l_r) / rtt_r`, and this is its square). Max-window paths M: the
//!   paths with the largest `w_r`. Collected paths C = B \ M.
//! * With n in-use paths: `alpha_r = 1 / (n |C|)` for r in C, `-1 / (n |M|)` for r in M when C is
//!   not empty, 0 otherwise. The alphas sum to 0.
//!
//! Ties count every tied path in the set (exact comparisons of f64: equal windows are equal). The
//! increase may be negative on a max-window path; the path's congestion state keeps its window
//! at least its minimum. Paths without an RTT sample (rtt 0) or with a degenerate window give no
//! coupling information: every path then grows as Reno, `1 / w_r`, as `lia` does.

use super::coupling::{reno_increase, usable, Coupling, PathView};

pub struct Olia;

impl Coupling for Olia {
    fn name(&self) -> &'static str {
        "olia"
    }

    fn increase(&self, paths: &[PathView], i: usize) -> f64 {
        let Some(p) = paths.get(i) else { return 0.0 };
        if !paths.iter().all(usable) {
            return reno_increase(p.cwnd);
        }
        let rate: f64 = paths.iter().map(|q| q.cwnd / q.rtt).sum();
        let coupled = (p.cwnd / (p.rtt * p.rtt)) / (rate * rate);
        let inc = coupled + olia_alpha(paths, i) / p.cwnd;
        if inc.is_finite() {
            inc
        } else {
            reno_increase(p.cwnd)
        }
    }
}

/// The smoothed inter-loss count `l_r`.
fn inter_loss(p: &PathView) -> f64 {
    p.between_losses.max(p.since_loss) as f64
}

/// `alpha_i` over `paths` (all usable).
pub fn olia_alpha(paths: &[PathView], i: usize) -> f64 {
    let quality = |p: &PathView| inter_loss(p) / (p.rtt * p.rtt);
    let best_q = paths.iter().map(quality).fold(f64::NEG_INFINITY, f64::max);
    let max_w = paths.iter().map(|p| p.cwnd).fold(f64::NEG_INFINITY, f64::max);
    let in_b = |p: &PathView| quality(p) == best_q;
    let in_m = |p: &PathView| p.cwnd == max_w;
    let collected = paths.iter().filter(|p| in_b(p) && !in_m(p)).count();
    if collected == 0 {
        return 0.0;
    }
    let n = paths.len() as f64;
    let p = &paths[i];
    if in_b(p) && !in_m(p) {
        1.0 / (n * collected as f64)
    } else if in_m(p) {
        -1.0 / (n * paths.iter().filter(|q| in_m(q)).count() as f64)
    } else {
        0.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn view(cwnd: f64, rtt: f64, between_losses: u64, since_loss: u64) -> PathView {
        PathView { cwnd, rtt, since_loss, between_losses }
    }

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() < 1e-12
    }

    #[test]
    fn equal_paths_share_one_tcp_increase_and_no_alpha() {
        // Both paths in B and in M: C is empty, alpha 0. sum w/rtt = 100 + 100 = 200;
        // increase = (10 / 0.01) / 200^2 = 1000 / 40000 = 0.025, as LIA's for the same paths.
        let paths = [view(10.0, 0.1, 50, 5), view(10.0, 0.1, 50, 5)];
        assert_eq!(olia_alpha(&paths, 0), 0.0);
        assert!(close(Olia.increase(&paths, 0), 0.025));
        assert!(close(Olia.increase(&paths, 1), 0.025));
    }

    #[test]
    fn window_moves_from_the_largest_path_to_the_best_one() {
        // Path 0: w 20, rtt 0.1, l = max(40, 10) = 40 -> l / rtt^2 = 4000.
        // Path 1: w 5, rtt 0.1, l = max(30, 90) = 90 -> 9000: the best path, not the largest.
        // B = {1}, M = {0}, C = {1}; n = 2: alpha_1 = 1 / (2 * 1) = 0.5, alpha_0 = -1 / (2 * 1).
        let paths = [view(20.0, 0.1, 40, 10), view(5.0, 0.1, 30, 90)];
        assert_eq!(olia_alpha(&paths, 0), -0.5);
        assert_eq!(olia_alpha(&paths, 1), 0.5);
        // sum w/rtt = 200 + 50 = 250, squared 62500.
        // Path 0: (20 / 0.01) / 62500 - 0.5 / 20 = 0.032 - 0.025 = 0.007.
        // Path 1: (5 / 0.01) / 62500 + 0.5 / 5 = 0.008 + 0.1 = 0.108.
        assert!(close(Olia.increase(&paths, 0), 0.007));
        assert!(close(Olia.increase(&paths, 1), 0.108));
    }

    #[test]
    fn the_largest_window_can_shrink() {
        // Path 0: w 40, l / rtt^2 = 10 / 0.01 = 1000: M. Paths 1 and 2: w 4, 100 / 0.01 = 10000:
        // B = C = {1, 2}. n = 3: alpha_0 = -1 / (3 * 1), alpha_1 = alpha_2 = 1 / (3 * 2).
        let paths = [view(40.0, 0.1, 10, 0), view(4.0, 0.1, 100, 0), view(4.0, 0.1, 100, 0)];
        // sum w/rtt = 400 + 40 + 40 = 480; (40 / 0.01) / 480^2 = 4000 / 230400 = 0.017361...;
        // alpha_0 = -1 / (3 * 1); increase = 0.017361 - 1/120 = 0.009027...
        assert!(close(olia_alpha(&paths, 0), -1.0 / 3.0));
        assert!(close(olia_alpha(&paths, 1), 1.0 / 6.0));
        assert!(close(Olia.increase(&paths, 0), 4000.0 / 230400.0 - 1.0 / 120.0));
        // Now the max path is also far slower: its increase goes negative.
        let paths = [view(40.0, 0.4, 10, 0), view(4.0, 0.1, 100, 0), view(4.0, 0.1, 100, 0)];
        // sum w/rtt = 100 + 40 + 40 = 180; (40 / 0.16) / 32400 = 250 / 32400 = 0.0077160...;
        // minus 1/120 = 0.0083333... gives -0.000617...
        let inc = Olia.increase(&paths, 0);
        assert!(close(inc, 250.0 / 32400.0 - 1.0 / 120.0) && inc < 0.0, "{inc}");
    }

    #[test]
    fn without_rtt_samples_it_is_reno() {
        let paths = [view(10.0, 0.0, 5, 5), view(4.0, 0.1, 5, 5)];
        assert_eq!(Olia.increase(&paths, 0), 0.1);
        assert_eq!(Olia.increase(&paths, 1), 0.25);
    }
}
