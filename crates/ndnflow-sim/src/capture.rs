//! pcap captures of chosen link directions (`[trace] pcap`, docs/wire-format.md "Captures").
//!
//! Each frame a captured direction puts on the wire is encoded with the core's codec (the engine
//! moves frames as values and only charges their size) and written as one pcap record, at the
//! simulated instant its transmission starts (lost frames included: they were transmitted). The
//! record holds an IPv4 header and a UDP header, port 6363 at both ends (NFD's UDP face port,
//! NFD daemon/face/udp-factory.cpp), around the exact NDN-TLV / NDNLPv2 bytes.
//!
//! Format choices (the pcap file format, draft-ietf-opsawg-pcap, and tcpdump.org's link-layer
//! types):
//! * Nanosecond pcap (magic 0xA1B23C4D): simulated time is integer nanoseconds, so timestamps are
//!   exact; Wireshark and tshark read it.
//! * LINKTYPE_RAW (101), raw IPv4 without an Ethernet header: a simulated link is point to point
//!   with no MAC addresses to invent, and each frame is 14 bytes shorter.
//! * UDP checksum 0 ("no checksum", allowed over IPv4 by RFC 768): computing it would read every
//!   payload byte once more for nothing a reader needs. The IPv4 header checksum is computed
//!   (RFC 791), so Wireshark shows no checksum error.
//! * A UDP datagram carries at most 65,507 bytes over IPv4. A longer frame (only on a link with
//!   no `mtu`, which a real UDP face would not allow) is written truncated to that, with its real
//!   length as the record's original length, and counted in `CaptureStats::truncated`.
//!
//! Nothing here is on a hot path unless a direction is captured: the engine tests one `Option`
//! per transmitted frame. Memory is bounded: one 64 KiB write buffer and two scratch buffers (the
//! largest frame) per captured direction.

use std::io::{self, Write};
use std::sync::{Arc, Mutex};

use ndnflow_core::link::frag::{encode_fragment_into, FragTag};
use ndnflow_core::packet::lp::{encode_frame_into, encode_idle_packet, encode_net_packet};
use ndnflow_core::packet::{Frame, NetPacket};
use ndnflow_core::Time;

use crate::link::is_idle;

/// NFD's UDP face port, both ends.
pub const NDN_UDP_PORT: u16 = 6363;
/// tcpdump.org LINKTYPE_RAW: each record starts with an IPv4 (or IPv6) header.
pub const LINKTYPE_RAW: u32 = 101;
/// pcap magic number of a file whose timestamps are in nanoseconds.
pub const MAGIC_NANOSECONDS: u32 = 0xA1B2_3C4D;
/// The largest IPv4 datagram, and so the largest record.
pub const SNAPLEN: u32 = 65_535;
pub const GLOBAL_HEADER_LEN: usize = 24;
pub const RECORD_HEADER_LEN: usize = 16;
/// IPv4 header (no options) + UDP header.
pub const IP_UDP_LEN: usize = 20 + 8;
/// The largest UDP payload over IPv4.
pub const MAX_UDP_PAYLOAD: usize = SNAPLEN as usize - IP_UDP_LEN;
/// Bytes a capture file takes per frame besides the frame itself.
pub const PER_FRAME_OVERHEAD: usize = RECORD_HEADER_LEN + IP_UDP_LEN;
/// Write buffer of one captured direction.
pub const BUFFER_BYTES: usize = 64 << 10;

/// The address of node `index` (scenario order from 0): 10.x.y.z holding `index + 1`, so the
/// first node is 10.0.0.1 and no node gets a network address ending in .0.0.0.
pub fn node_address(index: usize) -> [u8; 4] {
    let n = (index as u32).wrapping_add(1);
    [10, (n >> 16) as u8, (n >> 8) as u8, n as u8]
}

