//! Unit tests of `catalog.rs`: the Zipf-Mandelbrot table and draws, and a catalog consumer driven
//! by hand (names, back-to-back objects, records).

use std::sync::Arc;

use super::*;
use crate::app::cc::CcConfig;
use crate::app::{Consumer, ConsumerConfig, InFlightRule, RttOptions};
use crate::packet::{Data, Frame, NetPacket};

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() < 1e-12
}

#[test]
fn pmf_is_one_over_k_plus_q_to_the_s_normalised() {
    // N = 3, s = 1, q = 0: 1, 1/2, 1/3 sum to 11/6, so 6/11, 3/11, 2/11.
    let z = ZipfMandelbrot::new(3, 1.0, 0.0);
    assert!(close(z.pmf(1), 6.0 / 11.0) && close(z.pmf(2), 3.0 / 11.0) && close(z.pmf(3), 2.0 / 11.0));
    assert_eq!((z.pmf(0), z.pmf(4)), (0.0, 0.0));
    // q = 1 shifts the ranks: 1/2, 1/3, 1/4 sum to 13/12, so 6/13, 4/13, 3/13.
    let z = ZipfMandelbrot::new(3, 1.0, 1.0);
    assert!(close(z.pmf(1), 6.0 / 13.0) && close(z.pmf(2), 4.0 / 13.0) && close(z.pmf(3), 3.0 / 13.0));
    // s = 2, q = 0: 1, 1/4 sum to 5/4, so 4/5, 1/5.
    let z = ZipfMandelbrot::new(2, 2.0, 0.0);
    assert!(close(z.pmf(1), 0.8) && close(z.pmf(2), 0.2));
}

#[test]
fn a_draw_is_the_first_rank_whose_cumulative_share_exceeds_it() {
    // Cumulative shares 6/11, 9/11, 1.
    let z = ZipfMandelbrot::new(3, 1.0, 0.0);
    assert_eq!(z.rank_for(0.0), 1);
    assert_eq!(z.rank_for(6.0 / 11.0 - 1e-9), 1);
    assert_eq!(z.rank_for(6.0 / 11.0 + 1e-9), 2);
    assert_eq!(z.rank_for(9.0 / 11.0 - 1e-9), 2);
    assert_eq!(z.rank_for(9.0 / 11.0 + 1e-9), 3);
    assert_eq!(z.rank_for(1.0 - f64::EPSILON), 3);
    assert_eq!(ZipfMandelbrot::new(1, 1.0, 0.0).rank_for(0.5), 1);
}

#[test]
fn frequencies_over_100_000_draws_are_within_four_standard_deviations() {
    let n = 100_000;
    for (q, expected) in [(0.0, [6.0 / 11.0, 3.0 / 11.0, 2.0 / 11.0]), (1.0, [6.0 / 13.0, 4.0 / 13.0, 3.0 / 13.0])] {
        let z = ZipfMandelbrot::new(3, 1.0, q);
        let mut rng = ChaCha8Rng::seed_from_u64(7);
        let mut counts = [0u32; 3];
        for _ in 0..n {
            counts[z.draw(&mut rng) as usize - 1] += 1;
        }
        for (count, p) in counts.iter().zip(expected) {
            // A binomial count: standard deviation sqrt(n p (1 - p)), about 157 draws for p = 6/11.
            let sd = (n as f64 * p * (1.0 - p)).sqrt();
            assert!((f64::from(*count) - n as f64 * p).abs() < 4.0 * sd, "q = {q}: {counts:?}");
        }
    }
}

/// A catalog consumer of 1000 objects (s = 1), 2 segments each, window 4.
fn consumer() -> Consumer {
    let config = ConsumerConfig {
        name: Name::parse("/cat").unwrap(),
        start: Time::from_millis(10),
        stop: None,
        segments: Some(2),
        cc: CcConfig::FixedWindow { window: 4 },
        lifetime: Time::from_secs(2),
        rtt: RttOptions::default(),
        max_retries: None,
        in_flight: InFlightRule::Outstanding,
        send_jitter: Time::ZERO,
        catalog: Some(CatalogConfig { objects: 1000, alpha: 1.0, q: 0.0, restart: false, gap: Time::ZERO }),
        batches: None,
    };
    Consumer::new(config, 3)
}

fn interest_names(out: &[Frame]) -> Vec<Name> {
    out.iter()
        .filter_map(|f| match &f.packet {
            NetPacket::Interest(i) => Some(i.name.clone()),
            _ => None,
        })
        .collect()
}

fn answer(name: &Name, payload: usize) -> Frame {
    Frame::data(Arc::new(Data::new(name.clone(), bytes::Bytes::from(vec![0u8; payload]))))
}

