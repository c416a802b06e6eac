//! The daemon: one task owns the forwarder and drives it in real time, as the simulator's engine
//! drives it in simulated time. It waits for whichever comes first: a datagram on the UDP socket,
//! an event from a Unix connection's reader (a decoded frame, a connection accepted or closed),
//! the forwarder's next deadline (`poll_timeout`), or shutdown. Each received frame goes through
//! `Forwarder::handle(now, ...)`; each frame the outbox then holds is encoded once and handed to
//! its face without waiting (UDP `try_send_to`, a Unix connection's bounded queue): the forwarder
//! never blocks on a peer.
//!
//! Malformed input is dropped and counted on its face (`DriverCounters::malformed`); nothing a
//! peer sends can panic the daemon (the codec returns `DecodeError`s).

use std::future::Future;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::time::SystemTime;

use ndnflow_core::fw::{FaceKind, Forwarder, PitRoom};
use ndnflow_core::packet::{Frame, NetPacket};
use ndnflow_core::table::FaceId;
use tokio::net::{TcpStream, UnixStream};
use tokio::sync::{mpsc, oneshot};
use tokio::task::JoinSet;

use crate::clock::Clock;
use crate::config::{DaemonConfig, FaceTransport};
use crate::face::link::LinkOutput;
use crate::face::lp::LinkService;
use crate::face::udp::{UdpFaces, MAX_PACKET_SIZE};
use crate::face::{tcp, unix, DriverCounters, Face, Persistency, Transport};
use crate::mgmt::dataset::Published;
use crate::mgmt::notify::FaceEvent;
use crate::mgmt::rib::{Rib, Route, FLAG_CHILD_INHERIT, ORIGIN_STATIC};
use crate::report::Report;
use crate::timer::PreciseTimer;

/// What the connection tasks tell the daemon.
pub(crate) enum Event {
    Accepted {
        listener: usize,
        stream: UnixStream,
    },
    TcpAccepted {
        stream: TcpStream,
        peer: SocketAddr,
    },
    Frame {
        face: FaceId,
        frame: Frame,
    },
    Malformed {
        face: FaceId,
    },
    Closed {
        face: FaceId,
    },
    /// A permanent TCP face's connection broke: the face is down until `Up` (`face::tcp`).
    Down {
        face: FaceId,
    },
    /// A permanent TCP face connected again, from `local`.
    Up {
        face: FaceId,
        local: Option<SocketAddr>,
    },
    /// A `StatusHandle` asks for the counters.
    Status(oneshot::Sender<Report>),
}

/// Reads a running daemon's counters (the binary prints them on SIGUSR1; tests wait on them).
/// Costs the forwarder nothing until asked: the request queues behind the frames before it.
#[derive(Clone)]
pub struct StatusHandle(mpsc::Sender<Event>);

impl StatusHandle {
    /// The daemon's report now, or `None` once it has stopped.
    pub async fn report(&self) -> Option<Report> {
        let (tx, rx) = oneshot::channel();
        self.0.send(Event::Status(tx)).await.ok()?;
        rx.await.ok()
    }
}

/// Events queued from connections before their readers wait (backpressure on the sockets, not
/// loss: a reader blocks, and the kernel's buffer then the application's writes fill).
const EVENT_QUEUE: usize = 4096;

/// How many rounds (a queued event and a datagram each, if there are) the daemon takes without
/// going back to `select!` (`Daemon::take_waiting`): enough to empty a burst of a consumer's
/// window, few enough that the shutdown future, the timers and the other tasks get their turn
/// within about half a millisecond (at most 128 packets at a few microseconds each).
const TAKE_WAITING: usize = 64;

/// Why the daemon could not start: which setting, and the system's reason.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct DaemonError(pub String);

/// A Unix listener: its path, and the `[[faces]]` entry whose routes its connections get (none
/// for `listen.unix`).
struct Listener {
    path: PathBuf,
    spec: Option<usize>,
}

