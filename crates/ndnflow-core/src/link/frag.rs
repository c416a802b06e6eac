//! NDNLPv2 fragmentation and reassembly on a link direction with an MTU.
//!
//! Sources: the NDNLPv2 specification ("Indexed Fragmentation": Sequence, FragIndex, FragCount,
//! Fragment), and NFD's GenericLinkService and LpFragmenter as ndnSIM's
//! `StackHelper::DefaultNetDeviceCallback` configures them (fragmentation, reassembly and
//! congestion marking allowed; the face MTU is the NetDevice's, 1500 B for an ns-3 point-to-point
//! device). docs/protocols/links.md ("Fragmentation") derives every number below.
//!
//! * **Sizes.** With congestion marking allowed NFD keeps 12 B of the MTU free for a CongestionMark
//!   (type 3 B + length 1 B + 8 B value). A frame is sent whole if it still fits with 20 B to spare
//!   (LpPacket, Sequence and Fragment headers at their largest). Otherwise the first fragment
//!   carries the frame's other header fields and `mtu' - header - 50` bytes of the network packet,
//!   every later one `mtu' - 50` (50 B: LpPacket, Sequence, FragIndex, FragCount and Fragment
//!   headers at their largest), where `mtu'` is the MTU less the 12 B. Each fragment is then
//!   encoded exactly: LpPacket { [header fields], Sequence (8 B), FragIndex, FragCount,
//!   Fragment { piece } }.
//! * **Fate.** Each fragment is queued, serialised and dropped on its own. A network packet counts
//!   as sent on the link when all its fragments were transmitted, as dropped when any was dropped.
//! * **Reassembly.** A point-to-point direction delivers in order, so a packet is complete when its
//!   fragments 0..n-1 arrive one after the other; a gap (a fragment dropped or lost) discards it,
//!   as NFD's reassembler does when its timer expires. The delivered packet carries the header of
//!   its first fragment (NFD decodes the link fields from fragment 0), with one exception: a
//!   congestion mark that a marking queue (CoDel, mark mode) set on any of its fragments marks the
//!   packet. Why: our queues mark the frame leaving at the moment CoDel decides, which may be any
//!   fragment; NFD's own marker decides when the link service hands the fragments over, all of a
//!   packet at one instant, so its periodic marks land on fragment 0 and mark the packet; and the
//!   papers mark Data packets (PCON §3.1, the survey §II-B). Dropping marks that hit fragments
//!   1..n-1 would silently discard five marks in six for an 8400-byte Data at MTU 1500. (IP does
//!   the same for ECN: RFC 3168 §5.3, CE on any fragment sets CE on the reassembled packet.)

use std::collections::VecDeque;

use smallvec::SmallVec;

use crate::packet::lp::{self, tlv_type};
use crate::packet::tlv::{nonneg_tlv_size, tlv_size, write_fixed_u64_tlv, write_nonneg_tlv, write_tl};
use crate::packet::{Frame, NetPacket, PacketKind};
use crate::packet::{LpHeader, NackReason};

/// Bytes of the MTU NFD keeps free for a CongestionMark when marking is allowed (ndnSIM allows
/// it): TLV-TYPE 832 (3 B) + TLV-LENGTH (1 B) + an 8-byte value.
pub const MARK_RESERVE: u32 = 12;
/// NFD LpFragmenter: largest overhead of sending a packet whole (LpPacket 1 + 9, Sequence
/// 1 + 1 + 8, Fragment 1 + 9).
pub const MAX_SINGLE_FRAG_OVERHEAD: u32 = 20;
/// NFD LpFragmenter: largest overhead of a fragment (LpPacket 1 + 9, Sequence, FragIndex and
/// FragCount 1 + 1 + 8 each, Fragment 1 + 9).
pub const MAX_FRAG_OVERHEAD: u32 = 50;
/// NFD LpFragmenter's default limit on fragments per packet (`nMaxFragments`).
pub const MAX_FRAGMENTS: usize = 400;
/// NFD's smallest face MTU (`MIN_MTU`); a scenario may not set a smaller one.
pub const MIN_MTU: u32 = 64;

