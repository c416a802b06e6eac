//! End-to-end checks of the simulator against numbers derived by hand (issue 2, item 9).
//!
//! Wire sizes used below (NDN v0.3, see docs/wire-format.md):
//! - Data /p/seg=N (N < 65536, 2-byte segment), 1024-byte payload, DigestSha256: Name 9 +
//!   Content 1028 + SignatureInfo 5 + SignatureValue 34 = 1076, plus type and 3-byte length = 1080 B.
//! - Interest /p/seg=N with Nonce and a 2000 ms lifetime: Name 9 + Nonce 6 + InterestLifetime 4 =
//!   19, plus 2 = 21 B.
//! - /video/a/seg=N adds 7 bytes to the name: Data 1087 B, Interest 28 B.

use crate::common;

use common::{assert_within, goodput, run};

fn one_link(bandwidth: &str, delay: &str, window: u32) -> String {
    format!(
        r#"
[simulation]
duration = "20s"
[nodes]
c = {{}}
p = {{}}
[[links]]
between = ["c", "p"]
bandwidth = "{bandwidth}"
delay = "{delay}"
queue = {{ discipline = "droptail", packets = 1000 }}
[[producers]]
node = "p"
prefix = "/p"
payload = 1024
[[consumers]]
node = "c"
name = "/p"
cc = {{ algorithm = "fixed-window", window = {window} }}
"#
    )
}

#[test]
fn fixed_window_gets_the_smaller_of_link_rate_and_window_rate() {
    const DATA: f64 = 1080.0;
    const INTEREST: f64 = 21.0;
    for (bw, bw_bps, delay_ms, window) in [
        ("10Mbps", 10e6, 10.0, 10),
        ("10Mbps", 10e6, 10.0, 100),
        ("100Mbps", 100e6, 50.0, 20),
        ("2Mbps", 2e6, 5.0, 4),
        ("50Mbps", 50e6, 25.0, 300),
    ] {
        let r = run(&one_link(bw, &format!("{delay_ms}ms"), window));
        let rtt = 2.0 * delay_ms / 1e3 + (DATA + INTEREST) * 8.0 / bw_bps;
        let link_limit = bw_bps * 1024.0 / DATA;
        let window_limit = window as f64 * 1024.0 * 8.0 / rtt;
        let expected = link_limit.min(window_limit);
        assert_within(goodput(&r, "c", 2.0, 20.0), expected, 0.01, &format!("{bw} {delay_ms}ms W={window}"));
        assert_eq!(r.summary.links["p->c"].drops, 0);
    }
}

#[test]
fn quickstart_window_limited_then_fair_share_at_capacity() {
    let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../examples/quickstart.toml")).unwrap();
    let r = run(&text);
    // c1 alone: RTT = 2 x (5 + 20) ms + Interest 28 B at 100 and 10 Mbps + Data 1087 B at 10 and 100 Mbps.
    let rtt = 0.050 + 28.0 * 8.0 / 100e6 + 28.0 * 8.0 / 10e6 + 1087.0 * 8.0 / 10e6 + 1087.0 * 8.0 / 100e6;
    assert_within(goodput(&r, "c1", 1.0, 10.0), 40.0 * 1024.0 * 8.0 / rtt, 0.01, "c1 alone");
    // Both: 80 Interests in flight exceed the 58-packet bandwidth-delay product, so the 10 Mbps link
    // is saturated and equal windows over equal RTTs share it equally.
    let capacity = 10e6 * 1024.0 / 1087.0;
    let (g1, g2) = (goodput(&r, "c1", 12.0, 30.0), goodput(&r, "c2", 12.0, 30.0));
    assert_within(g1, g2, 0.02, "equal share");
    assert_within(g1 + g2, capacity, 0.01, "bottleneck goodput");
    assert_eq!(r.summary.links["p->r"].drops, 0);
}

fn router_scenario(cs_capacity: usize, second_start: &str, segments: u64) -> String {
    format!(
        r#"
[simulation]
duration = "30s"
[nodes]
c1 = {{}}
c2 = {{}}
r = {{ cs = {{ policy = "lru", capacity = {cs_capacity} }} }}
p = {{}}
[[links]]
between = ["c1", "r"]
bandwidth = "100Mbps"
delay = "5ms"
[[links]]
between = ["c2", "r"]
bandwidth = "100Mbps"
delay = "5ms"
[[links]]
between = ["r", "p"]
bandwidth = "10Mbps"
delay = "20ms"
[[producers]]
node = "p"
prefix = "/video"
payload = 1024
[[consumers]]
node = "c1"
name = "/video/a"
segments = {segments}
cc = {{ algorithm = "fixed-window", window = 10 }}
[[consumers]]
node = "c2"
name = "/video/a"
segments = {segments}
start = "{second_start}"
cc = {{ algorithm = "fixed-window", window = 10 }}
"#
    )
}

