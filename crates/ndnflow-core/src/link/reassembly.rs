//! NDNLPv2 reassembly of indexed fragments arriving on a face that may reorder and lose them (a
//! UDP socket), as NFD's `LpReassembler` does it (NFD daemon/face/lp-reassembler.cpp; NDNLPv2
//! spec, "Indexed Fragmentation"). Sans-IO: the caller hands in `now` and received LpPackets and
//! gets whole network packets back; `poll_timeout` and `handle_timeout` run the one timer.
//!
//! The simulator's links deliver in order and reassemble in `frag::Fragmenter` (a gap discards the
//! packet at once); a socket does not, so this keeps each packet's fragments apart until all have
//! come, in any order:
//!
//! * **Key.** A packet is known by its first fragment's Sequence, `Sequence - FragIndex` (NFD: the
//!   sender numbers a packet's fragments consecutively), per face.
//! * **Timer.** A partial packet is dropped when no fragment of it came for `REASSEMBLY_TIMEOUT`
//!   (NFD `reassemblyTimeout`, 500 ms; each fragment restarts it, as NFD reschedules its drop timer).
//! * **Limits.** FragCount above `frag::MAX_FRAGMENTS` (NFD `nMaxFragments`, 400), FragIndex not
//!   below FragCount, a FragCount that differs from the packet's first-seen one, and a
//!   reassembled packet larger than `MAX_PACKET_SIZE` (ndn-cxx's 8800 bytes) are dropped and
//!   counted. Where NFD keeps no bound, we keep at most `MAX_PARTIAL` packets in reassembly per
//!   face (the oldest goes first): fragments sprayed with fresh Sequences must not grow a daemon's
//!   memory without end (issue 25, hostile input).
//! * **Header.** The reassembled packet carries its first fragment's header fields (NFD decodes
//!   the link fields from fragment 0), and the largest CongestionMark of any fragment, for the
//!   reason `frag`'s module comment gives (a queue may mark any fragment; IP does the same for
//!   ECN, RFC 3168 §5.3).

use rustc_hash::FxHashMap;

use super::frag::MAX_FRAGMENTS;
use crate::packet::lp::tlv_type;
use crate::packet::tlv::{tlv_size, write_tl, DecodeError, Reader};
use crate::Time;

/// NFD `LpReassembler::Options::reassemblyTimeout`.
pub const REASSEMBLY_TIMEOUT: Time = Time::from_millis(500);
/// Packets in reassembly at most, per face (ours; NFD keeps no bound).
pub const MAX_PARTIAL: usize = 256;
/// ndn-cxx `MAX_NDN_PACKET_SIZE`: the largest network packet a reassembly may make.
pub const MAX_PACKET_SIZE: usize = 8800;

/// One received fragment of a packet sent in several (FragCount > 1).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fragment<'a> {
    pub sequence: u64,
    pub index: u64,
    pub count: u64,
    /// The LpPacket's other header fields, as received (TLV elements, in order).
    pub fields: Vec<&'a [u8]>,
    /// This fragment's CongestionMark (0: none).
    pub mark: u64,
    /// The Fragment field's value: this piece of the network packet's encoding.
    pub piece: &'a [u8],
}

/// Reads `wire` as an LpPacket that is one fragment of several. `Ok(None)`: it is not (not an
/// LpPacket, or FragCount absent or 1), and the frame decoder takes it whole.
pub fn parse_fragment(wire: &[u8]) -> Result<Option<Fragment<'_>>, DecodeError> {
    let mut outer = Reader::new(wire);
    let el = outer.read_element()?;
    if el.typ != tlv_type::LP_PACKET {
        return Ok(None);
    }
    let (mut sequence, mut index, mut count, mut mark, mut piece) = (None, 0, 1, 0, None);
    let mut fields = Vec::new();
    let mut r = el.reader();
    while !r.is_empty() {
        let start = r.offset() - el.value_at;
        let e = r.read_element()?;
        let raw = &el.value[start..r.offset() - el.value_at];
        match e.typ {
            tlv_type::SEQUENCE => sequence = Some(e.fixed_u64("Sequence")?),
            tlv_type::FRAG_INDEX => index = e.nonneg()?,
            tlv_type::FRAG_COUNT => count = e.nonneg()?,
            tlv_type::FRAGMENT => piece = Some(e.value),
            typ => {
                if typ == tlv_type::CONGESTION_MARK {
                    mark = e.nonneg()?;
                }
                fields.push(raw);
            }
        }
    }
    if count <= 1 && index == 0 {
        return Ok(None);
    }
    let invalid = |reason| DecodeError::Invalid { at: el.at, what: "LpPacket fragment", reason };
    let sequence = sequence.ok_or(DecodeError::Missing("Sequence (a fragment needs one)"))?;
    let piece = piece.ok_or(DecodeError::Missing("Fragment"))?;
    if count > MAX_FRAGMENTS as u64 {
        return Err(invalid("FragCount above 400 (NFD's nMaxFragments)"));
    }
    if index >= count {
        return Err(invalid("FragIndex not below FragCount"));
    }
    if sequence < index {
        return Err(invalid("Sequence below FragIndex"));
    }
    Ok(Some(Fragment { sequence, index, count, fields, mark, piece }))
}

