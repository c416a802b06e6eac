//! Unit tests of `consumer.rs`: timers, the ndnSIM check, and the in-flight rules.

use super::*;
use crate::app::rtt::TimerModel;
use crate::packet::Data;

/// A fixed window of 2, no segment limit, the ndnSIM timer with a 10 ms floor and 10 ms checks.
fn consumer(timer: TimerModel) -> Consumer {
    consumer_with(timer, CcConfig::FixedWindow { window: 2 })
}

fn consumer_with(timer: TimerModel, cc: CcConfig) -> Consumer {
    Consumer::new(config_with(timer, cc), 1)
}

fn config_with(timer: TimerModel, cc: CcConfig) -> ConsumerConfig {
    let rtt = RttOptions { min_rto: Time::from_millis(10), timer, ..RttOptions::default() };
    ConsumerConfig {
        name: Name::parse("/c").unwrap(),
        start: Time::ZERO,
        stop: None,
        segments: None,
        cc,
        lifetime: Time::from_secs(2),
        rtt,
        max_retries: None,
        in_flight: InFlightRule::Outstanding,
        send_jitter: Time::ZERO,
        catalog: None,
        batches: None,
    }
}

fn ms(t: u64) -> Time {
    Time::from_millis(t)
}

/// Drives `c` through its own wake-ups until `until`, returning (time, timeouts so far) at
/// every wake-up that counted a timeout.
fn run_until(c: &mut Consumer, until: Time) -> Vec<(u64, u64)> {
    let mut out = Vec::new();
    let mut seen = Vec::new();
    while let Some(t) = c.poll_timeout() {
        if t > until {
            break;
        }
        let before = c.stats.timeouts;
        c.handle_timeout(t, &mut out);
        if c.stats.timeouts > before {
            seen.push((t.as_millis(), c.stats.timeouts));
        }
    }
    seen
}

fn data(seg: u64) -> Frame {
    Frame::data(Arc::new(Data::new(Name::parse("/c").unwrap().append_segment(seg), bytes::Bytes::new())))
}

#[test]
fn ndnsim_timer_doubles_the_multiplier_per_timeout() {
    let mut c = consumer(TimerModel::NDNSIM_PCON);
    // Segments 0 and 1 leave at 0 s. No sample yet: RTO = the initial 1 s. The check at 1000 ms
    // times both out (0 + 1 s <= 1000 ms), each doubling the multiplier: 2, then 4. They are
    // resent at 1000 ms and time out when 1000 ms + 4 x 1 s has passed, at the 5000 ms check,
    // which takes the multiplier to the maximum 8.
    assert_eq!(run_until(&mut c, ms(6000)), vec![(1000, 2), (5000, 4)]);
    assert_eq!(c.rto(), Time::from_secs(8));

    // The per-Interest timers of ndn-cxx back off once for the pair (same episode): 2 s, so
    // the resends time out at 3000 ms and the RTO becomes 4 s.
    let mut c = consumer(TimerModel::PerSegment);
    assert_eq!(run_until(&mut c, ms(6000)), vec![(1000, 2), (3000, 4)]);
    assert_eq!(c.rto(), Time::from_secs(4));
}

#[test]
fn ndnsim_timer_applies_the_current_rto_to_interests_already_out() {
    let mut c = consumer(TimerModel::NDNSIM_PCON);
    let mut out = Vec::new();
    c.handle_timeout(Time::ZERO, &mut out);
    assert_eq!(out.len(), 2); // segments 0 and 1 at 0 s, RTO 1 s
                              // Data 0 at 100 ms: sample 100 ms, RTO = 100 + 4 x 50 = 300 ms; segment 2 leaves.
    c.handle(ms(100), data(0), &mut out);
    assert_eq!(c.rto(), ms(300));
    // Segment 1 (sent at 0 s under a 1 s RTO) times out at the 300 ms check: the RTO of the
    // moment counts. Multiplier 2: RTO 600 ms. Segment 2 (100 ms) is due at 700 ms: multiplier
    // 4, RTO 1200 ms; segment 1's resend (300 ms) is then due at 1500 ms.
    assert_eq!(run_until(&mut c, ms(1600)), vec![(300, 1), (700, 2), (1500, 3)]);
    // With per-Interest timers segment 2 (100 ms + 300 ms) goes first, at 400 ms, backing
    // off to 600 ms; its resend (400 ms) and segment 1 (its own 1 s deadline) both time out
    // at 1000 ms.
    let mut c = consumer(TimerModel::PerSegment);
    c.handle_timeout(Time::ZERO, &mut out);
    c.handle(ms(100), data(0), &mut out);
    assert_eq!(run_until(&mut c, ms(1000)), vec![(400, 1), (1000, 3)]);
}