#[test]
fn a_store_admitting_half_serves_about_half_from_the_cache() {
    // PTP §6-E's cache: "half of the 2000 Data packets (randomly selected) are cached". c1's 1000
    // Data each enter r's store with probability 0.5: Binomial(1000, 0.5), 500 +- 4 sigma
    // (sigma = sqrt(1000 / 4) = 15.8, so +-64). Every one of c2's segments is either a hit or
    // crosses r-p again, so hits + p->r Data = 2000 exactly.
    let text = router_scenario(10_000, "10s", 1000).replace("capacity = 10000 }", "capacity = 10000, admit = 0.5 }");
    let r = run(&text);
    let hits = r.summary.nodes["r"].cs_hits;
    assert!((436..=564).contains(&hits), "{hits} hits");
    assert_eq!(hits + r.summary.links["p->r"].data, 2000);
    assert_eq!(r.summary.consumers["c2"].data_received, 1000);
}

#[test]
fn a_later_consumer_is_served_from_the_router_cache() {
    let r = run(&router_scenario(10_000, "10s", 1000));
    let (c1, c2) = (&r.summary.consumers["c1"], &r.summary.consumers["c2"]);
    assert!(c1.finished && c2.finished);
    assert_eq!((c1.data_received, c2.data_received), (1000, 1000));
    // Every segment crossed r-p once; the second fetch was all cache hits at r.
    assert_eq!(r.summary.links["p->r"].data, 1000);
    assert_eq!(r.summary.nodes["r"].cs_hits, 1000);
    // c2's RTT is the c2-r round trip: 10 ms + 28 B and 1087 B at 100 Mbps.
    let near = 10.0 + (28.0 + 1087.0) * 8.0 / 100e6 * 1e3;
    assert_within(c2.rtt_avg_ms.unwrap(), near, 0.01, "cache RTT");
    assert!(c1.rtt_min_ms.unwrap() > 50.0);
}

#[test]
fn a_byte_limited_store_weighs_each_data_by_its_payload() {
    // SMIC §5: "a unit of a caching operation is a chunk, which is the payload size". 1000
    // payloads of 1024 bytes fill 1,024,000 bytes exactly, so c2's whole fetch hits, as with
    // room for 1000 packets above; weighed by their 1087 encoded bytes, only 942 would fit.
    let cs = |bytes: usize| {
        router_scenario(10_000, "10s", 1000).replace("capacity = 10000 }", &format!("bytes = {bytes} }}"))
    };
    let r = run(&cs(1_024_000));
    assert_eq!((r.summary.nodes["r"].cs_hits, r.summary.links["p->r"].data), (1000, 1000));
    // 1023 bytes hold no 1024-byte payload: nothing is stored, every segment crosses r-p twice.
    let r = run(&cs(1023));
    assert_eq!((r.summary.nodes["r"].cs_hits, r.summary.links["p->r"].data), (0, 2000));
    assert_eq!(r.summary.consumers["c2"].data_received, 1000);
}

#[test]
fn simultaneous_requests_are_aggregated_into_one_upstream_interest() {
    // CS off: only PIT aggregation can explain a single upstream copy.
    let r = run(&router_scenario(0, "0s", 2000));
    let (c1, c2) = (&r.summary.consumers["c1"], &r.summary.consumers["c2"]);
    assert_eq!((c1.data_received, c2.data_received), (2000, 2000));
    assert_eq!(r.summary.links["r->p"].interests, 2000);
    assert_eq!(r.summary.links["p->r"].data, 2000);
    assert_eq!(r.summary.nodes["r"].pit_aggregated, 2000);
    assert_eq!(r.summary.nodes["r"].cs_hits, 0);
}

fn lossy_line(loss: &str) -> String {
    format!(
        r#"
[simulation]
duration = "20s"
[nodes]
c = {{}}
r = {{}}
p = {{}}
[[links]]
between = ["c", "r"]
bandwidth = "100Mbps"
delay = "5ms"
[[links]]
between = ["r", "p"]
bandwidth = "10Mbps"
delay = "20ms"
queue = {{ discipline = "droptail", packets = 10 }}
{loss}
[[producers]]
node = "p"
prefix = "/p"
[[consumers]]
node = "c"
name = "/p"
segments = 4000
cc = {{ algorithm = "fixed-window", window = 80 }}
"#
    )
}

