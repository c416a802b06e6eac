//! A UDP face's link service: NFD's GenericLinkService between the forwarder and the socket
//! (NFD daemon/face/generic-link-service.cpp), built from the core's sans-IO NDNLPv2 parts:
//! fragmentation past the face's MTU (`link::frag`), reassembly of fragments that arrive in any
//! order (`link::reassembly`), and, when the face asks for it, the link reliability protocol
//! (`link::reliability`, the state machine the simulator runs on its reliable links).
//!
//! * **MTU.** NFD gives a unicast UDP face the largest datagram IP can carry (NFD
//!   daemon/face/udp-protocol.cpp `computeMtu`: 65,535 less the largest IPv4 header, 60 bytes, and
//!   the UDP header, 8: 65,467; over IPv6, 65,527), so a packet of ndn-cxx's 8,800 bytes at most
//!   is never fragmented by NDN: IP fragments the datagram instead. `[[faces]] mtu` sets a smaller
//!   one (as NFD's faces/create `Mtu`), for a path where IP fragments are lost or refused; packets
//!   past it go in NDNLPv2 fragments, one datagram each.
//! * **Reassembly** is always on, as NFD turns it on for UDP faces (`allowReassembly`).
//! * **Reliability** is off unless the face asks for it (`[[faces]] reliability = true`, or
//!   faces/create's LP_RELIABILITY flag), as in NFD. A frame given up after `max_retx`
//!   retransmissions is counted and dropped; NFD's forwarder hands a given-up Interest to its
//!   strategy's `onDroppedInterest`, which no built-in strategy of NFD acts on.
//! * **Not both.** A face with reliability does not also fragment (the configuration refuses a
//!   smaller MTU with it, as the scenario reader refuses both on one link direction): the
//!   reliability state machine numbers whole frames. A peer's fragments are reassembled on any
//!   face, but their reliability fields are not read.

use ndnflow_core::link::frag::{encode_fragments, MARK_RESERVE, MAX_SINGLE_FRAG_OVERHEAD};
use ndnflow_core::link::reassembly::{parse_fragment, Reassembler, ReassemblyCounters};
use ndnflow_core::link::reliability::{Output, Received, ReliabilityCounters};
use ndnflow_core::link::{LpReliability, ReliabilityConfig};
use ndnflow_core::packet::lp::{decode_link_packet, encode_frame_into, encode_idle_packet, LinkPacket};
use ndnflow_core::packet::{DecodeError, Frame};
use ndnflow_core::Time;

/// NFD's unicast UDP MTU over IPv4 (`udp::computeMtu`): 65,535 - 60 - 8.
pub const UDP_MTU_V4: u32 = 65_467;
/// NFD's unicast UDP MTU over IPv6: 65,535 - 8.
pub const UDP_MTU_V6: u32 = 65_527;

/// What the link service counted, for the report (NFD's GenericLinkService counters, by its
/// names where it has one).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct LpCounters {
    /// Packets sent in more than one fragment (NFD `nFragmentationErrors` counts the failures:
    /// here `too_large`).
    pub fragmented: u64,
    /// Datagrams those packets took.
    pub fragments_sent: u64,
    /// Packets the MTU could not carry in 400 fragments: dropped.
    pub too_large: u64,
    pub reassembled: u64,
    /// NFD `nReassemblyTimeouts`.
    pub reassembly_timeouts: u64,
    pub fragments_dropped: u64,
    /// Reliability: NFD `nAcknowledged`, `nRetransmitted`, `nRetxExhausted`; IDLE packets sent and
    /// duplicates dropped.
    pub acknowledged: u64,
    pub retransmitted: u64,
    pub retx_exhausted: u64,
    pub idle_packets: u64,
    pub duplicates: u64,
}

#[derive(Debug)]
pub struct LinkService {
    mtu: u32,
    /// The next fragment's Sequence (a reliable face's frames are numbered by its state machine).
    next_sequence: u64,
    reliability: Option<Box<LpReliability>>,
    reassembler: Reassembler,
    fragmented: u64,
    fragments_sent: u64,
    too_large: u64,
    scratch: Vec<Output>,
}

