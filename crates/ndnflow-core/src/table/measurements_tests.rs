//! Measurements: records per prefix and face, and NFD's entry lifetime.

use super::*;

#[test]
fn records_are_per_prefix_and_per_face_in_face_order() {
    let mut m: Measurements<u32> = Measurements::default();
    let p = Name::parse("/video").unwrap();
    let q = Name::parse("/audio").unwrap();
    *m.get_or_insert(&p, FaceId(3)) += 5;
    *m.get_or_insert(&p, FaceId(1)) += 2;
    *m.get_or_insert(&p, FaceId(3)) += 1;
    *m.get_or_insert(&q, FaceId(3)) += 9;
    assert_eq!(m.faces(&p), &[(FaceId(1), 2), (FaceId(3), 6)]);
    assert_eq!(m.get(&q, FaceId(3)), Some(&9));
    assert_eq!(m.get(&q, FaceId(1)), None);
}

#[test]
fn an_entry_lives_four_seconds_from_its_creation_and_use_does_not_extend_it() {
    let mut m: Measurements<u32> = Measurements::nfd();
    let p = Name::parse("/p").unwrap();
    *m.entry(Time::from_secs(1), &p, FaceId(1)) = 7;
    // Written again at 3 s: still the entry made at 1 s, due at 1 + 4 = 5 s.
    *m.entry(Time::from_secs(3), &p, FaceId(2)) = 8;
    assert_eq!(m.next_expiry(), Some(Time::from_secs(5)));
    assert_eq!(m.find(Time::from_millis(4999), &p, FaceId(1)), Some(&7));
    assert_eq!(m.find(Time::from_secs(5), &p, FaceId(1)), None);
    // A write after the expiry starts afresh: face 2's record went with the entry.
    *m.entry(Time::from_secs(6), &p, FaceId(1)) += 1;
    assert_eq!(m.find(Time::from_secs(6), &p, FaceId(1)), Some(&1));
    assert_eq!(m.find(Time::from_secs(6), &p, FaceId(2)), None);
    assert_eq!(m.next_expiry(), Some(Time::from_secs(10)));
}

#[test]
fn a_strategy_extends_an_entry_and_removes_the_expired() {
    let mut m: Measurements<u32> = Measurements::nfd();
    let (p, q) = (Name::parse("/p").unwrap(), Name::parse("/q").unwrap());
    m.entry(Time::ZERO, &p, FaceId(1));
    m.entry(Time::ZERO, &q, FaceId(1));
    // At 3 s, /p is kept 10 s more: until 13 s. A shorter extension never shortens it.
    m.extend_lifetime(Time::from_secs(3), &p, Time::from_secs(10));
    m.extend_lifetime(Time::from_secs(3), &p, Time::from_secs(1));
    assert_eq!(m.next_expiry(), Some(Time::from_secs(4)), "/q's initial 4 s");
    assert_eq!(m.remove_expired(Time::from_secs(4)), 1);
    assert_eq!((m.len(), m.next_expiry()), (1, Some(Time::from_secs(13))));
    // An expired entry is not brought back by an extension.
    m.extend_lifetime(Time::from_secs(13), &p, Time::from_secs(10));
    assert_eq!(m.find(Time::from_secs(13), &p, FaceId(1)), None);
    assert_eq!(m.remove_expired(Time::from_secs(13)), 1);
    assert!(m.is_empty());
}

#[test]
fn a_table_without_lifetime_keeps_its_entries() {
    let mut m: Measurements<u32> = Measurements::default();
    let p = Name::parse("/p").unwrap();
    *m.entry(Time::ZERO, &p, FaceId(1)) = 3;
    assert_eq!(m.find(Time::from_secs(1_000_000), &p, FaceId(1)), Some(&3));
    assert_eq!((m.next_expiry(), m.remove_expired(Time::MAX)), (None, 0));
}