/// The pcap global header: nanosecond magic, version 2.4, UTC, snapshot length 65,535,
/// LINKTYPE_RAW; little-endian, as the magic number tells readers.
pub fn global_header() -> [u8; GLOBAL_HEADER_LEN] {
    let mut h = [0u8; GLOBAL_HEADER_LEN];
    h[0..4].copy_from_slice(&MAGIC_NANOSECONDS.to_le_bytes());
    h[4..6].copy_from_slice(&2u16.to_le_bytes());
    h[6..8].copy_from_slice(&4u16.to_le_bytes());
    // thiszone (8..12) and sigfigs (12..16) are 0.
    h[16..20].copy_from_slice(&SNAPLEN.to_le_bytes());
    h[20..24].copy_from_slice(&LINKTYPE_RAW.to_le_bytes());
    h
}

/// RFC 791 header checksum: the one's complement of the one's complement sum of the header's
/// 16-bit words, the checksum field counted as 0.
pub fn ipv4_checksum(header: &[u8]) -> u16 {
    let mut sum: u32 = header.chunks(2).map(|w| u32::from(w[0]) << 8 | u32::from(*w.get(1).unwrap_or(&0))).sum();
    while sum > 0xFFFF {
        sum = (sum & 0xFFFF) + (sum >> 16);
    }
    !(sum as u16)
}

/// The endpoints of a captured direction and the IPv4 identification of its next datagram.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Endpoints {
    pub src: [u8; 4],
    pub dst: [u8; 4],
    pub ident: u16,
}

/// The record header, IPv4 header and UDP header of a datagram of `payload` bytes sent at `at`,
/// and how many payload bytes the record holds (all of them, or `MAX_UDP_PAYLOAD`).
pub fn record_headers(at: Time, ends: Endpoints, payload: usize) -> ([u8; PER_FRAME_OVERHEAD], usize) {
    let kept = payload.min(MAX_UDP_PAYLOAD);
    let mut h = [0u8; PER_FRAME_OVERHEAD];
    let ns = at.0;
    h[0..4].copy_from_slice(&((ns / 1_000_000_000) as u32).to_le_bytes());
    h[4..8].copy_from_slice(&((ns % 1_000_000_000) as u32).to_le_bytes());
    h[8..12].copy_from_slice(&((IP_UDP_LEN + kept) as u32).to_le_bytes());
    h[12..16].copy_from_slice(&((IP_UDP_LEN + payload).min(u32::MAX as usize) as u32).to_le_bytes());
    let ip = &mut h[16..36];
    ip[0] = 0x45; // version 4, 5 words of header
    ip[2..4].copy_from_slice(&((IP_UDP_LEN + kept) as u16).to_be_bytes());
    ip[4..6].copy_from_slice(&ends.ident.to_be_bytes());
    ip[6] = 0x40; // Don't Fragment: NDNLPv2 fragments, IP never does
    ip[8] = 64; // TTL
    ip[9] = 17; // UDP
    ip[12..16].copy_from_slice(&ends.src);
    ip[16..20].copy_from_slice(&ends.dst);
    let checksum = ipv4_checksum(ip);
    ip[10..12].copy_from_slice(&checksum.to_be_bytes());
    let udp = &mut h[36..44];
    udp[0..2].copy_from_slice(&NDN_UDP_PORT.to_be_bytes());
    udp[2..4].copy_from_slice(&NDN_UDP_PORT.to_be_bytes());
    udp[4..6].copy_from_slice(&((8 + kept) as u16).to_be_bytes());
    (h, kept)
}

/// An in-memory destination for a capture that its owner can read while the capture writes to
/// it (a clone shares the bytes): for tests, and for a caller that wants the bytes, not a file.
#[derive(Clone, Default)]
pub struct SharedBuffer(pub Arc<Mutex<Vec<u8>>>);

impl SharedBuffer {
    /// A copy of the bytes written so far.
    pub fn bytes(&self) -> Vec<u8> {
        self.0.lock().unwrap_or_else(|poisoned| poisoned.into_inner()).clone()
    }
}

impl Write for SharedBuffer {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.0.lock().unwrap_or_else(|poisoned| poisoned.into_inner()).extend_from_slice(buf);
        Ok(buf.len())
    }
    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// What one capture wrote.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CaptureStats {
    pub frames: u64,
    /// Bytes of the file, global header included.
    pub file_bytes: u64,
    /// NDN bytes captured: the direction's `bytes` counter, but for the over-charge of marked
    /// fragments (`DirCapture::frame`).
    pub frame_bytes: u64,
    /// Frames cut to `MAX_UDP_PAYLOAD`.
    pub truncated: u64,
}

