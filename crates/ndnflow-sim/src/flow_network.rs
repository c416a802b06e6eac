//! The network of a scenario as a flow problem: link directions with their capacities, the
//! producers able to serve each consumer, and the ids results give consumers. It is what the Python
//! front's `ndnflow.optimum.max_flow` needs for PTP §6's "utilization = measured throughput / max
//! flow", read from the one scenario reader there is, so the optimum and the run cannot disagree on
//! a bandwidth, a name or a topology file.
//!
//! Only what the run starts with is described: bandwidths at time 0, no queues, no loss, no routes,
//! no `[[events]]`. The optimum is what those mechanisms are judged against.

use crate::build::{consumer_ids, direction_name, underlay_name};
use crate::scenario::model::{LinkDirSpec, Scenario};

/// The flow view of a whole scenario.
#[derive(Clone, Debug, PartialEq)]
pub struct FlowNetwork {
    /// Node names, in the order the scenario defines them (topology file first).
    pub nodes: Vec<String>,
    /// Every link direction, in the order results list them: per link a->b, then b->a.
    pub directions: Vec<FlowDirection>,
    pub producers: Vec<FlowProducer>,
    /// One per `[[consumers]]` entry, in file order.
    pub consumers: Vec<FlowConsumer>,
}

/// One link direction and what its Data cross one after the other.
#[derive(Clone, Debug, PartialEq)]
pub struct FlowDirection {
    /// Index into `Scenario::links`.
    pub link: usize,
    pub src: String,
    pub dst: String,
    /// The NDN direction itself first ("a->b"), then its underlay hops ("a->b/u1", ...): a frame
    /// crosses them in this order, so the chain carries what its slowest element carries.
    pub chain: Vec<FlowHop>,
}

/// One element of a direction's chain, named as the results name it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FlowHop {
    pub name: String,
    /// The exact rate the simulator serialises at, bit/s.
    pub bandwidth_bps: u64,
    /// Propagation delay, ns.
    pub delay_ns: u64,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FlowProducer {
    pub node: String,
    /// The prefix as an NDN URI, as the scenario reader normalised it.
    pub prefix: String,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FlowConsumer {
    /// The id results use ("c", or "c#k" when node c runs several consumers).
    pub id: String,
    pub node: String,
    pub name: String,
    /// Indices into `FlowNetwork::producers` of the producers whose prefix is a prefix of the
    /// name, component by component. A producer answers any Interest under its prefix, so every
    /// one of them can serve the consumer once some path leads there; the FIB's longest-prefix
    /// choice is a routing decision, which the optimum does not take (see the module comment).
    pub producers: Vec<usize>,
}

impl FlowDirection {
    /// The chain's narrowest element: the first of the slowest, so the NDN direction wins a tie
    /// with its own underlay.
    pub fn bottleneck(&self) -> &FlowHop {
        self.chain.iter().min_by_key(|h| h.bandwidth_bps).expect("a chain starts with its direction")
    }
}

/// The flow view of `s`, named exactly as `build` names the simulator's directions and consumers.
pub fn flow_network(s: &Scenario) -> FlowNetwork {
    let node = |i: usize| s.nodes[i].name.clone();
    let mut directions = Vec::with_capacity(s.links.len() * 2);
    for (i, l) in s.links.iter().enumerate() {
        directions.push(direction(i, node(l.a), node(l.b), &l.ab));
        directions.push(direction(i, node(l.b), node(l.a), &l.ba));
    }
    let producers: Vec<FlowProducer> =
        s.producers.iter().map(|p| FlowProducer { node: node(p.node), prefix: p.prefix.to_string() }).collect();
    let consumers = consumer_ids(s)
        .into_iter()
        .zip(&s.consumers)
        .map(|(id, c)| FlowConsumer {
            id,
            node: node(c.node),
            name: c.name.to_string(),
            producers: (0..s.producers.len()).filter(|&p| s.producers[p].prefix.is_prefix_of(&c.name)).collect(),
        })
        .collect();
    FlowNetwork { nodes: s.nodes.iter().map(|n| n.name.clone()).collect(), directions, producers, consumers }
}

fn direction(link: usize, src: String, dst: String, spec: &LinkDirSpec) -> FlowDirection {
    let name = direction_name(&src, &dst);
    let mut chain = Vec::with_capacity(1 + spec.underlay.len());
    chain.push(FlowHop { name: name.clone(), bandwidth_bps: spec.bandwidth_bps, delay_ns: spec.delay.as_nanos() });
    for (k, hop) in spec.underlay.iter().enumerate() {
        chain.push(FlowHop {
            name: underlay_name(&name, k),
            bandwidth_bps: hop.bandwidth_bps,
            delay_ns: hop.delay.as_nanos(),
        });
    }
    FlowDirection { link, src, dst, chain }
}

#[cfg(test)]
#[path = "flow_network_tests.rs"]
mod tests;
