use super::*;

const MS: u64 = 1_000_000;

fn t(ms: u64) -> Time {
    Time::from_nanos(ms * MS)
}

fn ptp(max_paths: usize) -> Ptp {
    Ptp::new(PtpConfig { max_paths, ..PtpConfig::default() }, RttOptions::default(), 7)
}

fn probe_data(tags: &[u64]) -> LpHeader {
    let mut lp = LpHeader { flags: flags::PTP_PROBE, ..Default::default() };
    lp.ext_mut().tags = Tags::from_slice(tags);
    lp
}

fn data(p: &mut Ptp, now: Time, segment: u64, rtt_ms: u64, lp: &LpHeader) {
    let sample = DataSample {
        wire_size: 0,
        segment,
        rtt: Some(t(rtt_ms)),
        congestion_mark: 0,
        highest_sent: 0,
        in_flight: 0,
        lp,
    };
    p.on_data(now, &sample);
}

fn tags_of(send: &PathSend) -> Vec<u64> {
    send.lp.ext.as_ref().map(|e| e.tags.to_vec()).unwrap_or_default()
}

#[test]
fn probes_leave_ten_a_second_until_a_path_is_known() {
    let mut p = ptp(10);
    assert!(p.can_send(t(0)));
    let first = p.path_for(t(0), 0, false).unwrap();
    assert_eq!(first.lp.flags, flags::PTP_PROBE);
    assert!(tags_of(&first).is_empty());
    // No path known: a new path's initial RTO (RFC 6298: 1 s).
    assert_eq!(first.rto, Some(t(1000)), "a probe's timer before any path is known");
    // 10 probes per second: the next one 100 ms later, nothing in between (no path yet).
    assert!(!p.can_send(t(99)));
    assert_eq!(p.poll_timeout(), Some(t(100)));
    assert!(p.can_send(t(100)));
    assert_eq!(p.window(), 0.0);
}

#[test]
fn a_probe_brings_back_a_path_and_interests_then_carry_its_tags() {
    let mut p = ptp(10);
    p.path_for(t(0), 0, false);
    data(&mut p, t(80), 0, 80, &probe_data(&[5, 2]));
    // The path starts in slow start with the initial window; Interests carry its stack.
    assert_eq!(p.window(), PtpConfig::default().mpccp.initial_window);
    assert!(p.can_send(t(80)));
    let send = p.path_for(t(80), 1, false).unwrap();
    assert_eq!(tags_of(&send), vec![5, 2]);
    assert_eq!(send.lp.flags, 0);
    assert_eq!(send.rto, Some(t(1000)), "the path's own timer (see path_timers_have_tcps_one_second_floor)");
    // The same stack from another probe is the same path.
    p.path_for(t(100), 2, false);
    data(&mut p, t(180), 2, 80, &probe_data(&[5, 2]));
    assert_eq!(p.found_paths().count(), 1);
}

#[test]
fn a_probe_waits_as_long_as_the_slowest_known_path() {
    // Two paths, of 80 ms and 3 s: a probe may come back over either, so its timer is the larger
    // RTO. The 3 s path's first sample gives srtt 3 s, rttvar 1.5 s: RTO = 3 + 4 x 1.5 = 9 s
    // (RFC 6298 §2.2); the 80 ms path's is held at the 1 s floor.
    let mut p = ptp(10);
    p.path_for(t(0), 0, false);
    data(&mut p, t(80), 0, 80, &probe_data(&[5, 2]));
    p.path_for(t(100), 1, false);
    data(&mut p, t(3100), 1, 3000, &probe_data(&[6, 2]));
    let probe = p.path_for(t(3200), 2, false).unwrap();
    assert_eq!(probe.lp.flags, flags::PTP_PROBE);
    assert_eq!(probe.rto, Some(t(9000)));
}

