//! Packets as typed values: Interest, Data and Nack (NDN packet format v0.3), carried in a link
//! frame whose NDNLPv2 header holds the congestion mark and the fields the papers add.
//!
//! The simulator moves these values without encoding them; it charges each link the exact encoded
//! size (`Frame::wire_size`), which the codec tests pin to the length of the real encoding.

pub mod data;
pub mod interest;
pub mod lp;
pub mod nack;
pub mod tlv;

use std::sync::Arc;

pub use data::Data;
pub use interest::Interest;
pub use lp::{LpExtensions, LpHeader};
pub use nack::{Nack, NackReason};
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
    /// Where the receiver may find the PIT entry this frame answers (`NO_PIT_HINT`: nowhere).
    /// Not on the wire: the simulator's stand-in for NDNLPv2's PitToken, which a node puts on the
    /// Interests it sends and its upstream echoes in the Data. The receiver checks the hint against
    /// the Data's name before trusting it, so a hint changes no result, only how fast a Data finds
    /// its entry (the hash probe it saves is a cache miss per hop). It sits in what would be the
    /// frame's padding, so frames stay 64 bytes.
    pub pit_hint: u32,
}

/// `Frame::pit_hint` of a frame that carries none.
pub const NO_PIT_HINT: u32 = u32::MAX;

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
        Frame { lp: LpHeader::default(), packet: NetPacket::Interest(interest), net_size, pit_hint: NO_PIT_HINT }
    }
    pub fn data(data: Arc<Data>) -> Frame {
        let net_size = data.wire_size() as u32;
        Frame { lp: LpHeader::default(), packet: NetPacket::Data(data), net_size, pit_hint: NO_PIT_HINT }
    }
    /// A Nack carries the Interest it rejects; the reason lives in the link header.
    pub fn nack(nack: Arc<Nack>) -> Frame {
        let net_size = nack.interest.wire_size() as u32;
        Frame { lp: LpHeader::default(), packet: NetPacket::Nack(nack), net_size, pit_hint: NO_PIT_HINT }
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
