use std::collections::{BinaryHeap, HashMap, VecDeque};

use super::*;

/// Lifts the limit when a test ends, passing or not: tests share their thread with later ones.
struct Limit;
impl Limit {
    fn set(bytes: usize) -> Limit {
        set_test_limit(bytes);
        Limit
    }
}
impl Drop for Limit {
    fn drop(&mut self) {
        set_test_limit(usize::MAX);
    }
}

#[test]
fn room_is_free_below_capacity_and_grows_by_doubling() {
    let mut v: Vec<u64> = Vec::with_capacity(4);
    v.extend([1, 2, 3]);
    v.room_for_one("v").unwrap();
    assert_eq!(v.capacity(), 4, "a free slot needs no allocation");
    v.push(4);
    v.room_for_one("v").unwrap();
    // Full at 4: try_reserve(1) grows as push would, to twice the capacity.
    assert_eq!(v.capacity(), 8);
}

#[test]
fn a_refused_growth_is_an_error_naming_the_container_and_size() {
    let _limit = Limit::set(1000);
    let mut v: Vec<u64> = Vec::new();
    for i in 0..64 {
        v.room_for_one("v").unwrap();
        v.push(i);
    }
    // 64 u64s full: doubling asks for 2 x 64 x 8 = 1024 bytes, past the 1000 allowed.
    assert_eq!(v.room_for_one("records"), Err(OutOfMemory { container: "records", bytes: 1024 }));
    assert_eq!(v.capacity(), 64, "nothing was allocated");
}

#[test]
fn every_guarded_container_reports_a_refusal() {
    let _limit = Limit::set(0);
    let mut d: VecDeque<u8> = VecDeque::new();
    let mut h: BinaryHeap<u8> = BinaryHeap::new();
    let mut m: HashMap<u8, u8> = HashMap::new();
    let mut t: hashbrown::HashTable<u32> = hashbrown::HashTable::new();
    assert!(d.room_for_one("d").is_err());
    assert!(h.room_for_one("h").is_err());
    assert!(m.room_for_one("m").is_err());
    assert!(room_in_table(&mut t, "t", |&x| u64::from(x)).is_err());
}

#[test]
fn the_pit_refuses_an_entry_it_cannot_hold() {
    use crate::table::PendingInterestTable;
    use crate::{Interest, Name};
    let mut pit = PendingInterestTable::new();
    let interest = |i: u64| {
        std::sync::Arc::new(Interest::new(Name::parse("/a").unwrap().append_segment(i), 1, crate::Time::from_secs(4)))
    };
    pit.room_for_one().unwrap();
    pit.find_or_insert(&interest(0));
    // The first slots (128 bytes each) are in place; the next doubling asks for more than 0 bytes.
    let _limit = Limit::set(0);
    let mut refused = None;
    for i in 1..1000 {
        if let Err(e) = pit.room_for_one() {
            refused = Some(e);
            break;
        }
        pit.find_or_insert(&interest(i));
    }
    assert!(refused.is_some_and(|e| e.container.starts_with("PIT")), "{refused:?}");
}
