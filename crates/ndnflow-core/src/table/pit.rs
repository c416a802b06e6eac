//! Pending Interest Table (NFD daemon/table/pit): one entry per (name, CanBePrefix, MustBeFresh),
//! with in-records (downstream faces waiting for Data) and out-records (upstream faces the Interest
//! went to).
//!
//! Entries live in a slab addressed by `PitId` (index + generation, so a stale id from an expiry heap
//! never reaches a reused slot). Expiry is lazy: a min-heap of (expiry, id) is cleaned on demand, and
//! the owner asks `next_expiry` when to wake, so satisfied entries cost no timer event.
//! `next_expiry` answers from a cached lower bound between expiries (a removed entry can only make
//! the true answer later, and waking early is harmless), so asking after every packet is cheap.

use std::sync::Arc;

use hashbrown::HashTable;
use smallvec::SmallVec;

use super::pit_openers::Openers;
use super::FaceId;
use crate::grow::{room_in_table, Grow, OutOfMemory};
use crate::packet::{Interest, NackReason};
use crate::timers::Timers;
use crate::{Name, Time};

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct PitId {
    index: u32,
    generation: u32,
}

impl PitId {
    /// What to put in `Frame::pit_hint` of an Interest sent for this entry.
    pub fn hint(self) -> u32 {
        self.index
    }
}

#[derive(Clone, Debug)]
pub struct InRecord {
    pub face: FaceId,
    pub nonce: u32,
    /// When this downstream's first Interest for the entry arrived.
    pub created: Time,
    pub expiry: Time,
    /// The Interest as this downstream sent it (its nonce and lifetime).
    pub interest: Arc<Interest>,
    /// The Interest crossed a congested link from this downstream (it arrived with a congestion
    /// mark): the Data sent back to it is marked (PCON §3.1-3.2 PIT marking). Sticky for the
    /// entry's life.
    pub congested: bool,
    /// The `Frame::pit_hint` of this downstream's latest Interest, echoed on the Data sent back.
    pub pit_hint: u32,
    /// Self-learning (NFD's InRecordInfo): this downstream's latest Interest carried NonDiscovery.
    /// Set by the strategy that reads it; false otherwise.
    pub non_discovery: bool,
}

#[derive(Clone, Debug)]
pub struct OutRecord {
    pub face: FaceId,
    pub nonce: u32,
    pub last_sent: Time,
    pub expiry: Time,
    /// Set when the upstream answered with a Nack.
    pub nack: Option<NackReason>,
    /// PCON's PIT mark (§3.1, Algorithm 2 `pitMarked`): the Interest sent this way met a congested
    /// queue on its way out of this node, so every Data sent down for the entry is marked here.
    /// On the out-record, not the entry, to keep a PIT slot in two cache lines.
    pub congested: bool,
    /// Self-learning (NFD's OutRecordInfo): the Interest last sent this way carried NonDiscovery.
    /// Written by the outgoing Interest pipeline from the link header it sent.
    pub non_discovery: bool,
}

/// `repr(C)`: the name's address and the in-records first, so that a slot's first cache line holds
/// what a Data reads to find its downstreams (see `Slot`).
#[derive(Clone, Debug)]
#[repr(C)]
pub struct PitEntry {
    /// `Name::address` of `interest`'s name: a Data carrying the very name the Interest had (the
    /// usual case) matches without reading the Interest or the name. Always replaced together
    /// with `interest`: an address identifies a name only while that name is alive, and the name
    /// of a replaced Interest can be freed and its memory given to another name.
    name_address: usize,
    /// One record of each inline: an entry usually has one downstream and one upstream, and a
    /// smaller entry keeps the PIT, the bulk of a large simulation's memory, in fewer cache lines
    /// (the second record moves to the heap: aggregation and multicast pay for themselves).
    pub in_records: SmallVec<[InRecord; 1]>,
    /// The most recent Interest received for this entry (read it with `interest()`).
    interest: Arc<Interest>,
    pub out_records: SmallVec<[OutRecord; 1]>,
    /// When the entry expires: the latest in-record expiry.
    pub expiry: Time,
    /// Retransmission-suppression interval of NFD's RetxSuppressionExponential, kept per entry.
    pub suppression_interval: Time,
}

impl PitEntry {
    /// An entry for `interest`, with no records yet.
    pub fn new(interest: &Arc<Interest>) -> PitEntry {
        PitEntry {
            name_address: interest.name.address(),
            in_records: SmallVec::new(),
            interest: interest.clone(),
            out_records: SmallVec::new(),
            expiry: Time::ZERO,
            suppression_interval: Time::ZERO,
        }
    }

