//! NFD's forwarding pipelines (daemon/fw/forwarder.cpp): incoming Interest, ContentStore hit/miss,
//! outgoing Interest, incoming Data, outgoing Data, incoming Nack, outgoing Nack, Interest finalize.
//!
//! Sans-IO: `handle(now, face, frame, out)` runs the pipelines for one received frame and appends the
//! frames to send to `out`; `poll_timeout` says when a PIT entry next expires or a strategy's timer
//! is next due, and `handle_timeout(now, out)` finalises the one and fires the other.
//!
//! The pipelines are generic, as NFD's are: policy is in the strategies (`strategy::Strategy`, whose
//! triggers decide forwarding and what a Data takes downstream) and in router extensions
//! (`ext::ForwarderExtension`: PTP's MPFP, route labels), which see Interests before the strategy
//! and write the link headers of what leaves. docs/architecture.md says why the two.
//!
//! Congestion marks (PCON §3.1-3.2, Algorithm 2): a Data or Nack keeps the mark it arrived with on
//! its way downstream, so every router and consumer below a congested link hears of it. A marked
//! Data also carries the number of forwarders it has crossed since the mark (LpHeader hop count,
//! absent at the first), PCON's f(distance). Congestion on the Interest path is PCON's PIT mark
//! (§3.1: "R1 will mark the PIT entry of that Interest"; Algorithm 2 line 7 `pitMarked`): the
//! node whose outgoing queue found the Interest's link congested is told so
//! (`note_congested_interest`, the driver's signal from that queue), marks the PIT entry, and
//! marks afresh every Data it sends down for it. The Data it receives is unmarked, so its own split
//! is left alone (Algorithm 2 line 2); only the routers below it lower theirs. An Interest that
//! arrives marked (a peer that marks instead of telling its forwarder) is noted in the in-record of
//! that downstream (`InterestMarks::Pit`), and the Data sent back there is marked afresh.

use std::sync::Arc;

use smallvec::SmallVec;

use super::config::{cs_eviction_seed, cs_seed, make_extensions, make_strategy, sim_cache_seed, strategy_seed};
pub use super::config::{ForwarderConfig, InterestMarks, StrategyName};
use super::ext::ForwarderExtension;
pub use super::ext::{Dpccp, Mpfp, MpfpCounters};
use super::face::{FaceCounters, FaceInfo, FaceKind};
use super::log::{note, Detail, ForwardingLog, FwEvent, FwRecord};
use super::strategy::{InterestDecision, Strategy, StrategyActions, StrategyCtx};
use crate::grow::OutOfMemory;
use crate::link::Limit;
use crate::packet::{Data, DataOrigin, Frame, Interest, LpHeader, NackReason, NetPacket};
use crate::table::{ContentStore, DeadNonceList, FaceId, Fib, PendingInterestTable, PitEntry, PitId, SimulatedCache};
use crate::{Name, Time};

/// Packet counters of one forwarder (NFD's ForwarderCounters plus CS and PIT outcomes).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ForwarderCounters {
    pub in_interests: u64,
    pub out_interests: u64,
    pub in_data: u64,
    pub out_data: u64,
    pub in_nacks: u64,
    pub out_nacks: u64,
    pub cs_hits: u64,
    pub cs_misses: u64,
    /// Interests that joined a pending entry without being forwarded again.
    pub aggregated: u64,
    /// Interests dropped as duplicates or loops (same nonce seen before).
    pub duplicates: u64,
    pub unsolicited_data: u64,
    /// PIT entries that expired unsatisfied.
    pub expired: u64,
    /// Interests rejected because no next hop was eligible.
    pub no_route: u64,
    /// Interests dropped because their HopLimit was exhausted.
    pub hop_limit_exceeded: u64,
    /// Of `hop_limit_exceeded`, those dropped on arrival (the rest could not leave).
    pub hop_limit_on_arrival: u64,
    /// Interests past the Content Store that the strategy (or an extension) forwarded.
    pub forwarded: u64,
    /// Interests past the Content Store that the strategy rejected with a Nack (`no_route` is
    /// one reason).
    pub rejected: u64,
}

