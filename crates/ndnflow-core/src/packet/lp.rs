//! NDNLPv2 link header (LpPacket, type 100) with the standard fields and the papers' extensions,
//! and the frame codec (NDNLPv2 spec, "LpPacket" and "Network NACK"; ndn-cxx lp/packet.cpp).
//!
//! A frame with no header field is sent as the bare network packet, as NFD's GenericLinkService
//! does; any field wraps it in LpPacket { fields..., Fragment { packet } }. Extension fields use
//! types in 800-959 with the two low bits zero, which stock NFD skips when it does not know them
//! (ndn-cxx lp/packet.cpp); the numbers are listed in docs/wire-format.md.
//!
//! Field order is ndn-cxx's: header fields in strictly increasing TLV-TYPE (only Ack may repeat),
//! then Fragment last. So the encoder writes Sequence (81), Nack (800), CongestionMark (832),
//! Ack (836)*, TxSequence (840), NonDiscovery (844), PrefixAnnouncement (848), the ndnflow fields
//! (856..884), Fragment (80). The decoder enforces
//! the same order, skips unknown fields that NDNLPv2 marks ignorable, and rejects other unknown
//! fields. PitToken (98) is recognised and dropped; FragIndex/FragCount are accepted only for an
//! unfragmented packet (index 0 of 1), since the codec does not reassemble.
//!
//! An LpPacket with header fields and no Fragment is an IDLE packet (NDNLPv2 "Link Reliability":
//! NFD's LpReliability sends its pending Acks in one when it has nothing to piggyback them on);
//! `encode_idle_packet`, `idle_packet_size` and `decode_link_packet` handle it.

use std::sync::Arc;

use smallvec::SmallVec;

use super::prefix_announcement::PrefixAnnouncement;
use super::tlv::{
    nonneg_tlv_size, tlv_size, write_fixed_u64_tlv, write_nonneg_tlv, write_tl, DecodeError, Element, Reader,
};
use super::{Data, Frame, Interest, Nack, NackReason, NetPacket};

pub mod tlv_type {
    pub const LP_PACKET: u64 = 100;
    pub const FRAGMENT: u64 = 80;
    pub const SEQUENCE: u64 = 81;
    pub const FRAG_INDEX: u64 = 82;
    pub const FRAG_COUNT: u64 = 83;
    pub const PIT_TOKEN: u64 = 98;
    pub const NACK: u64 = 800;
    pub const NACK_REASON: u64 = 801;
    pub const CONGESTION_MARK: u64 = 832;
    pub const ACK: u64 = 836;
    pub const TX_SEQUENCE: u64 = 840;
    /// Self-learning: the Interest is not a discovery one (an empty field; NDNLPv2).
    pub const NON_DISCOVERY: u64 = 844;
    /// Self-learning: the Data answers a discovery Interest and announces a prefix (NDNLPv2).
    pub const PREFIX_ANNOUNCEMENT: u64 = 848;
    // ndnflow extensions (ignorable: 800 <= t <= 959, t & 3 == 0; 849-854 and 84 avoided).
    pub const HOP_COUNT: u64 = 856;
    pub const PATH_ID: u64 = 860;
    pub const TRAJECTORY_ID: u64 = 864;
    pub const TAG_STACK: u64 = 868;
    pub const TAG: u64 = 872;
    pub const FLAGS: u64 = 876;
    /// MIRCC: the smallest first-class link rate along the Data's path, bits per second.
    pub const MIRCC_RATE: u64 = 880;
    /// MIRCC: the smallest second-class link rate along the Data's path, bits per second.
    pub const MIRCC_RATE2: u64 = 884;
}

