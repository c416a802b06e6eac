//! MIRCC's router side end to end (docs/protocols/mircc.md), with ordinary constant-rate
//! consumers: the rates the links stamp reach the consumer over two routers as the smaller of
//! the two links', a link loaded below its target offers the target, an overloaded one falls to
//! R_min; the scenario keys and their errors; determinism.
//!
//! The line: consumer c - r1 - r2 - producer p, 1024-byte payloads (a Data of about 1,075 octets
//! on the wire, 8,600 bits), 1 ms links; the Data go p -> r2 -> r1 -> c.

use crate::common;

use ndnflow_core::link::MirccConfig;
use ndnflow_core::Time;
use ndnflow_sim::scenario::model::{QueueLimit, QueueSpec};
use ndnflow_sim::scenario::toml::parse_scenario;
use ndnflow_sim::trace::Summary;

const MIRCC: &str = "{ discipline = \"mircc\" }";
const PLAIN: &str = "{ discipline = \"droptail\" }";

/// The line with the p - r2 and r2 - r1 links at the bandwidths and queues given, routers with
/// `routers` as their node attributes, and a consumer sending `rate` Interests per second.
fn line(p_r2: (&str, &str), r2_r1: (&str, &str), routers: &str, rate: u32) -> String {
    let link = |a: &str, b: &str, (bandwidth, queue): (&str, &str)| {
        format!("[[links]]\nbetween = [{a:?}, {b:?}]\nbandwidth = {bandwidth:?}\ndelay = \"1ms\"\nqueue = {queue}\n")
    };
    let links = [link("p", "r2", p_r2), link("r2", "r1", r2_r1), link("r1", "c", ("100Mbps", PLAIN))].concat();
    format!(
        "[simulation]\nduration = \"5s\"\nseed = 1\n[nodes]\nc = {{}}\nr1 = {routers}\nr2 = {routers}\np = {{}}\n{links}\
         [[producers]]\nnode = \"p\"\nprefix = \"/data\"\npayload = 1024\n\
         [[consumers]]\nnode = \"c\"\nname = \"/data/obj\"\ncc = {{ algorithm = \"constant-rate\", rate = {rate} }}\n"
    )
}

/// (instant, (first-class rate, second-class rate)) of each Data reaching the consumer's node, as
/// it arrived there.
type Arrivals = Vec<(Time, (Option<u64>, Option<u64>))>;

fn run(text: &str) -> (Summary, Arrivals) {
    common::run_recording_app_data(text, "c", |lp_in, _| {
        lp_in.ext.as_deref().map_or((None, None), |e| (e.mircc_rate, e.mircc_rate2))
    })
}

#[test]
fn below_target_every_data_carries_the_smaller_of_two_links_targets() {
    // 500 Interests/s: about 4.3 Mbit/s of Data, below both targets. A Data finds the queue
    // empty (it leaves 0.86 ms after it came, the next comes 2 ms later), so at each update
    // q = 0 and y1 < eta C: the factor 1 + 0.01 (eta C - y1) / eta C is above 1 and both rates
    // stay at their starting eta C (y2 = 0 leaves R2 there too). eta C: 0.95 x 10 = 9.5 and
    // 0.95 x 8 = 7.6 Mbit/s. The consumer gets min(9.5, 7.6) = 7.6 whichever link comes first.
    for (p_r2, r2_r1) in [(("10Mbps", MIRCC), ("8Mbps", MIRCC)), (("8Mbps", MIRCC), ("10Mbps", MIRCC))] {
        let (summary, seen) = run(&line(p_r2, r2_r1, "{ mircc = true }", 500));
        assert!(seen.len() > 2_000, "{} Data", seen.len());
        assert!(seen.iter().all(|&(_, rates)| rates == (Some(7_600_000), Some(7_600_000))), "{:?}", seen[0]);
        for dir in ["p->r2", "r2->r1"] {
            let m = summary.links[dir].mircc.expect("a mircc direction reports its rates");
            assert_eq!(m.stamped, summary.links[dir].data, "{dir}: every Data it sent was stamped");
            // Updates are lazy: one per 10 ms interval closed by the last packet, about 500.
            assert!((490..=500).contains(&m.updates), "{dir}: {}", m.updates);
        }
        assert!(summary.links["r1->c"].mircc.is_none());
    }
}

