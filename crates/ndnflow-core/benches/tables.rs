//! Micro-benchmarks of the forwarding tables and of name construction.
//!
//! Every name, Interest and Data is built before the timed loop; each timed iteration is one
//! operation (one lookup, one insert+satisfy, ...) on a pre-built input picked round-robin from a
//! pool, so the reported throughput is per operation (`Throughput::Elements(1)`).
//!
//! Run with `cargo bench -p ndnflow-core --bench tables` (add `-- --quick` for a fast pass).

use std::hint::black_box;
use std::sync::Arc;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use ndnflow_core::packet::data::zero_payload;
use ndnflow_core::packet::NO_PIT_HINT;
use ndnflow_core::table::{ContentStore, CsPolicy, Fab, FaceId, Fib, PendingInterestTable, PitId};
use ndnflow_core::{Data, Interest, Name, Time};
use smallvec::SmallVec;

/// Deterministic xorshift64*, so pools are shuffled the same way on every run.
struct XorShift(u64);

impl XorShift {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn shuffle<T>(&mut self, v: &mut [T]) {
        for i in (1..v.len()).rev() {
            let j = (self.next() % (i as u64 + 1)) as usize;
            v.swap(i, j);
        }
    }
}

fn name(uri: &str) -> Name {
    Name::parse(uri).expect("valid benchmark name")
}

// ---------------------------------------------------------------------------------------------
// FIB
// ---------------------------------------------------------------------------------------------

const FIB_PREFIXES: usize = 1_000;
/// Lookup pool size (a power of two, so the round-robin index is a mask).
const LOOKUPS: usize = 4_096;

/// 1,000 prefixes of 1, 2 or 3 components: `/site{i}`, `/site{i}/app`, `/site{i}/app/v=1`.
fn fib_prefix(i: usize) -> Name {
    match i % 3 {
        0 => name(&format!("/site{i}")),
        1 => name(&format!("/site{i}/app")),
        _ => name(&format!("/site{i}/app/v=1")),
    }
}

fn bench_fib(c: &mut Criterion) {
    let mut fib = Fib::new();
    for i in 0..FIB_PREFIXES {
        fib.add_nexthop(&fib_prefix(i), FaceId((i % 8) as u32), 10);
    }
    let mut rng = XorShift(0x9E37_79B9_7F4A_7C15);
    // 4-component names under a random registered prefix: the match is 1, 2 or 3 components long.
    let mut hits: Vec<Name> = (0..LOOKUPS)
        .map(|k| {
            let i = (rng.next() % FIB_PREFIXES as u64) as usize;
            name(&format!("/site{i}/app/v=1/seg={k}"))
        })
        .collect();
    // 4-component names no prefix (not even "/") matches: every prefix length is probed.
    let mut misses: Vec<Name> = (0..LOOKUPS).map(|k| name(&format!("/other{k}/app/v=1/seg={k}"))).collect();
    rng.shuffle(&mut hits);
    rng.shuffle(&mut misses);
    for n in &hits {
        assert!(fib.longest_prefix_match(n).is_some(), "{n} should hit");
    }
    for n in &misses {
        assert!(fib.longest_prefix_match(n).is_none(), "{n} should miss");
    }

    let mut group = c.benchmark_group("fib_lpm_1000_prefixes");
    group.throughput(Throughput::Elements(1));
    for (label, pool) in [("hit", &hits), ("miss", &misses)] {
        group.bench_function(label, |b| {
            let mut k = 0usize;
            b.iter(|| {
                let n = &pool[k & (LOOKUPS - 1)];
                k = k.wrapping_add(1);
                black_box(fib.longest_prefix_match(black_box(n)).map(|(i, _)| i))
            })
        });
    }
    group.finish();
}

// ---------------------------------------------------------------------------------------------
// FAB (PTP §4-B)
// ---------------------------------------------------------------------------------------------

const FAB_PREFIXES: usize = 10_000;
const FAB_FLOWS: usize = 1_000;
/// Interest pool: every flow about eight times, in random order (a power of two, for the mask).
const FAB_LOOKUPS: usize = 8_192;

/// 10,000 prefixes of 2, 3 or 4 components: `/net{i}/app`, `/net{i}/app/c{i}`, `/net{i}/app/c{i}/v=1`.
fn fab_prefix(i: usize) -> Name {
    match i % 3 {
        0 => name(&format!("/net{i}/app")),
        1 => name(&format!("/net{i}/app/c{i}")),
        _ => name(&format!("/net{i}/app/c{i}/v=1")),
    }
}

