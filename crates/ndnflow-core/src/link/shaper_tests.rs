//! The Interest shaper: release instants, CoDel drops and fair shares derived by hand.

use super::*;
use crate::link::test_util::{id_of, item};

fn interest(id: u32) -> Frame {
    item(id, 0, Time::ZERO).frame
}

fn nonce(f: &Frame) -> u32 {
    id_of(&Queued { frame: f.clone(), size: 0, enqueued_at: Time::ZERO })
}

/// 8 Mbit/s, headroom 1, Data of 1000 bytes: 8000 bits per Interest, 1000 Interests/s, 1 ms
/// apart.
fn one_per_ms() -> InterestShaper {
    let mut s = InterestShaper::new(ShaperConfig { headroom: 1.0, ..ShaperConfig::new(8_000_000) });
    s.on_data(1000);
    assert_eq!(s.gap(), Time::from_millis(1));
    s
}

#[test]
fn rate_follows_capacity_headroom_and_the_data_size_average() {
    let mut s = InterestShaper::new(ShaperConfig::new(10_000_000));
    // Before any Data: 1100 B. 10 Mbit/s x 0.98 / (8 x 1100) = 9.8e6 / 8800 = 1113.636 /s;
    // gap = 8800 / 9.8e6 s = 897 959.18 ns, rounded up.
    assert_eq!(s.data_size(), 1100.0);
    assert!((s.rate() - 1_113.636_363_6).abs() < 1e-6, "{}", s.rate());
    assert_eq!(s.gap(), Time::from_nanos(897_960));
    // The first Data replaces the estimate: 1080 B -> 9.8e6 / 8640 = 1134.259 /s,
    // gap = 8640 / 9.8e6 s = 881 632.65 ns.
    s.on_data(1080);
    assert_eq!(s.data_size(), 1080.0);
    assert!((s.rate() - 1_134.259_259_3).abs() < 1e-6, "{}", s.rate());
    assert_eq!(s.gap(), Time::from_nanos(881_633));
    // Later ones move it by 1/8 of the difference: 1080 + (1160 - 1080) / 8 = 1090 B,
    // gap = 8720 / 9.8e6 s = 889 795.92 ns; then 1090 + (1010 - 1090) / 8 = 1080 B again.
    s.on_data(1160);
    assert_eq!(s.data_size(), 1090.0);
    assert_eq!(s.gap(), Time::from_nanos(889_796));
    s.on_data(1010);
    assert_eq!(s.data_size(), 1080.0);
    assert_eq!(s.counters.data_samples, 3);
    // Shaper_Overlay's 20 Mbit/s halves the gap; a 5 Mbit/s guess doubles it.
    let mut fast = InterestShaper::new(ShaperConfig::new(20_000_000));
    fast.on_data(1080);
    assert_eq!(fast.gap(), Time::from_nanos(440_817)); // 440 816.33 ns
    let mut slow = InterestShaper::new(ShaperConfig::new(5_000_000));
    slow.on_data(1080);
    assert_eq!(slow.gap(), Time::from_nanos(1_763_266)); // 1 763 265.31 ns
}

#[test]
fn interests_leave_one_gap_apart_and_an_idle_shaper_lets_the_next_go_at_once() {
    let mut s = one_per_ms();
    let mut dropped = Vec::new();
    let t0 = Time::from_millis(2);
    for id in 0..4 {
        s.enqueue(t0, interest(id)).unwrap();
    }
    // Open: the first goes at once, then one per ms.
    let mut sent = Vec::new();
    let mut now = t0;
    while let Some(at) = s.poll_release() {
        // An instant already past means "now".
        let at = at.max(now);
        now = at;
        // Not a nanosecond early.
        if at > t0 {
            assert!(s.release(at - Time(1), &mut dropped).is_none());
        }
        let f = s.release(now, &mut dropped).expect("open at its poll instant");
        sent.push((now, nonce(&f)));
    }
    let ms = Time::from_millis;
    assert_eq!(sent, vec![(ms(2), 0), (ms(3), 1), (ms(4), 2), (ms(5), 3)]);
    assert!(dropped.is_empty());
    // Empty: nothing to poll. The shaper reopened at 6 ms; an Interest at 9.5 ms goes at once
    // (no credit was saved up: the next still waits a full gap).
    assert_eq!(s.poll_release(), None);
    let t = Time::from_micros(9_500);
    s.enqueue(t, interest(10)).unwrap();
    s.enqueue(t, interest(11)).unwrap();
    assert_eq!(s.poll_release(), Some(ms(6)));
    assert_eq!(nonce(&s.release(t, &mut dropped).unwrap()), 10);
    assert_eq!(s.poll_release(), Some(Time::from_micros(10_500)));
    assert!(s.release(Time::from_micros(10_499), &mut dropped).is_none());
    assert_eq!(nonce(&s.release(Time::from_micros(10_500), &mut dropped).unwrap()), 11);
    assert_eq!(s.counters.released, 6);
    // A new size estimate applies from the next release on: 2000 B -> 1 + (2000 - 1000) / 8
    // = 1125 B, gap 1.125 ms.
    s.enqueue(Time::from_micros(10_500), interest(12)).unwrap();
    s.on_data(2000);
    assert_eq!(s.gap(), Time::from_micros(1_125));
    assert_eq!(s.poll_release(), Some(Time::from_micros(11_500)));
    s.release(Time::from_micros(11_500), &mut dropped).unwrap();
    s.enqueue(Time::from_micros(11_500), interest(13)).unwrap();
    assert_eq!(s.poll_release(), Some(Time::from_micros(12_625)));
}

