//! SMIC's consumer: spreading over path ids, merging by trajectory, Algorithm 1's increase and
//! halving, the sharing sets, and the coupled baselines, against values worked by hand. Data are
//! 1,000 bytes on the link.

use super::*;
use crate::packet::lp::LpExtensions;

const SIZE: u32 = 1000;
const A: u64 = 0xaaaa;
const B: u64 = 0xbbbb;

fn ms(x: u64) -> Time {
    Time::from_millis(x)
}

fn lp(trajectory: Option<u64>) -> LpHeader {
    let ext = LpExtensions { trajectory_id: trajectory, ..Default::default() };
    LpHeader { ext: Some(Box::new(ext)), ..Default::default() }
}

fn data(segment: u64, rtt: Time, lp: &LpHeader) -> DataSample<'_> {
    DataSample { wire_size: SIZE, segment, rtt: Some(rtt), congestion_mark: 0, highest_sent: segment, in_flight: 0, lp }
}

fn path_id(send: &PathSend) -> u64 {
    send.lp.ext.as_ref().and_then(|e| e.path_id).unwrap()
}

fn smic() -> Smic {
    Smic::new(SmicConsumerConfig::default(), RttOptions::default())
}

/// Spreads path ids 0..10 at 0 ms (segments 0..10) and answers them at 100 ms: the ids in
/// `to_b` come back over trajectory B, the others over A.
fn spread(m: &mut Smic, to_b: &[u64]) {
    for seg in 0..11 {
        assert_eq!(path_id(&m.path_for(ms(0), seg, false).unwrap()), seg, "spreading rotates 0..10");
    }
    for seg in 0..11 {
        let t = if to_b.contains(&seg) { B } else { A };
        m.on_data(ms(100), &data(seg, ms(100), &lp(Some(t))));
    }
}

fn windows(m: &Smic) -> Vec<(Vec<u64>, f64, usize)> {
    m.subflows().map(|(ids, w, n)| (ids.to_vec(), (w * 1e9).round() / 1e9, n)).collect()
}

#[test]
fn path_ids_with_one_trajectory_merge_into_one_subflow() {
    // The two-next-hop spread of the paper's hash (fw/ext/smic_tests.rs): 0, 1, 3, 7 one way.
    let mut m = smic();
    assert!(m.can_send(ms(0)));
    spread(&mut m, &[0, 1, 3, 7]);
    // Id 0 answered first, over B, so B is the first sub-flow. Each window grew by 1/w per Data
    // from 1: B's after its 4 Data 1 -> 2 -> 2.5 -> 2.9 -> 2.9 + 1/2.9.
    let w4 = 2.9 + 1.0 / 2.9;
    let got = windows(&m);
    assert_eq!(got[0].0, vec![0, 1, 3, 7]);
    assert!((got[0].1 - w4).abs() < 1e-6, "{got:?}");
    assert_eq!(got[1].0, vec![2, 4, 5, 6, 8, 9, 10]);
    assert_eq!(got.len(), 2);
    // Interests now take each sub-flow's first path id, alternately while both have room.
    let ids: Vec<u64> = (11..15).map(|s| path_id(&m.path_for(ms(100), s, false).unwrap())).collect();
    assert_eq!(ids, vec![0, 2, 0, 2]);
}

#[test]
fn a_subflow_sends_while_its_interests_in_flight_are_below_its_window() {
    let mut m = smic();
    spread(&mut m, &[]);
    // One sub-flow, eleven Data: w_{k+1} = w_k + 1/w_k from 1 gives 4.78 after 11; five
    // Interests fit (each leaves with 0, 1, 2, 3 or 4 in flight, below 4.78), the sixth does not.
    let (_, w, _) = windows(&m)[0].clone();
    let mut expect = 1.0;
    for _ in 0..11 {
        expect += 1.0 / expect;
    }
    assert!((w - expect).abs() < 1e-6 && w > 4.0 && w < 5.0, "{w}");
    for s in 11..16 {
        assert!(m.can_send(ms(100)));
        m.path_for(ms(100), s, false).unwrap();
    }
    assert!(!m.can_send(ms(100)));
}

