//! The Content Store's tests: replacement, freshness, admission, and the byte limit (SMIC §5).

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

// ------------------------------------------------------------------ the byte limit (SMIC §5)

fn sized(name: &str, payload: usize) -> Arc<Data> {
    Arc::new(Data::new(Name::parse(name).unwrap(), zero_payload(payload)))
}
fn holds(cs: &mut ContentStore, name: &str) -> bool {
    cs.find(Time::ZERO, &interest(name)).is_some()
}
/// A store limited to `bytes` of payload only (no packet count).
fn by_bytes(policy: CsPolicy, bytes: usize) -> ContentStore {
    ContentStore::new(policy, usize::MAX).with_byte_limit(Some(bytes))
}

#[test]
fn byte_limit_evicts_the_lru_entry_when_the_next_chunk_does_not_fit() {
    // 3000 bytes, 1040-byte payloads: two fit (2080); a third would make 3120 > 3000, so the
    // least recently used goes (/b, since /a was read after it) and 2080 bytes stay stored.
    let mut cs = by_bytes(CsPolicy::Lru, 3000);
    cs.insert(Time::ZERO, sized("/a", 1040));
    cs.insert(Time::ZERO, sized("/b", 1040));
    assert_eq!((cs.len(), cs.bytes()), (2, 2080));
    assert!(holds(&mut cs, "/a"));
    cs.insert(Time::ZERO, sized("/c", 1040));
    assert!(!holds(&mut cs, "/b"));
    assert!(holds(&mut cs, "/a") && holds(&mut cs, "/c"));
    assert_eq!((cs.len(), cs.bytes()), (2, 2080));
}

#[test]
fn byte_limit_evicts_as_many_as_the_new_data_needs() {
    // 3000 bytes: 1000 + 1000 + 1000 fills it exactly (the limit is inclusive). A 1500-byte Data
    // needs 1500 free: evicting /a leaves 2000 + 1500 = 3500 > 3000, evicting /b too leaves
    // 1000 + 1500 = 2500, so /a and /b go (FIFO order) and /c stays.
    let mut cs = by_bytes(CsPolicy::Fifo, 3000);
    for name in ["/a", "/b", "/c"] {
        cs.insert(Time::ZERO, sized(name, 1000));
    }
    assert_eq!((cs.len(), cs.bytes()), (3, 3000));
    cs.insert(Time::ZERO, sized("/d", 1500));
    assert!(!holds(&mut cs, "/a") && !holds(&mut cs, "/b"));
    assert!(holds(&mut cs, "/c") && holds(&mut cs, "/d"));
    assert_eq!((cs.len(), cs.bytes()), (2, 2500));
    // A small Data then fits beside them without evicting: 2500 + 500 = 3000.
    cs.insert(Time::ZERO, sized("/e", 500));
    assert_eq!((cs.len(), cs.bytes()), (3, 3000));
}

#[test]
fn whichever_limit_binds_first_evicts() {
    // 2 packets and 3000 bytes. 100-byte payloads: the count binds (a third evicts at 200 bytes).
    let mut cs = ContentStore::new(CsPolicy::Lru, 2).with_byte_limit(Some(3000));
    for name in ["/a", "/b", "/c"] {
        cs.insert(Time::ZERO, sized(name, 100));
    }
    assert_eq!((cs.len(), cs.bytes()), (2, 200));
    assert!(!holds(&mut cs, "/a"));
    // 5 packets and 3000 bytes, 1040-byte payloads: the bytes bind at 2 (3 x 1040 = 3120).
    let mut cs = ContentStore::new(CsPolicy::Lru, 5).with_byte_limit(Some(3000));
    for name in ["/a", "/b", "/c"] {
        cs.insert(Time::ZERO, sized(name, 1040));
    }
    assert_eq!((cs.len(), cs.bytes()), (2, 2080));
    assert!(!holds(&mut cs, "/a"));
}

