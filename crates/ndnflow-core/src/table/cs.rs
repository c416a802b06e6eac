//! Content Store (NFD daemon/table/cs) with a capacity in packets, in bytes, or both, and LRU,
//! FIFO, LFU or random replacement.
//!
//! NFD and ndnSIM size a store in packets (`cs_max_packets`, `MaxSize`). SMIC §5 (Table 1 and the
//! paragraph after it) sizes it in bytes: "content store of 100 MB; thus it can cache maximum
//! 100,830 chunks. Note that a unit of a caching operation is a chunk, which is the payload size."
//! So a Data weighs its Content's length, not its encoded size. A byte limit evicts by the policy
//! until the new Data fits; a Data heavier than the whole limit is not stored. With both limits,
//! whichever binds first evicts.
//!
//! An admission probability lets a store keep only a share of the Data it sees, each one drawn
//! from the store's own seeded stream: PTP §6-E caches "half of the 2000 Data packets (randomly
//! selected)". NFD's store admits every Data its policy allows; 1 (the default) is that.
//!
//! Entries live in a slab threaded by a doubly linked list (head = next victim), indexed by the exact
//! Data name: the index holds slot numbers under the name's hash, and each slot keeps that hash and
//! the payload's weight, so that an eviction reads neither the victim's Data nor its name (both cold
//! by then: the victim is the entry touched longest ago; docs/performance.md, "Where the time goes
//! in the suite", measured the eviction at a quarter of a run with full stores).
//!
//! LFU and random are ndnSIM's older store policies (`ns3::ndn::cs::Lfu`, `::Random`;
//! utils/trie/lfu-policy.hpp and random-policy.hpp). LFU as ndnSIM's: an entry enters with count 0,
//! each hit (and each refresh by a new copy) adds 1, the victim has the lowest count and, among
//! equal counts, reached it first; LFU keeps one recency list per count, so each step is a list
//! operation and a lookup in an ordered map of counts. Random evicts a stored entry drawn uniformly
//! from the store's own stream (random replacement as caching studies define it); ndnSIM's instead
//! gives each entry a random key when it enters and evicts the smallest, refusing a newcomer whose
//! key is below them all, so that old survivors outlive newcomers: docs/protocols/forwarder.md has
//! why we did not follow it.
//!
//! Lookup is by exact name: an Interest matches a cached Data of the same name, subject to
//! MustBeFresh. CanBePrefix Interests also match only exactly-named Data here; the papers' consumers
//! name every segment exactly, and an ordered index would cost every insert on the hot path.

use std::collections::BTreeMap;
use std::sync::Arc;

use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

use hashbrown::HashTable;

use super::slot_list::{Linked, Links, SlotList, NIL};
use crate::grow::{room_in_table, Grow, OutOfMemory};
use crate::packet::{Data, Interest};
use crate::{Name, Time};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CsPolicy {
    /// Evict the least recently used: a hit moves the entry to the back.
    Lru,
    /// Evict the oldest insertion; hits do not reorder.
    Fifo,
    /// Evict the least frequently used: the fewest hits since it entered, the first to reach
    /// that count among equals (ndnSIM `Lfu`).
    Lfu,
    /// Evict a stored entry drawn uniformly at random.
    Random,
}

impl CsPolicy {
    /// The scenario's names (`cs = { policy = ... }`; "off" turns the store off).
    pub const NAMES: [&'static str; 4] = ["lru", "fifo", "lfu", "random"];

    pub fn parse(name: &str) -> Option<CsPolicy> {
        match name {
            "lru" => Some(CsPolicy::Lru),
            "fifo" => Some(CsPolicy::Fifo),
            "lfu" => Some(CsPolicy::Lfu),
            "random" => Some(CsPolicy::Random),
            _ => None,
        }
    }
}

/// What a slot keeps of its Data. A simulated producer's Data (`Data::simulated`: a name, a
/// payload of zeros, nothing else) is kept as its name and payload length and made again on a hit:
/// 24 bytes in the slot instead of the packet's 208-byte allocation, which the store would
/// otherwise hold alone once the Data has gone downstream (issue 23, item 4: at most 100 bytes per
/// cached Data beyond its name). Any other Data (MetaInfo, a real payload or signature, as a
/// real network's) is kept whole.
#[derive(Debug)]
enum Stored {
    Simulated { name: Name, payload: u32 },
    Packet(Arc<Data>),
}

impl Stored {
    fn new(data: Arc<Data>) -> Stored {
        match data.simulated_payload() {
            Some(payload) => Stored::Simulated { name: data.name.clone(), payload },
            None => Stored::Packet(data),
        }
    }