pub struct Forwarder {
    faces: Vec<FaceInfo>,
    pub fib: Fib,
    pub pit: PendingInterestTable,
    pub cs: ContentStore,
    /// DPCCP §VII-A's simulated cache, consulted after the Content Store.
    sim_cache: Option<SimulatedCache>,
    pub dnl: DeadNonceList,
    strategies: Vec<Box<dyn Strategy>>,
    /// (prefix, index into `strategies`), longest prefix first; the last one is "/".
    choices: Vec<(Name, usize)>,
    pub counters: ForwarderCounters,
    /// Per face, indexed by `FaceId`: always kept (an increment per packet), read by a driver.
    face_counters: Vec<FaceCounters>,
    /// Source of nonces for Interests that arrive without one (deterministic per forwarder).
    nonce_state: u64,
    interest_marks: InterestMarks,
    straggler: Time,
    /// Router extensions, in hook order (route labels, MPFP, DPCCP, MIRCC, SMIC, as the config
    /// asks; then any `add_extension` added).
    extensions: Vec<Box<dyn ForwarderExtension>>,
    /// Scratch for the actions of strategy timers, kept to spare an allocation per wake-up.
    actions: StrategyActions,
    /// The forwarding log (`fw/log.rs`), off (`None`) unless the driver installs one.
    log: Option<Box<ForwardingLog>>,
    /// The first growth of the PIT the allocator refused (`crate::grow`); the Interest that
    /// needed it was dropped, and the driver should end the run.
    out_of_memory: Option<OutOfMemory>,
    /// The PIT's bound, shared among faces (`set_pit_capacity`, forwarder_pit_share.rs); none in
    /// the simulator, as in NFD.
    pit_capacity: Option<usize>,
    /// The seed it was made with: strategies chosen later draw from streams derived from it.
    seed: u64,
}

/// Frames to send, as (face, frame).
pub type Outbox = Vec<(FaceId, Frame)>;

/// Where a Data goes: (downstream, its Interest came over a congested link, its PIT hint).
pub(super) type Downstreams = SmallVec<[(FaceId, bool, u32); 4]>;

impl Forwarder {
    pub fn new(config: ForwarderConfig, nonce_seed: u64) -> Forwarder {
        let extensions = make_extensions(&config, nonce_seed);
        let sim_cache = config.simulated_cache.clone().map(|c| SimulatedCache::new(c, sim_cache_seed(nonce_seed)));
        let mut strategies = vec![make_strategy(config.default_strategy, strategy_seed(nonce_seed, 0))];
        let mut choices = vec![(Name::root(), 0)];
        for (prefix, name) in config.strategy_choices {
            strategies.push(make_strategy(name, strategy_seed(nonce_seed, strategies.len())));
            choices.push((prefix, strategies.len() - 1));
        }
        choices.sort_by_key(|(p, _)| std::cmp::Reverse(p.len()));
        Forwarder {
            faces: Vec::new(),
            fib: Fib::new(),
            pit: PendingInterestTable::new(),
            cs: ContentStore::new(config.cs_policy, config.cs_capacity)
                .with_byte_limit(config.cs_bytes)
                .with_admission(config.cs_admit, cs_seed(nonce_seed))
                .with_eviction_seed(cs_eviction_seed(nonce_seed)),
            sim_cache,
            dnl: DeadNonceList::default(),
            strategies,
            choices,
            counters: ForwarderCounters::default(),
            face_counters: Vec::new(),
            nonce_state: nonce_seed | 1,
            seed: nonce_seed,
            interest_marks: config.interest_marks,
            straggler: config.straggler,
            extensions,
            actions: StrategyActions::new(),
            log: None,
            out_of_memory: None,
            pit_capacity: None,
        }
    }

