//! A face over a byte stream (a Unix or TCP connection), after NFD's StreamTransport (NFD
//! daemon/face/stream-transport.hpp): TLV framing on the byte stream (read TLV-TYPE and
//! TLV-LENGTH, wait for the whole element, cut it out, decode it), a reader task and a writer task.
//!
//! A connection has a reader task (bytes -> decoded frames, to the daemon's channel) and a writer
//! task (a bounded queue of encoded packets -> the socket), so a slow peer never blocks the
//! forwarder: a full queue drops the packet, counted. An element that decodes badly is dropped and
//! counted and the stream goes on (its length kept the framing in step); an element that
//! announces more than `MAX_PACKET_SIZE` bytes closes the connection, as NFD's StreamTransport
//! does when its buffer fills without a packet: past that point nothing says where the next
//! packet starts.

use ndnflow_core::packet::tlv::Reader;
use ndnflow_core::packet::Frame;
use ndnflow_core::table::FaceId;
use tokio::io::{AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt};
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
    /// Where the next element starts in `buf`: the elements before it have been cut. The bytes
    /// are moved down only when more are pushed, so a read holding many packets costs one copy of
    /// its incomplete tail, not one of the whole rest per packet.
    start: usize,
}

/// The stream announced an element larger than `MAX_PACKET_SIZE`: framing is lost.
#[derive(Debug, PartialEq, Eq)]
pub struct TooLarge(pub u64);

impl TlvFramer {
    pub fn push(&mut self, bytes: &[u8]) {
        if self.start > 0 {
            self.buf.drain(..self.start);
            self.start = 0;
        }
        self.buf.extend_from_slice(bytes);
    }

    /// The next whole element (TLV-TYPE, TLV-LENGTH and value), `None` until all its bytes are in.
    pub fn next_element(&mut self) -> Result<Option<Vec<u8>>, TooLarge> {
        Ok(self.next_slice()?.map(<[u8]>::to_vec))
    }

    /// As `next_element`, borrowed from the framer's buffer (the daemon decodes it in place).
    pub fn next_slice(&mut self) -> Result<Option<&[u8]>, TooLarge> {
        let rest = &self.buf[self.start..];
        let mut r = Reader::new(rest);
        let header = r.read_var_number().and_then(|_| r.read_var_number());
        // A var-number read fails only for want of bytes (every first byte is a valid width).
        let Ok(len) = header else { return Ok(None) };
        let total = (r.offset() as u64).saturating_add(len);
        if total > MAX_PACKET_SIZE as u64 {
            return Err(TooLarge(total));
        }
        let total = total as usize;
        if rest.len() < total {
            return Ok(None);
        }
        let element = self.start..self.start + total;
        self.start += total;
        Ok(Some(&self.buf[element]))
    }
}

/// Starts the reader and writer tasks of a connection that is face `face`; returns the writer's
/// queue.
pub(crate) fn spawn_connection<S>(
    tasks: &mut JoinSet<()>,
    stream: S,
    face: FaceId,
    events: mpsc::Sender<Event>,
) -> mpsc::Sender<Vec<u8>>
where
    S: AsyncRead + AsyncWrite + Send + 'static,
{
    let (queue, packets) = mpsc::channel::<Vec<u8>>(WRITE_QUEUE);
    serve_connection(tasks, stream, face, events, packets);
    queue
}

/// Runs the reader and writer tasks of `stream`, the writer draining `packets`.
pub(crate) fn serve_connection<S>(
    tasks: &mut JoinSet<()>,
    stream: S,
    face: FaceId,
    events: mpsc::Sender<Event>,
    mut packets: mpsc::Receiver<Vec<u8>>,
) where
    S: AsyncRead + AsyncWrite + Send + 'static,
{
    let (read, mut write) = tokio::io::split(stream);
    tasks.spawn(async move {
        let mut batch = Vec::new();
        while let Some(bytes) = packets.recv().await {
            if write_waiting(&mut write, bytes, &mut packets, &mut batch).await.is_err() {
                return;
            }
        }
        // The face was closed (its queue dropped): the peer reads the end of the stream, as when
        // NFD destroys a face.
        let _ = write.shutdown().await;
    });
    tasks.spawn(async move {
        read_loop(read, face, &events).await;
        let _ = events.send(Event::Closed { face }).await;
    });
}

