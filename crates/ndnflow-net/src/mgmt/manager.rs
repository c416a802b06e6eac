//! The daemon's answers to Interests under /localhost/nfd (NFD daemon/mgmt/: RibManager,
//! FibManager, FaceManager, StrategyChoiceManager, ForwarderStatusManager; faces/update is in
//! `faces`, the Content Store's cs/info, cs/config and cs/erase in `cs`).
//!
//! NFD routes these Interests to an internal face through its pipelines; here the driver answers
//! them before the forwarder sees them, so management costs the forwarder's tables nothing and a
//! command's reply goes straight back on the face that asked.
//!
//! What is checked, and what is not (issue 25: "say what is verified"):
//! - Only local faces are heard (Unix-socket applications, and TCP connections from a loopback
//!   address: NFD's local scope): a /localhost/nfd Interest from any other face is dropped and
//!   counted (`refused_commands`), as NFD's localhost scope drops it.
//! - A command's ControlParameters are decoded and validated (required fields, a known face, a
//!   known strategy); a malformed one gets 400.
//! - Signatures are not verified and nothing is authorised by key: NFD checks the command's
//!   signature against its `authorizations` config, while here being local is the authorisation,
//!   as with NFD's `localhost_security` set to accept any signer.
//!
//! Status codes as NFD's: 200 done, 400 malformed, 404 unknown strategy (or, for faces/update, an
//! unknown face), 406 a face kind not built (UDP and TCP are), 409 the face exists (or a change
//! faces/update cannot make), 410 no such face. Unknown verbs get 501 (NFD sends no answer; a
//! reply says why at once instead of after the Interest's lifetime).

use std::net::SocketAddr;
use std::sync::Arc;

use ndnflow_core::fw::FaceKind;
use ndnflow_core::packet::{Data, Frame, Interest};
use ndnflow_core::table::FaceId;
use ndnflow_core::Name;

use super::control::{parse_command, response_content, ControlParameters, ControlResponse};
use super::notify::FaceEvent;
use super::rib::{Route, FLAG_CHILD_INHERIT, ORIGIN_APP};
use crate::daemon::Daemon;
use crate::face::lp::LinkService;
use crate::face::{Face, Persistency, Transport};

/// NFD keeps FaceIds below 256 for its own faces (internal 1, content store 254, null 255); its
/// first face for a peer or an application is 256. The daemon's face `i` is FaceId 256 + i.
pub const FIRST_FACE_ID: u64 = 256;

pub fn nfd_face_id(face: FaceId) -> u64 {
    FIRST_FACE_ID + face.0 as u64
}

/// NFD's URI scheme for a UDP peer: `udp4://a.b.c.d:port` or `udp6://[::1]:port`.
pub fn udp_uri(addr: SocketAddr) -> String {
    let scheme = if addr.is_ipv4() { "udp4" } else { "udp6" };
    format!("{scheme}://{addr}")
}

/// ndn-cxx's face flag for NDNLPv2 link reliability (nfd-constants.hpp,
/// `BIT_LP_RELIABILITY_ENABLED` = 1): the value 2 in Flags and Mask.
pub const FLAG_LP_RELIABILITY: u64 = 1 << 1;
/// NFD's `BIT_CONGESTION_MARKING_ENABLED`: marking on a face's send queue, which the daemon's
/// faces do not build (the simulator's links do, `marking = "nfd"`); asked for, it is refused.
pub const FLAG_CONGESTION_MARKING: u64 = 1 << 2;

/// The strategy names management speaks: `/localhost/nfd/strategy/<word>[/v=N]`.
const STRATEGY_PREFIX: [&str; 3] = ["localhost", "nfd", "strategy"];

impl Daemon {
    /// An Interest under /localhost/nfd arrived on `face`: answers it, or drops it if the face is
    /// not local. Never forwarded.
    pub(crate) fn on_management(&mut self, face: FaceId, interest: &Arc<Interest>) {
        if !self.faces.get(face.index()).is_some_and(|f| f.local_scope) {
            self.count(face, |c| c.refused_commands += 1);
            return;
        }
        if self.face_events.covers(&interest.name) {
            self.on_face_events_interest(face, interest);
            return;
        }
        let reply = match self.dataset_reply(&interest.name) {
            Some(reply) => reply,
            None => match parse_command(&interest.name) {
                None => return,
                Some(Err(e)) => {
                    self.reply(interest, ControlResponse::error(400, format!("bad ControlParameters: {e}")))
                }
                Some(Ok((module, verb, params))) => {
                    let response = self.command(face, &module, &verb, params);
                    self.reply(interest, response)
                }
            },
        };
        if let Some(data) = reply {
            self.out.push((face, Frame::data(Arc::new(data))));
        }
    }

