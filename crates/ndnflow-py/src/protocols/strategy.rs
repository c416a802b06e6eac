//! `PyStrategy`: a Python `ndnflow.Strategy` behind the `Strategy` trait. Each trigger the Python
//! class defines is called with a context (time, node, faces), the incoming face, a copy of the
//! PIT entry and the FIB next hops; a trigger it leaves out keeps the trait's default (NFD's
//! processNack for Nacks, the path signals passed on for Data), so that a Python strategy pays for
//! the triggers it uses only.
//!
//! Timers: the trait asks `next_timer` after every frame its node handles, too often to call
//! Python; the wrapper asks the object's `next_timer()` after each call it makes instead and
//! answers from that, which is when a Python strategy can have changed it.

use std::borrow::Cow;
use std::sync::Arc;

use ndnflow_core::fw::log::Shares;
use ndnflow_core::fw::strategy::{
    DataDecision, Faces, InterestDecision, NackDecision, Strategy, StrategyAction, StrategyActions, StrategyCtx,
};
use ndnflow_core::packet::{Data, LpHeader, Nack as NackPacket, NackReason};
use ndnflow_core::table::{FaceId, FibEntry, PitEntry};
use ndnflow_core::{Name, Time};
use pyo3::call::PyCallArgs;
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyDict;

use super::views::{next_hops, Forward, InterestView, Nack, PitEntryView, StrategyContextView};
use super::Caller;

/// The optional triggers a Python class defines (`ndnflow.Strategy._overridden`).
#[derive(Default)]
struct Triggers {
    nack: bool,
    data: bool,
    before_satisfy: bool,
    cs_hit: bool,
    expired: bool,
    timers: bool,
    shares: bool,
}

/// What a Python trigger returned, before it becomes the trigger's own decision type.
enum Decision {
    Forward(Faces),
    Nack(NackReason),
    /// None: suppress the Interest, or wait for the other upstreams.
    Nothing,
}

pub struct PyStrategy {
    caller: Caller,
    node: String,
    triggers: Triggers,
    timer: Option<Time>,
    /// The `why` of the decision the last deciding trigger returned.
    why: Option<String>,
    /// Why the last after_receive_interest decided as it did (`Strategy::decision_reason`).
    reason: String,
}

impl PyStrategy {
    pub fn new(py: Python<'_>, caller: Caller, node: &str) -> PyResult<PyStrategy> {
        let names: Vec<String> = caller.bind(py).call_method0("_overridden")?.extract()?;
        let has = |n: &str| names.iter().any(|m| m == n);
        let triggers = Triggers {
            nack: has("after_receive_nack"),
            data: has("after_receive_data"),
            before_satisfy: has("before_satisfy_interest"),
            cs_hit: has("after_content_store_hit"),
            expired: has("on_interest_expired"),
            timers: has("next_timer") || has("on_timer"),
            shares: has("forwarding_shares"),
        };
        let mut strategy =
            PyStrategy { caller, node: node.to_string(), triggers, timer: None, why: None, reason: String::new() };
        strategy.refresh_timer(py, Time::ZERO, false);
        Ok(strategy)
    }

    fn ctx(&self, ctx: &StrategyCtx) -> StrategyContextView {
        StrategyContextView::new(ctx.now, &self.node, ctx.faces)
    }

    /// Reads the object's `next_timer()` (nanoseconds or None) after a call that may have moved it.
    /// After `on_timer` fired at `now` (`fired`), the next must come later: one due again at the
    /// same instant fired without end.
    fn refresh_timer(&mut self, py: Python<'_>, now: Time, fired: bool) {
        if !self.triggers.timers {
            return;
        }
        let value = self.caller.call(py, now, "next_timer", ());
        self.timer = match value.map(|v| v.extract::<Option<u64>>()) {
            Some(Ok(Some(t))) if t < now.as_nanos() || (fired && t == now.as_nanos()) => {
                // A time already past, or the one that just fired, fired at once, again and again,
                // until the run stalled (until 2026-11-28).
                let (when, due) =
                    if fired { ("when on_timer ran", "after it") } else { ("before the present", "now or later") };
                let err = PyValueError::new_err(format!(
                    "next_timer returned {t} ns, {when} ({} ns): the next timer is due {due}",
                    now.as_nanos()
                ));
                self.caller.fail(py, now, "next_timer", &err);
                None
            }
            Some(Ok(t)) => t.map(Time::from_nanos),
            Some(Err(e)) => {
                let err = PyTypeError::new_err(format!("next_timer must return nanoseconds (an int) or None: {e}"));
                self.caller.fail(py, now, "next_timer", &err);
                None
            }
            None => None,
        };
    }

