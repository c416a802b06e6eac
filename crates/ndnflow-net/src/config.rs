//! The daemon's configuration file (TOML): where it listens, its faces and routes, and its
//! forwarder, in the vocabulary of scenario files where one exists (`[[routes]]` with `prefix`,
//! `nexthop`, `cost`; `[forwarder]` holds exactly a scenario node's attributes and is read by the
//! scenario reader itself, `ndnflow_sim::scenario::toml::parse_forwarder_table`).
//!
//! Defaults follow NFD's nfd.conf where NFD has the setting (UDP port 6363, a Content Store of
//! 65536 packets); docs/real-network.md lists every key with its default and source. Every error
//! names the file and the field, and none panics.

use std::net::SocketAddr;
use std::path::{Path, PathBuf};

use ndnflow_core::fw::ForwarderConfig;
use ndnflow_core::table::CsPolicy;
use ndnflow_core::{Name, Time};
use ndnflow_sim::scenario::toml::LinkOutputSpec;
use serde::Deserialize;
use toml::Spanned;

use crate::face::Persistency;

/// NFD's UDP port (nfd.conf `face_system.udp.port`), on every IPv4 address as NFD listens.
pub const DEFAULT_UDP_LISTEN: &str = "0.0.0.0:6363";
/// NFD nfd.conf `face_system.tcp.port` 6363, listening on every IPv4 address.
pub const DEFAULT_TCP_LISTEN: &str = "0.0.0.0:6363";
/// NFD's default Content Store size in packets (nfd.conf `tables.cs_max_packets`).
pub const DEFAULT_CS_CAPACITY: usize = 65536;
/// Our bound on pending Interests: NFD has none. Interests that would open an entry past it are
/// dropped and counted on their face (issue 25 item 7: a flood keeps the PIT within its bound).
pub const DEFAULT_PIT_CAPACITY: usize = 65536;
/// Our nonce and strategy seed when the file gives none (a scenario's default seed, 1).
pub const DEFAULT_SEED: u64 = 1;
/// How long an on-demand UDP face may stay silent before it closes: NFD's nfd.conf
/// `face_system.udp.idle_timeout`, 600 s.
pub const DEFAULT_UDP_IDLE_TIMEOUT: Time = Time::from_secs(600);
/// A route's cost when the entry gives none: a scenario's `[[routes]]` default (NFD's `nfdc route
/// add` default is 0; only the order between costs matters to the strategies).
pub const DEFAULT_ROUTE_COST: u64 = 1;

/// A daemon's whole configuration, validated.
#[derive(Clone, Debug)]
pub struct DaemonConfig {
    /// The UDP socket every UDP face shares; `None`: no UDP.
    pub udp_listen: Option<SocketAddr>,
    /// The TCP listener (NFD's TcpChannel); `None`: none.
    pub tcp_listen: Option<SocketAddr>,
    /// The Unix stream socket local applications connect to (they register their prefixes through
    /// management); `None`: none.
    pub unix_listen: Option<PathBuf>,
    /// `listen.udp_idle_timeout`: an on-demand UDP face that received nothing for this long (to
    /// twice as long, checked every period as NFD does) closes.
    pub udp_idle_timeout: Time,
    pub faces: Vec<FaceSpec>,
    pub routes: Vec<RouteSpec>,
    pub forwarder: ForwarderConfig,
    pub pit_capacity: usize,
    pub seed: u64,
}

/// A face the file names, for routes to point at.
#[derive(Clone, Debug, PartialEq)]
pub struct FaceSpec {
    pub name: String,
    pub transport: FaceTransport,
    /// `bandwidth`, `queue` and `delay`, as a scenario's link direction: the face's frames leave
    /// at that rate through that queue, a delay later (`face::link`). `None`: as fast as the
    /// socket takes them.
    pub output: Option<LinkOutputSpec>,
    /// A UDP face's MTU (`mtu`): packets past it go in NDNLPv2 fragments (`face::lp`). `None`:
    /// NFD's UDP MTU, which no legal packet exceeds.
    pub mtu: Option<u32>,
    /// A UDP face runs NDNLPv2 link reliability (`reliability = true`; NFD's LP_RELIABILITY flag).
    pub reliability: bool,
    /// `persistency`: a TCP face is permanent unless it says `"persistent"` (it then closes for
    /// good when its connection fails); every other face is persistent.
    pub persistency: Persistency,
}

/// NFD's smallest MTU (`MIN_MTU`, daemon/face/face-common.hpp), and the largest a UDP datagram
/// carries over IPv6 (`face::lp::UDP_MTU_V6`).
pub const MTU_RANGE: std::ops::RangeInclusive<i64> = 64..=65_527;

