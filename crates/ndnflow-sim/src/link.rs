//! One direction of a full-duplex link: an output queue, a transmitter that serialises one packet at
//! a time at the link's bandwidth (each packet's exact wire size), random loss, and a propagation
//! delay. Packets in flight wait in a FIFO: a direction delivers in the order it sends, so only the
//! head's arrival needs an event.
//!
//! An IP-overlay link (PCON §4.6) is a chain: the NDN-level direction hands what arrives at its end
//! to the first underlay hop (`next`), and so on; only the last delivers to the node. Underlay hops
//! are `LinkDir`s of their own (queue, bandwidth, delay), invisible to the forwarders.
//!
//! A link that detects losses (PCON §3.5) runs NDNLPv2 link reliability at both ends
//! (`reliability`, the engine's side in `engine/reliable.rs`). Its IDLE packets (Acks, no network
//! packet) travel through the same queues and transmitters as frames: each is carried by a
//! `Frame` whose `net_size` is 0 (no network packet has that size), which is counted in `packets`,
//! `bytes`, `drops` and `losses` but in no packet kind, and never reaches a forwarder.
//!
//! A direction may shape the Interests it sends (PCON §4.6, after Wang et al.): they wait in its
//! `shaper` before the output queue, and the last hop of the reverse chain (`feeds_shaper`) tells
//! the shaper the size of each Data it delivers.
//!
//! A direction may run NFD's send-queue congestion marker (`marker`, ndnSIM's default on every
//! face; `ndnflow_core::link::nfd_mark`): each frame, or each fragment, is checked against the
//! bytes already queued as it enters the queue, before the queue's own admission test (NFD marks
//! before handing the packet to the transport, so a mark may ride on a packet the queue then
//! tail-drops; such a mark still advances the schedule but is not counted in `marks`).

use std::collections::VecDeque;

use ndnflow_core::fw::log::{ForwardingLog, FwEvent};
use ndnflow_core::link::frag::{FragTag, Fragmenter};
use ndnflow_core::link::{
    Bernoulli, CodelConfig, GilbertElliott, InterestShaper, Limit, LossModel, LpReliability, NfdMarkConfig, NfdMarker,
    Queue, QueueDiscipline, Queued, ReliabilityConfig, ShaperConfig, ShaperDrop,
};
use ndnflow_core::packet::lp::idle_packet_size;
use ndnflow_core::packet::{Frame, PacketKind};
use ndnflow_core::table::FaceId;
use ndnflow_core::Time;
use rand_chacha::ChaCha8Rng;
use serde::Serialize;

use crate::capture::DirCapture;
use crate::link_log::refusal;
use crate::scenario::model::{
    CodelMode, LinkDirSpec, LossDetection, LossSpec, QueueLimit, QueueSpec, ShaperSpec, UnderlayHop,
};

/// Cumulative counters of one link direction (what summary.json reports per direction).
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize)]
pub struct LinkCounters {
    /// Packets and bytes put on the wire (lost ones included: they were transmitted).
    pub packets: u64,
    pub bytes: u64,
    pub interests: u64,
    pub data: u64,
    pub nacks: u64,
    /// Dropped by the queue (tail drop, CoDel drop, or link down).
    pub drops: u64,
    pub interest_drops: u64,
    pub data_drops: u64,
    /// Congestion marks set here: CoDel's mark decisions (at departure) plus the NFD marker's
    /// marks on frames the queue accepted (at arrival).
    pub marks: u64,
    /// Lost on the wire by the loss model.
    pub losses: u64,
    /// Interests the direction's shaper dropped (CoDel or a full shaper queue); also counted in
    /// `drops` and `interest_drops`. Left out of summary.json for unshaped directions.
    #[serde(skip_serializing_if = "is_zero")]
    pub shaper_drops: u64,
    /// NDNLPv2 reliability of the sending face (links with loss detection; left out of
    /// summary.json elsewhere): IDLE packets sent (also in `packets` and `bytes`), frames sent
    /// again, frames given up (each reported as a loss, PCON §3.5).
    #[serde(skip_serializing_if = "is_zero")]
    pub lp_idle: u64,
    #[serde(skip_serializing_if = "is_zero")]
    pub lp_retx: u64,
    #[serde(skip_serializing_if = "is_zero")]
    pub lp_gave_up: u64,
    /// MIRCC's queue (`queue.discipline = "mircc"`; absent elsewhere), filled in the summary
    /// only (`LinkDir::summary`): not a counter the trace bins.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub mircc: Option<MirccLinkSummary>,
    /// Sum and count of queue sojourn times, for the per-bin means of the trace.
    #[serde(skip)]
    pub sojourn_sum: Time,
    #[serde(skip)]
    pub sojourn_count: u64,
}