#[test]
fn a_path_timer_restarts_on_each_data_of_an_older_interest() {
    // RFC 6298 §5.3: the timer restarts when new data is acknowledged. Segments 1, 2, 3 leave on
    // the path at 81, 85, 90 ms (the next probe is due at 100 ms). Segment 1's Data at 1031 ms
    // (its Interest left before 2 and 3) restarts their timers. Its 950 ms sample after the
    // probe's 80 ms (srtt 80, rttvar 40) gives rttvar 3/4 x 40 + 1/4 x 870 = 247.5 and srtt
    // 7/8 x 80 + 1/8 x 950 = 188.75 ms, so RTO = 188.75 + 4 x 247.5 = 1178.75 ms and the
    // deadlines move to 2209.75 ms. Segment 3's Data at 1100 ms overtakes 2, whose deadline then
    // stays where it was.
    let mpccp = MpccpConfig { initial_window: 3.0, ..MpccpConfig::default() };
    let mut p = Ptp::new(PtpConfig { mpccp, ..PtpConfig::default() }, RttOptions::default(), 7);
    p.path_for(t(0), 0, false);
    data(&mut p, t(80), 0, 80, &probe_data(&[5, 2]));
    for (seg, at) in [(1, 81), (2, 85), (3, 90)] {
        assert_eq!(tags_of(&p.path_for(t(at), seg, false).unwrap()), vec![5, 2]);
    }
    assert_eq!(p.restarted_deadline(2, t(85)), None, "nothing came back since it left");
    data(&mut p, t(1031), 1, 950, &LpHeader::default());
    let restarted = Time::from_nanos(2_209_750_000);
    assert_eq!(p.restarted_deadline(2, t(85)), Some(restarted));
    assert_eq!(p.restarted_deadline(3, t(90)), Some(restarted));
    data(&mut p, t(1100), 3, 1010, &LpHeader::default());
    assert_eq!(p.restarted_deadline(2, t(85)), None, "overtaken: a hole, as TCP's cumulative ACK");
    assert_eq!(p.restarted_deadline(0, t(0)), None, "a probe's timer never restarts");
}

#[test]
fn at_most_max_paths_are_in_use_and_the_weakest_gives_way_every_period() {
    let mut p = ptp(2);
    for (seg, tags) in [(0, [1u64, 9]), (1, [2, 9]), (2, [3, 9])] {
        p.path_for(t(100 * seg), seg, false);
        data(&mut p, t(100 * seg + 50), seg, 50, &probe_data(&tags));
    }
    let in_use: Vec<bool> = p.found_paths().map(|(_, u, _)| u).collect();
    assert_eq!(in_use, vec![true, true, false]);
    // Path [1, 9] delivers two Data in the period, path [2, 9] none: at T it gives its slot to
    // the only unused path, [3, 9].
    for (seg, at) in [(10, 250), (11, 260)] {
        let send = p.path_for(t(at), seg, false).unwrap();
        assert_eq!(tags_of(&send), vec![1, 9], "the emptiest path first, ties to the first found");
        data(&mut p, t(at + 5), seg, 5, &LpHeader::default());
    }
    assert_eq!(p.poll_timeout(), Some(t(300)), "the next probe");
    p.handle_timeout(t(10_000));
    let in_use: Vec<(Vec<u64>, bool)> = p.found_paths().map(|(tags, u, _)| (tags.to_vec(), u)).collect();
    assert_eq!(in_use, vec![(vec![1, 9], true), (vec![2, 9], false), (vec![3, 9], true)]);
}

/// A consumer with two slots under `selection` that found, in this order, probes' paths
/// [1, 7, 9] (three hops, 300 ms), [2, 9] (two hops, 60 ms), [3, 7, 9] (three hops, 40 and 240
/// ms: mean 140) and [4, 9] (two hops, 100 ms), each by probes 100 ms apart.
fn four_paths_under(selection: PathSelection) -> Ptp {
    let config = PtpConfig { max_paths: 2, selection, ..PtpConfig::default() };
    let mut p = Ptp::new(config, RttOptions::default(), 7);
    let probes: [(&[u64], u64); 5] =
        [(&[1, 7, 9], 300), (&[2, 9], 60), (&[3, 7, 9], 40), (&[3, 7, 9], 240), (&[4, 9], 100)];
    for (seg, (tags, rtt)) in probes.iter().enumerate() {
        let seg = seg as u64;
        p.path_for(t(100 * seg), seg, false);
        data(&mut p, t(100 * seg + rtt), seg, *rtt, &probe_data(tags));
    }
    p
}

