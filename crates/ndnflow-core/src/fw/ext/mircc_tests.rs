//! MIRCC's forwarder side on one router: the class bit goes upstream on Interests and downstream
//! on Data, the rates go downstream, a Content Store answer takes its Interest's class; a stock
//! router drops all three; beside PTP's MPFP and DPCCP's extension, tags, hop count and rates
//! all survive. The router is `fw::testing`'s: face 0 downstream, face 1 upstream, /p via face 1.

use std::sync::Arc;

use super::*;
use crate::fw::testing::{data, interest, router_with};
use crate::fw::{Forwarder, ForwarderConfig};
use crate::packet::{Frame, LpExtensions};
use crate::Time;

fn mircc(cs_capacity: usize) -> ForwarderConfig {
    ForwarderConfig { mircc: true, cs_capacity, ..ForwarderConfig::default() }
}

/// The Interest for /p/seg=`seg` with link-header flags `lp_flags`.
fn flagged(seg: u32, lp_flags: u64) -> Frame {
    let mut i = interest(seg, None);
    i.lp.flags = lp_flags;
    i
}

/// A Data header as a MIRCC link below the producer leaves it: second class, both rates.
fn stamped() -> LpHeader {
    let ext = LpExtensions { mircc_rate: Some(3_000_000), mircc_rate2: Some(500_000), ..Default::default() };
    LpHeader { flags: flags::MIRCC_SECONDARY, ext: Some(Box::new(ext)), ..Default::default() }
}

fn rates(lp: &LpHeader) -> (Option<u64>, Option<u64>) {
    lp.ext.as_deref().map_or((None, None), |e| (e.mircc_rate, e.mircc_rate2))
}

/// Sends the Interest for /p/seg=`seg` from face 0 (the router's downstream) with `lp_flags`,
/// answers it from face 1 (its upstream) with `data_lp`; returns the Interest sent upstream and
/// the Data sent back down.
fn round_trip(fw: &mut Forwarder, seg: u32, lp_flags: u64, data_lp: LpHeader) -> (Frame, Frame) {
    let mut out = Vec::new();
    fw.handle(Time::ZERO, FaceId(0), flagged(seg, lp_flags), &mut out);
    let (face, up) = out.pop().expect("forwarded");
    assert_eq!(face, FaceId(1));
    fw.handle(Time::from_millis(1), face, data(seg.into(), data_lp), &mut out);
    let (face, down) = out.pop().expect("Data sent back");
    assert_eq!(face, FaceId(0));
    (up, down)
}

#[test]
fn the_class_goes_up_and_the_class_and_rates_come_down() {
    let mut fw = router_with(mircc(0));
    let (up, down) = round_trip(&mut fw, 0, flags::MIRCC_SECONDARY, stamped());
    assert_eq!(up.lp.flags, flags::MIRCC_SECONDARY);
    assert_eq!(down.lp.flags, flags::MIRCC_SECONDARY);
    assert_eq!(rates(&down.lp), (Some(3_000_000), Some(500_000)));
    // A first-class Interest goes without the bit, and a Data without rates gets none here (the
    // links stamp; the router only carries).
    let (up, down) = round_trip(&mut fw, 1, 0, LpHeader::default());
    assert_eq!((up.lp.flags, down.lp.flags), (0, 0));
    assert!(down.lp.ext.is_none());
}

#[test]
fn a_stock_router_drops_the_class_and_the_rates() {
    let mut fw = router_with(ForwarderConfig::default());
    let (up, down) = round_trip(&mut fw, 0, flags::MIRCC_SECONDARY, stamped());
    assert_eq!((up.lp.flags, down.lp.flags), (0, 0));
    assert_eq!(rates(&down.lp), (None, None));
}

#[test]
fn a_content_store_answer_takes_the_class_of_the_interest_it_answers() {
    let mut fw = router_with(mircc(10));
    round_trip(&mut fw, 0, 0, stamped());
    let mut out = Vec::new();
    // Cached now. A second-class Interest, a first-class one, a second-class one again: each
    // answer carries its own Interest's class, and no rate (the links below will stamp it).
    for (k, class) in [flags::MIRCC_SECONDARY, 0, flags::MIRCC_SECONDARY].into_iter().enumerate() {
        let mut i = flagged(0, class);
        if let crate::NetPacket::Interest(x) = &mut i.packet {
            Arc::make_mut(x).nonce = Some(100 + k as u32);
        }
        fw.handle(Time::from_millis(2 + k as u64), FaceId(0), i, &mut out);
        let (face, answer) = out.pop().expect("answered from the Content Store");
        assert_eq!(face, FaceId(0));
        assert_eq!(answer.lp.flags, class, "answer {k}");
        assert_eq!(rates(&answer.lp), (None, None));
    }
    assert_eq!(fw.counters.cs_hits, 3);
}

#[test]
fn beside_ptp_and_dpccp_a_probing_data_keeps_its_tags_hop_count_and_rates() {
    let dpccp = Some(crate::fw::ext::DpccpConfig::default());
    let mut fw = router_with(ForwarderConfig { ptp: true, dpccp, ..mircc(0) });
    let mut lp = stamped();
    lp.flags = flags::with_data_hops(lp.flags | flags::PTP_PROBE, 2);
    lp.ext_mut().tags = [7].into_iter().collect();
    let (up, down) = round_trip(&mut fw, 0, flags::MIRCC_SECONDARY | flags::PTP_PROBE, lp);
    assert_eq!(up.lp.flags, flags::MIRCC_SECONDARY | flags::PTP_PROBE);
    // DPCCP counts this router: 2 hops above, 3 below.
    assert_eq!(down.lp.flags, flags::with_data_hops(flags::MIRCC_SECONDARY | flags::PTP_PROBE, 3));
    assert_eq!(rates(&down.lp), (Some(3_000_000), Some(500_000)));
    // MPFP pushed the face the Data came in on over the router above's 7.
    assert_eq!(down.lp.ext.as_deref().unwrap().tags.to_vec(), vec![7, 1]);

    // A tagged second-class Interest: MPFP pops its top tag (1) and forwards it there itself;
    // the class goes along.
    let mut out = Vec::new();
    let mut i = flagged(1, flags::MIRCC_SECONDARY);
    i.lp.ext_mut().tags = [9, 1].into_iter().collect();
    fw.handle(Time::from_millis(5), FaceId(0), i, &mut out);
    let (face, sent) = out.pop().unwrap();
    assert_eq!(face, FaceId(1));
    assert_eq!(sent.lp.flags, flags::MIRCC_SECONDARY);
    assert_eq!(sent.lp.ext.as_deref().unwrap().tags.to_vec(), vec![9]);
}