/// Bits of the ndnflow Flags field.
pub mod flags {
    /// PTP: the Data was answered from a Content Store (MPCCP's 1-bit from-cache flag).
    pub const FROM_CACHE: u64 = 1 << 0;
    /// DPCCP §VI-E-7: on an Interest, the RTT-probing bit a new sub-flow sets; on a Data, the
    /// drain flag a router sets on every Data leaving a face that such an Interest labelled.
    pub const RTT_PROBING: u64 = 1 << 1;
    /// PCON §3.6: the link that carried the Data is highly congested.
    pub const HIGH_CONG: u64 = 1 << 2;
    /// PCON §3.6: the highly congested link is the last hop's own (local) link.
    pub const HIGH_CONG_LOCAL: u64 = 1 << 3;
    /// PTP §3-A: a path-probing Interest, and the probing Data that answers it (routers push
    /// their tags into it).
    pub const PTP_PROBE: u64 = 1 << 4;
    /// DPCCP §VI-C: the Data carries a hop count, in `HOPS_MASK` (`data_hops`). A presence bit of
    /// its own, so that a count of 0 (the content holder's) differs from no count at all.
    ///
    /// Why the hop count lives in Flags and not in a TLV of its own: the paper asks for 6 bits;
    /// in Flags they cost 0 or 1 extra octet (the NonNegativeInteger grows from 1 to 2 octets),
    /// need no new TLV-TYPE, and keep `LpHeader` inline (no boxed extension per Data: a frame
    /// stays 64 bytes). PCON's HopCount field (856) is another count (forwarders crossed since a
    /// congestion mark, reset by marking): sharing it would stop PCON and DPCCP running in one
    /// network.
    pub const DATA_HOPS: u64 = 1 << 5;
    /// Where the 6-bit hop count sits (bits 8..=13).
    pub const HOPS_SHIFT: u32 = 8;
    pub const HOPS_MASK: u64 = 0x3F << HOPS_SHIFT;
    /// "At most 63 hops" (§VI-C): the count saturates there.
    pub const MAX_HOPS: u8 = 63;
    /// MIRCC's dual classes: on an Interest, its sub-flow is second-class (not the consumer's
    /// primary path); the producer echoes it on the Data, whose bytes a MIRCC link then counts
    /// in the second class.
    pub const MIRCC_SECONDARY: u64 = 1 << 6;
    /// The flags that describe the path upstream and so hold for every node below it: what a
    /// forwarder passes on with a Data unless its strategy says otherwise
    /// (`Strategy::after_receive_data`). HIGH_CONG_LOCAL is about the last link only.
    pub const PATH_SIGNALS: u64 = HIGH_CONG;

    /// The hop count a Data's flags carry (DPCCP §VI-C), if any.
    pub fn data_hops(flags: u64) -> Option<u8> {
        (flags & DATA_HOPS != 0).then_some(((flags & HOPS_MASK) >> HOPS_SHIFT) as u8)
    }

    /// `flags` carrying hop count `hops` (replacing any), saturated at `MAX_HOPS`.
    pub fn with_data_hops(flags: u64, hops: u8) -> u64 {
        let hops = u64::from(hops.min(MAX_HOPS));
        (flags & !HOPS_MASK) | DATA_HOPS | (hops << HOPS_SHIFT)
    }
}

/// Link-layer header fields. All absent by default; absent fields cost no bytes.
///
/// The fields most frames carry sit inline; the rest live in a box that most frames lack, so a
/// frame stays 64 bytes as it moves through queues and events on the simulator's hot path.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LpHeader {
    /// NDNLPv2 CongestionMark (832); 0 means absent.
    pub congestion_mark: u64,
    /// Hop count (PCON's distance to the congested link; DPCCP's 6-bit hop count).
    pub hop_count: Option<u64>,
    /// Bit flags (see `flags`); 0 means absent.
    pub flags: u64,
    /// The less common fields; `None` when all of them are absent.
    pub ext: Option<Box<LpExtensions>>,
}

