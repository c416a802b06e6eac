//! NDNLPv2 link reliability, one face's side, as NFD's `LpReliability` runs it (NFD
//! daemon/face/lp-reliability.cpp and .hpp; NDNLPv2 spec, "Link Reliability"), with no clock and no
//! I/O: the caller hands in `now` and frames, and gets frames and loss reports back.
//!
//! * **Sending.** Every frame gets a Sequence (NFD's GenericLinkService numbers each packet when
//!   reliability is on) and a TxSequence, counting from 0, and is kept until acknowledged, with a
//!   retransmission timer of the current RTO (ndn-cxx `RttEstimator`, RFC 6298, fed only by frames
//!   never retransmitted: Karn's rule). Pending Acks for the other side ride on it (piggybacking).
//! * **Receiving.** Each Ack removes its frame; Acks for unknown TxSequences are ignored. A frame
//!   with `loss_threshold` later TxSequences acknowledged is lost (the gap rule); so is a frame
//!   whose timer expires. A lost frame is sent again under a new TxSequence, at most `max_retx`
//!   times; after that the link gives it up, and the caller hears of it (`Output::GaveUp`): PCON
//!   §3.5's "reliable loss detection" report. A received frame's TxSequence joins the Ack queue; a
//!   frame whose Sequence was seen within the last RTO is a duplicate (acknowledged, not
//!   delivered).
//! * **Idle Acks.** The first TxSequence queued starts the idle-Ack timer; when it fires, every
//!   Ack still queued leaves in IDLE packets (LpPacket with Acks and no Fragment).
//!
//! Where NFD is silent or we depart from it:
//! * NFD gives up on a fragment's whole network packet; ndnflow's reliable links send whole
//!   frames (no MTU), so a frame is the network packet.
//! * NFD reports only given-up Interests (`onDroppedInterest`); every given-up frame is reported
//!   here, since PCON needs lost Data too (the caller decides what a report means).
//! * NFD does not back the RTO off on a retransmission timeout (its current lp-reliability.cpp
//!   never calls `backoffRto`); neither do we.
//!
//! Cost per frame: the copy kept for retransmission shares the network packet (an `Arc`) and
//! clones the header's extension box, which a numbered frame needs anyway; the window, timer heap,
//! Ack queue and duplicate set reuse their storage once grown.
//!
//! Parameters, defaults and sources: docs/protocols/links.md, "NDNLPv2 link reliability".

use std::cmp::Reverse;
use std::collections::{BinaryHeap, VecDeque};
use std::sync::Arc;

use bytes::Bytes;
use rustc_hash::FxHashSet;
use smallvec::SmallVec;

use crate::app::rtt::{RttEstimator, RttOptions};
use crate::packet::lp::{tlv_type, LpExtensions, LpHeader};
use crate::packet::tlv::{tlv_size, var_number_size};
use crate::{Data, Frame, Interest, Nack, NackReason, NetPacket, Time};

/// ndn-cxx `MAX_NDN_PACKET_SIZE`: the bound NFD's piggyback fills up to on a link without MTU.
pub const MAX_NDN_PACKET_SIZE: usize = 8800;
/// Bytes of one Ack field: TLV-TYPE 836 (3) + TLV-LENGTH (1) + 8-octet TxSequence.
pub const ACK_SIZE: usize = tlv_size(tlv_type::ACK, 8);

/// NFD `LpReliability::Options` (defaults from lp-reliability.hpp) and the RTO estimator's.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ReliabilityConfig {
    /// Retransmissions of a frame before it is given up (NFD `maxRetx`, 3).
    pub max_retx: u32,
    /// How long a queued Ack may wait for a frame to ride on (NFD `idleAckTimerPeriod`, 5 ms).
    pub idle_ack_period: Time,
    /// Later TxSequences acknowledged that make a frame lost (NFD `seqNumLossThreshold`, 3).
    pub loss_threshold: u32,
    /// RTO estimation (ndn-cxx `RttEstimator` defaults: 1 s initial, 200 ms min, 60 s max).
    pub rtt: RttOptions,
}

impl Default for ReliabilityConfig {
    fn default() -> Self {
        ReliabilityConfig {
            max_retx: 3,
            idle_ack_period: Time::from_millis(5),
            loss_threshold: 3,
            rtt: RttOptions::default(),
        }
    }
}

/// What the state machine asks its caller to do.
#[derive(Clone, Debug, PartialEq)]
pub enum Output {
    /// Send this frame (a retransmission, with its new TxSequence and piggybacked Acks).
    Resend(Frame),
    /// This frame was lost `max_retx + 1` times: the link gives up on it (header fields stripped).
    GaveUp(Frame),
    /// Send an IDLE packet with these header fields (Acks only; `lp::encode_idle_packet`).
    Idle(LpHeader),
}

