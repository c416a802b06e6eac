//! TCP faces, after NFD's TcpChannel and TcpFactory (NFD daemon/face/tcp-channel.cpp,
//! tcp-factory.cpp): a listener (port 6363 by default) making a face per accepted connection, and
//! faces that connect out to a peer (`[[faces]] tcp = ...`, or management's `faces/create
//! tcp4://...`). The byte stream is framed and served by `stream`, as a Unix connection's is.
//!
//! Where we differ from NFD, and why:
//! - A face that connects out exists at once: frames sent before the connection is up wait in its
//!   writer's queue. NFD answers `faces/create` only once connected (504 when it cannot); here
//!   the command answers 200 at once and a face that cannot connect closes, taking its routes.
//!
//! A permanent face (the configuration's TCP faces by default, or faces/create with
//! FacePersistency 2) does what NFD's TcpTransport does for one (daemon/face/tcp-transport.cpp):
//! when its connection fails or ends, the face goes down (its routes stay, the forwarder sends it
//! nothing) and it connects again, at once and then after each wait without success, the wait
//! starting at 1 s and doubling up to 5 min (`s_initialReconnectWait`, `s_maxReconnectWait`,
//! `s_reconnectWaitMultiplier`); once connected the face is up again and the wait back at 1 s.
//! What was queued for the broken connection is dropped, as NFD resets its send queue. A
//! persistent face (faces/create's default) closes for good when its connection fails.
//!
//! faces/update may change a face's persistency afterwards (NFD's TcpTransport allows any
//! change). A face made permanent keeps the connection task it started with until that
//! connection ends; then, instead of closing, it goes down and `spawn_reconnect` starts the
//! reconnecting loop above for it. A permanent face made otherwise closes at its next break
//! (`tcp_down`), or at once if it is down.

use std::io;
use std::net::SocketAddr;
use std::time::Duration;

use ndnflow_core::table::FaceId;
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::mpsc;
use tokio::task::JoinSet;

use super::stream::{self, WRITE_QUEUE};
use super::{Persistency, Transport};
use crate::daemon::{Daemon, Event};
use crate::mgmt::notify::FaceEvent;

pub async fn bind(addr: SocketAddr) -> io::Result<TcpListener> {
    TcpListener::bind(addr).await
}

/// Accepts connections and hands each to the daemon.
pub(crate) fn spawn_accept(tasks: &mut JoinSet<()>, socket: TcpListener, events: mpsc::Sender<Event>) {
    tasks.spawn(async move {
        loop {
            match socket.accept().await {
                Ok((stream, peer)) => {
                    let _ = stream.set_nodelay(true); // NDN packets are whole messages: send each at once
                    if events.send(Event::TcpAccepted { stream, peer }).await.is_err() {
                        return;
                    }
                }
                Err(_) => tokio::time::sleep(std::time::Duration::from_millis(100)).await,
            }
        }
    });
}

/// NFD TcpTransport's first wait before a permanent face tries again (`s_initialReconnectWait`).
pub const INITIAL_RECONNECT_WAIT: Duration = Duration::from_secs(1);
/// Its longest wait (`s_maxReconnectWait`, 5 minutes); each wait without success doubles.
pub const MAX_RECONNECT_WAIT: Duration = Duration::from_secs(300);

/// Connects face `face` to `peer` in the background; returns its writer's queue at once. If the
/// connection fails, the daemon hears `Closed`; a `permanent` face's hears `Down`, and `Up` each
/// time it connects.
pub(crate) fn spawn_connect(
    tasks: &mut JoinSet<()>,
    peer: SocketAddr,
    face: FaceId,
    events: mpsc::Sender<Event>,
    permanent: bool,
) -> mpsc::Sender<Vec<u8>> {
    let (queue, packets) = mpsc::channel::<Vec<u8>>(WRITE_QUEUE);
    if permanent {
        tasks.spawn(keep_connected(peer, face, events, packets, true));
        return queue;
    }
    tasks.spawn(async move {
        match TcpStream::connect(peer).await {
            Ok(stream) => {
                let _ = stream.set_nodelay(true);
                let mut inner = JoinSet::new();
                stream::serve_connection(&mut inner, stream, face, events, packets);
                while inner.join_next().await.is_some() {}
            }
            Err(_) => {
                let _ = events.send(Event::Closed { face }).await;
            }
        }
    });
    queue
}

