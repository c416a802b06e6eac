//! The forwarding log: what NFD prints at DEBUG from its `Forwarder` and `Strategy` modules
//! (daemon/fw/forwarder.cpp: "onIncomingInterest in=... interest=...", "onContentStoreMiss",
//! "onOutgoingInterest out=...", "onIncomingData", "onInterestFinalize ... satisfied", the Nack
//! pipelines; daemon/fw/strategy.cpp and the strategies: "afterReceiveInterest ... to=..."), kept
//! as structured records rather than text.
//!
//! Sans-IO: the forwarder formats nothing and writes nothing. A driver that wants the log installs
//! a `ForwardingLog` (`Forwarder::set_log`); the pipelines push `FwRecord`s into it (an `Arc`
//! name clone and a few words each), and the driver takes them (`Forwarder::take_log`) to filter
//! by node, number, format and write. Without a log each pipeline step costs one branch on a
//! `None`. The records a log keeps between two takes are bounded by what one call into the
//! forwarder does; the bound on a whole run is the driver's (`max_records` in ndnflow-sim).

use smallvec::SmallVec;
use std::borrow::Cow;

use crate::packet::{LpHeader, NackReason};
use crate::table::FaceId;
use crate::{Name, Time};

/// A pipeline step or a decision, named after NFD's log line for it (docs/protocols/forwarder.md,
/// "Forwarding log").
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FwEvent {
    /// onIncomingInterest: an Interest arrived on `face_in`.
    IncomingInterest,
    /// Its HopLimit was 0 (NFD drops it in onIncomingInterest, or in onOutgoingInterest before
    /// it leaves on a link face).
    HopLimitExceeded,
    /// onInterestLoop: its nonce was seen before (Dead Nonce List or the PIT entry).
    InterestLoop,
    /// onContentStoreHit: the Content Store (or a simulated cache) answers it.
    ContentStoreHit,
    /// onContentStoreMiss: it goes to the strategy.
    ContentStoreMiss,
    /// afterReceiveInterest: the strategy's decision (`Detail::Decision`).
    StrategyDecision,
    /// A router extension (PTP's MPFP, SMIC, ...) forwards the Interest instead of the strategy.
    ExtensionForwards,
    /// onOutgoingInterest on `face_out`.
    OutgoingInterest,
    /// onIncomingData on `face_in`.
    IncomingData,
    /// onDataUnsolicited: no PIT entry wants it; dropped.
    UnsolicitedData,
    /// onOutgoingData on `face_out`.
    OutgoingData,
    /// onIncomingNack on `face_in`.
    IncomingNack,
    /// afterReceiveNack: the strategy's decision (`Detail::NackDecision`).
    NackDecision,
    /// onOutgoingNack on `face_out`.
    OutgoingNack,
    /// onInterestFinalize: the PIT entry goes, satisfied or not (`Detail::Finalize`).
    InterestFinalize,
    /// PCON's PIT mark (§3.1): the queue of `face_out` found its link congested when it sent the
    /// Interest.
    PitMarked,
    /// A strategy's forwarding percentages of a FIB prefix changed (PCON §3.4): logged after the
    /// trigger that changed them, `name` being the FIB prefix.
    ForwardingShares,
    /// A link's output queue (the driver's, on `face_out`) took the packet in: trace level only.
    QueueEnqueue,
    /// The packet left the queue onto the wire, after `Detail::Queue`'s sojourn: trace level only.
    QueueDeparture,
    /// The queue, its AQM or a link going down dropped the packet (`Detail::Queue`'s cause).
    QueueDrop,
    /// The queue congestion-marked the packet (NFD's send-queue marker on arrival, CoDel at
    /// departure).
    QueueMark,
}

