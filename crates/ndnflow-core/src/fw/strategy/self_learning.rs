//! self-learning (NFD daemon/fw/self-learning-strategy.cpp, with the route side of
//! daemon/mgmt/rib-manager.cpp `slAnnounce` / `slRenew` / `slFindAnn` and daemon/rib/rib-entry.cpp
//! `getPrefixAnnouncement`; Shi et al., "A Broadcast-Based Self-Learning Forwarding Scheme").
//!
//! An Interest is a discovery one unless its link header carries NonDiscovery (NDNLPv2, 844).
//! - Discovery, no route: broadcast to every up link face but the one it came from (never to an
//!   application face). Discovery with routes: to every eligible next hop, marked NonDiscovery.
//! - NonDiscovery with routes: to every eligible next hop; with none: Nack(NoRoute).
//! - A Data answering an Interest this node sent as a discovery one, and carrying a
//!   PrefixAnnouncement (848), teaches a route: the announced prefix via the face the Data came
//!   from, for the announcement's ExpirationPeriod but at most `ROUTE_RENEW_LIFETIME`. Learning
//!   the same prefix and face again renews it.
//! - A Data answering a NonDiscovery Interest gets an announcement when a downstream asked by
//!   discovery and that downstream is another forwarder (NFD's `needPrefixAnn`). The
//!   announcement is the one of the learned route that covers the name; where only a static route
//!   does (the producer's own node: the route the producer registered), a new one for that route's
//!   prefix lasting `STATIC_ROUTE_ANNOUNCEMENT`. An announcement a Data arrived with goes on
//!   downstream with it, as NFD leaves the tag on the Data.
//! - Nack(NoRoute) from an upstream goes to every downstream, and the learned route via that
//!   upstream for the name ends at once (NFD renews it with a lifetime of 0). Other Nacks change
//!   nothing (NFD does nothing with them: the entry waits for Data or its expiry).
//!
//! Where the learned routes live: in this strategy, not in the forwarder's FIB. NFD puts them in
//! the RIB, whence the FIB. Here the `Strategy` trait returns decisions and cannot write the FIB;
//! a generic "add a next hop" action would put a per-Data cost and an expiring-FIB mechanism in
//! the forwarder that only this strategy uses. So the strategy keeps its learned table, and its
//! next hops are the forwarder's FIB entry and its own longest learned prefix, whichever is
//! longer (both when they are the same prefix), as NFD's FIB would merge the two. The forwarder
//! only carries the two link-header fields: the incoming Interest's header and the outgoing
//! one's (`after_receive_interest_lp`), the announcement on the Data sent down
//! (`after_receive_data_lp`), and whether each out-record's Interest was NonDiscovery.
//!
//! Differences from NFD, and why:
//! - No retransmission suppression, as NFD's self-learning has none: every Interest that reaches
//!   the strategy (a new nonce) is forwarded or broadcast again.
//! - Learned routes are checked for expiry when read (no timer): a route past its expiry is never
//!   used, and is dropped when the table is next written.
//! - The announcement is looked up by the Interest's name (NFD looks up the Data's, which the
//!   Interest's is a prefix of; the two differ only for a CanBePrefix Interest whose Data name has
//!   a longer learned prefix). It is found at once, where NFD asks the RIB thread and sends the
//!   Data a moment later.
//! - A discovery or NonDiscovery Interest with routes but no eligible next hop (the only route is
//!   back where it came from) is left pending, as NFD's multicast of it sends nothing.
//! - An announcement is not signed or validated (NFD validates it against its trust schema before
//!   adding the route): `packet::prefix_announcement` says what is carried instead.

use std::borrow::Cow;

use smallvec::SmallVec;

use super::{DataDecision, Faces, InterestDecision, NackDecision, Strategy, StrategyCtx};
use crate::fw::face::FaceKind;
use crate::packet::lp::flags;
use crate::packet::{LpHeader, Nack, NackReason, PrefixAnnouncement};
use crate::table::{FaceId, FibEntry, NextHop, PitEntry};
use crate::{Name, Time};

/// Longest life of a learned route (NFD `SelfLearningStrategy::ROUTE_RENEW_LIFETIME`, 10 min): a
/// route lasts the announcement's ExpirationPeriod, but no longer than this.
pub const ROUTE_RENEW_LIFETIME: Time = Time::from_secs(600);

/// ExpirationPeriod of an announcement made from a static route (NFD `RibEntry::
/// getPrefixAnnouncement`: the entry's remaining lifetime clamped to [15 s, 1 h]; a static
/// route never expires, so 1 h).
pub const STATIC_ROUTE_ANNOUNCEMENT: Time = Time::from_secs(3600);

/// A route learned from a prefix announcement.
#[derive(Clone, Debug, PartialEq, Eq)]
struct LearnedRoute {
    face: FaceId,
    expires: Time,
    /// The announcement it was learned from, passed on to discovery downstreams.
    announcement: PrefixAnnouncement,
}

