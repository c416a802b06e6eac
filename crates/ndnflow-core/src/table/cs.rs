//! Content Store (NFD daemon/table/cs) with a capacity in packets and LRU or FIFO replacement.
//!
//! An admission probability lets a store keep only a share of the Data it sees, each one drawn
//! from the store's own seeded stream: PTP §6-E caches "half of the 2000 Data packets (randomly
//! selected)". NFD's store admits every Data its policy allows; 1 (the default) is that.
//!
//! Entries live in a slab threaded by a doubly linked list (head = next victim), indexed by the exact
//! Data name. Lookup is by exact name: an Interest matches a cached Data of the same name, subject to
//! MustBeFresh. CanBePrefix Interests also match only exactly-named Data here; the papers' consumers
//! name every segment exactly, and an ordered index would cost every insert on the hot path.

use std::sync::Arc;

use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

use super::slot_list::{Linked, Links, SlotList, NIL};
use crate::name::NameMap;
use crate::packet::{Data, Interest};
use crate::{Name, Time};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CsPolicy {
    /// Evict the least recently used: a hit moves the entry to the back.
    Lru,
    /// Evict the oldest insertion; hits do not reorder.
    Fifo,
}

#[derive(Debug)]
struct Entry {
    data: Arc<Data>,
    /// Instant after which the Data no longer satisfies MustBeFresh Interests.
    fresh_until: Time,
    links: Links,
}

impl Linked for Entry {
    fn links(&mut self) -> &mut Links {
        &mut self.links
    }
}

#[derive(Debug)]
pub struct ContentStore {
    policy: CsPolicy,
    capacity: usize,
    index: NameMap<Name, u32>,
    slots: Vec<Entry>,
    free: Vec<u32>,
    /// Head: the next victim.
    order: SlotList,
    /// Probability that a Data of a name not yet stored is admitted, with its stream; `None`:
    /// every Data is (no draw at all, so a store without admission takes nothing from a stream).
    admission: Option<(f64, ChaCha8Rng)>,
}

impl ContentStore {
    /// A store holding at most `capacity` Data packets; 0 disables it.
    pub fn new(policy: CsPolicy, capacity: usize) -> ContentStore {
        ContentStore {
            policy,
            capacity,
            index: NameMap::default(),
            slots: Vec::new(),
            free: Vec::new(),
            order: SlotList::EMPTY,
            admission: None,
        }
    }