pub struct Daemon {
    pub(crate) config: DaemonConfig,
    pub(crate) clock: Clock,
    /// When it started, on the wall clock (management's timestamps).
    pub(crate) started: SystemTime,
    pub(crate) forwarder: Forwarder,
    /// Indexed by `FaceId`, as the forwarder's faces.
    pub(crate) faces: Vec<Face>,
    pub(crate) udp: Option<UdpFaces>,
    listeners: Vec<Listener>,
    pub(crate) tasks: JoinSet<()>,
    pub(crate) events_tx: mpsc::Sender<Event>,
    events: mpsc::Receiver<Event>,
    /// The forwarder's output, kept to reuse its allocation.
    pub(crate) out: ndnflow_core::fw::forwarder::Outbox,
    /// Where a UDP face's frame is encoded before its datagram is sent, kept for the same reason.
    wire: Vec<u8>,
    /// Registered routes (management's rib module, and the configuration's routes).
    pub(crate) rib: Rib,
    /// The last version of each status dataset, for its later segments.
    pub(crate) published: Published,
    /// The face event notifications and their subscribers (`mgmt::notify`).
    pub(crate) face_events: crate::mgmt::notify::FaceEvents,
    /// The faces with a configured rate and queue (`Face::output`).
    shaped: Vec<FaceId>,
    /// UDP faces whose link service may have a timer running (reliability, or a reassembly).
    pub(crate) lp_timed: Vec<FaceId>,
    /// A timerfd for the daemon's deadlines when a face holds frames for a `delay` (tokio's timer
    /// wakes up to a millisecond late: `timer.rs`); `None`: tokio's.
    precise: Option<PreciseTimer>,
    tcp_addr: Option<SocketAddr>,
    /// When on-demand UDP faces are next checked for silence (`face::udp`).
    pub(crate) next_idle_check: ndnflow_core::Time,
}

/// Runs a daemon until `shutdown` completes; what it counted.
pub async fn run(config: DaemonConfig, shutdown: impl Future<Output = ()>) -> Result<Report, DaemonError> {
    Ok(Daemon::bind(config).await?.run(shutdown).await)
}

/// Runs a daemon on a runtime of its own in this thread, until `stop` (asked every `period`)
/// says so; `ready` sees the daemon once its sockets are bound. For a host that has its own way of
/// hearing signals (the Python extension asks the interpreter, `ndnflow fwd`).
pub fn run_blocking(
    config: DaemonConfig,
    period: std::time::Duration,
    mut stop: impl FnMut() -> bool,
    ready: impl FnOnce(&Daemon),
) -> Result<Report, DaemonError> {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| DaemonError(format!("cannot start the runtime: {e}")))?;
    runtime.block_on(async move {
        let daemon = Daemon::bind(config).await?;
        ready(&daemon);
        let asked = async move {
            let mut tick = tokio::time::interval(period);
            while !stop() {
                tick.tick().await;
            }
        };
        Ok(daemon.run(asked).await)
    })
}

/// Completes at the first SIGINT or SIGTERM. The handlers are installed when this is called, so a
/// signal that comes before the future is polled still counts.
pub fn shutdown_signals() -> std::io::Result<impl Future<Output = ()>> {
    use tokio::signal::unix::{signal, SignalKind};
    let mut interrupt = signal(SignalKind::interrupt())?;
    let mut terminate = signal(SignalKind::terminate())?;
    Ok(async move {
        tokio::select! {
            _ = interrupt.recv() => {}
            _ = terminate.recv() => {}
        }
    })
}

enum Wake {
    Stop,
    Event(Event),
    Datagram(std::io::Result<(usize, SocketAddr)>),
    Timer,
}

impl Daemon {
    /// Binds the sockets and makes the configured faces and their routes; the daemon runs once
    /// `run` is called (tests read the bound addresses in between).
    pub async fn bind(config: DaemonConfig) -> Result<Daemon, DaemonError> {
        let mut forwarder = Forwarder::new(config.forwarder.clone(), config.seed);
        forwarder.set_pit_capacity(config.pit_capacity);
        let udp = match config.udp_listen {
            Some(addr) => Some(
                UdpFaces::bind(addr).await.map_err(|e| DaemonError(format!("listen.udp: cannot bind {addr}: {e}")))?,
            ),
            None => None,
        };
        let (events_tx, events) = mpsc::channel(EVENT_QUEUE);
        let mut daemon = Daemon {
            config,
            clock: Clock::start(),
            started: SystemTime::now(),
            forwarder,
            faces: Vec::new(),
            udp,
            listeners: Vec::new(),
            tasks: JoinSet::new(),
            events_tx,
            events,
            out: Vec::new(),
            wire: Vec::new(),
            rib: Rib::default(),
            face_events: Default::default(),
            published: Published::default(),
            shaped: Vec::new(),
            lp_timed: Vec::new(),
            precise: None,
            tcp_addr: None,
            next_idle_check: ndnflow_core::Time::ZERO,
        };
        daemon.next_idle_check = daemon.config.udp_idle_timeout;
        if daemon.config.faces.iter().any(|f| f.output.as_ref().is_some_and(|o| o.delay.is_some())) {
            // Where there is no timerfd (not Linux), tokio's timer: late by up to a millisecond.
            daemon.precise = PreciseTimer::new().ok();
        }
        daemon.make_udp_faces()?;
        daemon.bind_listeners().await?;
        daemon.bind_tcp().await?;
        daemon.make_tcp_faces();
        Ok(daemon)
    }

