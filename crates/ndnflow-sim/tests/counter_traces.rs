//! `[trace] faces` and `nodes` (ndnSIM's L3RateTracer and CsTracer; docs/protocols/links.md,
//! "Traces"): every count of a small scenario derived by hand, and the traces off by default.

use crate::common;

use ndnflow_sim::scenario::toml::parse_scenario;
use ndnflow_sim::{Results, Simulation};

/// c1 - r - p and c2 - r, 10 Mbit/s and 10 ms each way; a Content Store on r. c1 fetches the ten
/// segments of /p/o from 0 s with a window of 4; c2 fetches the same ten from 1 s, when c1 has
/// long finished (its last Data is back after about 0.1 s: three windows of 40 ms round trips).
const CHAIN: &str = r#"
[simulation]
duration = "3s"
bin = "500ms"
[nodes]
c1 = {}
c2 = {}
p = {}
r = { cs = { capacity = 100 } }
[[links]]
between = ["c1", "r"]
bandwidth = "10Mbps"
delay = "10ms"
[[links]]
between = ["r", "p"]
bandwidth = "10Mbps"
delay = "10ms"
[[links]]
between = ["c2", "r"]
bandwidth = "10Mbps"
delay = "10ms"
[[producers]]
node = "p"
prefix = "/p"
payload = 100
[[consumers]]
node = "c1"
name = "/p/o"
segments = 10
cc = { algorithm = "fixed-window", window = 4 }
[[consumers]]
node = "c2"
name = "/p/o"
start = "1s"
segments = 10
cc = { algorithm = "fixed-window", window = 4 }
"#;

fn run(text: &str) -> Results {
    Simulation::new(parse_scenario(text, "chain.toml", None).unwrap_or_else(|e| panic!("{e}"))).run()
}

fn traced() -> Results {
    run(&format!("{CHAIN}[trace]\nfaces = true\nnodes = true\n"))
}

/// The face of `node` towards `face` ("app" or a neighbour): its index in the face table.
fn face(r: &Results, node: &str, face: &str) -> u32 {
    let i = r.face_names.iter().position(|f| f.node == node && f.face == face);
    i.unwrap_or_else(|| panic!("no face {node}/{face} in {:?}", r.face_names)) as u32
}

/// Over the run, a face's (in Interests, out Interests, in Data, out Data, satisfied, timed out).
fn face_totals(r: &Results, node: &str, name: &str) -> [u64; 6] {
    let code = face(r, node, name);
    let f = &r.faces;
    let sum = |column: &[u64]| f.face.iter().zip(column).filter(|(c, _)| **c == code).map(|(_, v)| v).sum();
    [
        sum(&f.packets.in_interests),
        sum(&f.packets.out_interests),
        sum(&f.packets.in_data),
        sum(&f.packets.out_data),
        sum(&f.satisfied),
        sum(&f.timed_out),
    ]
}

#[test]
fn every_face_counts_what_crossed_it() {
    let r = traced();
    // c1's ten Interests go app -> c1 -> r -> p -> producer and their Data back, one each way
    // per hop: a face that receives an Interest sends its Data, and the Interest's in-record
    // there is satisfied once. c2's ten are answered by r's store: they never reach p.
    let fetch_by_app = [10, 0, 0, 10, 10, 0]; // the application's face at a consumer's node
    let towards_data = [0, 10, 10, 0, 0, 0]; // the face Interests leave on and Data come back over
    let towards_consumer = [10, 0, 0, 10, 10, 0]; // the face Interests arrive on
    assert_eq!(face_totals(&r, "c1", "app"), fetch_by_app);
    assert_eq!(face_totals(&r, "c1", "r"), towards_data);
    assert_eq!(face_totals(&r, "c2", "app"), fetch_by_app);
    assert_eq!(face_totals(&r, "c2", "r"), towards_data);
    assert_eq!(face_totals(&r, "r", "c1"), towards_consumer);
    // Satisfied from the store: each CS hit counts on the face its Interest came from.
    assert_eq!(face_totals(&r, "r", "c2"), towards_consumer);
    assert_eq!(face_totals(&r, "r", "p"), towards_data, "only c1's Interests go upstream");
    assert_eq!(face_totals(&r, "p", "r"), towards_consumer);
    assert_eq!(face_totals(&r, "p", "app"), [0, 10, 10, 0, 0, 0], "the producer answers ten Interests");
}

