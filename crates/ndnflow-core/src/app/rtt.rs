//! Retransmission timeout estimation (RFC 6298 §2, in ndn-cxx `util::RttEstimator`'s form: the RTO
//! is srtt + k x rttvar, clamped to [min, max], doubled on each timeout).
//!
//! `TimerModel::NdnSim` keeps the same arithmetic (ndnSIM's `RttMeanDeviation` uses gains 1/8 and
//! 1/4, k = 4 and a first variation of R/2 as well) but backs off the way ndnSIM's `RttEstimator`
//! does: a multiplier that doubles on every timeout up to a maximum and returns to 1 on the next
//! valid sample, RTO = min(max, multiplier x max(min, srtt + k x rttvar)). The consumer then applies
//! the RTO of the moment to every outstanding Interest at a periodic check (`consumer.rs`).

use crate::Time;

/// How the consumer turns the RTO into timeouts.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum TimerModel {
    /// One timer per Interest, due at its send time plus the RTO in force when it was sent; the RTO
    /// doubles once per loss episode (ndn-cxx / ndncatchunks, RFC 6298).
    #[default]
    PerSegment,
    /// ndnSIM's `Consumer`: every `check` (from time 0) each outstanding Interest whose send time
    /// plus the *current* RTO has passed times out; each timeout doubles the RTO multiplier up to
    /// `max_multiplier`, a valid RTT sample resets it to 1.
    NdnSim { check: Time, max_multiplier: u32 },
}

impl TimerModel {
    /// The values of the PCON authors' ndnSIM fork (gholamifrd/ndnSIM @ 075bd07): `Consumer`'s
    /// `RetxTimer` 10 ms (upstream ndnSIM: 50 ms) and `ConsumerCC`'s `MaxMultiplier` 8 (upstream
    /// `RttEstimator`: 64).
    pub const NDNSIM_PCON: TimerModel = TimerModel::NdnSim { check: Time::from_millis(10), max_multiplier: 8 };
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RttOptions {
    pub initial_rto: Time,
    pub min_rto: Time,
    pub max_rto: Time,
    pub alpha: f64,
    pub beta: f64,
    pub k: f64,
    pub timer: TimerModel,
}

impl Default for RttOptions {
    /// ndn-cxx defaults: 1 s initial, 200 ms min, 1 min max, alpha 1/8, beta 1/4, k 4.
    fn default() -> Self {
        RttOptions {
            initial_rto: Time::from_secs(1),
            min_rto: Time::from_millis(200),
            max_rto: Time::from_secs(60),
            alpha: 0.125,
            beta: 0.25,
            k: 4.0,
            timer: TimerModel::PerSegment,
        }
    }
}

#[derive(Clone, Debug)]
pub struct RttEstimator {
    opts: RttOptions,
    /// Smoothed RTT and variation in seconds; `None` before the first sample.
    srtt: Option<f64>,
    rttvar: f64,
    rto: Time,
    /// ndnSIM's RTO multiplier (always 1 with `TimerModel::PerSegment`).
    multiplier: u32,
}

impl RttEstimator {
    pub fn new(opts: RttOptions) -> RttEstimator {
        RttEstimator { opts, srtt: None, rttvar: 0.0, rto: opts.initial_rto, multiplier: 1 }
    }

    /// RFC 6298 (2.2) for the first sample, (2.3) afterwards.
    pub fn add_sample(&mut self, rtt: Time) {
        let r = rtt.as_secs_f64();
        match self.srtt {
            None => {
                self.srtt = Some(r);
                self.rttvar = r / 2.0;
            }
            Some(srtt) => {
                self.rttvar = (1.0 - self.opts.beta) * self.rttvar + self.opts.beta * (srtt - r).abs();
                self.srtt = Some((1.0 - self.opts.alpha) * srtt + self.opts.alpha * r);
            }
        }
        self.rto = self.estimated_rto();
        // ndnSIM: "Reset multiplier on valid measurement".
        self.multiplier = 1;
    }

    /// ndnSIM's `IncreaseMultiplier`: x2 per timeout, at most `max_multiplier` (no-op for
    /// `TimerModel::PerSegment`, which uses `backoff`).
    pub fn increase_multiplier(&mut self) {
        if let TimerModel::NdnSim { max_multiplier, .. } = self.opts.timer {
            self.multiplier = (self.multiplier.saturating_mul(2)).min(max_multiplier.max(1));
        }
    }

    /// RFC 6298 (5.5): double the RTO after a timeout.
    pub fn backoff(&mut self) {
        self.rto = (self.rto * 2).min(self.opts.max_rto);
    }