/// AIMD from a window of 1 (slow start, halving on every timeout: no CWA), per-Interest
/// timers with a 10 ms floor, counting Interests in flight by `rule`.
fn aimd_consumer(rule: InFlightRule) -> Consumer {
    use crate::app::cc::{AimdConfig, SignalConfig};
    let signals = SignalConfig { cwa: false, ..SignalConfig::PCON };
    let config = ConsumerConfig {
        name: Name::parse("/c").unwrap(),
        start: Time::ZERO,
        stop: None,
        segments: None,
        cc: CcConfig::Aimd(AimdConfig { initial_window: 1.0, signals, ..AimdConfig::default() }),
        lifetime: Time::from_secs(2),
        rtt: RttOptions { min_rto: Time::from_millis(10), ..RttOptions::default() },
        max_retries: None,
        in_flight: rule,
        send_jitter: Time::ZERO,
        catalog: None,
        batches: None,
    };
    Consumer::new(config, 1)
}

fn segments(out: &[Frame]) -> Vec<u64> {
    out.iter()
        .filter_map(|f| match &f.packet {
            NetPacket::Interest(i) => i.name.last().and_then(|c| c.as_segment()),
            _ => None,
        })
        .collect()
}

#[test]
fn consumer_cc_counting_allows_one_more_and_counts_a_late_data_twice() {
    // The usual rule: a window of 1 sends one Interest.
    let mut out = Vec::new();
    aimd_consumer(InFlightRule::Outstanding).handle_timeout(Time::ZERO, &mut out);
    assert_eq!(segments(&out), vec![0]);

    let mut c = aimd_consumer(InFlightRule::ConsumerCc);
    let mut out = Vec::new();
    // 0 s: sends while the count is at most cwnd 1: segments 0 and 1 (count 2).
    c.handle_timeout(Time::ZERO, &mut out);
    assert_eq!(segments(&out), vec![0, 1]);
    // 100 ms, Data 0: count 1, cwnd 2 (slow start), RTO 100 + 4 x 50 = 300 ms. Segments 2 and
    // 3 leave (count 3), due at 400 ms; segment 1 keeps its 1 s deadline.
    out.clear();
    c.handle(ms(100), data(0), &mut out);
    assert_eq!(segments(&out), vec![2, 3]);
    // 400 ms: 2 and 3 time out: count 1, cwnd halved twice to its floor of 1. Segment 2 is
    // resent (count 2); 3 waits, 2 > cwnd 1.
    out.clear();
    c.handle_timeout(ms(400), &mut out);
    assert_eq!(segments(&out), vec![2]);
    // 450 ms: the first Data 3 comes, before its resend left: counted out a second time
    // (count 1). cwnd 1 + 1/1 = 2: segments 4 and 5 leave (count 3). In flight: 1, 2, 4, 5,
    // one more than the floor(cwnd) + 1 the rule allows otherwise.
    out.clear();
    c.handle(ms(450), data(3), &mut out);
    assert_eq!(segments(&out), vec![4, 5]);
    assert_eq!((c.window(), c.in_flight()), (Some(2.0), 4));
}

/// The fixed window of 2 of `consumer`, per-Interest timers, with a send jitter of `max`.
fn jittered(max: Time) -> Consumer {
    let mut config = consumer(TimerModel::PerSegment).config().clone();
    config.send_jitter = max;
    Consumer::new(config, 1)
}