#[test]
fn a_data_heavier_than_the_limit_is_not_stored_and_evicts_nothing() {
    let mut cs = by_bytes(CsPolicy::Lru, 1000);
    cs.insert(Time::ZERO, sized("/a", 600));
    cs.insert(Time::ZERO, sized("/big", 1001));
    assert!(!holds(&mut cs, "/big"));
    assert!(holds(&mut cs, "/a"));
    assert_eq!((cs.len(), cs.bytes()), (1, 600));
    // Exactly the limit is stored (evicting /a).
    cs.insert(Time::ZERO, sized("/full", 1000));
    assert!(holds(&mut cs, "/full") && !holds(&mut cs, "/a"));
    assert_eq!(cs.bytes(), 1000);
}

#[test]
fn a_heavier_copy_of_a_stored_name_makes_room_by_the_policy() {
    // 3000 bytes holding /a and /b, 1000 each; /a comes again with 2500: 2500 + 1000 = 3500.
    // LRU: the refresh moved /a to the back, so /b goes and 2500 bytes stay.
    let mut lru = by_bytes(CsPolicy::Lru, 3000);
    lru.insert(Time::ZERO, sized("/a", 1000));
    lru.insert(Time::ZERO, sized("/b", 1000));
    lru.insert(Time::ZERO, sized("/a", 2500));
    assert!(holds(&mut lru, "/a") && !holds(&mut lru, "/b"));
    assert_eq!((lru.len(), lru.bytes()), (1, 2500));
    assert_eq!(lru.find(Time::ZERO, &interest("/a")).unwrap().content.len(), 2500);
    // FIFO: a refresh keeps /a first in line, so /a itself goes and /b's 1000 bytes stay.
    let mut fifo = by_bytes(CsPolicy::Fifo, 3000);
    fifo.insert(Time::ZERO, sized("/a", 1000));
    fifo.insert(Time::ZERO, sized("/b", 1000));
    fifo.insert(Time::ZERO, sized("/a", 2500));
    assert!(!holds(&mut fifo, "/a") && holds(&mut fifo, "/b"));
    assert_eq!((fifo.len(), fifo.bytes()), (1, 1000));
    // A copy heavier than the whole limit takes the stale one out; a lighter one frees bytes.
    fifo.insert(Time::ZERO, sized("/b", 3001));
    assert_eq!((fifo.len(), fifo.bytes()), (0, 0));
    fifo.insert(Time::ZERO, sized("/c", 2000));
    fifo.insert(Time::ZERO, sized("/c", 700));
    assert_eq!((fifo.len(), fifo.bytes()), (1, 700));
}

#[test]
fn smics_100_mib_store_holds_100830_chunks_of_ten_objects() {
    // SMIC §5: 10 MB objects in 1040-byte payloads are 10,083 chunks, and a 100 MB store caches
    // at most 100,830. 10 MiB = 10,485,760 bytes = 10,082 x 1040 + 480: 10,082 full chunks and
    // a last one of 480 bytes, 10,083 in all (10 x 10^6 / 1040 would give 9,616). Ten such
    // objects weigh 100 MiB = 104,857,600 bytes exactly and are 100,830 chunks: the paper's
    // figures hold with MB = 2^20 bytes and a chunk weighing its payload.
    const OBJECT: usize = 10 << 20;
    let chunks = OBJECT.div_ceil(1040);
    assert_eq!((chunks, OBJECT - (chunks - 1) * 1040), (10_083, 480));
    let mut cs = by_bytes(CsPolicy::Lru, 100 << 20);
    for object in 0..10 {
        for chunk in 0..chunks {
            let payload = if chunk + 1 == chunks { 480 } else { 1040 };
            cs.insert(Time::ZERO, sized(&format!("/o{object}/{chunk}"), payload));
        }
    }
    assert_eq!((cs.len(), cs.bytes()), (100_830, 104_857_600));
    // One more full chunk does not fit: the oldest, /o0/0 (1040 bytes), goes.
    cs.insert(Time::ZERO, sized("/o10/0", 1040));
    assert_eq!((cs.len(), cs.bytes()), (100_830, 104_857_600));
    assert!(!holds(&mut cs, "/o0/0") && holds(&mut cs, "/o0/1"));
}

