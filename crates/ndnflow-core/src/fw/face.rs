//! Faces as the forwarder sees them. The driver owns the transport behind each face (a modelled link
//! in simulation, a socket in real time); the forwarder only needs a face's kind and state.

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
}
