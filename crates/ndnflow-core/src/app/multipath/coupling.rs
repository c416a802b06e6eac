//! Couplings: how the window increases of one consumer's paths are linked (Raiciu, Wischik,
//! Handley, "Design, implementation and evaluation of congestion control for multipath TCP",
//! NSDI 2011, §2; RFC 6356; Khalili et al., "MPTCP is not Pareto-optimal", IEEE/ACM ToN 2013).
//!
//! A subflow manager owns one congestion state per path; each path halves (or multiplies by its
//! beta) on its own losses, and grows in congestion avoidance by what the coupling says, per Data
//! received on it. The coupling sees every in-use path (`PathView`) and nothing else, so it is a
//! pure function: the same views give the same increase, and a test can pin it by hand.
//!
//! Adding a coupling: a file with a unit struct implementing `Coupling`, one line in `COUPLINGS`,
//! its parameters in docs/protocols/multipath.md, and a unit test of its increase.

use super::{ewtcp, lia, olia, semicoupled, uncoupled};

/// What a coupling knows of one in-use path.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct PathView {
    /// Congestion window, in Interests.
    pub cwnd: f64,
    /// Smoothed RTT in seconds; 0 while the path has no sample (couplings that need RTTs then
    /// fall back to the uncoupled increase, see `lia`).
    pub rtt: f64,
    /// Data received on the path since its last loss event (OLIA's `l_2r`, in packets).
    pub since_loss: u64,
    /// Data received on the path between its last two loss events (OLIA's `l_1r`).
    pub between_losses: u64,
}

/// A coupling rule. `Sync` so that the registry can hold them as statics.
pub trait Coupling: Sync {
    /// The name a scenario file gives it (`coupling = "lia"`).
    fn name(&self) -> &'static str;
    /// The congestion-avoidance increase of path `i`'s window per Data received on it, in
    /// Interests; `paths` are all the in-use paths, `i` indexes them. May be negative (OLIA takes
    /// from the largest windows); never NaN. 0 when `i` is not a path.
    fn increase(&self, paths: &[PathView], i: usize) -> f64;
}

/// Every coupling, by name. The first is the default of nothing; each consumer names its own.
pub static COUPLINGS: &[&dyn Coupling] =
    &[&uncoupled::Uncoupled, &ewtcp::Ewtcp, &semicoupled::SemiCoupled, &lia::LinkedIncrease, &olia::Olia];

/// A coupling chosen by name (cheap to copy and compare; configs carry it).
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct CouplingName(&'static str);

impl CouplingName {
    pub const UNCOUPLED: CouplingName = CouplingName("uncoupled");
    pub const EWTCP: CouplingName = CouplingName("ewtcp");
    pub const SEMICOUPLED: CouplingName = CouplingName("semicoupled");
    pub const LIA: CouplingName = CouplingName("lia");
    pub const OLIA: CouplingName = CouplingName("olia");

    /// The registered coupling of that name.
    pub fn parse(name: &str) -> Option<CouplingName> {
        COUPLINGS.iter().find(|c| c.name() == name).map(|c| CouplingName(c.name()))
    }

    /// Every registered name, in registry order (for error messages and docs).
    pub fn names() -> impl Iterator<Item = &'static str> {
        COUPLINGS.iter().map(|c| c.name())
    }

    pub fn as_str(&self) -> &'static str {
        self.0
    }

    /// The rule itself. A name is only made from the registry, so it is always found.
    pub fn coupling(&self) -> &'static dyn Coupling {
        COUPLINGS.iter().copied().find(|c| c.name() == self.0).unwrap_or(&uncoupled::Uncoupled)
    }
}

impl std::fmt::Debug for CouplingName {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{:?}", self.0)
    }
}

/// Plain TCP's congestion-avoidance increase, `1 / w` per Data. A window below one still admits
/// one Interest, so it counts as one; a NaN window gets the increase of a one-Interest window and
/// an infinite one none. Never NaN.
pub fn reno_increase(w: f64) -> f64 {
    if w.is_nan() {
        1.0
    } else if w.is_infinite() {
        0.0
    } else {
        1.0 / w.max(1.0)
    }
}

/// A window and an RTT that rate-based formulas (`w / rtt`) can use.
pub(super) fn usable(p: &PathView) -> bool {
    p.cwnd.is_finite() && p.cwnd > 0.0 && p.rtt.is_finite() && p.rtt > 0.0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_registered_coupling_is_found_by_its_name() {
        let names: Vec<&str> = CouplingName::names().collect();
        assert_eq!(names, ["uncoupled", "ewtcp", "semicoupled", "lia", "olia"]);
        for n in names {
            let c = CouplingName::parse(n).unwrap();
            assert_eq!(c.coupling().name(), n);
        }
        assert_eq!(CouplingName::parse("LIA"), None);
        assert_eq!(CouplingName::parse("lia"), Some(CouplingName::LIA));
    }

    #[test]
    fn on_one_path_every_coupling_is_reno() {
        // Each rule reduces to TCP's 1 / w with a single path: that is what lets a multipath
        // consumer with one path compete as one TCP flow.
        let one = [PathView { cwnd: 8.0, rtt: 0.05, since_loss: 20, between_losses: 30 }];
        for c in COUPLINGS {
            assert!((c.increase(&one, 0) - 0.125).abs() < 1e-12, "{}", c.name());
            assert_eq!(c.increase(&one, 1), 0.0, "{}: no such path", c.name());
        }
    }

    #[test]
    fn couplings_never_give_nan() {
        let odd = [0.0, -1.0, 1e-300, 1e300, f64::INFINITY, f64::NAN];
        for c in COUPLINGS {
            for &w in &odd {
                for &rtt in &odd {
                    let paths = [
                        PathView { cwnd: w, rtt, since_loss: 0, between_losses: 0 },
                        PathView { cwnd: 5.0, rtt: 0.1, since_loss: 3, between_losses: 9 },
                    ];
                    for i in 0..=2 {
                        let inc = c.increase(&paths, i);
                        assert!(!inc.is_nan(), "{} gave NaN for {paths:?} at {i}", c.name());
                    }
                }
            }
        }
    }
}