impl FwEvent {
    /// NFD's name for the step, as the log prints it.
    pub fn nfd_name(self) -> &'static str {
        match self {
            FwEvent::IncomingInterest => "onIncomingInterest",
            FwEvent::HopLimitExceeded => "onIncomingInterest hop-limit-exceeded",
            FwEvent::InterestLoop => "onInterestLoop",
            FwEvent::ContentStoreHit => "onContentStoreHit",
            FwEvent::ContentStoreMiss => "onContentStoreMiss",
            FwEvent::StrategyDecision => "afterReceiveInterest",
            FwEvent::ExtensionForwards => "extensionForwards",
            FwEvent::OutgoingInterest => "onOutgoingInterest",
            FwEvent::IncomingData => "onIncomingData",
            FwEvent::UnsolicitedData => "onDataUnsolicited",
            FwEvent::OutgoingData => "onOutgoingData",
            FwEvent::IncomingNack => "onIncomingNack",
            FwEvent::NackDecision => "afterReceiveNack",
            FwEvent::OutgoingNack => "onOutgoingNack",
            FwEvent::InterestFinalize => "onInterestFinalize",
            FwEvent::PitMarked => "pitMarked",
            FwEvent::ForwardingShares => "forwardingPercentages",
            FwEvent::QueueEnqueue => "queueEnqueue",
            FwEvent::QueueDeparture => "queueDeparture",
            FwEvent::QueueDrop => "queueDrop",
            FwEvent::QueueMark => "queueMark",
        }
    }
}

/// The link-header fields a log line shows: PCON's mark and distance, the strategies' flags, the
/// depth and top of PTP's tag stack (a push or pop shows as the depth changing from the packet's
/// incoming line to its outgoing one), SMIC's path id, self-learning's NonDiscovery and prefix
/// announcement.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LpSummary {
    pub mark: u64,
    pub hop_count: Option<u64>,
    pub flags: u64,
    pub tags: u32,
    pub top_tag: Option<u64>,
    pub path_id: Option<u64>,
    pub non_discovery: bool,
    pub announcement: bool,
}

impl LpSummary {
    pub fn of(lp: &LpHeader) -> LpSummary {
        let ext = lp.ext.as_deref();
        LpSummary {
            mark: lp.congestion_mark,
            hop_count: lp.hop_count,
            flags: lp.flags,
            tags: ext.map_or(0, |e| e.tags.len() as u32),
            top_tag: ext.and_then(|e| e.tags.last().copied()),
            path_id: ext.and_then(|e| e.path_id),
            non_discovery: ext.is_some_and(|e| e.non_discovery),
            announcement: ext.is_some_and(|e| e.prefix_announcement.is_some()),
        }
    }

    pub fn is_empty(&self) -> bool {
        *self == LpSummary::default()
    }
}

/// A strategy's afterReceiveInterest outcome.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DecisionKind {
    /// To this many upstreams (their onOutgoingInterest lines follow).
    Forward(u32),
    Reject(NackReason),
    Suppress,
}

/// A strategy's afterReceiveNack outcome.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NackDecisionKind {
    Wait,
    Retry(u32),
    NackDownstream(NackReason),
}

/// A strategy's forwarding percentages of one prefix, in FIB order (`Strategy::forwarding_shares`).
pub type Shares = SmallVec<[(FaceId, f64); 4]>;

/// What else a record says, by event.
#[derive(Clone, Debug, PartialEq)]
pub enum Detail {
    None,
    /// The packet's link header, where it is not empty.
    Lp(LpSummary),
    /// The strategy (its NFD-style name), its decision, and why when the strategy can say
    /// (`Strategy::decision_reason`; "" otherwise).
    Decision {
        strategy: &'static str,
        decision: DecisionKind,
        reason: Cow<'static, str>,
    },
    NackDecision {
        strategy: &'static str,
        decision: NackDecisionKind,
    },
    /// A Nack's reason and its link header (PCON §3.5 reacts to marked Nacks).
    Nack {
        reason: NackReason,
        lp: LpSummary,
    },
    /// Satisfied or not; an unsatisfied entry's cause.
    Finalize {
        satisfied: bool,
        cause: &'static str,
    },
    /// Fractions of 1, per next hop.
    Shares(Shares),
    /// A queue step: the packet's kind ("Interest", "Data", "Nack"), the step's cause ("" for
    /// enqueue and departure), the time the packet spent queued (departures, drops at the head)
    /// and the packets left queued after the step.
    Queue {
        packet: &'static str,
        cause: &'static str,
        sojourn: Time,
        queued: u32,
    },
}