    pub fn add_face(&mut self, kind: FaceKind) -> FaceId {
        self.faces.push(FaceInfo::new(kind));
        self.face_counters.push(FaceCounters::default());
        FaceId((self.faces.len() - 1) as u32)
    }

    /// Tells a link face the bit rate at which Data arrive over it and the capacity of this node's
    /// output queue on it (static; for strategies that size a face's pipeline, FPF).
    pub fn set_face_link(&mut self, face: FaceId, bandwidth_bps: u64, queue_limit: Limit) {
        if let Some(f) = self.faces.get_mut(face.index()) {
            f.bandwidth_bps = Some(bandwidth_bps);
            f.queue_limit = Some(queue_limit);
        }
    }

    pub fn set_face_up(&mut self, face: FaceId, up: bool) {
        if let Some(f) = self.faces.get_mut(face.index()) {
            f.up = up;
        }
    }

    pub fn faces(&self) -> &[FaceInfo] {
        &self.faces
    }

    /// Each face's counters, indexed by `FaceId`.
    pub fn face_counters(&self) -> &[FaceCounters] {
        &self.face_counters
    }

    /// PTP's router state (its counters and FAB), on a forwarder with `ptp` set.
    pub fn mpfp(&self) -> Option<&Mpfp> {
        self.extension::<Mpfp>()
    }

    /// DPCCP's router state (its counters and labels), on a forwarder with `dpccp` set.
    pub fn dpccp(&self) -> Option<&Dpccp> {
        self.extension::<Dpccp>()
    }

    pub fn simulated_cache(&self) -> Option<&SimulatedCache> {
        self.sim_cache.as_ref()
    }

    /// The first extension of type `T`, to read its state back.
    pub fn extension<T: ForwarderExtension>(&self) -> Option<&T> {
        self.extensions.iter().find_map(|e| e.as_any().downcast_ref::<T>())
    }

    /// Adds a router extension after those the config asked for (lets other crates plug in their
    /// own); its hooks run after theirs.
    pub fn add_extension(&mut self, extension: Box<dyn ForwarderExtension>) {
        self.extensions.push(extension);
    }

    /// Replaces a strategy instance (lets other crates plug in strategies of their own).
    pub fn set_strategy(&mut self, prefix: &Name, strategy: Box<dyn Strategy>) {
        match self.choices.iter().find(|(p, _)| p == prefix) {
            Some(&(_, i)) => self.strategies[i] = strategy,
            None => {
                self.strategies.push(strategy);
                self.choices.push((prefix.clone(), self.strategies.len() - 1));
                self.choices.sort_by_key(|(p, _)| std::cmp::Reverse(p.len()));
            }
        }
    }

    /// Makes a built-in strategy for `prefix` while the forwarder runs (NFD's strategy-choice
    /// set): its instance draws from the next seed stream, as a scenario's later choice would.
    pub fn choose_strategy(&mut self, prefix: &Name, name: StrategyName) {
        let seed = strategy_seed(self.seed, self.strategies.len());
        self.set_strategy(prefix, make_strategy(name, seed));
    }

    /// Removes the choice for `prefix` (NFD's strategy-choice unset): its names take the choice of
    /// the longest shorter prefix again. "/" always keeps one; whether there was a choice to remove.
    pub fn unset_strategy(&mut self, prefix: &Name) -> bool {
        let before = self.choices.len();
        self.choices.retain(|(p, _)| p.is_empty() || p != prefix);
        self.choices.len() != before
    }

    /// Each prefix with a strategy choice, and that strategy's name, longest prefix first.
    pub fn strategy_choices(&self) -> impl Iterator<Item = (&Name, &'static str)> {
        self.choices.iter().map(|(p, i)| (p, self.strategies[*i].name()))
    }

