//! TCP faces, after NFD's TcpChannel and TcpFactory (NFD daemon/face/tcp-channel.cpp,
//! tcp-factory.cpp): a listener (port 6363 by default) making a face per accepted connection, and
//! faces that connect out to a peer (`[[faces]] tcp = ...`, or management's `faces/create
//! tcp4://...`). The byte stream is framed and served by `stream`, as a Unix connection's is.
//!
//! Where we differ from NFD, and why:
//! - A face that connects out exists at once: frames sent before the connection is up wait in its
//!   writer's queue. NFD answers `faces/create` only once connected (504 when it cannot); here
//!   the command answers 200 at once and a face that cannot connect closes, taking its routes.
//! - NFD reconnects a permanent face that breaks; a broken TCP face here is closed for good.

use std::io;
use std::net::SocketAddr;

use ndnflow_core::table::FaceId;
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::mpsc;
use tokio::task::JoinSet;

use super::stream::{self, WRITE_QUEUE};
use crate::daemon::Event;

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

/// Connects face `face` to `peer` in the background; returns its writer's queue at once. If the
/// connection fails, the daemon hears `Closed`.
pub(crate) fn spawn_connect(
    tasks: &mut JoinSet<()>,
    peer: SocketAddr,
    face: FaceId,
    events: mpsc::Sender<Event>,
) -> mpsc::Sender<Vec<u8>> {
    let (queue, packets) = mpsc::channel::<Vec<u8>>(WRITE_QUEUE);
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
