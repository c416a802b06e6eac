//! SMIC's router side end to end (docs/protocols/smic.md) on the diamond c - r - {a, b} - p of
//! `common::ptp_tree` (static routes, r's two next hops a and b at equal cost), with `smic = true`
//! on every node and an ordinary fixed-window consumer. There is no SMIC consumer yet (it comes
//! with issue 20's consumer side), so a test-only extension on the consumer's node writes path
//! ids 0, 1, ..., 10, 0, 1, ... into the Interests it sends.
//!
//! r's faces are made in link order: c - r, r - a, r - b, so a's face has the lower id and is
//! index 0 of the candidates, b index 1. By the hash (fw/ext/smic_tests.rs, the parity of
//! mix64(path id)): path ids 2, 4, 5, 6, 8, 9, 10 take index 0 (a), 0, 1, 3, 7 index 1 (b).

use crate::common;

use std::any::Any;

use ndnflow_core::fw::ext::{PathHash, SmicConfig};
use ndnflow_core::fw::ForwarderExtension;
use ndnflow_core::packet::LpHeader;
use ndnflow_core::table::FaceId;
use ndnflow_core::Time;
use ndnflow_sim::scenario::toml::parse_scenario;
use ndnflow_sim::trace::Summary;

/// Path ids with an even mix64, index 0 of two next hops (the table in fw/ext/smic_tests.rs).
const INDEX_0: [u64; 7] = [2, 4, 5, 6, 8, 9, 10];

/// Test-only stand-in for a SMIC consumer: every Interest leaving its node gets the next path id
/// of 0..=10, round robin.
struct RoundRobinPathIds {
    next: u64,
}

impl ForwarderExtension for RoundRobinPathIds {
    fn name(&self) -> &'static str {
        "test-path-ids"
    }

    fn as_any(&self) -> &dyn Any {
        self
    }

    fn outgoing_interest(&mut self, _face: FaceId, lp_out: &mut LpHeader) {
        lp_out.ext_mut().path_id = Some(self.next);
        self.next = (self.next + 1) % 11;
    }
}

fn diamond(node: &str) -> String {
    common::ptp_tree(|_| node.to_string(), "{}", "{ algorithm = \"fixed-window\", window = 8 }", "2s")
}

/// Runs the diamond with `node` as every node's table; the summary and the trajectory id of each
/// Data reaching c, as it arrived from r.
fn run(node: &str) -> (Summary, Vec<(Time, Option<u64>)>) {
    let writer: Box<dyn ForwarderExtension> = Box::new(RoundRobinPathIds { next: 0 });
    common::run_recording_app_data_with(&diamond(node), "c", |lp_in, _| lp_in.trajectory_id(), vec![("c", writer)])
}

#[test]
fn path_ids_split_the_interests_over_a_and_b_as_the_hash_says() {
    let (summary, seen) = run("{ smic = true }");
    let sent = summary.links["c->r"].interests;
    // About 8 Interests per 40 ms round trip over 2 s: hundreds, none lost (no queue fills).
    assert!(sent > 300, "{sent} Interests");
    assert_eq!(summary.links["c->r"].drops + summary.links["r->a"].drops + summary.links["r->b"].drops, 0);
    // r forwarded the first n Interests c sent (a link delivers in order; those still on the wire
    // at the end, at most a window of 8, did not arrive), and the k-th carries path id k mod 11.
    let n = summary.links["r->a"].interests + summary.links["r->b"].interests;
    assert!(n <= sent && n + 8 >= sent, "r forwarded {n} of {sent}");
    let to_a = (0..n).filter(|k| INDEX_0.contains(&(k % 11))).count() as u64;
    assert_eq!(summary.links["r->a"].interests, to_a);
    // Close to 7 of 11 (the last round of 11 may be cut short).
    assert!((to_a as f64 / n as f64 - 7.0 / 11.0).abs() < 0.01, "{to_a} of {n}");

    // Two routes, two trajectory ids; each id as often as Data came over its route.
    let mut ids = std::collections::BTreeMap::<u64, u64>::new();
    for (_, id) in &seen {
        *ids.entry(id.expect("every Data carries a trajectory id")).or_default() += 1;
    }
    assert_eq!(ids.len(), 2, "{ids:?}");
    // a's route carries 7 of 11, the larger count; Data still on r -> c at the end (at most a
    // window of 8) were sent but not seen.
    let mut counts: Vec<u64> = ids.values().copied().collect();
    counts.sort_unstable();
    let (over_b, over_a) = (counts[0], counts[1]);
    for (seen, route) in [(over_a, "a->r"), (over_b, "b->r")] {
        let sent = summary.links[route].data;
        assert!(seen <= sent && seen + 8 >= sent, "{route}: {seen} Data seen at c, {sent} sent");
    }
}

#[test]
fn without_smic_the_strategy_sends_everything_one_way_and_no_trajectory_comes_back() {
    let (summary, seen) = run("{}");
    // Best-route: the first next hop in (cost, face id) order, a; the path ids are ignored.
    assert_eq!(summary.links["r->b"].interests, 0);
    assert_eq!(summary.links["r->a"].interests, summary.links["c->r"].interests);
    assert!(!seen.is_empty() && seen.iter().all(|(_, id)| id.is_none()));
}

#[test]
fn the_same_scenario_twice_gives_the_same_trajectories() {
    let (a, seen_a) = run("{ smic = { hash = \"salted\" } }");
    let (b, seen_b) = run("{ smic = { hash = \"salted\" } }");
    assert_eq!(a, b);
    assert_eq!(seen_a, seen_b);
}

#[test]
fn the_keys_parse_with_their_defaults_and_bad_values_are_named() {
    let parse = |node: &str| parse_scenario(&diamond(node), "t.toml", None).map_err(|e| e.to_string());
    let smic = |node: &str| parse(node).unwrap().nodes[1].forwarder.smic;
    assert_eq!(smic("{ smic = true }"), Some(SmicConfig { hash: PathHash::Paper }));
    assert_eq!(smic("{ smic = { hash = \"paper\" } }"), Some(SmicConfig { hash: PathHash::Paper }));
    assert_eq!(smic("{ smic = { hash = \"salted\" } }"), Some(SmicConfig { hash: PathHash::Salted }));
    assert_eq!(smic("{ smic = {} }"), Some(SmicConfig::default()));
    assert_eq!(smic("{ smic = false }"), None);
    assert_eq!(smic("{}"), None);
    for (node, says) in [
        ("{ smic = 1 }", "nodes.c.smic: expected true, false or a table such as { hash = \"salted\" }"),
        ("{ smic = { hash = \"md5\" } }", "nodes.c.smic.hash"),
        ("{ smic = { salt = 3 } }", "nodes.c.smic"),
    ] {
        let err = parse(node).unwrap_err();
        assert!(err.contains(says), "{node}: {err}");
    }
}