    fn strategy_index(&self, name: &Name) -> usize {
        if self.choices.len() == 1 {
            return 0; // only "/": the common case needs no comparison
        }
        self.choices.iter().find(|(p, _)| p.is_prefix_of(name)).map(|&(_, i)| i).unwrap_or(0)
    }

    fn next_nonce(&mut self) -> u32 {
        // xorshift64*: deterministic, no shared state.
        let mut x = self.nonce_state;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.nonce_state = x;
        (x.wrapping_mul(0x2545_F491_4F6C_DD1D) >> 32) as u32
    }

    /// Runs the pipelines for one frame received on `face`.
    /// The first growth of a table the allocator refused, if any (`crate::grow`): the run
    /// should end, as what follows it would miss the Interests dropped for want of room.
    pub fn out_of_memory(&self) -> Option<OutOfMemory> {
        self.out_of_memory
    }

    pub fn handle(&mut self, now: Time, face: FaceId, mut frame: Frame, out: &mut Outbox) {
        if let Some(c) = self.face_counters.get_mut(face.index()) {
            c.count_in(&frame);
        }
        let (hint, origin) = (frame.pit_hint(), frame.origin());
        match frame.packet {
            NetPacket::Interest(i) => self.on_incoming_interest(now, face, i, &mut frame.lp, hint, out),
            NetPacket::Data(d) => self.on_incoming_data(now, face, d, &frame.lp, (frame.net_size, hint, origin), out),
            NetPacket::Nack(n) => self.on_incoming_nack(now, face, n, &frame.lp, out),
        }
    }

    /// PCON's PIT marking (§3.1, Algorithm 2): the queue of `face` found its link congested when
    /// it sent `interest`, one this node forwarded. Its PIT entry is marked, and the Data sent down
    /// for it will be. Ignored with `InterestMarks::Ignore`, or when the entry is gone (another
    /// upstream answered) or was not sent on `face`.
    pub fn note_congested_interest(&mut self, now: Time, face: FaceId, interest: &Interest) {
        if self.interest_marks != InterestMarks::Pit {
            return;
        }
        let Some(id) = self.pit.find(interest) else { return };
        let Some(entry) = self.pit.get_mut(id) else { return };
        if !entry.is_satisfied() {
            if let Some(o) = entry.out_record_mut(face) {
                o.congested = true;
                note(&mut self.log, || {
                    FwRecord::new(now, FwEvent::PitMarked, &interest.name).face_out(face).nonce(Some(o.nonce))
                });
            }
        }
    }

    /// Interest finalize pipeline, for an entry that goes unsatisfied: its nonces go into the Dead
    /// Nonce List so that late loops are caught.
    fn on_interest_finalize(&mut self, now: Time, entry: &PitEntry, cause: &'static str) {
        note(&mut self.log, || {
            FwRecord::new(now, FwEvent::InterestFinalize, entry.name())
                .detail(Detail::Finalize { satisfied: false, cause })
        });
        for o in &entry.out_records {
            self.dnl.add(now, entry.name(), o.nonce);
        }
    }

