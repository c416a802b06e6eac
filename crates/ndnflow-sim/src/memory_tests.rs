//! The estimate and the watch, on numbers worked by hand.

use super::*;
use crate::scenario::toml::parse_scenario;

/// One link c - p at 10 Mbit/s, a producer on p and a consumer on c running `cc` for 10 s in
/// 100 ms bins, under `limit` (none: the default).
fn scenario(cc: &str, limit: Option<&str>) -> Result<Scenario, String> {
    let limit = limit.map(|l| format!("memory_limit = \"{l}\"")).unwrap_or_default();
    let text = format!(
        "[simulation]\nduration = \"10s\"\n{limit}\n[nodes]\nc = {{}}\np = {{}}\n\
         [[links]]\nbetween = [\"c\", \"p\"]\nbandwidth = \"10Mbps\"\ndelay = \"10ms\"\n\
         [[producers]]\nnode = \"p\"\nprefix = \"/a\"\n\
         [[consumers]]\nnode = \"c\"\nname = \"/a\"\ncc = {cc}\n"
    );
    parse_scenario(&text, "t.toml", None).map_err(|e| e.to_string())
}

#[test]
fn a_constant_rate_holds_its_rate_times_the_lifetime() {
    // 10^6 Interests/s, each pending up to the default 2 s lifetime (ndnSIM's consumers'):
    // 2 x 10^6 pending at 256 B, 512,000,000 B.
    let s = scenario("{ algorithm = \"constant-rate\", rate = 1e6 }", None).expect("fits in 4 GiB");
    let parts = demands(&s);
    assert_eq!(parts[0].field, "consumers[0].cc.rate");
    assert_eq!(parts[0].bytes, 512_000_000);
    // The traces: 100 bins x (2 link directions + 1 consumer) x 400 B = 120,000 B.
    assert_eq!(parts[1].field, "simulation.bin");
    assert_eq!(parts[1].bytes, 120_000);
    // Two nodes' tables: 2 x 20 KiB = 40,960 B.
    assert_eq!((parts[2].field.as_str(), parts[2].bytes), ("nodes", 40_960));
}

#[test]
fn a_scenario_that_cannot_fit_is_refused_naming_its_field() {
    // The three: a rate of 10^12 /s, a window of 10^9, 1 ns bins.
    let e = scenario("{ algorithm = \"constant-rate\", rate = 1e12 }", None).unwrap_err();
    assert!(e.contains("consumers[0].cc.rate") && e.contains("memory limit of 4.0 GiB"), "{e}");
    let e = scenario("{ algorithm = \"fixed-window\", window = 1000000000 }", None).unwrap_err();
    assert!(e.contains("consumers[0].cc.window") && e.contains("a window of 1000000000 Interests"), "{e}");
    let e = scenario("{ algorithm = \"aimd\", initial_window = 1e8 }", None).unwrap_err();
    assert!(e.contains("consumers[0].cc.initial_window"), "{e}");
    let text = "[simulation]\nduration = \"60s\"\nbin = \"1ns\"\n[nodes]\na = {}\nb = {}\n\
                [[links]]\nbetween = [\"a\", \"b\"]\nbandwidth = \"10Mbps\"\ndelay = \"1ms\"\n";
    let e = parse_scenario(text, "t.toml", None).unwrap_err().to_string();
    // 6 x 10^10 bins x 2 rows x 400 B = 48 TB.
    assert!(e.contains("simulation.bin") && e.contains("t.toml:3:"), "{e}");
}

#[test]
fn the_limit_is_a_field_of_the_scenario() {
    // A window of 10^6 sent at once: 1,024,000,000 B plus 120,000 B of traces and 40,960 B of
    // nodes. Under 1 GB it does not fit, under 2 GB it does.
    assert!(scenario("{ algorithm = \"fixed-window\", window = 1000000 }", Some("1GB")).is_err());
    let s = scenario("{ algorithm = \"fixed-window\", window = 1000000 }", Some("2GB")).expect("fits");
    assert_eq!(s.memory_limit, 2_000_000_000);
}