fn in_use_after_a_period(p: &mut Ptp) -> Vec<Vec<u64>> {
    p.handle_timeout(t(10_000));
    p.found_paths().filter(|(_, u, _)| *u).map(|(tags, _, _)| tags.to_vec()).collect()
}

#[test]
fn ranked_rules_put_the_n_best_paths_in_use_at_the_period() {
    // Before T the first two found are in use, whatever the rule: [1, 7, 9] and [2, 9].
    let mut hop = four_paths_under(PathSelection::Hop);
    let first: Vec<bool> = hop.found_paths().map(|(_, u, _)| u).collect();
    assert_eq!(first, vec![true, true, false, false]);
    // Fewest hops: the two-hop paths [2, 9] and [4, 9] (the tag stack has one entry per node).
    assert_eq!(in_use_after_a_period(&mut hop), vec![vec![2, 9], vec![4, 9]]);
    // Lowest mean probe RTT: [2, 9] 60 ms, [4, 9] 100 ms; [3, 7, 9] 140, [1, 7, 9] 300.
    let mut latency = four_paths_under(PathSelection::Latency);
    assert_eq!(in_use_after_a_period(&mut latency), vec![vec![2, 9], vec![4, 9]]);
    // Variance: only [3, 7, 9] has two samples (0.02 s^2); the others rank after it, ties to
    // the in-use [1, 7, 9] before the unused [2, 9].
    let mut variance = four_paths_under(PathSelection::LatencyVariance);
    assert_eq!(in_use_after_a_period(&mut variance), vec![vec![1, 7, 9], vec![3, 7, 9]]);
}

#[test]
fn the_random_rule_swaps_one_path_each_period() {
    // The random rule retires one of the two in use, whichever delivered more, and brings in
    // one unused path: exactly one of the two in use changes.
    let mut p = four_paths_under(PathSelection::Random);
    let after = in_use_after_a_period(&mut p);
    assert_eq!(after.len(), 2);
    let kept = after.iter().filter(|t| [vec![1, 7, 9], vec![2, 9]].contains(t)).count();
    assert_eq!(kept, 1, "{after:?}");
}

#[test]
fn the_probed_bandwidth_rule_draws_the_newcomer_as_probes_found_it() {
    // One slot. Probes find [1, 9] (put in use), then [2, 9] three times and [3, 9] once. At T
    // the in-use path gives way, and `"bandwidth-probed"` draws [2, 9] with probability 3 / 4:
    // over 400 seeds 300 times, give or take sqrt(400 x 3/4 x 1/4) = 8.7 (the plain rule's
    // uniform draw would give 200).
    let probes: [&[u64]; 5] = [&[1, 9], &[2, 9], &[2, 9], &[2, 9], &[3, 9]];
    let mut drawn_often = 0;
    for seed in 0..400 {
        let config = PtpConfig { max_paths: 1, selection: PathSelection::BandwidthProbed, ..PtpConfig::default() };
        let mut p = Ptp::new(config, RttOptions::default(), seed);
        for (seg, tags) in probes.iter().enumerate() {
            let seg = seg as u64;
            p.path_for(t(100 * seg), seg, false);
            data(&mut p, t(100 * seg + 50), seg, 50, &probe_data(tags));
        }
        let after = in_use_after_a_period(&mut p);
        assert!(after == vec![vec![2, 9]] || after == vec![vec![3, 9]], "{after:?}");
        drawn_often += usize::from(after == vec![vec![2, 9]]);
    }
    assert!((265..=335).contains(&drawn_often), "{drawn_often} of 400");
}

/// One path [4] found by a probe, then segments 1 (answered: window 2) and 2, 3 in flight on it.
fn two_in_flight_on_one_path() -> Ptp {
    let mut p = ptp(10);
    p.path_for(t(0), 0, false);
    data(&mut p, t(50), 0, 50, &probe_data(&[4]));
    // Slow start from 1: a producer Data adds one, so after seg 1 the window is 2.
    p.path_for(t(50), 1, false);
    data(&mut p, t(60), 1, 10, &LpHeader::default());
    p.path_for(t(60), 2, false);
    p.path_for(t(60), 3, false);
    p
}