    /// A `Forward`'s faces, each checked to be one of the node's.
    fn faces(&mut self, py: Python<'_>, ctx: &StrategyCtx, method: &str, forward: &Forward) -> Option<Faces> {
        let faces: Faces = forward.faces().collect();
        if let Some(bad) = faces.iter().find(|f| f.index() >= ctx.faces.len()) {
            let err = PyValueError::new_err(format!(
                "Forward names face {}, which node {} does not have (its faces are 0..{})",
                bad.0,
                self.node,
                ctx.faces.len()
            ));
            self.caller.fail(py, ctx.now, method, &err);
            return None;
        }
        // A face named twice sent the Interest twice upstream, every time (a million times
        // over for `[face] * 1_000_000`), until 2026-11-28.
        if let Some(twice) = faces.iter().enumerate().find_map(|(k, f)| faces[..k].contains(f).then_some(f)) {
            let err = PyValueError::new_err(format!("Forward names face {} more than once", twice.0));
            self.caller.fail(py, ctx.now, method, &err);
            return None;
        }
        Some(faces)
    }

    /// Calls a deciding trigger with the arguments `args` makes around the entry's view, and
    /// writes back what the trigger may change on the entry.
    fn decide<A>(
        &mut self,
        ctx: &StrategyCtx,
        method: &str,
        entry: &mut PitEntry,
        args: impl FnOnce(Py<PitEntryView>) -> A,
    ) -> Decision
    where
        A: for<'py> PyCallArgs<'py>,
    {
        Python::attach(|py| {
            let view = match Py::new(py, PitEntryView::new(entry)) {
                Ok(view) => view,
                Err(e) => {
                    self.caller.fail(py, ctx.now, method, &e);
                    return Decision::Nothing;
                }
            };
            let value = self.caller.call(py, ctx.now, method, args(view.clone_ref(py)));
            view.borrow(py).write_back(entry);
            let decision = self.decision(py, ctx, method, value);
            self.refresh_timer(py, ctx.now, false);
            decision
        })
    }

    /// What a trigger returned: `Forward`, `Nack` or None ("nothing": suppress, wait).
    fn decision(
        &mut self,
        py: Python<'_>,
        ctx: &StrategyCtx,
        method: &str,
        value: Option<Bound<'_, PyAny>>,
    ) -> Decision {
        self.why = None;
        let Some(value) = value.filter(|v| !v.is_none()) else { return Decision::Nothing };
        if let Ok(forward) = value.cast::<Forward>() {
            self.why = forward.get().why().map(str::to_string);
            return self.faces(py, ctx, method, forward.get()).map_or(Decision::Nothing, Decision::Forward);
        }
        if let Ok(nack) = value.cast::<Nack>() {
            self.why.clone_from(&nack.get().why);
            return Decision::Nack(nack.get().reason);
        }
        let err = PyTypeError::new_err(format!(
            "{method} returned {}; a strategy returns Forward([faces]), Nack(reason) or None",
            value.repr().map(|r| r.to_string()).unwrap_or_default()
        ));
        self.caller.fail(py, ctx.now, method, &err);
        Decision::Nothing
    }
}