#[test]
fn a_zero_byte_limit_turns_the_store_off_and_no_limit_is_none() {
    let mut cs = by_bytes(CsPolicy::Lru, 0);
    cs.insert(Time::ZERO, sized("/a", 0));
    assert!(!cs.is_enabled() && cs.is_empty());
    let plain = ContentStore::new(CsPolicy::Lru, 10);
    assert_eq!(plain.byte_limit(), None);
    assert_eq!(by_bytes(CsPolicy::Lru, 3000).byte_limit(), Some(3000));
}

#[test]
fn lru_matches_a_list_in_recency_order_over_many_evictions() {
    // A store of 8 against a plain list (front: the next victim), 2,000 inserts and lookups of 20
    // names drawn from an LCG: after every step the store holds exactly the list's names. A
    // removal that took the wrong entry out of the index would show as a hit on an evicted name
    // or a miss on a stored one.
    let mut cs = ContentStore::new(CsPolicy::Lru, 8);
    let mut list: Vec<String> = Vec::new();
    let mut x: u64 = 1;
    for step in 0..2000 {
        x = x.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        let name = format!("/m/{}", (x >> 33) % 20);
        let at = list.iter().position(|n| *n == name);
        if (x >> 20) & 1 == 0 {
            cs.insert(Time::ZERO, data(&name));
            match at {
                Some(p) => drop(list.remove(p)),
                None if list.len() == 8 => drop(list.remove(0)),
                None => {}
            }
            list.push(name);
        } else {
            assert_eq!(cs.find(Time::ZERO, &interest(&name)).is_some(), at.is_some(), "step {step}: {name}");
            if let Some(p) = at {
                let hit = list.remove(p);
                list.push(hit);
            }
        }
        assert_eq!(cs.len(), list.len(), "step {step}");
    }
}

#[test]
fn lfu_evicts_the_fewest_hits_and_the_first_to_reach_them() {
    // ndnSIM's LFU: every entry enters at count 0, a hit adds one; the victim has the lowest
    // count and, among equals, got there first.
    let mut cs = ContentStore::new(CsPolicy::Lfu, 3);
    for n in ["/a", "/b", "/c"] {
        cs.insert(Time::ZERO, data(n));
    }
    assert!(cs.find(Time::ZERO, &interest("/b")).is_some()); // b: 1; a and c: 0
    cs.insert(Time::ZERO, data("/d")); // count 0: a (first there) and c -> a goes
    assert!(!holds(&mut cs, "/a"));
    // holds() is a hit: b 2, c 1, d 1 (c reached 1 before d).
    assert!(holds(&mut cs, "/b") && holds(&mut cs, "/c") && holds(&mut cs, "/d"));
    cs.insert(Time::ZERO, data("/e")); // counts c 1, d 1, b 2 -> c goes
    assert!(!holds(&mut cs, "/c"));
    // Now b 2, d 1, e 0; the hit below makes e 1, after d got there -> the newcomer evicts d.
    assert!(holds(&mut cs, "/e"));
    cs.insert(Time::ZERO, data("/f"));
    assert!(!holds(&mut cs, "/d") && holds(&mut cs, "/b") && holds(&mut cs, "/e"));
}

