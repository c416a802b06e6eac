//! MIRCC's consumer: paths from probes, rates from the Data's link rates, the primary and its
//! second-class companions, against values worked by hand. Data are 1,090 bytes on the link, so
//! 8.72 Mbit/s is 8,720,000 / (8 x 1,090) = 1,000 Interests per second.

use super::*;
use crate::packet::lp::LpExtensions;

const SIZE: u32 = 1090;

fn ms(x: u64) -> Time {
    Time::from_millis(x)
}

/// A Data's link header: `tags` (a probe's answer when non-empty) and the two link rates.
fn lp(tags: &[u64], rates: (Option<u64>, Option<u64>)) -> LpHeader {
    let ext = LpExtensions {
        tags: tags.iter().copied().collect(),
        mircc_rate: rates.0,
        mircc_rate2: rates.1,
        ..Default::default()
    };
    let flags = if tags.is_empty() { 0 } else { flags::PTP_PROBE };
    LpHeader { flags, ext: Some(Box::new(ext)), ..Default::default() }
}

fn data(segment: u64, rtt: Time, lp: &LpHeader) -> DataSample<'_> {
    DataSample { wire_size: SIZE, segment, rtt: Some(rtt), congestion_mark: 0, highest_sent: segment, in_flight: 0, lp }
}

/// The probe for `segment` leaves at `at` and comes back 100 ms later over `tags` with `rates`.
fn probe(m: &mut Mircc, at: Time, segment: u64, tags: &[u64], rates: (Option<u64>, Option<u64>)) {
    assert_eq!(m.path_for(at, segment, false).unwrap().lp.flags, flags::PTP_PROBE);
    m.on_data(at + ms(100), &data(segment, ms(100), &lp(tags, rates)));
}

fn rates(m: &Mircc) -> Vec<(bool, f64)> {
    m.rates().map(|(p, r)| (p, (r * 1e6).round() / 1e6)).collect()
}

#[test]
fn a_probe_opens_a_primary_subflow_at_its_paths_first_class_rate() {
    let mut m = Mircc::new(MirccConfig::default(), RttOptions::default());
    probe(&mut m, ms(0), 0, &[1, 0], (Some(8_720_000), Some(2_180_000)));
    assert_eq!(rates(&m), vec![(true, 1000.0)]);
    // The probe that follows is due at 100 ms and goes first; then the sub-flow's Interest,
    // tagged, first-class (no flag), the next one 1 ms later.
    assert_eq!(m.path_for(ms(100), 1, false).unwrap().lp.flags, flags::PTP_PROBE);
    let send = m.path_for(ms(100), 2, false).unwrap();
    assert_eq!(send.lp.flags & flags::MIRCC_SECONDARY, 0);
    assert_eq!(send.lp.ext.as_ref().unwrap().tags.as_slice(), &[1, 0]);
    assert_eq!(m.poll_timeout(), Some(ms(101)));
}

#[test]
fn a_path_with_a_higher_first_class_rate_becomes_primary_and_the_other_second_class() {
    let mut m = Mircc::new(MirccConfig::default(), RttOptions::default());
    probe(&mut m, ms(0), 0, &[1, 0], (Some(4_360_000), Some(2_180_000)));
    // An equal rate on a second path changes nothing: the first found stays primary.
    probe(&mut m, ms(100), 1, &[2, 0], (Some(4_360_000), Some(2_180_000)));
    assert_eq!(rates(&m), vec![(true, 500.0), (false, 250.0)]);
    assert_eq!(m.primary_changes, 0);
    // A third path offers 8.72 Mbit/s: it is primary (1,000 /s), the others follow the second
    // class's 2.18 Mbit/s (250 /s).
    probe(&mut m, ms(200), 2, &[3, 0], (Some(8_720_000), Some(2_180_000)));
    assert_eq!(rates(&m), vec![(false, 250.0), (false, 250.0), (true, 1000.0)]);
    assert_eq!(m.primary_changes, 1);
    // The first path's Interests now carry the second-class flag.
    let first = (0..10)
        .map(|s| m.path_for(ms(300), 10 + s, false))
        .find_map(|p| p.filter(|p| p.lp.ext.as_ref().is_some_and(|e| e.tags.as_slice() == [1, 0])))
        .expect("the first path sends at 300 ms");
    assert_eq!(first.lp.flags & flags::MIRCC_SECONDARY, flags::MIRCC_SECONDARY);
}

#[test]
fn under_the_first_rule_the_first_path_stays_primary() {
    let config = MirccConfig { primary: PrimaryRule::First, ..MirccConfig::default() };
    let mut m = Mircc::new(config, RttOptions::default());
    probe(&mut m, ms(0), 0, &[1, 0], (Some(4_360_000), Some(2_180_000)));
    // The second path offers twice the first-class rate; the first found stays primary (500 /s)
    // and the second follows the second class (250 /s).
    probe(&mut m, ms(100), 1, &[2, 0], (Some(8_720_000), Some(2_180_000)));
    assert_eq!(rates(&m), vec![(true, 500.0), (false, 250.0)]);
    assert_eq!(m.primary_changes, 0);
}