impl Strategy for PyStrategy {
    fn name(&self) -> &'static str {
        "python"
    }

    fn after_receive_interest(
        &mut self,
        ctx: &StrategyCtx,
        in_face: FaceId,
        entry: &mut PitEntry,
        fib: Option<&FibEntry>,
    ) -> InterestDecision {
        if self.caller.failed() {
            return InterestDecision::Suppress;
        }
        let hops = next_hops(fib.map(|f| f.nexthops.as_slice()).unwrap_or(&[]));
        let node = self.ctx(ctx);
        let decision = self.decide(ctx, "after_receive_interest", entry, |view| (node, in_face.0, view, hops));
        self.reason = self.why.take().unwrap_or_default();
        match decision {
            Decision::Forward(faces) => InterestDecision::Forward(faces),
            Decision::Nack(reason) => InterestDecision::Reject(reason),
            Decision::Nothing => InterestDecision::Suppress,
        }
    }

    fn after_receive_nack(
        &mut self,
        ctx: &StrategyCtx,
        in_face: FaceId,
        nack: &NackPacket,
        lp: &LpHeader,
        entry: &mut PitEntry,
        fib: Option<&FibEntry>,
    ) -> NackDecision {
        if !self.triggers.nack || self.caller.failed() {
            return ndnflow_core::fw::strategy::nack_when_all_upstreams_nacked(entry);
        }
        let hops = next_hops(fib.map(|f| f.nexthops.as_slice()).unwrap_or(&[]));
        let (node, reason, mark) = (self.ctx(ctx), nack.reason.as_str(), lp.congestion_mark);
        let decision =
            self.decide(ctx, "after_receive_nack", entry, |view| (node, in_face.0, reason, mark, view, hops));
        match decision {
            Decision::Forward(faces) => NackDecision::Forward(faces),
            Decision::Nack(reason) => NackDecision::NackDownstream(reason),
            Decision::Nothing => NackDecision::Wait,
        }
    }

    fn after_receive_data(
        &mut self,
        ctx: &StrategyCtx,
        entry: &PitEntry,
        in_face: FaceId,
        lp: &LpHeader,
    ) -> DataDecision {
        let default = DataDecision { flags: lp.flags & ndnflow_core::packet::lp::flags::PATH_SIGNALS };
        if !self.triggers.data || self.caller.failed() {
            return default;
        }
        Python::attach(|py| {
            let args = (self.ctx(ctx), PitEntryView::new(entry), in_face.0, lp.flags, lp.congestion_mark);
            let value = self.caller.call(py, ctx.now, "after_receive_data", args);
            let flags = match value.map(|v| v.extract::<Option<u64>>()) {
                Some(Ok(Some(flags))) => DataDecision { flags },
                Some(Err(e)) => {
                    let err =
                        PyTypeError::new_err(format!("after_receive_data must return flags (an int) or None: {e}"));
                    self.caller.fail(py, ctx.now, "after_receive_data", &err);
                    default
                }
                _ => default,
            };
            self.refresh_timer(py, ctx.now, false);
            flags
        })
    }

    fn before_satisfy_interest(
        &mut self,
        ctx: &StrategyCtx,
        entry: &PitEntry,
        in_face: FaceId,
        _: &Data,
        _: &LpHeader,
    ) {
        if self.triggers.before_satisfy {
            self.notify(ctx, "before_satisfy_interest", entry, Some(in_face));
        }
    }

    fn after_content_store_hit(&mut self, ctx: &StrategyCtx, entry: &PitEntry, in_face: FaceId, _: &Data) {
        if self.triggers.cs_hit {
            self.notify(ctx, "after_content_store_hit", entry, Some(in_face));
        }
    }

    fn on_interest_expired(&mut self, ctx: &StrategyCtx, entry: &PitEntry) {
        if self.triggers.expired {
            self.notify(ctx, "on_interest_expired", entry, None);
        }
    }

    fn next_timer(&self) -> Option<Time> {
        self.timer
    }

    fn on_timer(&mut self, ctx: &StrategyCtx, actions: &mut StrategyActions) {
        if !self.triggers.timers || self.caller.failed() {
            return;
        }
        Python::attach(|py| {
            let value = self.caller.call(py, ctx.now, "on_timer", (self.ctx(ctx),));
            if let Some(value) = value.filter(|v| !v.is_none()) {
                match sends(&value) {
                    Ok(sends) => self.push_sends(py, ctx, sends, actions),
                    Err(e) => {
                        let err = PyTypeError::new_err(format!(
                            "on_timer must return a list of (Interest, face) pairs or None: {e}"
                        ));
                        self.caller.fail(py, ctx.now, "on_timer", &err);
                    }
                }
            }
            self.refresh_timer(py, ctx.now, true);
        })
    }

    fn decision_reason(&self) -> Cow<'static, str> {
        Cow::Owned(self.reason.clone())
    }

    /// The object's `forwarding_shares(ctx, prefix)`: {face: fraction of 1} (its order kept), or
    /// None.
    fn forwarding_shares(&mut self, ctx: &StrategyCtx, prefix: &Name) -> Shares {
        if !self.triggers.shares || self.caller.failed() {
            return Shares::new();
        }
        Python::attach(|py| {
            let value = self.caller.call(py, ctx.now, "forwarding_shares", (self.ctx(ctx), prefix.to_string()));
            let read = value.map(|v| {
                shares(&v)
                    .map_err(|e| {
                        let what = "forwarding_shares must return {face: fraction of 1, ...} or None";
                        PyTypeError::new_err(format!("{what}: {e}"))
                    })
                    .and_then(|s| checked_shares(s, ctx.faces.len(), &self.node))
            });
            match read {
                Some(Ok(shares)) => shares,
                Some(Err(err)) => {
                    self.caller.fail(py, ctx.now, "forwarding_shares", &err);
                    Shares::new()
                }
                None => Shares::new(),
            }
        })
    }
}

