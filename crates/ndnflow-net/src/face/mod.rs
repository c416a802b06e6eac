//! The daemon's faces: what is behind each `FaceId` the forwarder knows (a UDP peer over the shared
//! socket, or a Unix stream connection's writer), and what the driver counts beside the
//! forwarder's own `FaceCounters`: input it could not decode, output it could not send, Interests
//! refused for want of PIT room.
//!
//! NFD's face system (daemon/face/) splits a face into a link service and a transport; here a UDP
//! face's link service is `lp` (NDNLPv2 fragmentation, reassembly and reliability), a stream's is
//! the core's codec, called by the driver, and the transports are `udp`, `tcp` and `unix`.

pub mod link;
pub mod lp;
pub mod stream;
pub mod tcp;
pub mod udp;
pub mod unix;

use std::net::SocketAddr;
use std::path::Path;

use tokio::sync::mpsc;

/// What carries a face's bytes.
#[derive(Debug)]
pub enum Transport {
    /// A UDP peer, reached through the daemon's one UDP socket.
    Udp(SocketAddr),
    /// A Unix or TCP stream connection: its writer task's queue of encoded packets.
    Stream(mpsc::Sender<Vec<u8>>),
    /// A connection that has closed: the face stays (the forwarder never forgets a `FaceId`), down.
    Closed,
}

/// Counts of the driver's, per face (the forwarder counts the packets it handled).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct DriverCounters {
    /// Datagrams or stream elements that did not decode as an NDN packet or LpPacket: dropped.
    pub malformed: u64,
    /// Encoded packets not sent: the socket's buffer or the connection's queue was full, or the
    /// send failed.
    pub send_dropped: u64,
    /// Interests dropped because the PIT held `pit_capacity` entries and they would open another.
    pub pit_full: u64,
    /// PIT entries this face opened that were shed, when the PIT was full, to make room for an
    /// Interest from a face holding fewer (`Forwarder::room_for_interest`).
    pub pit_shed: u64,
    /// Management Interests (/localhost/nfd) from a non-local face: dropped (NFD's localhost scope).
    pub refused_commands: u64,
    /// A permanent TCP face's connections re-established after it went down (`tcp`).
    pub reconnects: u64,
}

/// Why `peer` can never be a unicast face's remote end, or `None` when it can. The
/// configuration's `[[faces]]` and faces/create both ask: each of these was taken, and every
/// packet sent to it was lost (port 0, the unspecified address), or went to a group this driver
/// builds no face for (NFD makes multicast faces itself, and refuses them in faces/create with 406).
pub fn unusable_peer(peer: SocketAddr) -> Option<&'static str> {
    let ip = peer.ip();
    if peer.port() == 0 {
        Some("port 0 is no peer's port")
    } else if ip.is_unspecified() {
        Some("the unspecified address (0.0.0.0 or ::) is no peer's address")
    } else if ip.is_multicast() {
        Some("multicast faces are not built here (unicast peers only)")
    } else if ip == std::net::IpAddr::V4(std::net::Ipv4Addr::BROADCAST) {
        Some("the broadcast address is no peer's address")
    } else {
        None
    }
}

/// A TCP endpoint as NFD's FaceUri writes it: `tcp4://ADDRESS:PORT` or `tcp6://[ADDRESS]:PORT`.
pub fn tcp_uri(a: SocketAddr) -> String {
    format!("{}://{a}", if a.is_ipv4() { "tcp4" } else { "tcp6" })
}

/// How long a face lives (NFD's FacePersistency, ndn-cxx nfd::FacePersistency).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Persistency {
    /// Made by a peer's first packet or an application's connection; a UDP one closes when idle,
    /// a stream one when its connection ends.
    OnDemand,
    /// Made by the configuration or faces/create; closes when its connection fails.
    Persistent,
    /// As persistent, but a TCP face whose connection fails goes down and reconnects (`tcp`).
    Permanent,
}

impl Persistency {
    /// NFD's number (FacePersistency TLV): persistent 0, on-demand 1, permanent 2.
    pub fn nfd(self) -> u64 {
        match self {
            Persistency::Persistent => 0,
            Persistency::OnDemand => 1,
            Persistency::Permanent => 2,
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Persistency::Persistent => "persistent",
            Persistency::OnDemand => "on-demand",
            Persistency::Permanent => "permanent",
        }
    }
}

/// One face of the daemon.
#[derive(Debug)]
pub struct Face {
    /// The `[[faces]]` entry it comes from (a Unix listener's connections share their listener's).
    pub name: Option<String>,
    pub transport: Transport,
    /// For the report: the UDP peer or the listener's path.
    pub remote: String,
    pub counters: DriverCounters,
    pub persistency: Persistency,
    /// An on-demand UDP face received something since the last idle check (`udp`).
    pub recently_received: bool,
    /// A configured rate and queue the face's frames leave through (`link`); `None`: sent at once.
    pub output: Option<link::LinkOutput>,
    /// NFD's local scope: management answers only such faces. Unix connections, and TCP
    /// connections whose peer is a loopback address (NFD's TcpChannel rule); never UDP.
    pub local_scope: bool,
    /// The local end, for a TCP face (`tcp4://ADDRESS:PORT`): NFD's LocalUri.
    pub local: Option<String>,
    /// A TCP face's peer: where a permanent face connects again (`tcp`).
    pub tcp_peer: Option<SocketAddr>,
    /// A UDP face's NDNLPv2 link service: fragmentation, reassembly, reliability (`lp`).
    pub lp: Option<Box<lp::LinkService>>,
}

impl Face {
    /// A UDP face with NFD's defaults: its MTU, and no reliability.
    pub fn udp(name: Option<String>, peer: SocketAddr) -> Face {
        Face::udp_with(name, peer, lp::LinkService::new(None, peer.is_ipv6(), false))
    }

    pub fn udp_with(name: Option<String>, peer: SocketAddr, service: lp::LinkService) -> Face {
        Face {
            lp: Some(Box::new(service)),
            name,
            transport: Transport::Udp(peer),
            remote: format!("udp://{peer}"),
            counters: Default::default(),
            persistency: Persistency::Persistent,
            recently_received: false,
            output: None,
            local_scope: false,
            local: None,
            tcp_peer: None,
        }
    }

    pub fn unix(name: Option<String>, path: &Path, writer: mpsc::Sender<Vec<u8>>) -> Face {
        let remote = format!("unix://{}", path.display());
        Face { local_scope: true, ..Face::stream(name, remote, writer, Persistency::OnDemand) }
    }

    /// A TCP connection to or from `peer`, whose local end is `local` (if known yet).
    pub fn tcp(
        name: Option<String>,
        peer: SocketAddr,
        local: Option<SocketAddr>,
        writer: mpsc::Sender<Vec<u8>>,
        persistency: Persistency,
    ) -> Face {
        let uri = tcp_uri;
        Face {
            local_scope: peer.ip().is_loopback(),
            local: local.map(uri),
            tcp_peer: Some(peer),
            ..Face::stream(name, uri(peer), writer, persistency)
        }
    }

    fn stream(name: Option<String>, remote: String, writer: mpsc::Sender<Vec<u8>>, persistency: Persistency) -> Face {
        Face {
            name,
            transport: Transport::Stream(writer),
            remote,
            counters: Default::default(),
            persistency,
            recently_received: false,
            output: None,
            local_scope: false,
            local: None,
            tcp_peer: None,
            lp: None,
        }
    }
}