#[derive(Default)]
pub struct SelfLearningStrategy {
    /// Learned routes by announced prefix (few prefixes: a scan is cheaper than a map).
    routes: Vec<(Name, SmallVec<[LearnedRoute; 2]>)>,
    reason: &'static str,
}

impl SelfLearningStrategy {
    pub fn new() -> Self {
        Self::default()
    }

    /// The faces of the unexpired learned routes at the longest learned prefix of `name`, with
    /// that prefix's length.
    pub fn learned_faces(&self, now: Time, name: &Name) -> Option<(usize, Faces)> {
        let (prefix, routes) = self.longest_learned(now, name)?;
        Some((prefix.len(), routes.iter().filter(|r| r.expires > now).map(|r| r.face).collect()))
    }

    /// When the learned route for `prefix` via `face` expires, if there is one (expired or not).
    pub fn route_expiry(&self, prefix: &Name, face: FaceId) -> Option<Time> {
        let (_, routes) = self.routes.iter().find(|(p, _)| p == prefix)?;
        routes.iter().find(|r| r.face == face).map(|r| r.expires)
    }

    /// The longest learned prefix of `name` with an unexpired route.
    fn longest_learned(&self, now: Time, name: &Name) -> Option<&(Name, SmallVec<[LearnedRoute; 2]>)> {
        self.routes
            .iter()
            .filter(|(p, routes)| p.is_prefix_of(name) && routes.iter().any(|r| r.expires > now))
            .max_by_key(|(p, _)| p.len())
    }

    /// NFD `slAnnounce`: a route for the announced prefix via `face`, lasting the announcement's
    /// period capped at `ROUTE_RENEW_LIFETIME`; learning it again renews it.
    fn learn(&mut self, now: Time, face: FaceId, announcement: &PrefixAnnouncement) {
        let expires = now + announcement.expiration.min(ROUTE_RENEW_LIFETIME);
        let route = LearnedRoute { face, expires, announcement: announcement.clone() };
        self.routes.iter_mut().for_each(|(_, rs)| rs.retain(|r| r.expires > now));
        self.routes.retain(|(_, rs)| !rs.is_empty());
        match self.routes.iter_mut().find(|(p, _)| *p == announcement.prefix) {
            Some((_, rs)) => match rs.iter_mut().find(|r| r.face == face) {
                Some(r) => *r = route,
                None => rs.push(route),
            },
            None => self.routes.push((announcement.prefix.clone(), SmallVec::from_elem(route, 1))),
        }
    }

    /// NFD `slRenew` with a lifetime of 0: the learned route via `face` at the longest learned
    /// prefix of `name` that has one ends now. Static routes are not touched.
    fn forget(&mut self, now: Time, name: &Name, face: FaceId) {
        let found = self
            .routes
            .iter_mut()
            .filter(|(p, rs)| p.is_prefix_of(name) && rs.iter().any(|r| r.face == face && r.expires > now))
            .max_by_key(|(p, _)| p.len());
        if let Some((_, rs)) = found {
            rs.retain(|r| r.face != face);
        }
    }

    /// The next hops for `name`: the FIB entry's or the learned ones, whichever prefix is longer
    /// (both at the same prefix), eligible or not.
    fn next_hops(&self, ctx: &StrategyCtx, name: &Name, fib: Option<&FibEntry>) -> SmallVec<[NextHop; 4]> {
        let fib_len = fib.map(|f| f.prefix.len());
        let learned = self.learned_faces(ctx.now, name);
        let mut hops = SmallVec::new();
        if fib_len >= learned.as_ref().map(|(len, _)| *len) {
            hops.extend(fib.into_iter().flat_map(|f| f.nexthops.iter().copied()));
        }
        if let Some((len, faces)) = learned {
            if Some(len) >= fib_len {
                for face in faces {
                    if !hops.iter().any(|h: &NextHop| h.face == face) {
                        hops.push(NextHop { face, cost: 0 });
                    }
                }
            }
        }
        hops
    }

    /// Every up link face but `in_face` (NFD's broadcast skips the incoming face and local ones).
    fn broadcast_faces(ctx: &StrategyCtx, in_face: FaceId) -> Faces {
        ctx.faces
            .iter()
            .enumerate()
            .filter(|(i, f)| *i != in_face.index() && f.up && f.kind == FaceKind::Link)
            .map(|(i, _)| FaceId(i as u32))
            .collect()
    }

    /// NFD `needPrefixAnn`: an unexpired in-record asked by discovery, and one of them is
    /// another forwarder's (a consumer on this node needs no announcement).
    fn needs_announcement(ctx: &StrategyCtx, entry: &PitEntry) -> bool {
        let live = || entry.in_records.iter().filter(|r| r.expiry > ctx.now);
        live().any(|r| !r.non_discovery) && live().any(|r| ctx.face_kind(r.face) != Some(FaceKind::App))
    }