/// What a MIRCC queue did over the run and the rates it ended with (docs/protocols/mircc.md).
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize)]
pub struct MirccLinkSummary {
    /// Intervals the rate law was applied over.
    pub updates: u64,
    /// Data that left with rates set or lowered here.
    pub stamped: u64,
    /// R1 and R2 after the last update, bits/s, rounded as they are stamped.
    pub rate_bps: u64,
    pub rate2_bps: u64,
}

fn is_zero(n: &u64) -> bool {
    *n == 0
}

/// `repr(C)`, in this order: what every packet reads comes first (an arrival reads the in-flight
/// queue and where it leads, a send the transmitter, the counters and the queue), so a packet
/// touches fewer of the direction's 13 cache lines than the compiler's layout, which put the loss
/// model's 300-byte generator between them; the generator, used only on lossy links, goes last.
#[repr(C)]
pub struct LinkDir {
    /// Packets propagating, with their arrival times (non-decreasing: one transmitter, one delay).
    pub in_flight: VecDeque<(Time, Frame)>,
    pub to: usize,
    /// The receiving node's face for this link.
    pub to_face: FaceId,
    /// The underlay hop that takes over what arrives at this direction's end (`None`: deliver to
    /// `to`).
    pub next: Option<u32>,
    /// The direction whose shaper learns the size of the Data this one delivers (set on the last
    /// hop of the reverse chain of a shaped direction).
    pub feeds_shaper: Option<u32>,
    /// The transmitter is busy until then.
    pub busy_until: Time,
    /// A TxDone event is scheduled.
    pub tx_pending: bool,
    pub up: bool,
    pub bandwidth_bps: u64,
    pub delay: Time,
    pub from: usize,
    /// The sending node's face for this link.
    pub from_face: FaceId,
    /// NDNLPv2 fragmentation on a direction with an MTU (`link_frag.rs`); `None`: whole frames.
    pub frag: Option<Box<Fragmenter>>,
    /// NFD's congestion marker in front of the queue (`None`: no marking on arrival).
    pub marker: Option<Box<NfdMarker>>,
    /// NDNLPv2 reliability of the sending node's face (NDN-level directions of links that detect
    /// losses; `None` elsewhere).
    pub reliability: Option<Box<DirReliability>>,
    pub counters: LinkCounters,
    pub queue: Queue,
    pub loss: LossModel,
    /// The NDN-level direction this one belongs to, and how it reports losses.
    pub chain: Chain,
    /// The Interest shaper of this direction (PCON §4.6), if it has one.
    pub shaper: Option<Box<DirShaper>>,
    /// The pcap capture of this direction (`[trace] pcap`; `None`: not captured).
    pub capture: Option<Box<DirCapture>>,
    scratch: Vec<Queued>,
    /// The fragments of the frame being enqueued, kept between calls so that splitting a packet
    /// does not allocate.
    pub(crate) pieces: Vec<(Frame, u32, FragTag)>,
    /// The forwarding log's queue records (`link_log.rs`); `None` unless the sending node is
    /// logged.
    pub log: Option<Box<ForwardingLog>>,
    pub rng: ChaCha8Rng,
}

/// A direction's Interest shaper and its wake-up.
pub struct DirShaper {
    pub shaper: InterestShaper,
    /// The instant of the last ShaperWake scheduled (`Time::MAX`: none yet); one at or before
    /// `now` has fired.
    pub wake_at: Time,
}