    /// A handle to read the counters while the daemon runs.
    pub fn status(&self) -> StatusHandle {
        StatusHandle(self.events_tx.clone())
    }

    /// The UDP socket's address (with the port the system chose when the config said 0).
    pub fn udp_addr(&self) -> Option<SocketAddr> {
        self.udp.as_ref().and_then(|u| u.local_addr().ok())
    }

    /// "udp ADDR, tcp ADDR, unix PATH[, PATH...]": where the daemon listens, for its start-up line.
    pub fn listening(&self) -> String {
        let udp = self.udp_addr().map_or("off".to_string(), |a| a.to_string());
        let tcp = self.tcp_addr.map_or("off".to_string(), |a| a.to_string());
        let unix: Vec<String> = self.listeners.iter().map(|l| l.path.display().to_string()).collect();
        let unix = if unix.is_empty() { "off".to_string() } else { unix.join(", ") };
        format!("udp {udp}, tcp {tcp}, unix {unix}")
    }

    fn make_udp_faces(&mut self) -> Result<(), DaemonError> {
        for (i, spec) in self.config.faces.clone().iter().enumerate() {
            let FaceTransport::Udp(peer) = spec.transport else { continue };
            let Some(udp) = self.udp.as_mut() else {
                return Err(DaemonError(format!("faces[{i}] ({}) is a UDP face, but listen.udp is false", spec.name)));
            };
            let id = self.forwarder.add_face(FaceKind::Link);
            udp.insert(peer, id);
            let service = LinkService::new(spec.mtu, peer.is_ipv6(), spec.reliability);
            let mut face = Face::udp_with(Some(spec.name.clone()), peer, service);
            if let Some(out) = &spec.output {
                // REM's draws: a stream per face from the daemon's seed.
                let seed = ndnflow_core::mix::mix64(self.config.seed ^ u64::from(id.0));
                let queue = ndnflow_sim::link::make_queue(&out.queue, seed, out.bandwidth_bps);
                face.output = Some(LinkOutput::new(queue, out.bandwidth_bps, out.delay));
                self.shaped.push(id);
            }
            self.faces.push(face);
            self.face_event(FaceEvent::Created, id);
            self.install_routes(i, id);
        }
        Ok(())
    }

    async fn bind_listeners(&mut self) -> Result<(), DaemonError> {
        let mut wanted: Vec<(String, Listener)> = Vec::new();
        if let Some(path) = &self.config.unix_listen {
            wanted.push(("listen.unix".into(), Listener { path: path.clone(), spec: None }));
        }
        for (i, spec) in self.config.faces.iter().enumerate() {
            if let FaceTransport::Unix(path) = &spec.transport {
                wanted.push((format!("faces[{i}].unix"), Listener { path: path.clone(), spec: Some(i) }));
            }
        }
        for (field, listener) in wanted {
            if self.listeners.iter().any(|l| l.path == listener.path) {
                return Err(DaemonError(format!("{field}: {} is already a listener", listener.path.display())));
            }
            let socket = unix::bind(&listener.path)
                .await
                .map_err(|e| DaemonError(format!("{field}: cannot listen on {}: {e}", listener.path.display())))?;
            unix::spawn_accept(&mut self.tasks, socket, self.listeners.len(), self.events_tx.clone());
            self.listeners.push(listener);
        }
        Ok(())
    }