/// Header fields that only some protocols set.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LpExtensions {
    /// NDNLPv2 Sequence (81): NFD's link service numbers every packet when reliability is on, and
    /// the receiver drops a retransmitted copy it already delivered by it.
    pub sequence: Option<u64>,
    /// NDNLPv2 TxSequence (840), for link loss detection.
    pub tx_sequence: Option<u64>,
    /// NDNLPv2 Ack (836) fields, for link loss detection.
    pub acks: SmallVec<[u64; 2]>,
    /// SMIC path identifier carried in Interests.
    pub path_id: Option<u64>,
    /// SMIC trajectory identifier accumulated in Data.
    pub trajectory_id: Option<u64>,
    /// PTP tag stack: pushed by routers into probing Data, popped from Interests. Last = top.
    pub tags: SmallVec<[u64; 4]>,
    /// MIRCC: the smallest first-class link rate the Data met on its way, bits per second.
    pub mircc_rate: Option<u64>,
    /// MIRCC: the smallest second-class link rate the Data met on its way, bits per second.
    pub mircc_rate2: Option<u64>,
    /// NDNLPv2 NonDiscovery (844) on an Interest: self-learning forwards it by routes only.
    pub non_discovery: bool,
    /// NDNLPv2 PrefixAnnouncement (848) on a Data, in ndnflow's minimal encoding
    /// (`packet::prefix_announcement`).
    pub prefix_announcement: Option<PrefixAnnouncement>,
}

impl LpExtensions {
    fn fields_size(&self) -> usize {
        use tlv_type::*;
        let mut n = 0;
        // Sequence, TxSequence and Ack are fixed 8 octets, as NFD writes them (its piggyback
        // counts an Ack as 3 + 1 + 8 octets).
        if self.sequence.is_some() {
            n += tlv_size(SEQUENCE, 8);
        }
        if self.tx_sequence.is_some() {
            n += tlv_size(TX_SEQUENCE, 8);
        }
        n += self.acks.len() * tlv_size(ACK, 8);
        // Path and trajectory ids are hashes: fixed 8 octets, like TxSequence.
        if self.path_id.is_some() {
            n += tlv_size(PATH_ID, 8);
        }
        if self.trajectory_id.is_some() {
            n += tlv_size(TRAJECTORY_ID, 8);
        }
        if !self.tags.is_empty() {
            n += tlv_size(TAG_STACK, tag_stack_value_size(&self.tags));
        }
        // Rates are fixed 8 octets: a router lowering one never changes the frame's size.
        n += [self.mircc_rate, self.mircc_rate2].iter().flatten().count() * tlv_size(MIRCC_RATE, 8);
        if self.non_discovery {
            n += tlv_size(NON_DISCOVERY, 0);
        }
        if let Some(pa) = &self.prefix_announcement {
            n += pa.field_size(PREFIX_ANNOUNCEMENT);
        }
        n
    }
}

fn tag_stack_value_size(tags: &[u64]) -> usize {
    tags.iter().map(|&t| nonneg_tlv_size(tlv_type::TAG, t)).sum()
}

impl LpHeader {
    /// The Interest carries NonDiscovery (self-learning).
    pub fn non_discovery(&self) -> bool {
        self.ext.as_deref().is_some_and(|e| e.non_discovery)
    }

    /// The Data's PrefixAnnouncement (self-learning), if any.
    pub fn prefix_announcement(&self) -> Option<&PrefixAnnouncement> {
        self.ext.as_deref().and_then(|e| e.prefix_announcement.as_ref())
    }

    pub fn is_empty(&self) -> bool {
        self.congestion_mark == 0
            && self.hop_count.is_none()
            && self.flags == 0
            && self.ext.as_deref().is_none_or(|e| *e == LpExtensions::default())
    }

    /// The trajectory id (SMIC's, and the route label of forwarders with `route_labels`), if any.
    pub fn trajectory_id(&self) -> Option<u64> {
        self.ext.as_deref().and_then(|e| e.trajectory_id)
    }

    /// The extension fields, created empty on first use.
    pub fn ext_mut(&mut self) -> &mut LpExtensions {
        self.ext.get_or_insert_with(Default::default)
    }