    pub fn name(&self) -> &Name {
        &self.interest.name
    }

    /// The most recent Interest received for this entry.
    pub fn interest(&self) -> &Arc<Interest> {
        &self.interest
    }

    /// Whether Data has satisfied this entry and it only lingers for the straggler time (NFD's
    /// straggler timer, see `ForwarderConfig::straggler`). Satisfying an entry clears its
    /// in-records, and every other live entry has at least one (an entry gets its first in-record
    /// in the pipeline that creates it, and goes when its last one is removed).
    pub fn is_satisfied(&self) -> bool {
        self.in_records.is_empty()
    }

    /// Whether some upstream has neither answered nor timed out.
    pub fn has_pending_out_records(&self, now: Time) -> bool {
        self.out_records.iter().any(|o| o.nack.is_none() && o.expiry > now)
    }

    pub fn in_record(&self, face: FaceId) -> Option<&InRecord> {
        self.in_records.iter().find(|r| r.face == face)
    }

    pub fn out_record(&self, face: FaceId) -> Option<&OutRecord> {
        self.out_records.iter().find(|r| r.face == face)
    }

    pub fn out_record_mut(&mut self, face: FaceId) -> Option<&mut OutRecord> {
        self.out_records.iter_mut().find(|r| r.face == face)
    }

    /// Inserts or refreshes the in-record of `face` (NFD `pit::Entry::insertOrUpdateInRecord`).
    /// `pit_hint`: the hint the Interest arrived with (`Frame::pit_hint`).
    pub fn insert_or_update_in_record(
        &mut self,
        now: Time,
        face: FaceId,
        interest: &Arc<Interest>,
        congested: bool,
        pit_hint: u32,
    ) {
        let expiry = now + interest.effective_lifetime();
        let nonce = interest.nonce.unwrap_or(0);
        match self.in_records.iter_mut().find(|r| r.face == face) {
            Some(r) => {
                r.nonce = nonce;
                r.expiry = expiry;
                r.interest = interest.clone();
                r.congested |= congested;
                r.pit_hint = pit_hint;
            }
            None => self.in_records.push(InRecord {
                face,
                nonce,
                created: now,
                expiry,
                interest: interest.clone(),
                congested,
                pit_hint,
                non_discovery: false,
            }),
        }
        // A new entry already holds this very Interest: reassigning would only write its count twice.
        if !Arc::ptr_eq(&self.interest, interest) {
            self.interest = interest.clone();
            self.name_address = interest.name.address();
        }
    }

    /// Inserts or refreshes the out-record of `face`.
    pub fn insert_or_update_out_record(&mut self, now: Time, face: FaceId, nonce: u32, lifetime: Time) {
        let expiry = now + lifetime;
        match self.out_records.iter_mut().find(|r| r.face == face) {
            Some(r) => {
                r.nonce = nonce;
                r.last_sent = now;
                r.expiry = expiry;
                r.nack = None;
                r.non_discovery = false;
            }
            None => self.out_records.push(OutRecord {
                face,
                nonce,
                last_sent: now,
                expiry,
                nack: None,
                congested: false,
                non_discovery: false,
            }),
        }
    }

    /// The latest expiry among in-records: when the entry itself expires.
    pub fn in_records_expiry(&self) -> Time {
        self.in_records.iter().map(|r| r.expiry).max().unwrap_or(Time::ZERO)
    }
}

/// 128 bytes on a 64-byte boundary: the first cache line holds the generation, the chain, the
/// name's address and the entry's in-records, all that a Data needs to find its downstreams; the
/// second the Interest, the out-records and the expiry.
#[repr(C, align(64))]
struct Slot {
    generation: u32,
    /// Next slot holding an entry of the same name (other selectors), or `NIL`.
    next: u32,
    entry: Option<PitEntry>,
}

// Two cache lines, as the layout above means them; a field added to the entry must not spill.
const _: () = assert!(std::mem::size_of::<Slot>() == 128);

const NIL: u32 = u32::MAX;