#[test]
fn every_interest_is_satisfied_nacked_timed_out_or_pending_and_every_timeout_is_a_named_drop() {
    for loss in ["", "loss = { model = \"bernoulli\", p = 0.01 }"] {
        let r = run(&lossy_line(loss));
        let c = &r.summary.consumers["c"];
        assert!(c.finished && c.pending == 0 && c.data_received == 4000, "{loss}: {c:?}");
        assert_eq!(c.interests_sent, c.data_received + c.timeouts + c.nacks + c.pending, "{loss}");
        let drops: u64 = r.summary.links.values().map(|l| l.drops + l.losses).sum();
        assert!(drops > 0, "the scenario must drop something to test anything");
        // A timeout is explained by a drop at a named queue, a loss on a named link, or a
        // retransmission that a forwarder suppressed (NFD's exponential retransmission
        // suppression reaches 250 ms, above the 200 ms minimum RTO, after repeated losses).
        let suppressed: u64 = r.summary.nodes.values().map(|n| n.pit_aggregated).sum();
        assert_eq!(c.timeouts, drops + suppressed, "{loss}: every timeout must have a cause");
        assert_eq!(c.retransmissions, c.timeouts);
    }
}

#[test]
fn same_scenario_and_seed_give_identical_results() {
    let text = lossy_line("loss = { model = \"gilbert-elliott\", p = 0.01, r = 0.3, loss_good = 0.0, loss_bad = 0.5 }");
    let a = run(&text);
    let b = run(&text);
    // Debug formatting compares NaN bins (no sample in a bin) as equal, unlike `==`.
    assert_eq!(format!("{a:?}"), format!("{b:?}"), "two runs of one scenario differ");
    let other = run(&text.replace("duration = \"20s\"", "duration = \"20s\"\nseed = 2"));
    assert_ne!(a.summary.links["r->p"].losses, other.summary.links["r->p"].losses, "the seed must matter");
}