/// What a received frame is for the layer above.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Received {
    /// Hand it to the forwarder (its reliability fields are gone).
    Deliver,
    /// A copy of a frame already delivered: acknowledged, then dropped.
    Duplicate,
}

/// Counters, as NFD's link service keeps them (`nAcknowledged`, `nRetransmitted`,
/// `nRetxExhausted`), plus IDLE packets sent and duplicates dropped.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ReliabilityCounters {
    pub acknowledged: u64,
    pub retransmissions: u64,
    pub gave_up: u64,
    pub idle_packets: u64,
    pub duplicates: u64,
}

/// A frame sent and not yet acknowledged.
#[derive(Clone, Debug)]
struct Unacked {
    /// The frame as first sent, without Acks (each transmission piggybacks the Acks of its time).
    frame: Frame,
    sent_at: Time,
    retx: u32,
    /// Acks seen for later TxSequences.
    greater_acks: u32,
}

/// One face's NDNLPv2 reliability state.
#[derive(Clone, Debug)]
pub struct LpReliability {
    cfg: ReliabilityConfig,
    rtt: RttEstimator,
    next_sequence: u64,
    next_tx_sequence: u64,
    /// Unacknowledged frames by TxSequence: slot i holds `first_unacked + i` (`None`: acknowledged,
    /// given up, or sent again under a new number). TxSequences only grow, so this is a window.
    unacked: VecDeque<Option<Unacked>>,
    first_unacked: u64,
    /// Retransmission deadlines; an entry whose frame has left `unacked` is skipped when it comes up.
    timers: BinaryHeap<Reverse<(Time, u64)>>,
    /// TxSequences received and not yet acknowledged, oldest first.
    ack_queue: VecDeque<u64>,
    idle_ack_at: Option<Time>,
    /// Sequences delivered within the last RTO, for duplicate detection, oldest first.
    recent: VecDeque<(u64, Time)>,
    recent_set: FxHashSet<u64>,
    /// Scratch: TxSequences the gap rule found lost.
    lost: Vec<u64>,
    pub counters: ReliabilityCounters,
}

impl LpReliability {
    pub fn new(cfg: ReliabilityConfig) -> LpReliability {
        LpReliability {
            rtt: RttEstimator::new(cfg.rtt),
            cfg,
            next_sequence: 0,
            next_tx_sequence: 0,
            unacked: VecDeque::new(),
            first_unacked: 0,
            timers: BinaryHeap::new(),
            ack_queue: VecDeque::new(),
            idle_ack_at: None,
            recent: VecDeque::new(),
            recent_set: FxHashSet::default(),
            lost: Vec::new(),
            counters: ReliabilityCounters::default(),
        }
    }

    pub fn config(&self) -> &ReliabilityConfig {
        &self.cfg
    }

    /// The retransmission timeout a frame sent now would get.
    pub fn rto(&self) -> Time {
        self.rtt.rto()
    }

    /// Frames sent and neither acknowledged nor given up.
    pub fn in_flight(&self) -> usize {
        self.unacked.iter().filter(|u| u.is_some()).count()
    }

    /// Acks waiting for a frame or an IDLE packet.
    pub fn pending_acks(&self) -> usize {
        self.ack_queue.len()
    }

    /// Numbers `frame`, keeps it for retransmission, starts its timer and piggybacks pending Acks
    /// on it. Call just before the frame goes to the link.
    pub fn on_send(&mut self, now: Time, frame: &mut Frame) {
        frame.lp.ext_mut().sequence = Some(self.next_sequence);
        self.next_sequence += 1;
        self.track(now, frame.clone(), 0);
        self.number(frame);
    }

    /// Processes a frame received on the face: its Acks (which may make frames lost, hence
    /// `out`), then its TxSequence and Sequence. The reliability fields are taken off the frame.
    pub fn on_receive(&mut self, now: Time, frame: &mut Frame, out: &mut Vec<Output>) -> Received {
        let Some((acks, tx_sequence, sequence)) = take_fields(frame) else { return Received::Deliver };
        self.process_acks(now, &acks, out);
        let Some(tx_sequence) = tx_sequence else { return Received::Deliver };
        self.queue_ack(now, tx_sequence);
        match sequence {
            Some(seq) if self.seen_recently(now, seq) => {
                self.counters.duplicates += 1;
                Received::Duplicate
            }
            _ => Received::Deliver,
        }
    }