    /// Undoes any backoff: the RTO from the current estimates again (the initial RTO before the
    /// first sample), as a new sample would leave it. RFC 6298 (5.7) lets a sender distrust its
    /// estimates after repeated backoffs; a multipath sub-flow whose Interests are answered over
    /// another path gets no sample of its own to end the backoff, and needs this instead.
    pub fn clear_backoff(&mut self) {
        self.rto = self.estimated_rto();
        self.multiplier = 1;
    }

    /// The RTO the current estimates give, without any backoff (what `clear_backoff` would set):
    /// the initial RTO before the first sample.
    pub fn estimated_rto(&self) -> Time {
        match self.srtt {
            Some(srtt) => {
                Time::from_secs_f64(srtt + self.opts.k * self.rttvar).clamp(self.opts.min_rto, self.opts.max_rto)
            }
            None => self.opts.initial_rto,
        }
    }

    pub fn rto(&self) -> Time {
        if self.multiplier == 1 {
            return self.rto;
        }
        (self.rto * self.multiplier as u64).min(self.opts.max_rto)
    }

    pub fn srtt(&self) -> Option<Time> {
        self.srtt.map(Time::from_secs_f64)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clearing_a_backoff_gives_the_rto_of_the_estimates_back() {
        // One 100 ms sample: srtt 100 ms, rttvar 50 ms, RTO 100 + 4 x 50 = 300 ms; two backoffs
        // make it 1.2 s, clearing them 300 ms again. Before any sample: the initial 1 s.
        let mut e = RttEstimator::new(RttOptions::default());
        e.backoff();
        e.clear_backoff();
        assert_eq!(e.rto(), Time::from_secs(1));
        e.add_sample(Time::from_millis(100));
        e.backoff();
        e.backoff();
        assert_eq!(e.rto(), Time::from_millis(1200));
        e.clear_backoff();
        assert_eq!(e.rto(), Time::from_millis(300));
        // What the estimates give stays 300 ms through backoffs (a probe's timer reads it).
        e.backoff();
        assert_eq!((e.rto(), e.estimated_rto()), (Time::from_millis(600), Time::from_millis(300)));
    }

    #[test]
    fn first_sample_sets_srtt_and_half_variation() {
        let mut e = RttEstimator::new(RttOptions::default());
        assert_eq!(e.rto(), Time::from_secs(1));
        e.add_sample(Time::from_millis(100));
        // rto = 100 + 4 x 50 = 300 ms.
        assert_eq!(e.rto(), Time::from_millis(300));
        e.add_sample(Time::from_millis(100));
        // rttvar = 0.75 x 50 = 37.5 ms; srtt 100 ms; rto = 100 + 150 = 250 ms.
        assert_eq!(e.rto(), Time::from_millis(250));
    }

    #[test]
    fn rto_is_clamped_and_doubles_on_backoff() {
        let mut e = RttEstimator::new(RttOptions::default());
        e.add_sample(Time::from_millis(10)); // 10 + 20 = 30 ms -> clamped to 200 ms
        assert_eq!(e.rto(), Time::from_millis(200));
        e.backoff();
        assert_eq!(e.rto(), Time::from_millis(400));
        for _ in 0..20 {
            e.backoff();
        }
        assert_eq!(e.rto(), Time::from_secs(60));
    }

    #[test]
    fn ndnsim_multiplier_doubles_to_its_maximum_and_a_sample_resets_it() {
        let opts = RttOptions {
            timer: TimerModel::NdnSim { check: Time::from_millis(10), max_multiplier: 4 },
            ..RttOptions::default()
        };
        let mut e = RttEstimator::new(opts);
        e.add_sample(Time::from_millis(100)); // 300 ms, as above
        e.increase_multiplier();
        assert_eq!(e.rto(), Time::from_millis(600));
        e.increase_multiplier();
        e.increase_multiplier(); // 8 > max 4: stays 4
        assert_eq!(e.rto(), Time::from_millis(1200));
        // A valid sample resets the multiplier: rttvar 37.5 ms, RTO 250 ms.
        e.add_sample(Time::from_millis(100));
        assert_eq!(e.rto(), Time::from_millis(250));
        // The product is capped at max: 1 s initial x 4 would be 4 s; max 3 s.
        let mut e = RttEstimator::new(RttOptions { max_rto: Time::from_secs(3), ..opts });
        e.increase_multiplier();
        e.increase_multiplier();
        assert_eq!(e.rto(), Time::from_secs(3));
        // With per-segment timers the multiplier is unused.
        let mut e = RttEstimator::new(RttOptions::default());
        e.increase_multiplier();
        assert_eq!(e.rto(), Time::from_secs(1));
    }
}