/// One frame a network packet becomes on the link: its wire size and the slice of the network
/// packet's encoding it carries (the whole packet when sent unfragmented).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Piece {
    pub size: u32,
    pub start: u32,
    pub len: u32,
}

/// Wire sizes of the frames a network packet of `net` bytes becomes on a link of MTU `mtu`, when
/// its link header fields (Nack included, Fragment excluded) take `header` bytes and the whole
/// frame `whole` bytes. One entry: sent unfragmented. `None`: NFD cannot fragment it (the MTU is
/// too small for the first fragment, or more than 400 fragments) and drops it.
pub fn fragment_sizes(mtu: u32, header: usize, net: usize, whole: usize) -> Option<SmallVec<[u32; 8]>> {
    fragment_pieces(mtu, header, net, whole).map(|p| p.iter().map(|p| p.size).collect())
}

/// `fragment_sizes` with the slice of the packet each frame carries.
pub fn fragment_pieces(mtu: u32, header: usize, net: usize, whole: usize) -> Option<SmallVec<[Piece; 8]>> {
    let mtu = mtu.saturating_sub(MARK_RESERVE) as usize;
    if whole + MAX_SINGLE_FRAG_OVERHEAD as usize <= mtu {
        return Some(SmallVec::from_slice(&[Piece { size: whole as u32, start: 0, len: net as u32 }]));
    }
    let overhead = MAX_FRAG_OVERHEAD as usize;
    if overhead + header + 1 > mtu {
        return None;
    }
    let first = net.min(mtu - header - overhead);
    let rest = mtu - overhead;
    let count = 1 + (net - first).div_ceil(rest);
    if count > MAX_FRAGMENTS {
        return None;
    }
    let mut pieces = SmallVec::with_capacity(count);
    let mut start = 0;
    for index in 0..count {
        let piece = (net - start).min(if index == 0 { first } else { rest });
        let value = if index == 0 { header } else { 0 }
            + tlv_size(tlv_type::SEQUENCE, 8)
            + nonneg_tlv_size(tlv_type::FRAG_INDEX, index as u64)
            + nonneg_tlv_size(tlv_type::FRAG_COUNT, count as u64)
            + tlv_size(tlv_type::FRAGMENT, piece);
        let size = tlv_size(tlv_type::LP_PACKET, value) as u32;
        pieces.push(Piece { size, start: start as u32, len: piece as u32 });
        start += piece;
    }
    Some(pieces)
}

/// `fragment_pieces` for a frame as the forwarder hands it to the link.
pub fn frame_fragments(mtu: u32, frame: &Frame) -> Option<SmallVec<[Piece; 8]>> {
    let nack = match &frame.packet {
        NetPacket::Nack(n) => Some(n.reason),
        _ => None,
    };
    let fields = frame.lp.fields_size();
    let header = fields + nack.map_or(0, lp::nack_field_size);
    fragment_pieces(mtu, header, frame.net_size as usize, frame.wire_size() as usize)
}

/// Appends one NDNLPv2 fragment (NDNLPv2 "Indexed Fragmentation", NFD LpFragmenter):
/// LpPacket { Sequence, FragIndex, FragCount, [Nack], `header`'s fields, Fragment { `piece` } }, where
/// `piece` is a slice of the network packet's encoding. Fragment 0 carries the frame's header
/// fields and its Nack; the others carry only what a queue set on them (a CongestionMark). Its
/// length is what `link::frag::fragment_pieces` charged, plus any mark added since.
pub fn encode_fragment_into(
    header: &LpHeader,
    nack: Option<NackReason>,
    (sequence, index, count): (u64, u64, u64),
    piece: &[u8],
    out: &mut Vec<u8>,
) {
    // A fragmenting link runs no reliability (the scenario reader refuses both on one direction),
    // so the frame has no Sequence of its own to clash with the fragment's.
    debug_assert!(header.ext.as_deref().is_none_or(|e| e.sequence.is_none()));
    let value = tlv_size(tlv_type::SEQUENCE, 8)
        + nonneg_tlv_size(tlv_type::FRAG_INDEX, index)
        + nonneg_tlv_size(tlv_type::FRAG_COUNT, count)
        + nack.map_or(0, lp::nack_field_size)
        + header.fields_size()
        + tlv_size(tlv_type::FRAGMENT, piece.len());
    write_tl(out, tlv_type::LP_PACKET, value);
    write_fixed_u64_tlv(out, tlv_type::SEQUENCE, sequence);
    write_nonneg_tlv(out, tlv_type::FRAG_INDEX, index);
    write_nonneg_tlv(out, tlv_type::FRAG_COUNT, count);
    if let Some(reason) = nack {
        lp::encode_nack_field(reason, out);
    }
    header.encode_fields(out);
    write_tl(out, tlv_type::FRAGMENT, piece.len());
    out.extend_from_slice(piece);
}

