//! Semi-coupled (Raiciu et al., NSDI 2011, §2, "SEMICOUPLED"): per Data on path r the window
//! grows by `a / w_total`, the sum of all in-use windows; each path halves on its own losses.
//! PTP names its control law "Linked Increase (Semi-coupled)" (§5-A, footnote 2: "it tries to
//! maintain a moderate amount of traffic on each path while having a bias in favor of less
//! congested paths"): this is the rule that footnote describes, and LIA (`lia`) is the same rule
//! with `a` set from the paths' windows and RTTs and a cap of plain TCP's `1 / w_r`.
//!
//! `a` is 1 (our choice: the NSDI paper leaves it a constant to pick; with 1 a single path is Reno,
//! and n equal paths through one bottleneck take about one flow's share).

use super::coupling::{reno_increase, Coupling, PathView};

/// The constant `a` of the increase `a / w_total`.
pub const SEMICOUPLED_A: f64 = 1.0;

pub struct SemiCoupled;

impl Coupling for SemiCoupled {
    fn name(&self) -> &'static str {
        "semicoupled"
    }

    fn increase(&self, paths: &[PathView], i: usize) -> f64 {
        if i >= paths.len() {
            return 0.0;
        }
        let total: f64 = paths.iter().map(|p| p.cwnd.max(1.0)).sum();
        // `reno_increase` of the total: 1 / total for finite windows, never NaN.
        SEMICOUPLED_A * reno_increase(total)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_path_grows_by_one_over_the_total() {
        // w_total = 10 + 6 = 16: both paths + 1/16 per Data.
        let paths = [
            PathView { cwnd: 10.0, rtt: 0.1, ..PathView::default() },
            PathView { cwnd: 6.0, rtt: 0.4, ..PathView::default() },
        ];
        assert_eq!(SemiCoupled.increase(&paths, 0), 1.0 / 16.0);
        assert_eq!(SemiCoupled.increase(&paths, 1), 1.0 / 16.0);
    }
}
