//! Forwarding Acceleration Base (PTP §4-B): remembers, per flow, the FIB entry that longest-prefix
//! match gave, so the later Interests of an elephant flow skip LPM.
//!
//! A flow name is an Interest name without its last component, the segment number (PTP Fig. 6).
//! Tuples live in an arena threaded by a doubly linked list in insertion order, newest at the head;
//! when the table is full the tail goes (§4-B-2). A hit moves its tuple to the head, since the paper
//! treats a matched tuple "as a newly inserted tuple": the list it calls FIFO evicts the least
//! recently used flow.
//!
//! LPM is done on the flow name, so one answer holds for every segment of the flow. A FIB prefix
//! longer than a flow name (one that names a segment) is therefore never found through the FAB: it
//! assumes routes are on object prefixes, which are never longer than a flow name.
//!
//! The FIB only appends entries, so a cached index stays valid, but a new longer prefix can change
//! what a flow matches: the FAB drops every tuple when `Fib::version` moves. One FAB serves one FIB.

use super::slot_list::{Linked, Links, SlotList, NIL};
use super::Fib;
use crate::name::NameMap;
use crate::Name;

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct FabCounters {
    /// Lookups answered by a stored tuple.
    pub hits: u64,
    /// Lookups that fell back to LPM (every lookup when the capacity is 0).
    pub misses: u64,
    /// Tuples dropped to make room for a new flow (a FIB change clears the table uncounted).
    pub evictions: u64,
}

#[derive(Debug)]
struct Tuple {
    /// The Interest name that inserted the tuple; its flow is the key. Kept whole because cloning
    /// it is a reference count, where building the flow as a name of its own would allocate.
    name: Name,
    /// Hash of the flow, kept so an eviction finds its bucket without reading `name`.
    flow_hash: u64,
    /// What `Fib::longest_prefix_match` returned for the flow.
    entry: u32,
    links: Links,
    /// Next tuple whose flow has the same hash (§4-B-1 keeps every tuple of a hashed key).
    chain: u32,
}

/// The paper's flow-name → FIB-entry table with its insertion-order list (§4-B, Figs. 7-8).
#[derive(Debug)]
pub struct ForwardingAccelerationBase {
    capacity: usize,
    /// Flow hash -> first tuple of its collision chain. The hash is the Interest name's
    /// precomputed prefix hash, so a lookup hashes nothing.
    index: NameMap<u64, u32>,
    /// No free list: a tuple leaves only by eviction, which hands its slot straight to the
    /// newcomer, or by `clear`, which empties the arena.
    tuples: Vec<Tuple>,
    /// Newest at the head (the paper's list head), the next to evict at the tail.
    order: SlotList,
    /// `Fib::version` when the tuples were computed.
    fib_version: u64,
    pub counters: FabCounters,
}

impl Linked for Tuple {
    fn links(&mut self) -> &mut Links {
        &mut self.links
    }
}

pub type Fab = ForwardingAccelerationBase;

/// Components of `name`'s flow: all but the last, or none for the root.
fn flow_len(name: &Name) -> usize {
    name.len().saturating_sub(1)
}

impl ForwardingAccelerationBase {
    /// The paper gives no size, only "a suitable value" (§4-B-2). Our choice: far more flows than
    /// its experiments put through a router (one or two), for about 150 KB with the names it keeps.
    pub const DEFAULT_CAPACITY: usize = 1_000;

    /// A table of at most `capacity` flows; 0 makes every lookup a plain LPM. Capped at 2^32 - 1,
    /// the arena's index range.
    pub fn new(capacity: usize) -> Self {
        ForwardingAccelerationBase {
            capacity: capacity.min(NIL as usize),
            index: NameMap::default(),
            tuples: Vec::new(),
            order: SlotList::EMPTY,
            fib_version: 0,
            counters: FabCounters::default(),
        }
    }

    pub fn len(&self) -> usize {
        self.tuples.len()
    }
    pub fn is_empty(&self) -> bool {
        self.tuples.is_empty()
    }
    pub fn capacity(&self) -> usize {
        self.capacity
    }

    /// Drops every tuple, keeping the memory for the next ones.
    pub fn clear(&mut self) {
        self.index.clear();
        self.tuples.clear();
        self.order = SlotList::EMPTY;
    }

    /// The index (as in `Fib::entry`) of the FIB entry for `name`'s flow, `None` when nothing
    /// matches the flow. A flow with no FIB entry is not stored.
    pub fn lookup(&mut self, name: &Name, fib: &Fib) -> Option<usize> {
        let len = flow_len(name);
        self.lookup_hashed(name, len, name.prefix_hash(len), fib)
    }

