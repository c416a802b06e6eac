use super::*;
use crate::fw::config::StrategyName;
use crate::fw::strategy::PconConfig;
use crate::fw::testing::{data, interest};
use crate::fw::{FaceKind, Forwarder, ForwarderConfig};

/// A pcon router: face 0 downstream, faces 1 (cost 1) and 2 (cost 2) upstream for /p, logging
/// names under `prefix`.
fn pcon_router(prefix: &str) -> Forwarder {
    let config = ForwarderConfig { default_strategy: StrategyName::Pcon(PconConfig::default()), ..Default::default() };
    let mut fw = Forwarder::new(config, 1);
    for _ in 0..3 {
        fw.add_face(FaceKind::Link);
    }
    let p = Name::parse("/p").unwrap();
    fw.fib.add_nexthop(&p, FaceId(1), 1);
    fw.fib.add_nexthop(&p, FaceId(2), 2);
    fw.set_log(Some(ForwardingLog::new(Name::parse(prefix).unwrap())));
    fw
}

/// The records of one round trip of /p/seg=1: Interest from face 0, Data from face 1 marked.
fn round_trip(fw: &mut Forwarder) -> Vec<FwRecord> {
    let mut out = Vec::new();
    fw.handle(Time::ZERO, FaceId(0), interest(1, None), &mut out);
    let marked = LpHeader { congestion_mark: 1, ..Default::default() };
    fw.handle(Time::from_millis(1), FaceId(1), data(1, marked), &mut out);
    fw.log_mut().map(|log| log.drain().collect()).unwrap_or_default()
}

#[test]
fn a_marked_data_logs_pcon_moving_its_percentages() {
    let mut fw = pcon_router("/");
    let records = round_trip(&mut fw);
    let events: Vec<FwEvent> = records.iter().map(|r| r.event).collect();
    use FwEvent::*;
    assert_eq!(
        events,
        [
            IncomingInterest,
            ContentStoreMiss,
            StrategyDecision,
            ForwardingShares,
            OutgoingInterest,
            IncomingData,
            InterestFinalize,
            ForwardingShares,
            OutgoingData,
        ]
    );
    // §3.4: everything on the shortest path at first; a mark from one hop away (f(distance) = 1)
    // moves fwPerc x CHANGE_PERC = 1.0 x 0.02 of face 1 to face 2.
    let shares = |r: &FwRecord| match &r.detail {
        Detail::Shares(s) => s.iter().map(|&(f, p)| (f.0, (p * 1e9).round() / 1e9)).collect::<Vec<_>>(),
        d => panic!("{d:?}"),
    };
    assert_eq!(shares(&records[3]), [(1, 1.0), (2, 0.0)]);
    assert_eq!(shares(&records[7]), [(1, 0.98), (2, 0.02)]);
    assert_eq!(records[7].name, Name::parse("/p").unwrap());
    assert_eq!(records[5].detail, Detail::Lp(LpSummary { mark: 1, ..Default::default() }));
    // The mark goes down with the Data, one forwarder further from the congested link.
    assert_eq!(records[8].detail, Detail::Lp(LpSummary { mark: 1, hop_count: Some(1), ..Default::default() }));
    // A second marked Data moves them again: one more change logged, none at the decision.
    let again = round_trip(&mut fw);
    assert_eq!(again.iter().filter(|r| r.event == ForwardingShares).count(), 1);
}

#[test]
fn a_log_keeps_only_the_names_under_its_prefix() {
    let mut fw = pcon_router("/q");
    assert!(round_trip(&mut fw).is_empty());
}

#[test]
fn without_a_log_the_forwarder_keeps_nothing() {
    let mut fw = pcon_router("/");
    fw.set_log(None);
    assert!(round_trip(&mut fw).is_empty());
    assert!(fw.log_mut().is_none());
}