#[test]
fn a_reordered_producer_data_declares_the_earlier_interests_of_its_path_lost() {
    let mut p = two_in_flight_on_one_path();
    let mut lost = Vec::new();
    data(&mut p, t(90), 3, 30, &LpHeader::default());
    p.take_lost(&mut lost);
    assert_eq!(lost, vec![2]);
    // The resend of 2 goes back to the path that lost it (before the next probe, due at 100 ms).
    let send = p.path_for(t(90), 2, true).unwrap();
    assert_eq!(tags_of(&send), vec![4]);
}

#[test]
fn a_data_from_a_cache_does_not_declare_losses() {
    let mut p = two_in_flight_on_one_path();
    let cached = LpHeader { flags: flags::FROM_CACHE, ..Default::default() };
    data(&mut p, t(70), 3, 10, &cached);
    let mut lost = Vec::new();
    p.take_lost(&mut lost);
    assert!(lost.is_empty());
}

#[test]
fn the_data_of_a_resent_segment_declares_nothing() {
    let mut p = two_in_flight_on_one_path();
    let mut lost = Vec::new();
    data(&mut p, t(90), 3, 30, &LpHeader::default());
    p.take_lost(&mut lost);
    // The window is 2 x 0.75 = 1.5 after the loss: one slot, for segment 4. Its Data adds LIA's
    // 1/cwnd on a single path (2.17: two slots), for segment 5 and the resend of 2.
    assert_eq!(tags_of(&p.path_for(t(91), 4, false).unwrap()), vec![4]);
    assert!(!p.can_send(t(91)), "the path is full and no probe is due");
    assert!(p.path_for(t(91), 9, false).is_none(), "no room, no probe: nothing to steer");
    data(&mut p, t(92), 4, 1, &LpHeader::default());
    assert_eq!(tags_of(&p.path_for(t(93), 5, false).unwrap()), vec![4]);
    assert_eq!(tags_of(&p.path_for(t(93), 2, true).unwrap()), vec![4]);
    // The first copy of 2 answers now (no RTT sample: the consumer cannot tell which copy). Read
    // as the resend, it would overtake 5 and declare it lost; it declares nothing.
    let ambiguous = DataSample {
        wire_size: 0,
        segment: 2,
        rtt: None,
        congestion_mark: 0,
        highest_sent: 5,
        in_flight: 1,
        lp: &LpHeader::default(),
    };
    p.on_data(t(95), &ambiguous);
    p.take_lost(&mut lost);
    assert_eq!(lost, vec![2], "only the first loss");
}

#[test]
fn a_no_route_nack_retires_the_path_and_an_unused_one_takes_its_slot() {
    let mut p = ptp(1);
    for (seg, tags) in [(0, [1u64]), (1, [2])] {
        p.path_for(t(100 * seg), seg, false);
        data(&mut p, t(100 * seg + 50), seg, 50, &probe_data(&tags));
    }
    let send = p.path_for(t(160), 5, false).unwrap();
    assert_eq!(tags_of(&send), vec![1]);
    p.on_nack(t(170), 5, NackReason::NoRoute, false);
    let in_use: Vec<bool> = p.found_paths().map(|(_, u, _)| u).collect();
    assert_eq!(in_use, vec![false, true]);
    let send = p.path_for(t(170), 5, true).unwrap();
    assert_eq!(tags_of(&send), vec![2]);
}

#[test]
fn windows_are_per_path_and_their_sum_is_reported() {
    let mut p = ptp(10);
    for (seg, tags) in [(0, [1u64]), (1, [2])] {
        p.path_for(t(100 * seg), seg, false);
        data(&mut p, t(100 * seg + 50), seg, 50, &probe_data(&tags));
    }
    let w0 = PtpConfig::default().mpccp.initial_window;
    assert_eq!(p.window(), 2.0 * w0);
    // One Interest per path fills both initial windows of 1; the next probe is due at 200 ms.
    assert_eq!(tags_of(&p.path_for(t(150), 10, false).unwrap()), vec![1]);
    assert_eq!(tags_of(&p.path_for(t(150), 11, false).unwrap()), vec![2]);
    assert!(!p.can_send(t(150)));
    assert!(p.can_send(t(200)));
}