#[test]
fn what_a_run_holds_in_bytes() {
    // 1,000 pending records whose tables hold 128,000 B, 10 packets at 128 B, 100 rows at 400 B,
    // 2 nodes at 20 KiB, 50 cached Data at 400 B: 128,000 + 1,280 + 40,000 + 40,960 + 20,000 =
    // 230,240 B, / 1,024 = 224.84 KiB. The record count is for the message only.
    let held = Held { pending: 1000, pending_bytes: 128_000, queued: 10, rows: 100, nodes: 2, cached: 50 };
    assert_eq!(held.bytes(), 128_000 + 1_280 + 40_000 + 40_960 + 20_000);
    assert_eq!(human(held.bytes()), "224.8 KiB");
    assert_eq!(human(DEFAULT_LIMIT), "4.0 GiB");
}

#[test]
fn a_run_that_outgrows_the_limit_stops_with_what_it_computed() {
    // How far an adaptive window grows is the network's to bound, so the estimate counts AIMD's
    // first window (1 Interest, 1,024 B), the traces (120,000 B) and two nodes (40,960 B):
    // 161,984 B, under a 400 kB limit. The run holds more. Slow start overshoots to some 350-600
    // Interests pending (351 at 0.4 s), each a record at the consumer and one in c's PIT, and the
    // tables keep what they grew to: c's PIT 1,024 slots of 128 B (131 kB), the consumer's map
    // (about 41 B a place) and both sets of timers (16-24 B a place), about 250 kB in all with the
    // Interests still pending. Then the Data queued at the link (up to 100 packets at 128 B), the
    // nodes (41 kB), and trace rows at 400 B, three per 100 ms bin (12 kB a second): past 400 kB
    // once about 240 rows (8 s) are kept, and the watch, at the end of each bin, stops it. At
    // 128 B a pending record, as the watch counted until the tables' capacities were, the same
    // run would need some 800 rows (27 s) and end unstopped.
    let cc = "{ algorithm = \"aimd\" }";
    let s = scenario(cc, Some("400KB")).expect("the estimate fits");
    let mut sim = crate::Simulation::new(s);
    let results = sim.run();
    let stopped = results.summary.simulation.stopped.as_deref().expect("stopped by the watch");
    assert!(stopped.contains("above the memory limit of 390.6 KiB"), "{stopped}");
    let end = results.summary.simulation.end_s;
    assert!(end > 5.0 && end < 10.0, "ended at {end} s");
    // What it computed up to there is kept: its rows reach the instant it stopped.
    let last = results.consumers.time_s.last().copied().expect("consumer rows");
    assert!(last <= end && end - last <= 0.1 + 1e-9, "last row at {last} s, stopped at {end} s");
    // Without the limit the same scenario runs to its end.
    let mut sim = crate::Simulation::new(scenario(cc, None).unwrap());
    let results = sim.run();
    assert_eq!((results.summary.simulation.stopped, results.summary.simulation.end_s), (None, 10.0));
}

/// Lifts the test allocation limit when a test ends, passing or not.
struct AllocLimit;
impl AllocLimit {
    fn set(bytes: usize) -> AllocLimit {
        ndnflow_core::grow::set_test_limit(bytes);
        AllocLimit
    }
}
impl Drop for AllocLimit {
    fn drop(&mut self) {
        ndnflow_core::grow::set_test_limit(usize::MAX);
    }
}

#[test]
fn a_refused_allocation_stops_the_run_with_what_it_computed() {
    // 10,000 Interests/s (one every 100 us from time 0) over a 1 s link: nothing comes back
    // before 2 s, and the first timeout is at the 1 s initial RTO, so until then every Interest
    // is a new entry in c's PIT. The PIT's slots (128 B) double: 4,096 to 8,192 asks for
    // 2 x 4,096 x 128 = 1 MiB, allowed; 8,192 to 16,384 asks for 2 MiB, refused. Interest 8,193
    // (segment 8,192) is sent at 8,192 x 100 us = 0.8192 s, and the run stops there.
    // (The consumer's records are smaller: 8,193 of them need no more than 1 MiB.)
    let text = "[simulation]\nduration = \"10s\"\n[nodes]\nc = {}\np = {}\n\
        [[links]]\nbetween = [\"c\", \"p\"]\nbandwidth = \"100Mbps\"\ndelay = \"1s\"\n\
        [[producers]]\nnode = \"p\"\nprefix = \"/a\"\n\
        [[consumers]]\nnode = \"c\"\nname = \"/a\"\ncc = { algorithm = \"constant-rate\", rate = 1e4 }\n";
    let s = parse_scenario(text, "t.toml", None).expect("valid");
    let _limit = AllocLimit::set(1 << 20);
    let results = crate::Simulation::new(s).run();
    let sim = &results.summary.simulation;
    let stopped = sim.stopped.as_deref().expect("stopped by the refused allocation");
    assert!(stopped.starts_with("stopped at 0.8192"), "{stopped}");
    assert!(stopped.contains("out of memory: the allocator refused 2.0 MiB for node c's PIT;"), "{stopped}");
    assert_eq!(sim.end_s, 0.8192);
    // What was computed is kept, and the rows still add up to the summary: 8,193 Interests sent
    // (the last one dropped at c for want of room), in bins of 100 ms up to the stop.
    let consumer = results.summary.consumers.values().next().expect("one consumer");
    assert_eq!(consumer.interests_sent, 8_193);
    assert_eq!(results.consumers.interests.iter().sum::<u64>(), 8_193);
    assert_eq!(results.consumers.time_s.last().copied(), Some(0.8));
}