#[derive(Clone, Debug, PartialEq)]
pub enum FaceTransport {
    /// A UDP peer: the face exists from the start, over the shared UDP socket.
    Udp(SocketAddr),
    /// A TCP peer the daemon connects to at start.
    Tcp(SocketAddr),
    /// A Unix stream listener of its own: every application that connects to it gets a face, and
    /// the routes naming this face are installed towards each (a producer's socket).
    Unix(PathBuf),
}

#[derive(Clone, Debug, PartialEq)]
pub struct RouteSpec {
    pub prefix: Name,
    /// Index into `DaemonConfig::faces`.
    pub face: usize,
    pub cost: u64,
}

/// Why a configuration was refused, as the scenario reader says it: `file:line: field: what is
/// wrong` (the line where known).
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct ConfigError(pub String);

/// The default Unix socket: NFD's is /run/nfd/nfd.sock; ours is `ndnflow/ndnflow.sock` under
/// `$XDG_RUNTIME_DIR` (the user's runtime directory, so that a daemon runs without root), or
/// under /run when that is not set (as NFD, for a daemon started as root).
pub fn default_unix_path() -> PathBuf {
    let base = std::env::var_os("XDG_RUNTIME_DIR").map(PathBuf::from).unwrap_or_else(|| PathBuf::from("/run"));
    base.join("ndnflow").join("ndnflow.sock")
}

// ---------------------------------------------------------------- the file as serde sees it

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct File {
    seed: Option<u64>,
    pit_capacity: Option<Spanned<u64>>,
    listen: Option<Listen>,
    /// Read by the scenario reader; here only to be accepted, and to see whether `cs` is given.
    forwarder: Option<toml::Table>,
    #[serde(default)]
    faces: Vec<Face>,
    #[serde(default)]
    routes: Vec<Route>,
}