/// Encodes `frame` as the LpPackets a link with `mtu` sends (NFD's GenericLinkService with
/// fragmentation on): one when it fits, numbered `first_sequence`, `first_sequence + 1`, ... when
/// it is fragmented, each fragment its own datagram. `None`: NFD cannot fragment it (more than
/// `MAX_FRAGMENTS` pieces, or an MTU too small for any), and it is dropped.
pub fn encode_fragments(mtu: u32, frame: &Frame, first_sequence: u64) -> Option<SmallVec<[Vec<u8>; 8]>> {
    let pieces = frame_fragments(mtu, frame)?;
    if pieces.len() == 1 {
        return Some(smallvec::smallvec![frame.encode()]);
    }
    let nack = match &frame.packet {
        NetPacket::Nack(n) => Some(n.reason),
        _ => None,
    };
    let mut net = Vec::with_capacity(frame.net_size as usize);
    lp::encode_net_packet(&frame.packet, &mut net);
    let count = pieces.len() as u64;
    let none = LpHeader::default();
    let wires = pieces.iter().enumerate().map(|(i, p)| {
        // Fragment 0 carries the frame's header fields and Nack; the others only the numbering.
        let (header, nack) = if i == 0 { (&frame.lp, nack) } else { (&none, None) };
        let mut wire = Vec::with_capacity(p.size as usize);
        let piece = &net[p.start as usize..(p.start + p.len) as usize];
        encode_fragment_into(header, nack, (first_sequence + i as u64, i as u64, count), piece, &mut wire);
        wire
    });
    Some(wires.collect())
}

/// Which fragment a queued or propagating frame is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FragTag {
    /// The network packet's number on this link direction.
    pub seq: u64,
    pub index: u16,
    pub count: u16,
    /// The fragment had a congestion mark before the queue saw it (a marking queue then adds no
    /// bytes to it).
    pub was_marked: bool,
    /// Where the fragment's slice of the network packet's encoding starts, and its length (what
    /// a capture writes in its Fragment field; the simulator itself never encodes it).
    pub start: u32,
    pub len: u32,
}

/// How a network packet ended on the sending side, once the fate of all its fragments is known.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Settled {
    /// Every fragment was transmitted.
    Sent(PacketKind),
    /// At least one fragment was dropped.
    Dropped(PacketKind),
}

#[derive(Clone, Copy, Debug)]
struct Fate {
    left: u16,
    dropped: bool,
    kind: PacketKind,
}

/// The fragmentation state of one link direction: the tags of its queued and propagating
/// fragments (in the same order as the queue and the wire, both FIFO), the fate of the packets
/// not yet settled, and the packet being reassembled at the far end.
#[derive(Clone, Debug)]
pub struct Fragmenter {
    mtu: u32,
    next_seq: u64,
    queued: VecDeque<FragTag>,
    flying: VecDeque<FragTag>,
    fates: VecDeque<Fate>,
    fate_base: u64,
    /// (seq, next index expected, the first fragment's frame).
    partial: Option<(u64, u16, Frame)>,
}

impl Fragmenter {
    pub fn new(mtu: u32) -> Fragmenter {
        Fragmenter {
            mtu,
            next_seq: 0,
            queued: VecDeque::new(),
            flying: VecDeque::new(),
            fates: VecDeque::new(),
            fate_base: 0,
            partial: None,
        }
    }

    pub fn mtu(&self) -> u32 {
        self.mtu
    }