/// A face made permanent by faces/update after its connection was made (or failed), whose
/// connection has now ended: down already, it connects again as a permanent face does; its new
/// writer's queue.
pub(crate) fn spawn_reconnect(
    tasks: &mut JoinSet<()>,
    peer: SocketAddr,
    face: FaceId,
    events: mpsc::Sender<Event>,
) -> mpsc::Sender<Vec<u8>> {
    let (queue, packets) = mpsc::channel::<Vec<u8>>(WRITE_QUEUE);
    tasks.spawn(keep_connected(peer, face, events, packets, false));
    queue
}

/// A permanent face's connection, for as long as the face lives (until its queue's sender is
/// dropped): connect, serve until broken, go down, and try again with NFD's backoff. `up`: whether
/// the face is up as this starts (a new face is; one whose connection just ended is not).
async fn keep_connected(
    peer: SocketAddr,
    face: FaceId,
    events: mpsc::Sender<Event>,
    mut packets: mpsc::Receiver<Vec<u8>>,
    mut up: bool,
) {
    let mut wait = INITIAL_RECONNECT_WAIT;
    while !packets.is_closed() {
        let started = tokio::time::Instant::now();
        let (stream, refused) = match tokio::time::timeout(wait, TcpStream::connect(peer)).await {
            Ok(Ok(stream)) => (Some(stream), false),
            Ok(Err(_)) => (None, true),
            Err(_) => (None, false), // no answer within the wait
        };
        if let Some(stream) = stream {
            let _ = stream.set_nodelay(true);
            wait = INITIAL_RECONNECT_WAIT;
            if !up {
                while packets.try_recv().is_ok() {} // what waited for a dead connection
                let _ = events.send(Event::Up { face, local: stream.local_addr().ok() }).await;
            }
            packets = match super::stream::serve_until_broken(stream, face, &events, packets).await {
                Some(packets) => packets,
                None => return,
            };
            // Broken: down, and an attempt at once (NFD posts `reconnect` without waiting).
            let _ = events.send(Event::Down { face }).await;
            up = false;
            continue;
        }
        if up {
            let _ = events.send(Event::Down { face }).await;
            up = false;
        }
        // Refused at once: NFD's attempt waits for its timer all the same.
        if refused && !wait_out(started + wait, &mut packets).await {
            return;
        }
        wait = (wait * 2).min(MAX_RECONNECT_WAIT);
    }
}

/// Waits until `until`, dropping what the daemon queues meanwhile (the face is down); false when
/// the face was closed.
async fn wait_out(until: tokio::time::Instant, packets: &mut mpsc::Receiver<Vec<u8>>) -> bool {
    loop {
        tokio::select! {
            _ = tokio::time::sleep_until(until) => return true,
            p = packets.recv() => if p.is_none() { return false },
        }
    }
}

impl Daemon {
    /// A permanent face's connection broke: down in the forwarder, its routes kept. A face that
    /// faces/update has made persistent or on-demand meanwhile closes instead (NFD's
    /// TcpTransport: a face that is not permanent is never down).
    pub(crate) fn tcp_down(&mut self, face: FaceId) {
        let Some(f) = self.faces.get(face.index()).filter(|f| !matches!(f.transport, Transport::Closed)) else {
            return;
        };
        if f.persistency == Persistency::Permanent {
            self.forwarder.set_face_up(face, false);
            self.face_event(FaceEvent::Down, face);
        } else {
            self.close_face(face);
        }
    }

    /// A stream connection ended (`Closed`): the face closes, unless it is a TCP face made
    /// permanent by faces/update, which goes down instead, keeping its routes, and connects again
    /// to its peer (`spawn_reconnect`). Faces permanent from the start never send `Closed`.
    pub(crate) fn stream_closed(&mut self, face: FaceId) {
        let Some(f) = self.faces.get(face.index()) else { return };
        match f.tcp_peer {
            Some(peer) if f.persistency == Persistency::Permanent && !matches!(f.transport, Transport::Closed) => {
                self.forwarder.set_face_up(face, false);
                let writer = spawn_reconnect(&mut self.tasks, peer, face, self.events_tx.clone());
                self.faces[face.index()].transport = Transport::Stream(writer);
                self.face_event(FaceEvent::Down, face);
            }
            _ => self.close_face(face),
        }
    }

    /// It connected again, from `local`: up, and counted.
    pub(crate) fn tcp_up(&mut self, face: FaceId, local: Option<SocketAddr>) {
        let Some(f) = self.faces.get_mut(face.index()).filter(|f| !matches!(f.transport, Transport::Closed)) else {
            return;
        };
        f.counters.reconnects += 1;
        if let Some(local) = local {
            f.local = Some(super::tcp_uri(local));
        }
        self.forwarder.set_face_up(face, true);
        self.face_event(FaceEvent::Up, face);
    }
}
