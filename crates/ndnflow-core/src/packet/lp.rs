//! NDNLPv2 link header (LpPacket, type 100) with the standard fields and the papers' extensions.
//!
//! A frame with no header field is sent as the bare network packet, as NFD's GenericLinkService
//! does; any field wraps it in LpPacket { fields..., Fragment { packet } }. Extension fields use
//! types in 800-959 with the two low bits zero, which stock NFD skips when it does not know them
//! (ndn-cxx lp/packet.cpp); the numbers are listed in docs/wire-format.md.

use smallvec::SmallVec;

use super::tlv::{nonneg_tlv_size, tlv_size};
use super::NackReason;

pub mod tlv_type {
    pub const LP_PACKET: u64 = 100;
    pub const FRAGMENT: u64 = 80;
    pub const SEQUENCE: u64 = 81;
    pub const NACK: u64 = 800;
    pub const NACK_REASON: u64 = 801;
    pub const CONGESTION_MARK: u64 = 832;
    pub const ACK: u64 = 836;
    pub const TX_SEQUENCE: u64 = 840;
    // ndnflow extensions (ignorable: 800 <= t <= 959, t & 3 == 0; 849-854 and 84 avoided).
    pub const HOP_COUNT: u64 = 856;
    pub const PATH_ID: u64 = 860;
    pub const TRAJECTORY_ID: u64 = 864;
    pub const TAG_STACK: u64 = 868;
    pub const TAG: u64 = 872;
    pub const FLAGS: u64 = 876;
}

/// Bits of the ndnflow Flags field.
pub mod flags {
    /// PTP: the Data was answered from a Content Store (MPCCP's 1-bit from-cache flag).
    pub const FROM_CACHE: u64 = 1 << 0;
    /// DPCCP: RTT-probing bit (Interests) / probe answer (Data).
    pub const RTT_PROBING: u64 = 1 << 1;
    /// PCON §3.6: the link that carried the Data is highly congested.
    pub const HIGH_CONG: u64 = 1 << 2;
    /// PCON §3.6: the highly congested link is the last hop's own (local) link.
    pub const HIGH_CONG_LOCAL: u64 = 1 << 3;
}

/// Link-layer header fields. All absent by default; absent fields cost no bytes.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LpHeader {
    /// NDNLPv2 CongestionMark (832); 0 means absent.
    pub congestion_mark: u64,
    /// NDNLPv2 TxSequence (840), for link loss detection.
    pub tx_sequence: Option<u64>,
    /// NDNLPv2 Ack (836) fields, for link loss detection.
    pub acks: SmallVec<[u64; 2]>,
    /// Hop count (PCON's distance to the congested link; DPCCP's 6-bit hop count).
    pub hop_count: Option<u64>,
    /// SMIC path identifier carried in Interests.
    pub path_id: Option<u64>,
    /// SMIC trajectory identifier accumulated in Data.
    pub trajectory_id: Option<u64>,
    /// PTP tag stack: pushed by routers into probing Data, popped from Interests. Last = top.
    pub tags: SmallVec<[u64; 4]>,
    /// Bit flags (see `flags`); 0 means absent.
    pub flags: u64,
}

impl LpHeader {
    pub fn is_empty(&self) -> bool {
        *self == LpHeader::default()
    }

    /// Size of the header fields (everything in LpPacket except Nack and Fragment).
    pub fn fields_size(&self) -> usize {
        use tlv_type::*;
        let mut n = 0;
        if self.tx_sequence.is_some() {
            n += tlv_size(TX_SEQUENCE, 8);
        }
        n += self.acks.len() * tlv_size(ACK, 8);
        if self.congestion_mark != 0 {
            n += nonneg_tlv_size(CONGESTION_MARK, self.congestion_mark);
        }
        if let Some(h) = self.hop_count {
            n += nonneg_tlv_size(HOP_COUNT, h);
        }
        // Path and trajectory ids are hashes: fixed 8 octets, like TxSequence.
        if self.path_id.is_some() {
            n += tlv_size(PATH_ID, 8);
        }
        if self.trajectory_id.is_some() {
            n += tlv_size(TRAJECTORY_ID, 8);
        }
        if !self.tags.is_empty() {
            let inner: usize = self.tags.iter().map(|&t| nonneg_tlv_size(TAG, t)).sum();
            n += tlv_size(TAG_STACK, inner);
        }
        if self.flags != 0 {
            n += nonneg_tlv_size(FLAGS, self.flags);
        }
        n
    }
}

/// Exact wire size of a frame: bare packet, or LpPacket with fields, Nack and Fragment.
pub fn frame_size(lp: &LpHeader, nack: Option<NackReason>, net_size: usize) -> usize {
    let fields = lp.fields_size();
    if fields == 0 && nack.is_none() {
        return net_size;
    }
    let mut value = fields + tlv_size(tlv_type::FRAGMENT, net_size);
    if let Some(reason) = nack {
        value += nack_field_size(reason);
    }
    tlv_size(tlv_type::LP_PACKET, value)
}

/// Nack header field: Nack { NackReason } (a reason of None encodes an empty Nack).
pub fn nack_field_size(reason: NackReason) -> usize {
    let inner = if reason == NackReason::None { 0 } else { nonneg_tlv_size(tlv_type::NACK_REASON, reason.code()) };
    tlv_size(tlv_type::NACK, inner)
}