/// A packet whose fragments are coming in.
#[derive(Clone, Debug)]
struct Partial {
    pieces: Vec<Option<Vec<u8>>>,
    missing: usize,
    bytes: usize,
    /// Fragment 0's header fields, once it came.
    first_fields: Option<Vec<u8>>,
    mark: u64,
    deadline: Time,
    /// Arrival order of the packet's first fragment, to evict the oldest past `MAX_PARTIAL`.
    born: u64,
}

/// What reassembly counted (NFD's link service counts `nReassemblyTimeouts` and
/// `nInNetInvalid`; the rest are ours).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ReassemblyCounters {
    /// Packets made whole.
    pub reassembled: u64,
    /// Partial packets dropped when their timer expired.
    pub timeouts: u64,
    /// Fragments dropped: a second copy of a piece held, a FragCount that disagrees, or a packet
    /// past `MAX_PACKET_SIZE`.
    pub dropped_fragments: u64,
    /// Partial packets dropped to keep `MAX_PARTIAL`.
    pub evicted: u64,
}

/// One face's packets in reassembly.
#[derive(Clone, Debug, Default)]
pub struct Reassembler {
    partial: FxHashMap<u64, Partial>,
    born: u64,
    pub counters: ReassemblyCounters,
}

/// A whole packet: an LpPacket carrying fragment 0's header fields and the network packet, for
/// the frame decoder, and the largest mark any fragment carried.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reassembled {
    pub wire: Vec<u8>,
    pub mark: u64,
}

impl Reassembler {
    /// Packets in reassembly.
    pub fn len(&self) -> usize {
        self.partial.len()
    }

    pub fn is_empty(&self) -> bool {
        self.partial.is_empty()
    }

    /// Takes one fragment; the whole packet when it was the last one missing.
    pub fn receive(&mut self, now: Time, f: Fragment<'_>) -> Option<Reassembled> {
        let key = f.sequence - f.index;
        if !self.partial.contains_key(&key) {
            self.make_room();
            self.born += 1;
            let count = f.count as usize;
            let p = Partial {
                pieces: vec![None; count],
                missing: count,
                bytes: 0,
                first_fields: None,
                mark: 0,
                deadline: now,
                born: self.born,
            };
            self.partial.insert(key, p);
        }
        let p = self.partial.get_mut(&key).expect("inserted above");
        let at = f.index as usize;
        if p.pieces.len() != f.count as usize || p.pieces[at].is_some() {
            self.counters.dropped_fragments += 1;
            return None;
        }
        p.bytes += f.piece.len();
        if p.bytes > MAX_PACKET_SIZE {
            self.partial.remove(&key);
            self.counters.dropped_fragments += 1;
            return None;
        }
        p.pieces[at] = Some(f.piece.to_vec());
        p.missing -= 1;
        p.mark = p.mark.max(f.mark);
        p.deadline = now + REASSEMBLY_TIMEOUT;
        if at == 0 {
            p.first_fields = Some(f.fields.concat());
        }
        if p.missing > 0 {
            return None;
        }
        let p = self.partial.remove(&key).expect("present");
        self.counters.reassembled += 1;
        Some(whole(p))
    }

    /// When the earliest partial packet's timer expires.
    pub fn poll_timeout(&self) -> Option<Time> {
        self.partial.values().map(|p| p.deadline).min()
    }

    /// Drops the partial packets whose timers expired by `now`.
    pub fn handle_timeout(&mut self, now: Time) {
        let before = self.partial.len();
        self.partial.retain(|_, p| p.deadline > now);
        self.counters.timeouts += (before - self.partial.len()) as u64;
    }

    fn make_room(&mut self) {
        if self.partial.len() < MAX_PARTIAL {
            return;
        }
        if let Some(oldest) = self.partial.iter().min_by_key(|(_, p)| p.born).map(|(k, _)| *k) {
            self.partial.remove(&oldest);
            self.counters.evicted += 1;
        }
    }
}

/// LpPacket { fragment 0's fields, Fragment { the pieces in order } }.
fn whole(p: Partial) -> Reassembled {
    let fields = p.first_fields.unwrap_or_default();
    let value = fields.len() + tlv_size(tlv_type::FRAGMENT, p.bytes);
    let mut wire = Vec::with_capacity(tlv_size(tlv_type::LP_PACKET, value));
    write_tl(&mut wire, tlv_type::LP_PACKET, value);
    wire.extend_from_slice(&fields);
    write_tl(&mut wire, tlv_type::FRAGMENT, p.bytes);
    for piece in p.pieces.into_iter().flatten() {
        wire.extend_from_slice(&piece);
    }
    Reassembled { wire, mark: p.mark }
}

#[cfg(test)]
#[path = "reassembly_tests.rs"]
mod tests;