    /// Splits `frame` into its fragments (each a copy of the frame sharing the packet, with its
    /// wire size and tag), appended to `out`. Err: NFD cannot fragment it; the packet is dropped.
    pub fn split(&mut self, frame: Frame, out: &mut Vec<(Frame, u32, FragTag)>) -> Result<(), Frame> {
        let Some(pieces) = frame_fragments(self.mtu, &frame) else { return Err(frame) };
        let seq = self.next_seq;
        self.next_seq += 1;
        let count = pieces.len() as u16;
        self.fates.push_back(Fate { left: count, dropped: false, kind: frame.packet.kind() });
        let was_marked = frame.lp.congestion_mark != 0;
        for (index, &Piece { size, start, len }) in pieces.iter().enumerate() {
            // Only the first fragment carries the frame's header fields (NFD copies the packet
            // into fragment 0 and gives the others Sequence, FragIndex, FragCount only).
            let mut piece = frame.clone();
            if index > 0 {
                piece.lp = Default::default();
            }
            let was_marked = was_marked && index == 0;
            let tag = FragTag { seq, index: index as u16, count, was_marked, start, len };
            out.push((piece, size, tag));
        }
        Ok(())
    }

    /// A fragment entered the output queue.
    pub fn queued(&mut self, tag: FragTag) {
        self.queued.push_back(tag);
    }

    /// The tag of the fragment leaving the head of the queue (sent or dropped there).
    pub fn leave_queue(&mut self) -> FragTag {
        self.queued.pop_front().expect("a tag for every queued fragment")
    }

    /// Wire size of a dequeued fragment of base size `size` that the queue may have marked.
    pub fn marked_size(tag: FragTag, size: u32, marked: bool, frame: &Frame) -> u32 {
        if marked && !tag.was_marked {
            size + nonneg_tlv_size(tlv_type::CONGESTION_MARK, frame.lp.congestion_mark) as u32
        } else {
            size
        }
    }

    /// Records a fragment's fate (transmitted or dropped); returns how its packet ended once
    /// every fragment's fate is known.
    pub fn settle(&mut self, tag: FragTag, dropped: bool) -> Option<Settled> {
        let at = (tag.seq - self.fate_base) as usize;
        let fate = &mut self.fates[at];
        fate.left -= 1;
        fate.dropped |= dropped;
        let settled = if fate.dropped { Settled::Dropped(fate.kind) } else { Settled::Sent(fate.kind) };
        let ended = (fate.left == 0).then_some(settled);
        while self.fates.front().is_some_and(|f| f.left == 0) {
            self.fates.pop_front();
            self.fate_base += 1;
        }
        ended
    }

    /// A transmitted fragment is now propagating (one lost on the wire is not).
    pub fn flying(&mut self, tag: FragTag) {
        self.flying.push_back(tag);
    }

