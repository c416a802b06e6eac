//! UDP faces as NFD's UdpChannel makes them (NFD daemon/face/udp-channel.cpp): one socket listens
//! (port 6363 by default), and each remote endpoint is a face of its own, made when the config
//! names the peer or when a first packet arrives from an endpoint no face has. Each datagram is
//! one NDN packet or one NDNLPv2 LpPacket.
//!
//! Where we differ from NFD, and why:
//! - NFD gives each face a socket connected to its peer; here every face sends through the one
//!   listening socket (`send_to`), which is what a peer sees from NFD too (the same local port),
//!   with one socket to poll instead of one per peer.
//! - NFD makes the face for a new endpoint before decoding its first datagram; here a datagram
//!   from an unknown endpoint makes a face only if it decodes, so garbage sprayed from many
//!   source ports cannot fill the face table (issue 25, hostile input). It is counted in
//!   `UdpFaces::unknown_malformed`.
//! - NFD closes an on-demand face after 600 s idle (`face_system.udp.idle_timeout`); ours stay.

use std::collections::HashMap;
use std::io;
use std::net::SocketAddr;

use ndnflow_core::table::FaceId;
use tokio::net::UdpSocket;

/// The largest packet accepted (ndn-cxx's MAX_NDN_PACKET_SIZE, 8800 bytes, which NFD enforces):
/// a datagram or stream element past it is dropped as malformed.
pub const MAX_PACKET_SIZE: usize = 8800;

pub struct UdpFaces {
    socket: UdpSocket,
    peers: HashMap<SocketAddr, FaceId>,
    /// Datagrams from endpoints without a face that did not decode: dropped, no face made.
    pub unknown_malformed: u64,
}

impl UdpFaces {
    pub async fn bind(addr: SocketAddr) -> io::Result<UdpFaces> {
        let socket = UdpSocket::bind(addr).await?;
        Ok(UdpFaces { socket, peers: HashMap::new(), unknown_malformed: 0 })
    }

    pub fn local_addr(&self) -> io::Result<SocketAddr> {
        self.socket.local_addr()
    }

    pub fn face_of(&self, peer: SocketAddr) -> Option<FaceId> {
        self.peers.get(&peer).copied()
    }

    pub fn insert(&mut self, peer: SocketAddr, face: FaceId) {
        self.peers.insert(peer, face);
    }

    /// Forgets `peer`'s face (destroyed): its next datagram makes a new one.
    pub fn remove(&mut self, peer: SocketAddr) {
        self.peers.remove(&peer);
    }

    /// Receives one datagram into `buf` (which should hold `MAX_PACKET_SIZE + 1` bytes, so that a
    /// datagram too large shows as longer than the limit). Cancel-safe, for `select!`.
    pub async fn recv(&self, buf: &mut [u8]) -> io::Result<(usize, SocketAddr)> {
        self.socket.recv_from(buf).await
    }

    /// Sends one encoded packet without waiting; false when it was not sent (the socket's buffer
    /// is full, as a router's queue overflowing: UDP promises nothing more).
    pub fn send(&self, peer: SocketAddr, bytes: &[u8]) -> bool {
        matches!(self.socket.try_send_to(bytes, peer), Ok(n) if n == bytes.len())
    }
}
