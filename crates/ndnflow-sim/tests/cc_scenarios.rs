//! End-to-end checks of the window controllers (AIMD, BIC/PCON-CS, ICP, RAAQM; issue 3, consumer
//! side): one consumer behind a 10 Mbit/s bottleneck, c --100 Mbit/s, 5 ms-- r --10 Mbit/s, 10 ms-- p.
//!
//! Numbers used below (wire sizes from docs/wire-format.md, as in tests/engine.rs):
//! - Data /p/seg=N, 1024-byte payload: 1080 B on the wire; Interest: 21 B.
//! - Payload goodput ceiling: 10 Mbit/s x 1024 / 1080 = 9.481 Mbit/s.
//! - Base RTT (empty queues): 2 x (5 + 10) ms of propagation + serialisation of the Data at
//!   10 Mbit/s (0.864 ms) and 100 Mbit/s (0.086 ms) + the Interest (0.017 + 0.002 ms) = 30.97 ms.
//! - Bandwidth-delay product: 9.481e6 / 8 / 1024 = 1157 Data/s x 31 ms = about 36 Interests.
//! - Each queued Data adds 0.864 ms of RTT.

use crate::common;

use common::run;
use ndnflow_sim::scenario::toml::parse_scenario;
use ndnflow_sim::Results;

const CEILING_BPS: f64 = 10e6 * 1024.0 / 1080.0;
const BASE_RTT_MS: f64 = 30.97;

/// The bottleneck scenario; `queue` is the queue of p -> r, the direction that carries Data.
pub(crate) fn bottleneck(queue: &str, cc: &str) -> String {
    format!(
        r#"
[simulation]
duration = "20s"
bin = "10ms"
[nodes]
c = {{}}
r = {{}}
p = {{}}
[[links]]
between = ["c", "r"]
bandwidth = "100Mbps"
delay = "5ms"
queue = {{ discipline = "droptail", packets = 1000 }}
[[links]]
between = ["r", "p"]
bandwidth = "10Mbps"
delay = "10ms"
queue = {{ discipline = "droptail", packets = 1000 }}
reverse = {{ queue = {queue} }}
[[producers]]
node = "p"
prefix = "/p"
payload = 1024
[[consumers]]
node = "c"
name = "/p"
cc = {cc}
"#
    )
}

/// Rows of the only consumer, c, in bins starting in [from_s, to_s).
fn rows(r: &Results, from_s: f64, to_s: f64) -> Vec<usize> {
    common::rows(r, "c", from_s, to_s)
}

fn goodput(r: &Results, from_s: f64, to_s: f64) -> f64 {
    common::goodput(r, "c", from_s, to_s)
}

/// Mean RTT over the samples of [from_s, to_s) (bins weighted by their Data count).
fn mean_rtt_ms(r: &Results, from_s: f64, to_s: f64) -> f64 {
    let c = &r.consumers;
    let (mut sum, mut n) = (0.0, 0.0);
    for i in rows(r, from_s, to_s) {
        if c.rtt_ms[i].is_finite() {
            sum += c.rtt_ms[i] * c.data[i] as f64;
            n += c.data[i] as f64;
        }
    }
    sum / n
}

/// Window at the end of each bin in [from_s, to_s), and how many times it fell by more than a
/// quarter from one bin to the next (a multiplicative decrease; AIMD halves, BIC takes 20 %).
fn window_drops(r: &Results, from_s: f64, to_s: f64, factor: f64) -> (Vec<f64>, usize) {
    let w: Vec<f64> = rows(r, from_s, to_s).into_iter().map(|i| r.consumers.window[i]).collect();
    let drops = w.windows(2).filter(|p| p[1] < p[0] * factor).count();
    (w, drops)
}

