//! What the daemon's loopback tests share: a socket directory per test, daemon configurations,
//! running a daemon beside a client under a time limit, and a test application on a Unix socket.
#![allow(dead_code)] // each test file uses a part

pub mod mgmt;

use std::future::Future;
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use bytes::Bytes;
use ndnflow_core::fw::FaceCounters;
use ndnflow_core::packet::{Data, Frame, Interest, NetPacket};
use ndnflow_core::{Name, Time};
use ndnflow_net::app::client::Client;
use ndnflow_net::app::get::{fetch, Fetched, GetOptions};
use ndnflow_net::app::serve::{serve, Segments, ServeReport};
use ndnflow_net::config::{self, DaemonConfig};
use ndnflow_net::face::unix::TlvFramer;
use ndnflow_net::{Daemon, Report, StatusHandle};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::UnixStream;
use tokio::sync::oneshot;
use tokio::time::timeout;

/// How long any test may take before it counts as hung.
pub const LIMIT: Duration = Duration::from_secs(10);

/// A fresh directory for one test's sockets (short: a socket path must fit 108 bytes).
pub fn socket_dir(test: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("ndnflow-net-{}-{test}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// A daemon with UDP on a free loopback port, applications' socket `app.sock` in `dir`, and one
/// configured face, "up", given by `face` (its `udp` or `unix` key), that `/p` is routed to;
/// `top`: top-level keys (`pit_capacity = 2`).
pub fn daemon_config(dir: &Path, top: &str, face: &str) -> DaemonConfig {
    let text = format!(
        r#"
        {top}
        [listen]
        udp = "127.0.0.1:0"
        tcp = "127.0.0.1:0"
        unix = "{dir}/app.sock"
        [[faces]]
        name = "up"
        {face}
        [[routes]]
        prefix = "/p"
        nexthop = "up"
        "#,
        dir = dir.display()
    );
    config::parse(&text, "test.toml").unwrap()
}

/// A daemon whose `/p` goes to the producer that connects to `producer.sock`.
pub fn producer_daemon_with(dir: &Path, top: &str) -> DaemonConfig {
    daemon_config(dir, top, &format!("unix = \"{}/producer.sock\"", dir.display()))
}

pub fn producer_daemon(dir: &Path) -> DaemonConfig {
    producer_daemon_with(dir, "")
}

/// A daemon whose `/p` goes over UDP to `upstream`.
pub fn relay_daemon(dir: &Path, upstream: SocketAddr) -> DaemonConfig {
    daemon_config(dir, "", &format!("udp = \"{upstream}\""))
}

/// Runs `daemon` while `client` runs, stops it when `client` is done; the daemon's report and
/// what `client` returned.
pub async fn run_with<T>(daemon: Daemon, client: impl Future<Output = T>) -> (Report, T) {
    let (stop, stopped) = oneshot::channel::<()>();
    let client = async move {
        let t = client.await;
        let _ = stop.send(());
        t
    };
    let both = async {
        tokio::join!(
            daemon.run(async {
                let _ = stopped.await;
            }),
            client
        )
    };
    timeout(LIMIT, both).await.expect("the test hung")
}

/// Runs daemons `a` and `b` while `client` runs, stops both when it is done; their reports and
/// what `client` returned.
pub async fn run_two<T>(a: Daemon, b: Daemon, client: impl Future<Output = T>, limit: Duration) -> (Report, Report, T) {
    let (stop_a, stopped_a) = oneshot::channel::<()>();
    let (stop_b, stopped_b) = oneshot::channel::<()>();
    let client = async move {
        let t = client.await;
        let _ = stop_a.send(());
        let _ = stop_b.send(());
        t
    };
    let all = async {
        tokio::join!(
            a.run(async {
                let _ = stopped_a.await;
            }),
            b.run(async {
                let _ = stopped_b.await;
            }),
            client
        )
    };
    timeout(limit, all).await.expect("the test hung")
}

/// Waits until the daemon's report satisfies `done` (the daemon handles a connection or a
/// datagram after the client's call returns).
pub async fn wait_until(status: &StatusHandle, done: impl Fn(&Report) -> bool) -> Report {
    loop {
        let report = status.report().await.expect("the daemon is running");
        if done(&report) {
            return report;
        }
        tokio::time::sleep(Duration::from_millis(2)).await;
    }
}

/// A test application on a Unix socket.
pub struct App {
    pub stream: UnixStream,
    pub framer: TlvFramer,
}

impl App {
    pub async fn connect(path: &Path) -> App {
        App { stream: UnixStream::connect(path).await.unwrap(), framer: TlvFramer::default() }
    }

    pub async fn send(&mut self, bytes: &[u8]) {
        self.stream.write_all(bytes).await.unwrap();
    }

    /// The next whole TLV element, or `None` at end of stream.
    pub async fn recv_bytes(&mut self) -> Option<Vec<u8>> {
        let mut chunk = [0u8; 9000];
        loop {
            if let Some(element) = self.framer.next_element().unwrap() {
                return Some(element);
            }
            match self.stream.read(&mut chunk).await.unwrap() {
                0 => return None,
                n => self.framer.push(&chunk[..n]),
            }
        }
    }

    pub async fn recv(&mut self) -> Frame {
        Frame::decode(&self.recv_bytes().await.expect("a packet, not the end of the stream")).unwrap()
    }
}

pub fn interest(name: &str, nonce: u32) -> Vec<u8> {
    Interest::new(Name::parse(name).unwrap(), nonce, Time::from_secs(4)).encode()
}

pub fn data(name: &str, content: &'static [u8]) -> Vec<u8> {
    Frame::data(Arc::new(Data::new(Name::parse(name).unwrap(), Bytes::from_static(content)))).encode()
}

/// The name and content of a Data frame (panics on anything else: the test expected a Data).
pub fn name_and_content(frame: &Frame) -> (String, Vec<u8>) {
    match &frame.packet {
        NetPacket::Data(d) => (d.name.to_string(), d.content.to_vec()),
        other => panic!("expected a Data, got {other:?}"),
    }
}

/// (Interests, Data) a face received and sent: ((in, out), (in, out)).
pub fn io(report: &Report, face: usize) -> ((u64, u64), (u64, u64)) {
    let p = &report.faces[face].packets;
    let (i, d) = (FaceCounters::INTERESTS, FaceCounters::DATA);
    ((p.received[i], p.sent[i]), (p.received[d], p.sent[d]))
}

/// Runs every daemon of `daemons` while `client` runs, on this thread, and stops them all when it
/// is done (or fails the test after `limit`); their reports, in the order given, and what
/// `client` returned. For more daemons than `run_two`'s; a `LocalSet`, because a daemon's
/// forwarder is not `Send`.
pub async fn run_all<T>(daemons: Vec<Daemon>, client: impl Future<Output = T>, limit: Duration) -> (Vec<Report>, T) {
    let local = tokio::task::LocalSet::new();
    local
        .run_until(async move {
            let mut stops = Vec::new();
            let mut running = Vec::new();
            for daemon in daemons {
                let (stop, stopped) = oneshot::channel::<()>();
                stops.push(stop);
                running.push(tokio::task::spawn_local(daemon.run(async {
                    let _ = stopped.await;
                })));
            }
            let t = timeout(limit, client).await.expect("the test hung");
            for stop in stops {
                let _ = stop.send(());
            }
            let mut reports = Vec::new();
            for daemon in running {
                reports.push(daemon.await.expect("a daemon panicked"));
            }
            (reports, t)
        })
        .await
}

/// Runs `serve` of `segments` on `producer` (a connection whose prefix is routed already) while
/// `get` fetches, and stops `serve` when the fetch ends; what `get` fetched.
pub async fn serve_while_fetching(
    producer: &mut Client,
    segments: &Segments,
    report: &mut ServeReport,
    get: &GetOptions,
) -> Fetched {
    let (stop_serve, serve_stopped) = oneshot::channel::<()>();
    let stopped = async {
        let _ = serve_stopped.await;
    };
    let (served, fetched) = tokio::join!(serve(producer, segments, report, stopped), async {
        let f = fetch(get, std::future::pending()).await;
        let _ = stop_serve.send(());
        f
    });
    served.unwrap();
    fetched.unwrap()
}

/// A loopback port free a moment ago (for a daemon that another's configuration names first).
pub fn free_port() -> u16 {
    std::net::UdpSocket::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port()
}

pub fn loopback(port: u16) -> SocketAddr {
    SocketAddr::from(([127, 0, 0, 1], port))
}

/// Data /p/<segment> whose encoding is exactly `size` bytes.
pub fn data_of_size(segment: u64, size: u32) -> Vec<u8> {
    let name = Name::parse("/p").unwrap().append_segment(segment);
    (0..size)
        .rev()
        .map(|payload| Frame::data(Arc::new(Data::simulated(name.clone(), payload))))
        .find(|f| f.wire_size() == size)
        .expect("some payload gives that size")
        .encode()
}

/// Two daemons joined over UDP on loopback. A (the consumer's): UDP on port `ports.0`, its
/// applications at `dirs.0/app.sock`, face "b" towards `peers.1` with the extra keys `options.0`,
/// /p routed to it. B (the producer's): UDP on `ports.1`, face "a" towards `peers.0` with
/// `options.1`, /p to the producer that connects to `dirs.1/producer.sock`. No TCP.
pub fn two_daemons(
    dirs: (&Path, &Path),
    ports: (u16, u16),
    peers: (SocketAddr, SocketAddr),
    options: (&str, &str),
) -> (DaemonConfig, DaemonConfig) {
    let listen = |dir: &Path, port: u16| {
        format!("[listen]\nudp = \"127.0.0.1:{port}\"\ntcp = false\nunix = \"{}/app.sock\"\n", dir.display())
    };
    let a = format!(
        "{}[[faces]]\nname = \"b\"\nudp = \"{}\"\n{}\n[[routes]]\nprefix = \"/p\"\nnexthop = \"b\"\n",
        listen(dirs.0, ports.0),
        peers.1,
        options.0
    );
    let b = format!(
        "{}[[faces]]\nname = \"a\"\nudp = \"{}\"\n{}\n[[faces]]\nname = \"producer\"\nunix = \"{}/producer.sock\"\n\
         [[routes]]\nprefix = \"/p\"\nnexthop = \"producer\"\n",
        listen(dirs.1, ports.1),
        peers.0,
        options.1,
        dirs.1.display()
    );
    (config::parse(&a, "a.toml").unwrap(), config::parse(&b, "b.toml").unwrap())
}
