//! Strategy timers through the engine (issue 17 item 5): a strategy installed on a node arms a
//! timer in a trigger, the engine wakes the node at that instant, and what the timer sends goes
//! out on the link as the pipelines' frames do.
//!
//! The line a - b - c of `common::SMALL`, a consumer of /p on a starting at 1 s with a window of
//! one Interest. The strategy sits on a, the consumer's own node, so its first Interest reaches the
//! strategy at 1 s exactly (local delivery takes no time).

use crate::common;

use std::sync::{Arc, Mutex};

use common::small_with;
use ndnflow_core::fw::strategy::{BestRouteStrategy, StrategyActions};
use ndnflow_core::fw::{InterestDecision, Strategy, StrategyAction, StrategyCtx};
use ndnflow_core::packet::Interest;
use ndnflow_core::table::{FaceId, FibEntry, PitEntry};
use ndnflow_core::{Name, Time};
use ndnflow_sim::Simulation;

/// best-route, and once: `after` past the first Interest, that Interest sent upstream again.
struct ResendOnce {
    inner: BestRouteStrategy,
    after: Time,
    armed: Option<(Time, Arc<Interest>)>,
    used: bool,
    fired: Arc<Mutex<Vec<Time>>>,
}

impl Strategy for ResendOnce {
    fn name(&self) -> &'static str {
        "resend-once"
    }

    fn after_receive_interest(
        &mut self,
        ctx: &StrategyCtx,
        in_face: FaceId,
        entry: &mut PitEntry,
        fib: Option<&FibEntry>,
    ) -> InterestDecision {
        if !self.used {
            self.used = true;
            self.armed = Some((ctx.now + self.after, entry.interest().clone()));
        }
        self.inner.after_receive_interest(ctx, in_face, entry, fib)
    }

    fn next_timer(&self) -> Option<Time> {
        self.armed.as_ref().map(|(t, _)| *t)
    }

    fn on_timer(&mut self, ctx: &StrategyCtx, actions: &mut StrategyActions) {
        let Some((_, interest)) = self.armed.take_if(|(t, _)| *t <= ctx.now) else { return };
        self.fired.lock().unwrap().push(ctx.now);
        // Face 0 of a: its one link, to b.
        actions.push(StrategyAction::SendInterest { interest, face: FaceId(0) });
    }
}

#[test]
fn a_strategy_timer_fires_at_its_instant_and_its_interest_crosses_the_link() {
    let consumer = r#"
[[consumers]]
node  = "a"
name  = "/p"
start = "1s"
cc    = { algorithm = "fixed-window", window = 1 }
"#;
    let mut sim = Simulation::new(small_with(consumer).unwrap());
    let fired = Arc::new(Mutex::new(Vec::new()));
    // 100 us: well before the Data can be back (two 1 ms links each way).
    let strategy = ResendOnce {
        inner: BestRouteStrategy::new(),
        after: Time::from_micros(100),
        armed: None,
        used: false,
        fired: fired.clone(),
    };
    assert!(sim.set_strategy("a", &Name::root(), Box::new(strategy)));
    assert!(!sim.set_strategy("nowhere", &Name::root(), Box::new(BestRouteStrategy::new())));
    let summary = sim.run().summary;
    assert_eq!(*fired.lock().unwrap(), [Time::from_secs(1) + Time::from_micros(100)]);
    let (a, b) = (&summary.nodes["a"], &summary.nodes["b"]);
    // a forwards each Interest of its consumer once, and the timer's one more.
    assert_eq!(a.out_interests, a.in_interests + 1);
    // The resend is the pending entry's Interest, nonce and all: b finds that nonce in its own
    // out-record towards c and takes it for a loop (NFD's duplicate-nonce rule), answering
    // Nack(Duplicate), which a receives.
    assert_eq!((b.duplicates, b.out_nacks, a.in_nacks), (1, 1, 1));
}
