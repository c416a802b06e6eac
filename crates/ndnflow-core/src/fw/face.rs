//! Faces as the forwarder sees them. The driver owns the transport behind each face (a modelled link
//! in simulation, a socket in real time); the forwarder only needs a face's kind and state.

use crate::link::Limit;

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
