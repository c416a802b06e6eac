//! What a daemon reports: the forwarder's counters, and each face's with the driver's and its
//! link's (the binary prints it as JSON when it stops, and on SIGUSR1; tests read it live through
//! `Daemon::status`).

use ndnflow_core::fw::{FaceCounters, FaceKind, ForwarderCounters};
use ndnflow_core::table::FaceId;

use crate::daemon::Daemon;
use crate::face::link::LinkCounters;
use crate::face::lp::LpCounters;
use crate::face::DriverCounters;
use crate::mgmt::manager::nfd_face_id;

impl Daemon {
    /// What the daemon has counted so far.
    pub fn report(&self) -> Report {
        let info = self.forwarder.faces();
        let counters = self.forwarder.face_counters();
        let faces = self
            .faces
            .iter()
            .enumerate()
            .map(|(i, f)| FaceReport {
                id: nfd_face_id(FaceId(i as u32)),
                name: f.name.clone(),
                remote: f.remote.clone(),
                local_app: info[i].kind == FaceKind::App,
                up: info[i].up,
                persistency: f.persistency.as_str(),
                packets: counters[i],
                driver: f.counters,
                link: f.output.as_ref().map(|l| l.counters),
                lp: f.lp.as_ref().map(|s| (s.mtu(), s.counters())),
            })
            .collect();
        Report {
            forwarder: self.forwarder.counters,
            faces,
            unknown_malformed: self.udp.as_ref().map_or(0, |u| u.unknown_malformed),
            pit_entries: self.forwarder.pit.len(),
            uptime_s: self.clock.now().as_secs_f64(),
        }
    }
}

/// What a daemon counted: the forwarder's counters, and each face's with the driver's.
#[derive(Clone, Debug)]
pub struct Report {
    pub forwarder: ForwarderCounters,
    pub faces: Vec<FaceReport>,
    /// UDP datagrams from endpoints without a face that did not decode.
    pub unknown_malformed: u64,
    pub pit_entries: usize,
    pub uptime_s: f64,
}

#[derive(Clone, Debug)]
pub struct FaceReport {
    /// NFD's FaceId (256 + the index: `mgmt::manager::FIRST_FACE_ID`).
    pub id: u64,
    pub name: Option<String>,
    /// `udp://ADDR`, `tcp4://ADDR` or `unix://LISTENER-PATH`.
    pub remote: String,
    pub local_app: bool,
    pub up: bool,
    /// "on-demand", "persistent" or "permanent" (NFD's FacePersistency).
    pub persistency: &'static str,
    /// The forwarder's counts (network-layer packets and bytes).
    pub packets: FaceCounters,
    pub driver: DriverCounters,
    /// A shaped face's queue counts.
    pub link: Option<LinkCounters>,
    /// A UDP face's NDNLPv2 counts (fragmentation, reassembly, reliability) and its MTU.
    pub lp: Option<(u32, LpCounters)>,
}

impl Report {
    /// The report as JSON (what `ndnflow-fwd` prints when it stops).
    pub fn to_json(&self) -> serde_json::Value {
        let c = &self.forwarder;
        let faces: Vec<_> = self
            .faces
            .iter()
            .map(|f| {
                let p = &f.packets;
                serde_json::json!({
                    "id": f.id, "name": f.name, "remote": f.remote, "local_app": f.local_app, "up": f.up,
                    "persistency": f.persistency,
                    "in_interests": p.received[FaceCounters::INTERESTS], "in_data": p.received[FaceCounters::DATA],
                    "in_nacks": p.received[FaceCounters::NACKS], "out_interests": p.sent[FaceCounters::INTERESTS],
                    "out_data": p.sent[FaceCounters::DATA], "out_nacks": p.sent[FaceCounters::NACKS],
                    "in_bytes": p.in_bytes, "out_bytes": p.out_bytes,
                    "malformed": f.driver.malformed, "send_dropped": f.driver.send_dropped, "pit_full": f.driver.pit_full,
                    "pit_shed": f.driver.pit_shed,
                    "refused_commands": f.driver.refused_commands, "reconnects": f.driver.reconnects,
                    "link": f.link,
                    "lp": f.lp.map(|(mtu, c)| serde_json::json!({ "mtu": mtu, "counters": c })),
                })
            })
            .collect();
        serde_json::json!({
            "uptime_s": self.uptime_s,
            "forwarder": {
                "in_interests": c.in_interests, "out_interests": c.out_interests, "in_data": c.in_data,
                "out_data": c.out_data, "in_nacks": c.in_nacks, "out_nacks": c.out_nacks, "cs_hits": c.cs_hits,
                "cs_misses": c.cs_misses, "unsolicited_data": c.unsolicited_data, "expired": c.expired,
                "no_route": c.no_route, "pit_entries": self.pit_entries,
            },
            "unknown_malformed": self.unknown_malformed,
            "faces": faces,
        })
    }
}