#[test]
fn a_store_that_cannot_grow_stops_the_run_naming_it() {
    // c - r - p at 1 Gbit/s, 1 ms each way, r caching up to 10^6 Data (a user's "unbounded"),
    // and 10,000 Interests/s for distinct segments from time 0: r stores every Data, none is
    // evicted. The store's slots (56 B each) double as they fill: 8,192 to 16,384 asks for
    // 16,384 x 56 = 917,504 B, allowed under 1 MiB; 16,384 to 32,768 asks for 32,768 x 56 =
    // 1,835,008 B (1.75 MiB, printed 1.8), refused. So the 16,385th Data (segment 16,384, sent at 1.6384 s) finds no room at r. It
    // reaches r 3 ms after its Interest left c (three 1 ms hops) plus the transmissions (about
    // 9 us at 1 Gbit/s: two Interests and one Data of about 1.1 kB), at about 1.64141 s, and
    // the run stops there, keeping the 16,384 Data stored. Before, the store grew with `push`,
    // and a refusal there aborted the process.
    let text = "[simulation]\nduration = \"10s\"\n[nodes]\nc = {}\nr = { cs = { capacity = 1000000 } }\np = {}\n\
        [[links]]\nbetween = [\"c\", \"r\"]\nbandwidth = \"1Gbps\"\ndelay = \"1ms\"\n\
        [[links]]\nbetween = [\"r\", \"p\"]\nbandwidth = \"1Gbps\"\ndelay = \"1ms\"\n\
        [[producers]]\nnode = \"p\"\nprefix = \"/a\"\n\
        [[consumers]]\nnode = \"c\"\nname = \"/a\"\ncc = { algorithm = \"constant-rate\", rate = 1e4 }\n";
    let s = parse_scenario(text, "t.toml", None).expect("valid");
    let _limit = AllocLimit::set(1 << 20);
    let mut sim = crate::Simulation::new(s);
    sim.run_until(sim.duration());
    let stopped = sim.stopped().expect("stopped by the refused growth").to_string();
    assert!(stopped.contains("out of memory: the allocator refused 1.8 MiB for node r's Content Store;"), "{stopped}");
    assert_eq!(sim.cached_data(), 16_384);
    let end = sim.now().as_secs_f64();
    assert!((1.6414..1.6415).contains(&end), "stopped at {end} s");
}

