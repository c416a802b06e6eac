//! Unix stream faces for local applications, after NFD's UnixStreamChannel and StreamTransport
//! (NFD daemon/face/unix-stream-channel.cpp, stream-transport.hpp): a listener at a path, a face
//! of kind `App` (NFD's local scope) per connection, and TLV framing on the byte stream: read
//! TLV-TYPE and TLV-LENGTH, wait for the whole element, cut it out, decode it.
//!
//! A connection has a reader task (bytes -> decoded frames, to the daemon's channel) and a writer
//! task (a bounded queue of encoded packets -> the socket), so a slow application never blocks
//! the forwarder: a full queue drops the packet, counted. An element that decodes badly is
//! dropped and counted and the stream goes on (its length kept the framing in step); an element
//! that announces more than `MAX_PACKET_SIZE` bytes closes the connection, as NFD's
//! StreamTransport does when its buffer fills without a packet: past that point nothing says
//! where the next packet starts.

use std::io;
use std::path::Path;

use ndnflow_core::packet::tlv::Reader;
use ndnflow_core::packet::Frame;
use ndnflow_core::table::FaceId;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{UnixListener, UnixStream};
use tokio::sync::mpsc;
use tokio::task::JoinSet;

use super::udp::MAX_PACKET_SIZE;
use crate::daemon::Event;

/// Encoded packets a connection's writer holds before the daemon drops more (ours: about 1 MiB of
/// 1 KiB Data; NFD's StreamTransport queues without a bound).
pub const WRITE_QUEUE: usize = 1024;

/// Cuts whole TLV elements out of a byte stream.
#[derive(Default)]
pub struct TlvFramer {
    buf: Vec<u8>,
}

/// The stream announced an element larger than `MAX_PACKET_SIZE`: framing is lost.
#[derive(Debug, PartialEq, Eq)]
pub struct TooLarge(pub u64);

impl TlvFramer {
    pub fn push(&mut self, bytes: &[u8]) {
        self.buf.extend_from_slice(bytes);
    }

    /// The next whole element (TLV-TYPE, TLV-LENGTH and value), `None` until all its bytes are in.
    pub fn next_element(&mut self) -> Result<Option<Vec<u8>>, TooLarge> {
        let mut r = Reader::new(&self.buf);
        let header = r.read_var_number().and_then(|_| r.read_var_number());
        // A var-number read fails only for want of bytes (every first byte is a valid width).
        let Ok(len) = header else { return Ok(None) };
        let total = (r.offset() as u64).saturating_add(len);
        if total > MAX_PACKET_SIZE as u64 {
            return Err(TooLarge(total));
        }
        let total = total as usize;
        if self.buf.len() < total {
            return Ok(None);
        }
        let rest = self.buf.split_off(total);
        Ok(Some(std::mem::replace(&mut self.buf, rest)))
    }
}

/// Binds a listener at `path`, making its directory. A socket file left by a daemon that died is
/// replaced (NFD's UnixStreamChannel does the same); one a live daemon answers on, or a file that
/// is not a socket, is an error.
pub async fn bind(path: &Path) -> io::Result<UnixListener> {
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir)?;
    }
    if let Ok(meta) = std::fs::symlink_metadata(path) {
        use std::os::unix::fs::FileTypeExt;
        if !meta.file_type().is_socket() {
            let msg = format!("{} exists and is not a socket", path.display());
            return Err(io::Error::new(io::ErrorKind::AlreadyExists, msg));
        }
        if UnixStream::connect(path).await.is_ok() {
            let msg = format!("another process is listening on {}", path.display());
            return Err(io::Error::new(io::ErrorKind::AddrInUse, msg));
        }
        std::fs::remove_file(path)?;
    }
    UnixListener::bind(path)
}

/// Accepts connections on listener number `listener` and hands each to the daemon.
pub(crate) fn spawn_accept(
    tasks: &mut JoinSet<()>,
    socket: UnixListener,
    listener: usize,
    events: mpsc::Sender<Event>,
) {
    tasks.spawn(async move {
        loop {
            match socket.accept().await {
                Ok((stream, _)) => {
                    if events.send(Event::Accepted { listener, stream }).await.is_err() {
                        return; // the daemon has stopped
                    }
                }
                // EMFILE and the like: wait rather than spin, and go on accepting.
                Err(_) => tokio::time::sleep(std::time::Duration::from_millis(100)).await,
            }
        }
    });
}

