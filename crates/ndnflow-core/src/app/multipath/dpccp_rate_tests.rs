//! Each law of §VI-E against values worked by hand from Eqs. 17-21 and `RateConfig`'s defaults
//! for the flow setpoint of 20 packets (delta 0.25, psi 1, eta 60, K 3, 2 /s, zeta 0.8).

use super::*;

fn control_in(state: RateState, rate: f64) -> RateControl {
    let mut c = RateControl::new(RateConfig::for_setpoint(20.0), rate);
    c.state = state;
    c.tolerable = rate;
    c.probed = true; // a round under way ran its stage I
    c
}

/// A cycle of length `length` s that received at `x` /s with backlog `beta` and smallest RTT
/// `min_ms`, against setpoint 10.
fn cycle(x: f64, beta: f64, min_ms: u64, length: f64) -> CycleInput {
    let min_rtt = Some(Time::from_millis(min_ms));
    let estimate = CycleEstimate { rate: x, backlog: beta, received: 1, max_rtt: min_rtt, min_rtt };
    CycleInput { estimate, setpoint: 10.0, length }
}

#[test]
fn zmi_rounds_rise_by_one_plus_delta_without_backlog() {
    let mut c = control_in(RateState::Filling(ZmiStage::Probe), 100.0);
    c.rate = 125.0;
    let mut rates = vec![];
    for _ in 0..6 {
        c.end_cycle(&cycle(100.0, 0.0, 100, 0.1));
        rates.push(c.rate());
    }
    // Round 1 ends (hold 100, back 75); u* becomes 125: probe 156.25, hold 125, back 93.75,
    // then u* 156.25 and its probe 195.3125.
    assert_eq!(rates, vec![100.0, 75.0, 156.25, 125.0, 93.75, 195.3125]);
}

#[test]
fn backlog_in_filling_backs_off_then_converges_at_the_receiving_rate() {
    let mut c = control_in(RateState::Filling(ZmiStage::Hold), 1000.0);
    // Backlog at the end of stage II (stage I's probe at 1250 showed): x = 1220 is recorded and
    // stage III runs at 0.75 * 1000 = 750, even with a backlog past eta (the probe's own).
    c.end_cycle(&cycle(1220.0, 70.0, 100, 0.1));
    assert_eq!((c.state(), c.rate()), (RateState::Filling(ZmiStage::Back), 750.0));
    // Then FC at the recorded rate, whatever stage III measured; FC's first cycle measured
    // stage III (x = 750 would pull the rate back down): it holds 1220.
    c.end_cycle(&cycle(900.0, 30.0, 100, 0.1));
    assert_eq!((c.state(), c.rate()), (RateState::Converging, 1220.0));
    c.end_cycle(&cycle(750.0, 0.0, 100, 0.1));
    assert_eq!(c.rate(), 1220.0);
    c.end_cycle(&cycle(1220.0, 2.0, 100, 0.1));
    assert_eq!(c.rate(), 1230.0);
    // Backlog seen at the end of stage III itself: FC at once, at that cycle's rate.
    let mut c = control_in(RateState::Filling(ZmiStage::Back), 1000.0);
    c.end_cycle(&cycle(1100.0, 2.0, 100, 0.1));
    assert_eq!((c.state(), c.rate()), (RateState::Converging, 1100.0));
}

#[test]
fn converging_returns_to_filling_after_k_cycles_without_backlog() {
    let mut c = control_in(RateState::Converging, 1000.0);
    // Two cycles below psi = 1, then one above: still FC; three below in a row (K): BF, whose
    // first probe is 1.25 x the rate A-AIAD had reached (x + 1 / 0.1 = 1010): 1262.5.
    for beta in [0.5, 0.2, 1.5, 0.1, 0.3] {
        c.end_cycle(&cycle(1000.0, beta, 100, 0.1));
        assert_eq!(c.state(), RateState::Converging);
    }
    c.end_cycle(&cycle(1000.0, 0.0, 100, 0.1));
    assert_eq!((c.state(), c.rate()), (RateState::Filling(ZmiStage::Probe), 1262.5));
}

#[test]
fn aiad_moves_the_backlog_one_rho_per_cycle() {
    let mut c = control_in(RateState::Converging, 900.0);
    // Below the setpoint 10: x + rho / T = 1000 + 1 / 0.2 = 1005; above: 1000 - 5 = 995.
    c.end_cycle(&cycle(1000.0, 4.0, 100, 0.2));
    assert_eq!(c.rate(), 1005.0);
    c.end_cycle(&cycle(1000.0, 14.0, 100, 0.2));
    assert_eq!(c.rate(), 995.0);
}

#[test]
fn rho_grows_when_the_backlog_moves_slowly_and_resets_on_crossing() {
    let mut c = control_in(RateState::Converging, 1000.0);
    // Backlogs 2.0, 2.3, 2.6, 2.9 below the setpoint: after the third FC cycle there are only
    // three samples; after the sixth, the last K + 1 = 4 span 2.0 -> 2.9 at cycles 3-6:
    // n = 0.9 / 3 = 0.3, rho = 1 * (2 - 0.3) = 1.7, and the rate is x + 1.7 / 0.1 = 1017.
    for beta in [1.1, 1.4, 2.0, 2.3, 2.6, 2.9] {
        c.end_cycle(&cycle(1000.0, beta, 100, 0.1));
    }
    assert!((c.rho - 1.7).abs() < 1e-12, "{}", c.rho);
    assert!((c.rate() - 1017.0).abs() < 1e-9);
    // Crossing the setpoint resets rho to 1: x - 1 / 0.1.
    c.end_cycle(&cycle(1000.0, 12.0, 100, 0.1));
    assert_eq!((c.rho, c.rate()), (1.0, 990.0));
}

