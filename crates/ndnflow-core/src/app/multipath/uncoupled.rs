//! Uncoupled: every path its own Reno (Raiciu et al., NSDI 2011, §2: "the simplest approach is to
//! run TCP's congestion control independently on each path"). Over one shared bottleneck n paths
//! then take n flows' share; the baseline the other couplings are measured against.

use super::coupling::{reno_increase, Coupling, PathView};

pub struct Uncoupled;

impl Coupling for Uncoupled {
    fn name(&self) -> &'static str {
        "uncoupled"
    }

    fn increase(&self, paths: &[PathView], i: usize) -> f64 {
        paths.get(i).map_or(0.0, |p| reno_increase(p.cwnd))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_path_grows_as_tcp_whatever_the_others() {
        let paths = [
            PathView { cwnd: 4.0, rtt: 0.01, ..PathView::default() },
            PathView { cwnd: 20.0, rtt: 0.2, ..PathView::default() },
        ];
        assert_eq!(Uncoupled.increase(&paths, 0), 0.25);
        assert_eq!(Uncoupled.increase(&paths, 1), 0.05);
    }
}
