//! Exchanges per second through one `ndnflow-fwd` daemon on loopback (docs/performance.md, "The
//! real-time daemon"): a consumer over UDP keeps `window` Interests outstanding for distinct
//! names, a producer on the daemon's Unix socket answers each with a Data of `payload` bytes, and
//! the example counts the Data the consumer gets back in `seconds`.
//!
//! The daemon runs on a thread of its own (its current-thread runtime), the consumer and the
//! producer on another, so that the figure is the forwarder's, not the clients': on a 2-core
//! machine the two threads fill both cores.
//!
//! Besides the rate it prints the CPU time the daemon's thread spent per exchange (its own
//! clock, CLOCK_THREAD_CPUTIME_ID): the forwarder's cost, whether or not the clients kept it busy.
//! With a fourth argument `direct` there is no daemon: the consumer's Interests go over UDP
//! straight to a producer on a UDP socket, the yardstick for the latency the daemon adds (with a
//! window of 1, the time per exchange is the round trip).
//!
//! `cargo build --release --examples`, then
//! `target/release/examples/fwd_rate [seconds] [window] [payload] [direct]`

use std::sync::Arc;
use std::time::{Duration, Instant};

use bytes::Bytes;
use ndnflow_core::packet::{Data, Frame, Interest, NetPacket};
use ndnflow_core::{Name, Time};
use ndnflow_net::config;
use ndnflow_net::face::unix::TlvFramer;
use ndnflow_net::mgmt::control::{signed_command_name, ControlParameters};
use ndnflow_net::Daemon;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{UdpSocket, UnixStream};