#[test]
fn a_failed_path_comes_back_when_a_probe_finds_it_again() {
    // Issue: a path Nacked NoRoute stayed failed for good, even after its link was repaired.
    let mut p = ptp(10);
    p.path_for(t(0), 0, false);
    data(&mut p, t(50), 0, 50, &probe_data(&[1]));
    p.path_for(t(60), 1, false);
    p.on_nack(t(70), 1, NackReason::NoRoute, false);
    assert_eq!(p.found_paths().map(|(_, u, _)| u).collect::<Vec<_>>(), vec![false]);
    // A later probe brings the same stack back: the path is usable again, and a slot is free.
    p.path_for(t(100), 2, false);
    data(&mut p, t(150), 2, 50, &probe_data(&[1]));
    assert_eq!(p.found_paths().map(|(_, u, _)| u).collect::<Vec<_>>(), vec![true]);
}

#[test]
fn a_failed_path_that_waited_a_period_returns_to_the_idle_set() {
    // Two slots for three paths; [1] fails at 270 ms and [3] takes its slot. At the reselection
    // of 10 s (T after the first send, at 0), [1] has waited less than T: still failed. At 20 s
    // it has waited more than T: idle again, a candidate for reselections.
    let mut p = ptp(2);
    for (seg, tag) in [(0u64, 1u64), (1, 2), (2, 3)] {
        p.path_for(t(100 * seg), seg, false);
        data(&mut p, t(100 * seg + 50), seg, 50, &probe_data(&[tag]));
    }
    let send = p.path_for(t(260), 10, false).unwrap();
    assert_eq!(tags_of(&send), vec![1]);
    p.on_nack(t(270), 10, NackReason::NoRoute, false);
    assert_eq!(p.failed_paths(), 1);
    p.handle_timeout(t(10_000));
    assert_eq!(p.failed_paths(), 1, "failed for 9.73 s < T");
    p.handle_timeout(t(20_000));
    assert_eq!(p.failed_paths(), 0, "failed for 19.73 s >= T");
}

#[test]
fn path_timers_have_tcps_one_second_floor() {
    // §5-C-2: RTO timers "as in TCP": RFC 6298 §2.4 rounds an RTO below 1 s up to 1 s. One 80 ms
    // sample gives 80 + 4 x 40 = 240 ms, raised to the floor.
    let rto_after_one_sample = |min_rto: Time| {
        let mut p = Ptp::new(PtpConfig { min_rto, ..PtpConfig::default() }, RttOptions::default(), 7);
        p.path_for(t(0), 0, false);
        data(&mut p, t(80), 0, 80, &probe_data(&[5, 2]));
        p.path_for(t(80), 1, false).unwrap().rto
    };
    assert_eq!(rto_after_one_sample(PtpConfig::default().min_rto), Some(t(1000)));
    // With ndn-cxx's 200 ms floor the estimate itself shows.
    assert_eq!(rto_after_one_sample(t(200)), Some(t(240)));
}

#[test]
fn a_path_without_an_rtt_sample_takes_the_largest_known_one() {
    // A path learnt from the probe of a resent segment (no RTT sample, Karn's rule) would have
    // RTT 0, and LIA would fall back to uncoupled for every path. It takes the largest smoothed
    // RTT of the others instead: with [2] at 100 ms and [1] assumed 100 ms, both windows 1,
    // alpha = 2 * (1 / 0.01) / (10 + 10)^2 = 0.5 and the increase min(0.5 / 2, 1) = 0.25.
    // A resend rides a probe only while no path is in use: the first probe is lost, and its
    // resend goes as the next probe and comes back over [1].
    let mut p = ptp(10);
    p.path_for(t(0), 0, false);
    p.on_timeout(t(1000), 0);
    assert_eq!(p.path_for(t(1000), 0, true).unwrap().lp.flags, flags::PTP_PROBE);
    let resent = DataSample {
        wire_size: 0,
        segment: 0,
        rtt: None,
        congestion_mark: 0,
        highest_sent: 0,
        in_flight: 0,
        lp: &probe_data(&[1]),
    };
    p.on_data(t(1080), &resent);
    assert_eq!(p.found_paths().count(), 1);
    // A new segment's probe finds [2] after 100 ms.
    assert_eq!(p.path_for(t(1100), 1, false).unwrap().lp.flags, flags::PTP_PROBE);
    data(&mut p, t(1200), 1, 100, &probe_data(&[2]));
    assert_eq!(p.coupled_views().iter().map(|v| v.rtt).collect::<Vec<_>>(), vec![0.1, 0.1]);
}