    fn name(&self) -> &Name {
        match self {
            Stored::Simulated { name, .. } => name,
            Stored::Packet(data) => &data.name,
        }
    }

    /// The Data, equal field for field to the one stored.
    fn data(&self) -> Arc<Data> {
        match self {
            Stored::Simulated { name, payload } => Arc::new(Data::simulated(name.clone(), *payload)),
            Stored::Packet(data) => Arc::clone(data),
        }
    }
}

#[derive(Debug)]
struct Entry {
    data: Stored,
    /// Instant after which the Data no longer satisfies MustBeFresh Interests.
    fresh_until: Time,
    /// The name's hash (the index's key) and `weight(&data)`.
    hash: u64,
    weight: u32,
    /// LFU: the entry's count; random: its place in `live`. (Beside the 32-bit weight it costs
    /// no room.)
    aux: u32,
    links: Links,
}

impl Linked for Entry {
    fn links(&mut self) -> &mut Links {
        &mut self.links
    }
}

/// What a stored Data counts against a byte limit: its payload (SMIC §5: "a unit of a caching
/// operation is a chunk, which is the payload size"), not its name, signature or link header.
/// Saturates at 4 GiB, past any byte limit a scenario can give a store that also caches.
fn weight(data: &Data) -> usize {
    data.content.len().min(u32::MAX as usize)
}

#[derive(Debug)]
pub struct ContentStore {
    policy: CsPolicy,
    capacity: usize,
    /// Most payload bytes the stored Data may hold together; `usize::MAX`: no byte limit.
    byte_limit: usize,
    /// Payload bytes of the stored Data together.
    bytes: usize,
    /// Slot numbers, under their names' hashes.
    index: HashTable<u32>,
    slots: Vec<Entry>,
    free: Vec<u32>,
    /// LRU and FIFO: head is the next victim.
    order: SlotList,
    /// LFU: per count, its entries in the order they reached it.
    counts: BTreeMap<u32, SlotList>,
    /// Random: the stored slots, densely, and the stream that draws a victim among them.
    live: Vec<u32>,
    evict_rng: ChaCha8Rng,
    /// Probability that a Data of a name not yet stored is admitted, with its stream; `None`:
    /// every Data is (no draw at all, so a store without admission takes nothing from a stream).
    admission: Option<(f64, ChaCha8Rng)>,
    /// NFD's `enableAdmit` and `enableServe` (cs/config): off, no Data is stored, or no Interest
    /// is answered from the store. Both on unless a daemon's management turns one off.
    admit_enabled: bool,
    serve_enabled: bool,
}

impl ContentStore {
    /// A store holding at most `capacity` Data packets; 0 disables it.
    pub fn new(policy: CsPolicy, capacity: usize) -> ContentStore {
        ContentStore {
            policy,
            capacity,
            byte_limit: usize::MAX,
            bytes: 0,
            index: HashTable::new(),
            slots: Vec::new(),
            free: Vec::new(),
            order: SlotList::EMPTY,
            counts: BTreeMap::new(),
            live: Vec::new(),
            evict_rng: ChaCha8Rng::seed_from_u64(0),
            admission: None,
            admit_enabled: true,
            serve_enabled: true,
        }
    }