#[test]
fn a_router_without_a_route_answers_nack_no_route_and_the_consumer_retries_on_its_timer() {
    // routing = "none" and one static route c -> r: r has no FIB entry for /p.
    let r = run(r#"
[simulation]
duration = "2.5s"
routing = "none"
[nodes]
c = {}
r = {}
p = {}
[[links]]
between = ["c", "r"]
bandwidth = "10Mbps"
delay = "5ms"
[[links]]
between = ["r", "p"]
bandwidth = "10Mbps"
delay = "5ms"
[[producers]]
node = "p"
prefix = "/p"
[[routes]]
node = "c"
prefix = "/p"
nexthop = "r"
[[consumers]]
node = "c"
name = "/p"
cc = { algorithm = "fixed-window", window = 1 }
"#);
    // Sent at 0 s, then at each 1 s RTO deadline (no RTT sample, so the initial RTO holds, and a
    // Nack does not back it off): 0, 1 and 2 s.
    let c = &r.summary.consumers["c"];
    assert_eq!((c.interests_sent, c.nacks, c.retransmissions, c.timeouts, c.data_received), (3, 3, 2, 0, 0));
    assert_eq!(r.summary.nodes["r"].no_route, 3);
    assert_eq!(r.summary.links["r->p"].packets, 0);
}

#[test]
fn scheduled_bandwidth_change_and_outage_show_in_the_goodput() {
    let base = one_link("10Mbps", "10ms", 100);
    let changed = format!("{base}\n[[events]]\nat = \"10s\"\nlink = [\"c\", \"p\"]\nbandwidth = \"5Mbps\"\n");
    let r = run(&changed);
    assert_within(goodput(&r, "c", 2.0, 10.0), 10e6 * 1024.0 / 1080.0, 0.01, "before the change");
    assert_within(goodput(&r, "c", 12.0, 20.0), 5e6 * 1024.0 / 1080.0, 0.01, "after the change");

    let outage = format!(
        "{base}\n[[events]]\nat = \"5s\"\nlink = [\"c\", \"p\"]\ndown = true\n[[events]]\nat = \"6s\"\nlink = [\"c\", \"p\"]\nup = true\n"
    );
    let r = run(&outage);
    // Nothing crosses a down link: the bins of the outage carry only packets already propagating.
    assert!(goodput(&r, "c", 5.1, 6.0) < 1.0, "goodput during the outage");
    assert!(r.summary.links["c->p"].drops + r.summary.links["p->c"].drops > 0);
    assert_within(goodput(&r, "c", 12.0, 20.0), 10e6 * 1024.0 / 1080.0, 0.01, "after recovery");
}

#[test]
fn a_scheduled_payload_change_shows_in_the_link_limited_goodput() {
    // Data /p/seg=N carries 56 bytes besides its payload (1080 - 1024, see the top of this file).
    let text = one_link("10Mbps", "10ms", 100)
        .replace("payload = 1024", "payload = 500\npayload_changes = [{ at = \"10s\", payload = 5000 }]");
    let r = run(&text);
    assert_within(goodput(&r, "c", 2.0, 10.0), 10e6 * 500.0 / 556.0, 0.01, "500-byte payloads");
    assert_within(goodput(&r, "c", 12.0, 20.0), 10e6 * 5000.0 / 5056.0, 0.01, "5000-byte payloads");
}

#[test]
fn traces_taken_mid_run_keep_their_rows_while_the_run_goes_on() {
    use ndnflow_core::Time;
    use ndnflow_sim::scenario::toml::parse_scenario;
    use ndnflow_sim::Simulation;

    // One link, two directions, 100 ms bins: 5 bins by 500 ms (10 link rows), 10 by 1 s (20).
    let scenario = parse_scenario(&one_link("10Mbps", "5ms", 4), "test.toml", None).expect("valid");
    let mut sim = Simulation::new(scenario);
    sim.run_until(Time::from_millis(500));
    let early = sim.traces();
    let early_links = format!("{:?}", early.log.links());
    assert_eq!(early.log.link_rows(), 10);
    sim.run_until(Time::from_millis(1000));
    // The engine's log is shared with `early` until its next bin, then copied: `early` is as it was.
    assert_eq!((early.log.link_rows(), format!("{:?}", early.log.links())), (10, early_links));
    let late = sim.traces();
    assert_eq!(late.log.link_rows(), 20);
    assert_eq!(late.log.links().bytes[..10], early.log.links().bytes[..], "the first 500 ms are the same rows");
}

#[test]
fn a_consumer_answered_on_its_own_node_ends_the_run_instead_of_hanging() {
    // The producer of the consumer's name on the consumer's own node answers each Interest at
    // the instant it is asked, and the consumer asks again at once: simulated time never moves.
    // The stall guard ends the run after ten million events and frames at one instant: the
    // consumer's wake at 0 s, then two frames per Data (its Interest to the forwarder, the
    // producer's Data back): 5,000,000 Data, kept in the results.
    let r = run(
        "[simulation]\nduration = \"1s\"\n[nodes]\np = {}\n[[producers]]\nnode = \"p\"\nprefix = \"/video\"\n\
                 [[consumers]]\nnode = \"p\"\nname = \"/video/a\"\ncc = { algorithm = \"fixed-window\", window = 1 }\n",
    );
    let stopped = r.summary.simulation.stopped.clone().expect("the run was stopped");
    assert!(stopped.contains("simulated time stopped advancing"), "{stopped}");
    assert_eq!(r.summary.simulation.end_s, 0.0);
    assert_eq!(r.summary.consumers["p"].data_received, 5_000_000);
}

#[test]
fn a_window_that_grows_at_one_instant_is_stopped_by_the_memory_watch_inside_the_event() {
    // As above, with AIMD (slow start: each Data adds one to the window, so two Interests follow
    // it) and with DPCCP (an RTT of 0 lets it send 65,536 Interests per call): the Interests
    // outstanding grow within one event, which the watch only looked between, until 2026-11-28
    // (2.3 GB, and 14 GB without end, under a 200 MB limit). It now looks while the node's local
    // queue drains, and ends the run in that event, within the first millisecond (DPCCP's pacing
    // moves time a few microseconds), with what it computed.
    for (nodes, cc) in
        [("p = {}", "{ algorithm = \"aimd\" }"), ("p = { ptp = true, dpccp = true }", "{ algorithm = \"dpccp\" }")]
    {
        let r = run(&format!(
            "[simulation]\nduration = \"1s\"\nmemory_limit = \"20MB\"\n[nodes]\n{nodes}\n[[producers]]\nnode = \"p\"\n\
             prefix = \"/video\"\n[[consumers]]\nnode = \"p\"\nname = \"/video/a\"\ncc = {cc}\n"
        ));
        let stopped = r.summary.simulation.stopped.clone().expect("the run was stopped");
        assert!(stopped.contains("above the memory limit of 19.1 MiB"), "{cc}: {stopped}");
        assert!(r.summary.simulation.end_s < 0.001, "{cc}: {}", r.summary.simulation.end_s);
    }
}