#[test]
fn a_timeout_halves_once_per_loss_episode() {
    let mut m = smic();
    spread(&mut m, &[]);
    let w = m.window();
    for s in 11..14 {
        m.path_for(ms(100), s, false).unwrap();
    }
    m.on_timeout(ms(400), 11);
    assert!((m.window() - w / 2.0).abs() < 1e-9);
    // No Data of an Interest sent since the halving yet: the same episode, no second halving.
    m.on_timeout(ms(401), 12);
    assert!((m.window() - w / 2.0).abs() < 1e-9);
    // The Data of one sent at 500 ms ends the episode (w/2 + 2/w after its increase); the next
    // timeout halves again.
    m.path_for(ms(500), 20, false).unwrap();
    m.on_data(ms(600), &data(20, ms(100), &lp(Some(A))));
    let grown = w / 2.0 + 2.0 / w;
    assert!((m.window() - grown).abs() < 1e-9);
    m.on_timeout(ms(700), 13);
    assert!((m.window() - grown / 2.0).abs() < 1e-9);
    assert_eq!(m.paths()[0].timeouts, 3);
    assert_eq!(m.paths()[0].decreases, 2);
}

#[test]
fn with_every_timeout_each_timed_out_interest_halves_and_is_recorded() {
    // Algorithm 1 as written (and the authors' consumer): the two timeouts of one episode halve
    // the window twice, w / 4, and both enter the history; once per episode (the default), w / 2.
    for (every, after) in [(true, 0.25), (false, 0.5)] {
        let mut m = Smic::new(SmicConsumerConfig { every_timeout: every, ..Default::default() }, RttOptions::default());
        spread(&mut m, &[]);
        let w = m.window();
        for s in 11..13 {
            m.path_for(ms(100), s, false).unwrap();
        }
        m.on_timeout(ms(400), 11);
        m.on_timeout(ms(401), 12);
        assert!((m.window() - w * after).abs() < 1e-9, "{every}: {}", m.window());
        assert_eq!(m.flows[0].timeouts.len(), if every { 2 } else { 1 });
    }
}

#[test]
fn an_interest_sent_before_the_last_halving_halves_again_without_backing_the_timer_off() {
    // Id 0 over B, ids 1..10 over A. Four Interests leave at 100 ms; two of them on A.
    let mut m = smic();
    spread(&mut m, &[0]);
    let on_a: Vec<u64> = (11..15).filter(|&s| path_id(&m.path_for(ms(100), s, false).unwrap()) != 0).collect();
    assert!(on_a.len() >= 2, "{on_a:?}");
    let a = m.flows.iter().position(|f| f.ids.contains(&1)).unwrap();
    let rto = m.flows[a].rtt.rto();
    // One of A's times out at 400 ms: A halves and its timer doubles.
    m.on_timeout(ms(400), on_a[0]);
    assert_eq!((m.flows[a].decreases, m.flows[a].rtt.rto()), (1, rto * 2));
    // A segment sent at 500 ms comes back over A's trajectory at 600 ms (whichever sub-flow sent
    // it), without an RTT sample (a resend, Karn): A's recovery ends.
    m.path_for(ms(500), 20, false).unwrap();
    m.on_data(ms(600), &DataSample { rtt: None, ..data(20, ms(100), &lp(Some(A))) });
    assert!(!m.flows[a].recovering);
    let before = m.flows[a].rtt.rto();
    // A's other Interest of 100 ms now times out: a new episode halves the window, as ICP's
    // window adaptation would, but it left before the last backoff, so the timer stays (before
    // 2026-11-28 it doubled, and a run of such timeouts took it to the 60 s ceiling).
    m.on_timeout(ms(700), on_a[1]);
    assert_eq!((m.flows[a].decreases, m.flows[a].rtt.rto()), (2, before));
}