/// The capture of one link direction: encodes each transmitted frame and appends its record.
pub struct DirCapture {
    out: Box<dyn Write + Send>,
    ends: Endpoints,
    /// The frame being written, encoded.
    wire: Vec<u8>,
    /// The network packet being fragmented, encoded once for all its fragments, and its number
    /// on the direction.
    net: Vec<u8>,
    net_seq: Option<u64>,
    stats: CaptureStats,
    /// The first write error; later frames are not written.
    error: Option<io::Error>,
}

impl DirCapture {
    /// A capture writing to `out` (buffer it), from node `src` to node `dst`; writes the global
    /// header.
    pub fn new(mut out: Box<dyn Write + Send>, src: usize, dst: usize) -> io::Result<DirCapture> {
        out.write_all(&global_header())?;
        let ends = Endpoints { src: node_address(src), dst: node_address(dst), ident: 0 };
        let stats = CaptureStats { file_bytes: GLOBAL_HEADER_LEN as u64, ..CaptureStats::default() };
        Ok(DirCapture { out, ends, wire: Vec::new(), net: Vec::new(), net_seq: None, stats, error: None })
    }

    /// Records `frame`, whose transmission starts at `now`; `tag` says which fragment it is on a
    /// fragmenting direction. The record holds the encoding, whose length is the size the link
    /// charged, except on a fragment a marking queue marked or flagged, which the link charges 13
    /// (mark) or 8 (PCON's flags) bytes too many: the queue sizes the change as if the fragment
    /// were a whole frame (docs/wire-format.md, "Captures").
    pub fn frame(&mut self, now: Time, frame: &Frame, tag: Option<FragTag>) {
        if self.error.is_some() {
            return;
        }
        self.encode(frame, tag);
        let (headers, kept) = record_headers(now, self.ends, self.wire.len());
        self.ends.ident = self.ends.ident.wrapping_add(1);
        let written = self.out.write_all(&headers).and_then(|()| self.out.write_all(&self.wire[..kept]));
        if let Err(e) = written {
            self.error = Some(e);
            return;
        }
        let s = &mut self.stats;
        s.frames += 1;
        s.file_bytes += (PER_FRAME_OVERHEAD + kept) as u64;
        s.frame_bytes += self.wire.len() as u64;
        s.truncated += (kept < self.wire.len()) as u64;
    }

    /// `frame`'s bytes into `self.wire`: an IDLE packet, a fragment, or the whole frame.
    fn encode(&mut self, frame: &Frame, tag: Option<FragTag>) {
        self.wire.clear();
        match tag {
            Some(t) if t.count > 1 => {
                if self.net_seq != Some(t.seq) {
                    self.net.clear();
                    encode_net_packet(&frame.packet, &mut self.net);
                    self.net_seq = Some(t.seq);
                }
                let nack = match &frame.packet {
                    NetPacket::Nack(n) if t.index == 0 => Some(n.reason),
                    _ => None,
                };
                // NFD numbers fragments consecutively; the simulator does not model the values
                // (it charges their fixed 8 bytes), so the packet's number and the index stand in.
                let sequence = t.seq.wrapping_shl(16) | u64::from(t.index);
                let piece = &self.net[t.start as usize..(t.start + t.len) as usize];
                let numbers = (sequence, u64::from(t.index), u64::from(t.count));
                encode_fragment_into(&frame.lp, nack, numbers, piece, &mut self.wire);
            }
            _ if is_idle(frame) => encode_idle_packet(&frame.lp, &mut self.wire),
            _ => encode_frame_into(&frame.lp, &frame.packet, &mut self.wire),
        }
    }

    /// Flushes the file; the first error of the run, if any.
    pub fn finish(mut self) -> io::Result<CaptureStats> {
        if let Some(e) = self.error.take() {
            return Err(e);
        }
        self.out.flush()?;
        Ok(self.stats)
    }
}

#[cfg(test)]
#[path = "capture_tests.rs"]
mod tests;