#[test]
fn objects_follow_one_another_with_their_own_segment_numbers() {
    let mut c = consumer();
    let mut out = Vec::new();
    c.handle_timeout(Time::from_millis(10), &mut out);
    // The window allows 4 but the object has 2 segments: /cat/<k>/seg=0 and seg=1 only.
    let first = interest_names(&out);
    assert_eq!(first.len(), 2);
    let k1 = c.objects()[0].rank;
    let object = object_name(&Name::parse("/cat").unwrap(), k1);
    assert_eq!(first, vec![object.append_segment(0), object.append_segment(1)]);
    assert_eq!(object.to_string(), format!("/cat/{k1}"));

    // Both answered at 30 ms: the object is done and the next one's two Interests leave at once.
    out.clear();
    c.handle(Time::from_millis(30), answer(&first[0], 100), &mut out);
    assert!(out.is_empty());
    c.handle(Time::from_millis(30), answer(&first[1], 100), &mut out);
    let second = interest_names(&out);
    let objects = c.objects();
    assert_eq!(objects.len(), 2);
    let k2 = objects[1].rank;
    let next = object_name(&Name::parse("/cat").unwrap(), k2);
    assert_eq!(second, vec![next.append_segment(0), next.append_segment(1)]);
    assert_eq!(
        objects[0],
        ObjectRecord { rank: k1, start: Time::from_millis(10), end: Some(Time::from_millis(30)), bytes: 200, paths: 1 }
    );
    assert_eq!(objects[1], ObjectRecord { rank: k2, start: Time::from_millis(30), end: None, bytes: 0, paths: 1 });
    assert!(!c.is_finished());

    // A second copy of an answered Data is not the current object's (unless the same object was
    // drawn again) and counts nothing.
    if k2 != k1 {
        let before = c.stats.data_received;
        c.handle(Time::from_millis(31), answer(&first[0], 100), &mut out);
        assert_eq!(c.stats.data_received, before);
    }
}

#[test]
fn with_a_gap_the_next_object_is_requested_that_long_after_the_last_completed() {
    // The first object's two Data come back at 30 ms; with a 1 s gap nothing leaves until
    // 1.030 s, the consumer asks to be woken then, and the second object's record starts there
    // (its retrieval time leaves the gap out).
    let mut config = consumer().config().clone();
    config.catalog = Some(CatalogConfig { objects: 1000, alpha: 1.0, q: 0.0, restart: false, gap: Time::from_secs(1) });
    let mut c = Consumer::new(config, 3);
    let mut out = Vec::new();
    c.handle_timeout(Time::from_millis(10), &mut out);
    let first = interest_names(&out);
    out.clear();
    c.handle(Time::from_millis(30), answer(&first[0], 100), &mut out);
    c.handle(Time::from_millis(30), answer(&first[1], 100), &mut out);
    assert!(out.is_empty(), "nothing during the gap");
    let resume = Time::from_millis(1030);
    assert_eq!(c.poll_timeout(), Some(resume));
    c.handle_timeout(Time::from_millis(500), &mut out);
    assert!(out.is_empty());
    assert_eq!(c.poll_timeout(), Some(resume));
    c.handle_timeout(resume, &mut out);
    let second = interest_names(&out);
    assert_eq!(second.len(), 2, "the second object's two Interests at 1.030 s");
    let objects = c.objects();
    assert_eq!(objects[0].end, Some(Time::from_millis(30)));
    assert_eq!(objects[1].start, resume);
    assert_eq!(second[0], object_name(&Name::parse("/cat").unwrap(), objects[1].rank).append_segment(0));
}

#[test]
fn a_restarting_catalog_starts_each_object_from_the_initial_window() {
    // AIMD from a window of 1 in slow start, +1 per Data: after the first object's two Data the
    // window is 3. Kept: the second object starts at 3; restarted: at 1 again.
    let window_after_one_object = |restart: bool| {
        let mut config = consumer().config().clone();
        config.cc = CcConfig::Aimd(crate::app::cc::AimdConfig::default());
        config.catalog = Some(CatalogConfig { objects: 1000, alpha: 1.0, q: 0.0, restart, gap: Time::ZERO });
        let mut c = Consumer::new(config, 3);
        let mut out = Vec::new();
        c.handle_timeout(Time::from_millis(10), &mut out);
        let first = interest_names(&out);
        assert_eq!(first.len(), 1, "a window of one");
        out.clear();
        c.handle(Time::from_millis(30), answer(&first[0], 100), &mut out);
        let second = interest_names(&out);
        c.handle(Time::from_millis(50), answer(&second[0], 100), &mut out);
        assert_eq!(c.objects().len(), 2, "the first object is done");
        c.window().unwrap()
    };
    assert_eq!(window_after_one_object(false), 3.0);
    assert_eq!(window_after_one_object(true), 1.0);
}

#[test]
fn the_same_seed_draws_the_same_objects_and_another_seed_others() {
    let ranks = |seed: u64| {
        let config = CatalogConfig { objects: 10_000, alpha: 1.0, q: 0.0, restart: false, gap: Time::ZERO };
        let zipf = ZipfMandelbrot::new(config.objects, config.alpha, config.q);
        let mut cat = Catalog::new(zipf, Name::parse("/cat").unwrap(), seed);
        (0..20)
            .map(|i| {
                cat.next(Time::from_millis(i), Time::from_millis(i), i * 2, 0, None);
                cat.current.rank
            })
            .collect::<Vec<_>>()
    };
    assert_eq!(ranks(1), ranks(1));
    assert_ne!(ranks(1), ranks(2));
}
