//! End-to-end checks of ICP and RAAQM (issue 3, consumer side), on the bottleneck of
//! tests/cc_scenarios.rs: c --100 Mbit/s, 5 ms-- r --10 Mbit/s, 10 ms-- p, 1024-byte payloads.
//!
//! Numbers used below (as in tests/cc_scenarios.rs): Data 1080 B on the wire, so the payload
//! goodput ceiling is 10 Mbit/s x 1024 / 1080 = 9.481 Mbit/s; base RTT 30.97 ms; bandwidth-delay
//! product about 36 Interests; each queued Data adds 0.864 ms of RTT.

use ndnflow_sim::scenario::toml::parse_scenario;
use ndnflow_sim::{Results, Simulation};

const CEILING_BPS: f64 = 10e6 * 1024.0 / 1080.0;
const BASE_RTT_MS: f64 = 30.97;

fn run(text: &str) -> Results {
    let scenario = parse_scenario(text, "test.toml", None).unwrap_or_else(|e| panic!("{e}"));
    Simulation::new(scenario).run()
}

/// The bottleneck scenario; `queue` is the queue of p -> r, the direction that carries Data.
fn bottleneck(queue: &str, cc: &str) -> String {
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

fn rows(r: &Results, from_s: f64, to_s: f64) -> Vec<usize> {
    let c = &r.consumers;
    (0..c.time_s.len()).filter(|&i| c.time_s[i] >= from_s - 1e-9 && c.time_s[i] < to_s - 1e-9).collect()
}

fn goodput(r: &Results, from_s: f64, to_s: f64) -> f64 {
    let rows = rows(r, from_s, to_s);
    rows.iter().map(|&i| r.consumers.goodput_bps[i]).sum::<f64>() / rows.len() as f64
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
    // The price with hICN's defaults on one flow: the sample window is under one RTT, so even the
    // sub-millisecond jitter of a near-empty queue spans [RTT_min, RTT_max] and p averages ~0.1;
    // the window settles where +1/W and -0.2 W per Data balance, W^2 ~ 5 (1 - p) / p ~ 45, W ~ 7:
    // ~28 % of the link measured. A gentler setting (PCON §4.4's dropFactor 0.005, beta 0.9)
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
fn icp_and_raaqm_parse_with_defaults_overrides_and_checks() {
    use ndnflow_core::app::cc::{IcpConfig, IcpRto, RaaqmConfig};
    use ndnflow_sim::scenario::model::CcSpec;
    let parse = |cc: &str| {
        parse_scenario(&bottleneck(r#"{ discipline = "droptail", packets = 20 }"#, cc), "t.toml", None)
            .map(|s| s.consumers[0].cc)
            .map_err(|e| e.to_string())
    };
    assert_eq!(parse(r#"{ algorithm = "icp" }"#), Ok(CcSpec::Icp(IcpConfig::default())));
    assert_eq!(parse(r#"{ algorithm = "raaqm" }"#), Ok(CcSpec::Raaqm(RaaqmConfig::default())));
    let mut icp = IcpConfig { beta: 0.6, rto: IcpRto::Rfc6298, rto_window: 30, ..IcpConfig::default() };
    icp.signals.cwa = false;
    assert_eq!(
        parse(r#"{ algorithm = "icp", beta = 0.6, rto = "rfc6298", rto_window = 30, cwa = false }"#),
        Ok(CcSpec::Icp(icp))
    );
    let raaqm = RaaqmConfig {
        initial_window: 4.0,
        min_window: 2.0,
        max_window: 100.0,
        beta: 0.9,
        gamma: 2.0,
        p_min: 0.001,
        p_max: 0.1,
        samples: 20,
    };
    assert_eq!(
        parse(
            r#"{ algorithm = "raaqm", initial_window = 4, min_window = 2, max_window = 100, beta = 0.9, gamma = 2, p_min = 0.001, p_max = 0.1, samples = 20 }"#
        ),
        Ok(CcSpec::Raaqm(raaqm))
    );

    // The consumer's cc is on line 27 of the generated file.
    let e = parse(r#"{ algorithm = "raaqm", cwa = false }"#).unwrap_err();
    assert!(e.contains(":27:") && e.contains("cc.cwa") && e.contains("does not apply to algorithm = \"raaqm\""), "{e}");
    let e = parse(r#"{ algorithm = "icp", gamma = 1 }"#).unwrap_err();
    assert!(e.contains("cc.gamma") && e.contains("does not apply"), "{e}");
    let e = parse(r#"{ algorithm = "icp", rto = "fixed" }"#).unwrap_err();
    assert!(e.contains("cc.rto") && e.contains("rfc6298"), "{e}");
    let e = parse(r#"{ algorithm = "raaqm", p_max = 1.5 }"#).unwrap_err();
    assert!(e.contains("cc.p_max") && e.contains("between 0 and 1"), "{e}");
    let e = parse(r#"{ algorithm = "raaqm", p_min = 0.3 }"#).unwrap_err();
    assert!(e.contains("cc.p_min") && e.contains("must not exceed p_max"), "{e}");
    let e = parse(r#"{ algorithm = "raaqm", min_window = 8, max_window = 4 }"#).unwrap_err();
    assert!(e.contains("must not exceed max_window"), "{e}");
    let e = parse(r#"{ algorithm = "raaqm", samples = 0 }"#).unwrap_err();
    assert!(e.contains("cc.samples"), "{e}");
    let e = parse(r#"{ algorithm = "raaqm", gamma = 0 }"#).unwrap_err();
    assert!(e.contains("cc.gamma") && e.contains("positive"), "{e}");
}