    /// Listens on `listen.tcp`, if set.
    async fn bind_tcp(&mut self) -> Result<(), DaemonError> {
        let Some(addr) = self.config.tcp_listen else { return Ok(()) };
        let socket = tcp::bind(addr).await.map_err(|e| DaemonError(format!("listen.tcp: cannot bind {addr}: {e}")))?;
        self.tcp_addr = socket.local_addr().ok();
        tcp::spawn_accept(&mut self.tasks, socket, self.events_tx.clone());
        Ok(())
    }

    /// The `[[faces]]` that connect out over TCP: each a face at once, connecting in the background.
    fn make_tcp_faces(&mut self) {
        for (i, spec) in self.config.faces.clone().iter().enumerate() {
            let FaceTransport::Tcp(peer) = spec.transport else { continue };
            let id = self.connect_tcp(Some(spec.name.clone()), peer, spec.persistency);
            self.install_routes(i, id);
        }
    }

    /// A face that connects to `peer` (the configuration's, or management's faces/create);
    /// a permanent one reconnects when its connection breaks.
    pub(crate) fn connect_tcp(&mut self, name: Option<String>, peer: SocketAddr, persistency: Persistency) -> FaceId {
        let id = self.forwarder.add_face(FaceKind::Link);
        let permanent = persistency == Persistency::Permanent;
        let writer = tcp::spawn_connect(&mut self.tasks, peer, id, self.events_tx.clone(), permanent);
        self.faces.push(Face::tcp(name, peer, None, writer, persistency));
        self.face_event(FaceEvent::Created, id);
        id
    }

    /// The TCP listener's address (with the port the system chose when the config said 0).
    pub fn tcp_addr(&self) -> Option<SocketAddr> {
        self.tcp_addr
    }

    /// The routes of `[[faces]]` entry `spec`, towards face `id`: static routes in the RIB (NFD's
    /// origin 255), so that they are listed and leave with the face.
    fn install_routes(&mut self, spec: usize, id: FaceId) {
        for route in self.config.routes.iter().filter(|r| r.face == spec) {
            let route = Route {
                prefix: route.prefix.clone(),
                face: id,
                origin: ORIGIN_STATIC,
                cost: route.cost,
                flags: FLAG_CHILD_INHERIT,
                expires: None,
            };
            self.rib.register(&mut self.forwarder.fib, route);
        }
    }

    /// Runs until `shutdown` completes, then closes every connection and listener; what it counted.
    pub async fn run(mut self, shutdown: impl Future<Output = ()>) -> Report {
        tokio::pin!(shutdown);
        let mut buf = vec![0u8; MAX_PACKET_SIZE + 1];
        loop {
            let departures = self.shaped.iter().filter_map(|f| self.faces[f.index()].output.as_ref()?.next_departure());
            let links = self.lp_timed.iter().filter_map(|f| self.faces[f.index()].lp.as_ref()?.poll_timeout());
            let next = [self.forwarder.poll_timeout(), self.rib.next_expiry(), Some(self.next_idle_check)]
                .into_iter()
                .flatten()
                .chain(departures)
                .chain(links)
                .min();
            let deadline = next.and_then(|t| self.clock.instant(t));
            // Not `biased`: tokio polls the branches from a random one, so a busy socket cannot
            // starve the others or the timers.
            let wake = tokio::select! {
                _ = &mut shutdown => Wake::Stop,
                // Never `None`: the daemon holds a sender itself.
                Some(event) = self.events.recv() => Wake::Event(event),
                r = recv_datagram(self.udp.as_ref(), &mut buf) => Wake::Datagram(r),
                _ = crate::timer::sleep_until(self.precise.as_mut(), deadline) => Wake::Timer,
            };
            match wake {
                Wake::Stop => break,
                Wake::Event(event) => self.on_event(event),
                Wake::Datagram(Ok((n, peer))) => self.on_datagram(&buf[..n], peer),
                // ICMP errors from an earlier send (port unreachable) surface here: not ours to stop for.
                Wake::Datagram(Err(_)) => {}
                Wake::Timer => {
                    let now = self.clock.now();
                    self.rib.expire(&mut self.forwarder.fib, now);
                    self.forwarder.handle_timeout(now, &mut self.out);
                    self.link_timers(now);
                    self.close_idle_udp_faces(now);
                }
            }
            self.flush();
            if self.take_waiting(next, &mut buf) {
                // Its reads do not count against tokio's cooperative budget, which makes a task
                // yield after so many ready operations: yield here instead, so that the
                // connections' readers and writers run between bursts as they did before.
                tokio::task::yield_now().await;
            }
        }
        self.report() // dropping the daemon ends its tasks and removes its socket files
    }

