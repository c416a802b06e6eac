//! Retransmission timeout estimation (RFC 6298 §2, in ndn-cxx `util::RttEstimator`'s form: the RTO
//! is srtt + k x rttvar, clamped to [min, max], doubled on each timeout).

use crate::Time;

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RttOptions {
    pub initial_rto: Time,
    pub min_rto: Time,
    pub max_rto: Time,
    pub alpha: f64,
    pub beta: f64,
    pub k: f64,
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
}

impl RttEstimator {
    pub fn new(opts: RttOptions) -> RttEstimator {
        RttEstimator { opts, srtt: None, rttvar: 0.0, rto: opts.initial_rto }
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
        let srtt = self.srtt.unwrap_or(r);
        self.rto = Time::from_secs_f64(srtt + self.opts.k * self.rttvar).clamp(self.opts.min_rto, self.opts.max_rto);
    }

    /// RFC 6298 (5.5): double the RTO after a timeout.
    pub fn backoff(&mut self) {
        self.rto = (self.rto * 2).min(self.opts.max_rto);
    }

    pub fn rto(&self) -> Time {
        self.rto
    }

    pub fn srtt(&self) -> Option<Time> {
        self.srtt.map(Time::from_secs_f64)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
}