#[test]
fn lfu_matches_a_list_of_counts_over_many_evictions() {
    // A store of 8 against a plain model (name, count, when it reached that count), 3,000 inserts
    // and lookups of 20 names from an LCG; the victim is the least (count, when). A refresh by a
    // new copy counts as a use, as ndnSIM's `update` does.
    let mut cs = ContentStore::new(CsPolicy::Lfu, 8);
    let mut model: Vec<(String, u32, u64)> = Vec::new();
    let mut x: u64 = 5;
    for step in 0..3000u64 {
        x = x.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        let name = format!("/m/{}", (x >> 33) % 20);
        let at = model.iter().position(|(n, _, _)| *n == name);
        let used = |m: &mut Vec<(String, u32, u64)>, p: usize| {
            m[p].1 += 1;
            m[p].2 = step;
        };
        if (x >> 20) & 1 == 0 {
            cs.insert(Time::ZERO, data(&name));
            match at {
                Some(p) => used(&mut model, p),
                None => {
                    if model.len() == 8 {
                        let victim = (0..8).min_by_key(|&i| (model[i].1, model[i].2)).unwrap();
                        model.remove(victim);
                    }
                    model.push((name, 0, step));
                }
            }
        } else {
            assert_eq!(cs.find(Time::ZERO, &interest(&name)).is_some(), at.is_some(), "step {step}: {name}");
            if let Some(p) = at {
                used(&mut model, p);
            }
        }
        assert_eq!(cs.len(), model.len(), "step {step}");
    }
}

#[test]
fn random_replacement_evicts_a_uniform_resident() {
    // A full store of 1000 takes 1000 new names: each eviction takes one of the 1000 residents
    // with probability 1/1000, so an original survives all 1000 with probability
    // (1 - 1/1000)^1000 = 0.3677, and about 368 of them remain (a binomial's standard deviation
    // sqrt(1000 x 0.368 x 0.632) = 15.2 bounds the spread; ±5 of them is ±76). FIFO would keep
    // none; ndnSIM's random keys (keep the largest of 2000) about 500.
    let originals = |seed: u64| {
        let mut cs = ContentStore::new(CsPolicy::Random, 1000).with_eviction_seed(seed);
        (0..2000).for_each(|i| cs.insert(Time::ZERO, data(&format!("/r/{i}"))));
        assert_eq!(cs.len(), 1000);
        (0..1000).filter(|i| cs.find(Time::ZERO, &interest(&format!("/r/{i}"))).is_some()).count()
    };
    let kept = originals(3);
    assert!((292..=444).contains(&kept), "{kept} originals kept");
    // The stream is the seed's: the same seed keeps the same ones, another seed others.
    assert_eq!(originals(3), kept);
    assert_ne!(originals(4), kept);
}

#[test]
fn random_replacement_keeps_its_index_whole_through_churn() {
    // 3,000 inserts and lookups of 30 names into a store of 8: after every step, the names the
    // store finds are exactly as many as it says it holds, so no eviction left a stale slot in
    // the dense list or took a wrong one out of the index.
    let mut cs = ContentStore::new(CsPolicy::Random, 8).with_eviction_seed(9);
    let mut x: u64 = 11;
    for step in 0..3000 {
        x = x.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        let name = format!("/q/{}", (x >> 33) % 30);
        if (x >> 20) & 3 != 0 {
            cs.insert(Time::ZERO, data(&name));
        }
        let found = (0..30).filter(|i| cs.find(Time::ZERO, &interest(&format!("/q/{i}"))).is_some()).count();
        assert_eq!(found, cs.len(), "step {step}");
        assert_eq!(cs.bytes(), 10 * cs.len(), "step {step}");
    }
    assert_eq!(cs.len(), 8);
}

#[test]
fn policies_parse_by_their_scenario_names() {
    let parsed: Vec<CsPolicy> = CsPolicy::NAMES.iter().filter_map(|n| CsPolicy::parse(n)).collect();
    assert_eq!(parsed, [CsPolicy::Lru, CsPolicy::Fifo, CsPolicy::Lfu, CsPolicy::Random]);
    assert_eq!(CsPolicy::parse("off"), None);
}

#[test]
fn an_entry_is_fifty_six_bytes() {
    // What is stored 24 (a name's hash 8 and pointer 8, a payload length 4, padding 4; a whole
    // packet's pointer fits in the same room, the variant told by the name's non-null pointer) +
    // freshness 8 + hash 8 + weight 4 + the policy's count or place 4 + two 4-byte links = 56:
    // LFU and random replacement cost a stored Data no room.
    assert_eq!(std::mem::size_of::<Entry>(), 56);
}