    /// Processes an IDLE packet received on the face: its Acks only.
    pub fn on_receive_idle(&mut self, now: Time, lp: &LpHeader, out: &mut Vec<Output>) {
        if let Some(ext) = lp.ext.as_deref() {
            self.process_acks(now, &ext.acks, out);
        }
    }

    /// When `handle_timeout` is next due: never later than the next timer, possibly earlier (a
    /// retransmission timer whose frame was acknowledged is still counted).
    pub fn poll_timeout(&self) -> Option<Time> {
        let rto = self.timers.peek().map(|Reverse((t, _))| *t);
        match (rto, self.idle_ack_at) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        }
    }

    /// Runs the timers due by `now`: expired retransmission timers (the frame is lost), then the
    /// idle-Ack timer (queued Acks leave in IDLE packets).
    pub fn handle_timeout(&mut self, now: Time, out: &mut Vec<Output>) {
        while let Some(&Reverse((at, tx))) = self.timers.peek() {
            if at > now {
                break;
            }
            self.timers.pop();
            if self.slot(tx).is_some() {
                self.on_lost(now, tx, out);
            }
        }
        if self.idle_ack_at.is_some_and(|t| t <= now) {
            self.idle_ack_at = None;
            while !self.ack_queue.is_empty() {
                let mut lp = LpHeader::default();
                // An empty LpPacket is 2 bytes; NFD fills it as it fills any packet.
                self.piggyback(&mut lp, tlv_size(tlv_type::LP_PACKET, 0));
                self.counters.idle_packets += 1;
                out.push(Output::Idle(lp));
            }
        }
    }

    /// Stores `frame` (Acks stripped) under the next TxSequence with a timer of one RTO.
    fn track(&mut self, now: Time, mut frame: Frame, retx: u32) {
        if let Some(ext) = frame.lp.ext.as_deref_mut() {
            ext.acks.clear();
        }
        let tx = self.next_tx_sequence;
        self.next_tx_sequence += 1;
        frame.lp.ext_mut().tx_sequence = Some(tx);
        if self.unacked.is_empty() {
            self.first_unacked = tx;
        }
        self.unacked.push_back(Some(Unacked { frame, sent_at: now, retx, greater_acks: 0 }));
        self.timers.push(Reverse((now + self.rtt.rto(), tx)));
    }

    /// Gives the outgoing `frame` the TxSequence just tracked and the Acks that fit.
    fn number(&mut self, frame: &mut Frame) {
        frame.lp.ext_mut().tx_sequence = Some(self.next_tx_sequence - 1);
        let size = frame.wire_size() as usize;
        self.piggyback(&mut frame.lp, size);
    }

    /// NFD `piggyback`: adds queued Acks, oldest first, while the packet (now `size` bytes) stays
    /// within MAX_NDN_PACKET_SIZE, keeping room for its TLV-LENGTH to grow.
    fn piggyback(&mut self, lp: &mut LpHeader, size: usize) {
        if self.ack_queue.is_empty() {
            return;
        }
        let reserved = var_number_size(MAX_NDN_PACKET_SIZE as u64) - var_number_size(size as u64);
        let mut room = MAX_NDN_PACKET_SIZE.saturating_sub(reserved + size);
        let acks = &mut lp.ext_mut().acks;
        while room >= ACK_SIZE {
            let Some(tx) = self.ack_queue.pop_front() else { break };
            acks.push(tx);
            room -= ACK_SIZE;
        }
    }

    fn slot(&self, tx: u64) -> Option<&Unacked> {
        let i = tx.checked_sub(self.first_unacked)?;
        self.unacked.get(usize::try_from(i).ok()?)?.as_ref()
    }

    /// Takes frame `tx` out of the window and drops acknowledged slots off its front.
    fn take(&mut self, tx: u64) -> Option<Unacked> {
        let i = usize::try_from(tx.checked_sub(self.first_unacked)?).ok()?;
        let taken = self.unacked.get_mut(i)?.take();
        while let Some(None) = self.unacked.front() {
            self.unacked.pop_front();
            self.first_unacked += 1;
        }
        taken
    }

    fn process_acks(&mut self, now: Time, acks: &[u64], out: &mut Vec<Output>) {
        for &ack in acks {
            let Some(u) = self.slot(ack) else { continue };
            if u.retx == 0 {
                self.rtt.add_sample(now - u.sent_at);
            }
            self.count_earlier_acked(ack);
            self.take(ack);
            self.counters.acknowledged += 1;
            let lost = std::mem::take(&mut self.lost);
            for &tx in &lost {
                // A frame may have gone already, given up with another.
                if self.slot(tx).is_some() {
                    self.on_lost(now, tx, out);
                }
            }
            self.lost = lost;
            self.lost.clear();
        }
    }

    /// NFD `findLostLpPackets`: every frame still unacknowledged before `ack` has seen one more
    /// later Ack; those at the threshold are lost.
    fn count_earlier_acked(&mut self, ack: u64) {
        let before = (ack - self.first_unacked) as usize;
        let threshold = self.cfg.loss_threshold;
        for (i, slot) in self.unacked.iter_mut().take(before).enumerate() {
            if let Some(u) = slot {
                u.greater_acks += 1;
                if u.greater_acks >= threshold {
                    self.lost.push(self.first_unacked + i as u64);
                }
            }
        }
    }

    /// NFD `onLpPacketLost`: sends frame `tx` again under a new TxSequence, or gives it up after
    /// `max_retx` retransmissions.
    fn on_lost(&mut self, now: Time, tx: u64, out: &mut Vec<Output>) {
        let Some(u) = self.take(tx) else { return };
        if u.retx >= self.cfg.max_retx {
            self.counters.gave_up += 1;
            let mut frame = u.frame;
            take_fields(&mut frame);
            out.push(Output::GaveUp(frame));
            return;
        }
        self.counters.retransmissions += 1;
        let mut frame = u.frame.clone();
        self.track(now, u.frame, u.retx + 1);
        self.number(&mut frame);
        out.push(Output::Resend(frame));
    }

    fn queue_ack(&mut self, now: Time, tx_sequence: u64) {
        self.ack_queue.push_back(tx_sequence);
        if self.idle_ack_at.is_none() {
            self.idle_ack_at = Some(now + self.cfg.idle_ack_period);
        }
    }

    /// NFD's duplicate check: whether Sequence `seq` arrived within the last RTO (older entries are
    /// forgotten first); records it either way.
    fn seen_recently(&mut self, now: Time, seq: u64) -> bool {
        let rto = self.rtt.rto();
        while let Some(&(old, at)) = self.recent.front() {
            if now <= at + rto {
                break;
            }
            self.recent.pop_front();
            self.recent_set.remove(&old);
        }
        let seen = !self.recent_set.insert(seq);
        self.recent.push_back((seq, now));
        seen
    }
}