/// Two sub-flows whose packet pairs both say 8 Mbit/s (1,000 bytes 1 ms apart) and whose
/// Interests time out together, `apart` after each other.
fn shared_pair(apart: Time, bandwidth_b_gap: Time) -> Smic {
    shared_pair_with(SmicConsumerConfig::default(), apart, bandwidth_b_gap)
}

fn shared_pair_with(config: SmicConsumerConfig, apart: Time, bandwidth_b_gap: Time) -> Smic {
    let mut m = Smic::new(config, RttOptions::default());
    spread(&mut m, &[0, 1, 3, 7]);
    // Pairs: segments 11+12 on B (id 0) and 13+14 on A (id 2), each two sent at 200 ms.
    let sends: Vec<u64> = (11..15).map(|s| path_id(&m.path_for(ms(200), s, false).unwrap())).collect();
    assert_eq!(sends, vec![0, 2, 0, 2]);
    let (b, a) = (lp(Some(B)), lp(Some(A)));
    m.on_data(ms(300), &data(11, ms(100), &b));
    m.on_data(ms(300) + bandwidth_b_gap, &data(13, ms(100), &b));
    m.on_data(ms(300), &data(12, ms(100), &a));
    m.on_data(ms(301), &data(14, ms(100), &a));
    // One Interest each, lost together.
    let s1 = path_id(&m.path_for(ms(400), 15, false).unwrap());
    let s2 = path_id(&m.path_for(ms(400), 16, false).unwrap());
    assert_eq!((s1, s2), (0, 2));
    m.on_timeout(ms(900), 15);
    m.on_timeout(ms(900) + apart, 16);
    m
}

#[test]
fn subflows_that_time_out_together_with_alike_bandwidths_share_a_bottleneck() {
    let m = shared_pair(ms(10), ms(1));
    assert_eq!(windows(&m).iter().map(|w| w.2).collect::<Vec<_>>(), vec![2, 2]);
    // 100 ms apart: RMSE 0.1 s > 0.05 s, no sharing.
    let m = shared_pair(ms(100), ms(1));
    assert_eq!(windows(&m).iter().map(|w| w.2).collect::<Vec<_>>(), vec![1, 1]);
    // Together, but B's pair 6 ms apart (1.33 Mbit/s against 8: difference 0.83 > 0.8).
    let m = shared_pair(ms(10), ms(6));
    assert_eq!(windows(&m).iter().map(|w| w.2).collect::<Vec<_>>(), vec![1, 1]);
}

#[test]
fn with_the_test_at_every_data_subflows_group_once_their_estimates_agree() {
    // B's pair said 1.33 Mbit/s against A's 8 when both timed out, so they stayed apart. Two more
    // pairs of B's, 1,000 bytes 1 ms apart, take its median to 8 Mbit/s. The next Data groups
    // the two when the test runs at every Data (the authors' consumer), not when it runs only at
    // timeouts (Algorithm 1).
    for (on_data, sets) in [(false, 1), (true, 2)] {
        let config = SmicConsumerConfig { sharing_on_data: on_data, ..Default::default() };
        let mut m = shared_pair_with(config, ms(10), ms(6));
        assert_eq!(windows(&m).iter().map(|w| w.2).collect::<Vec<_>>(), vec![1, 1]);
        let b = m.flows.iter().position(|f| f.ids.contains(&0)).unwrap();
        for k in 0..2 {
            let sent = ms(1000 + 10 * k);
            m.flows[b].bandwidth.on_data(sent, ms(1100 + 10 * k), SIZE);
            m.flows[b].bandwidth.on_data(sent, ms(1101 + 10 * k), SIZE);
        }
        let id = path_id(&m.path_for(ms(1200), 17, false).unwrap());
        let trajectory = if m.flows[b].ids.contains(&id) { B } else { A };
        m.on_data(ms(1300), &data(17, ms(100), &lp(Some(trajectory))));
        assert_eq!(windows(&m).iter().map(|w| w.2).collect::<Vec<_>>(), vec![sets, sets], "{on_data}");
    }
}