#[test]
fn a_standing_queue_is_dropped_by_codel_and_a_full_one_by_tail_drop() {
    let mut s = one_per_ms();
    let mut dropped = Vec::new();
    // 50 Interests at 0 ms, then one arrival and one release per ms. The first leaves at once;
    // after that 50 wait before each release: the one leaving at k ms (k <= 49) arrived at 0
    // (sojourn k ms), later ones arrived at k - 49 ms (sojourn 49 ms). Sojourn first reaches
    // the 5 ms target at k = 5 (equal counts as above), so first_above_time = 105 ms: CoDel
    // drops the head at 105 ms (the Interest that arrived at 56 ms) and releases the next;
    // then at 105 + 100 = 205 ms and 205 + 100 / sqrt(2) = 275.71 -> the 276 ms release.
    let mut next_id = 0;
    for _ in 0..50 {
        s.enqueue(Time::ZERO, interest(next_id)).unwrap();
        next_id += 1;
    }
    let mut drops = Vec::new();
    for k in 0..=300u64 {
        let now = Time::from_millis(k);
        if k > 0 {
            s.enqueue(now, interest(next_id)).unwrap();
            next_id += 1;
        }
        assert_eq!(s.poll_release(), Some(now));
        assert!(s.release(now, &mut dropped).is_some(), "a release every ms at {k} ms");
        for f in dropped.drain(..) {
            drops.push((k, nonce(&f)));
        }
    }
    // Interest ids: 0..=49 at 0 ms, then id 49 + j at j ms.
    assert_eq!(drops[0], (105, 49 + 56));
    assert_eq!(drops.iter().map(|d| d.0).collect::<Vec<_>>(), vec![105, 205, 276]);
    assert_eq!((s.counters.codel_drops, s.counters.tail_drops), (3, 0));
    assert!(s.queue().unwrap().is_dropping());
    // 50 waited before the 300 ms release; three drops, one release: 46 left.
    assert_eq!(s.len(), 46);

    // Tail drop at the limit (100 Interests): the 101st is handed back.
    let mut s = InterestShaper::new(ShaperConfig { limit: 100, ..ShaperConfig::new(10_000_000) });
    let t = Time::from_secs(1);
    s.enqueue(t, interest(0)).unwrap();
    s.release(t, &mut dropped).unwrap();
    for id in 1..=100 {
        s.enqueue(t, interest(id)).unwrap();
    }
    let back = s.enqueue(t, interest(101)).unwrap_err();
    assert_eq!(nonce(&back), 101);
    assert_eq!((s.len(), s.counters.tail_drops), (100, 1));
}

#[test]
fn under_tail_drop_a_standing_queue_only_delays() {
    // The CoDel test's arrivals (50 at 0 ms, then one per ms, one release per ms) with
    // `ShaperDrop::Tail` (CHoPCoP's FISP: Interests are "delayed temporarily"): nothing is
    // dropped, and the releases keep arrival order, each Interest waiting 49 ms once the
    // backlog stands: the one released at k ms (k >= 50) arrived at k - 49 ms, id 49 + k - 49 = k.
    let mut s = InterestShaper::new(ShaperConfig { drop: ShaperDrop::Tail, ..one_per_ms().cfg });
    s.on_data(1000);
    assert!(s.queue().is_none(), "no CoDel state under tail drop");
    let mut dropped = Vec::new();
    for id in 0..50 {
        s.enqueue(Time::ZERO, interest(id)).unwrap();
    }
    let mut released = Vec::new();
    for k in 0..=300u64 {
        let now = Time::from_millis(k);
        if k > 0 {
            s.enqueue(now, interest(49 + k as u32)).unwrap();
        }
        released.push(nonce(&s.release(now, &mut dropped).expect("a release every ms")));
    }
    assert!(dropped.is_empty());
    assert_eq!(released, (0..=300).collect::<Vec<u32>>());
    assert_eq!((s.counters.codel_drops, s.counters.tail_drops, s.len()), (0, 0, 49));
    // The limit still holds: 100 waiting, the 101st is handed back.
    for id in 0..51 {
        s.enqueue(Time::from_millis(300), interest(1000 + id)).unwrap();
    }
    assert_eq!(nonce(&s.enqueue(Time::from_millis(300), interest(2000)).unwrap_err()), 2000);
    assert_eq!((s.len(), s.counters.tail_drops), (100, 1));
}