#[test]
fn a_send_jitter_holds_each_send_opportunity_for_a_draw_below_its_bound() {
    let mut out = Vec::new();
    // Without it, the window of 2 leaves at the start and a Data's replacement leaves with it.
    let mut c = jittered(Time::ZERO);
    c.handle_timeout(Time::ZERO, &mut out);
    assert_eq!(segments(&out), vec![0, 1]);
    out.clear();
    c.handle(ms(100), data(0), &mut out);
    assert_eq!(segments(&out), vec![2]);

    // With a 1 ms bound, nothing leaves at the start: a wake-up comes in (0, 1 ms), and then
    // both Interests of the window leave together (ns-2's delayed send: `send(force = 1)`).
    let mut c = jittered(ms(1));
    out.clear();
    c.handle_timeout(Time::ZERO, &mut out);
    assert!(out.is_empty());
    let first = c.poll_timeout().unwrap();
    assert!(first > Time::ZERO && first < ms(1), "{first:?}");
    c.handle_timeout(first, &mut out);
    assert_eq!(segments(&out), vec![0, 1]);
    // The Data of 0 at 100 ms frees a slot; its replacement waits for a new draw in
    // [100 ms, 101 ms), the retransmission timers (1 s) being later.
    out.clear();
    c.handle(ms(100), data(0), &mut out);
    assert!(out.is_empty());
    let second = c.poll_timeout().unwrap();
    assert!(second >= ms(100) && second < ms(101), "{second:?}");
    c.handle_timeout(second, &mut out);
    assert_eq!(segments(&out), vec![2]);
    // The RTT is measured from when the Interest left, not from when it was held: R = 100 ms -
    // first; RFC 6298's first sample sets RTO = R + 4 x R / 2 = 3R, so segment 2 times out at
    // second + 3R (before segment 1, sent at `first` with the initial 1 s).
    assert_eq!(c.poll_timeout(), Some(second + (ms(100) - first) * 3));
}

#[test]
fn a_held_send_is_the_only_wake_up_for_a_sending_slot_already_due() {
    // Constant rate, 100 Interests/s: a sending slot every 10 ms, the first at 0. With a 1 ms
    // jitter the slot at 0 is held until a draw d in (0, 1 ms); the slot itself (0, now past)
    // must not be the next wake-up, or the driver would call back at 0 for ever.
    let mut config = consumer(TimerModel::PerSegment).config().clone();
    config.cc = CcConfig::ConstantRate { rate: 100.0, randomize: crate::app::cc::Randomize::None };
    config.send_jitter = ms(1);
    let mut c = Consumer::new(config, 1);
    let mut out = Vec::new();
    c.handle_timeout(Time::ZERO, &mut out);
    assert!(out.is_empty());
    let d = c.poll_timeout().unwrap();
    assert!(d > Time::ZERO && d < ms(1), "{d:?}");
    // At d segment 0 leaves, and the next slot is d + 10 ms.
    c.handle_timeout(d, &mut out);
    assert_eq!(segments(&out), vec![0]);
    assert_eq!(c.poll_timeout(), Some(d + ms(10)));
}

#[test]
fn a_restarting_catalog_draws_each_objects_controller_from_its_own_seed() {
    use super::catalog_objects::object_seed;
    // The first object keeps the consumer's seed; each later one gets another. SplitMix64 is a
    // bijection, so base ^ mix64(k) differ for all k, and one equals base only where mix64(k) = 0,
    // a single k of 2^64: ten thousand objects give ten thousand seeds, base among them once.
    let base = 0x1234_5678_9abc_def0;
    assert_eq!(object_seed(base, 0), base);
    let seeds: std::collections::HashSet<u64> = (0..10_000).map(|k| object_seed(base, k)).collect();
    assert_eq!(seeds.len(), 10_000);
}

#[test]
fn ndnsim_check_times_out_an_interest_sent_after_a_check_found_none_outstanding() {
    // One Interest a second (ConsumerCbr, no randomization): segment 0 at 0 s, answered at
    // 100 ms, so the RTO becomes 100 + 4 x 50 = 300 ms and nothing is outstanding at the checks
    // that follow. Segment 1 leaves at 1000 ms, is never answered, and times out at the first
    // check at or after 1000 + 300 ms: 1300 ms. (A check that skipped its scan on a stale
    // "nothing outstanding" would never time it out.)
    use crate::app::cc::Randomize;
    let mut c =
        consumer_with(TimerModel::NDNSIM_PCON, CcConfig::ConstantRate { rate: 1.0, randomize: Randomize::None });
    let mut out = Vec::new();
    c.handle_timeout(Time::ZERO, &mut out);
    assert_eq!(out.len(), 1);
    c.handle(ms(100), data(0), &mut out);
    assert_eq!(c.rto(), ms(300));
    assert_eq!(run_until(&mut c, ms(1400)), vec![(1300, 1)]);
}