    /// Seeds the stream random replacement draws its victims from (other policies draw nothing).
    pub fn with_eviction_seed(mut self, seed: u64) -> ContentStore {
        self.evict_rng = ChaCha8Rng::seed_from_u64(seed);
        self
    }

    /// Admit each Data of a new name with probability `admit` (in (0, 1]), drawn from a ChaCha8
    /// stream seeded with `seed`; 1 admits all, as `new` does. A stored name is always refreshed.
    pub fn with_admission(mut self, admit: f64, seed: u64) -> ContentStore {
        self.admission = (admit < 1.0).then(|| (admit, ChaCha8Rng::seed_from_u64(seed)));
        self
    }

    /// Also limit the payload bytes stored together to `limit` (`None`: no byte limit, as `new`
    /// has); `Some(0)` disables the store. An unlimited packet count with a byte limit is
    /// `new(policy, usize::MAX)`.
    pub fn with_byte_limit(mut self, limit: Option<usize>) -> ContentStore {
        self.byte_limit = limit.unwrap_or(usize::MAX);
        // Said by the capacity, so that the per-packet test stays one comparison.
        if self.byte_limit == 0 {
            self.capacity = 0;
        }
        self
    }

    pub fn is_enabled(&self) -> bool {
        self.capacity > 0
    }
    pub fn len(&self) -> usize {
        self.index.len()
    }
    pub fn is_empty(&self) -> bool {
        self.index.is_empty()
    }
    pub fn capacity(&self) -> usize {
        self.capacity
    }
    /// The byte limit, `None` when there is none.
    pub fn byte_limit(&self) -> Option<usize> {
        (self.byte_limit != usize::MAX).then_some(self.byte_limit)
    }
    /// Payload bytes stored now.
    pub fn bytes(&self) -> usize {
        self.bytes
    }

    /// NFD's `Cs::setLimit` (cs/config's Capacity): at most `capacity` packets from now on, the
    /// policy's victims evicted down to it at once. 0 disables the store.
    pub fn set_capacity(&mut self, capacity: usize) {
        self.capacity = capacity;
        while self.index.len() > capacity && self.evict_one() {}
    }

    /// Whether Data are stored (`enableAdmit`) and whether Interests are answered from the store
    /// (`enableServe`).
    pub fn admit_enabled(&self) -> bool {
        self.admit_enabled
    }
    pub fn serve_enabled(&self) -> bool {
        self.serve_enabled
    }
    /// NFD's `Cs::enableAdmit`: off, Data are no longer stored (what is stored stays).
    pub fn set_admit(&mut self, on: bool) {
        self.admit_enabled = on;
    }
    /// NFD's `Cs::enableServe`: off, no Interest is answered from the store (which keeps its Data).
    pub fn set_serve(&mut self, on: bool) {
        self.serve_enabled = on;
    }

    /// NFD's `Cs::erase` (cs/erase): removes at most `limit` stored Data whose names start with
    /// `prefix`; how many it removed. NFD erases in name order; here, when more match than
    /// `limit`, those in the lowest slots go (a deterministic order, not the names').
    pub fn erase(&mut self, prefix: &Name, limit: usize) -> usize {
        let mut matching: Vec<u32> =
            self.index.iter().copied().filter(|&i| prefix.is_prefix_of(self.slots[i as usize].data.name())).collect();
        matching.sort_unstable();
        matching.truncate(limit);
        for &i in &matching {
            self.remove(i);
        }
        matching.len()
    }

    /// How many stored Data have names under `prefix`.
    pub fn count_under(&self, prefix: &Name) -> usize {
        self.index.iter().filter(|&&i| prefix.is_prefix_of(self.slots[i as usize].data.name())).count()
    }

    /// The slot holding a Data named `name` (whose hash is `hash`).
    fn slot_of(&self, hash: u64, name: &Name) -> Option<u32> {
        let slots = &self.slots;
        self.index.find(hash, |&i| slots[i as usize].data.name() == name).copied()
    }