    /// `lookup` with the flow hash given, so tests can make two flows collide.
    fn lookup_hashed(&mut self, name: &Name, len: usize, hash: u64, fib: &Fib) -> Option<usize> {
        if self.capacity == 0 {
            self.counters.misses += 1;
            return fib.longest_prefix_match_within(name, len).map(|(i, _)| i);
        }
        if fib.version() != self.fib_version {
            self.clear();
            self.fib_version = fib.version();
        }
        if let Some(t) = self.find(name, len, hash) {
            self.counters.hits += 1;
            if t != self.order.head {
                self.order.unlink(&mut self.tuples, t);
                self.order.push_front(&mut self.tuples, t);
            }
            return Some(self.tuples[t as usize].entry as usize);
        }
        self.counters.misses += 1;
        let (entry, _) = fib.longest_prefix_match_within(name, len)?;
        // The FIB indexes its entries with u32, so this only fails for a FIB we cannot cache.
        if let Ok(entry32) = u32::try_from(entry) {
            self.insert(name, hash, entry32);
        }
        Some(entry)
    }

    fn find(&self, name: &Name, len: usize, hash: u64) -> Option<u32> {
        let flow = name.prefix_wire(len);
        let mut t = *self.index.get(&hash)?;
        while t != NIL {
            let tuple = &self.tuples[t as usize];
            // The same name (a retransmission) is the same flow without reading either; otherwise
            // the lengths must agree, as `prefix_wire` clamps a shorter name.
            if tuple.name.address() == name.address()
                || (flow_len(&tuple.name) == len && tuple.name.prefix_wire(len) == flow)
            {
                return Some(t);
            }
            t = tuple.chain;
        }
        None
    }

    fn insert(&mut self, name: &Name, hash: u64, entry: u32) {
        let t = if self.tuples.len() >= self.capacity && self.order.tail != NIL {
            let t = self.order.tail;
            self.order.unlink(&mut self.tuples, t);
            self.unchain(t);
            self.counters.evictions += 1;
            let tuple = &mut self.tuples[t as usize];
            tuple.name = name.clone();
            tuple.entry = entry;
            t
        } else {
            let tuple = Tuple { name: name.clone(), flow_hash: hash, entry, links: Links::DETACHED, chain: NIL };
            self.tuples.push(tuple);
            (self.tuples.len() - 1) as u32
        };
        let chain = self.index.insert(hash, t).unwrap_or(NIL);
        let tuple = &mut self.tuples[t as usize];
        tuple.flow_hash = hash;
        tuple.chain = chain;
        self.order.push_front(&mut self.tuples, t);
    }

    /// Takes `t` out of its hash bucket's chain.
    fn unchain(&mut self, t: u32) {
        let (hash, after) = (self.tuples[t as usize].flow_hash, self.tuples[t as usize].chain);
        let Some(&first) = self.index.get(&hash) else { return };
        if first == t {
            match after {
                NIL => {
                    self.index.remove(&hash);
                }
                next => {
                    self.index.insert(hash, next);
                }
            }
            return;
        }
        let mut at = first;
        while at != NIL {
            let next = self.tuples[at as usize].chain;
            if next == t {
                self.tuples[at as usize].chain = after;
                return;
            }
            at = next;
        }
    }
}

