//! NFD's send-queue congestion marker as a link option (`marking`, docs/protocols/queues.md "NFD
//! congestion marking"): the scenario forms and their errors, and an end-to-end run whose mark
//! instants are derived by hand, and one on a link with an MTU, where it marks fragments.
//!
//! The run: consumer c asks 1000 Interests/s (one every 1 ms from t = 0) of producer p over one
//! link; c->p is 100 Mbit/s, 1 ms, so Interest k reaches p at a + k ms with a = 1 ms plus ~2 us of
//! serialisation. Each of the first 256 Data (1000 B payload, segment number below 256) is
//! 1055 B on the wire (Name 8 + Content 1 + 3 + 1000 + SignatureInfo 5 + SignatureValue 34 =
//! 1051, plus type 1 and length 3), so at 4 Mbit/s p->c serialises one per 2.11 ms while one
//! arrives per ms. Data 0 leaves at once; when Data k arrives, floor(k / 2.11) + 1 have started,
//! so k - 1 - floor(k / 2.11) wait in the queue. NFD's threshold is min(65 536, capacity / 2) =
//! 65 536 B for a 10 MB queue: 62 x 1055 = 65 410 is not above it, 63 x 1055 = 66 465 is. 63
//! wait first at k = 120 (120 - 1 - 56); so the first
//! mark is at a + 120 ms, in the 1-ms bin starting at 121 ms, and the queue only grows afterwards.
//! Later marks fall on the first arrival at or after each scheduled instant: 100 ms after the
//! first, then + 100/sqrt(2), + 100/sqrt(3), ... ms (whole nanoseconds, truncated, as NFD).

use crate::common;

use common::run;
use ndnflow_core::Time;
use ndnflow_sim::scenario::model::{NfdMarkSpec, QueueLimit, QueueSpec};
use ndnflow_sim::scenario::toml::parse_scenario;
use ndnflow_sim::Results;

fn scenario(duration: &str, queue: &str, marking: &str) -> String {
    format!(
        r#"
[simulation]
duration = "{duration}"
bin = "1ms"
[nodes]
c = {{}}
p = {{}}
[[links]]
between = ["c", "p"]
bandwidth = "100Mbps"
delay = "1ms"
queue = {queue}
{marking}
reverse = {{ bandwidth = "4Mbps" }}
[[producers]]
node = "p"
prefix = "/p"
payload = 1000
[[consumers]]
node = "c"
name = "/p"
cc = {{ algorithm = "constant-rate", rate = 1000 }}
"#
    )
}

const BIG_QUEUE: &str = r#"{ discipline = "droptail", bytes = "10MB" }"#;

/// The 1-ms bins of direction `dir` that hold marks, with how many each holds.
fn marked_bins(r: &Results, dir: &str) -> Vec<(u64, u64)> {
    let l = &r.links;
    (0..l.time_s.len())
        .filter(|&i| r.link_names[l.dir[i] as usize].name == dir && l.marks[i] > 0)
        .map(|i| ((l.time_s[i] * 1000.0).round() as u64, l.marks[i]))
        .collect()
}

/// Offsets (ms) of the marks after the first for a queue above the threshold throughout and one
/// arrival per ms: each mark on the first whole millisecond at or after the schedule.
fn schedule_offsets(horizon_ms: u64) -> Vec<u64> {
    let (mut next, mut n, mut out) = (0u64, 0u32, Vec::new());
    for t in 0..=horizon_ms {
        let now = t * 1_000_000;
        let spaced = out.last().is_none_or(|&last: &u64| now >= last * 1_000_000 + 100_000_000);
        if (n > 0 && now >= next) || spaced {
            if n == 0 {
                next = now;
            }
            n += 1;
            next += (100_000_000f64 / (n as f64).sqrt()) as u64;
            out.push(t);
        }
    }
    out
}