    /// Handles what is already waiting, events queued by the connections' readers and datagrams
    /// in the socket's buffer, up to `TAKE_WAITING` rounds of them or until `due` (the earliest
    /// deadline when the daemon last went to sleep), before going back to sleep in `select!`.
    /// Under load most packets then arrive here, where taking one costs a non-blocking read;
    /// through `select!` it costs the future of each branch built and polled and a timer entry
    /// registered and cancelled (a fifth of the daemon's user time at 80,000 exchanges per
    /// second, profiled). Each packet is still handled, and its output flushed, on its own, as
    /// through `select!`; the connections' writers run once the daemon yields, and send what the
    /// batch queued for them in one write each (`stream::write_waiting`). True when it stopped
    /// at `TAKE_WAITING` (more may be waiting).
    fn take_waiting(&mut self, due: Option<ndnflow_core::Time>, buf: &mut [u8]) -> bool {
        for _ in 0..TAKE_WAITING {
            let event = self.events.try_recv().ok();
            let took_event = event.is_some();
            if let Some(event) = event {
                self.on_event(event);
                self.flush();
            }
            // Err: nothing waiting, or an ICMP error from an earlier send (as in `run`, ignored).
            let took_datagram = match self.udp.as_ref().map(|u| u.try_recv(buf)) {
                Some(Ok((n, peer))) => {
                    self.on_datagram(&buf[..n], peer);
                    self.flush();
                    true
                }
                None | Some(Err(_)) => false,
            };
            if !(took_event || took_datagram) || due.is_some_and(|t| self.clock.now() >= t) {
                return false;
            }
        }
        true
    }

    fn on_event(&mut self, event: Event) {
        match event {
            Event::Frame { face, frame } => self.on_frame(face, frame),
            Event::Malformed { face } => self.count(face, |c| c.malformed += 1),
            Event::Accepted { listener, stream } => self.on_accepted(listener, stream),
            Event::TcpAccepted { stream, peer } => {
                let local = stream.local_addr().ok();
                let id = self.forwarder.add_face(FaceKind::Link);
                let writer = crate::face::stream::spawn_connection(&mut self.tasks, stream, id, self.events_tx.clone());
                self.faces.push(Face::tcp(None, peer, local, writer, Persistency::OnDemand));
                self.face_event(FaceEvent::Created, id);
            }
            Event::Status(reply) => {
                let _ = reply.send(self.report());
            }
            // Closing drops the writer's queue: the writer ends. The face's routes go with it.
            Event::Closed { face } => self.stream_closed(face),
            Event::Down { face } => self.tcp_down(face),
            Event::Up { face, local } => self.tcp_up(face, local),
        }
    }

    fn on_accepted(&mut self, listener: usize, stream: UnixStream) {
        let id = self.forwarder.add_face(FaceKind::App);
        let writer = crate::face::stream::spawn_connection(&mut self.tasks, stream, id, self.events_tx.clone());
        let Listener { path, spec } = &self.listeners[listener];
        let spec = *spec;
        let name = spec.map(|i| self.config.faces[i].name.clone());
        self.faces.push(Face::unix(name, path, writer));
        self.face_event(FaceEvent::Created, id);
        if let Some(spec) = spec {
            self.install_routes(spec, id);
        }
    }

    /// A decoded frame from `face`, unless it is an Interest that would open a PIT entry past the
    /// bound, and that face already holds its share of the PIT (`Forwarder::room_for_interest`).
    pub(crate) fn on_frame(&mut self, face: FaceId, frame: Frame) {
        // A destroyed face's connection may still deliver what was in flight: it no longer counts.
        if self.faces.get(face.index()).is_none_or(|f| matches!(f.transport, Transport::Closed)) {
            return;
        }
        if let NetPacket::Interest(interest) = &frame.packet {
            if is_management(&interest.name) {
                self.on_management(face, interest);
                return;
            }
        }
        match self.forwarder.handle_bounded(self.clock.now(), face, frame, &mut self.out) {
            PitRoom::Free => {}
            PitRoom::Shed(holder) => self.count(holder, |c| c.pit_shed += 1),
            PitRoom::Full => self.count(face, |c| c.pit_full += 1),
        }
    }