/// An Interest for segment `seg` of content `prefix`, nonce `seg`.
fn named(prefix: &str, seg: u32) -> Frame {
    let name = Name::parse(prefix).unwrap().append_segment(seg as u64);
    Frame::interest(std::sync::Arc::new(crate::Interest::new(name, seg, Time::from_secs(4))))
}

/// Releases at every instant the shaper opens until `n` Interests have gone; returns their
/// names' first components.
fn drain_names(s: &mut InterestShaper, from: Time, n: usize) -> Vec<String> {
    let mut dropped = Vec::new();
    let mut now = from;
    let mut out = Vec::new();
    while out.len() < n {
        now = s.poll_release().expect("Interests wait").max(now);
        let f = s.release(now, &mut dropped).expect("open at its poll instant");
        out.push(f.packet.name().get(0).map(|c| String::from_utf8_lossy(c.value).into_owned()).unwrap());
    }
    assert!(dropped.is_empty());
    out
}

/// A per-flow shaper (flow = first component) releasing one Interest per ms, with `a` Interests
/// of /a and then `b` of /b waiting at 0.
fn per_flow_with(a: u32, b: u32) -> InterestShaper {
    let mut s = InterestShaper::new(ShaperConfig { flow_components: Some(1), ..one_per_ms().cfg });
    s.on_data(1000);
    for (prefix, n) in [("/a", a), ("/b", b)] {
        for seg in 0..n {
            s.enqueue(Time::ZERO, named(prefix, seg)).unwrap();
        }
    }
    s
}

#[test]
fn per_flow_mode_serves_backlogged_flows_in_turn() {
    // /a queues 6 Interests before /b queues 2: one FIFO would release a a a a a a b b; round
    // robin alternates while both wait, then /a alone.
    let t = Time::ZERO;
    let mut s = per_flow_with(6, 2);
    assert_eq!((s.len(), s.flow_len(&Name::parse("/a").unwrap()), s.flow_len(&Name::parse("/b").unwrap())), (8, 6, 2));
    let order = drain_names(&mut s, t, 8);
    assert_eq!(order, ["a", "b", "a", "b", "a", "a", "a", "a"]);
    assert!(s.is_empty());
    // Each flow has its own queue limit (100): /a full does not refuse /b.
    for seg in 0..100 {
        s.enqueue(t, named("/a", seg)).unwrap();
    }
    assert!(s.enqueue(t, named("/a", 100)).is_err());
    assert!(s.enqueue(t, named("/b", 0)).is_ok());
}

#[test]
fn per_flow_mode_gives_equal_shares_and_leaves_a_light_flow_its_demand() {
    // One release per ms. /a and /b both keep 50 Interests waiting: of 40 releases each gets
    // 20. One FIFO fed a then b in bursts of 50 would give /a all 40.
    let mut s = per_flow_with(50, 50);
    let order = drain_names(&mut s, Time::ZERO, 40);
    let a = order.iter().filter(|c| *c == "a").count();
    assert_eq!((a, 40 - a), (20, 20));

    // Max-min: /c asks for one Interest every 4 ms while /d is backlogged. /c's demand (1/4 of
    // the rate) is below its fair share (1/2): all of /c's Interests go, /d takes the other 3/4.
    // Over 0..400 ms: 100 for /c, 300 for /d (each /c Interest leaves at its arrival instant or
    // the next release, 1 ms later at most).
    let mut s = per_flow_with(0, 0);
    for seg in 0..100 {
        s.enqueue(Time::ZERO, named("/d", seg)).unwrap();
    }
    let mut dropped = Vec::new();
    let (mut c, mut d) = (0, 0);
    for ms in 0..400u64 {
        let now = Time::from_millis(ms);
        if ms % 4 == 0 {
            s.enqueue(now, named("/c", ms as u32)).unwrap();
        }
        // Keep /d backlogged, below CoDel's notice: refill what left.
        if s.flow_len(&Name::parse("/d").unwrap()) < 3 {
            s.enqueue(now, named("/d", 1000 + ms as u32)).unwrap();
        }
        let f = s.release(now, &mut dropped).expect("open every ms");
        match f.packet.name().get(0).map(|c| String::from_utf8_lossy(c.value).into_owned()).unwrap().as_str() {
            "c" => c += 1,
            _ => d += 1,
        }
    }
    assert_eq!((c, d), (100, 300));
}
