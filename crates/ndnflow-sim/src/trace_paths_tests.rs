//! The path rows: per-bin Data as differences of the paths' counts, and each row keyed by the
//! route its path had at that sample.

use super::*;

fn path(tags: &[u64], data: u64) -> PathReport {
    path_in(tags, data, "in-use")
}

fn path_in(tags: &[u64], data: u64, state: &'static str) -> PathReport {
    PathReport {
        tags: tags.to_vec(),
        tag_stack: true,
        state,
        window: 1.0,
        srtt: None,
        data,
        losses: 0,
        decreases: 0,
        timeouts: 0,
        sharing: None,
        bandwidth: None,
    }
}

/// Samples at 1, 2, 3 s of one consumer whose single path is reported as `reports`.
fn record(reports: [(&[u64], u64); 3]) -> (PathSeries, Vec<PathName>) {
    let mut r = Recorder::new(0, 1);
    for (i, (tags, data)) in reports.into_iter().enumerate() {
        let sample = ConsumerSample {
            index: 0,
            stats: ConsumerStats::default(),
            window: None,
            paths: Some(vec![path(tags, data)]),
        };
        r.sample_consumers(Time::from_secs(i as u64 + 1), std::iter::once(sample)).unwrap();
    }
    let names = r.path_names(&[ConsumerName { id: "c".into(), node: "n".into() }]);
    (r.paths, names)
}

#[test]
fn a_path_whose_route_changes_gets_a_row_key_per_route_and_keeps_its_count() {
    // A SMIC sub-flow joined by path id 2, then left by it: counts 5, 8, 10.
    let (rows, names) = record([(&[1], 5), (&[1, 2], 8), (&[1], 10)]);
    assert_eq!(rows.data, [5, 3, 2]);
    assert_eq!(rows.index, [0, 0, 0]);
    assert_eq!(rows.path, [0, 1, 0], "the first route's key again for the third row");
    let routes: Vec<&str> = names.iter().map(|n| n.route.as_str()).collect();
    assert_eq!(routes, ["1", "1 2"]);
    assert!(names.iter().all(|n| n.index == 0));
}

#[test]
fn a_path_whose_route_stays_keeps_one_key() {
    let (rows, names) = record([(&[3, 1, 0], 4), (&[3, 1, 0], 4), (&[3, 1, 0], 9)]);
    assert_eq!((rows.data, rows.path), (vec![4, 0, 5], vec![0, 0, 0]));
    assert_eq!(names.len(), 1);
}

#[test]
fn in_use_is_every_state_but_idle_and_failed() {
    let mut r = Recorder::new(0, 1);
    let states = ["in-use", "primary", "secondary", "idle", "failed"];
    let paths = states.iter().enumerate().map(|(k, &state)| path_in(&[k as u64], 0, state)).collect();
    let sample = ConsumerSample { index: 0, stats: ConsumerStats::default(), window: None, paths: Some(paths) };
    r.sample_consumers(Time::from_secs(1), std::iter::once(sample)).unwrap();
    assert_eq!((r.paths.in_use, r.paths.failed), (vec![1, 1, 1, 0, 0], vec![0, 0, 0, 0, 1]));
}