    fn on_incoming_interest(
        &mut self,
        now: Time,
        in_face: FaceId,
        mut interest: Arc<Interest>,
        lp: &mut LpHeader,
        pit_hint: u32,
        out: &mut Outbox,
    ) {
        self.counters.in_interests += 1;
        let mark = lp.congestion_mark;
        let from_link = self.faces.get(in_face.index()).map(|f| f.kind) == Some(FaceKind::Link);
        if interest.nonce.is_none() {
            let nonce = self.next_nonce();
            Arc::make_mut(&mut interest).nonce = Some(nonce);
        }
        note(&mut self.log, || {
            FwRecord::new(now, FwEvent::IncomingInterest, &interest.name).face_in(in_face).nonce(interest.nonce).lp(lp)
        });
        if from_link {
            if let Some(h) = interest.hop_limit {
                if h == 0 {
                    self.counters.hop_limit_exceeded += 1;
                    self.counters.hop_limit_on_arrival += 1;
                    note(&mut self.log, || {
                        FwRecord::new(now, FwEvent::HopLimitExceeded, &interest.name)
                            .face_in(in_face)
                            .nonce(interest.nonce)
                    });
                    return;
                }
                Arc::make_mut(&mut interest).hop_limit = Some(h - 1);
            }
        }
        // The mark says the link from this downstream is congested (PCON §3.1).
        let congested = mark != 0 && from_link && self.interest_marks == InterestMarks::Pit;
        let nonce = interest.nonce.unwrap_or(0);
        if self.dnl.has(now, &interest.name, nonce) {
            return self.on_interest_loop(now, in_face, interest, out);
        }
        if let Err(e) = self.pit.room_for_one() {
            self.out_of_memory.get_or_insert(e);
            return;
        }
        let (mut id, is_new) = self.pit.find_or_insert(&interest);
        if !is_new && self.is_duplicate_nonce(id, in_face, nonce) {
            return self.on_interest_loop(now, in_face, interest, out);
        }
        if !is_new && self.pit.get(id).is_some_and(PitEntry::is_satisfied) {
            // A new request meets an entry that only lingers: it starts a fresh one. NFD 0.4 reuses
            // the entry with the out-records it has left, which its strategies then take for a
            // retransmission of the request already answered.
            self.pit.discard(id);
            id = self.pit.find_or_insert(&interest).0;
        }
        let flags = self.interest_flags(now, in_face, lp);
        let has_in_records = self.pit.get(id).is_some_and(|e| !e.in_records.is_empty());
        let skips_cs = self.extensions.iter().any(|e| e.skips_content_store(lp));
        if !has_in_records && !skips_cs {
            if let Some(data) = self.content_store_lookup(now, &interest) {
                return self.on_content_store_hit(now, in_face, id, data, (congested, pit_hint), out);
            }
        }
        self.on_content_store_miss(now, in_face, id, &interest, (congested, pit_hint, lp, flags), out);
    }

    /// NFD's ContentStore hit pipeline: the strategy hears of it, the entry goes, and the Data
    /// goes back to the downstream, marked if its Interest came over a congested link (PCON §3.1).
    fn on_content_store_hit(
        &mut self,
        now: Time,
        in_face: FaceId,
        id: PitId,
        data: Arc<Data>,
        (congested, pit_hint): (bool, u32),
        out: &mut Outbox,
    ) {
        self.counters.cs_hits += 1;
        if let Some(c) = self.face_counters.get_mut(in_face.index()) {
            c.satisfied += 1;
        }
        note(&mut self.log, || FwRecord::new(now, FwEvent::ContentStoreHit, &data.name).face_in(in_face));
        if let Some(entry) = self.pit.remove(id) {
            let si = self.strategy_index(entry.name());
            let ctx = StrategyCtx { now, faces: &self.faces, fib: &self.fib };
            self.strategies[si].after_content_store_hit(&ctx, &entry, in_face, &data);
        }
        self.counters.out_data += 1;
        let mut frame = Frame::data(data);
        frame.lp.congestion_mark = congested as u64;
        let ctx = StrategyCtx { now, faces: &self.faces, fib: &self.fib };
        for ext in &mut self.extensions {
            ext.content_store_hit(&ctx, in_face, &mut frame.lp);
        }
        frame.set_pit_hint(pit_hint);
        // Hops count from here: the store is where this Data starts its way to the consumer.
        frame.set_origin(DataOrigin { hops: 0, from_cache: true });
        note(&mut self.log, || {
            FwRecord::new(now, FwEvent::OutgoingData, frame.packet.name()).face_out(in_face).lp(&frame.lp)
        });
        note(&mut self.log, || {
            FwRecord::new(now, FwEvent::InterestFinalize, frame.packet.name())
                .detail(Detail::Finalize { satisfied: true, cause: "content store" })
        });
        self.send(in_face, frame, out);
    }

