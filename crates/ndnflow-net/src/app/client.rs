//! The application's end of a Unix stream face: connect to the forwarder's socket, write encoded
//! packets, read whole TLV elements with the daemon's own framer (`face::unix::TlvFramer`). What
//! NFD's client libraries do over /run/nfd/nfd.sock (ndn-cxx UnixTransport).

use std::io;
use std::path::{Path, PathBuf};

use ndnflow_core::packet::Frame;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::unix::{OwnedReadHalf, OwnedWriteHalf};
use tokio::net::UnixStream;

use super::AppError;
use crate::face::unix::{TlvFramer, TooLarge};

/// A connection to a forwarder.
pub struct Client {
    read: OwnedReadHalf,
    write: OwnedWriteHalf,
    framer: TlvFramer,
    chunk: Vec<u8>,
    path: PathBuf,
    /// The element `recv` returned last, as it came (a signature is checked on these bytes).
    last: Vec<u8>,
}

/// What `Client::recv` returns besides a packet.
#[derive(Debug)]
pub enum Received {
    /// A whole element that decoded as a packet.
    Frame(Frame),
    /// A whole element that did not decode: skipped, the stream goes on.
    Malformed,
    /// The forwarder closed the connection.
    Closed,
}

impl Client {
    /// Connects to the forwarder listening at `path`; the error says which path and how to start one.
    pub async fn connect(path: &Path) -> Result<Client, AppError> {
        let stream = UnixStream::connect(path).await.map_err(|e| {
            AppError::Io(format!(
                "no forwarder at {}: {e} (start one with `ndnflow fwd CONFIG.toml`, or give --socket PATH)",
                path.display()
            ))
        })?;
        let (read, write) = stream.into_split();
        let chunk = vec![0; 16 * 1024];
        Ok(Client { read, write, framer: TlvFramer::default(), chunk, path: path.to_path_buf(), last: Vec::new() })
    }

    /// The bytes of the element `recv` returned last (a frame or a malformed element).
    pub fn last_element(&self) -> &[u8] {
        &self.last
    }

    /// The socket's path, for messages.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Writes one encoded packet.
    pub async fn send(&mut self, bytes: &[u8]) -> io::Result<()> {
        self.write.write_all(bytes).await
    }

    /// The next element from the forwarder. Cancel-safe (it may lose the race in a `select!`):
    /// bytes are handed to the framer only once a read has completed.
    pub async fn recv(&mut self) -> Result<Received, AppError> {
        loop {
            match self.framer.next_element() {
                Ok(Some(element)) => {
                    self.last = element;
                    return Ok(Frame::decode(&self.last).map_or(Received::Malformed, Received::Frame));
                }
                Ok(None) => {}
                Err(TooLarge(n)) => {
                    let msg = format!(
                        "the forwarder at {} sent a {n}-byte element: the stream is broken",
                        self.path.display()
                    );
                    return Err(AppError::Failed(msg));
                }
            }
            match self.read.read(&mut self.chunk).await {
                Ok(0) => return Ok(Received::Closed),
                Ok(n) => self.framer.push(&self.chunk[..n]),
                Err(e) => return Err(AppError::Failed(format!("reading from {}: {e}", self.path.display()))),
            }
        }
    }
}
