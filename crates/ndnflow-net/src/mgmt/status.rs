//! The status datasets the daemon publishes (NFD's ForwarderStatusManager and the `list` verbs of
//! FaceManager, FibManager, RibManager and StrategyChoiceManager, and CsManager's info):
//! status/general, faces/list, faces/query (`faces`), fib/list, rib/list, strategy-choice/list and
//! cs/info (`cs`), encoded as `dataset` lays them out.

use std::time::{SystemTime, UNIX_EPOCH};

use ndnflow_core::fw::{FaceCounters, FaceKind};
use ndnflow_core::name::component_type;
use ndnflow_core::packet::Data;
use ndnflow_core::table::FaceId;
use ndnflow_core::Name;

use super::control::{response_content, tlv as cp, ControlResponse, LOCALHOST_NFD};
use super::dataset::{self, name, number, record, segments, text, tlv};
use super::manager::nfd_face_id;
use crate::daemon::Daemon;
use crate::face::Transport;

/// The datasets, as (module, verb).
const DATASETS: [(&str, &str); 7] = [
    ("status", "general"),
    ("faces", "list"),
    ("faces", "query"),
    ("fib", "list"),
    ("rib", "list"),
    ("strategy-choice", "list"),
    ("cs", "info"),
];

/// faces/query's name carries its filter, one component after the verb
/// (`/localhost/nfd/faces/query/<FaceQueryFilter>`); the other datasets take no argument.
fn argument_components(dataset: (&str, &str)) -> usize {
    usize::from(dataset == ("faces", "query"))
}

/// Milliseconds since the Unix epoch, as NFD's timestamps and dataset versions are.
pub fn unix_millis(t: SystemTime) -> u64 {
    t.duration_since(UNIX_EPOCH).map_or(0, |d| d.as_millis() as u64)
}

impl Daemon {
    /// `Some(answer)` when `name` asks for a dataset: segment 0 of a new version for the dataset's
    /// name, or a later segment of the last version (`None` inside when that version is gone).
    /// `None` when `name` is no dataset request.
    ///
    /// The dataset's name may end in a ParametersSha256DigestComponent: python-ndn's `pynfdc`
    /// asks with signed (v0.3) Interests. As ndn-cxx's `StatusDatasetContext` does, the versions
    /// are made under the Interest's whole name, so that the Data match it.
    pub(crate) fn dataset_reply(&mut self, name: &Name) -> Option<Option<Data>> {
        let word = |i: usize| name.get(i).map(|c| String::from_utf8_lossy(c.value).into_owned());
        if word(0)? != LOCALHOST_NFD[0] || word(1)? != LOCALHOST_NFD[1] {
            return None;
        }
        let (module, verb) = (word(2)?, word(3)?);
        let &dataset = DATASETS.iter().find(|(m, v)| *m == module && *v == verb)?;
        let typ = |i: usize| name.get(i).map(|c| c.typ);
        let args = argument_components(dataset);
        let digest = usize::from(typ(4 + args) == Some(component_type::PARAMETERS_SHA256_DIGEST));
        let base = 4 + args + digest;
        if name.len() == base || name.len() < 4 + args {
            let content = match self.dataset_content(dataset, name) {
                Ok(content) => content,
                Err(refusal) => return Some(Some(refusal_data(name, &refusal))),
            };
            let segs = segments(name, unix_millis(SystemTime::now()), &content);
            let first = segs[0].clone();
            self.published.keep(dataset, segs);
            return Some(Some(first));
        }
        let versioned = name.len() == base + 2 && typ(base) == Some(component_type::VERSION);
        if versioned && name.get(base + 1).and_then(|c| c.as_segment()).is_some() {
            return Some(self.published.find(name).cloned());
        }
        // Under a dataset, but not /v=N/seg=N: nothing to answer, as NFD answers only the segments
        // it published. It was read as a command's ControlParameters, and answered 400 "bad
        // ControlParameters", until 2026-11-28.
        Some(None)
    }

    /// A dataset's records; a refusal (NFD's `StatusDatasetContext::reject`) when its argument is
    /// missing or malformed.
    fn dataset_content(&self, dataset: (&str, &str), name: &Name) -> Result<Vec<u8>, Box<ControlResponse>> {
        let mut out = Vec::new();
        match dataset {
            ("status", "general") => self.general_status(&mut out),
            ("faces", "list") => self.live_faces().for_each(|f| self.face_status(&mut out, f)),
            ("faces", "query") => match name.get(4) {
                Some(filter) => return self.faces_query(filter.value),
                None => return Err(Box::new(ControlResponse::error(400, "malformed filter: none given"))),
            },
            ("cs", "info") => self.cs_info(&mut out),
            ("fib", "list") => self.fib_entries(&mut out),
            ("rib", "list") => self.rib_entries(&mut out),
            _ => self.strategy_choices(&mut out),
        }
        Ok(out)
    }