    /// A hit or a refreshed insert. LRU: the entry goes to the back, last to be evicted; LFU: its
    /// count goes up one, and it goes to the back of its new count; FIFO and random: nothing.
    fn touch(&mut self, i: u32) {
        match self.policy {
            CsPolicy::Lru => {
                self.order.unlink(&mut self.slots, i);
                self.order.push_back(&mut self.slots, i);
            }
            CsPolicy::Lfu => {
                self.unlink(i);
                let e = &mut self.slots[i as usize];
                e.aux = e.aux.saturating_add(1);
                self.link(i);
            }
            CsPolicy::Fifo | CsPolicy::Random => {}
        }
    }

    /// LRU and FIFO, NFD's policies, keep one list: the test below is all they add to the
    /// default store's per-packet path; LFU and random go out of line.
    #[inline]
    fn one_list(&self) -> bool {
        matches!(self.policy, CsPolicy::Lru | CsPolicy::Fifo)
    }

    /// Puts stored slot `i` where its policy keeps it (LFU: at the back of its count's list).
    #[inline]
    fn link(&mut self, i: u32) {
        if self.one_list() {
            self.order.push_back(&mut self.slots, i);
        } else {
            self.link_other(i);
        }
    }

    #[inline(never)]
    fn link_other(&mut self, i: u32) {
        if self.policy == CsPolicy::Lfu {
            let count = self.slots[i as usize].aux;
            self.counts.entry(count).or_insert(SlotList::EMPTY).push_back(&mut self.slots, i);
        } else {
            self.slots[i as usize].aux = self.live.len() as u32;
            self.live.push(i);
        }
    }

    /// Takes slot `i` out of its policy's order.
    #[inline]
    fn unlink(&mut self, i: u32) {
        if self.one_list() {
            self.order.unlink(&mut self.slots, i);
        } else {
            self.unlink_other(i);
        }
    }

    #[inline(never)]
    fn unlink_other(&mut self, i: u32) {
        if self.policy == CsPolicy::Lfu {
            let count = self.slots[i as usize].aux;
            if let Some(list) = self.counts.get_mut(&count) {
                list.unlink(&mut self.slots, i);
                if list.head == NIL {
                    self.counts.remove(&count);
                }
            }
        } else {
            let pos = self.slots[i as usize].aux as usize;
            self.live.swap_remove(pos);
            if let Some(&moved) = self.live.get(pos) {
                self.slots[moved as usize].aux = pos as u32;
            }
        }
    }

    /// The policy's next victim, `NIL` when the store is empty.
    #[inline]
    fn victim(&mut self) -> u32 {
        if self.one_list() {
            self.order.head
        } else {
            self.victim_other()
        }
    }

    #[inline(never)]
    fn victim_other(&mut self) -> u32 {
        match self.policy {
            CsPolicy::Lfu => self.counts.first_key_value().map_or(NIL, |(_, list)| list.head),
            _ if self.live.is_empty() => NIL,
            _ => self.live[self.evict_rng.random_range(0..self.live.len())],
        }
    }

    /// Room for one more Data before `insert`: an `OutOfMemory` instead of an abort when the
    /// allocator refuses (`crate::grow`). A store is bounded by its capacity, but a capacity of
    /// millions is a value a user may give for "unbounded", so its growth is guarded as the PIT's
    /// is (issue 22). Nothing grows when an eviction will make room (the store is full) or a freed
    /// slot is there to reuse, so a full store never doubles past its capacity here.
    pub fn room_for_one(&mut self) -> Result<(), OutOfMemory> {
        if self.capacity == 0 || self.index.len() >= self.capacity {
            return Ok(());
        }
        if self.free.is_empty() {
            self.slots.room_for_one("Content Store")?;
        }
        let slots = &self.slots;
        room_in_table(&mut self.index, "Content Store index", |&i| slots[i as usize].hash)
    }