/// A burst is gathered into writes of about this many bytes at most (the last packet taken may
/// pass it), so that the buffer a connection keeps stays small.
const WRITE_BATCH: usize = 64 * 1024;

/// Writes `first` together with the packets already queued behind it, in one write: one system
/// call and one wake-up of the peer for a burst instead of one per packet (the daemon queues a
/// packet per Interest forwarded, and queues many before this task runs). The packets are copied
/// into `batch`, which is kept for the next burst; a lone packet is written from its own buffer.
async fn write_waiting(
    write: &mut (impl AsyncWrite + Unpin),
    first: Vec<u8>,
    packets: &mut mpsc::Receiver<Vec<u8>>,
    batch: &mut Vec<u8>,
) -> std::io::Result<()> {
    let Ok(second) = packets.try_recv() else { return write.write_all(&first).await };
    batch.clear();
    batch.extend_from_slice(&first);
    batch.extend_from_slice(&second);
    while batch.len() < WRITE_BATCH {
        let Ok(next) = packets.try_recv() else { break };
        batch.extend_from_slice(&next);
    }
    write.write_all(batch).await
}

/// Serves `stream` as face `face` until the connection ends (the peer closed it, or a read or a
/// write failed): the writer's queue back, to serve the next connection; `None` when the face was
/// closed meanwhile (its queue's sender dropped). A permanent TCP face's connections (`tcp`).
pub(crate) async fn serve_until_broken<S>(
    stream: S,
    face: FaceId,
    events: &mpsc::Sender<Event>,
    mut packets: mpsc::Receiver<Vec<u8>>,
) -> Option<mpsc::Receiver<Vec<u8>>>
where
    S: AsyncRead + AsyncWrite,
{
    let (read, mut write) = tokio::io::split(stream);
    let reader = read_loop(read, face, events);
    tokio::pin!(reader);
    loop {
        tokio::select! {
            _ = &mut reader => return Some(packets),
            // Packet by packet, not `write_waiting`: when the connection breaks, what is still
            // queued goes on the next connection, and a gathered burst would be lost with it.
            p = packets.recv() => match p {
                Some(bytes) => {
                    if write.write_all(&bytes).await.is_err() {
                        return Some(packets);
                    }
                }
                None => {
                    let _ = write.shutdown().await;
                    return None;
                }
            },
        }
    }
}

/// Reads frames from `read` to the daemon until the stream ends, fails, or loses its framing.
async fn read_loop(mut read: impl AsyncRead + Unpin, face: FaceId, events: &mpsc::Sender<Event>) {
    let mut framer = TlvFramer::default();
    let mut chunk = vec![0u8; 16 * 1024];
    loop {
        let n = match read.read(&mut chunk).await {
            Ok(0) | Err(_) => break,
            Ok(n) => n,
        };
        framer.push(&chunk[..n]);
        loop {
            let event = match framer.next_slice() {
                Ok(None) => break,
                Ok(Some(element)) => match Frame::decode(element) {
                    Ok(frame) => Event::Frame { face, frame },
                    Err(_) => Event::Malformed { face },
                },
                Err(TooLarge(_)) => {
                    let _ = events.send(Event::Malformed { face }).await;
                    return;
                }
            };
            if events.send(event).await.is_err() {
                return;
            }
        }
    }
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
    fn an_element_cut_before_more_bytes_come_is_not_seen_again() {
        let mut f = TlvFramer::default();
        // "5 1 a" whole, then "6 1" waiting for its value: the first is cut, then the push of
        // "b" moves the waiting two bytes down and completes the second.
        f.push(&[5, 1, b'a', 6, 1]);
        assert_eq!(f.next_slice(), Ok(Some(&[5, 1, b'a'][..])));
        assert_eq!(f.next_slice(), Ok(None));
        f.push(b"b");
        assert_eq!(f.next_element(), Ok(Some(vec![6, 1, b'b'])));
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
