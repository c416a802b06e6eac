//! The Routing Information Base (NFD daemon/rib/rib.cpp, the `rib` management module): routes
//! that applications register, each keyed by (prefix, face, origin), from which the FIB's next
//! hops are made. NFD's rules, as this module keeps them:
//! - a (prefix, face) pair gets one FIB next hop, with the lowest cost among its routes' origins;
//! - a route registered again with the same key is updated in place (cost, flags, expiration);
//! - a route with an expiration period leaves at its deadline, and its next hop with it unless
//!   another origin still names that face;
//! - a face that closes takes all its routes with it.
//!
//! Not kept (NFD's `ChildInherit` and `Capture` flags): a route applies to its prefix only, and
//! the FIB's longest-prefix match already reaches names below it; the flags are stored and
//! reported, not acted on.

use ndnflow_core::table::{FaceId, Fib};
use ndnflow_core::{Name, Time};

/// NFD's route origin numbers (ndn-cxx `RouteOrigin`): 0 is an application's registration, 255 a
/// static route (the daemon's configuration file).
pub const ORIGIN_APP: u64 = 0;
pub const ORIGIN_STATIC: u64 = 255;
/// ndn-cxx `ROUTE_FLAG_CHILD_INHERIT`, the default flags of a registration.
pub const FLAG_CHILD_INHERIT: u64 = 1;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Route {
    pub prefix: Name,
    pub face: FaceId,
    pub origin: u64,
    pub cost: u64,
    pub flags: u64,
    /// When it leaves, on the daemon's clock; `None`: never.
    pub expires: Option<Time>,
}

#[derive(Default, Debug)]
pub struct Rib {
    routes: Vec<Route>,
}

impl Rib {
    /// Adds or updates `route` and sets its FIB next hop.
    pub fn register(&mut self, fib: &mut Fib, route: Route) {
        let key = |r: &Route| (r.prefix.clone(), r.face, r.origin);
        match self.routes.iter_mut().find(|r| key(r) == key(&route)) {
            Some(r) => *r = route.clone(),
            None => self.routes.push(route.clone()),
        }
        self.sync(fib, &route.prefix, route.face);
    }

    /// Removes the route (prefix, face, origin) if there is one, and updates the FIB.
    pub fn unregister(&mut self, fib: &mut Fib, prefix: &Name, face: FaceId, origin: u64) -> bool {
        let before = self.routes.len();
        self.routes.retain(|r| !(r.prefix == *prefix && r.face == face && r.origin == origin));
        self.sync(fib, prefix, face);
        self.routes.len() != before
    }

    /// Every route over `face` leaves (the face closed or was destroyed).
    pub fn remove_face(&mut self, fib: &mut Fib, face: FaceId) {
        self.routes.retain(|r| r.face != face);
        fib.remove_face(face);
    }

    /// Routes whose deadline is at or before `now` leave; how many did.
    pub fn expire(&mut self, fib: &mut Fib, now: Time) -> usize {
        let gone: Vec<Route> = self.routes.iter().filter(|r| r.expires.is_some_and(|t| t <= now)).cloned().collect();
        for r in &gone {
            self.unregister(fib, &r.prefix, r.face, r.origin);
        }
        gone.len()
    }

    /// The earliest deadline of a route, for the daemon's timer.
    pub fn next_expiry(&self) -> Option<Time> {
        self.routes.iter().filter_map(|r| r.expires).min()
    }

    /// Routes grouped by prefix, in registration order of the prefixes (the rib/list dataset).
    pub fn entries(&self) -> Vec<(&Name, Vec<&Route>)> {
        let mut out: Vec<(&Name, Vec<&Route>)> = Vec::new();
        for r in &self.routes {
            match out.iter_mut().find(|(p, _)| **p == r.prefix) {
                Some((_, rs)) => rs.push(r),
                None => out.push((&r.prefix, vec![r])),
            }
        }
        out
    }

    /// The FIB next hop of (prefix, face): the lowest cost of its routes, or none.
    fn sync(&self, fib: &mut Fib, prefix: &Name, face: FaceId) {
        let cost = self.routes.iter().filter(|r| r.prefix == *prefix && r.face == face).map(|r| r.cost).min();
        match cost {
            Some(cost) => fib.add_nexthop(prefix, face, cost),
            None => {
                fib.remove_nexthop(prefix, face);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn route(prefix: &str, face: u32, origin: u64, cost: u64) -> Route {
        let prefix = Name::parse(prefix).unwrap();
        Route { prefix, face: FaceId(face), origin, cost, flags: FLAG_CHILD_INHERIT, expires: None }
    }

    fn hops(fib: &Fib, name: &str) -> Vec<(u32, u64)> {
        let name = Name::parse(name).unwrap();
        fib.longest_prefix_match(&name).map_or(vec![], |(_, e)| e.nexthops.iter().map(|h| (h.face.0, h.cost)).collect())
    }

    #[test]
    fn a_face_gets_the_lowest_cost_of_its_origins_and_keeps_the_next_hop_until_the_last_goes() {
        let (mut rib, mut fib) = (Rib::default(), Fib::new());
        rib.register(&mut fib, route("/p", 1, ORIGIN_APP, 10));
        rib.register(&mut fib, route("/p", 1, ORIGIN_STATIC, 3));
        assert_eq!(hops(&fib, "/p/x"), vec![(1, 3)]);
        // The cheaper origin leaves: the app's cost 10 remains.
        assert!(rib.unregister(&mut fib, &Name::parse("/p").unwrap(), FaceId(1), ORIGIN_STATIC));
        assert_eq!(hops(&fib, "/p/x"), vec![(1, 10)]);
        // Registered again with another cost: updated, not added.
        rib.register(&mut fib, route("/p", 1, ORIGIN_APP, 4));
        assert_eq!(rib.entries()[0].1.len(), 1);
        assert_eq!(hops(&fib, "/p/x"), vec![(1, 4)]);
        assert!(rib.unregister(&mut fib, &Name::parse("/p").unwrap(), FaceId(1), ORIGIN_APP));
        assert_eq!(hops(&fib, "/p/x"), vec![]);
    }

    #[test]
    fn routes_leave_at_their_deadline_and_with_their_face() {
        let (mut rib, mut fib) = (Rib::default(), Fib::new());
        let mut r = route("/a", 1, ORIGIN_APP, 0);
        r.expires = Some(Time::from_secs(5));
        rib.register(&mut fib, r);
        rib.register(&mut fib, route("/b", 2, ORIGIN_APP, 0));
        rib.register(&mut fib, route("/c", 2, ORIGIN_APP, 0));
        assert_eq!(rib.next_expiry(), Some(Time::from_secs(5)));
        assert_eq!(rib.expire(&mut fib, Time::from_millis(4_999)), 0);
        assert_eq!(rib.expire(&mut fib, Time::from_secs(5)), 1);
        assert_eq!(hops(&fib, "/a"), vec![]);
        rib.remove_face(&mut fib, FaceId(2));
        assert!(rib.entries().is_empty());
        assert_eq!(fib.len(), 0);
    }
}