/// `forwarding_shares`'s {face: fraction}, in the dict's order; None for none.
fn shares(value: &Bound<'_, PyAny>) -> PyResult<Shares> {
    if value.is_none() {
        return Ok(Shares::new());
    }
    let dict = value.cast::<PyDict>()?;
    dict.iter().map(|(face, share)| Ok((FaceId(face.extract()?), share.extract()?))).collect()
}

/// Shares of faces the node has, each a fraction from 0 to 1: a face it lacks, a negative share
/// or NaN was written into the forwarding log as it came until 2026-11-28.
fn checked_shares(shares: Shares, faces: usize, node: &str) -> PyResult<Shares> {
    for (face, share) in &shares {
        if face.index() >= faces {
            let msg =
                format!("a share names face {}, which node {node} does not have (its faces are 0..{faces})", face.0);
            return Err(PyValueError::new_err(msg));
        }
        if !(0.0..=1.0).contains(share) {
            return Err(PyValueError::new_err(format!(
                "face {}'s share is {share}, not a fraction from 0 to 1",
                face.0
            )));
        }
    }
    Ok(shares)
}

/// `on_timer`'s [(Interest, face), ...].
fn sends(value: &Bound<'_, PyAny>) -> PyResult<Vec<(InterestView, u32)>> {
    let pairs: Vec<(Bound<'_, PyAny>, u32)> = value.extract()?;
    pairs.into_iter().map(|(interest, face)| Ok((interest.cast::<InterestView>()?.get().clone(), face))).collect()
}

impl PyStrategy {
    /// A trigger that decides nothing: called for what the strategy learns from it.
    fn notify(&mut self, ctx: &StrategyCtx, method: &str, entry: &PitEntry, in_face: Option<FaceId>) {
        if self.caller.failed() {
            return;
        }
        Python::attach(|py| {
            let view = PitEntryView::new(entry);
            match in_face {
                Some(face) => self.caller.call(py, ctx.now, method, (self.ctx(ctx), view, face.0)),
                None => self.caller.call(py, ctx.now, method, (self.ctx(ctx), view)),
            };
            self.refresh_timer(py, ctx.now, false);
        })
    }

    fn push_sends(
        &mut self,
        py: Python<'_>,
        ctx: &StrategyCtx,
        sends: Vec<(InterestView, u32)>,
        actions: &mut StrategyActions,
    ) {
        for (interest, face) in sends {
            if face as usize >= ctx.faces.len() {
                let err = PyValueError::new_err(format!(
                    "on_timer sends on face {face}, which node {} does not have (its faces are 0..{})",
                    self.node,
                    ctx.faces.len()
                ));
                self.caller.fail(py, ctx.now, "on_timer", &err);
                return;
            }
            actions.push(StrategyAction::SendInterest { interest: Arc::clone(&interest.interest), face: FaceId(face) });
        }
    }
}
