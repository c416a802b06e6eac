//! Strategy timers through the forwarder: `poll_timeout` answers with a strategy's timer,
//! `handle_timeout` fires it at that instant and carries out what it asks, and measurements
//! entries kept by the strategy expire after NFD's 4 s.

use std::sync::Mutex;

use super::*;
use crate::fw::strategy::{Faces, StrategyAction, StrategyActions};
use crate::fw::testing::interest;
use crate::table::{FibEntry, Measurements};

/// Forwards each new Interest to face 1 and, `resend_after` later, sends it to face 2 as well if
/// still pending (a retransmission timer of the strategy's own). Notes every instant its timer
/// fires, and keeps a measurements entry per prefix forwarded to, freed when it expires.
struct Resender {
    resend_after: Time,
    due: Vec<(Time, Arc<Interest>)>,
    fired: Arc<Mutex<Vec<Time>>>,
    seen: Measurements<u32>,
}

impl Resender {
    fn new(resend_after: Time, fired: Arc<Mutex<Vec<Time>>>) -> Resender {
        Resender { resend_after, due: Vec::new(), fired, seen: Measurements::nfd() }
    }
}

impl Strategy for Resender {
    fn name(&self) -> &'static str {
        "resender"
    }

    fn after_receive_interest(
        &mut self,
        ctx: &StrategyCtx,
        _in_face: FaceId,
        entry: &mut PitEntry,
        fib: Option<&FibEntry>,
    ) -> InterestDecision {
        if let Some(fib) = fib {
            *self.seen.entry(ctx.now, &fib.prefix, FaceId(1)) += 1;
        }
        self.due.push((ctx.now + self.resend_after, entry.interest().clone()));
        InterestDecision::Forward(Faces::from_slice(&[FaceId(1)]))
    }

    fn next_timer(&self) -> Option<Time> {
        self.due.iter().map(|(t, _)| *t).chain(self.seen.next_expiry()).min()
    }

    fn on_timer(&mut self, ctx: &StrategyCtx, actions: &mut StrategyActions) {
        self.fired.lock().unwrap().push(ctx.now);
        self.seen.remove_expired(ctx.now);
        for (_, interest) in self.due.extract_if(.., |(t, _)| *t <= ctx.now) {
            actions.push(StrategyAction::SendInterest { interest, face: FaceId(2) });
        }
    }
}

/// Faces 0 (downstream), 1 and 2 (upstream), /p via 1; the strategy resends after 30 ms.
fn router_with_resender() -> (Forwarder, Arc<Mutex<Vec<Time>>>) {
    let mut fw = Forwarder::new(ForwarderConfig::default(), 1);
    for _ in 0..3 {
        fw.add_face(FaceKind::Link);
    }
    fw.fib.add_nexthop(&Name::parse("/p").unwrap(), FaceId(1), 1);
    let fired = Arc::new(Mutex::new(Vec::new()));
    fw.set_strategy(&Name::root(), Box::new(Resender::new(Time::from_millis(30), fired.clone())));
    (fw, fired)
}

#[test]
fn a_strategy_timer_fires_at_its_instant_and_its_interest_goes_out() {
    let (mut fw, fired) = router_with_resender();
    let mut out = Vec::new();
    fw.handle(Time::from_millis(5), FaceId(0), interest(1, None), &mut out);
    assert_eq!(out.drain(..).map(|(f, _)| f).collect::<Vec<_>>(), [FaceId(1)]);
    // The timer (5 + 30 = 35 ms) comes before the PIT entry's expiry (5 ms + 2 s lifetime).
    assert_eq!(fw.poll_timeout(), Some(Time::from_millis(35)));
    fw.handle_timeout(Time::from_millis(34), &mut out);
    assert!(out.is_empty() && fired.lock().unwrap().is_empty(), "not due yet");
    fw.handle_timeout(Time::from_millis(35), &mut out);
    assert_eq!(*fired.lock().unwrap(), [Time::from_millis(35)]);
    let (face, frame) = out.pop().expect("the resent Interest");
    assert!(matches!(frame.packet, NetPacket::Interest(_)));
    assert_eq!((face, fw.counters.out_interests), (FaceId(2), 2));
    // It went through the outgoing Interest pipeline: face 2 has its out-record.
    let NetPacket::Interest(sent) = &frame.packet else { unreachable!() };
    let entry = fw.pit.get(fw.pit.find(sent).unwrap()).unwrap();
    assert_eq!(entry.out_record(FaceId(2)).map(|o| o.last_sent), Some(Time::from_millis(35)));
    // Next: the measurements entry, created at 5 ms, expires at 5 ms + 4 s.
    assert_eq!(fw.poll_timeout(), Some(Time::from_millis(2005)), "the PIT entry first");
}

#[test]
fn a_timer_resends_nothing_once_the_entry_is_satisfied() {
    let (mut fw, fired) = router_with_resender();
    let mut out = Vec::new();
    fw.handle(Time::ZERO, FaceId(0), interest(1, None), &mut out);
    let name = Name::parse("/p").unwrap().append_segment(1);
    let data = Frame::data(Arc::new(Data::new(name, bytes::Bytes::from_static(b"x"))));
    fw.handle(Time::from_millis(10), FaceId(1), data, &mut out);
    out.clear();
    fw.handle_timeout(Time::from_millis(30), &mut out);
    assert_eq!(*fired.lock().unwrap(), [Time::from_millis(30)]);
    assert!(out.is_empty(), "a strategy forwards only what the PIT holds: {out:?}");
}

#[test]
fn the_strategys_measurements_entry_expires_after_four_seconds() {
    let (mut fw, fired) = router_with_resender();
    let mut out = Vec::new();
    fw.handle(Time::ZERO, FaceId(0), interest(1, None), &mut out);
    // Timers at 30 ms (resend), PIT expiry at 2 s, the measurements entry at 4 s.
    for t in [30, 2000] {
        assert_eq!(fw.poll_timeout(), Some(Time::from_millis(t)));
        fw.handle_timeout(Time::from_millis(t), &mut out);
    }
    assert_eq!(fw.poll_timeout(), Some(Time::from_secs(4)));
    fw.handle_timeout(Time::from_secs(4), &mut out);
    assert_eq!(*fired.lock().unwrap(), [Time::from_millis(30), Time::from_secs(4)]);
    assert_eq!(fw.poll_timeout(), None, "nothing left: the entry is freed");
}
