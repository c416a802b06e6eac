//! The catalog consumer end to end (issue 20's workload, SMIC §5): objects back to back over one
//! link, their completion times against a hand derivation, the per-object table and its summary,
//! determinism, and the errors of bad `catalog` keys.
//!
//! Numbers used below (wire sizes as tests/engine.rs derives them from docs/wire-format.md):
//! - Data /p/seg=N (2-byte segment) with a 1024-byte payload is 1080 B, its Name 9 B. The name
//!   /cat/k/seg=N (k one digit, N < 256) is 13 B: [8 3 "cat"] 5 + [8 1 "k"] 3 + [50 1 N] 3, plus
//!   2. So 1084 B (867.2 us at 10 Mbit/s), and the last segment 7 B more with its FinalBlockId
//!   [26 5 [50 1 99]]: 1091 B (872.8 us).
//! - The Interest /p/seg=N is 21 B, so /cat/k/seg=N is 25 B: 20 us at 10 Mbit/s.
//! - A window of 200 sends all 100 Interests of an object at once; the producer answers each as it
//!   arrives, every 20 us, faster than the Data leave, so the Data go back to back. The last Data
//!   arrives 10 ms (Interest) + 20 us (the first Interest's serialisation) + 99 x 867.2 us +
//!   872.8 us + 10 ms = 106.7456 ms after the object's Interests left.

use crate::common;

use common::{parse, run};

const OBJECT_S: f64 = 0.020 + 0.000_020 + 99.0 * 0.000_867_2 + 0.000_872_8;

fn scenario(duration: &str, seed: u64, cc: &str) -> String {
    format!(
        r#"
[simulation]
duration = "{duration}"
seed = {seed}

[nodes]
c = {{}}
p = {{}}

[[links]]
between = ["c", "p"]
bandwidth = "10Mbps"
delay = "10ms"

[[producers]]
node = "p"
prefix = "/cat"
payload = 1024
segments = 100

[[consumers]]
node = "c"
name = "/cat"
segments = 100
cc = {cc}
catalog = {{ objects = 9, alpha = 1.0 }}
"#
    )
}

fn fixed() -> &'static str {
    r#"{ algorithm = "fixed-window", window = 200 }"#
}

#[test]
fn objects_follow_back_to_back_each_taking_the_hand_derived_time() {
    let r = run(&scenario("1s", 1, fixed()));
    let o = &r.objects;
    // 1 s / 106.7456 ms = 9.37: nine objects complete, the tenth is under way at the end.
    assert_eq!(o.rank.len(), 10);
    assert!(o.consumer.iter().all(|&c| c == 0));
    for i in 0..9 {
        let took = o.end_s[i] - o.start_s[i];
        assert!((took - OBJECT_S).abs() < 1e-6, "object {i} took {took} s, not {OBJECT_S}");
        assert_eq!((o.bytes[i], o.paths[i]), (100 * 1024, 1));
        // The next object starts the instant this one ends.
        assert_eq!(o.start_s[i + 1], o.end_s[i]);
        assert!((1..=9).contains(&o.rank[i]));
    }
    assert_eq!(o.start_s[0], 0.0);
    assert!(o.end_s[9].is_nan());
    // The tenth has had 1 s - 9 x 106.7456 ms = 39.2896 ms; its i-th Data arrives at 20.02 ms +
    // i x 0.8672 ms, so floor((39.2896 - 20.02) / 0.8672) = 22 of them (the 22nd at 39.0984 ms).
    assert_eq!(o.bytes[9], 22 * 1024);
    // Every payload byte belongs to one object.
    let consumer = &r.summary.consumers["c"];
    assert_eq!(o.bytes.iter().sum::<u64>(), consumer.payload_bytes);
    let catalog = consumer.catalog.expect("a catalog consumer has its summary");
    assert_eq!(catalog.objects_completed, 9);
    assert!((catalog.mean_completion_s.unwrap() - OBJECT_S).abs() < 1e-6);
}

#[test]
fn the_same_seed_gives_the_same_objects_and_another_seed_other_ranks() {
    let a = run(&scenario("2s", 1, fixed()));
    // Debug text, since the unfinished object's end is NaN (not equal to itself).
    assert_eq!(format!("{:?}", a.objects), format!("{:?}", run(&scenario("2s", 1, fixed())).objects));
    let b = run(&scenario("2s", 2, fixed()));
    assert_ne!(a.objects.rank, b.objects.rank);
}

#[test]
fn the_controller_does_not_change_which_objects_are_drawn() {
    // The objects come from their own stream, not the nonces': a slower controller fetches fewer
    // of the same sequence.
    let fast = run(&scenario("2s", 3, fixed()));
    let slow = run(&scenario("2s", 3, r#"{ algorithm = "fixed-window", window = 4 }"#));
    let n = slow.objects.rank.len();
    assert!(n < fast.objects.rank.len());
    assert_eq!(slow.objects.rank, fast.objects.rank[..n]);
}

#[test]
fn a_consumer_of_one_object_has_no_object_rows_and_no_catalog_summary() {
    let text = scenario("1s", 1, fixed()).replace("catalog = { objects = 9, alpha = 1.0 }\n", "");
    let r = run(&text.replace("name = \"/cat\"", "name = \"/cat/1\""));
    assert!(r.objects.rank.is_empty());
    assert!(r.summary.consumers["c"].catalog.is_none());
}

#[test]
fn restart_is_read_and_off_by_default() {
    let base = scenario("1s", 1, fixed());
    let restart = |text: &str| parse(text).expect("valid").consumers[0].catalog.expect("a catalog").restart;
    assert!(!restart(&base));
    assert!(restart(&base.replace("{ objects = 9, alpha = 1.0 }", "{ objects = 9, alpha = 1.0, restart = true }")));
    // The think time between objects: none by default, a duration when given.
    let gap = |text: &str| parse(text).expect("valid").consumers[0].catalog.expect("a catalog").gap;
    assert_eq!(gap(&base), ndnflow_core::Time::ZERO);
    assert_eq!(gap(&base.replace("alpha = 1.0 }", "alpha = 1.0, gap = \"1s\" }")), ndnflow_core::Time::from_secs(1));
}

#[test]
fn bad_catalog_keys_name_their_field() {
    let base = scenario("1s", 1, fixed());
    let with = |catalog: &str| base.replace("{ objects = 9, alpha = 1.0 }", catalog);
    for (text, field, says) in [
        (with("{ objects = 9, alpha = 0 }"), "consumers[0].catalog.alpha", "must be above 0"),
        (with("{ objects = 0 }"), "consumers[0].catalog.objects", "at least 1"),
        (with("{ objects = 9, q = -1 }"), "consumers[0].catalog.q", "must not be negative"),
        (with("{ objects = 9, s = 1 }"), "consumers[0].catalog.s", "unknown"),
        (with("{ objects = 20000000 }"), "consumers[0].catalog.objects", "more than"),
        (with("{ objects = 9, restart = 1 }"), "consumers[0].catalog.restart", "expected"),
        (with("{ objects = 9, gap = \"soon\" }"), "consumers[0].catalog.gap", "soon"),
        (base.replace("segments = 100\ncc", "cc"), "consumers[0].segments", "a catalog needs segments"),
    ] {
        let e = parse(&text).expect_err("should be rejected");
        let shown = e.to_string();
        assert_eq!(e.field.as_deref(), Some(field), "{shown}");
        assert!(shown.contains(says), "{shown:?} lacks {says:?}");
    }
}