#[test]
fn a_resend_goes_on_an_in_use_path_not_as_a_probe() {
    // §5-C-1: lost packets are resent on an in-use path. No path yet: a resend has no other way
    // out than the due probe.
    let mut p = ptp(10);
    assert!(p.can_resend(t(0)));
    assert_eq!(p.path_for(t(0), 0, true).unwrap().lp.flags, flags::PTP_PROBE);
    // Path [5, 2] found at 80 ms, with MPCCP's initial window of 1; at 100 ms a probe is due,
    // and a resend goes on the path all the same, while a new segment takes the probe.
    data(&mut p, t(80), 0, 80, &probe_data(&[5, 2]));
    assert!(p.probe_due(t(100)));
    assert!(p.can_resend(t(100)));
    let resend = p.path_for(t(100), 7, true).unwrap();
    assert_eq!((resend.lp.flags, tags_of(&resend)), (0, vec![5, 2]));
    let new = p.path_for(t(100), 8, false).unwrap();
    assert_eq!(new.lp.flags, flags::PTP_PROBE);
    // The window is full (segment 7 on it): a resend waits for room, though the probe at 200 ms
    // is due; the consumer wakes for the reselection, T = 10 s after the first send at 0 (§6-A),
    // not for that probe (room comes with Data).
    assert!(!p.paths.has_room());
    assert!(p.can_send(t(200)));
    assert!(!p.can_resend(t(200)));
    assert_eq!(p.poll_timeout(), Some(t(200)));
    assert_eq!(p.poll_resend(), Some(t(10_000)));
}

#[test]
fn a_probe_takes_no_paths_backed_off_timer() {
    // The path of 80 ms runs on the 1 s floor; its Interest times out and the path's timer backs
    // off to 2 s (RFC 6298 §5.5), which its own resend takes. A probe is not on that path: its
    // timer is the largest RTO of the estimates, 1 s. With the backed-off one, each failed path
    // would hold every lost probe up to the 60 s ceiling.
    let mut p = ptp(10);
    p.path_for(t(0), 0, false);
    data(&mut p, t(80), 0, 80, &probe_data(&[5, 2]));
    let on_path = p.path_for(t(80), 1, false).unwrap();
    assert_eq!((tags_of(&on_path), on_path.rto), (vec![5, 2], Some(t(1000))));
    p.on_timeout(t(1080), 1);
    let resend = p.path_for(t(1080), 1, true).unwrap();
    assert_eq!((tags_of(&resend), resend.rto), (vec![5, 2], Some(t(2000))), "the path's timer, backed off");
    let probe = p.path_for(t(1100), 2, false).unwrap();
    assert_eq!(probe.lp.flags, flags::PTP_PROBE);
    assert_eq!(probe.rto, Some(t(1000)));
}

/// One slot under the hybrid rule with a requirement of 8 kbit/s a path, and probes that found
/// [1, 9] (in use from 50 ms) and [2, 9]; the probe due at 200 ms has left (unanswered), so
/// Interests go on the path until the next one, at 300 ms.
fn hybrid_with_two_paths() -> Ptp {
    let config =
        PtpConfig { max_paths: 1, selection: PathSelection::Hybrid { min_path_rate: 8_000 }, ..PtpConfig::default() };
    let mut p = Ptp::new(config, RttOptions::default(), 7);
    for (seg, tags) in [(0, [1, 9]), (1, [2, 9])] {
        p.path_for(t(100 * seg), seg, false);
        data(&mut p, t(100 * seg + 50), seg, 50, &probe_data(&tags));
    }
    assert_eq!(p.path_for(t(200), 2, false).unwrap().lp.flags, flags::PTP_PROBE);
    p
}