    fn reply(&self, interest: &Interest, response: ControlResponse) -> Option<Data> {
        let mut data = Data::new(interest.name.clone(), response_content(&response));
        crate::sign::sign_digest_sha256(&mut data);
        Some(data)
    }

    fn command(&mut self, face: FaceId, module: &str, verb: &str, p: ControlParameters) -> ControlResponse {
        match (module, verb) {
            ("rib", "register") => self.rib_register(face, p),
            ("rib", "unregister") => self.rib_unregister(face, p),
            ("fib", "add-nexthop") => self.fib_add_nexthop(face, p),
            ("fib", "remove-nexthop") => self.fib_remove_nexthop(face, p),
            ("faces", "create") => self.faces_create(p),
            ("faces", "update") => self.faces_update(face, p),
            ("faces", "destroy") => self.faces_destroy(p),
            ("strategy-choice", "set") => self.strategy_set(p),
            ("strategy-choice", "unset") => self.strategy_unset(p),
            ("cs", "config") => self.cs_config(p),
            ("cs", "erase") => self.cs_erase(p),
            _ => ControlResponse::error(501, format!("unsupported command {module}/{verb}")),
        }
    }

    /// The face a command names: FaceId absent or 0 is the face that asked (NFD's rule).
    fn target_face(&self, asking: FaceId, p: &ControlParameters) -> Result<FaceId, Box<ControlResponse>> {
        match p.face_id {
            None | Some(0) => Ok(asking),
            Some(id) => {
                self.live_face(id).ok_or_else(|| Box::new(ControlResponse::error(410, format!("face {id} not found"))))
            }
        }
    }

    /// The daemon's face with NFD FaceId `id`, if it exists and is not closed.
    pub(crate) fn live_face(&self, id: u64) -> Option<FaceId> {
        let index = usize::try_from(id.checked_sub(FIRST_FACE_ID)?).ok()?;
        let face = self.faces.get(index)?;
        (!matches!(face.transport, Transport::Closed)).then_some(FaceId(index as u32))
    }

    fn rib_register(&mut self, asking: FaceId, p: ControlParameters) -> ControlResponse {
        let Some(prefix) = p.name.clone() else { return missing("Name") };
        let face = match self.target_face(asking, &p) {
            Ok(f) => f,
            Err(e) => return *e,
        };
        let expires = p.expiration_period.map(|ms| {
            // Saturating: a period near u64::MAX ms (any peer may send one) means "never", not a wrap.
            self.clock.now().saturating_add(ndnflow_core::Time::from_nanos(ms.saturating_mul(1_000_000)))
        });
        let route = Route {
            prefix: prefix.clone(),
            face,
            origin: p.origin.unwrap_or(ORIGIN_APP),
            cost: p.cost.unwrap_or(0),
            flags: p.flags.unwrap_or(FLAG_CHILD_INHERIT),
            expires,
        };
        let body = ControlParameters {
            name: Some(prefix),
            face_id: Some(nfd_face_id(face)),
            origin: Some(route.origin),
            cost: Some(route.cost),
            flags: Some(route.flags),
            expiration_period: p.expiration_period,
            ..Default::default()
        };
        self.rib.register(&mut self.forwarder.fib, route);
        ControlResponse::ok(body)
    }

    fn rib_unregister(&mut self, asking: FaceId, p: ControlParameters) -> ControlResponse {
        let Some(prefix) = p.name.clone() else { return missing("Name") };
        let face = match self.target_face(asking, &p) {
            Ok(f) => f,
            Err(e) => return *e,
        };
        let origin = p.origin.unwrap_or(ORIGIN_APP);
        // NFD answers 200 whether or not the route existed: the state asked for holds.
        self.rib.unregister(&mut self.forwarder.fib, &prefix, face, origin);
        let body = ControlParameters {
            name: Some(prefix),
            face_id: Some(nfd_face_id(face)),
            origin: Some(origin),
            ..Default::default()
        };
        ControlResponse::ok(body)
    }

