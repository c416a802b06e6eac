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
//!
//! An on-demand face closes when idle, as NFD's UnicastUdpTransport closes one: checked every
//! `listen.udp_idle_timeout` (NFD's `face_system.udp.idle_timeout`, 600 s), a face that received
//! nothing since the check before is closed, so a silent face goes after one to two periods. NFD
//! checks each face on a timer of its own from its creation; here one check covers them all, with
//! the same bounds. A closed face's peer that sends again gets a new face.

use std::collections::HashMap;
use std::io;
use std::net::SocketAddr;

use ndnflow_core::fw::FaceKind;
use ndnflow_core::table::FaceId;
use ndnflow_core::Time;
use tokio::net::UdpSocket;

use super::lp::LinkService;
use super::{Face, Persistency, Transport};
use crate::daemon::Daemon;

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

    /// Receives one datagram if one is waiting, without waiting (`WouldBlock` when none is).
    pub fn try_recv(&self, buf: &mut [u8]) -> io::Result<(usize, SocketAddr)> {
        self.socket.try_recv_from(buf)
    }

    /// Sends one encoded packet without waiting; false when it was not sent (the socket's buffer
    /// is full, as a router's queue overflowing: UDP promises nothing more).
    pub fn send(&self, peer: SocketAddr, bytes: &[u8]) -> bool {
        matches!(self.socket.try_send_to(bytes, peer), Ok(n) if n == bytes.len())
    }
}

impl Daemon {
    /// A datagram from `peer`, through its face's link service: a frame for the forwarder, a
    /// fragment kept for reassembly, Acks, or garbage (counted). From an endpoint without a face,
    /// it makes one (NFD's on-demand face) only if its link service could read it.
    pub(crate) fn on_datagram(&mut self, bytes: &[u8], peer: SocketAddr) {
        let Some(udp) = self.udp.as_mut() else { return };
        let now = self.clock.now();
        let known = udp.face_of(peer);
        let (face, mut service) = match known {
            Some(face) => match self.faces[face.index()].lp.take() {
                Some(service) => (Some(face), service),
                None => return,
            },
            None => (None, Box::new(LinkService::new(None, peer.is_ipv6(), false))),
        };
        let received = if bytes.len() > MAX_PACKET_SIZE {
            Err(())
        } else {
            service.receive(now, bytes, &mut |wire: &[u8]| udp.send(peer, wire)).map_err(|_| ())
        };
        let face = match (face, &received) {
            (Some(face), _) => {
                self.faces[face.index()].recently_received = true;
                face
            }
            (None, Ok(_)) => {
                let face = self.forwarder.add_face(FaceKind::Link);
                udp.insert(peer, face);
                self.faces.push(Face {
                    persistency: Persistency::OnDemand,
                    recently_received: true,
                    ..Face::udp(None, peer)
                });
                self.face_event(crate::mgmt::notify::FaceEvent::Created, face);
                face
            }
            (None, Err(())) => {
                udp.unknown_malformed += 1;
                return;
            }
        };
        let timed = service.poll_timeout().is_some();
        self.faces[face.index()].lp = Some(service);
        if timed && !self.lp_timed.contains(&face) {
            self.lp_timed.push(face);
        }
        match received {
            Ok(Some(frame)) => self.on_frame(face, frame),
            Ok(None) => {}
            Err(()) => self.count(face, |c| c.malformed += 1),
        }
    }

    /// Runs the UDP link services' timers due by `now` (retransmissions, IDLE packets, expired
    /// reassemblies); a face leaves the list once nothing is pending.
    pub(crate) fn link_timers(&mut self, now: ndnflow_core::Time) {
        let udp = self.udp.as_ref();
        let faces = &mut self.faces;
        self.lp_timed.retain(|id| {
            let face = &mut faces[id.index()];
            let (Some(service), Transport::Udp(peer)) = (face.lp.as_mut(), &face.transport) else { return false };
            if service.poll_timeout().is_some_and(|t| t <= now) {
                service.handle_timeout(now, &mut |wire: &[u8]| udp.is_some_and(|u| u.send(*peer, wire)));
            }
            service.poll_timeout().is_some()
        });
    }

    /// At `now`, if the idle check is due: closes the on-demand UDP faces that received nothing
    /// since the last check, and starts the next period for the others.
    pub(crate) fn close_idle_udp_faces(&mut self, now: Time) {
        if now < self.next_idle_check {
            return;
        }
        self.next_idle_check = now + self.config.udp_idle_timeout;
        let mut idle = Vec::new();
        for (i, f) in self.faces.iter_mut().enumerate() {
            if f.persistency != Persistency::OnDemand || !matches!(f.transport, Transport::Udp(_)) {
                continue;
            }
            if !std::mem::take(&mut f.recently_received) {
                idle.push(FaceId(i as u32));
            }
        }
        for face in idle {
            self.close_face(face);
        }
    }
}