#[test]
fn without_the_forwarder_extension_the_rates_end_at_the_first_router() {
    // r2 and r1 rebuild each Data's link header: what p -> r2 and r2 -> r1 stamped is gone.
    let (summary, seen) = run(&line(("10Mbps", MIRCC), ("8Mbps", MIRCC), "{}", 500));
    assert!(seen.len() > 2_000);
    assert!(seen.iter().all(|&(_, rates)| rates == (None, None)));
    assert_eq!(summary.links["r2->r1"].mircc.unwrap().stamped, summary.links["r2->r1"].data);
}

#[test]
fn an_overloaded_link_falls_to_r_min() {
    // 2,400 Interests/s: about 20.6 Mbit/s of Data offered to the 10 Mbit/s p -> r2. Its
    // queue fills to its 100 packets (about 860,000 bits, q/d = 8.6 Mbit/s), so R1's factor is
    // about 1 + 0.1 (0.1 (9.5 - 20.6) - 8.6) / 9.5 = 0.898 per interval: from 9.5 Mbit/s to
    // R_min = 0.001 x 9.5 Mbit/s = 9,500 bit/s in ln(1000) / 0.107 = 65 intervals, 0.65 s
    // after the queue fills; it stays there while the overload lasts. R2 (S2 = 0, y2 = 0) falls
    // by the queue term alone, 1 - 0.1 x 8.6 / 9.5 = 0.91 per interval, to the same floor.
    // The 100 Mbit/s r2 -> r1 is a plain queue: the stamp arrives as p -> r2 set it.
    let text = line(("10Mbps", MIRCC), ("100Mbps", PLAIN), "{ mircc = true }", 2_400);
    let (summary, seen) = run(&text);
    let late: Vec<_> = seen.iter().filter(|(t, _)| *t >= Time::from_secs(2)).collect();
    assert!(late.len() > 3_000, "{} Data after 2 s", late.len());
    assert!(late.iter().all(|&&(_, rates)| rates == (Some(9_500), Some(9_500))), "{:?}", late[0]);
    let m = summary.links["p->r2"].mircc.unwrap();
    assert_eq!((m.rate_bps, m.rate2_bps), (9_500, 9_500));
    assert!(summary.links["p->r2"].drops > 0, "the overload overflows the queue");
    // The first Data went out before any update: at eta C.
    assert_eq!(seen[0].1, (Some(9_500_000), Some(9_500_000)));
}

#[test]
fn the_same_scenario_twice_gives_the_same_rates() {
    let text = line(("10Mbps", MIRCC), ("8Mbps", MIRCC), "{ mircc = true }", 1_100);
    let (a, seen_a) = run(&text);
    let (b, seen_b) = run(&text);
    assert_eq!(a, b);
    assert_eq!(seen_a, seen_b);
    // 1,100 Interests/s is about 9.5 Mbit/s of Data: above the 8 Mbit/s link's 7.6, so the
    // stamps vary (not a trivially constant run).
    let distinct: std::collections::BTreeSet<_> = seen_a.iter().map(|&(_, (r1, _))| r1).collect();
    assert!(distinct.len() > 10, "{} distinct first-class rates", distinct.len());
}