/// One line of the log.
#[derive(Clone, Debug)]
pub struct FwRecord {
    pub time: Time,
    pub event: FwEvent,
    pub face_in: Option<FaceId>,
    pub face_out: Option<FaceId>,
    pub name: Name,
    pub nonce: Option<u32>,
    pub detail: Detail,
}

impl FwRecord {
    pub fn new(time: Time, event: FwEvent, name: &Name) -> FwRecord {
        FwRecord { time, event, face_in: None, face_out: None, name: name.clone(), nonce: None, detail: Detail::None }
    }

    pub fn face_in(mut self, face: FaceId) -> FwRecord {
        self.face_in = Some(face);
        self
    }

    pub fn face_out(mut self, face: FaceId) -> FwRecord {
        self.face_out = Some(face);
        self
    }

    pub fn nonce(mut self, nonce: Option<u32>) -> FwRecord {
        self.nonce = nonce;
        self
    }

    pub fn detail(mut self, detail: Detail) -> FwRecord {
        self.detail = detail;
        self
    }

    /// The link header as detail, when it carries anything.
    pub fn lp(self, lp: &LpHeader) -> FwRecord {
        let summary = LpSummary::of(lp);
        if summary.is_empty() {
            self
        } else {
            self.detail(Detail::Lp(summary))
        }
    }
}

/// The records a forwarder has pushed since the driver last took them, for names under `prefix`.
#[derive(Clone, Debug)]
pub struct ForwardingLog {
    prefix: Name,
    records: Vec<FwRecord>,
    /// The forwarding percentages last logged, per FIB prefix: only changes are logged.
    last_shares: Vec<(Name, Shares)>,
    /// Log every packet a link queue takes in and sends (NFD's TRACE level), not only its drops
    /// and marks. Read by the driver's link code; the forwarder has no queue.
    pub queue_steps: bool,
}

/// Pushes the record `make` builds into the log, if there is one: without a log, one branch and
/// nothing built.
#[inline(always)]
pub(crate) fn note(log: &mut Option<Box<ForwardingLog>>, make: impl FnOnce() -> FwRecord) {
    if let Some(log) = log {
        log.push(make());
    }
}

impl ForwardingLog {
    /// A log of the names under `prefix` ("/" for all).
    pub fn new(prefix: Name) -> ForwardingLog {
        ForwardingLog { prefix, records: Vec::new(), last_shares: Vec::new(), queue_steps: false }
    }

    /// Whether `prefix` (a FIB prefix the log covers) now has other percentages than last logged;
    /// remembers them if so.
    pub fn shares_changed(&mut self, prefix: &Name, shares: &Shares) -> bool {
        if !(self.prefix.is_prefix_of(prefix) || prefix.is_prefix_of(&self.prefix)) {
            return false;
        }
        match self.last_shares.iter_mut().find(|(p, _)| p == prefix) {
            Some((_, last)) if last == shares => false,
            Some((_, last)) => {
                *last = shares.clone();
                true
            }
            None => {
                self.last_shares.push((prefix.clone(), shares.clone()));
                true
            }
        }
    }

    /// Keeps `record` unconditionally (a FIB prefix's record, already checked).
    pub(crate) fn push_unfiltered(&mut self, record: FwRecord) {
        self.records.push(record);
    }

    /// Keeps `record` if its name is under the log's prefix.
    pub fn push(&mut self, record: FwRecord) {
        if self.prefix.is_prefix_of(&record.name) {
            self.records.push(record);
        }
    }

    /// The records kept since the last call, oldest first; the log keeps its buffer.
    pub fn drain(&mut self) -> std::vec::Drain<'_, FwRecord> {
        self.records.drain(..)
    }

    pub fn is_empty(&self) -> bool {
        self.records.is_empty()
    }
}

#[cfg(test)]
#[path = "log_tests.rs"]
mod tests;
