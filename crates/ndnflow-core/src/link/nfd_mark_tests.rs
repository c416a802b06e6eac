//! Unit tests of NFD's congestion marker; every instant is derived by hand from the rule in the
//! module comment (steps in whole nanoseconds, truncated: 100 ms / sqrt(2) = 70 710 678 ns,
//! / sqrt(3) = 57 735 026 ns, / sqrt(4) = 50 000 000 ns, / sqrt(5) = 44 721 359 ns).

use std::sync::Arc;

use super::*;
use crate::{Interest, Name};

const MS: u64 = 1_000_000;

fn marker() -> NfdMarker {
    // ns-3's default 100-packet queue at 1500 B: 150 000 B, threshold min(65 536, 75 000).
    NfdMarker::new(NfdMarkConfig::default(), 150_000)
}

#[test]
fn defaults_are_nfds() {
    let cfg = NfdMarkConfig::default();
    assert_eq!((cfg.threshold, cfg.interval), (65_536, Time::from_millis(100)));
    assert_eq!(cfg.threshold_for(150_000), 65_536);
    // Half the capacity when that is smaller (NFD's own test: capacity 65 536 -> 32 768).
    assert_eq!(cfg.threshold_for(65_536), 32_768);
    assert_eq!(cfg.threshold_for(100_001), 50_000);
    assert_eq!(marker().threshold(), 65_536);
}

/// Above the threshold from t = 0, one packet per millisecond: marks at 0 and 100 ms, then the
/// schedule 100 + 70.710678 = 170.710678 ms (first packet at 171), + 57.735026 = 228.445704
/// (229), + 50 = 278.445704 (279), + 44.721359 = 323.167063 (324), + 40.824829 = 363.991892
/// (364), + 37.796447 = 401.788339 (402).
#[test]
fn a_standing_queue_is_marked_on_the_inverse_sqrt_schedule() {
    let mut m = marker();
    let marks: Vec<u64> = (0..=420).filter(|&t| m.on_send(Time(t * MS), 65_537)).collect();
    assert_eq!(marks, [0, 100, 171, 229, 279, 324, 364, 402]);
    assert_eq!(m.marked_in_episode(), 8);
}

/// The scheduled instants themselves, to the nanosecond: one nanosecond early is not marked.
#[test]
fn scheduled_instants_are_exact() {
    let mut m = marker();
    assert!(m.on_send(Time::ZERO, 70_000));
    assert!(!m.on_send(Time(100 * MS - 1), 70_000));
    assert!(m.on_send(Time(100 * MS), 70_000));
    assert!(!m.on_send(Time(170_710_677), 70_000));
    assert!(m.on_send(Time(170_710_678), 70_000));
    assert!(!m.on_send(Time(228_445_703), 70_000));
    assert!(m.on_send(Time(228_445_704), 70_000));
    // A late packet still advances the schedule from the scheduled instant, not from `now`:
    // next = 228 445 704 + 50 000 000 = 278 445 704, so a packet at 300 ms is marked and the
    // following one is due at 278 445 704 + 44 721 359 = 323 167 063.
    assert!(m.on_send(Time(300 * MS), 70_000));
    assert!(!m.on_send(Time(323_167_062), 70_000));
    assert!(m.on_send(Time(323_167_063), 70_000));
}

/// The comparison is strict: exactly at the threshold is not congested, and ends the episode.
#[test]
fn threshold_is_exclusive_and_ends_the_episode() {
    let mut m = marker();
    assert!(!m.on_send(Time::ZERO, 65_536));
    assert!(m.on_send(Time::ZERO, 65_537));
    assert!(m.on_send(Time(100 * MS), 65_537));
    assert_eq!(m.marked_in_episode(), 2);
    assert!(!m.on_send(Time(101 * MS), 65_536));
    assert_eq!(m.marked_in_episode(), 0);
}

