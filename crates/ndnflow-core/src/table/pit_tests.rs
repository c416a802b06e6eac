//! PIT: aggregation, Data matching (by address, bytes or hint), slot reuse, selectors and lazy expiry.

use super::*;
use crate::packet::NO_PIT_HINT;

fn interest(name: &str, nonce: u32) -> Arc<Interest> {
    Arc::new(Interest::new(Name::parse(name).unwrap(), nonce, Time::from_secs(2)))
}

#[test]
fn same_name_aggregates_into_one_entry_with_two_in_records() {
    let mut pit = PendingInterestTable::new();
    let a = interest("/x/seg=1", 1);
    let b = interest("/x/seg=1", 2);
    let (id, new) = pit.find_or_insert(&a);
    assert!(new);
    pit.get_mut(id).unwrap().insert_or_update_in_record(Time::ZERO, FaceId(1), &a, false, NO_PIT_HINT);
    let (id2, new2) = pit.find_or_insert(&b);
    assert_eq!((id2, new2), (id, false));
    pit.get_mut(id).unwrap().insert_or_update_in_record(Time::from_millis(1), FaceId(2), &b, false, NO_PIT_HINT);
    let e = pit.get(id).unwrap();
    assert_eq!(e.in_records.len(), 2);
    assert_eq!(e.in_records_expiry(), Time::from_millis(2001));
}

#[test]
fn data_names_match_by_address_or_by_bytes() {
    let mut pit = PendingInterestTable::new();
    let i = interest("/x/seg=1", 1);
    let (id, _) = pit.find_or_insert(&i);
    let mut out = SmallVec::new();
    pit.find_for_data(&i.name, &mut out); // the Interest's own name: same allocation
    pit.find_for_data(&Name::parse("/x/seg=1").unwrap(), &mut out); // an equal copy
    pit.find_for_data(&Name::parse("/x/seg=2").unwrap(), &mut out);
    assert_eq!(out.as_slice(), &[id, id]);
    assert_ne!(i.name.address(), Name::parse("/x/seg=1").unwrap().address());
}

/// What `find_for_data_hinted` finds, with and without the hint.
fn hinted(pit: &PendingInterestTable, name: &str, hint: u32) -> (Vec<PitId>, Vec<PitId>) {
    let (mut with, mut without) = (SmallVec::new(), SmallVec::new());
    let name = Name::parse(name).unwrap();
    pit.find_for_data_hinted(&name, hint, &mut with);
    pit.find_for_data(&name, &mut without);
    (with.to_vec(), without.to_vec())
}

#[test]
fn a_hint_is_trusted_only_where_it_names_the_data_and_its_entry_is_alone() {
    let mut pit = PendingInterestTable::new();
    let (a, _) = pit.find_or_insert(&interest("/x/seg=1", 1));
    let (b, _) = pit.find_or_insert(&interest("/x/seg=2", 2));
    // Right slot, wrong slot, out of range, none: the answer is always the probe's.
    assert_eq!(hinted(&pit, "/x/seg=1", a.hint()), (vec![a], vec![a]));
    assert_eq!(hinted(&pit, "/x/seg=1", b.hint()), (vec![a], vec![a]));
    assert_eq!(hinted(&pit, "/x/seg=3", a.hint()), (vec![], vec![]));
    assert_eq!(hinted(&pit, "/x/seg=1", 99), (vec![a], vec![a]));
    assert_eq!(hinted(&pit, "/x/seg=1", NO_PIT_HINT), (vec![a], vec![a]));
    // A stale hint (the slot reused by another name) falls back too.
    pit.remove(a);
    let (c, _) = pit.find_or_insert(&interest("/y", 3));
    assert_eq!(c.hint(), a.hint());
    assert_eq!(hinted(&pit, "/x/seg=1", a.hint()), (vec![], vec![]));
    // A second entry of the name (other selectors) or a CanBePrefix entry: the hinted slot
    // is not the whole answer, and the probe gives it.
    let mut fresh = Interest::new(Name::parse("/x/seg=2").unwrap(), 4, Time::from_secs(2));
    fresh.must_be_fresh = true;
    let (b2, _) = pit.find_or_insert(&Arc::new(fresh));
    assert_eq!(hinted(&pit, "/x/seg=2", b.hint()), (vec![b2, b], vec![b2, b]));
    pit.remove(b2);
    let mut prefix = Interest::new(Name::parse("/x").unwrap(), 5, Time::from_secs(2));
    prefix.can_be_prefix = true;
    let (p, _) = pit.find_or_insert(&Arc::new(prefix));
    assert_eq!(hinted(&pit, "/x/seg=2", b.hint()), (vec![b, p], vec![b, p]));
}

