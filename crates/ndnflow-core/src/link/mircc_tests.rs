//! MIRCC's link rate: single updates of the law derived by hand, the idle catch-up, the second
//! class squeezed to R_min by a first class at the target, and the stamps a departing Data gets.
//!
//! Every test runs on C = 10 Mbit/s with the defaults: η C = 9.5 Mbit/s (0.95 x 10^7 rounds to
//! exactly 9,500,000 in binary), α = 0.1, β = 1, T = 10 ms, d = 100 ms, so T/d = 0.1 and one
//! interval's factor is 1 + 0.1 (0.1 (S - y) - q/0.1 s) / 9.5 Mbit/s.

use std::sync::Arc;

use super::*;
use crate::link::test_util::item;
use crate::packet::LpExtensions;
use crate::{Data, Name};

const C: u64 = 10_000_000;
const TARGET: f64 = 9_500_000.0;

fn queue() -> MirccQueue {
    MirccQueue::new(Limit::Packets(1000), MirccConfig::default(), C)
}

/// A Data of a chosen queue `size`, second-class or not.
fn data(seg: u64, size: u32, secondary: bool) -> Queued {
    let d = Data::new(Name::root().append_segment(seg), bytes::Bytes::from_static(b"x"));
    let mut frame = Frame::data(Arc::new(d));
    if secondary {
        frame.lp.flags = flags::MIRCC_SECONDARY;
    }
    Queued { frame, size, enqueued_at: Time::ZERO }
}

/// Offers first-class bits (Interests) and second-class bits (Data) at `at` and lets them all
/// leave at once, so that the queue is empty at the next boundary.
fn offer(q: &mut MirccQueue, at: Time, first_bytes: u32, second_bytes: u32) {
    let mut dropped = Vec::new();
    if first_bytes > 0 {
        q.enqueue(at, item(0, first_bytes, at)).unwrap();
    }
    if second_bytes > 0 {
        q.enqueue(at, data(0, second_bytes, true)).unwrap();
    }
    while q.dequeue(at, &mut dropped).is_some() {}
}

/// Runs the update that closes the interval in which everything was offered.
fn close(q: &mut MirccQueue, at: Time) {
    assert!(q.dequeue(at, &mut Vec::new()).is_none());
}

fn close_to(got: f64, want: f64) -> bool {
    (got - want).abs() < 1e-3
}

#[test]
fn arrivals_at_the_target_leave_both_rates_unchanged() {
    // y1 = 95,000 bits / 10 ms = 9.5 Mbit/s = S1: factor 1. S2 = max(0, 9.5 - 9.5) = 0 and
    // y2 = 0: factor 1 too.
    let mut q = queue();
    offer(&mut q, Time::ZERO, 11_875, 0);
    close(&mut q, Time::from_millis(10));
    assert!(close_to(q.rate(), TARGET) && close_to(q.rate2(), TARGET), "{} {}", q.rate(), q.rate2());
    assert_eq!(q.counters.updates, 1);
}

#[test]
fn one_update_moves_r1_by_rcps_factor() {
    // R1 = 5 Mbit/s, y1 = 10 Mbit/s (12,500 bytes in 10 ms), q = 0:
    // 5 x (1 + 0.1 x 0.1 x (9.5 - 10) / 9.5) = 5 x (1 - 1/1900) = 4.997368421 Mbit/s.
    let mut q = queue();
    q.law.r1 = 5e6;
    offer(&mut q, Time::ZERO, 12_500, 0);
    close(&mut q, Time::from_millis(10));
    assert!(close_to(q.rate(), 5e6 * (1.0 - 1.0 / 1900.0)), "{}", q.rate());
    assert!((q.rate() - 4_997_368.421).abs() < 0.001);

    // R1 = 5 Mbit/s, y1 = 4.8 Mbit/s (6,000 bytes): 5 x (1 + 0.01 x 4.7 / 9.5) = 5.024736842.
    let mut q = queue();
    q.law.r1 = 5e6;
    offer(&mut q, Time::ZERO, 6_000, 0);
    close(&mut q, Time::from_millis(10));
    assert!(close_to(q.rate(), 5e6 * (1.0 + 0.047 / 9.5)), "{}", q.rate());
    assert!((q.rate() - 5_024_736.842).abs() < 0.001);

    // At the ceiling already, the same arrivals would take it to 9.5 x 1.00495: capped at 9.5.
    let mut q = queue();
    offer(&mut q, Time::ZERO, 6_000, 0);
    close(&mut q, Time::from_millis(10));
    assert_eq!(q.rate(), TARGET);
}