/// The "last_mark + interval" clause: after a reset, a new episode marks no earlier than 100 ms
/// after the last mark, and its schedule restarts at that mark (n = 1, next + 100 ms).
#[test]
fn a_new_episode_waits_for_an_interval_after_the_last_mark() {
    let mut m = marker();
    assert!(m.on_send(Time::ZERO, 70_000));
    assert!(!m.on_send(Time(50 * MS), 1_000)); // drained: episode over
    assert!(!m.on_send(Time(60 * MS), 70_000)); // congested again, but 60 < 0 + 100
    assert!(!m.on_send(Time(99 * MS), 70_000));
    assert!(m.on_send(Time(100 * MS), 70_000)); // last_mark + interval reached
    assert_eq!(m.marked_in_episode(), 1);
    // Fresh schedule: 100 + 100 = 200 ms, then 200 + 70.710678.
    assert!(!m.on_send(Time(199 * MS), 70_000));
    assert!(m.on_send(Time(200 * MS), 70_000));
    assert!(!m.on_send(Time(270_710_677), 70_000));
    assert!(m.on_send(Time(270_710_678), 70_000));
    // A reset long after the last mark: the next congested packet is marked at once.
    assert!(!m.on_send(Time(500 * MS), 0));
    assert!(m.on_send(Time(500 * MS + 1), 70_000));
}

/// A small queue: capacity 20 000 B gives threshold 10 000 B; a custom interval of 10 ms spaces
/// the first two marks 10 ms apart and the third 10 / sqrt(2) = 7.071067 ms later.
#[test]
fn custom_threshold_and_interval() {
    let cfg = NfdMarkConfig { threshold: 65_536, interval: Time::from_millis(10) };
    let mut m = NfdMarker::new(cfg, 20_000);
    assert_eq!(m.threshold(), 10_000);
    assert!(!m.on_send(Time::ZERO, 10_000));
    assert!(m.on_send(Time::ZERO, 10_001));
    assert!(m.on_send(Time(10 * MS), 10_001));
    assert!(!m.on_send(Time(17_071_066), 10_001));
    assert!(m.on_send(Time(17_071_067), 10_001));
}

/// A mark's bytes: a bare 100-byte packet becomes LpPacket { CongestionMark (3 + 1 + 1),
/// Fragment (1 + 1 + 100) } = 1 + 1 + 107 = 109 B, 9 more; a frame already marked grows by 0;
/// a fragment (already an LpPacket) by the 5-byte field.
#[test]
fn a_mark_grows_the_frame_by_its_encoding() {
    let interest = Interest::new(Name::parse("/a/b").unwrap().append_segment(1), 7, Time::from_secs(4));
    let mut frame = Frame::interest(Arc::new(interest));
    let net = frame.wire_size();
    assert_eq!(frame.net_size, net, "a frame without header fields is the bare packet");
    // Pad the count to exactly 100 B so the hand derivation above applies.
    frame.net_size = 100;
    let size = frame.wire_size();
    assert_eq!(size, 100);
    assert_eq!(NfdMarker::mark_whole(&mut frame, size), 109);
    assert_eq!(frame.lp.congestion_mark, 1);
    assert_eq!(NfdMarker::mark_whole(&mut frame, 109), 109);

    let mut piece = frame.clone();
    piece.lp = Default::default();
    assert_eq!(NfdMarker::mark_fragment(&mut piece, 1462), 1467);
    assert_eq!(NfdMarker::mark_fragment(&mut piece, 1467), 1467);
}

/// A mark from upstream loses its hop count: this link is now the nearest marking one.
#[test]
fn marking_clears_the_hop_count() {
    let interest = Interest::new(Name::parse("/a").unwrap(), 1, Time::from_secs(4));
    let mut frame = Frame::interest(Arc::new(interest));
    frame.lp.congestion_mark = 1;
    frame.lp.hop_count = Some(3);
    let size = frame.wire_size();
    let marked = NfdMarker::mark_whole(&mut frame, size);
    assert_eq!(frame.lp.hop_count, None);
    // The hop count field (type 856: 3 B, length 1 B, value 1 B) is gone.
    assert_eq!(marked, size - 5);
}