#[test]
fn a_standing_queue_is_marked_from_121_ms_on_the_nfd_schedule() {
    let plain = run(&scenario("1.19s", BIG_QUEUE, ""));
    let d = &plain.summary.links["p->c"];
    assert_eq!((d.marks, d.drops), (0, 0));
    let r = run(&scenario("1.19s", BIG_QUEUE, r#"marking = "nfd""#));
    // Data arrive at 121.0016 + x ms; the last before the end (1190 ms) has x = 1068.
    let offsets = schedule_offsets(1068);
    assert_eq!(&offsets[..8], &[0, 100, 171, 229, 279, 324, 364, 402]);
    let expected: Vec<(u64, u64)> = offsets.iter().map(|&o| (121 + o, 1)).collect();
    assert_eq!(marked_bins(&r, "p->c"), expected);
    // 1068 ms of marking: 33 marks up to 995 ms after the first, then 1012 (17.4 ms later),
    // 1029, 1046, 1063 ms.
    assert_eq!(expected.len(), 37);
    assert_eq!(r.summary.links["p->c"].marks, 37);
    assert_eq!(r.summary.links["p->c"].drops, 0);
    // The Interest direction never queues: no marks, and its fast path leaves it idle.
    assert_eq!(r.summary.links["c->p"].marks, 0);
    // Marked Data are 13 B longer: LpPacket (1 + 3) { CongestionMark (3 + 1 + 1), Fragment
    // (1 + 3) { the Data } }. Data k starts on the wire about a + 2.11 k ms, so by 1190 ms those with k <= 562
    // have; the marked ones are k = 120 + offset, and the offsets up to 442 are the first nine
    // (438 is the ninth, 471 the tenth). The nine marks delay the later Data by 9 x 26 us only,
    // so both runs send the same Data.
    let m = &r.summary.links["p->c"];
    assert_eq!(m.packets, d.packets, "{m:?} {d:?}");
    assert_eq!(m.bytes, d.bytes + 9 * 13, "{m:?} {d:?}");
}

/// A packet-limited queue of 60 packets counts as 60 x 1500 = 90 000 B, threshold 45 000 B:
/// 42 x 1055 = 44 310 is not above it, 43 x 1055 = 45 365 is; 43 wait first at k = 82
/// (82 - 1 - 38): one mark in the 83-ms bin, and none in a 100-packet queue (threshold 65 536)
/// before 121 ms.
#[test]
fn a_packet_limited_queue_caps_the_threshold_at_half_of_packets_times_1500() {
    let small = run(&scenario("100ms", r#"{ discipline = "droptail", packets = 60 }"#, r#"marking = "nfd""#));
    assert_eq!(marked_bins(&small, "p->c"), [(83, 1)]);
    let ns3 = run(&scenario("120ms", r#"{ discipline = "droptail", packets = 100 }"#, r#"marking = "nfd""#));
    assert_eq!(ns3.summary.links["p->c"].marks, 0);
    let ns3 = run(&scenario("122ms", r#"{ discipline = "droptail", packets = 100 }"#, r#"marking = "nfd""#));
    assert_eq!(marked_bins(&ns3, "p->c"), [(121, 1)]);
}

/// A custom threshold: 10 000 B -> 9 x 1055 = 9 495 is not above it, 10 x 1055 = 10 550 is;
/// 10 wait first at k = 20 (20 - 1 - 9): the first mark in the 21-ms bin, the next at
/// + 10 ms (interval "10ms"), then + 10/sqrt(2) = 7.07 ms -> 39-ms bin.
#[test]
fn threshold_and_interval_are_taken_from_the_table() {
    let marking = r#"marking = { scheme = "nfd", threshold = 10000, interval = "10ms" }"#;
    let r = run(&scenario("40ms", BIG_QUEUE, marking));
    assert_eq!(marked_bins(&r, "p->c"), [(21, 1), (31, 1), (39, 1)]);
    // Marking only the reverse direction gives the same; only the forward one, none.
    let rev = marking.replace("marking = ", "").to_string();
    let r = run(&scenario("40ms", BIG_QUEUE, "").replace(
        r#"reverse = { bandwidth = "4Mbps" }"#,
        &format!(r#"reverse = {{ bandwidth = "4Mbps", marking = {rev} }}"#),
    ));
    assert_eq!(r.summary.links["p->c"].marks, 3);
    let r = run(&scenario("40ms", BIG_QUEUE, marking)
        .replace(r#"reverse = { bandwidth = "4Mbps" }"#, r#"reverse = { bandwidth = "4Mbps", marking = "none" }"#));
    assert_eq!(r.summary.links["p->c"].marks, 0);
}

/// With CoDel underneath the two are independent: the NFD marks at arrival add to CoDel's.
#[test]
fn nfd_marking_combines_with_a_codel_queue() {
    let codel = r#"{ discipline = "codel", mode = "mark", bytes = "10MB" }"#;
    let both = run(&scenario("1.2s", codel, r#"marking = "nfd""#));
    let only_codel = run(&scenario("1.2s", codel, ""));
    let (b, c) = (both.summary.links["p->c"].marks, only_codel.summary.links["p->c"].marks);
    assert!(c > 0, "CoDel marks a standing queue");
    assert_eq!(b, c + 37, "37 NFD marks (as on drop-tail) on top of CoDel's {c}");
}

/// NFD's marker on a link with `mtu = 1500`, which it checks fragment by fragment.
///
/// Sizes (docs/protocols/links.md "Fragmentation"): Data /p/seg=k, k < 256, with 2000 B of payload
/// is Name 8 + Content (1 + 3 + 2000) + SignatureInfo 5 + SignatureValue 34 = 2051, plus type 1 and
/// length 3: 2055 B, more than 1488 - 20, so it is fragmented. Fragment 0 carries 1488 - 50 = 1438
/// B and is 1438 + 24 = 1462 B (LpPacket 1 + 3, Sequence 10, FragIndex 3, FragCount 3, Fragment
/// 1 + 3); fragment 1 carries 2055 - 1438 = 617 B and is 641 B. 2103 B per Data, at 4 Mbit/s
/// (2 us per byte) 2.924 + 1.282 = 4.206 ms.
///
/// Threshold: a 16-packet queue on a 1500-byte MTU counts as 24 000 B, min(65 536, 12 000) =
/// 12 000 B. Data k reaches p at T0 + k ms (T0 = 1 ms + 1.6 us for the 20-byte Interest) and its
/// two fragments enter the queue at once; fragment 0 of Data m starts on the wire at T0 +
/// 4.206 m ms, fragment 1 at T0 + 4.206 m + 2.924 ms. Before Data k the queue holds
/// Q(k) = 2103 k - the bytes of the frames started by T0 + k ms; at most one frame starts per ms,
/// so Q never falls. Q(6) = 12 618 - 2 x 1462 - 641 = 9053 (starts at 0, 2.924, 4.206), so Data
/// 6's fragment 1 sees 9053 + 1462 = 10 515: not above. Q(7) = 14 721 - 3565 = 11 156 (the next
/// start is at 7.130): fragment 0 of Data 7 sees 11 156, not above; its fragment 1 sees 12 618,
/// above, and is the first mark: at T0 + 7 ms, in the 8-ms bin. The next may come 100 ms later;
/// by then the 10 segments asked for have all arrived, so it is the only mark.
///
/// The marked fragment grows by the 5-byte field (646 B) and starts at T0 + 32.366 ms (33-ms
/// bin); the 10 us it adds move no later frame across a millisecond. Data 7 reaches c when that
/// fragment has been serialised and propagated, T0 + 32.366 + 1.292 + 1 = 35.66 ms, and c counts it
/// marked although fragment 0 was not (a mark on any fragment marks the Data). The queue holds at
/// most 14 frames when Data 9's fragments arrive (18 - 5 started, +1), so none is dropped.
#[test]
fn on_a_fragmenting_link_the_second_fragment_of_data_7_is_marked_and_marks_the_data() {
    let text = |marking: &str| {
        let queue = r#"{ discipline = "droptail", packets = 16 }"#;
        scenario("100ms", queue, &format!("mtu = 1500\n{marking}"))
            .replace("payload = 1000", "payload = 2000")
            .replace("name = \"/p\"", "name = \"/p\"\nsegments = 10")
    };
    let (plain, r) = (run(&text("")), run(&text(r#"marking = "nfd""#)));
    let (d, m) = (&plain.summary.links["p->c"], &r.summary.links["p->c"]);
    assert_eq!((d.packets, d.bytes, d.data, d.drops, d.marks), (20, 10 * 2103, 10, 0, 0), "{d:?}");
    assert_eq!((m.packets, m.bytes, m.data, m.drops, m.marks), (20, 10 * 2103 + 5, 10, 0, 1), "{m:?}");
    assert_eq!(marked_bins(&r, "p->c"), [(8, 1)]);
    assert_eq!(r.summary.links["c->p"].marks, 0);
    // The 5 extra bytes are on the wire in the 33-ms bin (fragment 1 of Data 7); fragment 0 of
    // Data 7 starts in the 30-ms bin and is unchanged.
    let bytes = |res: &Results| -> Vec<(u64, u64)> {
        let l = &res.links;
        (0..l.time_s.len())
            .filter(|&i| res.link_names[l.dir[i] as usize].name == "p->c" && l.bytes[i] > 0)
            .map(|i| ((l.time_s[i] * 1000.0).round() as u64, l.bytes[i]))
            .collect()
    };
    let (before, after) = (bytes(&plain), bytes(&r));
    assert_eq!(before.len(), after.len());
    let grown: Vec<(u64, i64)> =
        before.iter().zip(&after).filter(|(b, a)| b != a).map(|(b, a)| (a.0, a.1 as i64 - b.1 as i64)).collect();
    assert_eq!(grown, [(33, 5)]);
    // The consumer gets all ten Data, one of them marked, in the 35-ms bin.
    let (pc, c) = (&plain.summary.consumers["c"], &r.summary.consumers["c"]);
    assert_eq!((pc.data_received, pc.marks), (10, 0));
    assert_eq!((c.data_received, c.marks), (10, 1));
    let rows = common::rows(&r, "c", 0.0, 0.1);
    let marked: Vec<u64> = rows
        .iter()
        .filter(|&&i| r.consumers.marks[i] > 0)
        .map(|&i| (r.consumers.time_s[i] * 1000.0).round() as u64)
        .collect();
    assert_eq!(marked, [35]);
}

// ------------------------------------------------------------------------------------ parsing

fn parse(marking: &str) -> Result<ndnflow_sim::scenario::model::Scenario, ndnflow_sim::scenario::toml::ScenarioError> {
    parse_scenario(&scenario("1s", BIG_QUEUE, marking), "m.toml", None)
}

#[test]
fn marking_forms_parse_to_the_model() {
    let nfd = NfdMarkSpec { threshold: 65_536, interval: Time::from_millis(100) };
    assert_eq!(NfdMarkSpec::default(), nfd);
    let s = parse("").unwrap();
    assert_eq!((s.links[0].ab.marking, s.links[0].ba.marking), (None, None));
    for line in [r#"marking = "nfd""#, r#"marking = { scheme = "nfd" }"#] {
        let s = parse(line).unwrap();
        assert_eq!((s.links[0].ab.marking, s.links[0].ba.marking), (Some(nfd), Some(nfd)), "{line}");
    }
    let s = parse(r#"marking = { scheme = "nfd", threshold = "64KiB", interval = "20ms" }"#).unwrap();
    let custom = NfdMarkSpec { threshold: 65_536, interval: Time::from_millis(20) };
    assert_eq!(s.links[0].ab.marking, Some(custom));
    let s = parse(r#"marking = { scheme = "nfd", threshold = 0 }"#).unwrap();
    assert_eq!(s.links[0].ab.marking.unwrap().threshold, 0);
    let s = parse("forward = { marking = \"nfd\" }").unwrap();
    assert_eq!((s.links[0].ab.marking, s.links[0].ba.marking), (Some(nfd), None));

    // The capacity the threshold is capped by: bytes as given, packets x MTU (1500 without one).
    let mut dir = s.links[0].ab.clone();
    assert_eq!(dir.send_queue_capacity(), 10_000_000);
    dir.queue = QueueSpec::DropTail { limit: QueueLimit::Packets(100) };
    assert_eq!(dir.send_queue_capacity(), 150_000);
    dir.mtu = Some(1000);
    assert_eq!(dir.send_queue_capacity(), 100_000);
}

#[test]
fn bad_marking_values_are_refused_with_file_line_and_field() {
    // The marking line is line 13 of the scenario text.
    for (line, field, message) in [
        (r#"marking = "codel""#, "links[0].marking", r#"unknown value "codel"; expected one of "nfd", "none""#),
        (r#"marking = true"#, "links[0].marking", "expected \"nfd\", \"none\", or a table"),
        (r#"marking = { threshold = "64KiB" }"#, "links[0].marking.scheme", "missing required field \"scheme\""),
        (r#"marking = { scheme = "pcon" }"#, "links[0].marking.scheme", "expected one of \"nfd\""),
        (r#"marking = { scheme = "nfd", threshold = "64Kb" }"#, "links[0].marking.threshold", "bits"),
        (r#"marking = { scheme = "nfd", threshold = -1 }"#, "links[0].marking.threshold", "must not be negative"),
        (r#"marking = { scheme = "nfd", interval = "0s" }"#, "links[0].marking.interval", "must be longer than 0"),
        (r#"marking = { scheme = "nfd", interval = 100 }"#, "links[0].marking.interval", "duration string"),
        (r#"marking = { scheme = "nfd", intervl = "1s" }"#, "links[0].marking.intervl", "did you mean \"interval\"?"),
        (r#"markng = "nfd""#, "links[0].markng", "did you mean \"marking\"?"),
    ] {
        let e = parse(line).unwrap_err();
        let shown = e.to_string();
        assert_eq!(e.field.as_deref(), Some(field), "{line}: {shown}");
        assert_eq!(e.line, Some(13), "{line}: {shown}");
        assert!(shown.starts_with("m.toml:13:"), "{shown}");
        assert!(e.message.contains(message), "{line}: {shown}");
    }
}