#[test]
fn the_queue_lowers_both_rates_and_a_late_operation_applies_each_interval() {
    // Two Interests of 11,875 bytes arrive at 0 and stay queued: q = 190,000 bits, q/d = 1.9
    // Mbit/s. Nothing happens until 20 ms, which closes two intervals:
    //   1st: y1 = 19 Mbit/s. R1: 1 + 0.1 (0.1 (9.5 - 19) - 1.9) / 9.5 = 1 - 0.285/9.5 = 0.97;
    //        S2 = 0, y2 = 0. R2: 1 + 0.1 (0 - 1.9) / 9.5 = 0.98.
    //   2nd: y = 0, same q. Both: 1 + 0.1 (0.1 x 9.5 - 1.9) / 9.5 = 0.99.
    // R1 = 9.5 x 0.97 x 0.99 = 9.12285, R2 = 9.5 x 0.98 x 0.99 = 9.2169 Mbit/s.
    let mut q = queue();
    q.enqueue(Time::ZERO, item(1, 11_875, Time::ZERO)).unwrap();
    q.enqueue(Time::ZERO, item(2, 11_875, Time::ZERO)).unwrap();
    let d = q.dequeue(Time::from_millis(20), &mut Vec::new()).unwrap();
    assert!(close_to(q.rate(), 9_122_850.0), "{}", q.rate());
    assert!(close_to(q.rate2(), 9_216_900.0), "{}", q.rate2());
    assert_eq!(q.counters.updates, 2);
    // An Interest is never stamped, and its size stays the caller's.
    assert!(d.item.frame.lp.ext.is_none());
    assert_eq!(d.item.size, 11_875);
}

#[test]
fn an_idle_link_climbs_back_to_its_target() {
    // No traffic: factor 1 + 0.1 x 0.1 x 9.5 / 9.5 = 1.01 per interval, for both classes
    // (S2 = 9.5 when y1 = 0). Five intervals: 5 x 1.01^5 = 5.2550502505 Mbit/s,
    // 1 x 1.01^5 = 1.0510100501 Mbit/s.
    let mut q = queue();
    (q.law.r1, q.law.r2) = (5e6, 1e6);
    close(&mut q, Time::from_millis(50));
    assert!(close_to(q.rate(), 5_255_050.250_5), "{}", q.rate());
    assert!(close_to(q.rate2(), 1_051_010.050_1), "{}", q.rate2());
    // 995 intervals more: far past the ceiling (1.01^995 > 10^4), where both stop.
    close(&mut q, Time::from_secs(10));
    assert_eq!((q.rate(), q.rate2()), (TARGET, TARGET));
    assert_eq!(q.counters.updates, 1000);
}

#[test]
fn the_second_class_gets_what_the_first_leaves() {
    // y1 = 4.8 Mbit/s (6,000 bytes in 10 ms) leaves S2 = 4.7; R2 = 1 Mbit/s with y2 = 1 Mbit/s
    // (1,250 bytes): 1 x (1 + 0.01 x (4.7 - 1) / 9.5) = 1.003894737 Mbit/s. R1 at the ceiling
    // stays.
    let mut q = queue();
    q.law.r2 = 1e6;
    offer(&mut q, Time::ZERO, 6_000, 1_250);
    close(&mut q, Time::from_millis(10));
    assert!(close_to(q.rate2(), 1e6 * (1.0 + 0.037 / 9.5)), "{}", q.rate2());
    assert!((q.rate2() - 1_003_894.737).abs() < 0.001);
    assert_eq!(q.rate(), TARGET);
}

#[test]
fn a_first_class_at_the_target_squeezes_the_second_to_r_min() {
    // y1 = 9.5 Mbit/s, so S2 = 0; y2 = 1 Mbit/s. R1's factor is 1; R2's is
    // 1 + 0.01 x (0 - 1) / 9.5 = 1 - 1/950 per interval: after 100 intervals
    // 9.5 x (949/950)^100 = 8.5483 Mbit/s; it reaches R_min = 0.001 x 9.5 Mbit/s = 9,500 bit/s
    // after ln(1000) / -ln(949/950) = 6,559 intervals, and stays there.
    let mut q = queue();
    let mut at = Time::ZERO;
    for i in 0..7_000 {
        offer(&mut q, at, 11_875, 1_250);
        at += Time::from_millis(10);
        if i == 99 {
            close(&mut q, at);
            let want = TARGET * (949.0f64 / 950.0).powi(100);
            assert!((q.rate2() - want).abs() < 1.0, "{} vs {want}", q.rate2());
        }
    }
    close(&mut q, at);
    assert_eq!(q.rate2(), 9_500.0);
    assert_eq!(q.rate(), TARGET);
}

