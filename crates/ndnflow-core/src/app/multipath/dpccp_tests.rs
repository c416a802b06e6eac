//! DPCCP's manager: paths from probes, paced sub-flows, Eq. 16, drain flags and broken paths,
//! against values worked by hand.

use super::*;
use crate::app::multipath::dpccp_rate::ZmiStage;
use crate::packet::lp::LpExtensions;
use crate::packet::LpHeader;

fn ms(x: u64) -> Time {
    Time::from_millis(x)
}

fn data(segment: u64, rtt: Option<Time>, lp: &LpHeader) -> DataSample<'_> {
    DataSample { wire_size: 0, segment, rtt, congestion_mark: 0, highest_sent: segment, in_flight: 0, lp }
}

/// A manager that has found path [1, 1, 1, 0] with a 170 ms probe at time 0.
fn with_path() -> Dpccp {
    let mut d = Dpccp::new(DpccpConfig::default(), RttOptions::default());
    let probe = d.path_for(Time::ZERO, 0, false).unwrap();
    assert_eq!(probe.lp.flags, flags::PTP_PROBE);
    d.on_data(ms(170), &data(0, Some(ms(170)), &probe_answer()));
    d
}

#[test]
fn a_probe_opens_a_paced_subflow_that_probes_rtts() {
    let mut d = with_path();
    // 10 Interests per 170 ms RTT: 58.82 /s, in RTT-probing.
    let rates: Vec<_> = d.rates().collect();
    assert_eq!(rates.len(), 1);
    assert_eq!(rates[0].0, RateState::RttProbing);
    assert!((rates[0].1 - 10.0 / 0.17).abs() < 1e-9);
    // The next probe is due 100 ms after the first (10 /s): at 170 ms it goes first.
    assert_eq!(d.path_for(ms(170), 1, false).unwrap().lp.flags, flags::PTP_PROBE);
    // Then the sub-flow's Interest: tagged and RTT-probing-flagged; the next one 17 ms later.
    let send = d.path_for(ms(170), 2, false).unwrap();
    assert_eq!(send.lp.flags, flags::RTT_PROBING);
    assert_eq!(send.lp.ext.as_ref().unwrap().tags.as_slice(), &[1, 1, 1, 0]);
    // Its timer: RFC 6298 from the probe's 170 ms (170 + 4 x 85 = 510 ms), floored at 1 s.
    assert_eq!(send.rto, Some(Time::from_secs(1)));
    assert!(!d.can_send(ms(170)));
    let next = d.poll_timeout().unwrap();
    assert_eq!(next, ms(170) + Time::from_secs_f64(0.017));
    assert!(d.can_send(next));
}

#[test]
fn setpoints_follow_the_receiving_rates() {
    // Eq. 16 with the flow's 20 packets: 300 and 100 /s of 400 take 15 and 5.
    assert_eq!(subflow_setpoint(20.0, 300.0, 400.0, 2), 15.0);
    assert_eq!(subflow_setpoint(20.0, 100.0, 400.0, 2), 5.0);
    // Nothing received yet: equal shares.
    assert_eq!(subflow_setpoint(20.0, 0.0, 0.0, 4), 5.0);
}

/// A probe's Data that brought back path [1, 1, 1, 0].
fn probe_answer() -> LpHeader {
    let mut lp = LpHeader { flags: flags::PTP_PROBE, ..Default::default() };
    lp.ext = Some(Box::new(LpExtensions { tags: [1, 1, 1, 0].into_iter().collect(), ..Default::default() }));
    lp
}

/// `with_path`'s sub-flow, out of RTT-probing and drained by a flagged Data at 771 ms; the next
/// segment number.
fn drained() -> (Dpccp, u64) {
    let mut d = with_path();
    // Two cycles end (at 340 and 510 ms) with Data at a steady 170 ms: RP is over.
    let mut seg = 10;
    for end in [340, 510] {
        for _ in 0..3 {
            let s = d.path_for(ms(end - 20), seg, false).map(|_| seg);
            if let Some(s) = s {
                d.on_data(ms(end - 10), &data(s, Some(ms(170)), &LpHeader::default()));
            }
            seg += 1;
        }
        d.handle_timeout(ms(end));
    }
    assert!(matches!(d.rates().next().unwrap().0, RateState::Filling(_)));
    // An unflagged Data (after its own probing, a sub-flow waits for one), then a Data with the
    // drain flag, each for an Interest that went on the path, not as a probe: the sub-flow
    // drains at 2 /s.
    let on_path = |d: &mut Dpccp, mut s: u64| loop {
        let at = d.poll_timeout().unwrap().max(ms(600));
        if d.path_for(at, s, false).unwrap().lp.flags & flags::PTP_PROBE == 0 {
            return s;
        }
        s += 1;
    };
    let s = on_path(&mut d, seg);
    d.on_data(ms(770), &data(s, Some(ms(170)), &LpHeader::default()));
    assert!(matches!(d.rates().next().unwrap().0, RateState::Filling(_)));
    let s = on_path(&mut d, s + 1);
    let flagged = LpHeader { flags: flags::RTT_PROBING, ..Default::default() };
    d.on_data(ms(771), &data(s, Some(ms(170)), &flagged));
    (d, s + 1)
}