#[test]
fn each_data_brings_the_rate_its_subflow_follows() {
    let mut m = Mircc::new(MirccConfig::default(), RttOptions::default());
    probe(&mut m, ms(0), 0, &[1, 0], (Some(8_720_000), None));
    // The probe due at 100 ms goes first, then the sub-flow's Interest.
    assert_eq!(m.path_for(ms(100), 4, false).unwrap().lp.flags, flags::PTP_PROBE);
    assert!(m.path_for(ms(100), 5, false).unwrap().lp.ext.is_some());
    // Its Data says the path now offers 2.18 Mbit/s: 250 /s. A Data with no rates keeps it.
    m.on_data(ms(200), &data(5, ms(100), &lp(&[], (Some(2_180_000), None))));
    assert_eq!(rates(&m), vec![(true, 250.0)]);
    assert_eq!(m.path_for(ms(200), 6, false).unwrap().lp.flags, flags::PTP_PROBE);
    assert!(m.path_for(ms(200), 7, false).unwrap().lp.ext.is_some());
    m.on_data(ms(300), &data(7, ms(100), &lp(&[], (None, None))));
    assert_eq!(rates(&m), vec![(true, 250.0)]);
}

#[test]
fn without_link_rates_a_subflow_sends_its_initial_window_per_probe_rtt() {
    let mut m = Mircc::new(MirccConfig::default(), RttOptions::default());
    // No MIRCC link on the path: 10 Interests per 100 ms RTT.
    probe(&mut m, ms(0), 0, &[1, 0], (None, None));
    assert_eq!(rates(&m), vec![(true, 100.0)]);
}

#[test]
fn a_broken_primary_hands_over_to_the_next_path() {
    let mut m = Mircc::new(MirccConfig::default(), RttOptions::default());
    probe(&mut m, ms(0), 0, &[1, 0], (Some(8_720_000), Some(2_180_000)));
    probe(&mut m, ms(100), 1, &[2, 0], (Some(4_360_000), Some(2_180_000)));
    // Drain the probe due at 200 ms, then find the primary's next Interest and Nack it NoRoute.
    let seg = (10..20)
        .find(|&s| {
            m.path_for(ms(200), s, false)
                .is_some_and(|p| p.lp.ext.as_ref().is_some_and(|e| e.tags.as_slice() == [1, 0]))
        })
        .expect("the primary sends at 200 ms");
    m.on_nack(ms(250), seg, NackReason::NoRoute, false);
    assert_eq!(rates(&m), vec![(true, 500.0)]);
    assert_eq!(m.paths()[0].state, "failed");
    assert_eq!(m.paths()[1].state, "primary");
}

#[test]
fn a_window_minimum_keeps_the_smallest_of_the_window_and_the_newest_past_it() {
    let mut w = WindowMin::default();
    w.push(ms(0), 10.0);
    w.push(ms(10), 5.0);
    w.push(ms(20), 8.0);
    // Within 100 ms of each: the smallest, 5.
    assert_eq!(w.min(ms(100), ms(100)), Some(5.0));
    // At 111 ms the 5 pushed at 10 ms is 101 ms old: out; the 8 pushed at 20 ms is the minimum.
    assert_eq!(w.min(ms(111), ms(100)), Some(8.0));
    // Long after, the newest stays (a path whose Data stop carrying rates keeps its last one).
    assert_eq!(w.min(ms(5_000), ms(100)), Some(8.0));
}

/// One sub-flow over [1, 0] at 8.72 Mbit/s (1,000 /s) from its probe (Data at 100 ms, RTT 100
/// ms), under `path_rate`; then a Data from a second holder at 150 ms brings 4.36 Mbit/s, and one
/// at 160 ms 8.72 again (the two holders of SP-1, answering in turn).
fn two_holders(path_rate: PathRate) -> Mircc {
    let mut m = Mircc::new(MirccConfig { path_rate, ..MirccConfig::default() }, RttOptions::default());
    probe(&mut m, ms(0), 0, &[1, 0], (Some(8_720_000), None));
    // The probe due at 100 ms goes first; then segments 5, 6, 7 on the sub-flow, 1 ms apart.
    assert_eq!(m.path_for(ms(100), 4, false).unwrap().lp.flags, flags::PTP_PROBE);
    for (seg, at) in [(5, 100), (6, 101), (7, 102)] {
        assert!(m.path_for(ms(at), seg, false).unwrap().lp.ext.is_some(), "segment {seg} on the sub-flow");
    }
    m.on_data(ms(150), &data(5, ms(50), &lp(&[], (Some(4_360_000), None))));
    m.on_data(ms(160), &data(6, ms(59), &lp(&[], (Some(8_720_000), None))));
    m
}

#[test]
fn a_subflow_sends_at_the_smallest_rate_of_its_last_rtt() {
    // Smallest: the 4.36 Mbit/s of 150 ms holds (500 /s) while it is within the smoothed RTT,
    // whatever came after. The RTT samples 100, 50, 59 and 149 ms give RFC 6298's SRTT 100 ->
    // 93.75 -> 89.4 -> 96.9 ms (7/8 old + 1/8 new); at 251 ms the 150 ms rate is 101 ms old:
    // out, the 160 ms one (91 ms) in, and the 8.72 Mbit/s of both give 1,000 /s.
    let mut m = two_holders(PathRate::Smallest);
    assert_eq!(rates(&m), vec![(true, 500.0)]);
    m.on_data(ms(251), &data(7, ms(149), &lp(&[], (Some(8_720_000), None))));
    assert_eq!(rates(&m), vec![(true, 1000.0)]);
    // Latest: each Data's rate as it comes, 1,000 /s from 160 ms on.
    assert_eq!(rates(&two_holders(PathRate::Latest)), vec![(true, 1000.0)]);
}