/// The NDNLPv2 reliability of the face that sends on a direction, which also receives what comes
/// back on the `reverse` direction, and its wake-up.
pub struct DirReliability {
    pub lp: LpReliability,
    /// The NDN-level direction of the same link the other way.
    pub reverse: u32,
    /// The instant of the last LinkWake scheduled (`Time::MAX`: none yet); one at or before `now`
    /// has fired.
    pub wake_at: Time,
}

impl DirReliability {
    /// NFD's defaults (docs/protocols/links.md) except `max_retx`: PCON §3.5 reports a loss to the
    /// network layer, and its §4.6 evaluation has the wireless link's losses come back as Nacks
    /// that "only trigger a [consumer] retransmission", so the link does not retransmit first (the
    /// paper's optional "addition", §3.5 last paragraph).
    pub fn new(reverse: usize) -> DirReliability {
        let cfg = ReliabilityConfig { max_retx: 0, ..ReliabilityConfig::default() };
        DirReliability { lp: LpReliability::new(cfg), reverse: reverse as u32, wake_at: Time::MAX }
    }
}

/// What a direction shares with the rest of its chain (an NDN-level direction and its underlay
/// hops).
#[derive(Clone, Copy, Debug)]
pub struct Chain {
    /// The NDN-level direction (itself, unless this is an underlay hop).
    pub origin: u32,
    /// How the link reports the losses its reliability gives up on (PCON §3.5).
    pub loss_detection: LossDetection,
}

/// What `LinkDir::transmit_next` started, for the engine to schedule.
pub struct Transmission {
    /// The packet is now the only one propagating: the engine must schedule its arrival (later
    /// packets are scheduled one at a time as each head arrives, keeping the event heap small).
    pub arrival: Option<Time>,
    /// When the transmitter is free again.
    pub done: Time,
}

impl LinkDir {
    /// The NDN-level direction `from` -> `to` described by `spec` (`index` is its place among the
    /// engine's directions); `from_face` and `to_face` are the two nodes' faces for the link.
    pub fn new(
        index: usize,
        ends: ((usize, FaceId), (usize, FaceId)),
        spec: &LinkDirSpec,
        reverse: &LinkDirSpec,
        rng: ChaCha8Rng,
    ) -> LinkDir {
        let chain = Chain { origin: index as u32, loss_detection: spec.loss_detection };
        let (bandwidth, delay) = (spec.bandwidth_bps, spec.delay);
        let mut rng = rng;
        let queue = queue(&spec.queue, &mut rng, bandwidth);
        let mut dir = LinkDir::idle(ends, chain, (bandwidth, delay), queue, loss(&spec.loss), rng);
        dir.frag = spec.mtu.map(|mtu| Box::new(Fragmenter::new(mtu)));
        dir.marker = spec.marking.map(|m| {
            let cfg = NfdMarkConfig { threshold: m.threshold, interval: m.interval };
            Box::new(NfdMarker::new(cfg, spec.send_queue_capacity()))
        });
        dir.shaper = spec.shaper.map(|s| {
            Box::new(DirShaper { shaper: InterestShaper::new(shaper(&s, reverse.bandwidth_bps)), wake_at: Time::MAX })
        });
        dir
    }

    /// An underlay hop of the chain of `origin`, delivering (if it is the last) where `origin` does.
    pub fn underlay(origin: &LinkDir, hop: &UnderlayHop, rng: ChaCha8Rng) -> LinkDir {
        let ends = ((origin.from, origin.from_face), (origin.to, origin.to_face));
        let rate = (hop.bandwidth_bps, hop.delay);
        let mut rng = rng;
        let queue = queue(&hop.queue, &mut rng, hop.bandwidth_bps);
        LinkDir::idle(ends, origin.chain, rate, queue, LossModel::None, rng)
    }

