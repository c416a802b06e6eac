//! Packets as typed values: Interest, Data and Nack (NDN packet format v0.3), carried in a link
//! frame whose NDNLPv2 header holds the congestion mark and the fields the papers add.
//!
//! The simulator moves these values without encoding them; it charges each link the exact encoded
//! size (`Frame::wire_size`), which the codec tests pin to the length of the real encoding.

pub mod data;
pub mod interest;
pub mod lp;
pub mod nack;
pub mod prefix_announcement;
pub mod tlv;

use std::sync::Arc;

pub use data::Data;
pub use interest::Interest;
pub use lp::{LpExtensions, LpHeader};
pub use nack::{Nack, NackReason};
pub use prefix_announcement::PrefixAnnouncement;
pub use tlv::DecodeError;

/// A network-layer packet. Interests and Data are shared, not copied, as they fan out.
#[derive(Clone, Debug, PartialEq)]
pub enum NetPacket {
    Interest(Arc<Interest>),
    Data(Arc<Data>),
    Nack(Arc<Nack>),
}

impl NetPacket {
    pub fn kind(&self) -> PacketKind {
        match self {
            NetPacket::Interest(_) => PacketKind::Interest,
            NetPacket::Data(_) => PacketKind::Data,
            NetPacket::Nack(_) => PacketKind::Nack,
        }
    }
    pub fn name(&self) -> &crate::Name {
        match self {
            NetPacket::Interest(i) => &i.name,
            NetPacket::Data(d) => &d.name,
            NetPacket::Nack(n) => &n.interest.name,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum PacketKind {
    Interest,
    Data,
    Nack,
}

/// One packet on a link: the NDNLPv2 header plus the network packet.
///
/// `net_size` caches the network packet's encoded size (computed once, when the packet is made, since
/// Interest and Data do not change size hop by hop); the header is re-sized per hop because routers
/// change its fields.
#[derive(Clone, Debug, PartialEq)]
pub struct Frame {
    pub lp: LpHeader,
    pub packet: NetPacket,
    pub net_size: u32,
    /// The simulator's word, never on the wire: the PIT hint in the low 24 bits and, on a Data,
    /// where it came from in the high 8 (`DataOrigin`). Read and written through `pit_hint`,
    /// `origin` and their setters. It sits in what would be the frame's padding, so frames stay
    /// 64 bytes (asserted below): the sim-only fields share 4 bytes rather than grow the frame by
    /// 8, which every queue slot and event would pay for.
    sim: u32,
}

// The hot path moves frames by value through queues and events: one cache line each.
const _: () = assert!(std::mem::size_of::<Frame>() == 64);

/// `Frame::pit_hint` of a frame that carries none.
pub const NO_PIT_HINT: u32 = u32::MAX;

/// Low bits of `Frame::sim`: the PIT hint, all ones for none. A PIT slot index past them (more
/// than 16.7 million entries at one node) travels as no hint: the receiver then probes its hash
/// table, which finds the same entry, so only speed changes.
const HINT_BITS: u32 = 24;
const HINT_MASK: u32 = (1 << HINT_BITS) - 1;
/// High bits of `Frame::sim`: a Data's `DataOrigin`, hops in bits 24..=30 and bit 31 set when a
/// store answered.
const HOPS_MASK: u32 = 0x7F << HINT_BITS;
const FROM_CACHE: u32 = 1 << 31;

/// Where a Data came from, as the per-segment trace reports it (ndnSIM's HopCountTag, which
/// AppDelayTracer reports, plus whether a store answered). Carried by the simulator only, in
/// `Frame`'s sim word: on no wire, in no size, read by no protocol.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct DataOrigin {
    /// Links the Data crossed from the node that answered the Interest (its producer's, or the
    /// node whose Content Store or simulated cache did) to the consumer's node; saturates at
    /// `DataOrigin::MAX_HOPS`.
    pub hops: u8,
    /// A Content Store (or DPCCP's simulated cache) answered, not a producer.
    pub from_cache: bool,
}

impl DataOrigin {
    /// The most hops the sim word holds (7 bits).
    pub const MAX_HOPS: u8 = 127;
}

impl Frame {
    /// The frame that carries `packet` under the link header `lp`.
    pub fn new(lp: LpHeader, packet: NetPacket) -> Frame {
        let mut frame = match packet {
            NetPacket::Interest(i) => Frame::interest(i),
            NetPacket::Data(d) => Frame::data(d),
            NetPacket::Nack(n) => Frame::nack(n),
        };
        frame.lp = lp;
        frame
    }
    pub fn interest(interest: Arc<Interest>) -> Frame {
        let net_size = interest.wire_size() as u32;
        Frame { lp: LpHeader::default(), packet: NetPacket::Interest(interest), net_size, sim: HINT_MASK }
    }
    pub fn data(data: Arc<Data>) -> Frame {
        let net_size = data.wire_size() as u32;
        Frame { lp: LpHeader::default(), packet: NetPacket::Data(data), net_size, sim: HINT_MASK }
    }
    /// A Nack carries the Interest it rejects; the reason lives in the link header.
    pub fn nack(nack: Arc<Nack>) -> Frame {
        let net_size = nack.interest.wire_size() as u32;
        Frame { lp: LpHeader::default(), packet: NetPacket::Nack(nack), net_size, sim: HINT_MASK }
    }
    /// Where the receiver may find the PIT entry this frame answers (`NO_PIT_HINT`: nowhere).
    /// The simulator's stand-in for NDNLPv2's PitToken, which a node puts on the Interests it
    /// sends and its upstream echoes in the Data. The receiver checks the hint against the Data's
    /// name before trusting it, so a hint changes no result, only how fast a Data finds its entry
    /// (the hash probe it saves is a cache miss per hop).
    pub fn pit_hint(&self) -> u32 {
        match self.sim & HINT_MASK {
            HINT_MASK => NO_PIT_HINT,
            h => h,
        }
    }

    /// Sets the PIT hint; one that does not fit (see `HINT_BITS`) is dropped.
    pub fn set_pit_hint(&mut self, hint: u32) {
        let hint = if hint < HINT_MASK { hint } else { HINT_MASK };
        self.sim = (self.sim & !HINT_MASK) | hint;
    }

    /// Where this Data came from (meaningless on an Interest or a Nack).
    pub fn origin(&self) -> DataOrigin {
        DataOrigin { hops: ((self.sim & HOPS_MASK) >> HINT_BITS) as u8, from_cache: self.sim & FROM_CACHE != 0 }
    }

    pub fn set_origin(&mut self, origin: DataOrigin) {
        let hops = u32::from(origin.hops.min(DataOrigin::MAX_HOPS)) << HINT_BITS;
        let cache = if origin.from_cache { FROM_CACHE } else { 0 };
        self.sim = (self.sim & HINT_MASK) | hops | cache;
    }

    /// The frame crossed one more link (the simulator calls it as a frame reaches a node).
    pub fn add_hop(&mut self) {
        if self.sim & HOPS_MASK != HOPS_MASK {
            self.sim += 1 << HINT_BITS;
        }
    }

    /// A Data frame of a forwarder's: `data` under `lp`, its network size known, with the
    /// downstream's PIT hint and the origin it arrived with.
    pub fn data_sized(lp: LpHeader, data: Arc<Data>, net_size: u32, pit_hint: u32, origin: DataOrigin) -> Frame {
        let mut frame = Frame { lp, packet: NetPacket::Data(data), net_size, sim: HINT_MASK };
        frame.set_pit_hint(pit_hint);
        frame.set_origin(origin);
        frame
    }

    /// Exact bytes this frame occupies on a link.
    pub fn wire_size(&self) -> u32 {
        let nack_reason = match &self.packet {
            NetPacket::Nack(n) => Some(n.reason),
            _ => None,
        };
        lp::frame_size(&self.lp, nack_reason, self.net_size as usize) as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Name;

    fn data() -> Frame {
        Frame::data(Arc::new(Data::new(Name::parse("/p/seg=1").unwrap(), bytes::Bytes::from_static(b"x"))))
    }

    #[test]
    fn the_hint_and_the_origin_share_the_word_without_touching_each_other() {
        let mut f = data();
        assert_eq!((f.pit_hint(), f.origin()), (NO_PIT_HINT, DataOrigin::default()), "a new frame has neither");
        f.set_pit_hint(0xABCDE);
        f.set_origin(DataOrigin { hops: 5, from_cache: true });
        f.add_hop();
        assert_eq!((f.pit_hint(), f.origin()), (0xABCDE, DataOrigin { hops: 6, from_cache: true }));
        f.set_pit_hint(NO_PIT_HINT);
        assert_eq!((f.pit_hint(), f.origin()), (NO_PIT_HINT, DataOrigin { hops: 6, from_cache: true }));
        // 2^24 - 1 is the "none" pattern: a slot index that large travels as no hint.
        f.set_pit_hint((1 << 24) - 2);
        assert_eq!(f.pit_hint(), (1 << 24) - 2, "the largest hint the word holds");
        f.set_pit_hint(1 << 24);
        assert_eq!(f.pit_hint(), NO_PIT_HINT);
        assert_eq!(f.origin().hops, 6, "the origin kept");
    }

    #[test]
    fn hops_saturate_at_127_and_cost_no_wire_byte() {
        let mut f = data();
        let size = f.wire_size();
        for _ in 0..200 {
            f.add_hop();
        }
        assert_eq!(f.origin(), DataOrigin { hops: 127, from_cache: false });
        f.set_origin(DataOrigin { hops: 200, from_cache: false });
        assert_eq!(f.origin().hops, DataOrigin::MAX_HOPS);
        assert_eq!(f.pit_hint(), NO_PIT_HINT, "the hint untouched by a full count");
        assert_eq!(f.wire_size(), size);
    }

    #[test]
    fn only_a_data_as_a_simulated_producer_makes_it_is_simulated() {
        let name = || Name::parse("/p/seg=1").unwrap();
        assert_eq!(Data::simulated(name(), 1024).simulated_payload(), Some(1024));
        assert_eq!(Data::simulated(name(), 0).simulated_payload(), Some(0));
        // A real payload, even of zeros, MetaInfo, or another signature: kept whole.
        assert_eq!(Data::new(name(), bytes::Bytes::from(vec![0u8; 8])).simulated_payload(), None);
        let mut d = Data::simulated(name(), 8);
        d.final_block_id = Some((0x32, bytes::Bytes::from_static(b"\x01")));
        assert_eq!(d.simulated_payload(), None);
        let mut d = Data::simulated(name(), 8);
        d.content_type = Some(0);
        assert_eq!(d.simulated_payload(), None);
        let mut d = Data::simulated(name(), 8);
        d.signature.value = bytes::Bytes::from_static(&[1; 32]);
        assert_eq!(d.simulated_payload(), None);
    }
}