    fn fib_add_nexthop(&mut self, asking: FaceId, p: ControlParameters) -> ControlResponse {
        let Some(prefix) = p.name.clone() else { return missing("Name") };
        let face = match self.target_face(asking, &p) {
            Ok(f) => f,
            Err(e) => return *e,
        };
        let cost = p.cost.unwrap_or(0);
        self.forwarder.fib.add_nexthop(&prefix, face, cost);
        ControlResponse::ok(ControlParameters {
            name: Some(prefix),
            face_id: Some(nfd_face_id(face)),
            cost: Some(cost),
            ..Default::default()
        })
    }

    fn fib_remove_nexthop(&mut self, asking: FaceId, p: ControlParameters) -> ControlResponse {
        let Some(prefix) = p.name.clone() else { return missing("Name") };
        let face = match self.target_face(asking, &p) {
            Ok(f) => f,
            Err(e) => return *e,
        };
        self.forwarder.fib.remove_nexthop(&prefix, face);
        ControlResponse::ok(ControlParameters {
            name: Some(prefix),
            face_id: Some(nfd_face_id(face)),
            ..Default::default()
        })
    }

    fn faces_create(&mut self, p: ControlParameters) -> ControlResponse {
        let Some(uri) = p.uri.clone() else { return missing("Uri") };
        let (tcp, peer) = match parse_face_uri(&uri) {
            Ok(found) => found,
            Err(e) => return *e,
        };
        let (mtu, reliable) = match link_options(&p, tcp) {
            Ok(options) => options,
            Err(e) => return *e,
        };
        let persistency = match requested_persistency(&p) {
            Ok(persistency) => persistency,
            Err(e) => return *e,
        };
        if tcp {
            return self.create_tcp_face(peer, persistency);
        }
        let local = self.udp_addr();
        let Some(udp) = self.udp.as_mut() else {
            return ControlResponse::error(406, "UDP faces are off (listen.udp = false)");
        };
        if let Some(local) = local.filter(|l| l.is_ipv4() != peer.is_ipv4()) {
            // NFD answers 406 when it has no channel of the peer's family; an IPv4 socket cannot
            // send to an IPv6 peer, and such a face lost every packet until 2026-11-28.
            let msg = format!("no UDP channel for {peer}: the daemon's UDP socket is {local}");
            return ControlResponse::error(406, msg);
        }
        if let Some(existing) = udp.face_of(peer) {
            let mut r = ControlResponse::error(409, "a face with this remote URI already exists");
            r.body = Some(self.face_parameters(existing));
            return r;
        }
        let id = self.forwarder.add_face(FaceKind::Link);
        udp.insert(peer, id);
        let face = Face::udp_with(None, peer, LinkService::new(mtu, peer.is_ipv6(), reliable));
        self.faces.push(Face { persistency, ..face });
        self.face_event(FaceEvent::Created, id);
        ControlResponse::ok(self.face_parameters(id))
    }

    fn faces_destroy(&mut self, p: ControlParameters) -> ControlResponse {
        let Some(id) = p.face_id else { return missing("FaceId") };
        // NFD answers 200 for a face that does not exist: the state asked for holds.
        if let Some(face) = self.live_face(id) {
            self.close_face(face);
        }
        ControlResponse::ok(ControlParameters { face_id: Some(id), ..Default::default() })
    }

    /// Ends a face: down in the forwarder, its routes and next hops gone, its transport closed
    /// (a Unix connection's writer ends; a UDP peer may come back as a new face).
    pub(crate) fn close_face(&mut self, face: FaceId) {
        if self.faces.get(face.index()).is_some_and(|f| !matches!(f.transport, Transport::Closed)) {
            // Posted while the face's URIs are still known.
            self.face_event(FaceEvent::Destroyed, face);
        }
        self.forwarder.set_face_up(face, false);
        self.rib.remove_face(&mut self.forwarder.fib, face);
        let Some(f) = self.faces.get_mut(face.index()) else { return };
        if let (Transport::Udp(peer), Some(udp)) = (&f.transport, self.udp.as_mut()) {
            udp.remove(*peer);
        }
        f.transport = Transport::Closed;
    }

    /// A face's parameters, as faces/create answers with them.
    fn face_parameters(&self, face: FaceId) -> ControlParameters {
        let (uri, local_uri) = self.face_uris(face);
        ControlParameters {
            face_id: Some(nfd_face_id(face)),
            uri: Some(uri),
            local_uri: Some(local_uri),
            face_persistency: Some(self.faces[face.index()].persistency.nfd()),
            flags: Some(self.face_flags(face)),
            mtu: self.face_mtu(face).map(u64::from),
            ..Default::default()
        }
    }