/// Starts the reader and writer tasks of a connection that is face `face`; returns the writer's
/// queue.
pub(crate) fn spawn_connection(
    tasks: &mut JoinSet<()>,
    stream: UnixStream,
    face: FaceId,
    events: mpsc::Sender<Event>,
) -> mpsc::Sender<Vec<u8>> {
    let (read, mut write) = stream.into_split();
    let (queue, mut packets) = mpsc::channel::<Vec<u8>>(WRITE_QUEUE);
    tasks.spawn(async move {
        while let Some(bytes) = packets.recv().await {
            if write.write_all(&bytes).await.is_err() {
                return;
            }
        }
    });
    tasks.spawn(read_loop(read, face, events));
    queue
}

async fn read_loop(mut read: tokio::net::unix::OwnedReadHalf, face: FaceId, events: mpsc::Sender<Event>) {
    let mut framer = TlvFramer::default();
    let mut chunk = vec![0u8; 16 * 1024];
    loop {
        let n = match read.read(&mut chunk).await {
            Ok(0) | Err(_) => break,
            Ok(n) => n,
        };
        framer.push(&chunk[..n]);
        loop {
            let event = match framer.next_element() {
                Ok(None) => break,
                Ok(Some(element)) => match Frame::decode(&element) {
                    Ok(frame) => Event::Frame { face, frame },
                    Err(_) => Event::Malformed { face },
                },
                Err(TooLarge(_)) => {
                    let _ = events.send(Event::Malformed { face }).await;
                    let _ = events.send(Event::Closed { face }).await;
                    return;
                }
            };
            if events.send(event).await.is_err() {
                return;
            }
        }
    }
    let _ = events.send(Event::Closed { face }).await;
}

/// Removes a listener's socket file when the daemon stops (a leftover would be replaced by the
/// next daemon anyway; this keeps the directory clean).
pub fn remove_socket(path: &Path) {
    let _ = std::fs::remove_file(path);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_framer_cuts_whole_elements_and_waits_for_the_rest() {
        let mut f = TlvFramer::default();
        // Two elements: type 5 length 2 "ab", type 6 length 0. Fed one byte short of the first.
        f.push(&[5, 2, b'a']);
        assert_eq!(f.next_element(), Ok(None));
        f.push(&[b'b', 6, 0]);
        assert_eq!(f.next_element(), Ok(Some(vec![5, 2, b'a', b'b'])));
        assert_eq!(f.next_element(), Ok(Some(vec![6, 0])));
        assert_eq!(f.next_element(), Ok(None));
    }

    #[test]
    fn a_length_split_across_reads_and_a_three_byte_length_are_read() {
        let mut f = TlvFramer::default();
        // Type 6, length 300 as a 3-byte var-number (253, 0x01, 0x2C), fed in pieces.
        f.push(&[6, 253, 0x01]);
        assert_eq!(f.next_element(), Ok(None));
        f.push(&[0x2C]);
        f.push(&[7u8; 300]);
        let element = f.next_element().unwrap().unwrap();
        assert_eq!(element.len(), 4 + 300);
    }

    #[test]
    fn an_element_past_8800_bytes_is_refused_from_its_header() {
        let mut f = TlvFramer::default();
        // Length 8797 + a 4-byte header (1 type byte, 3 length bytes) = 8801 > 8800.
        f.push(&[6, 253, 0x22, 0x5D]);
        assert_eq!(f.next_element(), Err(TooLarge(8801)));
        let mut g = TlvFramer::default();
        // 8796 + 4 = 8800: accepted once the bytes are in.
        g.push(&[6, 253, 0x22, 0x5C]);
        assert_eq!(g.next_element(), Ok(None));
        g.push(&vec![0u8; 8796]);
        assert_eq!(g.next_element().unwrap().map(|e| e.len()), Some(8800));
    }
}