    /// A nonce already in this entry from another downstream, or sent upstream, means a loop.
    fn is_duplicate_nonce(&self, id: PitId, in_face: FaceId, nonce: u32) -> bool {
        let Some(e) = self.pit.get(id) else { return false };
        e.in_records.iter().any(|r| r.nonce == nonce && r.face != in_face)
            || e.out_records.iter().any(|r| r.nonce == nonce)
    }

    /// NFD answers a looping Interest on a point-to-point face with Nack(Duplicate).
    fn on_interest_loop(&mut self, now: Time, in_face: FaceId, interest: Arc<Interest>, out: &mut Outbox) {
        self.counters.duplicates += 1;
        note(&mut self.log, || {
            FwRecord::new(now, FwEvent::InterestLoop, &interest.name).face_in(in_face).nonce(interest.nonce)
        });
        self.on_outgoing_nack(now, in_face, interest, NackReason::Duplicate, 0, out);
    }

    fn on_content_store_miss(
        &mut self,
        now: Time,
        in_face: FaceId,
        id: PitId,
        interest: &Arc<Interest>,
        (congested, pit_hint, lp, flags): (bool, u32, &mut LpHeader, u64),
        out: &mut Outbox,
    ) {
        note(&mut self.log, || {
            FwRecord::new(now, FwEvent::ContentStoreMiss, &interest.name).face_in(in_face).nonce(interest.nonce)
        });
        let Some(entry) = self.pit.get_mut(id) else { return };
        entry.insert_or_update_in_record(now, in_face, interest, congested, pit_hint);
        let expiry = entry.in_records_expiry();
        self.pit.set_expiry(id, expiry);
        if let Some(mut takeover) = self.extension_forwards(now, in_face, id, lp) {
            takeover.lp.flags |= flags;
            note(&mut self.log, || {
                FwRecord::new(now, FwEvent::ExtensionForwards, &interest.name).face_in(in_face).nonce(interest.nonce)
            });
            return self.carry_out(now, id, in_face, takeover.decision, takeover.lp, out);
        }
        let si = self.strategy_index(&interest.name);
        let fib = self.fib.longest_prefix_match(&interest.name).map(|(_, e)| e);
        let ctx = StrategyCtx { now, faces: &self.faces, fib: &self.fib };
        let Some(entry) = self.pit.get_mut(id) else { return };
        let mut lp_out = LpHeader { flags, ..Default::default() };
        let decision = self.strategies[si].after_receive_interest_lp(&ctx, in_face, (&*lp, &mut lp_out), entry, fib);
        if self.log.is_some() {
            self.note_decision(now, si, in_face, interest, &decision);
        }
        self.carry_out(now, id, in_face, decision, lp_out, out);
    }

    /// Carries out a decision on the Interest from `in_face`; forwarded Interests carry `lp`.
    fn carry_out(
        &mut self,
        now: Time,
        id: PitId,
        in_face: FaceId,
        decision: InterestDecision,
        lp: LpHeader,
        out: &mut Outbox,
    ) {
        match decision {
            InterestDecision::Forward(faces) => {
                self.counters.forwarded += 1;
                // The last face takes `lp` itself: a header with rare fields (PTP's tags) keeps
                // them in a box, which a clone would allocate again and the original then free.
                if let Some((&last, rest)) = faces.split_last() {
                    for &face in rest {
                        self.on_outgoing_interest(now, id, face, lp.clone(), out);
                    }
                    self.on_outgoing_interest(now, id, last, lp, out);
                }
            }
            InterestDecision::Reject(reason) => {
                self.counters.rejected += 1;
                if reason == NackReason::NoRoute {
                    self.counters.no_route += 1;
                }
                self.reject_downstream(now, id, in_face, reason, out);
            }
            InterestDecision::Suppress => self.counters.aggregated += 1,
            InterestDecision::Probe { face, probe } => {
                self.counters.forwarded += 1;
                self.on_outgoing_interest(now, id, face, lp.clone(), out);
                self.send_upstream(now, id, probe, lp, true, out);
            }
        }
    }