/// LPM on every Interest against the FAB in front of the same FIB, when the 1,000 active flows
/// fit in it and when only a tenth do. Flows are picked uniformly, which is the FAB's worst case:
/// the paper counts on Zipf popularity to keep the busy flows in a small table.
fn bench_fab(c: &mut Criterion) {
    let mut fib = Fib::new();
    for i in 0..FAB_PREFIXES {
        fib.add_nexthop(&fab_prefix(i), FaceId((i % 8) as u32), 10);
    }
    let mut rng = XorShift(0x243F_6A88_85A3_08D3);
    // A flow is a registered prefix and one or two more components; its Interests add a segment,
    // for names of 5 or 6 components.
    let flows: Vec<Name> = (0..FAB_FLOWS)
        .map(|f| {
            let prefix = fab_prefix((rng.next() % FAB_PREFIXES as u64) as usize);
            let object = prefix.append(8, format!("obj{f}").as_bytes());
            if prefix.len() < 4 {
                object.append(8, b"hd")
            } else {
                object
            }
        })
        .collect();
    let interests: Vec<Name> =
        (0..FAB_LOOKUPS).map(|k| flows[(rng.next() % FAB_FLOWS as u64) as usize].append_segment(k as u64)).collect();
    for n in &interests {
        assert!(matches!(n.len(), 5 | 6), "{n} should have 5 or 6 components");
        assert!(fib.longest_prefix_match(n).is_some(), "{n} should hit");
    }

    let mut group = c.benchmark_group("fab_10000_prefixes_1000_flows");
    group.throughput(Throughput::Elements(1));
    group.bench_function("lpm", |b| {
        let mut k = 0usize;
        b.iter(|| {
            let n = &interests[k & (FAB_LOOKUPS - 1)];
            k = k.wrapping_add(1);
            black_box(fib.longest_prefix_match(black_box(n)).map(|(i, _)| i))
        })
    });
    for capacity in [1_000, 100] {
        let mut fab = Fab::new(capacity);
        // Warm up, then count one pass: the hit ratio the timed loop runs at.
        for n in interests.iter().chain(&interests) {
            fab.lookup(n, &fib);
        }
        let before = fab.counters;
        for n in &interests {
            assert_eq!(fab.lookup(n, &fib), fib.longest_prefix_match(n).map(|(i, _)| i));
        }
        let hits = fab.counters.hits - before.hits;
        eprintln!("fab capacity {capacity}: hit ratio {:.3}", hits as f64 / FAB_LOOKUPS as f64);
        group.bench_function(format!("fab_capacity_{capacity}"), |b| {
            let mut k = 0usize;
            b.iter(|| {
                let n = &interests[k & (FAB_LOOKUPS - 1)];
                k = k.wrapping_add(1);
                black_box(fab.lookup(black_box(n), &fib))
            })
        });
    }
    group.finish();
}

// ---------------------------------------------------------------------------------------------
// PIT
// ---------------------------------------------------------------------------------------------

const PIT_PENDING: usize = 10_000;
/// Interest pool: larger than the pending set, so the name inserted is never one still pending.
const PIT_POOL: usize = 16_384;

fn bench_pit(c: &mut Criterion) {
    let lifetime = Time::from_secs(4);
    let pool: Vec<Arc<Interest>> = (0..PIT_POOL)
        .map(|i| Arc::new(Interest::new(name(&format!("/video/c{}/v=1/seg={i}", i % 64)), i as u32, lifetime)))
        .collect();
    let data_names: Vec<Name> = pool.iter().map(|i| i.name.clone()).collect();
    let face = FaceId(1);

    // One forwarder's Interest path (find_or_insert, in-record, expiry) and Data path
    // (find_for_data, remove), plus the `next_expiry` poll the forwarder makes, which drops the
    // satisfied entries' stale heap items and so keeps the expiry heap at the pending count.
    let insert = |pit: &mut PendingInterestTable, now: Time, interest: &Arc<Interest>| {
        let (id, _new) = pit.find_or_insert(interest);
        let entry = pit.get_mut(id).expect("just inserted");
        entry.insert_or_update_in_record(now, face, interest, false, NO_PIT_HINT);
        let expiry = entry.in_records_expiry();
        pit.set_expiry(id, expiry);
    };

    let mut group = c.benchmark_group("pit_10000_pending");
    group.throughput(Throughput::Elements(1));
    group.bench_function("insert_then_satisfy_oldest", |b| {
        let mut pit = PendingInterestTable::new();
        let mut now = Time::ZERO;
        for interest in &pool[..PIT_PENDING] {
            insert(&mut pit, now, interest);
            now += Time::from_micros(1);
        }
        let mut oldest = 0usize;
        let mut matches: SmallVec<[PitId; 2]> = SmallVec::new();
        b.iter(|| {
            let newest = (oldest + PIT_PENDING) % PIT_POOL;
            insert(&mut pit, now, &pool[newest]);
            matches.clear();
            pit.find_for_data(&data_names[oldest], &mut matches);
            for &id in &matches {
                black_box(pit.remove(id));
            }
            black_box(pit.next_expiry());
            oldest = (oldest + 1) % PIT_POOL;
            now += Time::from_micros(1);
        });
        assert_eq!(pit.len(), PIT_PENDING, "the ring must stay in steady state");
    });
    group.finish();
}

