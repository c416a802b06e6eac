//! Faces as the forwarder sees them. The driver owns the transport behind each face (a modelled link
//! in simulation, a socket in real time); the forwarder only needs a face's kind and state.

use crate::link::Limit;
use crate::packet::{Frame, NetPacket};

/// What is behind a face.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FaceKind {
    /// A local application (consumer or producer): NFD's local scope.
    App,
    /// A point-to-point link to another forwarder.
    Link,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FaceInfo {
    pub kind: FaceKind,
    /// A face that is down is never chosen as a next hop.
    pub up: bool,
    /// Link faces: the bit rate at which Data arrive over the face (the link direction towards
    /// this node). Static: set once by the driver (`Forwarder::set_face_link`); scheduled link
    /// changes do not update it. `None` for application faces and faces the driver said nothing
    /// about. Read by the FPF strategy.
    pub bandwidth_bps: Option<u64>,
    /// Link faces: the capacity of this node's own output queue on the face (the "local queue" of
    /// the survey's FPF discussion). Static like `bandwidth_bps`; `None` for application faces.
    pub queue_limit: Option<Limit>,
}

impl FaceInfo {
    /// An up face of `kind` with no link parameters.
    pub fn new(kind: FaceKind) -> FaceInfo {
        FaceInfo { kind, up: true, bandwidth_bps: None, queue_limit: None }
    }
}

/// What crossed one face, cumulative from the start (NFD's FaceCounters, daemon/face/face-counters.hpp,
/// and ndnSIM's L3RateTracer, utils/tracers/l3-rate-tracer.cpp). Counted by the forwarder at the
/// network layer: a packet is counted when the pipelines receive it from the face or hand it to the
/// face, and bytes are the NDN packet's encoded size (a Nack's: its Interest's) without the link
/// header, where NFD counts the transport's bytes. A driver samples these to make a time series.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct FaceCounters {
    /// Packets received, by kind (`INTERESTS`, `DATA`, `NACKS`).
    pub received: [u64; 3],
    /// Packets sent, by kind.
    pub sent: [u64; 3],
    pub in_bytes: u64,
    pub out_bytes: u64,
    /// In-records of this face whose PIT entry a Data satisfied (ndnSIM's SatisfiedInterests:
    /// every in-record of the entry, as its `beforeSatisfyInterest` handler counts), plus Interests
    /// from this face answered from the Content Store (which ndnSIM does not count: its CS hit
    /// happens before the in-record exists).
    pub satisfied: u64,
    /// In-records of this face whose PIT entry expired unsatisfied (ndnSIM's TimedOutInterests).
    pub timed_out: u64,
}

impl FaceCounters {
    /// Indices of `received` and `sent`.
    pub const INTERESTS: usize = 0;
    pub const DATA: usize = 1;
    pub const NACKS: usize = 2;

    /// A frame received on the face.
    pub fn count_in(&mut self, frame: &Frame) {
        self.in_bytes += u64::from(frame.net_size);
        self.received[kind(frame)] += 1;
    }

    /// A frame sent on the face.
    pub fn count_out(&mut self, frame: &Frame) {
        self.out_bytes += u64::from(frame.net_size);
        self.sent[kind(frame)] += 1;
    }
}

fn kind(frame: &Frame) -> usize {
    match frame.packet {
        NetPacket::Interest(_) => FaceCounters::INTERESTS,
        NetPacket::Data(_) => FaceCounters::DATA,
        NetPacket::Nack(_) => FaceCounters::NACKS,
    }
}