#[test]
fn catalog_consumers_of_one_catalog_share_one_table() {
    // Three catalog consumers: two of a million objects at alpha 1, one at alpha 0.8. Two tables
    // of 8 bytes an object, 8,000,000 B each, the first shared by two consumers; a table per
    // consumer would be three.
    let consumer = |node: &str, alpha: f64| {
        format!(
            "[[consumers]]\nnode = \"{node}\"\nname = \"/a\"\nsegments = 10\ncc = {{ algorithm = \"fixed-window\", window = 1 }}\n\
             catalog = {{ objects = 1000000, alpha = {alpha:.1} }}\n"
        )
    };
    let text = format!(
        "[simulation]\nduration = \"1s\"\n[nodes]\nc = {{}}\nd = {{}}\np = {{}}\n\
         [[links]]\nbetween = [\"c\", \"p\"]\nbandwidth = \"10Mbps\"\ndelay = \"10ms\"\n\
         [[links]]\nbetween = [\"d\", \"p\"]\nbandwidth = \"10Mbps\"\ndelay = \"10ms\"\n\
         [[producers]]\nnode = \"p\"\nprefix = \"/a\"\n{}{}{}",
        consumer("c", 1.0),
        consumer("d", 0.8),
        consumer("d", 1.0)
    );
    let s = parse_scenario(&text, "t.toml", None).expect("valid");
    let tables: Vec<(String, u64)> =
        demands(&s).into_iter().filter(|d| d.field.ends_with("catalog.objects")).map(|d| (d.field, d.bytes)).collect();
    assert_eq!(
        tables,
        vec![("consumers[0].catalog.objects".into(), 8_000_000), ("consumers[1].catalog.objects".into(), 8_000_000)]
    );
    // The engine builds them so: consumers 0 and 2 draw from one copy, consumer 1 from another.
    let net = crate::build::build(&s);
    let table = |i: usize| match &net.apps.iter().filter(|a| a.consumer.is_some()).nth(i).expect("consumer").app {
        crate::build::App::Consumer(c) => c.catalog_table().expect("a catalog").clone(),
        _ => unreachable!("a consumer slot holds a consumer"),
    };
    assert!(table(0).shares_table_with(&table(2)));
    assert!(!table(0).shares_table_with(&table(1)));
}

#[test]
fn a_multipath_consumer_counts_its_first_windows_and_its_probes() {
    // PTP's defaults: 10 paths, each starting at a window of 1, sent at once: 10 x 1,024 B =
    // 10,240 B; 10 probes a second, each pending up to the 2 s lifetime: 20 x 256 B = 5,120 B.
    let s = scenario("{ algorithm = \"ptp\" }", None).expect("fits");
    let mine: Vec<(String, u64)> =
        demands(&s).into_iter().filter(|d| d.consumer == Some(0)).map(|d| (d.field, d.bytes)).collect();
    assert_eq!(
        mine,
        [("consumers[0].cc.initial_window".to_string(), 10_240), ("consumers[0].cc.probe_rate".to_string(), 5_120)]
    );
    // SMIC probes nothing; its 11 path ids each start at a window of 1: 11 x 1,024 B.
    let s = scenario("{ algorithm = \"smic\" }", None).expect("fits");
    let d = demands(&s).into_iter().find(|d| d.consumer == Some(0)).expect("a demand");
    assert_eq!((d.field.as_str(), d.bytes), ("consumers[0].cc.initial_window", 11_264));
    // The fuzzer's two that ran until the watch stopped them at 4.6 GiB: now refused before the
    // run, at the value. 10^12 probes a second: 2 x 10^12 pending at 256 B = 512 TB; a window of
    // 10^15 on each of 10 paths: 10^16 x 1,024 B. The error points at the value: `cc` is line 17
    // of the scenario (its third line is the empty limit), and `1e12` starts at column 40.
    let e = scenario("{ algorithm = \"ptp\", probe_rate = 1e12 }", None).unwrap_err();
    assert!(e.starts_with("t.toml:17:40: consumers[0].cc.probe_rate:") && e.contains("2.000e12 probes pending"), "{e}");
    let e = scenario("{ algorithm = \"mptcp\", initial_window = 1e15 }", None).unwrap_err();
    assert!(
        e.contains("consumers[0].cc.initial_window") && e.contains("(1000000000000000 on each of up to 10 paths)"),
        "{e}"
    );
}

#[test]
fn the_watch_s_message_gives_the_bytes_the_pending_tables_hold() {
    // 2,100 records in tables grown to 4 GiB (timers of a burst long over wait there until due):
    // the count alone named 2,100 records for 4.0 GiB until 2026-11-28.
    let held = Held { pending: 2100, pending_bytes: 4 << 30, queued: 110, rows: 30, nodes: 3, cached: 0 };
    let message = stopped_message(Time::ZERO, held, 1 << 30);
    assert!(
        message.contains("(2100 pending Interest records, in tables and timers of 4.0 GiB; 110 packets and events queued, 30 trace rows, 0 Data in Content Stores), above the memory limit of 1.0 GiB"),
        "{message}"
    );
}