    /// Stores a Data packet (replacing an older copy of the same name), evicting as the policy says.
    pub fn insert(&mut self, now: Time, data: Arc<Data>) {
        if self.capacity == 0 || !self.admit_enabled {
            return;
        }
        let fresh_until = now + data.freshness_period.unwrap_or(Time::ZERO);
        let hash = data.name.hash64();
        if let Some(i) = self.slot_of(hash, &data.name) {
            self.refresh(i, data, fresh_until);
            return;
        }
        let weight = weight(&data);
        // One test on the common path; without a byte limit it never holds (`bytes + weight` is
        // far below usize::MAX). A Data heavier than the whole limit is turned away before the
        // admission draw: it takes nothing from the stream and evicts nothing.
        let over = self.bytes + weight > self.byte_limit;
        if over && weight > self.byte_limit {
            return;
        }
        if let Some((admit, rng)) = &mut self.admission {
            if rng.random::<f64>() >= *admit {
                return;
            }
        }
        if self.index.len() >= self.capacity {
            self.evict_one();
        }
        if over {
            self.make_room(weight);
        }
        let data = Stored::new(data);
        let entry = Entry { data, fresh_until, hash, weight: weight as u32, aux: 0, links: Links::DETACHED };
        let i = match self.free.pop() {
            Some(i) => {
                self.slots[i as usize] = entry;
                i
            }
            None => {
                self.slots.push(entry);
                (self.slots.len() - 1) as u32
            }
        };
        let slots = &self.slots;
        self.index.insert_unique(hash, i, |&j| slots[j as usize].hash);
        self.link(i);
        self.bytes += weight;
    }

    /// A new copy of stored entry `i`'s name takes its place. A heavier copy may overrun the
    /// byte limit: the policy's victims go until it fits, the refreshed entry among them only if
    /// the policy puts it first (FIFO: the oldest insertion, which a refresh does not change). A
    /// copy heavier than the whole limit cannot stay, and neither can the stale one.
    fn refresh(&mut self, i: u32, data: Arc<Data>, fresh_until: Time) {
        let e = &mut self.slots[i as usize];
        let new_weight = weight(&data);
        self.bytes = self.bytes - e.weight as usize + new_weight;
        let oversized = new_weight > self.byte_limit;
        e.weight = new_weight as u32;
        e.data = Stored::new(data);
        e.fresh_until = fresh_until;
        if oversized {
            self.remove(i);
            return;
        }
        self.touch(i);
        while self.bytes > self.byte_limit && self.evict_one() {}
    }

    /// Evicts by the policy until `weight` more bytes fit under the byte limit.
    #[cold]
    fn make_room(&mut self, weight: usize) {
        while self.bytes + weight > self.byte_limit && self.evict_one() {}
    }

    /// Evicts the policy's next victim; false when the store is empty.
    fn evict_one(&mut self) -> bool {
        let victim = self.victim();
        if victim == NIL {
            return false;
        }
        self.remove(victim);
        true
    }

    fn remove(&mut self, i: u32) {
        self.unlink(i);
        let e = &self.slots[i as usize];
        self.bytes -= e.weight as usize;
        if let Ok(found) = self.index.find_entry(e.hash, |&j| j == i) {
            found.remove();
        }
        self.free.push(i);
    }

    /// The cached Data that satisfies `interest`, if any (a hit refreshes LRU order).
    pub fn find(&mut self, now: Time, interest: &Interest) -> Option<Arc<Data>> {
        if self.index.is_empty() {
            return None;
        }
        let i = self.slot_of(interest.name.hash64(), &interest.name)?;
        // Tested on a hit only: a miss, the common case, pays nothing for the switch.
        if !self.serve_enabled {
            return None;
        }
        let e = &self.slots[i as usize];
        if interest.must_be_fresh && now >= e.fresh_until {
            return None;
        }
        let data = e.data.data();
        // A hit refreshes LRU's and LFU's order; `touch` does nothing under FIFO and random.
        self.touch(i);
        Some(data)
    }
}

#[cfg(test)]
#[path = "cs_tests.rs"]
mod tests;