// ---------------------------------------------------------------------------------------------
// CS
// ---------------------------------------------------------------------------------------------

const CS_CAPACITY: usize = 10_000;
/// Data pool for inserts: over three times the capacity, so every insert is a new name and evicts.
const CS_POOL: usize = 32_768;

fn cs_name(i: usize) -> Name {
    name(&format!("/video/c{}/v=1/seg={i}", i % 64))
}

fn bench_cs(c: &mut Criterion) {
    let now = Time::ZERO;
    let payload = zero_payload(1024);
    let datas: Vec<Arc<Data>> = (0..CS_POOL).map(|i| Arc::new(Data::new(cs_name(i), payload.clone()))).collect();
    let lifetime = Time::from_secs(4);
    let mut rng = XorShift(0xD1B5_4A32_D192_ED03);
    // Interests for cached names (the first CS_CAPACITY Data) and for names never inserted.
    let mut hits: Vec<Interest> = (0..CS_CAPACITY).map(|i| Interest::new(cs_name(i), i as u32, lifetime)).collect();
    let mut misses: Vec<Interest> = (0..CS_CAPACITY)
        .map(|i| Interest::new(name(&format!("/audio/c{}/v=1/seg={i}", i % 64)), i as u32, lifetime))
        .collect();
    rng.shuffle(&mut hits);
    rng.shuffle(&mut misses);

    let full_store = || {
        let mut cs = ContentStore::new(CsPolicy::Lru, CS_CAPACITY);
        for d in &datas[..CS_CAPACITY] {
            cs.insert(now, d.clone());
        }
        assert_eq!(cs.len(), CS_CAPACITY);
        cs
    };

    let mut group = c.benchmark_group("cs_lru_10000_full");
    group.throughput(Throughput::Elements(1));
    group.bench_function("insert_evict", |b| {
        let mut cs = full_store();
        let mut k = CS_CAPACITY;
        b.iter(|| {
            // The Arc clone (a reference-count bump) stands for the forwarder handing its Data over.
            cs.insert(now, datas[k % CS_POOL].clone());
            k += 1;
        });
        assert_eq!(cs.len(), CS_CAPACITY);
    });
    group.bench_function("find_hit", |b| {
        let mut cs = full_store();
        let mut k = 0usize;
        b.iter(|| {
            let hit = cs.find(now, black_box(&hits[k % CS_CAPACITY]));
            k += 1;
            black_box(hit)
        });
    });
    group.bench_function("find_miss", |b| {
        let mut cs = full_store();
        let mut k = 0usize;
        b.iter(|| {
            let miss = cs.find(now, black_box(&misses[k % CS_CAPACITY]));
            k += 1;
            black_box(miss)
        });
    });
    group.finish();
    // Sanity: the pools do what their names say.
    let mut cs = full_store();
    assert!(hits.iter().all(|i| cs.find(now, i).is_some()));
    assert!(misses.iter().all(|i| cs.find(now, i).is_none()));
}

// ---------------------------------------------------------------------------------------------
// Names
// ---------------------------------------------------------------------------------------------

const NAME_POOL: usize = 4_096;

fn bench_name(c: &mut Criterion) {
    // 4-component URIs with typed components, as consumers and scenarios write them.
    let uris: Vec<String> = (0..NAME_POOL).map(|i| format!("/video/c{}/v=1/seg={i}", i % 64)).collect();
    let bases: Vec<Name> = (0..NAME_POOL).map(|i| name(&format!("/video/c{}/v=1", i % 64))).collect();

    let mut group = c.benchmark_group("name");
    group.throughput(Throughput::Elements(1));
    group.bench_function("parse_4_components", |b| {
        let mut k = 0usize;
        b.iter(|| {
            let n = Name::parse(black_box(&uris[k & (NAME_POOL - 1)]));
            k = k.wrapping_add(1);
            black_box(n)
        })
    });
    group.bench_function("append_segment_to_3_components", |b| {
        let mut k = 0usize;
        b.iter(|| {
            let n = black_box(&bases[k & (NAME_POOL - 1)]).append_segment(black_box(k as u64));
            k = k.wrapping_add(1);
            black_box(n)
        })
    });
    group.finish();
}

criterion_group!(benches, bench_fib, bench_fab, bench_pit, bench_cs, bench_name);
criterion_main!(benches);
