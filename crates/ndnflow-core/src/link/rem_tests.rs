//! REM: the marking law checked against RED's formula by hand, and the marking rate of a standing
//! queue against its probability.

use std::sync::Arc;

use super::*;
use crate::link::test_util::item;
use crate::{Data, Frame, Name};

fn data(seg: u64, at: Time) -> Queued {
    let d = Data::new(Name::root().append_segment(seg), bytes::Bytes::from_static(b"x"));
    let frame = Frame::data(Arc::new(d));
    let size = frame.wire_size();
    Queued { frame, size, enqueued_at: at }
}

#[test]
fn probability_is_zero_below_min_linear_between_and_one_from_max() {
    // min_th 20, max_th 60, max_p 0.1: p = 0.1 x (avg - 20) / 40.
    let c = RemConfig::default();
    assert_eq!(c.probability(0.0), 0.0);
    assert_eq!(c.probability(19.999), 0.0);
    assert_eq!(c.probability(20.0), 0.0); // the band's floor: 0.1 x 0 / 40
    assert!((c.probability(30.0) - 0.025).abs() < 1e-12); // 0.1 x 10 / 40
    assert!((c.probability(40.0) - 0.05).abs() < 1e-12); // 0.1 x 20 / 40
    assert!((c.probability(59.0) - 0.0975).abs() < 1e-12); // 0.1 x 39 / 40
    assert_eq!(c.probability(60.0), 1.0);
    assert_eq!(c.probability(1e6), 1.0);
}

#[test]
fn average_moves_by_the_weight_of_each_departure() {
    // weight 0.5, departures from queues of 4, 3, 2 (the departing packet counted):
    // avg = 0 + (4 - 0) / 2 = 2; 2 + (3 - 2) / 2 = 2.5; 2.5 + (2 - 2.5) / 2 = 2.25.
    let cfg = RemConfig { weight: 0.5, ..RemConfig::default() };
    let mut q = RemQueue::new(Limit::Packets(10), cfg, 1);
    let t = Time::ZERO;
    for i in 0..4 {
        q.enqueue(t, item(i, 100, t)).unwrap();
    }
    let mut dropped = Vec::new();
    let expected = [2.0, 2.5, 2.25];
    for want in expected {
        q.dequeue(t, &mut dropped).unwrap();
        assert_eq!(q.average(), want);
    }
}

#[test]
fn above_max_every_data_is_marked_and_interests_never() {
    // Thresholds 2 and 4, instantaneous queue. Queue: Data 0..6, then one Interest behind them.
    let cfg = RemConfig { min_th: 2.0, max_th: 4.0, max_p: 0.1, weight: 1.0 };
    let mut q = RemQueue::new(Limit::Packets(10), cfg, 7);
    let t = Time::from_millis(1);
    for seg in 0..6 {
        q.enqueue(t, data(seg, t)).unwrap();
    }
    q.enqueue(t, item(99, 50, t)).unwrap();
    let mut dropped = Vec::new();
    let mut marks = Vec::new();
    while let Some(d) = q.dequeue(t, &mut dropped) {
        assert_eq!(d.marked, d.item.frame.lp.congestion_mark == 1);
        // The mark grows the encoding; size follows the frame (the Interest's size is the
        // test's 50).
        if d.item.frame.packet.kind() == PacketKind::Data {
            assert_eq!(d.item.size, d.item.frame.wire_size());
        }
        marks.push(d.marked);
    }
    // Departures from q = 7, 6, 5 (Data 0, 1, 2): marked. q = 4 (Data 3): at max_th, marked.
    // q = 3 (Data 4): p = 0.05, one draw. q = 2 (Data 5): p = 0. q = 1: the Interest, never.
    assert_eq!(&marks[..4], &[true, true, true, true]);
    assert!(!marks[5] && !marks[6]);
    assert_eq!(q.len_bytes(), 0);
}

#[test]
fn a_standing_queue_is_marked_at_its_probability() {
    // A queue held at 40 packets (one arrival per departure): every departure is from q = 41,
    // p = 0.1 x (41 - 20) / 40 = 0.0525. Over 20 000 Data the count of marks is binomial with
    // mean 1050 and standard deviation sqrt(20000 x 0.0525 x 0.9475) = 31.5; 4 sigma is 126.
    let mut q = RemQueue::new(Limit::Packets(100), RemConfig::default(), 42);
    let t = Time::ZERO;
    for seg in 0..40 {
        q.enqueue(t, data(seg, t)).unwrap();
    }
    let mut dropped = Vec::new();
    let mut marks = 0;
    for seg in 40..20_040 {
        q.enqueue(t, data(seg, t)).unwrap();
        marks += q.dequeue(t, &mut dropped).unwrap().marked as u32;
    }
    assert!((1050 - 126..=1050 + 126).contains(&marks), "{marks}");
    // Same seed, same marks: the stream is the queue's own.
    let mut again = RemQueue::new(Limit::Packets(100), RemConfig::default(), 42);
    for seg in 0..40 {
        again.enqueue(t, data(seg, t)).unwrap();
    }
    let mut marks2 = 0;
    for seg in 40..20_040 {
        again.enqueue(t, data(seg, t)).unwrap();
        marks2 += again.dequeue(t, &mut dropped).unwrap().marked as u32;
    }
    assert_eq!(marks, marks2);
}

#[test]
fn tail_drop_at_the_limit_and_a_mark_from_upstream_is_not_counted_again() {
    let cfg = RemConfig { min_th: 0.0, max_th: 1.0, ..RemConfig::default() };
    let mut q = RemQueue::new(Limit::Packets(2), cfg, 3);
    let t = Time::ZERO;
    let mut pre = data(0, t);
    pre.frame.lp.congestion_mark = 1;
    pre.size = pre.frame.wire_size();
    q.enqueue(t, pre).unwrap();
    q.enqueue(t, data(1, t)).unwrap();
    assert!(q.enqueue(t, data(2, t)).is_err());
    let mut dropped = Vec::new();
    let first = q.dequeue(t, &mut dropped).unwrap();
    assert!(!first.marked, "already marked upstream: not a new mark");
    assert_eq!(first.item.frame.lp.congestion_mark, 1);
    assert!(q.dequeue(t, &mut dropped).unwrap().marked);
}