    fn idle(
        ((from, from_face), (to, to_face)): ((usize, FaceId), (usize, FaceId)),
        chain: Chain,
        (bandwidth_bps, delay): (u64, Time),
        queue: Queue,
        loss: LossModel,
        rng: ChaCha8Rng,
    ) -> LinkDir {
        LinkDir {
            from,
            to,
            to_face,
            from_face,
            next: None,
            chain,
            reliability: None,
            bandwidth_bps,
            delay,
            queue,
            loss,
            rng,
            up: true,
            busy_until: Time::ZERO,
            tx_pending: false,
            in_flight: VecDeque::new(),
            counters: LinkCounters::default(),
            scratch: Vec::new(),
            shaper: None,
            capture: None,
            feeds_shaper: None,
            frag: None,
            pieces: Vec::new(),
            marker: None,
            log: None,
        }
    }

    /// Counts a frame the queue or the link dropped.
    fn dropped(&mut self, frame: Frame) {
        if is_idle(&frame) {
            self.counters.drops += 1;
        } else {
            self.count_drop(frame.packet.kind());
        }
    }

    /// Counts an Interest the shaper dropped (the engine Nacks it at once).
    pub fn count_shaper_drop(&mut self, frame: &Frame) {
        self.count_drop(frame.packet.kind());
        self.counters.shaper_drops += 1;
    }

    /// Counts a network packet dropped here, by kind.
    pub(crate) fn count_drop(&mut self, kind: PacketKind) {
        self.counters.drops += 1;
        match kind {
            PacketKind::Interest => self.counters.interest_drops += 1,
            PacketKind::Data => self.counters.data_drops += 1,
            PacketKind::Nack => {}
        }
    }

    /// Offers a frame to the output queue; a full queue or a down link drops it.
    pub fn enqueue(&mut self, now: Time, mut frame: Frame) {
        if !self.up {
            if self.log.is_some() {
                self.note_queue(now, FwEvent::QueueDrop, &frame, "link down", Time::ZERO);
            }
            self.dropped(frame);
            return;
        }
        if self.frag.is_some() {
            return self.enqueue_fragments(now, frame);
        }
        let mut size = wire_size(&frame);
        let mut marked = false;
        if let Some(m) = self.marker.as_deref_mut() {
            if m.on_send(now, self.queue.len_bytes()) {
                size = NfdMarker::mark_whole(&mut frame, size);
                marked = true;
            }
        }
        // Taken before the queue has the frame, and only with a log: the enqueue record needs it.
        let logged = self.log.is_some().then(|| frame.clone());
        match self.queue.enqueue(now, Queued { frame, size, enqueued_at: now }) {
            Ok(()) => {
                self.counters.marks += marked as u64;
                if let Some(f) = logged {
                    self.note_enqueued(now, &f, marked);
                }
            }
            Err(item) => {
                if self.log.is_some() {
                    self.note_queue(now, FwEvent::QueueDrop, &item.frame, refusal(&self.queue), Time::ZERO);
                }
                self.dropped(item.frame)
            }
        }
    }

    pub fn is_idle(&self, now: Time) -> bool {
        self.busy_until <= now
    }

    /// Sends `frame` at once if the direction is an idle drop-tail one with nothing queued and
    /// room for it: exactly what enqueueing and dequeueing at the same instant would do (sojourn
    /// zero, no mark), without moving the frame through the queue. Otherwise (also on a
    /// fragmenting direction, whose queue holds fragments) hands it back.
    ///
    /// With an NFD marker the fast path stays: the frame would find 0 bytes queued, which is never
    /// above a threshold, so the marker cannot mark it; it only sees the uncongested arrival
    /// (which ends an episode), exactly as `enqueue` would show it.
    // The refused frame goes back by value, as `QueueDiscipline::enqueue` does.
    #[allow(clippy::result_large_err)]
    #[inline]
    pub fn send_now(&mut self, now: Time, frame: Frame) -> Result<Transmission, Frame> {
        let Queue::DropTail(q) = &self.queue else { return Err(frame) };
        // The cheap tests first: a busy direction (the usual case under load) refuses before the
        // frame is measured, which `enqueue` would then do again.
        if self.frag.is_some() || !self.up || !self.is_idle(now) || q.len_packets() > 0 {
            return Err(frame);
        }
        let size = wire_size(&frame);
        if !q.limit().admits(0, 0, size) {
            return Err(frame);
        }
        if let Some(m) = self.marker.as_deref_mut() {
            let marked = m.on_send(now, 0);
            debug_assert!(!marked, "an empty queue is never above the threshold");
        }
        if self.log.is_some() {
            self.note_queue(now, FwEvent::QueueEnqueue, &frame, "", Time::ZERO);
        }
        Ok(self.start(now, frame, size, (Time::ZERO, false), None))
    }