impl LinkService {
    /// A link service with `mtu` (`None`: NFD's UDP MTU for `ipv6` or IPv4), and reliability if
    /// asked.
    pub fn new(mtu: Option<u32>, ipv6: bool, reliable: bool) -> LinkService {
        // Capped at the transport's own, as `set_mtu` caps faces/update's (faces/create reported
        // an IPv4 face's Mtu of 70,000 as 65,527, the IPv6 one, until 2026-11-28).
        let cap = if ipv6 { UDP_MTU_V6 } else { UDP_MTU_V4 };
        let mtu = mtu.map_or(cap, |m| m.min(cap));
        LinkService {
            mtu,
            next_sequence: 0,
            reliability: reliable.then(|| Box::new(LpReliability::new(ReliabilityConfig::default()))),
            reassembler: Reassembler::default(),
            fragmented: 0,
            fragments_sent: 0,
            too_large: 0,
            scratch: Vec::new(),
        }
    }

    pub fn mtu(&self) -> u32 {
        self.mtu
    }

    pub fn reliable(&self) -> bool {
        self.reliability.is_some()
    }

    /// Turns reliability on (a fresh state machine, NFD's defaults) or off (what was unacknowledged
    /// is forgotten, as NFD's GenericLinkService drops its LpReliability when the option goes).
    /// Asking for the state the service is in changes nothing.
    pub fn set_reliable(&mut self, reliable: bool) {
        if reliable != self.reliable() {
            self.reliability = reliable.then(|| Box::new(LpReliability::new(ReliabilityConfig::default())));
        }
    }

    /// Overrides the MTU (faces/update's Mtu), up to the transport's own for `ipv6` or IPv4:
    /// packets past it go in fragments from the next one sent.
    pub fn set_mtu(&mut self, mtu: u32, ipv6: bool) {
        self.mtu = mtu.min(if ipv6 { UDP_MTU_V6 } else { UDP_MTU_V4 });
    }

    /// Whether the MTU is the transport's own (none was asked for, or one as large).
    pub fn has_default_mtu(&self, ipv6: bool) -> bool {
        self.mtu == if ipv6 { UDP_MTU_V6 } else { UDP_MTU_V4 }
    }

    /// Encodes `frame` for the socket and hands each datagram to `emit` (false: not sent). How
    /// many datagrams `emit` refused.
    pub fn send(&mut self, now: Time, frame: Frame, emit: &mut impl FnMut(&[u8]) -> bool) -> u64 {
        self.send_into(now, frame, &mut Vec::new(), emit)
    }

    /// As `send`, encoding a whole frame into `wire` (cleared first): the daemon passes one
    /// buffer for all its faces, so that a packet sent costs no allocation (a fresh one of a
    /// kilobyte or more per packet also made glibc's malloc consolidate its free lists each time).
    pub fn send_into(
        &mut self,
        now: Time,
        mut frame: Frame,
        wire: &mut Vec<u8>,
        emit: &mut impl FnMut(&[u8]) -> bool,
    ) -> u64 {
        if let Some(r) = self.reliability.as_mut() {
            r.on_send(now, &mut frame);
            return u64::from(!emit(encode_whole(&frame, wire)));
        }
        // NFD's rule for sending whole (`frag::fragment_pieces`), without building the pieces.
        if frame.wire_size() + MARK_RESERVE + MAX_SINGLE_FRAG_OVERHEAD <= self.mtu {
            return u64::from(!emit(encode_whole(&frame, wire)));
        }
        let Some(wires) = encode_fragments(self.mtu, &frame, self.next_sequence) else {
            self.too_large += 1;
            return 0;
        };
        self.next_sequence += wires.len() as u64;
        self.fragmented += 1;
        self.fragments_sent += wires.len() as u64;
        wires.iter().map(|w| u64::from(!emit(w))).sum()
    }

    /// Reads one datagram: the frame for the forwarder, if it carried a whole one (not an IDLE
    /// packet, a duplicate, or a fragment of a packet still incomplete). What reliability sends
    /// in answer (retransmissions the Acks revealed) goes to `emit`.
    pub fn receive(
        &mut self,
        now: Time,
        wire: &[u8],
        emit: &mut impl FnMut(&[u8]) -> bool,
    ) -> Result<Option<Frame>, DecodeError> {
        let packet = match decode_link_packet(wire) {
            Ok(packet) => packet,
            // The frame decoder takes only unfragmented LpPackets: a fragment is read here.
            Err(e) => return self.receive_fragment(now, wire).map_err(|_| e),
        };
        let Some(r) = self.reliability.as_mut() else {
            return Ok(match packet {
                LinkPacket::Frame(frame) => Some(without_reliability_fields(frame)),
                LinkPacket::Idle(_) => None,
            });
        };
        let mut out = std::mem::take(&mut self.scratch);
        let delivered = match packet {
            LinkPacket::Frame(mut frame) => {
                (r.on_receive(now, &mut frame, &mut out) == Received::Deliver).then(|| without_empty_extensions(frame))
            }
            LinkPacket::Idle(lp) => {
                r.on_receive_idle(now, &lp, &mut out);
                None
            }
        };
        self.apply(&mut out, emit);
        self.scratch = out;
        Ok(delivered)
    }