    /// A face's Flags as NFD reports them: the reliability bit (local fields and congestion
    /// marking are never on here).
    pub(crate) fn face_flags(&self, face: FaceId) -> u64 {
        let reliable = self.faces[face.index()].lp.as_ref().is_some_and(|s| s.reliable());
        if reliable {
            FLAG_LP_RELIABILITY
        } else {
            0
        }
    }

    /// A UDP face's MTU (NFD reports one for faces whose transport has one).
    pub(crate) fn face_mtu(&self, face: FaceId) -> Option<u32> {
        self.faces[face.index()].lp.as_ref().map(|s| s.mtu())
    }

    fn strategy_set(&mut self, p: ControlParameters) -> ControlResponse {
        let Some(prefix) = p.name.clone() else { return missing("Name") };
        let Some(strategy) = p.strategy.clone() else { return missing("Strategy") };
        let Some(word) = strategy_word(&strategy) else {
            return ControlResponse::error(
                404,
                format!("strategy {strategy} not registered: names are /localhost/nfd/strategy/<name>"),
            );
        };
        // The scenario's reader knows every strategy's name: one vocabulary, one reader.
        let table = format!("set = {{ strategy = {} }}", toml::Value::String(word.clone()));
        match ndnflow_sim::scenario::toml::parse_forwarder_table(&table, "strategy-choice", "set") {
            Ok(config) => {
                self.forwarder.choose_strategy(&prefix, config.default_strategy);
                ControlResponse::ok(ControlParameters {
                    name: Some(prefix),
                    strategy: Some(strategy),
                    ..Default::default()
                })
            }
            Err(e) => {
                // The reader's reason, without the place in the one-line table made above
                // ("strategy-choice:1:20: set.strategy: "), which names nothing the asker wrote.
                let e = e.to_string();
                let why = e.split_once("set.strategy: ").map_or(e.as_str(), |(_, why)| why);
                ControlResponse::error(404, format!("strategy {word:?} not registered: {why}"))
            }
        }
    }

    fn strategy_unset(&mut self, p: ControlParameters) -> ControlResponse {
        let Some(prefix) = p.name.clone() else { return missing("Name") };
        if prefix.is_empty() {
            return ControlResponse::error(400, "the strategy of / cannot be unset");
        }
        self.forwarder.unset_strategy(&prefix);
        ControlResponse::ok(ControlParameters { name: Some(prefix), ..Default::default() })
    }

    /// NFD's remote and local URIs of a face: `udp4://peer` and the UDP socket's address; for an
    /// application's connection `fd://N` and the listener's `unix://PATH` (NFD writes the
    /// socket's descriptor as N; here N is the FaceId).
    pub(crate) fn face_uris(&self, face: FaceId) -> (String, String) {
        let f = &self.faces[face.index()];
        match (&f.transport, self.udp_addr()) {
            (Transport::Udp(peer), Some(local)) => (udp_uri(*peer), udp_uri(local)),
            _ if f.remote.starts_with("tcp") => (f.remote.clone(), f.local.clone().unwrap_or_default()),
            _ => (format!("fd://{}", nfd_face_id(face)), f.remote.clone()),
        }
    }

    /// faces/create for a TCP peer: 409 if a live face has that remote URI already.
    fn create_tcp_face(&mut self, peer: SocketAddr, persistency: Persistency) -> ControlResponse {
        let wanted = crate::face::tcp_uri(peer);
        let live = |f: &Face| f.remote == wanted && !matches!(f.transport, Transport::Closed);
        if let Some(i) = self.faces.iter().position(live) {
            let mut r = ControlResponse::error(409, "a face with this remote URI already exists");
            r.body = Some(self.face_parameters(FaceId(i as u32)));
            return r;
        }
        let id = self.connect_tcp(None, peer, persistency);
        ControlResponse::ok(self.face_parameters(id))
    }
}

/// faces/create's FacePersistency, as NFD's FaceManager takes it: persistent (0, the default)
/// or permanent (2); on-demand (1) faces are made by their peers, not by a command (406).
fn requested_persistency(p: &ControlParameters) -> Result<Persistency, Box<ControlResponse>> {
    match p.face_persistency {
        None | Some(0) => Ok(Persistency::Persistent),
        Some(2) => Ok(Persistency::Permanent),
        Some(1) => {
            Err(Box::new(ControlResponse::error(406, "on-demand faces are made by their peers, not by faces/create")))
        }
        Some(n) => Err(Box::new(ControlResponse::error(400, format!("FacePersistency {n} is none of 0, 1, 2")))),
    }
}

