use super::*;

fn ms(v: u64) -> Time {
    Time::from_millis(v)
}

fn link(bytes: u64, sojourn_count: u64, sojourn_sum: Time) -> LinkRow {
    LinkRow {
        bytes,
        packets: 1,
        interests: 2,
        data: 3,
        nacks: 4,
        drops: 5,
        marks: 6,
        losses: 7,
        queue_packets: 8,
        queue_bytes: 9,
        sojourn_count,
        sojourn_sum,
    }
}

fn consumer(consumer: u32, window: Option<f64>, rtt_samples: u64, rtt_sum: Time) -> ConsumerRow {
    ConsumerRow {
        consumer,
        payload_bytes: 2500,
        data: 1,
        interests: 2,
        retransmissions: 3,
        timeouts: 4,
        nacks: 5,
        losses: 6,
        marks: 7,
        window,
        rtt_samples,
        rtt_sum,
    }
}

/// Two directions; bin [0, 10 ms) with one consumer row, bin [10, 30 ms) with two.
fn two_bins() -> TraceLog {
    let mut log = TraceLog::new(2);
    log.open_bin(ms(0), ms(10));
    log.push_link(&link(1250, 2, ms(3)));
    log.push_link(&link(0, 0, Time::ZERO));
    log.push_consumer(&consumer(1, None, 0, Time::ZERO));
    log.open_bin(ms(10), ms(30));
    log.push_link(&link(u64::MAX, 1, ms(1)));
    log.push_link(&link(5, 3, ms(1)));
    log.push_consumer(&consumer(0, Some(8.0), 4, ms(10)));
    log.push_consumer(&consumer(1, Some(-0.0), 0, Time::ZERO));
    log
}

#[test]
fn link_rows_decode_to_the_columns_the_engine_computed() {
    let s = two_bins().links();
    assert_eq!(s.time_s, [0.0, 0.0, 0.01, 0.01]);
    assert_eq!(s.dir, [0, 1, 0, 1]);
    assert_eq!(s.bytes, [1250, 0, u64::MAX, 5]);
    // 1,250 bytes in 10 ms: 1,250 x 8 / 0.01 = 1,000,000 bit/s; 5 bytes in 20 ms: 2,000 bit/s.
    assert_eq!(s.throughput_bps[0], 1_000_000.0);
    assert_eq!(s.throughput_bps[3], 2_000.0);
    // 3 ms over 2 packets; none; 1 ms over 3 (1 / 3 as the engine divides it).
    assert_eq!(s.sojourn_ms[0], 1.5);
    assert!(s.sojourn_ms[1].is_nan());
    assert_eq!(s.sojourn_ms[3], 1.0 / 3.0);
    for (column, value) in [(&s.packets, 1), (&s.interests, 2), (&s.data, 3), (&s.nacks, 4), (&s.drops, 5)] {
        assert_eq!(column, &[value; 4]);
    }
    for (column, value) in [(&s.marks, 6), (&s.losses, 7), (&s.queue_packets, 8), (&s.queue_bytes, 9)] {
        assert_eq!(column, &[value; 4]);
    }
}

#[test]
fn consumer_rows_decode_with_their_bins_and_windows() {
    let s = two_bins().consumers();
    assert_eq!(s.time_s, [0.0, 0.01, 0.01]);
    assert_eq!(s.consumer, [1, 0, 1]);
    // 2,500 payload bytes: 2,000,000 bit/s over 10 ms, 1,000,000 over 20 ms.
    assert_eq!(s.goodput_bps, [2_000_000.0, 1_000_000.0, 1_000_000.0]);
    assert!(s.window[0].is_nan());
    assert_eq!(s.window[1], 8.0);
    assert_eq!(s.window[2].to_bits(), (-0.0f64).to_bits(), "a whole number keeps its sign");
    assert!(s.rtt_ms[0].is_nan() && s.rtt_ms[2].is_nan());
    assert_eq!(s.rtt_ms[1], 2.5); // 10 ms over 4 samples
    assert_eq!((s.data[0], s.marks[2], s.retransmissions[1], s.losses[0]), (1, 7, 3, 6));
}

#[test]
fn windows_that_are_not_whole_numbers_keep_their_bits() {
    let mut log = TraceLog::new(0);
    log.open_bin(ms(0), ms(1));
    let windows = [2.5, 1e300, -3.0, f64::INFINITY, (1u64 << 53) as f64];
    for w in windows {
        log.push_consumer(&consumer(0, Some(w), 0, Time::ZERO));
    }
    let bits: Vec<u64> = log.consumers().window.iter().map(|w| w.to_bits()).collect();
    assert_eq!(bits, windows.map(f64::to_bits));
}