    fn receive_fragment(&mut self, now: Time, wire: &[u8]) -> Result<Option<Frame>, DecodeError> {
        let Some(fragment) = parse_fragment(wire)? else { return Err(DecodeError::Missing("a packet")) };
        let Some(whole) = self.reassembler.receive(now, fragment) else { return Ok(None) };
        match decode_link_packet(&whole.wire)? {
            LinkPacket::Frame(mut frame) => {
                frame.lp.congestion_mark = frame.lp.congestion_mark.max(whole.mark);
                Ok(Some(frame))
            }
            LinkPacket::Idle(_) => Err(DecodeError::Missing("Fragment")),
        }
    }

    /// When `handle_timeout` is next due.
    pub fn poll_timeout(&self) -> Option<Time> {
        let rel = self.reliability.as_ref().and_then(|r| r.poll_timeout());
        [rel, self.reassembler.poll_timeout()].into_iter().flatten().min()
    }

    /// Runs the timers due by `now`: retransmissions, IDLE packets, expired reassemblies.
    pub fn handle_timeout(&mut self, now: Time, emit: &mut impl FnMut(&[u8]) -> bool) {
        self.reassembler.handle_timeout(now);
        let Some(r) = self.reliability.as_mut() else { return };
        let mut out = std::mem::take(&mut self.scratch);
        r.handle_timeout(now, &mut out);
        self.apply(&mut out, emit);
        self.scratch = out;
    }

    /// Sends what the reliability state machine asked for; a given-up frame is only counted (its
    /// own counter).
    fn apply(&mut self, out: &mut Vec<Output>, emit: &mut impl FnMut(&[u8]) -> bool) {
        for o in out.drain(..) {
            match o {
                Output::Resend(frame) => {
                    emit(&frame.encode());
                }
                Output::Idle(lp) => {
                    let mut wire = Vec::new();
                    encode_idle_packet(&lp, &mut wire);
                    emit(&wire);
                }
                Output::GaveUp(_) => {}
            }
        }
    }

    /// Packets whose fragments are partly in (bounded by the core's `reassembly::MAX_PARTIAL`).
    pub fn reassembling(&self) -> usize {
        self.reassembler.len()
    }

    pub fn counters(&self) -> LpCounters {
        let ReassemblyCounters { reassembled, timeouts, dropped_fragments, evicted } = self.reassembler.counters;
        let rel = self.reliability.as_ref().map_or(ReliabilityCounters::default(), |r| r.counters);
        LpCounters {
            fragmented: self.fragmented,
            fragments_sent: self.fragments_sent,
            too_large: self.too_large,
            reassembled,
            reassembly_timeouts: timeouts,
            fragments_dropped: dropped_fragments + evicted,
            acknowledged: rel.acknowledged,
            retransmitted: rel.retransmissions,
            retx_exhausted: rel.gave_up,
            idle_packets: rel.idle_packets,
            duplicates: rel.duplicates,
        }
    }
}

/// `frame`'s bytes, in `wire` (cleared first).
fn encode_whole<'a>(frame: &Frame, wire: &'a mut Vec<u8>) -> &'a [u8] {
    wire.clear();
    encode_frame_into(&frame.lp, &frame.packet, wire);
    wire
}

/// A numbered frame reaching a face without reliability: its Sequence, TxSequence and Acks mean
/// nothing here (NFD reads them only when the face's reliability is on), and must not travel on.
fn without_reliability_fields(mut frame: Frame) -> Frame {
    if let Some(ext) = frame.lp.ext.as_deref_mut() {
        ext.sequence = None;
        ext.tx_sequence = None;
        ext.acks.clear();
    }
    without_empty_extensions(frame)
}

/// A header whose extension fields are all absent holds none (`ext: None`), as the decoder makes
/// it: the frame the forwarder gets equals the one its bytes decode to (tests/face_fuzz.rs).
fn without_empty_extensions(mut frame: Frame) -> Frame {
    if frame.lp.ext.as_deref().is_some_and(|e| *e == Default::default()) {
        frame.lp.ext = None;
    }
    frame
}

#[cfg(test)]
#[path = "lp_tests.rs"]
mod tests;