#[test]
fn rho_shrinks_when_the_backlog_moves_fast() {
    let mut c = control_in(RateState::Converging, 1000.0);
    c.rho = 6.0;
    // 2 -> 8 over the last three cycles: n = 2 packets a cycle, rho = 6 / 2 = 3.
    for beta in [1.5, 1.8, 2.0, 4.0, 6.0, 8.0] {
        c.end_cycle(&cycle(1000.0, beta, 100, 0.1));
    }
    assert!((c.rho - 3.0).abs() < 1e-12, "{}", c.rho);
}

#[test]
fn heavy_backlog_drains_then_refills_at_zeta() {
    let mut c = control_in(RateState::Converging, 1000.0);
    // Above eta = 60 for one or two cycles in a row: no drain (§VI-E-6, a stable network never
    // drains; our reading: K = 3 cycles in a row), and a cycle at or below eta starts the count
    // again.
    for beta in [61.0, 70.0, 60.0, 61.0, 61.0] {
        c.end_cycle(&cycle(1200.0, beta, 150, 0.1));
        assert_eq!(c.state(), RateState::Converging, "backlog {beta}");
    }
    // The third in a row: drain at 2 /s, with the receiving rate 1200 as the backup rate u*.
    c.end_cycle(&cycle(1200.0, 61.0, 150, 0.1));
    assert_eq!((c.state(), c.rate()), (RateState::Draining, 2.0));
    // The RTT falls (150 -> 130 -> 110): still draining; a cycle without Data changes nothing.
    c.end_cycle(&cycle(900.0, 40.0, 130, 0.1));
    c.end_cycle(&cycle(100.0, 10.0, 110, 0.1));
    let mut empty = cycle(0.0, 0.0, 0, 0.1);
    empty.estimate = CycleEstimate::default();
    c.end_cycle(&empty);
    assert_eq!(c.state(), RateState::Draining);
    // 110 again: stopped falling. Stage II (Eq. 21): the sub-flow requests zeta u* =
    // 0.8 * 1200 = 960, in BF with 960 as its tolerable rate: Z-MI's stage II (u_r = u*).
    c.end_cycle(&cycle(2.0, 0.0, 110, 0.1));
    assert_eq!(c.state(), RateState::Filling(ZmiStage::Hold));
    assert!((c.rate() - 960.0).abs() < 1e-9, "{}", c.rate());
    assert_eq!(c.drains, 1);
    // Then stage III at 0.75 * 960 = 720. That round had no stage I, so u* stays 960 (Eq. 18
    // raises it to a stage I rate the round tried): the next probes 1.25 * 960 = 1200, the rate
    // before the drain. After that full round without backlog, u* = 1200 and the probe 1500.
    let mut rates = vec![];
    for x in [960.0, 720.0, 1200.0, 960.0, 720.0] {
        c.end_cycle(&cycle(x, 0.0, 110, 0.1));
        rates.push(c.rate());
    }
    assert_eq!(rates, vec![720.0, 1200.0, 960.0, 720.0, 1500.0]);
}

#[test]
fn a_drain_flag_drains_once_until_an_unflagged_data() {
    let mut c = control_in(RateState::Converging, 1000.0);
    c.drain_armed = true;
    c.on_drain_flag(true, 800.0);
    assert_eq!((c.state(), c.tolerable), (RateState::Draining, 800.0));
    c.end_cycle(&cycle(2.0, 0.0, 100, 0.1));
    c.end_cycle(&cycle(2.0, 0.0, 100, 0.1));
    assert_eq!((c.state(), c.rate()), (RateState::Filling(ZmiStage::Hold), 640.0)); // 0.8 * 800
                                                                                    // Still flagged (the label lasts): no second drain until a Data came without the flag.
    c.on_drain_flag(true, 700.0);
    assert_eq!(c.drains, 1);
    c.on_drain_flag(false, 700.0);
    c.on_drain_flag(true, 700.0);
    assert_eq!((c.drains, c.state()), (2, RateState::Draining));
}

#[test]
fn rtt_probing_lasts_two_cycles_at_least_and_until_the_rtt_stops_falling() {
    let mut c = RateControl::new(RateConfig::for_setpoint(20.0), 50.0);
    assert!(c.probing());
    c.end_cycle(&cycle(50.0, 0.0, 120, 0.1));
    c.end_cycle(&cycle(50.0, 0.0, 100, 0.1)); // falling
    assert!(c.probing());
    c.end_cycle(&cycle(50.0, 0.0, 100, 0.1));
    assert!(!c.probing());
    // BF from the initial rate: the first probe at 1.25 * 50.
    assert_eq!((c.state(), c.rate()), (RateState::Filling(ZmiStage::Probe), 62.5));
    // Its own probing's echo, flagged Data right after RP, does not drain it; after an unflagged
    // Data, a flag does.
    c.on_drain_flag(true, 50.0);
    assert_eq!(c.drains, 0);
    c.on_drain_flag(false, 50.0);
    c.on_drain_flag(true, 50.0);
    assert_eq!(c.drains, 1);
    // A drain flag while probing does nothing, and unflagged Data then do not arm it.
    let mut p = RateControl::new(RateConfig::for_setpoint(20.0), 50.0);
    p.on_drain_flag(false, 50.0);
    p.on_drain_flag(true, 50.0);
    assert_eq!(p.state(), RateState::RttProbing);
}