#[test]
fn the_store_on_r_hits_for_the_second_consumer() {
    let r = traced();
    let n = &r.nodes;
    let at = |node: &str| r.node_names.iter().position(|x| x == node).unwrap() as u32;
    let rows = |node: &str| {
        let code = at(node);
        (0..n.node.len()).filter(move |&i| n.node[i] == code)
    };
    // Bins of 0.5 s: c1's traffic is all in [0, 0.5), c2's in the last bin, from 1 s (the run ends
    // when c2 has its tenth Data, at about 1.1 s), nothing in [0.5, 1).
    let by_bin: Vec<(f64, u64, u64, u64)> =
        rows("r").map(|i| (n.time_s[i], n.cs_hits[i], n.cs_misses[i], n.forwarded[i])).collect();
    assert_eq!(by_bin, [(0.0, 0, 10, 10), (0.5, 0, 0, 0), (1.0, 10, 0, 0)]);
    // Ten Data stored by r; none at the consumers' nodes or p, which have no store.
    let last = rows("r").next_back().unwrap();
    assert_eq!(n.cs_entries[last], 10);
    // A Data's payload is 100 bytes; a store weighs a Data by its payload alone.
    assert_eq!(n.cs_bytes[last], 10 * 100);
    assert_eq!(n.pit_entries[last], 0, "every Interest was answered");
    for node in ["c1", "c2", "p"] {
        assert!(rows(node).all(|i| n.cs_hits[i] + n.cs_misses[i] + n.cs_entries[i] == 0), "{node}");
    }
}

#[test]
fn bytes_sent_on_a_face_are_those_received_at_the_other_end() {
    let r = traced();
    let f = &r.faces;
    let total = |code: u32, column: &[u64]| -> u64 {
        f.face.iter().zip(column).filter(|(c, _)| **c == code).map(|(_, v)| v).sum()
    };
    for (a, b) in [("c1", "r"), ("r", "p"), ("c2", "r")] {
        let (ab, ba) = (face(&r, a, b), face(&r, b, a));
        assert_eq!(total(ab, &f.out_bytes), total(ba, &f.in_bytes), "{a} -> {b}");
        assert_eq!(total(ba, &f.out_bytes), total(ab, &f.in_bytes), "{b} -> {a}");
        assert!(total(ab, &f.out_bytes) > 0);
    }
}

#[test]
fn faces_are_named_by_neighbour_and_application() {
    let r = traced();
    let at_r: Vec<(&str, &str)> =
        r.face_names.iter().filter(|f| f.node == "r").map(|f| (f.face.as_str(), f.kind)).collect();
    // In the order of the links in the file.
    assert_eq!(at_r, [("c1", "link"), ("p", "link"), ("c2", "link")]);
    // A node with two applications numbers them: producers first, then consumers.
    let two = CHAIN.replace("[[consumers]]\nnode = \"c2\"", "[[consumers]]\nnode = \"p\"");
    let r = run(&format!("{two}[trace]\nfaces = true\n"));
    let at_p: Vec<&str> = r.face_names.iter().filter(|f| f.node == "p").map(|f| f.face.as_str()).collect();
    assert_eq!(at_p, ["r", "app#0", "app#1"]);
}

#[test]
fn the_traces_are_off_by_default_and_change_nothing_else() {
    let (plain, traced) = (run(CHAIN), traced());
    assert!(plain.faces.time_s.is_empty() && plain.nodes.time_s.is_empty());
    assert_eq!(plain.summary, traced.summary);
    // Compared as text: NaN (a bin without samples) is not equal to itself.
    assert_eq!(format!("{:?}", plain.links), format!("{:?}", traced.links));
    assert_eq!(format!("{:?}", plain.consumers), format!("{:?}", traced.consumers));
    // Three bins, a row per face (two per link, one per application: 3 x 2 + 3 = 9) and per node.
    assert_eq!(traced.faces.time_s.len(), 3 * 9);
    assert_eq!(traced.nodes.time_s.len(), 3 * 4);
}

#[test]
fn an_unknown_trace_key_is_named() {
    let e = common::parse(&format!("{CHAIN}[trace]\nfaces = true\nface = true\n")).unwrap_err().to_string();
    assert!(e.contains("trace.face") && e.contains("unknown field \"face\""), "{e}");
    let e = common::parse(&format!("{CHAIN}[trace]\nnodes = 1\n")).unwrap_err().to_string();
    assert!(e.contains("trace.nodes"), "{e}");
}
