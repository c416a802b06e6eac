//! The engine's reports: packet-hop and event counts, the time series and the summary of a run
//! (complete once it is over), read from the network's counters and the recorder.

use std::collections::BTreeMap;

use super::Simulation;
use crate::build::{App, FaceTarget};
use crate::trace::{
    CatalogSummary, ConsumerName, ConsumerSummary, DpccpNodeSummary, NodeSummary, ObjectSeries, PathSummary,
    PtpNodeSummary, Results, RunTraces, SimulatedCacheSummary, SimulationSummary, Summary,
};
use crate::trace_counters::face_names;
use ndnflow_core::app::multipath::PathReport;

impl Simulation {
    /// Packets put on a link so far (a packet crossing one link is one packet-hop).
    pub fn packet_hops(&self) -> u64 {
        self.net.dirs.iter().map(|d| d.counters.packets).sum()
    }

    pub fn events_processed(&self) -> u64 {
        self.events_processed
    }

    /// Results up to now (complete once the run is over).
    pub fn results(&self) -> Results {
        self.traces().into_results(self.summary())
    }

    /// The time series up to now, the link and consumer rows still in their compact form.
    pub fn traces(&self) -> RunTraces {
        let consumer_names: Vec<ConsumerName> = self
            .scenario
            .consumers
            .iter()
            .zip(&self.net.consumer_ids)
            .map(|(c, id)| ConsumerName { id: id.clone(), node: self.scenario.nodes[c.node].name.clone() })
            .collect();
        let path_names = self.recorder.path_names(&consumer_names);
        let counters = self.recorder.counters.as_ref();
        RunTraces {
            log: std::sync::Arc::clone(&self.recorder.log),
            paths: self.recorder.paths.clone(),
            objects: self.objects(),
            forwarding: self.forwarding_series(),
            link_names: self.net.dir_names.clone(),
            consumer_names,
            path_names,
            interests: self.interests.as_ref().map(|l| l.series()).unwrap_or_default(),
            interest_names: self.interest_names(),
            faces: counters.map(|c| c.faces.clone()).unwrap_or_default(),
            nodes: counters.map(|c| c.nodes.clone()).unwrap_or_default(),
            face_names: face_names(&self.scenario, &self.net),
            node_names: self.scenario.nodes.iter().map(|n| n.name.clone()).collect(),
        }
    }

    /// Every catalog consumer's objects, consumers in scenario order.
    fn objects(&self) -> ObjectSeries {
        let mut series = ObjectSeries::default();
        for slot in &self.net.apps {
            let (App::Consumer(c), Some(i)) = (&slot.app, slot.consumer) else { continue };
            for o in c.objects() {
                series.push(i as u32, &o);
            }
        }
        series
    }

    /// The totals of `results` without the time series (which `results` copies).
    pub fn summary(&self) -> Summary {
        let end = self.end.unwrap_or(self.now);
        let mut consumers = BTreeMap::new();
        for slot in &self.net.apps {
            let (App::Consumer(c), Some(i)) = (&slot.app, slot.consumer) else { continue };
            let spec = &self.scenario.consumers[i];
            let stop = c.finished_at().unwrap_or(end).min(end);
            let node = self.scenario.nodes[spec.node].name.clone();
            let finished = c.finished_at().is_some();
            let mut row = ConsumerSummary::of(
                node,
                spec.name.to_string(),
                &c.stats,
                c.rtt_histogram(),
                spec.start,
                stop,
                finished,
            );
            row.pending = c.in_flight() as u64;
            row.pending_nacked = c.in_flight_nacked() as u64;
            row.paths = c.paths().map(|paths| {
                let nodes = |p: &PathReport| if p.tag_stack { self.route_nodes(spec.node, &p.tags) } else { None };
                paths.into_iter().map(|p| PathSummary { nodes: nodes(&p), ..PathSummary::of(p) }).collect()
            });
            row.catalog = spec.catalog.map(|_| CatalogSummary::of(&c.objects()));
            consumers.insert(self.net.consumer_ids[i].clone(), row);
        }
        let links = self.net.dirs.iter().zip(&self.net.dir_names).map(|(d, n)| (n.name.clone(), d.summary())).collect();
        let nodes = self
            .net
            .nodes
            .iter()
            .zip(&self.scenario.nodes)
            .map(|(n, spec)| {
                let c = n.fw.counters;
                let summary = NodeSummary {
                    in_interests: c.in_interests,
                    out_interests: c.out_interests,
                    in_data: c.in_data,
                    out_data: c.out_data,
                    in_nacks: c.in_nacks,
                    out_nacks: c.out_nacks,
                    cs_hits: c.cs_hits,
                    cs_misses: c.cs_misses,
                    pit_aggregated: c.aggregated,
                    pit_expired: c.expired,
                    duplicates: c.duplicates,
                    unsolicited_data: c.unsolicited_data,
                    no_route: c.no_route,
                    hop_limit_exceeded: c.hop_limit_exceeded,
                    pit_entries_at_end: n.fw.pit.len() as u64,
                    ptp: n.fw.mpfp().map(|m| {
                        let fab = m.fab().counters;
                        PtpNodeSummary {
                            probes: m.counters.probes,
                            tag_switched: m.counters.tag_switched,
                            tag_fallbacks: m.counters.tag_fallbacks,
                            tag_nacks: m.counters.tag_nacks,
                            fab_hits: fab.hits,
                            fab_misses: fab.misses,
                            fab_evictions: fab.evictions,
                        }
                    }),
                    dpccp: n.fw.dpccp().map(|d| DpccpNodeSummary {
                        hop_counted: d.counters.hop_counted,
                        faces_labelled: d.counters.faces_labelled,
                        drain_flagged: d.counters.drain_flagged,
                    }),
                    simulated_cache: n
                        .fw
                        .simulated_cache()
                        .map(|c| SimulatedCacheSummary { lookups: c.counters.lookups, hits: c.counters.hits }),
                };
                (spec.name.clone(), summary)
            })
            .collect();
        Summary {
            simulation: SimulationSummary {
                duration_s: self.scenario.duration.as_secs_f64(),
                seed: self.scenario.seed,
                end_s: end.as_secs_f64(),
                events: self.events_processed,
                packet_hops: self.packet_hops(),
                stopped: self.stopped.clone(),
                forwarding_log: self.forwarding_summary(),
            },
            consumers,
            links,
            nodes,
        }
    }

    /// The nodes of a PTP tag stack from the consumer on `node` to its producer, producer first
    /// (the way the path's Data travel): the Interest pops the top tag (the last) at the
    /// consumer's node and leaves by that link face, and so on down, until the bottom tag, the
    /// producer's application face. `None` for an empty stack (an untagged path) or a tag that
    /// names no such face.
    fn route_nodes(&self, node: usize, tags: &[u64]) -> Option<Vec<String>> {
        let face = |at: usize, tag: u64| self.net.nodes[at].faces.get(usize::try_from(tag).ok()?);
        let (bottom, above) = tags.split_first()?;
        let mut path = vec![node];
        for &tag in above.iter().rev() {
            let FaceTarget::Link(d) = face(*path.last()?, tag)? else { return None };
            path.push(self.net.dirs[*d as usize].to);
        }
        let FaceTarget::App(_) = face(*path.last()?, *bottom)? else { return None };
        Some(path.iter().rev().map(|&n| self.scenario.nodes[n].name.clone()).collect())
    }
}