#[test]
fn a_name_freed_by_a_retransmission_never_matches_the_entry() {
    let mut pit = PendingInterestTable::new();
    let first = interest("/x/seg=1", 1);
    let (a, _) = pit.find_or_insert(&first);
    pit.get_mut(a).unwrap().insert_or_update_in_record(Time::ZERO, FaceId(1), &first, false, NO_PIT_HINT);
    // The same downstream retransmits: a new Interest, whose name is a new allocation. The
    // entry and its in-record now hold the new one, and the first name's memory is freed.
    let again = interest("/x/seg=1", 2);
    pit.get_mut(a).unwrap().insert_or_update_in_record(Time::from_millis(1), FaceId(1), &again, false, NO_PIT_HINT);
    let freed = first.name.address();
    drop(first);
    // Names of the same size, until the allocator hands that memory out again: glibc's
    // per-size free lists do at once. (Another allocator may not, and then no name below can
    // match whatever the table does.)
    let mut others = Vec::new();
    while others.len() < 64 {
        others.push(Name::parse("/x/seg=2").unwrap());
        if others.last().map(Name::address) == Some(freed) {
            break;
        }
    }
    assert_eq!(hinted(&pit, "/x/seg=1", a.hint()), (vec![a], vec![a]));
    for other in &others {
        let mut out = SmallVec::new();
        pit.find_for_data_hinted(other, a.hint(), &mut out);
        assert!(out.is_empty(), "a Data of /x/seg=2 at {:#x} matched /x/seg=1's entry", other.address());
    }
}

#[test]
fn removed_ids_never_reach_a_reused_slot() {
    let mut pit = PendingInterestTable::new();
    let (old, _) = pit.find_or_insert(&interest("/a", 1));
    pit.remove(old);
    let (new, _) = pit.find_or_insert(&interest("/b", 1));
    assert!(pit.get(old).is_none());
    assert_eq!(pit.get(new).unwrap().name(), &Name::parse("/b").unwrap());
    assert_eq!(pit.len(), 1);
}

#[test]
fn data_matches_exact_names_and_can_be_prefix_entries() {
    let mut pit = PendingInterestTable::new();
    let (exact, _) = pit.find_or_insert(&interest("/a/b", 1));
    let mut cbp = Interest::new(Name::parse("/a").unwrap(), 2, Time::from_secs(2));
    cbp.can_be_prefix = true;
    let (prefix, _) = pit.find_or_insert(&Arc::new(cbp));
    let (_other, _) = pit.find_or_insert(&interest("/a", 3)); // exact /a: not matched by /a/b
    let mut out = SmallVec::new();
    pit.find_for_data(&Name::parse("/a/b").unwrap(), &mut out);
    assert_eq!(out.as_slice(), &[exact, prefix]);
}

