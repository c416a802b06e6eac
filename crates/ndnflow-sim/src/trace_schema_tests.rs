use super::*;

/// The column names the table after `heading` in docs/protocols/links.md lists, in order ("| `src`,
/// `dst` | ..." gives both).
fn documented(heading: &str) -> Vec<String> {
    let doc = include_str!("../../../docs/protocols/links.md");
    let start = doc.find(heading).unwrap_or_else(|| panic!("links.md has no {heading}"));
    let rows = doc[start..].lines().skip_while(|l| !l.starts_with('|')).take_while(|l| l.starts_with('|'));
    rows.skip(2) // header and rule
        .flat_map(|row| {
            let first = row.split('|').nth(1).unwrap_or("");
            first.split('`').skip(1).step_by(2).map(str::to_string).collect::<Vec<_>>()
        })
        .collect()
}

fn names<S, L>(table: &Table<S, L>) -> Vec<String> {
    table.columns.iter().map(|c| c.name.to_string()).collect()
}

#[test]
fn the_documentation_lists_exactly_these_columns() {
    assert_eq!(documented("### `links.parquet`"), names(&LINKS));
    assert_eq!(documented("### `consumers.parquet`"), names(&CONSUMERS));
    assert_eq!(documented("### `paths.parquet`"), names(&PATHS));
    assert_eq!(documented("### `objects.parquet`"), names(&OBJECTS));
    assert_eq!(documented("### `forwarding.parquet`"), names(&FORWARDING));
    assert_eq!(documented("### `interests.parquet`"), names(&INTERESTS));
    assert_eq!(documented("### `faces.parquet`"), names(&FACES));
    assert_eq!(documented("### `nodes.parquet`"), names(&NODES));
}

/// (name, value) of every numeric column of `table` on row 0 of `series`.
fn row0<S, L>(table: &Table<S, L>, series: &S) -> Vec<(&'static str, f64)> {
    let value = |c: &Column<S, L>| match c.values {
        Values::Float(f) => Some(f(series)[0]),
        Values::Int(f) => Some(f(series)[0] as f64),
        Values::Label(_) => None,
    };
    table.columns.iter().filter_map(|c| value(c).map(|v| (c.name, v))).collect()
}

#[test]
fn each_link_column_reads_its_own_counter() {
    // Every field holds a different number, so a column wired to the wrong field shows.
    let s = LinkSeries {
        time_s: vec![0.5],
        dir: vec![0],
        bytes: vec![1],
        packets: vec![2],
        interests: vec![3],
        data: vec![4],
        nacks: vec![5],
        drops: vec![6],
        marks: vec![7],
        losses: vec![8],
        throughput_bps: vec![9.0],
        queue_packets: vec![10],
        queue_bytes: vec![11],
        sojourn_ms: vec![12.0],
    };
    let expected = [
        ("time_s", 0.5),
        ("bytes", 1.0),
        ("packets", 2.0),
        ("interests", 3.0),
        ("data", 4.0),
        ("nacks", 5.0),
        ("drops", 6.0),
        ("marks", 7.0),
        ("losses", 8.0),
        ("throughput_bps", 9.0),
        ("queue_packets", 10.0),
        ("queue_bytes", 11.0),
        ("sojourn_ms", 12.0),
    ];
    assert_eq!(row0(&LINKS, &s), expected);
    assert_eq!((LINKS.codes)(&s), [0]);
}

#[test]
fn each_consumer_column_reads_its_own_counter() {
    let s = ConsumerSeries {
        time_s: vec![0.5],
        consumer: vec![3],
        goodput_bps: vec![1.0],
        data: vec![2],
        interests: vec![3],
        retransmissions: vec![4],
        timeouts: vec![5],
        nacks: vec![6],
        losses: vec![10],
        marks: vec![7],
        window: vec![8.0],
        rtt_ms: vec![9.0],
    };
    let expected = [
        ("time_s", 0.5),
        ("goodput_bps", 1.0),
        ("data", 2.0),
        ("interests", 3.0),
        ("retransmissions", 4.0),
        ("timeouts", 5.0),
        ("nacks", 6.0),
        ("losses", 10.0),
        ("marks", 7.0),
        ("window", 8.0),
        ("rtt_ms", 9.0),
    ];
    assert_eq!(row0(&CONSUMERS, &s), expected);
    assert_eq!((CONSUMERS.codes)(&s), [3]);
}

#[test]
fn each_path_column_reads_its_own_field() {
    let s = PathSeries {
        time_s: vec![0.5],
        path: vec![4],
        index: vec![1],
        in_use: vec![2],
        failed: vec![3],
        data: vec![5],
        window: vec![6.0],
        srtt_ms: vec![7.0],
        sharing: vec![8.0],
    };
    let expected = [
        ("time_s", 0.5),
        ("path", 1.0),
        ("in_use", 2.0),
        ("failed", 3.0),
        ("data", 5.0),
        ("window", 6.0),
        ("srtt_ms", 7.0),
        ("sharing", 8.0),
    ];
    assert_eq!(row0(&PATHS, &s), expected);
    assert_eq!((PATHS.codes)(&s), [4]);
}

