//! Unit tests of `get_trace.rs`: a consumer driven by hand at known instants, as the fetch's loop
//! drives it, and the rows the trace makes of it.

use std::sync::Arc;

use ndnflow_core::app::Consumer;
use ndnflow_core::packet::{Data, Frame};
use ndnflow_core::{Name, Time};

use super::*;
use crate::app::get::consumer_config;

fn ms(t: u64) -> Time {
    Time::from_millis(t)
}

/// One Interest at a time, three segments of /c: each Data sends the next Interest.
fn consumer() -> Consumer {
    let options = [("cc", "{ algorithm = \"fixed-window\", window = 1 }"), ("segments", "3")];
    let options: Vec<(String, String)> = options.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect();
    Consumer::new(consumer_config("/c", &options).unwrap(), 1)
}

/// Segment `seg` of /c with 100 content bytes.
fn data(seg: u64) -> Frame {
    let name = Name::parse("/c").unwrap().append_segment(seg);
    Frame::data(Arc::new(Data::new(name, bytes::Bytes::from(vec![0u8; 100]))))
}

/// Starts `c` at 0 and answers segment k at `arrivals[k]`, closing bins before each call as the
/// loop does (it wakes at each boundary, or handles a frame after it); returns the trace at `end`.
fn fetch(bin: Time, arrivals: &[u64], end: u64) -> RunTraces {
    let mut c = consumer();
    let mut trace = FetchTrace::new(bin, &mut c);
    let mut out = Vec::new();
    c.handle_timeout(Time::ZERO, &mut out);
    trace.drain(&mut c);
    for (seg, &at) in arrivals.iter().enumerate() {
        trace.close_bins(ms(at), &c);
        c.handle(ms(at), data(seg as u64), &mut out);
        trace.drain(&mut c);
    }
    trace.finish(ms(end), &mut c).0
}

#[test]
fn bins_close_at_their_boundaries_and_the_last_at_the_end() {
    // Interests at 0 (seg 0), 30 (seg 1) and 130 ms (seg 2); Data at 30, 130 and 250 ms. Bins of
    // 100 ms: [0, 100) has a Data and two Interests, [100, 200) a Data and an Interest, and the
    // last, [200, 250], a Data. Goodput is 100 bytes x 8 over the bin: 8,000 bit/s in the full
    // bins, 16,000 in the half-width last one.
    let t = fetch(ms(100), &[30, 130, 250], 250);
    let s = t.log.consumers();
    assert_eq!(s.time_s, vec![0.0, 0.1, 0.2]);
    assert_eq!(s.data, vec![1, 1, 1]);
    assert_eq!(s.interests, vec![2, 1, 0]);
    assert_eq!(s.goodput_bps, vec![8000.0, 8000.0, 16000.0]);
    assert_eq!(t.consumer_names[0].id, "get");
    assert_eq!(t.consumer_names[0].node, "local");
    assert!(t.link_names.is_empty() && t.log.links().time_s.is_empty());
}

#[test]
fn every_segment_has_its_row_with_its_delays() {
    // Segment k is sent when k - 1 arrives (0 at 0): full delays 30, 100 and 120 ms.
    let t = fetch(ms(100), &[30, 130, 250], 250);
    let i = &t.interests;
    assert_eq!(i.segment, vec![0, 1, 2]);
    assert_eq!(i.arrival_s, vec![0.03, 0.13, 0.25]);
    let delays: Vec<u64> = i.full_delay_s.iter().map(|d| (d * 1e3).round() as u64).collect();
    assert_eq!(delays, vec![30, 100, 120]);
    assert_eq!(i.retransmissions, vec![0, 0, 0]);
    assert_eq!(t.interest_names[0].prefix, "/c");
}

#[test]
fn a_fetch_that_ends_on_a_boundary_puts_that_instant_in_the_last_bin() {
    // The last Data comes at 200 ms exactly: the bin [100, 200) was closed before it (segment 1's
    // Data alone), and is reopened to include the end, [100, 200], as a simulated run's last bin.
    let t = fetch(ms(100), &[30, 130, 200], 200);
    let s = t.log.consumers();
    assert_eq!(s.time_s, vec![0.0, 0.1]);
    assert_eq!(s.data, vec![1, 2]);
}

#[test]
fn a_late_wake_up_closes_each_bin_passed_with_what_had_happened() {
    // Nothing from 30 to 350 ms: the wake-up at 350 closes [100, 200), [200, 300) (no Data in
    // either), and the last Data's bin is [300, 350].
    let t = fetch(ms(100), &[30, 130, 350], 350);
    let s = t.log.consumers();
    assert_eq!(s.time_s, vec![0.0, 0.1, 0.2, 0.3]);
    assert_eq!(s.data, vec![1, 1, 0, 1]);
}