fn main() {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    let direct = args.last().is_some_and(|a| a == "direct");
    if direct {
        args.pop();
    }
    let args: Vec<u64> = args.iter().map(|a| a.parse().expect("numbers, then `direct` or nothing")).collect();
    let seconds = args.first().copied().unwrap_or(5);
    let window = args.get(1).copied().unwrap_or(64) as usize;
    let payload = args.get(2).copied().unwrap_or(1_000) as usize;
    if direct {
        return run_direct(seconds, window, payload);
    }
    let dir = std::env::temp_dir().join(format!("ndnflow-fwd-rate-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let sock = dir.join("fwd.sock");
    let text = format!("[listen]\nudp = \"127.0.0.1:0\"\ntcp = false\nunix = \"{}\"\n", sock.display());
    let config = config::parse(&text, "fwd_rate").unwrap();
    let (addr_tx, addr_rx) = std::sync::mpsc::channel();
    let (stop_tx, stop_rx) = tokio::sync::oneshot::channel::<()>();
    // Named, to tell it from the clients' thread in a profile.
    let daemon = std::thread::Builder::new().name("fwd-daemon".into()).spawn(move || {
        let rt = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
        rt.block_on(async move {
            let d = Daemon::bind(config).await.unwrap();
            addr_tx.send(d.udp_addr().unwrap()).unwrap();
            let cpu = thread_cpu();
            let report = d
                .run(async {
                    let _ = stop_rx.await;
                })
                .await;
            (report, thread_cpu() - cpu)
        })
    });
    let daemon = daemon.unwrap();
    let fwd = addr_rx.recv().unwrap();
    let rt = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
    let clients_cpu = thread_cpu();
    let got = rt.block_on(clients(&sock, fwd, seconds, window, payload));
    let clients_cpu = thread_cpu() - clients_cpu;
    let _ = stop_tx.send(());
    let (report, daemon_cpu) = daemon.join().unwrap();
    let rate = got as f64 / seconds as f64;
    let per = |cpu: f64, n: u64| cpu * 1e6 / n.max(1) as f64;
    let handled = report.forwarder.out_data;
    println!(
        "{got} exchanges in {seconds} s: {rate:.0} per second (window {window}, payload {payload} B); daemon: {} Interests in, {handled} Data out, {daemon_cpu:.2} s CPU, {:.2} us per exchange ({:.0} exchanges per CPU-second); clients: {:.2} us per exchange",
        report.forwarder.in_interests,
        per(daemon_cpu, handled),
        handled as f64 / daemon_cpu,
        per(clients_cpu, got),
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// CPU seconds this thread has used (user and system).
fn thread_cpu() -> f64 {
    let mut t = libc::timespec { tv_sec: 0, tv_nsec: 0 };
    // SAFETY: clock_gettime writes one timespec through a valid pointer.
    unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut t) };
    t.tv_sec as f64 + t.tv_nsec as f64 * 1e-9
}

/// The yardstick: the same consumer, and a producer answering on a UDP socket, no daemon.
fn run_direct(seconds: u64, window: usize, payload: usize) {
    let rt = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
    let got = rt.block_on(async {
        let producer = UdpSocket::bind("127.0.0.1:0").await.unwrap();
        let addr = producer.local_addr().unwrap();
        let content = Bytes::from(vec![7u8; payload]);
        tokio::spawn(async move {
            let mut buf = vec![0u8; 9000];
            loop {
                let Ok((n, from)) = producer.recv_from(&mut buf).await else { continue };
                let Ok(frame) = Frame::decode(&buf[..n]) else { continue };
                let NetPacket::Interest(i) = frame.packet else { continue };
                let data = Data::new(i.name.clone(), content.clone());
                let _ = producer.send_to(&Frame::data(Arc::new(data)).encode(), from).await;
            }
        });
        consume(addr, seconds, window).await
    });
    let rate = got as f64 / seconds as f64;
    println!(
        "{got} exchanges in {seconds} s: {rate:.0} per second (window {window}, payload {payload} B); direct, no daemon: {:.1} us per exchange",
        seconds as f64 * 1e6 / got.max(1) as f64
    );
}

async fn clients(
    sock: &std::path::Path,
    fwd: std::net::SocketAddr,
    seconds: u64,
    window: usize,
    payload: usize,
) -> u64 {
    let mut producer = UnixStream::connect(sock).await.unwrap();
    let register = signed_command_name(
        "rib",
        "register",
        &ControlParameters { name: Some(Name::parse("/rate").unwrap()), ..Default::default() },
        1,
        1,
    );
    producer.write_all(&Interest::new(register, 1, Time::from_secs(1)).encode()).await.unwrap();
    let mut framer = TlvFramer::default();
    read_element(&mut producer, &mut framer).await; // the 200
    let content = Bytes::from(vec![7u8; payload]);
    // Answers every Interest of a read in one write, so that the producer costs the machine's
    // other core as little as it can and the figure stays the daemon's.
    tokio::spawn(async move {
        let mut chunk = vec![0u8; 16384];
        let mut answers = Vec::new();
        loop {
            match producer.read(&mut chunk).await {
                Ok(n) if n > 0 => framer.push(&chunk[..n]),
                _ => return,
            }
            answers.clear();
            while let Some(wire) = framer.next_slice().unwrap() {
                let Ok(frame) = Frame::decode(wire) else { continue };
                let NetPacket::Interest(i) = frame.packet else { continue };
                let data = Data::new(i.name.clone(), content.clone());
                answers.extend_from_slice(&Frame::data(Arc::new(data)).encode());
            }
            if producer.write_all(&answers).await.is_err() {
                return;
            }
        }
    });
    consume(fwd, seconds, window).await
}

/// Keeps `window` Interests for distinct names outstanding towards `to` for `seconds`; how many
/// Data came back.
async fn consume(to: std::net::SocketAddr, seconds: u64, window: usize) -> u64 {
    let consumer = UdpSocket::bind("127.0.0.1:0").await.unwrap();
    consumer.connect(to).await.unwrap();
    let base = Name::parse("/rate").unwrap();
    let mut next = 0u64;
    let send = |next: &mut u64| {
        *next += 1;
        Interest::new(base.append_segment(*next), *next as u32, Time::from_secs(4)).encode()
    };
    for _ in 0..window {
        consumer.send(&send(&mut next)).await.unwrap();
    }
    let end = Instant::now() + Duration::from_secs(seconds);
    let mut got = 0u64;
    let mut buf = vec![0u8; 9000];
    while Instant::now() < end {
        // A Data already waiting is taken without arming a timer; the timer is for a lost one.
        if consumer.try_recv(&mut buf).is_ok() {
            got += 1;
            consumer.send(&send(&mut next)).await.unwrap();
            continue;
        }
        match tokio::time::timeout(Duration::from_millis(200), consumer.recv(&mut buf)).await {
            Ok(Ok(_)) => {
                got += 1;
                consumer.send(&send(&mut next)).await.unwrap();
            }
            // A lost datagram (a full socket buffer): refill the window.
            _ => {
                consumer.send(&send(&mut next)).await.unwrap();
            }
        }
    }
    got
}

async fn read_element(stream: &mut UnixStream, framer: &mut TlvFramer) -> Vec<u8> {
    let mut chunk = [0u8; 16384];
    loop {
        if let Some(e) = framer.next_element().unwrap() {
            return e;
        }
        let n = stream.read(&mut chunk).await.unwrap();
        assert!(n > 0, "the daemon closed the connection");
        framer.push(&chunk[..n]);
    }
}