/// PCON §3.5 has the node that learns of a loss tell the node waiting for an answer with a
/// Nack(Congestion). For a lost Data that is the upstream telling its downstream, which NDNLPv2 has
/// no field for, and the upstream no longer has the Interest (its PIT entry left with the Data).
/// So the upstream sends, over the same link, a Nack(Congestion) for an Interest of the Data's
/// name without a Nonce (which no forwarded Interest lacks), with the congestion mark `mark`;
/// the downstream's link service recognises it (`data_loss_reported`) and hands it to its
/// forwarder as a lost Data (`Forwarder::handle_lost_data`), which names its own Interest and
/// nonce.
pub fn data_loss_report(data: &Data, mark: u64) -> Frame {
    let mut interest = Interest::new(data.name.clone(), 0, Time::ZERO);
    (interest.nonce, interest.lifetime) = (None, None);
    let mut frame = Frame::nack(Arc::new(Nack { reason: NackReason::Congestion, interest: Arc::new(interest) }));
    frame.lp.congestion_mark = mark;
    frame
}

/// The Data a received frame reports lost (see `data_loss_report`), if it is one: its name, no
/// content, which is all `Forwarder::handle_lost_data` reads.
pub fn data_loss_reported(frame: &Frame) -> Option<Data> {
    match &frame.packet {
        NetPacket::Nack(n) if n.interest.nonce.is_none() && n.reason == NackReason::Congestion => {
            Some(Data::new(n.interest.name.clone(), Bytes::new()))
        }
        _ => None,
    }
}

/// A received frame's Acks, TxSequence and Sequence.
type TakenFields = (SmallVec<[u64; 2]>, Option<u64>, Option<u64>);

/// Takes the reliability fields (Acks, TxSequence, Sequence) off a frame, so that the layer above
/// sees it as the far end's layer above sent it; `None` if it has no extension fields at all.
fn take_fields(frame: &mut Frame) -> Option<TakenFields> {
    let ext = frame.lp.ext.as_deref_mut()?;
    let fields = (std::mem::take(&mut ext.acks), ext.tx_sequence.take(), ext.sequence.take());
    if *ext == LpExtensions::default() {
        frame.lp.ext = None;
    }
    Some(fields)
}

#[cfg(test)]
#[path = "reliability_tests.rs"]
mod tests;