#[derive(Default)]
pub struct PendingInterestTable {
    slots: Vec<Slot>,
    free: Vec<u32>,
    /// Name -> first slot of the chain of entries with that name (one, unless selectors differ),
    /// stored as the slot alone: the table holds no names, so inserting clones nothing and removing
    /// a known slot compares integers instead of names. Four bytes a bucket (the hash is the slot's
    /// name's, read again only when the table grows) keep the index small enough to stay in cache:
    /// every Interest and every Data touches it.
    by_name: HashTable<u32>,
    can_be_prefix_entries: usize,
    expiry: Timers<PitId>,
    /// A time no later than the next live expiry (`Some(None)`: no timer armed); `None` = unknown.
    expiry_hint: Option<Option<Time>>,
    len: usize,
    /// Which face opened each entry, for a bounded PIT only (`track_openers`).
    openers: Option<Box<Openers>>,
}

fn same_selectors(a: &Interest, b: &Interest) -> bool {
    a.can_be_prefix == b.can_be_prefix && a.must_be_fresh == b.must_be_fresh
}

/// The entry with `interest`'s selectors in the chain starting at `head`.
fn find_in_chain(slots: &[Slot], head: u32, interest: &Interest) -> Option<PitId> {
    let mut i = head;
    while i != NIL {
        let slot = &slots[i as usize];
        if slot.entry.as_ref().is_some_and(|e| same_selectors(&e.interest, interest)) {
            return Some(PitId { index: i, generation: slot.generation });
        }
        i = slot.next;
    }
    None
}

impl PendingInterestTable {
    pub fn new() -> Self {
        Self::default()
    }

    pub fn len(&self) -> usize {
        self.len
    }

    /// Bytes the table holds for its entries, for a driver's memory watch: its slots, free list,
    /// index and expiry timers at their capacities (a table keeps what it grew to, up to twice its
    /// entries, and the allocator keeps it resident), and each live entry's Interest. The Interest
    /// may be shared with the consumer or another node's table: counted here, once per entry, it
    /// makes an upper bound. The names the Interests hold are `name_bytes`.
    pub fn reserved_bytes(&self) -> usize {
        let interest = std::mem::size_of::<Interest>() + 2 * std::mem::size_of::<usize>(); // Arc's counts
        self.slots.capacity() * std::mem::size_of::<Slot>()
            + self.free.capacity() * std::mem::size_of::<u32>()
            + self.by_name.allocation_size()
            + self.expiry.reserved_bytes()
            + self.len * interest
    }