#[test]
fn a_simulated_data_is_kept_as_its_name_and_length_and_comes_back_the_same() {
    let mut cs = ContentStore::new(CsPolicy::Lru, 4);
    let plain = data("/s/seg=1");
    let mut fresh = Data::new(Name::parse("/s/seg=2").unwrap(), zero_payload(10));
    fresh.freshness_period = Some(Time::from_millis(5));
    let fresh = Arc::new(fresh);
    cs.insert(Time::ZERO, plain.clone());
    cs.insert(Time::ZERO, fresh.clone());
    let slots: Vec<bool> = cs.slots.iter().map(|e| matches!(e.data, Stored::Simulated { .. })).collect();
    assert_eq!(slots, [true, false], "a Data with MetaInfo is kept whole");
    let back = cs.find(Time::ZERO, &interest("/s/seg=1")).unwrap();
    assert_eq!(*back, *plain);
    assert!(!Arc::ptr_eq(&back, &plain), "made again from the name and length");
    assert!(Arc::ptr_eq(&cs.find(Time::ZERO, &interest("/s/seg=2")).unwrap(), &fresh));
}

/// An LRU store of 4 holding /a/seg=1..3 and /b/seg=1, inserted in that order.
fn four_stored() -> ContentStore {
    let mut cs = ContentStore::new(CsPolicy::Lru, 4);
    for name in ["/a/seg=1", "/a/seg=2", "/a/seg=3", "/b/seg=1"] {
        cs.insert(Time::ZERO, data(name));
    }
    cs
}

#[test]
fn erase_removes_at_most_the_limit_under_a_prefix_and_says_how_many() {
    let mut cs = four_stored();
    // Three names under /a, a limit of 2: the two lowest slots go (/a/seg=1 and /a/seg=2).
    assert_eq!(cs.erase(&Name::parse("/a").unwrap(), 2), 2);
    assert_eq!(cs.len(), 2);
    assert!(cs.find(Time::ZERO, &interest("/a/seg=1")).is_none());
    assert!(cs.find(Time::ZERO, &interest("/a/seg=3")).is_some());
    // No limit to speak of: the last under /a; nothing under /c; the root takes everything.
    assert_eq!(cs.erase(&Name::parse("/a").unwrap(), usize::MAX), 1);
    assert_eq!(cs.erase(&Name::parse("/c").unwrap(), usize::MAX), 0);
    assert_eq!(cs.erase(&Name::root(), usize::MAX), 1);
    assert!(cs.is_empty());
    // The freed slots are used again.
    cs.insert(Time::ZERO, data("/d/seg=1"));
    assert_eq!(cs.len(), 1);
}

#[test]
fn a_smaller_capacity_evicts_the_policys_victims_at_once() {
    let mut cs = four_stored();
    // LRU: /a/seg=1 was used last longest ago; find /a/seg=2 to make /a/seg=3 the next victim
    // after it. Down to 2: /a/seg=1 and /a/seg=3 go.
    assert!(cs.find(Time::ZERO, &interest("/a/seg=2")).is_some());
    cs.set_capacity(2);
    assert_eq!((cs.len(), cs.capacity()), (2, 2));
    assert!(cs.find(Time::ZERO, &interest("/a/seg=1")).is_none());
    assert!(cs.find(Time::ZERO, &interest("/a/seg=3")).is_none());
    assert!(cs.find(Time::ZERO, &interest("/b/seg=1")).is_some());
}

#[test]
fn admit_and_serve_switch_off_storing_and_answering_separately() {
    let mut cs = four_stored();
    cs.set_capacity(8);
    cs.set_serve(false);
    assert!(cs.find(Time::ZERO, &interest("/a/seg=1")).is_none(), "not served");
    cs.set_admit(false);
    cs.insert(Time::ZERO, data("/c/seg=1"));
    assert_eq!(cs.len(), 4, "not admitted");
    cs.set_serve(true);
    assert!(cs.find(Time::ZERO, &interest("/a/seg=1")).is_some(), "kept while not served");
    assert!((cs.admit_enabled(), cs.serve_enabled()) == (false, true));
}