#[test]
fn a_data_keeps_the_smaller_rate_and_its_size_follows_the_frame() {
    let mut q = queue();
    q.law.r2 = 2e6;
    let t = Time::ZERO;
    // A Data that met a 3 Mbit/s first-class rate upstream and no second-class one.
    let mut upstream = data(1, 0, false);
    upstream.frame.lp.ext = Some(Box::new(LpExtensions { mircc_rate: Some(3_000_000), ..Default::default() }));
    upstream.size = upstream.frame.wire_size();
    let mut bare = data(2, 0, false);
    bare.size = bare.frame.wire_size();
    let bare_size = bare.size;
    q.enqueue(t, upstream).unwrap();
    q.enqueue(t, bare).unwrap();
    let mut dropped = Vec::new();
    let first = q.dequeue(t, &mut dropped).unwrap().item;
    let ext = first.frame.lp.ext.as_deref().unwrap();
    assert_eq!((ext.mircc_rate, ext.mircc_rate2), (Some(3_000_000), Some(2_000_000)));
    assert_eq!(first.size, first.frame.wire_size());
    let second = q.dequeue(t, &mut dropped).unwrap().item;
    let ext = second.frame.lp.ext.as_deref().unwrap();
    assert_eq!((ext.mircc_rate, ext.mircc_rate2), (Some(9_500_000), Some(2_000_000)));
    assert_eq!(second.size, second.frame.wire_size());
    // A bare Data becomes an LpPacket (2 octets: type, length < 253) holding two rates
    // (12 octets each: 3-octet type, length, 8 octets) and its Fragment (2 octets): 28 more.
    assert_eq!(second.size, bare_size + 28);
    assert_eq!(q.counters.stamped, 2);
}

#[test]
fn tail_drop_at_the_limit_still_counts_the_offered_bits() {
    // Limit 1 packet: the second Interest is refused, yet both count in y1 (the demand):
    // 2 x 11,875 bytes = 19 Mbit/s over 10 ms; the first stays queued (q = 95,000 bits):
    // 1 + 0.1 (0.1 (9.5 - 19) - 0.95) / 9.5 = 0.98.
    let mut q = MirccQueue::new(Limit::Packets(1), MirccConfig::default(), C);
    q.enqueue(Time::ZERO, item(1, 11_875, Time::ZERO)).unwrap();
    assert!(q.enqueue(Time::ZERO, item(2, 11_875, Time::ZERO)).is_err());
    q.dequeue(Time::from_millis(10), &mut Vec::new()).unwrap();
    assert!(close_to(q.rate(), TARGET * 0.98), "{}", q.rate());
}

#[test]
fn a_bandwidth_change_moves_the_target_and_clamps_the_rates() {
    // Idle from 5 and 1 Mbit/s: the interval closed at the change gives 5.05 and 1.01 (x 1.01);
    // then C halves: eta C = 4.75 Mbit/s, so R1 comes down to it.
    let mut q = queue();
    (q.law.r1, q.law.r2) = (5e6, 1e6);
    q.set_capacity(Time::from_millis(10), C / 2);
    assert_eq!(q.rate(), 4_750_000.0);
    assert!(close_to(q.rate2(), 1_010_000.0), "{}", q.rate2());
    // y1 = 9.5 Mbit/s, at the old target but twice the new one:
    // R1 x (1 + 0.01 x (4.75 - 9.5) / 4.75) = 4.75 x 0.99 = 4.7025 Mbit/s. S2 = 0, y2 = 0: R2 stays.
    offer(&mut q, Time::from_millis(10), 11_875, 0);
    close(&mut q, Time::from_millis(20));
    assert!(close_to(q.rate(), 4_702_500.0), "{}", q.rate());
    assert!(close_to(q.rate2(), 1_010_000.0), "{}", q.rate2());
    assert_eq!(q.counters.updates, 2);
}
