use std::path::Path;

use super::*;
use crate::build::build;
use crate::scenario::toml::{load_scenario, parse_scenario};

/// c - r - p; r - p's Data direction (p->r) tunnels through 8 and 4 Mbit/s hops, and r - q ties
/// its 4 Mbit/s with a 4 Mbit/s hop. Producers /video (p), /vid (q), /video/a (q); c runs two
/// consumers, r one.
const TEXT: &str = r#"
[simulation]
duration = "1s"

[nodes]
c = {}
r = {}
p = {}
q = {}

[[links]]
between = ["c", "r"]
bandwidth = "1.5Mbps"
delay = "5ms"

[[links]]
between = ["r", "p"]
bandwidth = "10Mbps"
delay = "2ms"
reverse = { underlay = [{ bandwidth = "8Mbps", delay = "1ms" }, { bandwidth = "4Mbps", delay = "3ms" }] }

[[links]]
between = ["q", "r"]
bandwidth = "4Mbps"
delay = "1ms"
forward = { underlay = [{ bandwidth = "4Mbps", delay = "1ms" }] }

[[producers]]
node = "p"
prefix = "/video"

[[producers]]
node = "q"
prefix = "/vid"

[[producers]]
node = "q"
prefix = "/video/a"

[[consumers]]
node = "c"
name = "/video/a/x"
cc = { algorithm = "fixed-window", window = 1 }

[[consumers]]
node = "r"
name = "/vid/1"
cc = { algorithm = "fixed-window", window = 1 }

[[consumers]]
node = "c"
name = "/video/b"
cc = { algorithm = "fixed-window", window = 1 }
"#;

fn network() -> FlowNetwork {
    flow_network(&parse_scenario(TEXT, "t.toml", None).unwrap())
}

fn hop(name: &str, bandwidth_bps: u64, delay_ns: u64) -> FlowHop {
    FlowHop { name: name.to_string(), bandwidth_bps, delay_ns }
}

#[test]
fn directions_carry_the_parsed_rates_and_delays_with_their_underlay() {
    let n = network();
    let names: Vec<(&str, &str)> = n.directions.iter().map(|d| (d.src.as_str(), d.dst.as_str())).collect();
    assert_eq!(names, [("c", "r"), ("r", "c"), ("r", "p"), ("p", "r"), ("q", "r"), ("r", "q")]);
    // "1.5Mbps" = 1 500 000 bit/s exactly; 5 ms = 5 000 000 ns.
    assert_eq!(n.directions[1].chain, [hop("r->c", 1_500_000, 5_000_000)]);
    // p->r is the reverse of links[1]: 10 Mbit/s, then its two underlay hops in order.
    assert_eq!(
        n.directions[3].chain,
        [
            hop("p->r", 10_000_000, 2_000_000),
            hop("p->r/u1", 8_000_000, 1_000_000),
            hop("p->r/u2", 4_000_000, 3_000_000)
        ]
    );
    assert_eq!(n.directions[3].link, 1);
    assert_eq!(n.directions[2].chain, [hop("r->p", 10_000_000, 2_000_000)]);
}

#[test]
fn the_bottleneck_is_the_first_slowest_element_of_the_chain() {
    let n = network();
    // min(10, 8, 4) Mbit/s: the second underlay hop.
    assert_eq!(n.directions[3].bottleneck().name, "p->r/u2");
    // q->r at 4 Mbit/s over a 4 Mbit/s hop: a tie, which the NDN direction itself wins.
    assert_eq!(n.directions[4].bottleneck().name, "q->r");
}

#[test]
fn consumers_get_the_ids_of_results_and_every_producer_whose_prefix_covers_the_name() {
    let n = network();
    let ids: Vec<&str> = n.consumers.iter().map(|c| c.id.as_str()).collect();
    assert_eq!(ids, ["c#0", "r", "c#1"]);
    // /video/a/x: /video (0) and /video/a (2); /vid is not a component prefix of it.
    assert_eq!(n.consumers[0].producers, [0, 2]);
    assert_eq!(n.consumers[1].producers, [1]);
    // /video/b: only /video (/video/a is not a prefix of /video/b).
    assert_eq!(n.consumers[2].producers, [0]);
    assert_eq!((n.consumers[0].node.as_str(), n.consumers[0].name.as_str()), ("c", "/video/a/x"));
    assert_eq!((n.producers[2].node.as_str(), n.producers[2].prefix.as_str()), ("q", "/video/a"));
}

#[test]
fn names_are_those_of_the_simulator() {
    let s = parse_scenario(TEXT, "t.toml", None).unwrap();
    let built = build(&s);
    let flow = flow_network(&s);
    let flat: Vec<&str> = flow.directions.iter().flat_map(|d| d.chain.iter().map(|h| h.name.as_str())).collect();
    let simulated: Vec<&str> = built.dir_names.iter().map(|d| d.name.as_str()).collect();
    assert_eq!(flat, simulated);
    let ids: Vec<&str> = flow.consumers.iter().map(|c| c.id.as_str()).collect();
    assert_eq!(ids, built.consumer_ids);
}

#[test]
fn a_topology_file_contributes_its_routers_and_links() {
    let examples = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples");
    let n = flow_network(&load_scenario(&examples.join("grid.toml")).unwrap());
    // topo-grid-3x3.txt: 9 routers, 12 links of 1 Mbit/s and 10 ms -> 24 directions.
    assert_eq!(n.nodes.len(), 9);
    assert_eq!(n.directions.len(), 24);
    assert!(n.directions.iter().all(|d| d.chain == [hop(&d.chain[0].name, 1_000_000, 10_000_000)]));
    assert_eq!(n.directions[0].chain[0].name, "Node0->Node1");
    assert_eq!((n.consumers[0].id.as_str(), n.consumers[0].producers.as_slice()), ("Node0", &[0][..]));
}