#[test]
fn a_resend_waits_for_a_subflow_while_a_probe_is_due() {
    // DPCCP over three segments. Segment 0 leaves at 0 s as the first probe and comes back at
    // 5 s over path [1, 0]: a sub-flow opens at 10 Interests per 5 s RTT, one per 500 ms, due
    // at once. At 5 s the probes' grid catches up (the next of a 100 ms grid after the one due
    // at 100 ms: 5000, then 5100), so segments 1 and 2 both leave as probes.
    use crate::app::multipath::DpccpConfig;
    use crate::packet::lp::{flags, LpExtensions};
    use crate::packet::{Nack, NackReason};
    let config = config_with(TimerModel::default(), CcConfig::Dpccp(DpccpConfig::default()));
    let mut c = Consumer::new(ConsumerConfig { segments: Some(3), ..config }, 1);
    let mut out = Vec::new();
    c.handle_timeout(Time::ZERO, &mut out);
    let mut probe = data(0);
    probe.lp.flags = flags::PTP_PROBE;
    probe.lp.ext = Some(Box::new(LpExtensions { tags: [1, 0].into_iter().collect(), ..Default::default() }));
    c.handle(ms(5000), probe, &mut out);
    let sent: Vec<(u64, bool)> =
        out.iter().map(|f| (segments(std::slice::from_ref(f))[0], f.lp.flags & flags::PTP_PROBE != 0)).collect();
    assert_eq!(sent, vec![(0, true), (1, true), (2, true)]);
    let nack = |f: &Frame| {
        let NetPacket::Interest(i) = &f.packet else { unreachable!() };
        Frame::nack(Arc::new(Nack { reason: NackReason::Congestion, interest: i.clone() }))
    };
    let (one, two) = (nack(&out[1]), nack(&out[2]));
    out.clear();
    // Segment 1's probe comes back as a Nack(Congestion) at 5010 ms, which the consumer resends
    // at once (other Nacks wait for the timer): the sub-flow is due (since 5000), so the resend
    // leaves now, on the path (tagged, not a probe).
    c.handle(ms(5010), one, &mut out);
    assert_eq!(segments(&out), vec![1]);
    assert_eq!(out[0].lp.flags & flags::PTP_PROBE, 0);
    assert_eq!(out[0].lp.ext.as_ref().unwrap().tags.as_slice(), &[1, 0]);
    out.clear();
    // Segment 2's is Nacked at 5150 ms: a probe is due (since 5100), the sub-flow only at 5500
    // (its grid of 500 ms from 5000 ms, which the resend at 5010 kept). The resend does not take the probe: nothing leaves,
    // and the consumer's next wake-up is the sub-flow's turn, not the due probe's.
    c.handle(ms(5150), two, &mut out);
    assert!(out.is_empty());
    assert_eq!(c.poll_timeout(), Some(ms(5500)));
    c.handle_timeout(ms(5500), &mut out);
    assert_eq!(segments(&out), vec![2]);
    assert_eq!(out[0].lp.flags & flags::PTP_PROBE, 0);
}

#[test]
fn a_window_past_the_per_call_bound_leaves_in_bursts_at_the_same_instant() {
    // A window of 100,000 (2^16 + 34,464): the first call sends 2^16 = 65,536 Interests and asks
    // to be woken at that same instant; the wake sends the other 34,464 and asks for nothing
    // sooner than a timer (its first RTO, nothing having come back).
    let mut c = consumer_with(TimerModel::PerSegment, CcConfig::FixedWindow { window: 100_000 });
    let mut out = Vec::new();
    c.handle_timeout(Time::ZERO, &mut out);
    assert_eq!(out.len(), sending::MAX_SENDS_PER_CALL);
    assert_eq!(out.len(), 65_536);
    assert_eq!(c.poll_timeout(), Some(Time::ZERO));
    out.clear();
    c.handle_timeout(Time::ZERO, &mut out);
    assert_eq!(out.len(), 34_464);
    assert!(c.poll_timeout().is_some_and(|t| t > Time::ZERO));
}