#[test]
fn labels_read_the_name_table() {
    let dir = DirName { name: "a->b/u1".into(), src: "a".into(), dst: "b".into() };
    let labels: Vec<(&str, &str)> = LINKS
        .columns
        .iter()
        .filter_map(|c| match c.values {
            Values::Label(f) => Some((c.name, f(&dir))),
            _ => None,
        })
        .collect();
    assert_eq!(labels, [("link", "a->b/u1"), ("src", "a"), ("dst", "b")]);
    let consumer = ConsumerName { id: "c#1".into(), node: "c".into() };
    let Values::Label(id) = CONSUMERS.columns[1].values else { panic!("consumer is a label") };
    assert_eq!((CONSUMERS.columns[1].name, id(&consumer)), ("consumer", "c#1"));
    assert_eq!(
        [LINKS.columns[0].dtype(), LINKS.columns[1].dtype(), LINKS.columns[4].dtype()],
        ["float64", "str", "int64"]
    );
}

#[test]
fn each_object_column_reads_its_own_field() {
    let s = ObjectSeries {
        consumer: vec![2],
        rank: vec![1],
        start_s: vec![2.0],
        end_s: vec![3.0],
        bytes: vec![4],
        paths: vec![5],
    };
    let expected = [("object", 1.0), ("start_s", 2.0), ("end_s", 3.0), ("bytes", 4.0), ("paths", 5.0)];
    assert_eq!(row0(&OBJECTS, &s), expected);
    assert_eq!((OBJECTS.codes)(&s), [2]);
}

#[test]
fn each_interest_column_reads_its_own_field() {
    // Every field holds a different number, so a column wired to the wrong field shows.
    let s = InterestSeries {
        consumer: vec![0],
        object: vec![1],
        segment: vec![2],
        first_sent_s: vec![3.0],
        last_sent_s: vec![4.0],
        arrival_s: vec![5.0],
        last_delay_s: vec![6.0],
        full_delay_s: vec![7.0],
        retransmissions: vec![8],
        path: vec![9.0],
        hops: vec![10.0],
        from_cache: vec![11.0],
    };
    let expected = [
        ("object", 1.0),
        ("segment", 2.0),
        ("first_sent_s", 3.0),
        ("last_sent_s", 4.0),
        ("arrival_s", 5.0),
        ("last_delay_s", 6.0),
        ("full_delay_s", 7.0),
        ("retransmissions", 8.0),
        ("path", 9.0),
        ("hops", 10.0),
        ("from_cache", 11.0),
    ];
    assert_eq!(row0(&INTERESTS, &s), expected);
}

/// The packet columns of a face or node row, holding 1 to 6 in column order.
fn packets() -> crate::trace_counters::PacketColumns {
    #[rustfmt::skip]
    let p = crate::trace_counters::PacketColumns {
        in_interests: vec![1], out_interests: vec![2], in_data: vec![3], out_data: vec![4], in_nacks: vec![5],
        out_nacks: vec![6],
    };
    p
}

#[test]
fn each_face_column_reads_its_own_counter() {
    // Every counter holds its column's position, so a column wired to the wrong field shows.
    #[rustfmt::skip]
    let s = crate::trace_counters::FaceSeries {
        time_s: vec![0.5], face: vec![0], packets: packets(), in_bytes: vec![7], out_bytes: vec![8],
        satisfied: vec![9], timed_out: vec![10],
    };
    let got = row0(&FACES, &s);
    let expected: Vec<f64> = std::iter::once(0.5).chain((1..=10).map(f64::from)).collect();
    assert_eq!(got.iter().map(|(_, v)| *v).collect::<Vec<_>>(), expected, "{got:?}");
}

#[test]
fn each_node_column_reads_its_own_counter() {
    #[rustfmt::skip]
    let s = crate::trace_counters::NodeSeries {
        time_s: vec![0.5], node: vec![0], packets: packets(), cs_hits: vec![7], cs_misses: vec![8],
        forwarded: vec![9], aggregated: vec![10], rejected: vec![11], loops: vec![12], hop_limit_drops: vec![13],
        unsolicited_data: vec![14], expired: vec![15], cs_entries: vec![16], cs_bytes: vec![17],
        pit_entries: vec![18],
    };
    let got = row0(&NODES, &s);
    let expected: Vec<f64> = std::iter::once(0.5).chain((1..=18).map(f64::from)).collect();
    assert_eq!(got.iter().map(|(_, v)| *v).collect::<Vec<_>>(), expected, "{got:?}");
}