fn missing(field: &str) -> ControlResponse {
    ControlResponse::error(400, format!("{field} is missing"))
}

/// faces/create's Mtu and the reliability bit of Flags/Mask, as NFD's FaceManager reads them:
/// Flags and Mask come together (400 otherwise); an Mtu below NFD's 64 is refused (406), and so
/// are the options this driver does not build: either on a TCP face, or both on one UDP face
/// (`face::lp`: a reliable face never fragments).
fn link_options(p: &ControlParameters, tcp: bool) -> Result<(Option<u32>, bool), Box<ControlResponse>> {
    let reliable = match (p.flags, p.mask) {
        (None, None) => false,
        (Some(flags), Some(mask)) if mask & flags & FLAG_CONGESTION_MARKING != 0 => {
            let msg = "congestion marking (Flags bit 2) is not built on the daemon's faces";
            return Err(Box::new(ControlResponse::error(406, msg)));
        }
        (Some(flags), Some(mask)) => mask & flags & FLAG_LP_RELIABILITY != 0,
        _ => return Err(Box::new(ControlResponse::error(400, "Flags and Mask must come together"))),
    };
    let mtu = match p.mtu {
        None => None,
        Some(m) if m < 64 => return Err(Box::new(ControlResponse::error(406, "Mtu below 64 (NFD's MIN_MTU)"))),
        Some(m) => Some(m.min(u64::from(crate::face::lp::UDP_MTU_V6)) as u32),
    };
    if tcp && (reliable || mtu.is_some()) {
        return Err(Box::new(ControlResponse::error(406, "Mtu and link reliability are for UDP faces here")));
    }
    if reliable && mtu.is_some() {
        let msg = "Mtu with link reliability is not built: a reliable face sends whole frames";
        return Err(Box::new(ControlResponse::error(406, msg)));
    }
    Ok((mtu, reliable))
}

/// `udp4://1.2.3.4:6363`, `tcp6://[::1]:6363`, `udp://...`: (whether TCP, the peer). The port
/// defaults to 6363. Host names are refused: NFD resolves them (FaceUri canonization), the daemon
/// does not. A `4` or `6` scheme takes only its family's addresses (NFD's canonization fails
/// otherwise), and a peer no packet can reach is refused (`face::unusable_peer`).
fn parse_face_uri(uri: &str) -> Result<(bool, SocketAddr), Box<ControlResponse>> {
    let refuse = |code: u64, why: String| Box::new(ControlResponse::error(code, format!("{uri:?}: {why}")));
    let Some((scheme, rest)) = uri.split_once("://") else {
        return Err(Box::new(ControlResponse::error(400, format!("{uri:?} is not a face URI (scheme://address)"))));
    };
    let (tcp, family) = match scheme {
        "udp" => (false, None),
        "udp4" => (false, Some(4)),
        "udp6" => (false, Some(6)),
        "tcp" => (true, None),
        "tcp4" => (true, Some(4)),
        "tcp6" => (true, Some(6)),
        _ => {
            let msg = format!("{scheme} faces are not built (udp and tcp only)");
            return Err(Box::new(ControlResponse::error(406, msg)));
        }
    };
    let (host, port) = split_host_port(rest.trim_end_matches('/'));
    let ip: std::net::IpAddr =
        host.parse().map_err(|_| refuse(400, format!("the address {host:?} must be an IP literal")))?;
    let port = match port {
        None => 6363,
        Some(p) => match p.parse::<u16>() {
            Ok(n) if n > 0 => n,
            _ => return Err(refuse(400, format!("the port {p:?} must be a number from 1 to 65535"))),
        },
    };
    match family {
        Some(4) if !ip.is_ipv4() => return Err(refuse(400, format!("{scheme}:// takes an IPv4 address"))),
        Some(6) if !ip.is_ipv6() => return Err(refuse(400, format!("{scheme}:// takes an IPv6 address"))),
        _ => {}
    }
    let peer = SocketAddr::new(ip, port);
    if let Some(why) = crate::face::unusable_peer(peer) {
        return Err(refuse(406, why.to_string()));
    }
    Ok((tcp, peer))
}