#[test]
fn algorithm_1_divides_the_increase_by_the_square_of_the_sharing_set() {
    let mut m = shared_pair(ms(10), ms(1));
    let before = windows(&m)[1].1;
    let seg = 17;
    assert_eq!(path_id(&m.path_for(ms(1000), seg, false).unwrap()), 0);
    let seg2 = 18;
    assert_eq!(path_id(&m.path_for(ms(1000), seg2, false).unwrap()), 2);
    m.on_data(ms(1100), &data(seg2, ms(100), &lp(Some(A))));
    // |S_r| = 2: w += 1 / (4 w).
    let after = windows(&m)[1].1;
    assert!((after - (before + 1.0 / (4.0 * before))).abs() < 1e-6, "{before} -> {after}");
}

#[test]
fn lia_over_the_same_subflows_couples_them_whether_or_not_they_share() {
    // Two sub-flows of equal windows w and RTTs: RFC 6356's alpha = 2w (w/r^2) / (2w/r)^2 = 1/2,
    // increase min(alpha / 2w, 1/w) = 1/(4w). Algorithm 1 without sharing gives 1/w.
    let config = SmicConsumerConfig { increase: SmicIncrease::Coupled(CouplingName::LIA), ..Default::default() };
    let mut m = Smic::new(config, RttOptions::default());
    for seg in 0..2 {
        m.path_for(ms(0), seg, false).unwrap();
    }
    m.on_data(ms(100), &data(0, ms(100), &lp(Some(A))));
    m.on_data(ms(100), &data(1, ms(100), &lp(Some(B))));
    // A got its Data alone (one path: Reno, 1 -> 2); B coupled with A at w = (2, 1).
    let w = windows(&m);
    assert!((w[0].1 - 2.0).abs() < 1e-9);
    // Views (2, 0.1 s) and (1, 0.1 s): alpha = 3 x 200 / (30)^2 = 2/3; min(2/3 / 3, 1) = 2/9.
    assert!((w[1].1 - (1.0 + 2.0 / 9.0)).abs() < 1e-9, "{w:?}");
}

#[test]
fn a_path_id_whose_data_names_another_trajectory_moves_there() {
    let mut m = smic();
    spread(&mut m, &[0, 1, 3, 7]);
    // Id 0 (B's first) now comes back over a third trajectory: it leaves B, whose first id
    // becomes 1, and opens a sub-flow of its own.
    let send = m.path_for(ms(200), 11, false).unwrap();
    assert_eq!(path_id(&send), 0);
    m.on_data(ms(300), &data(11, ms(100), &lp(Some(0xcccc))));
    let ids: Vec<Vec<u64>> = windows(&m).into_iter().map(|w| w.0).collect();
    assert_eq!(ids, vec![vec![1, 3, 7], vec![2, 4, 5, 6, 8, 9, 10], vec![0]]);
    // Without a trajectory id the Data counts as trajectory 0.
    let mut single = smic();
    for seg in 0..11 {
        single.path_for(ms(0), seg, false).unwrap();
        single.on_data(ms(50), &data(seg, ms(50), &lp(None)));
    }
    assert_eq!(windows(&single).len(), 1);
}