    /// Bytes of the live entries' names (each counted once per entry, as `reserved_bytes` counts
    /// the Interests). It reads every slot: a driver asks only when the rest nears its limit.
    pub fn name_bytes(&self) -> usize {
        self.slots.iter().filter_map(|s| s.entry.as_ref()).map(|e| e.interest.name.heap_bytes()).sum()
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    pub fn get(&self, id: PitId) -> Option<&PitEntry> {
        let slot = self.slots.get(id.index as usize)?;
        if slot.generation != id.generation {
            return None;
        }
        slot.entry.as_ref()
    }

    pub fn get_mut(&mut self, id: PitId) -> Option<&mut PitEntry> {
        let slot = self.slots.get_mut(id.index as usize)?;
        if slot.generation != id.generation {
            return None;
        }
        slot.entry.as_mut()
    }

    /// The entry with this Interest's name and selectors.
    pub fn find(&self, interest: &Interest) -> Option<PitId> {
        let head = self.head(&interest.name)?;
        find_in_chain(&self.slots, head, interest)
    }

    /// Starts keeping which face opened each entry from now on (`note_opener`), so that a bounded
    /// PIT can be shared among faces (fw/forwarder_pit_share.rs). Entries already in the table count for no
    /// face.
    pub fn track_openers(&mut self) {
        self.openers.get_or_insert_with(Box::default);
    }

    /// The Interest that made the new entry `id` came from `face` (kept if `track_openers` was
    /// called, ignored otherwise).
    #[inline]
    pub fn note_opener(&mut self, id: PitId, face: FaceId) {
        if let Some(openers) = &mut self.openers {
            openers.opened(id.index, face);
        }
    }

    /// How many live entries `face` opened (0 when openers are not tracked).
    pub fn opened_by(&self, face: FaceId) -> usize {
        self.openers.as_ref().map_or(0, |o| o.count(face))
    }

    /// The face that opened the most live entries, and how many.
    pub fn largest_opener(&self) -> Option<(FaceId, usize)> {
        self.openers.as_ref().and_then(|o| o.largest())
    }

    /// The oldest live entry `face` opened.
    pub fn oldest_opened_by(&self, face: FaceId) -> Option<PitId> {
        let slot = self.openers.as_ref()?.oldest(face)?;
        Some(PitId { index: slot, generation: self.slots[slot as usize].generation })
    }

    /// The first slot of the chain for `name`.
    fn head(&self, name: &Name) -> Option<u32> {
        let hash = name.hash64();
        let slots = &self.slots;
        self.by_name.find(hash, |&i| slot_has_name(slots, i, name)).copied()
    }

    /// Room for one more entry, with its index bucket and expiry timer, before `find_or_insert`:
    /// an `OutOfMemory` instead of an abort when the allocator refuses (`crate::grow`). A free
    /// slot is reused, so only a table with none left grows its slots.
    pub fn room_for_one(&mut self) -> Result<(), OutOfMemory> {
        if self.free.is_empty() {
            self.slots.room_for_one("PIT")?;
        }
        let slots = &self.slots;
        room_in_table(&mut self.by_name, "PIT index", |&i| slot_name_hash(slots, i))?;
        self.expiry.room_for_one("PIT expiry timers")
    }

    /// Finds or creates the entry for `interest`; the flag says whether it is new.
    pub fn find_or_insert(&mut self, interest: &Arc<Interest>) -> (PitId, bool) {
        let hash = interest.name.hash64();
        let head = self.head(&interest.name);
        if let Some(id) = head.and_then(|h| find_in_chain(&self.slots, h, interest)) {
            return (id, false);
        }
        let index = match self.free.pop() {
            Some(i) => i,
            None => {
                self.slots.push(Slot { generation: 0, next: NIL, entry: None });
                (self.slots.len() - 1) as u32
            }
        };
        let slot = &mut self.slots[index as usize];
        slot.entry = Some(PitEntry::new(interest));
        slot.next = head.unwrap_or(NIL);
        let id = PitId { index, generation: slot.generation };
        // The new entry heads its name's chain.
        match head {
            Some(old) => self.set_head(hash, old, index),
            None => {
                let slots = &self.slots;
                self.by_name.insert_unique(hash, index, |&i| slot_name_hash(slots, i));
            }
        }
        if interest.can_be_prefix {
            self.can_be_prefix_entries += 1;
        }
        self.len += 1;
        (id, true)
    }

    /// Replaces the chain head `old` (of a name with this hash) by `new`.
    fn set_head(&mut self, hash: u64, old: u32, new: u32) {
        if let Some(head) = self.by_name.find_mut(hash, |&i| i == old) {
            *head = new;
        }
    }

    /// Sets when the entry expires and remembers it for `pop_expired`.
    #[inline]
    pub fn set_expiry(&mut self, id: PitId, at: Time) {
        if let Some(e) = self.get_mut(id) {
            e.expiry = at;
            self.expiry.push(at, id);
            if let Some(hint) = self.expiry_hint {
                if hint.is_none_or(|h| at < h) {
                    self.expiry_hint = Some(Some(at));
                }
            }
        }
    }

    /// Removes the entry and returns it.
    pub fn remove(&mut self, id: PitId) -> Option<PitEntry> {
        let slot = self.slots.get_mut(id.index as usize)?;
        if slot.generation != id.generation {
            return None;
        }
        let entry = slot.entry.take()?;
        self.detach(id, entry.interest.name.hash64(), entry.interest.can_be_prefix);
        Some(entry)
    }

    /// Removes the entry without handing it back: dropped where it lies, which spares moving it
    /// out on the Data path, where every satisfied entry goes. What the bookkeeping needs is read
    /// first, so the Interest is not cloned to outlive the entry (reference counts are writes).
    pub fn discard(&mut self, id: PitId) {
        let Some(slot) = self.slots.get_mut(id.index as usize) else { return };
        if slot.generation != id.generation {
            return;
        }
        let Some((hash, can_be_prefix)) =
            slot.entry.as_ref().map(|e| (e.interest.name.hash64(), e.interest.can_be_prefix))
        else {
            return;
        };
        slot.entry = None;
        self.detach(id, hash, can_be_prefix);
    }

    /// Bookkeeping after the entry `id` (whose name hashes to `hash`) left its slot.
    fn detach(&mut self, id: PitId, hash: u64, can_be_prefix: bool) {
        let slot = &mut self.slots[id.index as usize];
        slot.generation = slot.generation.wrapping_add(1);
        let next = std::mem::replace(&mut slot.next, NIL);
        self.free.push(id.index);
        if let Some(openers) = &mut self.openers {
            openers.closed(id.index);
        }
        // The common case: the entry heads its chain (it is alone under its name).
        match self.by_name.find_entry(hash, |&i| i == id.index) {
            Ok(e) if next == NIL => drop(e.remove()),
            Ok(mut e) => *e.get_mut() = next,
            Err(_) => {
                // Further down a chain: one of the chains under this hash holds it.
                let heads: SmallVec<[u32; 2]> = self.by_name.iter_hash(hash).copied().collect();
                for head in heads {
                    if self.unlink(head, id.index, next) {
                        break;
                    }
                }
            }
        }
        if can_be_prefix {
            self.can_be_prefix_entries -= 1;
        }
        self.len -= 1;
    }

    /// Removes `index` (not the head) from the chain starting at `head`; false if it is not there.
    fn unlink(&mut self, head: u32, index: u32, next: u32) -> bool {
        let mut i = head;
        while i != NIL {
            if self.slots[i as usize].next == index {
                self.slots[i as usize].next = next;
                return true;
            }
            i = self.slots[i as usize].next;
        }
        false
    }

    /// `find_for_data`, trying first the slot `hint` (a `PitId::hint` this table gave out, or
    /// anything else: it is checked). The slot answers alone when it holds an entry of this very
    /// name, no name has two entries (selectors) and no entry is CanBePrefix: then the entry is
    /// the only one a Data of this name satisfies, and the name's hash probe is spared.
    pub fn find_for_data_hinted(&self, name: &Name, hint: u32, out: &mut SmallVec<[PitId; 2]>) {
        // Every name has a one-entry chain when there are as many entries as chain heads.
        let simple = self.can_be_prefix_entries == 0 && self.len == self.by_name.len();
        if simple && (hint as usize) < self.slots.len() && slot_has_name(&self.slots, hint, name) {
            out.push(PitId { index: hint, generation: self.slots[hint as usize].generation });
            return;
        }
        self.find_for_data(name, out)
    }

    /// Entries a Data of this name satisfies: same name, or CanBePrefix entries on a shorter prefix.
    pub fn find_for_data(&self, name: &Name, out: &mut SmallVec<[PitId; 2]>) {
        let mut push_bucket = |key: &Name, only_prefix: bool| {
            let mut i = self.head(key).unwrap_or(NIL);
            while i != NIL {
                let slot = &self.slots[i as usize];
                if let Some(e) = &slot.entry {
                    if !only_prefix || e.interest.can_be_prefix {
                        out.push(PitId { index: i, generation: slot.generation });
                    }
                }
                i = slot.next;
            }
        };
        push_bucket(name, false);
        if self.can_be_prefix_entries > 0 {
            for len in (0..name.len()).rev() {
                push_bucket(&name.prefix(len), true);
            }
        }
    }

    /// When to look for expired entries next: never later than the next live expiry, possibly
    /// earlier (entries removed since the last `pop_expired` leave their old time as the answer).
    #[inline]
    pub fn next_expiry(&mut self) -> Option<Time> {
        if let Some(hint) = self.expiry_hint {
            return hint;
        }
        let slots = &self.slots;
        let next = self.expiry.peek(|at, id| live_in(slots, at, id)).map(|(at, _)| at);
        self.expiry_hint = Some(next);
        next
    }

    /// The next entry whose expiry is at or before `now` (not removed: the caller finalises it).
    pub fn pop_expired(&mut self, now: Time) -> Option<PitId> {
        self.expiry_hint = None;
        let slots = &self.slots;
        self.expiry.pop_due(now, |at, id| live_in(slots, at, id)).map(|(_, id)| id)
    }
}

/// The hash of slot `i`'s name (0 for an empty slot, which the name index never holds).
fn slot_name_hash(slots: &[Slot], i: u32) -> u64 {
    slots[i as usize].entry.as_ref().map_or(0, |e| e.interest.name.hash64())
}

/// Whether slot `i` holds an entry of this name.
fn slot_has_name(slots: &[Slot], i: u32, name: &Name) -> bool {
    let slot = &slots[i as usize];
    slot.entry.as_ref().is_some_and(|e| e.name_address == name.address() || e.interest.name == *name)
}

fn live_in(slots: &[Slot], at: Time, id: PitId) -> bool {
    slots
        .get(id.index as usize)
        .filter(|s| s.generation == id.generation)
        .and_then(|s| s.entry.as_ref())
        .is_some_and(|e| e.expiry == at)
}

#[cfg(test)]
#[path = "pit_tests.rs"]
mod tests;