    /// Size of the header fields (everything in LpPacket except Nack and Fragment).
    pub fn fields_size(&self) -> usize {
        use tlv_type::*;
        let mut n = 0;
        if self.congestion_mark != 0 {
            n += nonneg_tlv_size(CONGESTION_MARK, self.congestion_mark);
        }
        if let Some(h) = self.hop_count {
            n += nonneg_tlv_size(HOP_COUNT, h);
        }
        if self.flags != 0 {
            n += nonneg_tlv_size(FLAGS, self.flags);
        }
        if let Some(ext) = &self.ext {
            n += ext.fields_size();
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

/// An unknown header field may be skipped iff it is in the 3-octet header range and its two low
/// bits are zero (NDNLPv2 "ignorable" rule; ndn-cxx `FieldInfo::canIgnore`).
pub const fn is_ignorable_field(typ: u64) -> bool {
    800 <= typ && typ <= 959 && typ & 0x03 == 0
}

/// Encodes a frame: the bare network packet when there is no header field and no Nack, otherwise
/// an LpPacket. Its length is `frame_size` (and `Frame::wire_size`) exactly.
pub fn encode_frame(lp: &LpHeader, packet: &NetPacket) -> Vec<u8> {
    let mut out = Vec::with_capacity(frame_size(lp, nack_reason(packet), net_packet_size(packet)));
    encode_frame_into(lp, packet, &mut out);
    out
}

/// Appends the encoded frame to `out`.
pub fn encode_frame_into(lp: &LpHeader, packet: &NetPacket, out: &mut Vec<u8>) {
    let nack = nack_reason(packet);
    let fields = lp.fields_size();
    if fields == 0 && nack.is_none() {
        encode_net_packet(packet, out);
        return;
    }
    let net_size = net_packet_size(packet);
    let value = fields + nack.map_or(0, nack_field_size) + tlv_size(tlv_type::FRAGMENT, net_size);
    write_tl(out, tlv_type::LP_PACKET, value);
    // Sequence (81) sorts first, then Nack (800) before every other header field (832 and up).
    lp.encode_sequence(out);
    if let Some(reason) = nack {
        encode_nack_field(reason, out);
    }
    lp.encode_fields(out);
    write_tl(out, tlv_type::FRAGMENT, net_size);
    encode_net_packet(packet, out);
}

fn nack_reason(packet: &NetPacket) -> Option<NackReason> {
    match packet {
        NetPacket::Nack(n) => Some(n.reason),
        _ => None,
    }
}

/// Size of what goes in the Fragment: the Interest or Data (a Nack carries its Interest).
fn net_packet_size(packet: &NetPacket) -> usize {
    match packet {
        NetPacket::Interest(i) => i.wire_size(),
        NetPacket::Data(d) => d.wire_size(),
        NetPacket::Nack(n) => n.interest.wire_size(),
    }
}

/// Appends the network packet a frame carries (the Interest of a Nack) with no link header: what a
/// fragmenting link slices.
pub fn encode_net_packet(packet: &NetPacket, out: &mut Vec<u8>) {
    match packet {
        NetPacket::Interest(i) => i.encode_into(out),
        NetPacket::Data(d) => d.encode_into(out),
        NetPacket::Nack(n) => n.interest.encode_into(out),
    }
}

/// Nack { NackReason? }: reason None is an empty Nack, as ndn-cxx's NackHeader writes it.
pub(crate) fn encode_nack_field(reason: NackReason, out: &mut Vec<u8>) {
    if reason == NackReason::None {
        write_tl(out, tlv_type::NACK, 0);
    } else {
        write_tl(out, tlv_type::NACK, nonneg_tlv_size(tlv_type::NACK_REASON, reason.code()));
        write_nonneg_tlv(out, tlv_type::NACK_REASON, reason.code());
    }
}

impl LpHeader {
    /// Sequence (81) sorts before the Nack field, so it is written apart from the others.
    fn encode_sequence(&self, out: &mut Vec<u8>) {
        if let Some(seq) = self.ext.as_deref().and_then(|e| e.sequence) {
            write_fixed_u64_tlv(out, tlv_type::SEQUENCE, seq);
        }
    }

    /// Appends the header fields after Sequence and Nack, in increasing TLV-TYPE order; with
    /// `encode_sequence`, sizes match `fields_size`.
    pub(crate) fn encode_fields(&self, out: &mut Vec<u8>) {
        use tlv_type::*;
        let ext = self.ext.as_deref();
        if self.congestion_mark != 0 {
            write_nonneg_tlv(out, CONGESTION_MARK, self.congestion_mark);
        }
        for &ack in ext.map(|e| e.acks.as_slice()).unwrap_or(&[]) {
            write_fixed_u64_tlv(out, ACK, ack);
        }
        if let Some(seq) = ext.and_then(|e| e.tx_sequence) {
            write_fixed_u64_tlv(out, TX_SEQUENCE, seq);
        }
        if ext.is_some_and(|e| e.non_discovery) {
            write_tl(out, NON_DISCOVERY, 0);
        }
        if let Some(pa) = ext.and_then(|e| e.prefix_announcement.as_ref()) {
            pa.encode_field(PREFIX_ANNOUNCEMENT, out);
        }
        if let Some(h) = self.hop_count {
            write_nonneg_tlv(out, HOP_COUNT, h);
        }
        if let Some(p) = ext.and_then(|e| e.path_id) {
            write_fixed_u64_tlv(out, PATH_ID, p);
        }
        if let Some(t) = ext.and_then(|e| e.trajectory_id) {
            write_fixed_u64_tlv(out, TRAJECTORY_ID, t);
        }
        let tags = ext.map(|e| e.tags.as_slice()).unwrap_or(&[]);
        if !tags.is_empty() {
            write_tl(out, TAG_STACK, tag_stack_value_size(tags));
            for &t in tags {
                write_nonneg_tlv(out, TAG, t);
            }
        }
        if self.flags != 0 {
            write_nonneg_tlv(out, FLAGS, self.flags);
        }
        if let Some(r) = ext.and_then(|e| e.mircc_rate) {
            write_fixed_u64_tlv(out, MIRCC_RATE, r);
        }
        if let Some(r) = ext.and_then(|e| e.mircc_rate2) {
            write_fixed_u64_tlv(out, MIRCC_RATE2, r);
        }
    }
}

/// Decodes a frame: a bare Interest or Data, or an LpPacket carrying one (a Nack carries an
/// Interest). `wire` must hold exactly one packet. The frame's `net_size` is the encoded size of
/// the decoded network packet (equal to the received Fragment length unless the sender used
/// non-minimal integer encodings, which are accepted and normalised).
pub fn decode_frame(wire: &[u8]) -> Result<Frame, DecodeError> {
    match decode_link_packet(wire)? {
        LinkPacket::Frame(frame) => Ok(frame),
        LinkPacket::Idle(_) => Err(DecodeError::Missing("Fragment")),
    }
}

/// The network packet in a Fragment (or a bare frame): exactly one Interest or Data; with a Nack
/// header it must be the rejected Interest.
fn decode_net_packet(el: &Element<'_>, nack: Option<NackReason>) -> Result<NetPacket, DecodeError> {
    use super::data::tlv_type::DATA;
    use super::interest::tlv_type::INTEREST;
    match (el.typ, nack) {
        (INTEREST, None) => Ok(NetPacket::Interest(Arc::new(Interest::decode_element(el)?))),
        (INTEREST, Some(reason)) => {
            let interest = Arc::new(Interest::decode_element(el)?);
            Ok(NetPacket::Nack(Arc::new(Nack { reason, interest })))
        }
        (DATA, None) => Ok(NetPacket::Data(Arc::new(Data::decode_element(el)?))),
        (found, Some(_)) => Err(DecodeError::UnexpectedType { at: el.at, found, expected: "Interest (in a Nack)" }),
        (found, None) => Err(DecodeError::UnexpectedType { at: el.at, found, expected: "LpPacket, Interest or Data" }),
    }
}

/// Sort key of a field in ndn-cxx: header fields (location 1) by type, then Fragment (location 2).
fn field_sort_key(typ: u64) -> (u8, u64) {
    if typ == tlv_type::FRAGMENT {
        (2, typ)
    } else {
        (1, typ)
    }
}

/// ndn-cxx's order rule between consecutive fields: same type only if repeatable (Ack), otherwise
/// strictly increasing sort key.
fn check_field_order(prev: Option<u64>, e: &Element<'_>) -> Result<(), DecodeError> {
    let Some(prev) = prev else { return Ok(()) };
    if prev == e.typ {
        if e.typ == tlv_type::ACK {
            return Ok(());
        }
        return Err(DecodeError::Invalid { at: e.at, what: "LpPacket field", reason: "non-repeatable field repeated" });
    }
    if field_sort_key(prev) > field_sort_key(e.typ) {
        return Err(DecodeError::Invalid {
            at: e.at,
            what: "LpPacket field",
            reason: "fields not in increasing order",
        });
    }
    Ok(())
}

/// What one LpPacket on a link carries: a frame, or (no Fragment) an IDLE packet's header fields.
#[derive(Clone, Debug, PartialEq)]
pub enum LinkPacket {
    Frame(Frame),
    Idle(LpHeader),
}

/// Decodes what a link received: a frame as `decode_frame` does, or an IDLE packet (an LpPacket
/// with header fields and no Fragment; a Nack field needs the Fragment it rejects).
pub fn decode_link_packet(wire: &[u8]) -> Result<LinkPacket, DecodeError> {
    let mut r = Reader::new(wire);
    let el = r.read_element()?;
    if !r.is_empty() {
        return Err(DecodeError::Trailing(r.remaining()));
    }
    match el.typ {
        tlv_type::LP_PACKET => decode_lp_fields(&el),
        _ => decode_net_packet(&el, None).map(|packet| LinkPacket::Frame(Frame::new(LpHeader::default(), packet))),
    }
}

/// Exact size of an IDLE packet carrying `lp`'s header fields: LpPacket { fields }.
pub fn idle_packet_size(lp: &LpHeader) -> usize {
    tlv_size(tlv_type::LP_PACKET, lp.fields_size())
}

/// Appends an IDLE packet carrying `lp`'s header fields; its length is `idle_packet_size(lp)`.
pub fn encode_idle_packet(lp: &LpHeader, out: &mut Vec<u8>) {
    write_tl(out, tlv_type::LP_PACKET, lp.fields_size());
    lp.encode_sequence(out);
    lp.encode_fields(out);
}

fn decode_lp_fields(el: &Element<'_>) -> Result<LinkPacket, DecodeError> {
    let mut lp = LpHeader::default();
    let mut nack = None;
    let mut fragment = None;
    let mut prev = None;
    let mut r = el.reader();
    while !r.is_empty() {
        let e = r.read_element()?;
        check_field_order(prev, &e)?;
        prev = Some(e.typ);
        if e.typ == tlv_type::FRAGMENT {
            fragment = Some(e);
        } else if e.typ == tlv_type::NACK {
            nack = Some(decode_nack_field(&e)?);
        } else {
            lp.decode_field(&e)?;
        }
    }
    let Some(fragment) = fragment else {
        if nack.is_some() {
            return Err(DecodeError::Missing("Fragment"));
        }
        return Ok(LinkPacket::Idle(lp));
    };
    let mut fr = fragment.reader();
    if fr.is_empty() {
        return Err(DecodeError::Missing("network packet in Fragment"));
    }
    let inner = fr.read_element()?;
    if !fr.is_empty() {
        return Err(DecodeError::Trailing(fr.remaining()));
    }
    Ok(LinkPacket::Frame(Frame::new(lp, decode_net_packet(&inner, nack)?)))
}

/// Nack { NackReason? }: absent or unknown reason codes mean None (ndn-cxx); other content follows
/// the evolvability rule.
fn decode_nack_field(e: &Element<'_>) -> Result<NackReason, DecodeError> {
    let mut reason = NackReason::None;
    let mut r = e.reader();
    let mut seen = false;
    while !r.is_empty() {
        let inner = r.read_element()?;
        match inner.typ {
            tlv_type::NACK_REASON if !seen => {
                reason = NackReason::from_code(inner.nonneg()?);
                seen = true;
            }
            tlv_type::NACK_REASON => {
                return Err(DecodeError::Invalid { at: inner.at, what: "NackReason", reason: "repeated" });
            }
            _ => super::tlv::skip_unknown(&inner)?,
        }
    }
    Ok(reason)
}

impl LpHeader {
    /// Applies one header field (anything but Nack and Fragment).
    fn decode_field(&mut self, e: &Element<'_>) -> Result<(), DecodeError> {
        use tlv_type::*;
        match e.typ {
            SEQUENCE => self.ext_mut().sequence = Some(e.fixed_u64("Sequence")?),
            CONGESTION_MARK => self.congestion_mark = e.nonneg()?,
            ACK => self.ext_mut().acks.push(e.fixed_u64("Ack")?),
            TX_SEQUENCE => self.ext_mut().tx_sequence = Some(e.fixed_u64("TxSequence")?),
            NON_DISCOVERY => {
                e.expect_empty("NonDiscovery")?;
                self.ext_mut().non_discovery = true;
            }
            PREFIX_ANNOUNCEMENT => {
                self.ext_mut().prefix_announcement = Some(PrefixAnnouncement::decode_field(e)?);
            }
            HOP_COUNT => self.hop_count = Some(e.nonneg()?),
            PATH_ID => self.ext_mut().path_id = Some(e.fixed_u64("PathId")?),
            TRAJECTORY_ID => self.ext_mut().trajectory_id = Some(e.fixed_u64("TrajectoryId")?),
            // An empty TagStack carries nothing: kept as none, so that it re-encodes as it decoded.
            TAG_STACK => {
                let tags = decode_tag_stack(e)?;
                if !tags.is_empty() {
                    self.ext_mut().tags = tags;
                }
            }
            FLAGS => self.flags = e.nonneg()?,
            MIRCC_RATE => self.ext_mut().mircc_rate = Some(e.fixed_u64("MirccRate")?),
            MIRCC_RATE2 => self.ext_mut().mircc_rate2 = Some(e.fixed_u64("MirccRate2")?),
            // Known NDNLPv2 fields that carry nothing ndnflow models.
            PIT_TOKEN => {}
            FRAG_INDEX => require_unfragmented(e, 0)?,
            FRAG_COUNT => require_unfragmented(e, 1)?,
            t if is_ignorable_field(t) => {}
            t => return Err(DecodeError::UnknownCritical { at: e.at, typ: t }),
        }
        Ok(())
    }
}

/// FragIndex must be 0 and FragCount 1: a fragment of a larger packet cannot be decoded alone.
fn require_unfragmented(e: &Element<'_>, expected: u64) -> Result<(), DecodeError> {
    if e.nonneg()? == expected {
        Ok(())
    } else {
        Err(DecodeError::Invalid { at: e.at, what: "LpPacket", reason: "fragmented packets are not supported" })
    }
}

/// TagStack { Tag* }: bottom first, top last, as `LpExtensions::tags` stores them.
fn decode_tag_stack(e: &Element<'_>) -> Result<SmallVec<[u64; 4]>, DecodeError> {
    let mut tags = SmallVec::new();
    let mut r = e.reader();
    while !r.is_empty() {
        let t = r.expect(tlv_type::TAG, "Tag")?;
        tags.push(t.nonneg()?);
    }
    Ok(tags)
}

/// Codec entry points on the frame itself (defined here, next to the LpPacket code they call).
impl Frame {
    /// The frame's bytes on a link; `encode().len() == wire_size()`.
    pub fn encode(&self) -> Vec<u8> {
        encode_frame(&self.lp, &self.packet)
    }
    /// Same as `lp::decode_frame`.
    pub fn decode(wire: &[u8]) -> Result<Frame, DecodeError> {
        decode_frame(wire)
    }
}