#[test]
fn a_nacked_path_id_waits_for_the_next_spread() {
    let mut m = smic();
    for seg in 0..11 {
        m.path_for(ms(0), seg, false).unwrap();
    }
    for seg in 1..11 {
        m.on_data(ms(100), &data(seg, ms(100), &lp(Some(A))));
    }
    m.on_nack(ms(100), 0, NackReason::NoRoute, false);
    let ids: Vec<u64> = windows(&m)[0].0.clone();
    assert_eq!(ids, (1..11).collect::<Vec<u64>>());
    // The spread is due 10 s after the first Interest: every id but the leading one (1) goes out
    // once more, the Nacked 0 included.
    assert_eq!(m.poll_timeout(), Some(Time::from_secs(10)));
    m.handle_timeout(Time::from_secs(10));
    let again: Vec<u64> = (100..110).map(|s| path_id(&m.path_for(Time::from_secs(10), s, false).unwrap())).collect();
    assert_eq!(again, vec![0, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    assert_eq!(m.poll_timeout(), Some(Time::from_secs(20)));
}

#[test]
fn a_spread_interest_times_out_as_the_slowest_subflow_in_use_not_an_idle_one() {
    // Id 0 alone over B, ids 1..10 over A, every RTT 100 ms. B's one sample gives it an RTO of
    // 3 x 100 = 300 ms; A's ten samples bring its variance down and its RTO to the 200 ms floor.
    let mut m = smic();
    spread(&mut m, &[0]);
    // B's id 0 now comes back over A: B keeps no id (idle) and its estimator at 300 ms (the sample
    // goes with the trajectory the Data came by, A's).
    assert_eq!(path_id(&m.path_for(ms(200), 11, false).unwrap()), 0);
    m.on_data(ms(300), &data(11, ms(100), &lp(Some(A))));
    let (a, b) = (m.flows.iter().position(|f| f.in_use()).unwrap(), m.flows.iter().position(|f| !f.in_use()).unwrap());
    assert_eq!((m.flows[a].rtt.rto(), m.flows[b].rtt.rto()), (ms(200), ms(300)));
    // The next spread (10 s after the first) times its Interests by A alone.
    m.handle_timeout(Time::from_secs(10));
    let send = m.path_for(Time::from_secs(10), 100, false).unwrap();
    assert_eq!(send.rto, Some(ms(200)));
}

#[test]
fn resending_a_segment_releases_its_earlier_interest() {
    let mut m = smic();
    spread(&mut m, &[]);
    for s in 11..15 {
        m.path_for(ms(100), s, false).unwrap();
    }
    // Segment 11 goes out again: still four in flight, not five.
    m.path_for(ms(150), 11, true).unwrap();
    assert_eq!(m.flows[0].in_flight, 4);
    // Its Data (either copy) settles it once.
    m.on_data(ms(250), &data(11, ms(100), &lp(Some(A))));
    m.on_data(ms(260), &data(11, ms(110), &lp(Some(A))));
    assert_eq!(m.flows[0].in_flight, 3);
}

#[test]
fn a_burst_of_timeouts_is_one_entry_of_the_history() {
    // B lost alone at 0.9 s and A at 1.0 s (not alike: 0.1 s apart). Histories of 3.
    let mut m = shared_pair(ms(100), ms(1));
    m.config.sharing.history = 3;
    assert_eq!(windows(&m).iter().map(|w| w.2).collect::<Vec<_>>(), vec![1, 1]);
    // One Interest each at 1.1 s, answered: both episodes end.
    for (seg, t) in [(17, B), (18, A)] {
        m.path_for(ms(1100), seg, false).unwrap();
        m.on_data(ms(1200), &data(seg, ms(100), &lp(Some(t))));
    }
    // Then every Interest both windows let out at 2 s is lost, and times out at 2.5 s: several
    // of B's at one instant, one congestion event.
    let mut lost = Vec::new();
    let mut seg = 19;
    while m.can_send(ms(2000)) {
        lost.push((seg, path_id(&m.path_for(ms(2000), seg, false).unwrap())));
        seg += 1;
    }
    assert!(lost.iter().filter(|l| l.1 == 0).count() >= 2, "{lost:?}");
    for (seg, _) in &lost {
        m.on_timeout(ms(2500), *seg);
    }
    // Recorded once per episode, B's history is [0.9, 2.5] and A's [1.0, 2.5]: RMSE of B's
    // against A's sqrt((0.1^2 + 0^2) / 2) = 0.071 s > 0.05 s, not alike. Were each timeout an
    // entry, B's three latest would all be 2.5 s, 0 s from A's, and the two would be grouped.
    assert_eq!(m.flows[0].timeouts.len(), 2);
    assert!((m.flows[0].timeouts.rmse_to(&m.flows[1].timeouts).unwrap() - 0.005_f64.sqrt()).abs() < 1e-9);
    assert_eq!(windows(&m).iter().map(|w| w.2).collect::<Vec<_>>(), vec![1, 1]);
}