    /// Nacks one downstream and drops its in-record; the entry goes when no downstream is left.
    fn reject_downstream(&mut self, now: Time, id: PitId, face: FaceId, reason: NackReason, out: &mut Outbox) {
        let Some(entry) = self.pit.get_mut(id) else { return };
        let Some(pos) = entry.in_records.iter().position(|r| r.face == face) else { return };
        let record = entry.in_records.remove(pos);
        if entry.in_records.is_empty() {
            if let Some(entry) = self.pit.remove(id) {
                self.on_interest_finalize(now, &entry, "rejected");
            }
        } else {
            let expiry = entry.in_records_expiry();
            self.pit.set_expiry(id, expiry);
        }
        self.on_outgoing_nack(now, face, record.interest, reason, 0, out);
    }

    /// Outgoing Interest pipeline: record the upstream and send, with a link header of the
    /// forwarder's own (an extension's: PTP's tags; none from a strategy), which the extensions'
    /// `outgoing_interest` hooks may add to. Never with the congestion mark it arrived with: only
    /// the next link's queue may mark it.
    fn on_outgoing_interest(&mut self, now: Time, id: PitId, face: FaceId, lp: LpHeader, out: &mut Outbox) {
        self.send_upstream(now, id, face, lp, false, out);
    }

    /// The outgoing Interest pipeline, with the entry's Interest under a nonce of its own when
    /// `fresh_nonce` (a strategy's probe; the out-record keeps that nonce, as NFD's does).
    #[inline]
    fn send_upstream(
        &mut self,
        now: Time,
        id: PitId,
        face: FaceId,
        mut lp: LpHeader,
        fresh_nonce: bool,
        out: &mut Outbox,
    ) {
        let nonce = if fresh_nonce { Some(self.next_nonce()) } else { None };
        let to_link = self.faces.get(face.index()).map(|f| f.kind) == Some(FaceKind::Link);
        let Some(entry) = self.pit.get_mut(id) else { return };
        // NFD's outgoing Interest pipeline: an exhausted HopLimit never leaves the node.
        if to_link && entry.interest().hop_limit == Some(0) {
            self.counters.hop_limit_exceeded += 1;
            note(&mut self.log, || FwRecord::new(now, FwEvent::HopLimitExceeded, entry.name()).face_out(face));
            return;
        }
        let mut interest = entry.interest().clone();
        if nonce.is_some() {
            Arc::make_mut(&mut interest).nonce = nonce;
        }
        let lifetime = interest.effective_lifetime();
        entry.insert_or_update_out_record(now, face, interest.nonce.unwrap_or(0), lifetime);
        if lp.non_discovery() {
            if let Some(o) = entry.out_record_mut(face) {
                o.non_discovery = true;
            }
        }
        self.counters.out_interests += 1;
        for ext in &mut self.extensions {
            ext.outgoing_interest(face, &mut lp);
        }
        note(&mut self.log, || {
            FwRecord::new(now, FwEvent::OutgoingInterest, &interest.name).face_out(face).nonce(interest.nonce).lp(&lp)
        });
        let mut frame = Frame::interest(interest);
        frame.lp = lp;
        frame.set_pit_hint(id.hint());
        self.send(face, frame, out);
    }
}

#[path = "forwarder_timers.rs"]
mod timers;

#[path = "forwarder_data.rs"]
mod data;
#[path = "forwarder_log.rs"]
mod log_side;

#[path = "forwarder_lookup.rs"]
mod lookup;
#[path = "forwarder_nack.rs"]
mod nack;
#[path = "forwarder_pit_share.rs"]
mod pit_share;
pub use pit_share::PitRoom;

#[cfg(test)]
#[path = "forwarder_tests.rs"]
mod tests;
#[cfg(test)]
#[path = "forwarder_timer_tests.rs"]
mod timer_tests;