/// Runs AIMD over the 20-packet drop-tail bottleneck and checks what holds for any CWA variant.
fn aimd_droptail(cc: &str) -> Results {
    let r = run(&bottleneck(r#"{ discipline = "droptail", packets = 20 }"#, cc));
    let s = &r.summary.consumers["c"];
    // Drops are the only congestion signal here, so there must be timeouts.
    assert!(s.timeouts > 0 && r.summary.links["p->r"].drops > 0, "{s:?}");
    assert_eq!(s.marks, 0);
    // Saw-tooth: the window climbs past BDP + queue = 36 + 20 = 56 Interests, then loses, halves
    // (more than once per episode, see below) and climbs back at +1 per RTT: a cycle of roughly
    // 30-50 RTTs of 31-48 ms, 1-2.5 s, so 6-15 cycles in 15 s. Demand at least 4 halvings seen
    // bin to bin, a window never below 1, and a peak above the BDP.
    let (w, drops) = window_drops(&r, 5.0, 20.0, 0.75);
    assert!(drops >= 4, "only {drops} window decreases seen");
    let min = w.iter().copied().fold(f64::INFINITY, f64::min);
    let max = w.iter().copied().fold(0.0, f64::max);
    assert!(min >= 1.0, "window fell to {min}");
    assert!(max > 36.0, "window never exceeded the BDP: max {max}");
    r
}

#[test]
fn aimd_keeps_a_droptail_bottleneck_busy_and_saw_tooths() {
    // ndnSIM ConsumerPcon's AIMD (AddRttSuppress = 0.5: 1.5 RTTs between loss decreases).
    // Ideal Reno with one halving per overflow would get ~97 %: the window sits below the BDP for
    // ~8 of the ~28 RTTs of a 56 -> 28 cycle, at ~89 % utilisation then. Losses are seen only after
    // an RTO (>= 200 ms, 4-6 RTTs), while the window keeps growing into the full queue, so an
    // episode's timeouts arrive over more than one RTT and CWA still lets 2-3 decreases through
    // (56 -> 28 -> 14 ...); each lost Interest also holds its window slot for the RTO. 85 % is the
    // required floor; this configuration measures ~89 %.
    let r = aimd_droptail(r#"{ algorithm = "aimd", rtt_suppress = 0.5 }"#);
    let g = goodput(&r, 5.0, 20.0);
    assert!(g >= 0.85 * CEILING_BPS, "goodput {:.3} Mbit/s < 85 % of {:.3}", g / 1e6, CEILING_BPS / 1e6);
}

#[test]
fn aimd_with_algorithm_1_exactly() {
    // The default, PCON Algorithm 1 as printed (recovery point = highest Interest sent): the
    // suppression ends after one RTT, so the late timeouts of the same episode cause one more
    // decrease than with AddRttSuppress = 0.5 and the window restarts lower (~9 instead of ~16):
    // ~81 % measured. 75 % is the floor; CWA off (every timeout a decrease) would be ~76 %.
    let r = aimd_droptail(r#"{ algorithm = "aimd" }"#);
    let g = goodput(&r, 5.0, 20.0);
    assert!(g >= 0.75 * CEILING_BPS, "goodput {:.3} Mbit/s < 75 % of {:.3}", g / 1e6, CEILING_BPS / 1e6);
}

#[test]
fn pcon_with_codel_marks_keeps_the_queue_short_without_losses() {
    let r = run(&bottleneck(r#"{ discipline = "codel", packets = 1000, mode = "mark" }"#, r#"{ algorithm = "pcon" }"#));
    let s = &r.summary.consumers["c"];
    let link = &r.summary.links["p->r"];
    // CoDel marks instead of dropping, and the consumer backs off on marks before the 1000-packet
    // queue could overflow: marks but no timeouts, no drops.
    assert!(s.marks > 0 && link.marks > 0, "{s:?}");
    assert_eq!(s.timeouts, 0, "{s:?}");
    assert_eq!(link.drops, 0);

    // CoDel holds the standing queue near its 5 ms target (a few ms above it between marks);
    // 20 ms above the base RTT (~23 Data of queue) is far from what a drop-tail queue would build
    // with a window that only stops growing at the first loss (1000 packets = 860 ms).
    let rtt = mean_rtt_ms(&r, 5.0, 20.0);
    assert!(rtt >= BASE_RTT_MS - 0.5, "mean RTT {rtt:.2} ms below the base RTT {BASE_RTT_MS}");
    assert!(rtt <= BASE_RTT_MS + 20.0, "mean RTT {rtt:.2} ms, base {BASE_RTT_MS}");

    // BIC decreases by 20 % per mark, from about BDP + CoDel's ~5 ms standing queue (36 + 6 = 42)
    // to ~34, just under the BDP, and climbs back by binary search within a few RTTs: the link is
    // almost never idle (~99.9 % measured). 90 % is the floor.
    let g = goodput(&r, 5.0, 20.0);
    assert!(g >= 0.90 * CEILING_BPS, "goodput {:.3} Mbit/s", g / 1e6);
    let (w, drops) = window_drops(&r, 5.0, 20.0, 0.9);
    assert!(drops >= 2, "only {drops} window decreases seen");
    assert!(w.iter().all(|&x| x >= 1.0));
}

/// Bins of [from_s, to_s) with a timeout whose window ended below `factor` x the previous bin's.
fn halvings_on_timeouts(r: &Results, from_s: f64, to_s: f64, factor: f64) -> usize {
    let c = &r.consumers;
    let rows = rows(r, from_s, to_s);
    rows.windows(2).filter(|p| c.timeouts[p[1]] > 0 && c.window[p[1]] < c.window[p[0]] * factor).count()
}

#[test]
fn icp_keeps_a_droptail_bottleneck_busy() {
    // ICP: +1 per RTT from a window of 1 (no slow start), halve on timeout with one decrease per
    // loss burst (CWA). Its timer, (RTT_min + RTT_max) / 2 over all samples, is (31 + 48) / 2 =
    // ~40 ms here (RTT_max = base + 20 queued Data x 0.864 ms = 48 ms), below the consumer's
    // 200 ms minimum RTO, which bounds it: the timer in force is 200 ms, the RFC 6298 estimator's
    // value here too, so both variants behave alike. The window climbs to BDP + queue = 56,
    // overflows the queue, and the drops time out 200 ms later (the window still growing into
    // the full queue meanwhile) and halve it: a saw-tooth like AIMD's (tests/cc_scenarios.rs,
    // ~81 % with PCON Algorithm 1). ~83 % measured; 75 % is the floor.
    let r = run(&bottleneck(r#"{ discipline = "droptail", packets = 20 }"#, r#"{ algorithm = "icp" }"#));
    let s = &r.summary.consumers["c"];
    assert!(s.timeouts > 0 && r.summary.links["p->r"].drops > 0, "{s:?}");
    let g = goodput(&r, 5.0, 20.0);
    assert!(g >= 0.75 * CEILING_BPS, "goodput {:.3} Mbit/s < 75 % of {:.3}", g / 1e6, CEILING_BPS / 1e6);
    // The timeouts halve the window: bins with a timeout whose window ended below 3/4 of the
    // previous bin's. A cycle 28 -> 56 takes ~28 RTTs of 31-48 ms, ~1.1 s: ~13 in 15 s; 21
    // measured, demand 6.
    let h = halvings_on_timeouts(&r, 5.0, 20.0, 0.75);
    assert!(h >= 6, "only {h} halvings on timeouts");
    let c = &r.consumers;
    assert!(rows(&r, 5.0, 20.0).iter().all(|&i| c.window[i] >= 1.0));

    // The survey's variant (RFC 6298 timer): the same here, for the reason above.
    let r =
        run(&bottleneck(r#"{ discipline = "droptail", packets = 20 }"#, r#"{ algorithm = "icp", rto = "rfc6298" }"#));
    let g = goodput(&r, 5.0, 20.0);
    assert!(g >= 0.75 * CEILING_BPS, "goodput {:.3} Mbit/s", g / 1e6);
}

#[test]
fn icp_raw_min_max_timer_collapses() {
    // Without the 200 ms floor the min/max timer shows the survey's "really poor performance":
    // a window of 1 builds no queue, so every sample is the base RTT, RTT_min = RTT_max and the
    // timer equals the RTT. Any queueing then times out, retransmitted segments give no RTT sample
    // (Karn), and the range never widens: nearly every Interest times out. ~7 % measured.
    let consumer_rto = r#"{ algorithm = "icp" }
rto = { min = "1ms" }"#;
    let r = run(&bottleneck(r#"{ discipline = "droptail", packets = 20 }"#, consumer_rto));
    let s = &r.summary.consumers["c"];
    let g = goodput(&r, 5.0, 20.0);
    assert!(g < 0.5 * CEILING_BPS, "goodput {:.3} Mbit/s", g / 1e6);
    assert!(s.timeouts as f64 > 0.5 * s.data_received as f64, "{s:?}");
}

#[test]
fn raaqm_keeps_the_rtt_below_aimd() {
    // RAAQM is delay-based: it decreases with a probability that grows with the RTT's position
    // between the smallest and largest of the last 30 samples, so it backs off as soon as a queue
    // starts to build, long before the drop-tail queue overflows. AIMD only reacts to the drops of
    // a full queue, so its RTT rides up to base + queue (100 Data x 0.864 ms = 86 ms more): ~86 ms
    // mean measured against ~31 ms (base 30.97 ms) for RAAQM.
    let queue = r#"{ discipline = "droptail", packets = 100 }"#;
    let a = run(&bottleneck(queue, r#"{ algorithm = "aimd" }"#));
    let b = run(&bottleneck(queue, r#"{ algorithm = "raaqm" }"#));
    let (ra, rb) = (mean_rtt_ms(&a, 5.0, 20.0), mean_rtt_ms(&b, 5.0, 20.0));
    assert!(rb < ra, "RAAQM mean RTT {rb:.2} ms, AIMD {ra:.2} ms");
    assert!((BASE_RTT_MS - 0.5..=BASE_RTT_MS + 5.0).contains(&rb), "RAAQM mean RTT {rb:.2} ms");
    assert!(ra >= BASE_RTT_MS + 30.0, "AIMD mean RTT {ra:.2} ms");
    let s = &b.summary.consumers["c"];
    assert_eq!(s.timeouts, 0, "{s:?}");
    assert_eq!(b.summary.links["p->r"].drops, 0);
    // The price with hICN's compiled defaults on one flow: the sample window is under one RTT, so
    // even the sub-millisecond jitter of a near-empty queue spans [RTT_min, RTT_max] and p
    // averages ~0.1; the window settles where +1/W and -0.2 W per Data balance,
    // W^2 ~ 5 (1 - p) / p ~ 45, W ~ 7: ~28 % of the link measured. A gentler setting (PCON §4.4's dropFactor 0.005, beta 0.9)
    // keeps more of it (below).
    let g = goodput(&b, 5.0, 20.0);
    assert!(g > 0.1 * CEILING_BPS, "RAAQM goodput {:.3} Mbit/s", g / 1e6);

    // Same seed, same run.
    let b2 = run(&bottleneck(queue, r#"{ algorithm = "raaqm" }"#));
    assert_eq!(b2.consumers.window, b.consumers.window);

    let gentle = run(&bottleneck(queue, r#"{ algorithm = "raaqm", p_max = 0.00501, beta = 0.9 }"#));
    // PCON §4.4's setting keeps the link full (~100 % measured, floor 90 %) with a queue of ~26
    // Data (~54 ms mean RTT measured), still well under AIMD's.
    let (rg, gg) = (mean_rtt_ms(&gentle, 5.0, 20.0), goodput(&gentle, 5.0, 20.0));
    assert!(gg >= 0.9 * CEILING_BPS, "gentle RAAQM goodput {:.3} Mbit/s", gg / 1e6);
    assert!(rg < ra - 15.0, "gentle RAAQM mean RTT {rg:.2} ms, AIMD {ra:.2} ms");
}

#[test]
fn raaqm_with_hicns_installed_setting_fills_a_drop_tail_queue() {
    // An installed hICN reads beta = 0.99 and drop = 0.003 from its consumer.conf. Per RTT the
    // window grows by 1 and loses W x p x (1 - beta) x W in expectation; with the RTT spread evenly
    // over its recent range p averages about p_max / 2 = 0.0015, so the two balance near
    // W = sqrt(1 / (0.0015 x 0.01)) = 258 Interests: more than the pipe (36) and the queue (100)
    // hold. The delay signal cannot stop the window before the queue overflows, so it runs full,
    // as AIMD's does at its peaks: drops at the bottleneck, a mean RTT above AIMD's (which halves
    // at each overflow), and the link kept busy.
    let queue = r#"{ discipline = "droptail", packets = 100 }"#;
    let installed = run(&bottleneck(queue, r#"{ algorithm = "raaqm", beta = 0.99, p_max = 0.00301 }"#));
    let aimd = run(&bottleneck(queue, r#"{ algorithm = "aimd" }"#));
    let (ri, ra) = (mean_rtt_ms(&installed, 5.0, 20.0), mean_rtt_ms(&aimd, 5.0, 20.0));
    assert!(installed.summary.links["p->r"].drops > 0);
    assert!(ri > ra, "installed RAAQM mean RTT {ri:.2} ms, AIMD {ra:.2} ms");
    // A full queue is 100 x 0.864 = 86.4 ms above the base RTT; the mean sits in its upper half.
    assert!(ri >= BASE_RTT_MS + 43.2, "installed RAAQM mean RTT {ri:.2} ms");
    let g = goodput(&installed, 5.0, 20.0);
    assert!(g >= 0.9 * CEILING_BPS, "installed RAAQM goodput {:.3} Mbit/s", g / 1e6);
}

/// ConsumerCbr's `Randomize` (ndnSIM): the same mean rate, evenly spaced or as a Poisson process.
/// 100 Interests/s for 20 s in 10 ms bins; the bottleneck carries the Data of 100/s easily.
#[test]
fn constant_rate_randomized_keeps_the_mean_and_spreads_the_gaps() {
    let queue = r#"{ discipline = "droptail", packets = 1000 }"#;
    let sent = |randomize: &str| {
        let cc = format!(r#"{{ algorithm = "constant-rate", rate = 100.0{randomize} }}"#);
        let r = run(&bottleneck(queue, &cc));
        let per_bin: Vec<u64> = rows(&r, 0.0, 20.0).into_iter().map(|i| r.consumers.interests[i]).collect();
        (per_bin.iter().sum::<u64>(), per_bin)
    };
    // Evenly spaced: one Interest at each multiple of 10 ms in [0, 20 s], 2001 of them, one per
    // bin but the last, which also holds the one sent at the final instant.
    let (total, bins) = sent("");
    assert_eq!(total, 2001);
    assert!(bins[..bins.len() - 1].iter().all(|&n| n == 1), "{bins:?}");
    // Exponential gaps of mean 10 ms: a Poisson process, 2000 ± 45 Interests (its standard
    // deviation sqrt(2000)); the count in a 10 ms bin is Poisson(1), so a share e^-1 = 36.8 % of
    // the 2000 bins is empty, ± 1.1 % (sqrt(0.368 x 0.632 / 2000)).
    let (total, bins) = sent(r#", randomize = "exponential""#);
    assert!((1776..=2224).contains(&total), "{total} Interests");
    let empty = bins.iter().filter(|&&n| n == 0).count() as f64 / bins.len() as f64;
    assert!((empty - (-1.0f64).exp()).abs() < 0.055, "empty bins {empty}");
    // Uniform gaps on (0, 20 ms): the count is 2000 ± 26 (a renewal process's variance
    // t x var / mean^3 = 20 x (0.02^2 / 12) / 0.01^3 = 667, so ±130 is five of them), and
    // its mean count is the same 2000.
    let (total, _) = sent(r#", randomize = "uniform""#);
    assert!((1870..=2130).contains(&total), "{total} Interests");
}

#[test]
fn constant_rate_randomize_names_ndnsim_choices() {
    let e = parse_scenario(
        &bottleneck(
            r#"{ discipline = "droptail", packets = 20 }"#,
            r#"{ algorithm = "constant-rate", rate = 10, randomize = "poisson" }"#,
        ),
        "t.toml",
        None,
    )
    .expect_err("poisson is not one of ndnSIM's names")
    .to_string();
    assert!(e.contains("cc.randomize") && e.contains("\"exponential\""), "{e}");
}