#[test]
fn entries_of_one_name_with_other_selectors_come_and_go_independently() {
    let mut pit = PendingInterestTable::new();
    let variant = |cbp: bool, mbf: bool| {
        let mut i = Interest::new(Name::parse("/a").unwrap(), 1, Time::from_secs(2));
        i.can_be_prefix = cbp;
        i.must_be_fresh = mbf;
        Arc::new(i)
    };
    let (plain, fresh, prefix) = (variant(false, false), variant(false, true), variant(true, false));
    let ids: Vec<PitId> = [&plain, &fresh, &prefix].iter().map(|i| pit.find_or_insert(i).0).collect();
    pit.remove(ids[1]); // the middle of the chain
    assert_eq!(pit.find(&plain), Some(ids[0]));
    assert_eq!(pit.find(&fresh), None);
    assert_eq!(pit.find(&prefix), Some(ids[2]));
    pit.remove(ids[2]); // the head
    assert_eq!(pit.find(&plain), Some(ids[0]));
    let mut out = SmallVec::new();
    pit.find_for_data(&Name::parse("/a").unwrap(), &mut out);
    assert_eq!(out.as_slice(), &[ids[0]]);
    pit.remove(ids[0]);
    assert!(pit.is_empty() && pit.find(&plain).is_none());
}

#[test]
fn expiry_is_lazy_and_skips_removed_entries() {
    let mut pit = PendingInterestTable::new();
    let (a, _) = pit.find_or_insert(&interest("/a", 1));
    let (b, _) = pit.find_or_insert(&interest("/b", 1));
    pit.set_expiry(a, Time::from_millis(10));
    pit.set_expiry(b, Time::from_millis(20));
    assert_eq!(pit.next_expiry(), Some(Time::from_millis(10)));
    pit.remove(a);
    // A lower bound: /a's old time until the next pop cleans it away.
    assert_eq!(pit.next_expiry(), Some(Time::from_millis(10)));
    assert_eq!(pit.pop_expired(Time::from_millis(19)), None);
    assert_eq!(pit.next_expiry(), Some(Time::from_millis(20)));
    assert_eq!(pit.pop_expired(Time::from_millis(20)), Some(b));
    assert_eq!(pit.next_expiry(), None);
}

#[test]
fn reserved_bytes_count_what_the_table_grew_to_and_keeps() {
    // 1,000 entries: the slots grow by doubling from 4 (std's first capacity for elements under
    // 1 KiB) to 1,024, at 128 B each = 131,072 B, and each live entry counts its Interest. With
    // every entry gone the slots keep their 1,024 places (reused, never given back), so the table
    // still counts at least 131,072 B: the memory a runaway window left behind. Removing adds the
    // 1,000 freed slot numbers to the free list (grown by doubling to 1,024 places of 4 B).
    let mut pit = PendingInterestTable::new();
    // Each Interest: its struct and the Arc's two counts; its name "/x/seg=N": 24 B of count, head
    // and length, then the wire (the component "x" in 3 B, the segment in 2 B of type and length
    // and N as a NonNegativeInteger of 1 B below 256, 2 B from there), and 4 B of end offset and
    // 8 B of prefix hash per component.
    let name_bytes = |n: usize| 24 + 3 + 2 + if n < 256 { 1 } else { 2 } + 2 * (4 + 8);
    let interest_bytes = std::mem::size_of::<Interest>() + 2 * std::mem::size_of::<usize>();
    let all: usize = (0..1000).map(|n| interest_bytes + name_bytes(n)).sum();
    assert_eq!(pit.reserved_bytes(), 0);
    let mut ids = Vec::new();
    for n in 0..1000 {
        let (id, _) = pit.find_or_insert(&interest(&format!("/x/seg={n}"), 1));
        pit.set_expiry(id, Time::from_secs(2));
        ids.push(id);
    }
    let names: usize = (0..1000).map(name_bytes).sum();
    assert_eq!(pit.name_bytes(), names);
    let full = pit.reserved_bytes() + pit.name_bytes();
    assert!(full >= 1024 * 128 + all, "{full} B");
    for id in ids {
        pit.remove(id);
    }
    assert_eq!(pit.len(), 0);
    assert_eq!(pit.name_bytes(), 0);
    let empty = pit.reserved_bytes();
    assert!(empty >= 1024 * 128, "{empty} B");
    assert_eq!(full - empty, all - 1024 * 4, "only the Interests and names leave with their entries");
}