#[test]
fn a_flagged_data_drains_a_subflow_out_of_rtt_probing() {
    let (d, _) = drained();
    assert_eq!(d.rates().next().unwrap(), (RateState::Draining, 2.0));
    assert_eq!(d.paths()[0].decreases, 1);
}

/// Sends what is due from `from` until the sub-flow leaves QD or `until` comes, as a consumer
/// with resends queued and new segments left does (resends on the sub-flow, new segments on the
/// probes: `can_resend`), answering at once: a probe over the path after `probe_rtt`, a resend
/// without an RTT sample (Karn). When it left QD, with its state and rate then.
fn resend_while_draining(
    d: &mut Dpccp,
    seg: &mut u64,
    from: Time,
    until: Time,
    probe_rtt: Time,
) -> Option<(Time, RateState, f64)> {
    let mut at = from;
    loop {
        at = d.poll_timeout().unwrap().max(at);
        if at >= until {
            return None;
        }
        d.handle_timeout(at);
        let (state, rate) = d.rates().next().unwrap();
        if state != RateState::Draining {
            return Some((at, state, rate));
        }
        let resend = d.can_resend(at);
        if !resend && !d.can_send(at) {
            continue;
        }
        let send = d.path_for(at, *seg, resend).unwrap();
        let (rtt, lp) = if send.lp.flags & flags::PTP_PROBE != 0 {
            assert!(!resend, "a resend rode a probe");
            (Some(probe_rtt), probe_answer())
        } else {
            (None, LpHeader::default())
        };
        d.on_data(at, &data(*seg, rtt, &lp));
        *seg += 1;
    }
}

#[test]
fn a_drain_reads_the_paths_rtt_from_probes_while_its_own_data_are_resent() {
    // SP-2 at 150 s: the cache stops, hundreds of Interests time out, and the drained sub-flow
    // resends them at 2 /s, so none of its own Data brings an RTT sample. The probes over its
    // path (10 /s, each with a new segment) do. The cycles keep the last one's 170 ms and the probes come every 100 ms,
    // so each cycle sees one or two at 170 ms: the first cycle's sets the mark, the next one's
    // is no lower, and stage II starts (BF's stage II at zeta u*, above the drain's 2 /s) within
    // three cycles of the drain, by 771 + 3 x 170 = 1281 ms. Without the probes' RTT it stays
    // at 2 /s however long it resends (here for 10 s).
    let (mut d, mut seg) = drained();
    let left = resend_while_draining(&mut d, &mut seg, ms(771), ms(10_771), ms(170));
    let (at, state, rate) = left.expect("the drain never ended");
    assert!(at <= ms(1281), "{at:?}");
    assert_eq!(state, RateState::Filling(ZmiStage::Hold));
    assert!(rate > 2.0, "{rate}");
}

#[test]
fn a_probe_of_a_closed_path_measures_nothing() {
    // The same, with the path Nacked NoRoute first: its probes' Data answer nothing and open no
    // new sub-flow (the path is known).
    let (mut d, mut seg) = drained();
    // The drain's Interests go every 500 ms; the probes every 100 ms, first when both are due.
    let mut at = ms(771);
    let mut probe = None;
    let on_path = loop {
        at = d.poll_timeout().unwrap().max(at);
        let send = d.path_for(at, seg, false).unwrap();
        if send.lp.flags & flags::PTP_PROBE == 0 {
            break seg;
        }
        probe = Some(seg);
        seg += 1;
    };
    let probe = probe.expect("a probe went before the drain's Interest");
    d.on_nack(at, on_path, NackReason::NoRoute, false);
    assert_eq!(d.rates().count(), 0);
    assert_eq!(d.paths()[0].state, "failed");
    d.on_data(at, &data(probe, Some(ms(170)), &probe_answer()));
    assert_eq!(d.rates().count(), 0);
    assert_eq!(d.paths().len(), 1);
}

#[test]
fn a_path_nacked_no_route_closes_its_subflow() {
    let mut d = with_path();
    d.path_for(ms(170), 1, false); // the probe
    d.path_for(ms(170), 2, false);
    d.on_nack(ms(200), 2, NackReason::NoRoute, false);
    assert_eq!(d.rates().count(), 0);
    assert_eq!(d.paths()[0].state, "failed");
    // Only probes leave now, on their 100 ms grid from the late one at 170 ms: next at 200 ms.
    assert!(!d.can_send(ms(199)));
    assert!(d.can_send(ms(200)));
}