/// `udp` / `unix`: an address or path, or `false` for none.
#[derive(Deserialize)]
#[serde(untagged)]
enum Endpoint {
    Off(bool),
    At(String),
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Listen {
    udp: Option<Spanned<Endpoint>>,
    tcp: Option<Spanned<Endpoint>>,
    unix: Option<Spanned<Endpoint>>,
    udp_idle_timeout: Option<Spanned<String>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Face {
    name: Spanned<String>,
    udp: Option<Spanned<String>>,
    tcp: Option<Spanned<String>>,
    unix: Option<Spanned<String>>,
    // Read by the scenario's reader (`parse_link_outputs`); named here so that they are known keys.
    #[allow(dead_code)]
    bandwidth: Option<Spanned<toml::Value>>,
    #[allow(dead_code)]
    queue: Option<Spanned<toml::Value>>,
    mtu: Option<Spanned<i64>>,
    reliability: Option<Spanned<bool>>,
    persistency: Option<Spanned<String>>,
    #[allow(dead_code)]
    delay: Option<Spanned<toml::Value>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Route {
    prefix: Spanned<String>,
    nexthop: Spanned<String>,
    cost: Option<u64>,
}

// ---------------------------------------------------------------- reading

/// Reads and validates a daemon configuration file.
pub fn load(path: &Path) -> Result<DaemonConfig, ConfigError> {
    let file = path.display().to_string();
    let text = crate::files::read_text_capped(path, crate::files::MAX_CONFIG_FILE_BYTES)
        .map_err(|e| ConfigError(format!("{file}: cannot read the configuration: {e}")))?;
    parse(&text, &file)
}

/// Parses and validates a configuration; `file` names it in errors.
pub fn parse(text: &str, file: &str) -> Result<DaemonConfig, ConfigError> {
    let at = |span: std::ops::Range<usize>, field: &str, message: String| {
        ConfigError(format!("{file}:{}: {field}: {message}", line_of(text, span.start)))
    };
    let raw: File = toml::from_str(text).map_err(|e| shape_error(&e, text, file))?;
    let mut forwarder = ndnflow_sim::scenario::toml::parse_forwarder_table(text, file, "forwarder")
        .map_err(|e| ConfigError(e.to_string()))?;
    if !raw.forwarder.as_ref().is_some_and(|f| f.contains_key("cs")) {
        // A daemon caches as NFD does unless told otherwise (a scenario node does not: there, no
        // result may depend on a cache nobody asked for).
        forwarder.cs_policy = CsPolicy::Lru;
        forwarder.cs_capacity = DEFAULT_CS_CAPACITY;
    }
    let listen = raw.listen.unwrap_or(Listen { udp: None, tcp: None, unix: None, udp_idle_timeout: None });
    let udp_idle_timeout = match &listen.udp_idle_timeout {
        None => DEFAULT_UDP_IDLE_TIMEOUT,
        Some(v) => match ndnflow_sim::scenario::units::parse_duration(v.get_ref()) {
            Ok(t) if t > Time::ZERO => t,
            Ok(_) => return Err(at(v.span(), "listen.udp_idle_timeout", "must be longer than 0".into())),
            Err(e) => return Err(at(v.span(), "listen.udp_idle_timeout", e)),
        },
    };
    let udp_listen = match listen.udp {
        None => Some(DEFAULT_UDP_LISTEN.parse().expect("the default address parses")),
        Some(v) => endpoint(&v, "listen.udp", &at)?.map(|s| socket_addr(s, &v, "listen.udp", &at)).transpose()?,
    };
    let tcp_listen = match listen.tcp {
        None => Some(DEFAULT_TCP_LISTEN.parse().expect("the default address parses")),
        Some(v) => endpoint(&v, "listen.tcp", &at)?.map(|s| socket_addr(s, &v, "listen.tcp", &at)).transpose()?,
    };
    let unix_listen = match listen.unix {
        None => Some(default_unix_path()),
        Some(v) => endpoint(&v, "listen.unix", &at)?.map(PathBuf::from),
    };
    let outputs =
        ndnflow_sim::scenario::toml::parse_link_outputs(text, file, "faces").map_err(|e| ConfigError(e.to_string()))?;
    let faces = read_faces(&raw.faces, outputs, udp_listen, &at)?;
    let routes = read_routes(&raw.routes, &faces, &at)?;
    let pit_capacity = match raw.pit_capacity {
        None => DEFAULT_PIT_CAPACITY,
        Some(n) if *n.get_ref() == 0 => {
            let msg = "must be at least 1 (a forwarder with no PIT forwards nothing)";
            return Err(at(n.span(), "pit_capacity", msg.into()));
        }
        Some(n) => usize::try_from(*n.get_ref()).unwrap_or(usize::MAX),
    };
    let seed = raw.seed.unwrap_or(DEFAULT_SEED);
    Ok(DaemonConfig {
        udp_listen,
        tcp_listen,
        unix_listen,
        udp_idle_timeout,
        faces,
        routes,
        forwarder,
        pit_capacity,
        seed,
    })
}

type At<'a> = dyn Fn(std::ops::Range<usize>, &str, String) -> ConfigError + 'a;

fn endpoint<'v>(v: &'v Spanned<Endpoint>, field: &str, at: &At<'_>) -> Result<Option<&'v str>, ConfigError> {
    match v.get_ref() {
        Endpoint::Off(false) => Ok(None),
        Endpoint::Off(true) => Err(at(v.span(), field, "expected an address or path, or false for none".into())),
        // An empty address or path listens nowhere while the daemon says it listens: say so.
        Endpoint::At(s) if s.trim().is_empty() => {
            Err(at(v.span(), field, "empty; give an address or path, or false for none".into()))
        }
        Endpoint::At(s) => Ok(Some(s)),
    }
}

fn socket_addr<T>(s: &str, v: &Spanned<T>, field: &str, at: &At<'_>) -> Result<SocketAddr, ConfigError> {
    s.parse()
        .map_err(|_| at(v.span(), field, format!("{s:?} is not an IP address and port such as \"127.0.0.1:6363\"")))
}

/// A face's peer: an address and port that some packet can reach (`face::unusable_peer`).
fn peer_addr<T>(s: &str, v: &Spanned<T>, field: &str, at: &At<'_>) -> Result<SocketAddr, ConfigError> {
    let peer = socket_addr(s, v, field, at)?;
    match crate::face::unusable_peer(peer) {
        Some(why) => Err(at(v.span(), field, format!("{s:?}: {why}"))),
        None => Ok(peer),
    }
}

/// A UDP peer needs the daemon's UDP socket, of its own family: an IPv4 socket cannot send to an
/// IPv6 peer (such a face started and lost every packet until 2026-11-28).
fn udp_peer_has_a_socket(peer: SocketAddr, udp_listen: Option<SocketAddr>) -> Result<(), String> {
    match udp_listen {
        None => Err("a UDP face needs the daemon's UDP socket, and listen.udp is false".into()),
        Some(l) if l.is_ipv4() != peer.is_ipv4() => Err(format!(
            "{peer} is an IPv{} peer and listen.udp ({l}) an IPv{} socket; give listen.udp of the peer's family",
            if peer.is_ipv4() { 4 } else { 6 },
            if l.is_ipv4() { 4 } else { 6 }
        )),
        Some(_) => Ok(()),
    }
}

fn read_faces(
    raw: &[Face],
    outputs: Vec<Option<LinkOutputSpec>>,
    udp_listen: Option<SocketAddr>,
    at: &At<'_>,
) -> Result<Vec<FaceSpec>, ConfigError> {
    let mut faces: Vec<FaceSpec> = Vec::new();
    let mut outputs = outputs.into_iter();
    for (i, f) in raw.iter().enumerate() {
        let output = outputs.next().flatten();
        let field = format!("faces[{i}]");
        let name = f.name.get_ref().clone();
        if name.is_empty() {
            return Err(at(f.name.span(), &format!("{field}.name"), "face names must not be empty".into()));
        }
        if faces.iter().any(|g| g.name == name) {
            return Err(at(f.name.span(), &format!("{field}.name"), format!("face {name:?} is named twice")));
        }
        let transport = match (&f.udp, &f.tcp, &f.unix) {
            (Some(u), None, None) => {
                let peer = peer_addr(u.get_ref(), u, &format!("{field}.udp"), at)?;
                udp_peer_has_a_socket(peer, udp_listen).map_err(|why| at(u.span(), &format!("{field}.udp"), why))?;
                FaceTransport::Udp(peer)
            }
            (None, Some(t), None) => FaceTransport::Tcp(peer_addr(t.get_ref(), t, &format!("{field}.tcp"), at)?),
            (None, None, Some(p)) => FaceTransport::Unix(PathBuf::from(p.get_ref())),
            _ => {
                let msg = "give exactly one of udp = \"HOST:PORT\" or tcp = \"HOST:PORT\" (a peer), or unix = \"PATH\" (a listener)";
                return Err(at(f.name.span(), &field, msg.into()));
            }
        };
        if let (FaceTransport::Unix(_) | FaceTransport::Tcp(_), Some(b)) = (&transport, &f.bandwidth) {
            let msg = "only UDP faces are shaped: bandwidth and queue are for UDP faces";
            return Err(at(b.span(), &format!("{field}.bandwidth"), msg.into()));
        }
        let (mtu, reliability) = read_link_service(f, &transport, &field, at)?;
        let persistency = read_persistency(f, &transport, &field, at)?;
        faces.push(FaceSpec { name, transport, output, mtu, reliability, persistency });
    }
    Ok(faces)
}

/// `mtu` and `reliability`: UDP faces only, the MTU within NFD's bounds, and not both (a reliable
/// face numbers whole frames: `face::lp`).
fn read_link_service(
    f: &Face,
    transport: &FaceTransport,
    field: &str,
    at: &At<'_>,
) -> Result<(Option<u32>, bool), ConfigError> {
    let udp = matches!(transport, FaceTransport::Udp(_));
    if let (false, Some(m)) = (udp, &f.mtu) {
        return Err(at(m.span(), &format!("{field}.mtu"), "only UDP faces have an MTU".into()));
    }
    if let (false, Some(r)) = (udp, &f.reliability) {
        let msg = "link reliability is for UDP faces (a stream delivers everything already)";
        return Err(at(r.span(), &format!("{field}.reliability"), msg.into()));
    }
    let mtu = match &f.mtu {
        None => None,
        Some(m) if MTU_RANGE.contains(m.get_ref()) => Some(*m.get_ref() as u32),
        Some(m) => {
            let msg = format!(
                "{} bytes is outside {}..={} (NFD's MIN_MTU to a UDP datagram's largest)",
                m.get_ref(),
                MTU_RANGE.start(),
                MTU_RANGE.end()
            );
            return Err(at(m.span(), &format!("{field}.mtu"), msg));
        }
    };
    let reliability = f.reliability.as_ref().is_some_and(|r| *r.get_ref());
    if let (true, Some(m)) = (reliability, &f.mtu) {
        let msg = "not with reliability = true: a reliable face sends whole frames, never fragments (as a scenario link direction)";
        return Err(at(m.span(), &format!("{field}.mtu"), msg.into()));
    }
    Ok((mtu, reliability))
}

/// `persistency`: `"permanent"` (the default) or `"persistent"`, on TCP faces only.
fn read_persistency(f: &Face, transport: &FaceTransport, field: &str, at: &At<'_>) -> Result<Persistency, ConfigError> {
    let tcp = matches!(transport, FaceTransport::Tcp(_));
    match &f.persistency {
        None if tcp => Ok(Persistency::Permanent),
        None => Ok(Persistency::Persistent),
        Some(p) if !tcp => {
            let msg = "only TCP faces reconnect: persistency is for TCP faces";
            Err(at(p.span(), &format!("{field}.persistency"), msg.into()))
        }
        Some(p) => match p.get_ref().as_str() {
            "permanent" => Ok(Persistency::Permanent),
            "persistent" => Ok(Persistency::Persistent),
            other => {
                let msg = format!("{other:?}: expected \"permanent\" (reconnects) or \"persistent\" (closes when the connection fails)");
                Err(at(p.span(), &format!("{field}.persistency"), msg))
            }
        },
    }
}

fn read_routes(raw: &[Route], faces: &[FaceSpec], at: &At<'_>) -> Result<Vec<RouteSpec>, ConfigError> {
    let mut routes = Vec::new();
    for (i, r) in raw.iter().enumerate() {
        let field = format!("routes[{i}]");
        let prefix = Name::parse(r.prefix.get_ref())
            .map_err(|e| at(r.prefix.span(), &format!("{field}.prefix"), e.to_string()))?;
        let wanted = r.nexthop.get_ref();
        let Some(face) = faces.iter().position(|f| &f.name == wanted) else {
            let known: Vec<&str> = faces.iter().map(|f| f.name.as_str()).collect();
            let msg = if known.is_empty() {
                format!("unknown face {wanted:?} (the file has no [[faces]])")
            } else {
                format!("unknown face {wanted:?} (faces in [[faces]]: {})", known.join(", "))
            };
            return Err(at(r.nexthop.span(), &format!("{field}.nexthop"), msg));
        };
        routes.push(RouteSpec { prefix, face, cost: r.cost.unwrap_or(DEFAULT_ROUTE_COST) });
    }
    Ok(routes)
}

/// A toml/serde error in the daemon's `file:line: field: reason` form: toml's own report runs over
/// several lines (a caret under the value) and names Rust types ("untagged enum Endpoint",
/// "expected u64"); the field is read from the source, the key on the error's line under the
/// nearest table header above it.
fn shape_error(e: &toml::de::Error, text: &str, file: &str) -> ConfigError {
    let Some(span) = e.span() else {
        return ConfigError(format!("{file}: {}", e.message().trim_end()));
    };
    let line = line_of(text, span.start);
    let lines: Vec<&str> = text.lines().collect();
    let here = lines.get(line - 1).copied().unwrap_or_default();
    let key = here.split_once('=').map(|(k, _)| k.trim()).filter(|k| !k.is_empty() && !k.starts_with('['));
    let table = table_of_line(&lines[..line.min(lines.len())]);
    let field = match (table.as_deref(), key) {
        (Some(t), Some(k)) => format!("{t}.{k}"),
        (Some(t), None) => t.to_string(),
        (None, Some(k)) => k.to_string(),
        (None, None) => "the file".to_string(),
    };
    let message = e
        .message()
        .trim_end()
        .replace(
            "data did not match any variant of untagged enum Endpoint",
            "expected an address or path, or false for none",
        )
        // serde reads an integer past i64 as i128 and names that type: say what is wrong.
        .replace("invalid type: integer", "out of range: integer")
        .replace(" as i128, expected u64", ", expected a whole number from 0 to 18446744073709551615")
        .replace("expected u64", "expected a whole number of 0 or more")
        .replace("expected usize", "expected a whole number of 0 or more")
        .replace('`', "\"");
    ConfigError(format!("{file}:{line}: {field}: {message}"))
}

/// The table the last of `lines` is in, as a field's prefix: `listen` for `[listen]`, and
/// `routes[1]` for the second `[[routes]]`, whose index the message would lose otherwise.
fn table_of_line(lines: &[&str]) -> Option<String> {
    let at = lines.iter().rposition(|l| l.trim().starts_with('['))?;
    let header = lines[at].trim();
    let name = header.trim_matches(|c| c == '[' || c == ']').trim();
    if !header.starts_with("[[") {
        return Some(name.to_string());
    }
    let index = lines[..at].iter().filter(|l| l.trim() == header).count();
    Some(format!("{name}[{index}]"))
}

/// 1-based line of a byte offset.
fn line_of(text: &str, offset: usize) -> usize {
    text.as_bytes()[..offset.min(text.len())].iter().filter(|&&b| b == b'\n').count() + 1
}

#[cfg(test)]
#[path = "config_tests.rs"]
mod tests;