/// The Data of segment `seg` (1,000 bytes on the wire, RTT 5 ms) arrives at `at` ms.
fn answer(p: &mut Ptp, at: u64, seg: u64) {
    let lp = LpHeader::default();
    let sample = DataSample {
        wire_size: 1000,
        segment: seg,
        rtt: Some(t(5)),
        congestion_mark: 0,
        highest_sent: 0,
        in_flight: 0,
        lp: &lp,
    };
    p.on_data(t(at), &sample);
}

/// Segment `seg` leaves at `at` ms on the path `tags` and its Data comes back 5 ms later.
fn exchange_on(p: &mut Ptp, at: u64, seg: u64, tags: &[u64]) {
    assert_eq!(tags_of(&p.path_for(t(at), seg, false).unwrap()), tags);
    answer(p, at + 5, seg);
}

fn bandwidth_of(p: &Ptp, tags: &[u64]) -> Option<f64> {
    p.paths().iter().find(|r| r.tags == tags).and_then(|r| r.bandwidth)
}

/// `hybrid_with_two_paths` after `n` Data on [1, 9] before the period ends at 10 s: the in-use
/// path and [1, 9]'s measured bandwidth.
fn hybrid_after(n: u64) -> (Vec<Vec<u64>>, Option<f64>) {
    let mut p = hybrid_with_two_paths();
    for seg in 3..3 + n {
        exchange_on(&mut p, 200 + 5 * seg, seg, &[1, 9]);
    }
    let after = in_use_after_a_period(&mut p);
    (after, bandwidth_of(&p, &[1, 9]))
}

#[test]
fn the_hybrid_rule_measures_each_path_and_replaces_one_short_of_the_requirement() {
    // Ten Data: 80,000 bits over the 9.95 s [1, 9] was in use, 8,040 bit/s: it meets 8 kbit/s
    // and keeps its slot ahead of the unmeasured [2, 9].
    let (kept, bw) = hybrid_after(10);
    assert_eq!(kept, vec![vec![1, 9]]);
    assert!((bw.unwrap() - 80_000.0 / 9.95).abs() < 1e-6, "{bw:?}");
    // Nine: 72,000 bits, 7,236 bit/s, short of it: the unmeasured path may do better.
    let (swapped, bw) = hybrid_after(9);
    assert_eq!(swapped, vec![vec![2, 9]]);
    assert!((bw.unwrap() - 72_000.0 / 9.95).abs() < 1e-6, "{bw:?}");
}

#[test]
fn a_path_in_use_for_less_than_half_a_period_is_not_measured() {
    // [1, 9] breaks at 6 s (Nack NoRoute) and [2, 9] takes its slot, so at the end of the period
    // (10 s) [2, 9] has been in use 4 s, less than half of T = 10 s: no measure yet (a span that
    // short is mostly slow start). Over the next period it delivers nothing: 0 bit/s.
    let mut p = hybrid_with_two_paths();
    exchange_on(&mut p, 210, 3, &[1, 9]);
    assert_eq!(tags_of(&p.path_for(t(220), 4, false).unwrap()), vec![1, 9]);
    p.on_nack(t(6000), 4, NackReason::NoRoute, false);
    // Probes due after the pause leave first (unanswered); then ten exchanges on [2, 9]: 80,000
    // bits in 4 s, 20,000 bit/s, which a measure over the short span would have taken.
    let mut seg = 5;
    let first = loop {
        let send = p.path_for(t(6000), seg, false).unwrap();
        if send.lp.flags != flags::PTP_PROBE {
            break send;
        }
        seg += 1;
    };
    assert_eq!(tags_of(&first), vec![2, 9]);
    answer(&mut p, 6005, seg);
    for k in 1..10 {
        exchange_on(&mut p, 6000 + 5 * k, seg + k, &[2, 9]);
    }
    p.handle_timeout(t(10_000));
    assert_eq!(bandwidth_of(&p, &[2, 9]), None);
    assert_eq!(bandwidth_of(&p, &[1, 9]), None, "failed before the period ended: not measured either");
    p.handle_timeout(t(20_000));
    assert_eq!(bandwidth_of(&p, &[2, 9]), Some(0.0));
}