    /// NFD `slFindAnn`: the announcement of the learned route at the longest prefix covering
    /// `name`, else one made from the static route (the FIB entry) when its prefix is longer.
    fn find_announcement(&self, ctx: &StrategyCtx, name: &Name) -> Option<PrefixAnnouncement> {
        let learned = self.longest_learned(ctx.now, name);
        let fib = ctx.fib.longest_prefix_match(name).map(|(_, e)| e);
        match (learned, fib) {
            (Some((p, routes)), f) if f.is_none_or(|f| f.prefix.len() <= p.len()) => {
                // NFD picks the route that expires last.
                let best = routes.iter().filter(|r| r.expires > ctx.now).max_by_key(|r| r.expires)?;
                Some(best.announcement.clone())
            }
            (_, Some(f)) => {
                Some(PrefixAnnouncement { prefix: f.prefix.clone(), expiration: STATIC_ROUTE_ANNOUNCEMENT })
            }
            (_, None) => None,
        }
    }
}

impl Strategy for SelfLearningStrategy {
    fn name(&self) -> &'static str {
        "self-learning"
    }

    /// Without the link header an Interest counts as a discovery one.
    fn after_receive_interest(
        &mut self,
        ctx: &StrategyCtx,
        in_face: FaceId,
        entry: &mut PitEntry,
        fib: Option<&FibEntry>,
    ) -> InterestDecision {
        self.after_receive_interest_lp(ctx, in_face, (&LpHeader::default(), &mut LpHeader::default()), entry, fib)
    }

    fn after_receive_interest_lp(
        &mut self,
        ctx: &StrategyCtx,
        in_face: FaceId,
        (lp_in, lp_out): (&LpHeader, &mut LpHeader),
        entry: &mut PitEntry,
        fib: Option<&FibEntry>,
    ) -> InterestDecision {
        let non_discovery = lp_in.non_discovery();
        if let Some(r) = entry.in_records.iter_mut().find(|r| r.face == in_face) {
            r.non_discovery = non_discovery;
        }
        let hops = self.next_hops(ctx, entry.name(), fib);
        if hops.is_empty() {
            if non_discovery {
                self.reason = "non-discovery Interest, no route: Nack";
                return InterestDecision::Reject(NackReason::NoRoute);
            }
            self.reason = "discovery Interest, no route: broadcast";
            let faces = Self::broadcast_faces(ctx, in_face);
            return if faces.is_empty() { InterestDecision::Suppress } else { InterestDecision::Forward(faces) };
        }
        self.reason = if non_discovery {
            "non-discovery Interest: every next hop"
        } else {
            "discovery Interest with a route: every next hop, marked non-discovery"
        };
        lp_out.ext_mut().non_discovery = true;
        let faces: Faces = hops.iter().filter(|h| ctx.is_eligible(in_face, h, entry, false)).map(|h| h.face).collect();
        if faces.is_empty() {
            self.reason = "routes, but no eligible next hop: left pending";
            return InterestDecision::Suppress;
        }
        InterestDecision::Forward(faces)
    }

    fn after_receive_data_lp(
        &mut self,
        ctx: &StrategyCtx,
        entry: &PitEntry,
        in_face: FaceId,
        lp: &LpHeader,
        announcement: &mut Option<PrefixAnnouncement>,
    ) -> DataDecision {
        let sent_non_discovery = entry.out_record(in_face).is_some_and(|o| o.non_discovery);
        let arrived = lp.prefix_announcement();
        if !sent_non_discovery {
            if let Some(a) = arrived {
                self.learn(ctx.now, in_face, a);
            }
        }
        let made = (sent_non_discovery && Self::needs_announcement(ctx, entry))
            .then(|| self.find_announcement(ctx, entry.name()))
            .flatten();
        if announcement.is_none() {
            *announcement = made.or_else(|| arrived.cloned());
        }
        DataDecision { flags: lp.flags & flags::PATH_SIGNALS }
    }

    fn after_receive_nack(
        &mut self,
        ctx: &StrategyCtx,
        in_face: FaceId,
        nack: &Nack,
        _lp: &LpHeader,
        _entry: &mut PitEntry,
        _fib: Option<&FibEntry>,
    ) -> NackDecision {
        if nack.reason != NackReason::NoRoute {
            return NackDecision::Wait;
        }
        self.forget(ctx.now, &nack.interest.name, in_face);
        // Every downstream hears of it at once, as NFD's sendNacks does, pending upstreams or not.
        NackDecision::NackDownstream(NackReason::NoRoute)
    }

    fn decision_reason(&self) -> Cow<'static, str> {
        Cow::Borrowed(self.reason)
    }
}

#[cfg(test)]
#[path = "self_learning_tests.rs"]
mod tests;