/// A URI's authority as (host, port): `[v6]:port`, `[v6]`, `v4:port`, `v4`, or a bare IPv6
/// address (more than one colon, no brackets).
fn split_host_port(rest: &str) -> (&str, Option<&str>) {
    if let Some(inner) = rest.strip_prefix('[') {
        return match inner.split_once(']') {
            Some((host, "")) => (host, None),
            Some((host, tail)) => (host, Some(tail.strip_prefix(':').unwrap_or(tail))),
            None => (rest, None),
        };
    }
    match rest.matches(':').count() {
        0 => (rest, None),
        1 => rest.split_once(':').map(|(h, p)| (h, Some(p))).unwrap_or((rest, None)),
        _ => (rest, None),
    }
}

/// The built-in strategy a management name asks for: the component after /localhost/nfd/strategy
/// (its version and parameters, if any, are ignored).
fn strategy_word(strategy: &Name) -> Option<String> {
    let word = |i: usize| strategy.get(i).map(|c| String::from_utf8_lossy(c.value).into_owned());
    for (i, expected) in STRATEGY_PREFIX.iter().enumerate() {
        if word(i)? != *expected {
            return None;
        }
    }
    word(3)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn face_uris_parse_as_nfd_writes_them() {
        let ok = |s: &str| parse_face_uri(s).unwrap().1.to_string();
        assert_eq!(ok("udp4://127.0.0.2:6364"), "127.0.0.2:6364");
        assert_eq!(ok("udp4://127.0.0.2"), "127.0.0.2:6363");
        assert_eq!(ok("udp6://[::1]:7000"), "[::1]:7000");
        assert_eq!(ok("udp6://[::1]"), "[::1]:6363");
        assert_eq!(parse_face_uri("tcp4://127.0.0.1:7000").unwrap(), (true, "127.0.0.1:7000".parse().unwrap()));
        assert_eq!(parse_face_uri("ether://[01:02:03:04:05:06]").unwrap_err().status_code, 406);
        assert_eq!(parse_face_uri("udp4://example.net").unwrap_err().status_code, 400);
        assert_eq!(parse_face_uri("127.0.0.1").unwrap_err().status_code, 400);
        assert_eq!(ok("udp6://::1"), "[::1]:6363");
    }

    #[test]
    fn a_uri_no_packet_can_reach_is_refused_naming_what_is_wrong() {
        // Each was taken until 2026-11-28 (a wrong port was blamed on the address, a mismatched
        // family turned into the other scheme, and port 0, 0.0.0.0, multicast and broadcast got
        // 200 and faces that lost every packet).
        let refused = |s: &str| {
            let e = parse_face_uri(s).unwrap_err();
            (e.status_code, e.status_text)
        };
        let port = |s: &str, p: &str| (400, format!("{s:?}: the port {p:?} must be a number from 1 to 65535"));
        assert_eq!(refused("udp4://127.0.0.1:70000"), port("udp4://127.0.0.1:70000", "70000"));
        assert_eq!(refused("udp4://127.0.0.1:abc"), port("udp4://127.0.0.1:abc", "abc"));
        assert_eq!(refused("udp4://127.0.0.1:"), port("udp4://127.0.0.1:", ""));
        assert_eq!(refused("tcp6://[::1]:-1"), port("tcp6://[::1]:-1", "-1"));
        assert_eq!(refused("udp4://127.0.0.1:0"), port("udp4://127.0.0.1:0", "0"));
        assert_eq!(refused("udp4://0.0.0.0:6363").0, 406);
        assert_eq!(refused("udp4://224.0.0.1:6363").0, 406);
        assert_eq!(refused("udp4://255.255.255.255:6363").0, 406);
        assert_eq!(refused("tcp4://[::1]:6363"), (400, "\"tcp4://[::1]:6363\": tcp4:// takes an IPv4 address".into()));
        assert_eq!(refused("udp6://127.0.0.1").0, 400);
        assert_eq!(
            refused("udp4://example.net:6363").1,
            "\"udp4://example.net:6363\": the address \"example.net\" must be an IP literal"
        );
    }

    #[test]
    fn strategy_names_are_read_after_the_management_prefix() {
        let w = |s: &str| strategy_word(&Name::parse(s).unwrap());
        assert_eq!(w("/localhost/nfd/strategy/best-route/v=5").as_deref(), Some("best-route"));
        assert_eq!(w("/localhost/nfd/strategy/multicast").as_deref(), Some("multicast"));
        assert_eq!(w("/localhost/nfd/strategy"), None);
        assert_eq!(w("/best-route"), None);
    }
}
