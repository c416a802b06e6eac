//! The scenario readers never panic: random text, and the quick-start and a topology file with
//! random edits, all give a scenario or an error whose message names the source.

use std::path::Path;

use ndnflow_sim::scenario::ndnsim::{parse_ndnsim_topology, topology_to_toml};
use ndnflow_sim::scenario::toml::parse_scenario;
use ndnflow_sim::scenario::units::{parse_bandwidth, parse_duration, parse_size};
use proptest::prelude::*;

fn quickstart() -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/quickstart.toml");
    std::fs::read_to_string(path).unwrap()
}

fn grid() -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/topo-grid-3x3.txt");
    std::fs::read_to_string(path).unwrap()
}

/// Values that tend to hit edge cases when dropped in place of a TOML value or a column.
const NASTY: &[&str] = &[
    "-1",
    "0",
    "nan",
    "inf",
    "-inf",
    "1e400",
    "99999999999999999999999",
    "0x7fffffffffffffff",
    "\"\"",
    "[]",
    "{}",
    "[[]]",
    "true",
    "\"10Mbps\"",
    "\"-5ms\"",
    "\"0\"",
    "\"µs\"",
    "\"1.5\"",
    "\"/\"",
    "\"r\"",
    "[\"r\", \"r\"]",
    "{ discipline = \"codel\" }",
    "\"ns3::DropTailQueue,MaxPackets=\"",
    "1979-05-27",
    "'''x'''",
    "\"\\u00e9\"",
    "# c",
    "router",
    "link",
    "é",
    "\t",
    "ns3::RateErrorModel,ErrorRate=2",
    "0.000000001ns",
];

/// Applies one edit, chosen by `kind`, at a position chosen by `at`, inserting `piece`.
fn mutate(text: &str, kind: u8, at: usize, len: usize, piece: &str) -> String {
    let chars: Vec<char> = text.chars().collect();
    let i = at % (chars.len() + 1);
    let j = (i + len).min(chars.len());
    let mut out: String;
    match kind % 5 {
        // delete a range
        0 => {
            out = chars[..i].iter().collect();
            out.extend(&chars[j..]);
        }
        // insert
        1 => {
            out = chars[..i].iter().collect();
            out.push_str(piece);
            out.extend(&chars[i..]);
        }
        // replace a range
        2 => {
            out = chars[..i].iter().collect();
            out.push_str(piece);
            out.extend(&chars[j..]);
        }
        // replace the value of one `key = value` line
        3 => {
            let lines: Vec<&str> = text.lines().collect();
            let k = at % lines.len().max(1);
            out = String::new();
            for (n, line) in lines.iter().enumerate() {
                match line.split_once('=') {
                    Some((key, _)) if n == k => out.push_str(&format!("{key}= {piece}")),
                    _ => out.push_str(line),
                }
                out.push('\n');
            }
        }
        // drop or duplicate a line
        _ => {
            let lines: Vec<&str> = text.lines().collect();
            let k = at % lines.len().max(1);
            out = String::new();
            for (n, line) in lines.iter().enumerate() {
                if n != k || len & 1 == 0 {
                    out.push_str(line);
                    out.push('\n');
                }
                if n == k && len & 1 == 0 {
                    out.push_str(line);
                    out.push('\n');
                }
            }
        }
    }
    out
}

fn piece() -> impl Strategy<Value = String> {
    prop_oneof![
        prop::sample::select(NASTY).prop_map(str::to_string),
        "[ -~]{0,12}",
        any::<String>().prop_map(|s| s.chars().take(8).collect()),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, ..ProptestConfig::default() })]

    #[test]
    fn random_text_never_panics(text in any::<String>()) {
        if let Err(e) = parse_scenario(&text, "fuzz.toml", None) {
            prop_assert!(e.to_string().starts_with("fuzz.toml"));
        }
        if let Err(e) = parse_ndnsim_topology(&text, "fuzz.txt") {
            prop_assert!(e.to_string().starts_with("fuzz.txt"));
        }
        let _ = (parse_duration(&text), parse_bandwidth(&text), parse_size(&text));
    }

    #[test]
    fn mutated_quickstart_never_panics(
        edits in prop::collection::vec((any::<u8>(), any::<usize>(), 0usize..40, piece()), 1..4)
    ) {
        let mut text = quickstart();
        for (kind, at, len, p) in &edits {
            text = mutate(&text, *kind, *at, *len, p);
        }
        match parse_scenario(&text, "q.toml", None) {
            Ok(s) => prop_assert!(!s.nodes.is_empty() || s.links.is_empty()),
            Err(e) => {
                let shown = e.to_string();
                prop_assert!(shown.starts_with("q.toml"));
                prop_assert!(!e.message.is_empty());
                if let Some(line) = e.line {
                    prop_assert!(line >= 1 && line <= text.lines().count() + 1, "{shown}");
                }
            }
        }
    }

    #[test]
    fn mutated_topology_never_panics(
        edits in prop::collection::vec((any::<u8>(), any::<usize>(), 0usize..40, piece()), 1..4)
    ) {
        let mut text = grid();
        for (kind, at, len, p) in &edits {
            text = mutate(&text, *kind, *at, *len, p);
        }
        match parse_ndnsim_topology(&text, "g.txt") {
            // Whatever imports also converts, and the conversion is valid TOML for our reader.
            Ok(t) => {
                let toml = format!("[simulation]\nduration = \"1s\"\n{}", topology_to_toml(&t));
                if let Err(e) = parse_scenario(&toml, "c.toml", None) {
                    // Only a link without bandwidth may fail to convert.
                    prop_assert!(e.message.contains("bandwidth"), "{e}\n{toml}");
                }
            }
            Err(e) => {
                prop_assert!(e.to_string().starts_with("g.txt"));
                if let Some(line) = e.line {
                    prop_assert!(line >= 1 && line <= text.lines().count() + 1);
                }
            }
        }
    }
}