    /// Starts sending the next queued packet, if the transmitter is free and one is left.
    pub fn transmit_next(&mut self, now: Time) -> Option<Transmission> {
        if !self.is_idle(now) {
            return None;
        }
        let mut dropped = std::mem::take(&mut self.scratch);
        let dequeued = self.queue.dequeue(now, &mut dropped);
        for item in dropped.drain(..) {
            if self.log.is_some() {
                self.note_queue(now, FwEvent::QueueDrop, &item.frame, "AQM drop", now - item.enqueued_at);
            }
            self.dropped_queued(item.frame);
        }
        self.scratch = dropped;
        let mut d = dequeued?;
        let tag = self.frag.as_mut().map(|f| f.leave_queue());
        if let Some(tag) = tag {
            d.item.size = Fragmenter::marked_size(tag, d.item.size, d.marked, &d.item.frame);
        }
        Some(self.start(now, d.item.frame, d.item.size, (d.sojourn, d.marked), tag))
    }

    /// Serialises a frame that left the queue (or never needed it) after `sojourn` in it, marked
    /// or not there; `tag` is its fragment's bookkeeping on a fragmenting direction.
    #[inline]
    fn start(
        &mut self,
        now: Time,
        frame: Frame,
        size: u32,
        (sojourn, marked): (Time, bool),
        tag: Option<FragTag>,
    ) -> Transmission {
        if let Some(capture) = self.capture.as_deref_mut() {
            capture.frame(now, &frame, tag);
        }
        if self.log.is_some() {
            self.note_departure(now, &frame, sojourn, marked);
        }
        let c = &mut self.counters;
        c.sojourn_sum += sojourn;
        c.sojourn_count += 1;
        c.marks += marked as u64;
        c.packets += 1;
        c.bytes += size as u64;
        match tag {
            None if is_idle(&frame) => {}
            None => self.count_sent(frame.packet.kind()),
            Some(tag) => self.settle_fragment(tag, false),
        }
        let done = now + Time::transmission(size, self.bandwidth_bps);
        self.busy_until = done;
        if self.loss.is_lost(&mut self.rng) {
            self.counters.losses += 1;
            return Transmission { arrival: None, done };
        }
        if let (Some(f), Some(tag)) = (self.frag.as_mut(), tag) {
            f.flying(tag);
        }
        let arrival = done + self.delay;
        self.in_flight.push_back((arrival, frame));
        let first = self.in_flight.len() == 1;
        Transmission { arrival: first.then_some(arrival), done }
    }

    /// The counters as summary.json reports them, with the MIRCC queue's state on a direction
    /// that has one.
    pub fn summary(&self) -> LinkCounters {
        let mircc = match &self.queue {
            Queue::Mircc(q) => {
                let (rate_bps, rate2_bps) = q.stamp_rates();
                Some(MirccLinkSummary { updates: q.counters.updates, stamped: q.counters.stamped, rate_bps, rate2_bps })
            }
            _ => None,
        };
        LinkCounters { mircc, ..self.counters }
    }

    /// Takes the link down: queued packets are dropped. Packets already propagating (and the one
    /// being serialised) still arrive: they left before the link went down.
    pub fn set_down(&mut self, now: Time) {
        self.up = false;
        let mut flushed = std::mem::take(&mut self.scratch);
        while let Some(d) = self.queue.dequeue(now, &mut flushed) {
            flushed.push(d.item);
        }
        for item in flushed.drain(..) {
            if self.log.is_some() {
                self.note_queue(now, FwEvent::QueueDrop, &item.frame, "link down", now - item.enqueued_at);
            }
            self.dropped_queued(item.frame);
        }
        self.scratch = flushed;
    }