    /// The next propagating fragment, `frame`, reached the far end: the network packet when it is
    /// the last fragment of a packet whose fragments all arrived in order, else `None`.
    pub fn reassemble(&mut self, frame: Frame) -> Option<Frame> {
        let tag = self.flying.pop_front().expect("a tag for every propagating fragment");
        if tag.count == 1 {
            self.partial = None;
            return Some(frame);
        }
        if tag.index == 0 {
            self.partial = Some((tag.seq, 1, frame));
            return None;
        }
        match self.partial.take() {
            Some((seq, next, mut first)) if seq == tag.seq && next == tag.index => {
                // A mark a queue set on any fragment marks the packet (see the module comment).
                first.lp.congestion_mark = first.lp.congestion_mark.max(frame.lp.congestion_mark);
                if tag.index + 1 == tag.count {
                    Some(first)
                } else {
                    self.partial = Some((seq, next + 1, first));
                    None
                }
            }
            // A gap: an earlier fragment of this packet was lost; the rest are discarded.
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::*;
    use crate::{Data, Name};

    /// 8476-byte packet, no header, MTU 1500: mtu' = 1488, 1438 B per fragment, 6 fragments.
    /// A full fragment: value = Sequence 10 + FragIndex 3 + FragCount 3 + Fragment (1 + 3 + 1438)
    /// = 1458, LpPacket (1 + 3) -> 1462 B. The last carries 8476 - 5 x 1438 = 1286 B -> 1310 B.
    #[test]
    fn sizes_of_a_large_data_at_1500() {
        let sizes = fragment_sizes(1500, 0, 8476, 8476).unwrap();
        assert_eq!(sizes.as_slice(), &[1462, 1462, 1462, 1462, 1462, 1310]);
        assert_eq!(sizes.iter().sum::<u32>(), 8620);
    }

    /// The pieces tile the packet: 0, 1438, 2876, ... with 1286 bytes left for the sixth.
    #[test]
    fn pieces_tile_the_packet_in_order() {
        let pieces = fragment_pieces(1500, 0, 8476, 8476).unwrap();
        let starts: Vec<u32> = pieces.iter().map(|p| p.start).collect();
        assert_eq!(starts, [0, 1438, 2876, 4314, 5752, 7190]);
        assert_eq!(pieces.last().unwrap().len, 1286);
        assert_eq!(pieces.iter().map(|p| p.len).sum::<u32>(), 8476);
    }

    /// Each fragment, encoded, is as long as `split` charged, and starts
    /// `64 FD 05 B2 | 51 08 <seq> | 52 01 <index> | 53 01 06 | 50 FD 05 9E` (LpPacket of 1458, then
    /// Sequence, FragIndex, FragCount and a Fragment of 1438); the pieces put back together are
    /// the packet.
    #[test]
    fn encoded_fragments_have_the_charged_sizes_and_rebuild_the_packet() {
        let frame = data_frame(8400);
        let mut net = Vec::new();
        lp::encode_net_packet(&frame.packet, &mut net);
        let mut f = Fragmenter::new(1500);
        let mut out = Vec::new();
        f.split(frame, &mut out).unwrap();
        let mut rebuilt = Vec::new();
        for (piece, size, tag) in &out {
            let mut wire = Vec::new();
            let slice = &net[tag.start as usize..(tag.start + tag.len) as usize];
            let numbers = (tag.index as u64, tag.index as u64, tag.count as u64);
            encode_fragment_into(&piece.lp, None, numbers, slice, &mut wire);
            assert_eq!(wire.len() as u32, *size);
            if tag.index == 0 {
                assert_eq!(&wire[..4], [0x64, 0xFD, 0x05, 0xB2]);
                assert_eq!(&wire[14..24], [0x52, 1, 0, 0x53, 1, 6, 0x50, 0xFD, 0x05, 0x9E]);
            }
            rebuilt.extend_from_slice(&wire[wire.len() - slice.len()..]);
        }
        assert_eq!(rebuilt, net);
    }

    /// A 5-byte CongestionMark (3 + 1 + 1) in the header: the first fragment carries 5 B less of
    /// the packet (1433) but is as long; one more byte of packet makes a seventh fragment.
    #[test]
    fn header_fields_ride_on_the_first_fragment() {
        let sizes = fragment_sizes(1500, 5, 8476, 8476 + 13).unwrap();
        // First: value 5 + 16 + 4 + 1433 = 1458 -> 1462; then four of 1438; last 8476 - 1433 - 4 x 1438 = 1291.
        assert_eq!(sizes.as_slice(), &[1462, 1462, 1462, 1462, 1462, 1315]);
        let seven = fragment_sizes(1500, 5, 1433 + 5 * 1438 + 1, 1433 + 5 * 1438 + 1 + 13).unwrap();
        assert_eq!(seven.len(), 7);
        // Last fragment: one byte of packet: value 16 + 2 + 1 = 19, LpPacket 1 + 1 -> 21 B.
        assert_eq!(*seven.last().unwrap(), 21);
    }

    /// Sent whole while frame + 20 <= 1488: 1468 B fits, 1469 B does not.
    #[test]
    fn small_frames_are_sent_whole() {
        assert_eq!(fragment_sizes(1500, 0, 1468, 1468).unwrap().as_slice(), &[1468]);
        assert_eq!(fragment_sizes(1500, 0, 1469, 1469).unwrap().len(), 2);
        assert_eq!(fragment_sizes(1500, 0, 60, 60).unwrap().as_slice(), &[60]);
    }

    /// MTU 64: mtu' = 52, 2 B per fragment; 8476 B would need 4238 > 400 fragments. A 5-byte header
    /// leaves no room: 50 + 5 + 1 > 52.
    #[test]
    fn nfd_refuses_what_it_cannot_fragment() {
        assert!(fragment_sizes(64, 0, 8476, 8476).is_none());
        assert!(fragment_sizes(64, 5, 100, 113).is_none());
        assert_eq!(fragment_sizes(64, 0, 800, 800).unwrap().len(), 400);
    }

    fn data_frame(payload: usize) -> Frame {
        let data =
            Data::new(Name::parse("/A/file").unwrap().append_segment(7), crate::packet::data::zero_payload(payload));
        Frame::data(Arc::new(data))
    }

    #[test]
    fn a_packet_arrives_only_when_all_fragments_do() {
        let mut f = Fragmenter::new(1500);
        let mut out = Vec::new();
        f.split(data_frame(8400), &mut out).unwrap();
        f.split(data_frame(8400), &mut out).unwrap();
        assert_eq!(out.len(), 12);
        // The first packet loses its fragment 3; the second arrives whole.
        let mut delivered = 0;
        for (i, (frame, _, tag)) in out.into_iter().enumerate() {
            let dropped = i == 3;
            let settled = f.settle(tag, dropped);
            if tag.index + 1 == tag.count {
                let kind = PacketKind::Data;
                assert_eq!(settled, Some(if tag.seq == 0 { Settled::Dropped(kind) } else { Settled::Sent(kind) }));
            } else {
                assert_eq!(settled, None);
            }
            if !dropped {
                f.flying(tag);
                delivered += f.reassemble(frame).is_some() as u32;
            }
        }
        assert_eq!(delivered, 1);
    }

    /// A packet whose tail is lost followed by one whose head is lost must not combine into one.
    #[test]
    fn fragments_of_two_packets_never_combine() {
        let mut f = Fragmenter::new(1500);
        let mut out = Vec::new();
        f.split(data_frame(8400), &mut out).unwrap();
        f.split(data_frame(8400), &mut out).unwrap();
        let n = out.len() / 2;
        let mut delivered = 0;
        for (i, (frame, _, tag)) in out.into_iter().enumerate() {
            if (i >= n / 2 && i < n) || (i >= n && i < n + n / 2) {
                continue;
            }
            f.flying(tag);
            delivered += f.reassemble(frame).is_some() as u32;
        }
        assert_eq!(delivered, 0);
    }

    /// Only fragment 0 keeps the header fields; the delivered frame is fragment 0's, marked if a
    /// queue marked any fragment.
    #[test]
    fn the_first_fragment_carries_the_header() {
        let mut f = Fragmenter::new(1500);
        let mut frame = data_frame(8400);
        frame.lp.congestion_mark = 1;
        let mut out = Vec::new();
        f.split(frame, &mut out).unwrap();
        assert_eq!(out[0].0.lp.congestion_mark, 1);
        assert!(out[1..].iter().all(|(fr, _, t)| fr.lp.congestion_mark == 0 && !t.was_marked));
        assert!(out[0].2.was_marked);
        let mut last = None;
        for (frame, _, tag) in out {
            f.flying(tag);
            last = f.reassemble(frame).or(last);
        }
        assert_eq!(last.unwrap().lp.congestion_mark, 1);

        let mut out = Vec::new();
        f.split(data_frame(8400), &mut out).unwrap();
        out[4].0.lp.congestion_mark = 1; // a queue marked fragment 4
        let mut last = None;
        for (frame, _, tag) in out {
            f.flying(tag);
            last = f.reassemble(frame).or(last);
        }
        assert_eq!(last.unwrap().lp.congestion_mark, 1);
    }

    /// A queue marking a fragment adds the 5-byte CongestionMark (3 + 1 + 1) to it.
    #[test]
    fn a_mark_adds_five_bytes_to_a_fragment() {
        let mut frame = data_frame(100);
        frame.lp.congestion_mark = 1;
        let tag = FragTag { seq: 0, index: 2, count: 6, was_marked: false, start: 2876, len: 1438 };
        assert_eq!(Fragmenter::marked_size(tag, 1462, true, &frame), 1467);
        assert_eq!(Fragmenter::marked_size(tag, 1462, false, &frame), 1462);
        assert_eq!(Fragmenter::marked_size(FragTag { was_marked: true, ..tag }, 1462, true, &frame), 1462);
    }
}