    pub(super) fn live_faces(&self) -> impl Iterator<Item = FaceId> + '_ {
        (0..self.faces.len())
            .filter(|&i| !matches!(self.faces[i].transport, Transport::Closed))
            .map(|i| FaceId(i as u32))
    }

    /// ForwarderStatus: the version, start and current times, table sizes and packet counts.
    fn general_status(&self, out: &mut Vec<u8>) {
        let c = &self.forwarder.counters;
        let faces = self.forwarder.face_counters();
        let satisfied: u64 = faces.iter().map(|f| f.satisfied).sum();
        let unsatisfied: u64 = faces.iter().map(|f| f.timed_out).sum();
        text(out, tlv::NFD_VERSION, concat!("ndnflow ", env!("CARGO_PKG_VERSION")));
        number(out, tlv::START_TIMESTAMP, unix_millis(self.started));
        number(out, tlv::CURRENT_TIMESTAMP, unix_millis(SystemTime::now()));
        for (typ, n) in [
            (tlv::N_NAME_TREE_ENTRIES, 0),
            (tlv::N_FIB_ENTRIES, self.forwarder.fib.len() as u64),
            (tlv::N_PIT_ENTRIES, self.forwarder.pit.len() as u64),
            (tlv::N_MEASUREMENTS_ENTRIES, 0),
            (tlv::N_CS_ENTRIES, self.forwarder.cs.len() as u64),
            (tlv::N_IN_INTERESTS, c.in_interests),
            (tlv::N_IN_DATA, c.in_data),
            (tlv::N_IN_NACKS, c.in_nacks),
            (tlv::N_OUT_INTERESTS, c.out_interests),
            (tlv::N_OUT_DATA, c.out_data),
            (tlv::N_OUT_NACKS, c.out_nacks),
            (tlv::N_SATISFIED_INTERESTS, satisfied),
            (tlv::N_UNSATISFIED_INTERESTS, unsatisfied),
        ] {
            number(out, typ, n);
        }
    }

    /// NFD's FaceScope: 1 (local) for an application's face, 0 otherwise.
    pub(super) fn face_scope(&self, face: FaceId) -> u64 {
        u64::from(self.forwarder.faces()[face.index()].kind == FaceKind::App)
    }

    /// The fields that say which face `face` is, as FaceStatus and FaceEventNotification begin:
    /// FaceId, Uri, LocalUri, FaceScope, FacePersistency and LinkType.
    pub(super) fn face_identity(&self, v: &mut Vec<u8>, face: FaceId) {
        let (uri, local_uri) = self.face_uris(face);
        let persistency = self.faces.get(face.index()).map_or(0, |f| f.persistency.nfd());
        number(v, cp::FACE_ID, nfd_face_id(face));
        text(v, cp::URI, &uri);
        text(v, cp::LOCAL_URI, &local_uri);
        number(v, tlv::FACE_SCOPE, self.face_scope(face));
        number(v, tlv::FACE_PERSISTENCY, persistency);
        number(v, tlv::LINK_TYPE, 0); // point-to-point
    }

    /// One FaceStatus record.
    pub(super) fn face_status(&self, out: &mut Vec<u8>, face: FaceId) {
        let p = self.forwarder.face_counters()[face.index()];
        record(out, tlv::RECORD, |v| {
            self.face_identity(v, face);
            if let Some(mtu) = self.face_mtu(face) {
                number(v, cp::MTU, u64::from(mtu));
            }
            for (typ, n) in [
                (tlv::N_IN_INTERESTS, p.received[FaceCounters::INTERESTS]),
                (tlv::N_IN_DATA, p.received[FaceCounters::DATA]),
                (tlv::N_IN_NACKS, p.received[FaceCounters::NACKS]),
                (tlv::N_OUT_INTERESTS, p.sent[FaceCounters::INTERESTS]),
                (tlv::N_OUT_DATA, p.sent[FaceCounters::DATA]),
                (tlv::N_OUT_NACKS, p.sent[FaceCounters::NACKS]),
                (tlv::N_IN_BYTES, p.in_bytes),
                (tlv::N_OUT_BYTES, p.out_bytes),
                (cp::FLAGS, self.face_flags(face)),
            ] {
                number(v, typ, n);
            }
        });
    }

    fn fib_entries(&self, out: &mut Vec<u8>) {
        for e in self.forwarder.fib.entries() {
            record(out, tlv::RECORD, |v| {
                name(v, &e.prefix);
                for h in &e.nexthops {
                    record(v, tlv::NEXT_HOP_OR_ROUTE, |r| {
                        number(r, cp::FACE_ID, nfd_face_id(h.face));
                        number(r, cp::COST, h.cost);
                    });
                }
            });
        }
    }

    fn rib_entries(&self, out: &mut Vec<u8>) {
        let now = self.clock.now();
        for (prefix, routes) in self.rib.entries() {
            record(out, tlv::RECORD, |v| {
                name(v, prefix);
                for r in routes {
                    record(v, tlv::NEXT_HOP_OR_ROUTE, |w| {
                        number(w, cp::FACE_ID, nfd_face_id(r.face));
                        number(w, cp::ORIGIN, r.origin);
                        number(w, cp::COST, r.cost);
                        number(w, cp::FLAGS, r.flags);
                        if let Some(t) = r.expires {
                            number(w, cp::EXPIRATION_PERIOD, t.saturating_sub(now).as_millis());
                        }
                    });
                }
            });
        }
    }

    fn strategy_choices(&self, out: &mut Vec<u8>) {
        let generic = component_type::GENERIC;
        for (prefix, strategy) in self.forwarder.strategy_choices() {
            let words = ["localhost", "nfd", "strategy", strategy];
            let strategy_name = Name::from_components(words.iter().map(|w| (generic, w.as_bytes())));
            record(out, tlv::RECORD, |v| {
                name(v, prefix);
                record(v, cp::STRATEGY, |s| dataset::name(s, &strategy_name));
            });
        }
    }
}

/// A refused dataset request's answer: its ControlResponse, as a Data under the request's name.
fn refusal_data(name: &Name, refusal: &ControlResponse) -> Data {
    let mut data = Data::new(name.clone(), response_content(refusal));
    crate::sign::sign_digest_sha256(&mut data);
    data
}