    /// Counts a network packet put on the wire whole.
    #[inline]
    pub(crate) fn count_sent(&mut self, kind: PacketKind) {
        let c = &mut self.counters;
        match kind {
            PacketKind::Interest => c.interests += 1,
            PacketKind::Data => c.data += 1,
            PacketKind::Nack => c.nacks += 1,
        }
    }

    /// A frame dropped from the queue (at its head, or flushed): with fragmentation, its tag
    /// leaves the queue too.
    fn dropped_queued(&mut self, frame: Frame) {
        match self.frag.as_mut().map(|f| f.leave_queue()) {
            Some(tag) => self.settle_fragment(tag, true),
            None => self.dropped(frame),
        }
    }
}

/// Whether `frame` carries an NDNLPv2 IDLE packet (see the module comment).
#[inline]
pub fn is_idle(frame: &Frame) -> bool {
    frame.net_size == 0
}

/// Bytes `frame` occupies on the wire, IDLE packets included.
#[inline]
fn wire_size(frame: &Frame) -> u32 {
    if is_idle(frame) {
        idle_packet_size(&frame.lp) as u32
    } else {
        frame.wire_size()
    }
}

/// The queue discipline `spec` asks for, for a driver outside the simulator (the real-time
/// daemon's shaped faces): a REM queue draws from `seed`.
pub fn make_queue(spec: &QueueSpec, seed: u64, bandwidth_bps: u64) -> Queue {
    queue(spec, &mut <ChaCha8Rng as rand::SeedableRng>::seed_from_u64(seed), bandwidth_bps)
}

/// The queue discipline a scenario asks for. A REM queue seeds its own stream from the
/// direction's (one draw, only for REM, so other directions' loss patterns stay as they were).
/// A MIRCC queue's rates are shares of `bandwidth_bps`, the direction's own.
fn queue(spec: &QueueSpec, rng: &mut ChaCha8Rng, bandwidth_bps: u64) -> Queue {
    let limit = |l: &QueueLimit| match *l {
        QueueLimit::Packets(n) => Limit::Packets(n),
        QueueLimit::Bytes(n) => Limit::Bytes(n),
    };
    match spec {
        QueueSpec::DropTail { limit: l } => Queue::drop_tail(limit(l)),
        QueueSpec::Rem { limit: l, rem } => Queue::rem(limit(l), *rem, rand::Rng::next_u64(rng)),
        QueueSpec::Mircc { limit: l, mircc } => Queue::mircc(limit(l), *mircc, bandwidth_bps),
        QueueSpec::Codel { limit: l, target, interval, mode, law_interval, high_cong_after, signal_on_arrival } => {
            Queue::codel(
                limit(l),
                CodelConfig {
                    target: *target,
                    interval: *interval,
                    mark: *mode == CodelMode::Mark,
                    law_interval: *law_interval,
                    high_cong_after: *high_cong_after,
                    signal_on_arrival: *signal_on_arrival,
                },
            )
        }
    }
}

/// The Interest shaper a scenario asks for; without a capacity it assumes `reverse_bps`, the
/// bandwidth of the direction the Data come back on (PCON §4.6 Shaper_Overlay).
fn shaper(spec: &ShaperSpec, reverse_bps: u64) -> ShaperConfig {
    ShaperConfig {
        headroom: spec.headroom,
        limit: spec.limit,
        codel: CodelConfig {
            target: spec.target,
            interval: spec.interval,
            law_interval: spec.interval,
            ..CodelConfig::default()
        },
        flow_components: spec.flow_components,
        drop: spec.drop.unwrap_or(match spec.flow_components {
            None => ShaperDrop::Codel,
            Some(_) => ShaperDrop::Tail,
        }),
        ..ShaperConfig::new(spec.capacity_bps.unwrap_or(reverse_bps))
    }
}

/// The loss model a scenario asks for.
fn loss(spec: &LossSpec) -> LossModel {
    match *spec {
        LossSpec::None => LossModel::None,
        LossSpec::Bernoulli { p } => LossModel::Bernoulli(Bernoulli::new(p)),
        LossSpec::GilbertElliott { p, r, loss_good, loss_bad } => {
            LossModel::GilbertElliott(GilbertElliott::new(p, r, loss_good, loss_bad))
        }
    }
}