impl Default for ForwardingAccelerationBase {
    fn default() -> Self {
        Self::new(Self::DEFAULT_CAPACITY)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::table::FaceId;

    fn n(s: &str) -> Name {
        Name::parse(s).unwrap()
    }

    fn counters(hits: u64, misses: u64, evictions: u64) -> FabCounters {
        FabCounters { hits, misses, evictions }
    }

    /// A FIB with "/" (entry 0), "/video" (1) and "/video/a" (2).
    fn fib() -> Fib {
        let mut fib = Fib::new();
        fib.add_nexthop(&n("/"), FaceId(9), 1);
        fib.add_nexthop(&n("/video"), FaceId(1), 1);
        fib.add_nexthop(&n("/video/a"), FaceId(2), 1);
        fib
    }

    /// Flow names, front to back (newest first), read off the list.
    fn order(fab: &Fab) -> Vec<String> {
        let mut out = Vec::new();
        let mut t = fab.order.head;
        while t != NIL {
            let tuple = &fab.tuples[t as usize];
            out.push(tuple.name.prefix(flow_len(&tuple.name)).to_string());
            t = tuple.links.next;
        }
        out
    }

    #[test]
    fn segments_of_one_flow_miss_once_then_hit() {
        let fib = fib();
        let mut fab = Fab::new(4);
        for seg in 0..5 {
            assert_eq!(fab.lookup(&n(&format!("/video/b/v=1/seg={seg}")), &fib), Some(1));
        }
        assert_eq!(fab.counters, counters(4, 1, 0));
        assert_eq!(fab.len(), 1);
        // The same name again (a retransmission) is the same flow.
        let name = n("/video/b/v=1/seg=0");
        assert_eq!(fab.lookup(&name, &fib), Some(1));
        assert_eq!(fab.lookup(&name, &fib), Some(1));
        assert_eq!(fab.counters, counters(6, 1, 0));
    }

    #[test]
    fn answers_are_the_flows_longest_prefix_match() {
        let fib = fib();
        let mut fab = Fab::new(8);
        for _ in 0..2 {
            assert_eq!(fib.entry(fab.lookup(&n("/video/a/x/seg=3"), &fib).unwrap()).prefix, n("/video/a"));
            assert_eq!(fib.entry(fab.lookup(&n("/video/ab/seg=3"), &fib).unwrap()).prefix, n("/video"));
            assert_eq!(fib.entry(fab.lookup(&n("/audio/seg=3"), &fib).unwrap()).prefix, n("/"));
            // "/video/a/seg=3" is flow "/video/a"; "/video/a" is flow "/video": two flows.
            assert_eq!(fab.lookup(&n("/video/a/seg=3"), &fib), Some(2));
            assert_eq!(fab.lookup(&n("/video/a"), &fib), Some(1));
            // A name of no components is its own flow, the root.
            assert_eq!(fab.lookup(&Name::root(), &fib), Some(0));
        }
        assert_eq!(fab.counters, counters(6, 6, 0));
    }

    #[test]
    fn a_full_table_evicts_its_oldest_flow() {
        let fib = fib();
        let mut fab = Fab::new(2);
        fab.lookup(&n("/video/A/seg=0"), &fib);
        fab.lookup(&n("/video/B/seg=0"), &fib);
        fab.lookup(&n("/video/C/seg=0"), &fib);
        assert_eq!(order(&fab), ["/video/C", "/video/B"]);
        assert_eq!(fab.counters, counters(0, 3, 1));
        assert_eq!(fab.len(), 2);
        // A was evicted: a miss again, which in turn evicts B.
        assert_eq!(fab.lookup(&n("/video/A/seg=1"), &fib), Some(1));
        assert_eq!(order(&fab), ["/video/A", "/video/C"]);
        assert_eq!(fab.counters, counters(0, 4, 2));
        assert_eq!(fab.index.len(), 2, "an evicted flow leaves no bucket behind");
    }

    #[test]
    fn a_hit_counts_as_a_new_insertion() {
        let fib = fib();
        let mut fab = Fab::new(2);
        fab.lookup(&n("/video/A/seg=0"), &fib);
        fab.lookup(&n("/video/B/seg=0"), &fib);
        fab.lookup(&n("/video/A/seg=1"), &fib); // hit: A moves ahead of B
        assert_eq!(order(&fab), ["/video/A", "/video/B"]);
        fab.lookup(&n("/video/C/seg=0"), &fib);
        assert_eq!(order(&fab), ["/video/C", "/video/A"]);
        assert_eq!(fab.counters, counters(1, 3, 1));
        fab.lookup(&n("/video/A/seg=2"), &fib);
        assert_eq!(fab.counters, counters(2, 3, 1));
    }

    #[test]
    fn a_fib_change_drops_the_cached_answers() {
        let mut fib = fib();
        let mut fab = Fab::new(4);
        assert_eq!(fab.lookup(&n("/video/b/c/seg=0"), &fib), Some(1));
        assert_eq!(fab.lookup(&n("/video/b/c/seg=1"), &fib), Some(1));
        fib.add_nexthop(&n("/video/b"), FaceId(3), 1);
        assert_eq!(fib.entry(fab.lookup(&n("/video/b/c/seg=2"), &fib).unwrap()).prefix, n("/video/b"));
        assert_eq!(fab.counters, counters(1, 2, 0));
        assert_eq!(fab.len(), 1);
    }

    #[test]
    fn capacity_zero_stores_nothing() {
        let fib = fib();
        let mut fab = Fab::new(0);
        for seg in 0..3 {
            assert_eq!(fab.lookup(&n(&format!("/video/a/x/seg={seg}")), &fib), Some(2));
        }
        assert_eq!(fab.counters, counters(0, 3, 0));
        assert!(fab.is_empty());
    }

    #[test]
    fn flows_without_a_route_are_not_stored() {
        let mut fib = Fib::new();
        fib.add_nexthop(&n("/video"), FaceId(1), 1);
        let mut fab = Fab::new(4);
        assert_eq!(fab.lookup(&n("/audio/a/seg=0"), &fib), None);
        assert_eq!(fab.lookup(&n("/audio/a/seg=1"), &fib), None);
        assert_eq!(fab.counters, counters(0, 2, 0));
        assert!(fab.is_empty());
        // A route in the segment component is longer than the flow: the FAB does not see it.
        fib.add_nexthop(&n("/audio/a/seg=0"), FaceId(2), 1);
        assert_eq!(fab.lookup(&n("/audio/a/seg=0"), &fib), None);
    }

    #[test]
    fn flows_sharing_a_hash_are_told_apart() {
        let fib = fib();
        let mut fab = Fab::new(2);
        let (a, b, c) = (n("/video/a/x/seg=0"), n("/video/b/seg=0"), n("/audio/seg=0"));
        let look = |fab: &mut Fab, name: &Name| fab.lookup_hashed(name, flow_len(name), 7, &fib);
        assert_eq!(look(&mut fab, &a), Some(2));
        assert_eq!(look(&mut fab, &b), Some(1));
        assert_eq!((look(&mut fab, &a), look(&mut fab, &b)), (Some(2), Some(1)));
        assert_eq!(fab.counters, counters(2, 2, 0));
        assert_eq!(fab.index.len(), 1);
        // Evicting the tail (a, second in its chain behind b) keeps b reachable, and c joins the chain.
        assert_eq!(look(&mut fab, &c), Some(0));
        assert_eq!(look(&mut fab, &b), Some(1));
        assert_eq!(look(&mut fab, &c), Some(0));
        assert_eq!(fab.counters, counters(4, 3, 1));
        // Evicting the chain's first tuple (c, chained in last, made least recent by a hit on b)
        // keeps the rest of the chain reachable.
        assert_eq!(look(&mut fab, &b), Some(1));
        assert_eq!(look(&mut fab, &a), Some(2));
        assert_eq!((look(&mut fab, &a), look(&mut fab, &b)), (Some(2), Some(1)));
        assert_eq!(fab.counters, counters(7, 4, 2));
        assert_eq!(fab.index.len(), 1);
    }

    /// What the FAB must do, written the slow way: flows in recency order, newest first.
    #[derive(Default)]
    struct Model {
        flows: Vec<Name>,
        counters: FabCounters,
        version: u64,
    }

    impl Model {
        fn lookup(&mut self, capacity: usize, name: &Name, fib: &Fib) -> Option<usize> {
            let flow = name.prefix(flow_len(name));
            let answer = fib.longest_prefix_match(&flow).map(|(i, _)| i);
            if capacity == 0 {
                self.counters.misses += 1;
                return answer;
            }
            if fib.version() != self.version {
                self.flows.clear();
                self.version = fib.version();
            }
            if let Some(at) = self.flows.iter().position(|f| *f == flow) {
                self.counters.hits += 1;
                let f = self.flows.remove(at);
                self.flows.insert(0, f);
            } else {
                self.counters.misses += 1;
                if answer.is_some() {
                    if self.flows.len() == capacity {
                        self.flows.pop();
                        self.counters.evictions += 1;
                    }
                    self.flows.insert(0, flow);
                }
            }
            answer
        }
    }

    #[derive(Clone, Debug)]
    enum Op {
        Lookup(Vec<u8>),
        Route(Vec<u8>),
    }

    /// Names over a two-letter alphabet, so flows recur and nest; the last component is the
    /// segment-like one.
    fn name_of(comps: &[u8]) -> Name {
        let letters: Vec<[u8; 1]> = comps.iter().map(|c| [b'a' + c % 2]).collect();
        Name::from_components(letters.iter().map(|l| (8, l.as_slice())))
    }

    fn ops() -> impl proptest::strategy::Strategy<Value = Vec<Op>> {
        use proptest::prelude::*;
        let comps = || prop::collection::vec(0u8..2, 0..5);
        let op = prop_oneof![8 => comps().prop_map(Op::Lookup), 1 => comps().prop_map(Op::Route)];
        prop::collection::vec(op, 0..60)
    }

    fn run(capacity: usize, ops: &[Op], hash_bits: u32) {
        let mut fib = Fib::new();
        let mut fab = Fab::new(capacity);
        let mut model = Model::default();
        for op in ops {
            match op {
                Op::Route(comps) => fib.add_nexthop(&name_of(comps), FaceId(1), 1),
                Op::Lookup(comps) => {
                    let name = name_of(comps);
                    let len = flow_len(&name);
                    // Keeping a few bits of the hash makes unrelated flows share buckets.
                    let hash = name.prefix_hash(len) & ((1u64 << hash_bits) - 1);
                    assert_eq!(fab.lookup_hashed(&name, len, hash, &fib), model.lookup(capacity, &name, &fib));
                    assert_eq!(fab.counters, model.counters, "after {name}");
                    assert_eq!(order(&fab), model.flows.iter().map(|f| f.to_string()).collect::<Vec<_>>());
                    assert!(fab.index.len() <= fab.len());
                }
            }
        }
    }

    proptest::proptest! {
        #[test]
        fn behaves_like_a_recency_list_of_flows(capacity in 0usize..5, ops in ops(), hash_bits in 1u32..64) {
            run(capacity, &ops, hash_bits);
        }
    }
}