    /// Encodes and sends what the forwarder put in its outbox (a shaped face's frames join its
    /// queue), then starts the shaped faces' frames whose turn has come.
    fn flush(&mut self) {
        let now = self.clock.now();
        let mut out = std::mem::take(&mut self.out);
        for (face, frame) in out.drain(..) {
            if let Some(link) = self.faces.get_mut(face.index()).and_then(|f| f.output.as_mut()) {
                link.offer(now, frame);
                continue;
            }
            let unsent = match self.faces.get_mut(face.index()) {
                Some(Face { transport: Transport::Udp(peer), lp: Some(service), .. }) => {
                    let udp = self.udp.as_ref();
                    let emit = &mut |wire: &[u8]| udp.is_some_and(|u| u.send(*peer, wire));
                    let unsent = service.send_into(now, frame, &mut self.wire, emit);
                    if service.poll_timeout().is_some() && !self.lp_timed.contains(&face) {
                        self.lp_timed.push(face);
                    }
                    unsent
                }
                Some(Face { transport: Transport::Stream(queue), .. }) => {
                    u64::from(queue.try_send(frame.encode()).is_err())
                }
                Some(_) | None => 1,
            };
            if unsent > 0 {
                self.count(face, |c| c.send_dropped += unsent);
            }
        }
        self.out = out;
        self.pump(now);
    }

    /// Sends what the shaped faces' queues release by `now`.
    fn pump(&mut self, now: ndnflow_core::Time) {
        let udp = self.udp.as_ref();
        let forwarder = &mut self.forwarder;
        let wire = &mut self.wire;
        for id in &self.shaped {
            let face = &mut self.faces[id.index()];
            let (Some(link), Some(service), Transport::Udp(peer)) =
                (face.output.as_mut(), face.lp.as_mut(), &face.transport)
            else {
                continue;
            };
            let mut unsent = 0;
            // Numbered and fragmented as it leaves the queue, as the simulator's link takes it.
            link.pump(now, |mut frame| {
                pit_mark_at_sender(forwarder, now, *id, &mut frame);
                unsent += service.send_into(now, frame, wire, &mut |w: &[u8]| udp.is_some_and(|u| u.send(*peer, w)));
            });
            face.counters.send_dropped += unsent;
            if service.poll_timeout().is_some() && !self.lp_timed.contains(id) {
                self.lp_timed.push(*id);
            }
        }
    }

    pub(crate) fn count(&mut self, face: FaceId, f: impl FnOnce(&mut DriverCounters)) {
        if let Some(face) = self.faces.get_mut(face.index()) {
            f(&mut face.counters);
        }
    }
}

impl Drop for Daemon {
    /// Ends the connection tasks and removes the socket files of the listeners bound, also when
    /// `bind` failed half-way or `run` was never called.
    fn drop(&mut self) {
        self.tasks.abort_all();
        for l in &self.listeners {
            unix::remove_socket(&l.path);
        }
    }
}

/// PCON's PIT marking (§3.1, Algorithm 2): an Interest that face `face`'s queue marked tells
/// this forwarder, which sent it, that its link is congested; the PIT entry is marked (the Data
/// sent down for it will be) and the Interest goes on unmarked. As the simulator's engine does
/// (`pit_mark_at_sender`): left on the Interest, the mark would make the upstream mark its Data
/// back over the congested link, and this daemon's strategy would take it for congestion up there.
fn pit_mark_at_sender(forwarder: &mut Forwarder, now: ndnflow_core::Time, face: FaceId, frame: &mut Frame) {
    if frame.lp.congestion_mark == 0 {
        return;
    }
    if let NetPacket::Interest(interest) = &frame.packet {
        forwarder.note_congested_interest(now, face, interest);
        frame.lp.congestion_mark = 0;
    }
}

/// Whether an Interest is for the daemon's management (/localhost/nfd/...).
fn is_management(name: &ndnflow_core::Name) -> bool {
    let words = crate::mgmt::control::LOCALHOST_NFD;
    name.len() >= 2 && words.iter().enumerate().all(|(i, w)| name.get(i).is_some_and(|c| c.value == w.as_bytes()))
}

async fn recv_datagram(udp: Option<&UdpFaces>, buf: &mut [u8]) -> std::io::Result<(usize, SocketAddr)> {
    match udp {
        Some(udp) => udp.recv(buf).await,
        None => std::future::pending().await,
    }
}