#[test]
fn a_row_of_small_counts_takes_one_byte_a_value() {
    let mut log = TraceLog::new(1);
    log.open_bin(ms(0), ms(1));
    // Twelve values below 128: twelve bytes (the 14 columns took 108).
    log.push_link(&link(100, 1, Time::from_nanos(127)));
    assert_eq!(log.links.len(), 12);
    // 1,250 needs two 7-bit groups, 3 ms (2^21 <= 3,000,000 ns < 2^28) four, the other ten one.
    log.push_link(&link(1250, 2, ms(3)));
    assert_eq!(log.links.len(), 12 + 2 + 10 + 4);
    // A consumer row: its index, eight counts, a whole window (2 x 8 + 1 = 17), two RTT values.
    log.push_consumer(&consumer(0, Some(8.0), 0, Time::ZERO));
    assert_eq!(log.consumers.len(), 1 + 2 + 7 + 1 + 2);
}

#[test]
fn the_last_bin_can_be_taken_back() {
    let mut log = two_bins();
    let (links, consumers) = (log.links.len(), log.consumers.len());
    log.drop_last_bin();
    assert_eq!((log.link_rows(), log.consumer_rows()), (2, 1));
    assert!(log.links.len() < links && log.consumers.len() < consumers);
    // Closed again, the bin reads as if it had been closed once.
    log.open_bin(ms(10), ms(30));
    log.push_link(&link(u64::MAX, 1, ms(1)));
    log.push_link(&link(5, 3, ms(1)));
    log.push_consumer(&consumer(0, Some(8.0), 4, ms(10)));
    log.push_consumer(&consumer(1, Some(-0.0), 0, Time::ZERO));
    // Debug prints NaN as NaN, where == would find two NaN columns unequal.
    assert_eq!(format!("{:?}", log.links()), format!("{:?}", two_bins().links()));
    assert_eq!(log.consumer_rows(), 3);
}

/// `two_bins` with a bin [30, 40 ms) that has link rows and no consumer row between its two
/// bins' rows and one more bin [40, 50 ms) with one consumer row.
fn three_bins_one_without_consumers() -> TraceLog {
    let mut log = two_bins();
    log.open_bin(ms(30), ms(40));
    log.push_link(&link(7, 0, Time::ZERO));
    log.push_link(&link(9, 0, Time::ZERO));
    log.open_bin(ms(40), ms(50));
    log.push_link(&link(11, 0, Time::ZERO));
    log.push_link(&link(13, 0, Time::ZERO));
    log.push_consumer(&consumer(0, Some(3.0), 0, Time::ZERO));
    log
}

#[test]
fn link_rows_read_in_pieces_across_bins() {
    let log = three_bins_one_without_consumers();
    let mut at = Cursor::default();
    // Eight rows, two a bin: 3 (bin 0 whole, bin 1's first), 3 (bin 1's second, bin 2 whole),
    // 3 asked but 2 left (bin 3), then none.
    let pieces: Vec<LinkSeries> = (0..4).map(|_| log.link_chunk(&mut at, 3)).collect();
    assert_eq!(
        pieces.iter().map(|p| p.dir.clone()).collect::<Vec<_>>(),
        [vec![0, 1, 0], vec![1, 0, 1], vec![0, 1], vec![]]
    );
    assert_eq!(pieces[1].time_s, [0.01, 0.03, 0.03]);
    assert_eq!(pieces[1].bytes, [5, 7, 9]);
    assert_eq!(pieces[2].bytes, [11, 13]);
    let whole = format!("{:?}", log.links());
    let mut at = Cursor::default();
    let one_by_one: Vec<String> = (0..8).map(|_| format!("{:?}", log.link_chunk(&mut at, 1).bytes)).collect();
    assert_eq!(one_by_one.join(""), "[1250][0][18446744073709551615][5][7][9][11][13]");
    assert_eq!(format!("{:?}", log.link_chunk(&mut Cursor::default(), 8)), whole);
}

#[test]
fn consumer_rows_read_in_pieces_skip_a_bin_without_rows() {
    let log = three_bins_one_without_consumers();
    let mut at = Cursor::default();
    // Four rows: bin 0 one, bin 1 two, bin 2 none, bin 3 one.
    let first = log.consumer_chunk(&mut at, 2);
    assert_eq!((first.time_s, first.consumer), (vec![0.0, 0.01], vec![1, 0]));
    let rest = log.consumer_chunk(&mut at, 5);
    assert_eq!((rest.time_s, rest.consumer), (vec![0.01, 0.04], vec![1, 0]));
    assert_eq!(rest.window[1], 3.0);
    assert!(log.consumer_chunk(&mut at, 5).time_s.is_empty());
}
