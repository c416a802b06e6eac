//! EWTCP, equally weighted TCP (Honda et al.; as stated in Raiciu et al., NSDI 2011, §2): each path
//! runs Reno with its increase scaled by a weight, `a / w_r` per Data, halving on loss.
//!
//! The weight: an AIMD flow with increase `a / w` per ACK and halving has the equilibrium window
//! `sqrt(2 a / p)`, `sqrt(a)` times a TCP flow's `sqrt(2 / p)`. For n paths through one
//! bottleneck to take one TCP flow's share together, each must take `1 / n` of it, so
//! `sqrt(a) = 1 / n`: `a = 1 / n^2`, n the number of in-use paths. (The NSDI paper gives the
//! goal, equal weights summing to one flow; the square follows from it.) With one path it is Reno.

use super::coupling::{reno_increase, Coupling, PathView};

pub struct Ewtcp;

impl Coupling for Ewtcp {
    fn name(&self) -> &'static str {
        "ewtcp"
    }

    fn increase(&self, paths: &[PathView], i: usize) -> f64 {
        let n = paths.len() as f64;
        paths.get(i).map_or(0.0, |p| reno_increase(p.cwnd) / (n * n))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn two_paths_grow_at_a_quarter_of_tcp() {
        // n = 2: a = 1/4; path 0: 0.25 / 10, path 1: 0.25 / 5.
        let paths = [
            PathView { cwnd: 10.0, rtt: 0.1, ..PathView::default() },
            PathView { cwnd: 5.0, rtt: 0.3, ..PathView::default() },
        ];
        assert!((Ewtcp.increase(&paths, 0) - 0.025).abs() < 1e-15);
        assert!((Ewtcp.increase(&paths, 1) - 0.05).abs() < 1e-15);
    }

    #[test]
    fn three_paths_grow_at_a_ninth() {
        let p = PathView { cwnd: 2.0, rtt: 0.1, ..PathView::default() };
        assert!((Ewtcp.increase(&[p, p, p], 2) - 1.0 / 18.0).abs() < 1e-15);
    }
}