    /// Admit each Data of a new name with probability `admit` (in (0, 1]), drawn from a ChaCha8
    /// stream seeded with `seed`; 1 admits all, as `new` does. A stored name is always refreshed.
    pub fn with_admission(mut self, admit: f64, seed: u64) -> ContentStore {
        self.admission = (admit < 1.0).then(|| (admit, ChaCha8Rng::seed_from_u64(seed)));
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

    /// A hit or a refreshed insert: the entry goes to the back, last to be evicted.
    fn touch(&mut self, i: u32) {
        self.order.unlink(&mut self.slots, i);
        self.order.push_back(&mut self.slots, i);
    }

    /// Stores a Data packet (replacing an older copy of the same name), evicting as the policy says.
    pub fn insert(&mut self, now: Time, data: Arc<Data>) {
        if self.capacity == 0 {
            return;
        }
        let fresh_until = now + data.freshness_period.unwrap_or(Time::ZERO);
        if let Some(&i) = self.index.get(&data.name) {
            let e = &mut self.slots[i as usize];
            e.data = data;
            e.fresh_until = fresh_until;
            if self.policy == CsPolicy::Lru {
                self.touch(i);
            }
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
        let entry = Entry { data: data.clone(), fresh_until, links: Links::DETACHED };
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
        self.index.insert(data.name.clone(), i);
        self.order.push_back(&mut self.slots, i);
    }

    fn evict_one(&mut self) {
        let victim = self.order.head;
        if victim == NIL {
            return;
        }
        self.order.unlink(&mut self.slots, victim);
        let name = self.slots[victim as usize].data.name.clone();
        self.index.remove(&name);
        self.free.push(victim);
    }

    /// The cached Data that satisfies `interest`, if any (a hit refreshes LRU order).
    pub fn find(&mut self, now: Time, interest: &Interest) -> Option<Arc<Data>> {
        if self.index.is_empty() {
            return None;
        }
        let i = *self.index.get(&interest.name)?;
        let e = &self.slots[i as usize];
        if interest.must_be_fresh && now >= e.fresh_until {
            return None;
        }
        let data = e.data.clone();
        if self.policy == CsPolicy::Lru {
            self.touch(i);
        }
        Some(data)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::packet::data::zero_payload;

    fn data(name: &str) -> Arc<Data> {
        Arc::new(Data::new(Name::parse(name).unwrap(), zero_payload(10)))
    }
    fn interest(name: &str) -> Interest {
        Interest::new(Name::parse(name).unwrap(), 1, Time::from_secs(2))
    }

    #[test]
    fn admission_keeps_about_its_share() {
        // 2000 distinct names offered to a store of 2000 admitting half: the count admitted is
        // Binomial(2000, 0.5), mean 1000 and standard deviation sqrt(2000 / 4) = 22.4; 4 sigma is
        // +-90. A stored name is refreshed whatever the draw.
        let mut cs = ContentStore::new(CsPolicy::Lru, 2000).with_admission(0.5, 7);
        for i in 0..2000 {
            cs.insert(Time::ZERO, data(&format!("/o/{i}")));
        }
        assert!((910..=1090).contains(&cs.len()), "{} admitted", cs.len());
        let stored = (0..2000).find(|i| cs.find(Time::ZERO, &interest(&format!("/o/{i}"))).is_some()).unwrap();
        for _ in 0..50 {
            cs.insert(Time::from_secs(1), data(&format!("/o/{stored}")));
            assert!(cs.find(Time::from_secs(1), &interest(&format!("/o/{stored}"))).is_some());
        }
        // Admission 1 draws nothing and keeps all.
        let mut all = ContentStore::new(CsPolicy::Lru, 10).with_admission(1.0, 7);
        (0..10).for_each(|i| all.insert(Time::ZERO, data(&format!("/o/{i}"))));
        assert_eq!(all.len(), 10);
        assert!(all.admission.is_none());
    }

    #[test]
    fn lru_evicts_the_least_recently_used() {
        let mut cs = ContentStore::new(CsPolicy::Lru, 2);
        cs.insert(Time::ZERO, data("/a"));
        cs.insert(Time::ZERO, data("/b"));
        assert!(cs.find(Time::ZERO, &interest("/a")).is_some()); // /a is now most recent
        cs.insert(Time::ZERO, data("/c")); // evicts /b
        assert!(cs.find(Time::ZERO, &interest("/b")).is_none());
        assert!(cs.find(Time::ZERO, &interest("/a")).is_some());
        assert!(cs.find(Time::ZERO, &interest("/c")).is_some());
        assert_eq!(cs.len(), 2);
    }

    #[test]
    fn fifo_evicts_the_oldest_insertion_despite_hits() {
        let mut cs = ContentStore::new(CsPolicy::Fifo, 2);
        cs.insert(Time::ZERO, data("/a"));
        cs.insert(Time::ZERO, data("/b"));
        assert!(cs.find(Time::ZERO, &interest("/a")).is_some());
        cs.insert(Time::ZERO, data("/c")); // evicts /a, the oldest
        assert!(cs.find(Time::ZERO, &interest("/a")).is_none());
        assert!(cs.find(Time::ZERO, &interest("/b")).is_some());
    }

    #[test]
    fn must_be_fresh_respects_the_freshness_period() {
        let mut cs = ContentStore::new(CsPolicy::Lru, 10);
        let mut d = Data::new(Name::parse("/a").unwrap(), zero_payload(1));
        d.freshness_period = Some(Time::from_millis(100));
        cs.insert(Time::ZERO, Arc::new(d));
        let mut i = interest("/a");
        i.must_be_fresh = true;
        assert!(cs.find(Time::from_millis(99), &i).is_some());
        assert!(cs.find(Time::from_millis(100), &i).is_none());
        i.must_be_fresh = false;
        assert!(cs.find(Time::from_secs(5), &i).is_some());
    }

    #[test]
    fn capacity_zero_stores_nothing() {
        let mut cs = ContentStore::new(CsPolicy::Lru, 0);
        cs.insert(Time::ZERO, data("/a"));
        assert!(cs.find(Time::ZERO, &interest("/a")).is_none());
        assert!(!cs.is_enabled());
    }
}