#[test]
fn the_keys_parse_with_their_defaults_and_bad_values_are_named() {
    let parse = |queue: &str, routers: &str| {
        parse_scenario(&line(("10Mbps", queue), ("8Mbps", PLAIN), routers, 500), "t.toml", None)
            .map_err(|e| e.to_string())
    };
    let s = parse(MIRCC, "{ mircc = true }").unwrap();
    assert_eq!(
        s.links[0].ab.queue,
        QueueSpec::Mircc { limit: QueueLimit::Packets(100), mircc: MirccConfig::default() }
    );
    assert!(s.nodes[1].forwarder.mircc && !s.nodes[0].forwarder.mircc);
    let q = "{ discipline = \"mircc\", bytes = 50000, eta = 0.9, alpha = 0.4, beta = 0, interval = \"5ms\", rtt = \"50ms\" }";
    let want =
        MirccConfig { eta: 0.9, alpha: 0.4, beta: 0.0, interval: Time::from_millis(5), rtt: Time::from_millis(50) };
    assert_eq!(
        parse(q, "{}").unwrap().links[0].ba.queue,
        QueueSpec::Mircc { limit: QueueLimit::Bytes(50_000), mircc: want }
    );

    let mtu = "{ discipline = \"mircc\" }\nmtu = 1500";
    for (queue, routers, says) in [
        (
            "{ discipline = \"mircc\", eta = 1.2 }",
            "{}",
            "links[0].queue.eta: the target share of the bandwidth must be above 0 and at most 1, found 1.2",
        ),
        ("{ discipline = \"mircc\", eta = 0 }", "{}", "must be above 0 and at most 1, found 0"),
        ("{ discipline = \"mircc\", alpha = 0 }", "{}", "links[0].queue.alpha: a gain must be above 0, found 0"),
        ("{ discipline = \"mircc\", beta = -1 }", "{}", "links[0].queue.beta: a gain must be at least 0, found -1"),
        ("{ discipline = \"mircc\", interval = \"0s\" }", "{}", "links[0].queue.interval"),
        ("{ discipline = \"mircc\", rtt = 5 }", "{}", "links[0].queue.rtt"),
        ("{ discipline = \"rem\", eta = 0.9 }", "{}", "\"eta\" only applies to discipline = \"mircc\""),
        (MIRCC, "{ mircc = 1 }", "nodes.r1.mircc: expected true or false"),
        (mtu, "{}", "links[0].mtu: mtu (NDNLPv2 fragmentation) cannot be combined with queue discipline \"mircc\""),
    ] {
        let err = parse(queue, routers).unwrap_err();
        assert!(err.contains(says), "{queue} {routers}: {err}");
    }
}

#[test]
fn a_bandwidth_event_moves_the_target_of_the_links_rates() {
    // The 500 Interests/s of the first test (about 4.3 Mbit/s) keep p -> r2 below its target
    // before and after its bandwidth halves at 2 s: from eta x 10 = 9.5 Mbit/s to
    // eta x 5 = 4.75 Mbit/s, where the rates are clamped at the event. Data that left p before
    // 2 s reach c by 2.004 s (three 1 ms links, three transmissions under 1 ms each).
    let event = "[[events]]\nat = \"2s\"\nlink = [\"p\", \"r2\"]\nbandwidth = \"5Mbps\"\n";
    let text = line(("10Mbps", MIRCC), ("100Mbps", PLAIN), "{ mircc = true }", 500) + event;
    let (summary, seen) = run(&text);
    let rate = |from: f64, to: f64| -> std::collections::BTreeSet<_> {
        let inside = |t: Time| (from..to).contains(&t.as_secs_f64());
        seen.iter().filter(|(t, _)| inside(*t)).map(|&(_, rates)| rates).collect()
    };
    let before = Some(9_500_000);
    let after = Some(4_750_000);
    assert_eq!(rate(0.0, 2.0), [(before, before)].into());
    assert_eq!(rate(2.004, 5.0), [(after, after)].into());
    let m = summary.links["p->r2"].mircc.unwrap();
    assert_eq!((m.rate_bps, m.rate2_bps), (4_750_000, 4_750_000));
}
