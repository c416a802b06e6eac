//! `ndnflow get NAME`: discovers NAME's version as ndncatchunks does (`discover`: RDR metadata,
//! unless NAME ends in a version or discovery is off) and fetches NAME/v=<version>/seg=0, 1, ...
//! (NAME/seg=0, 1, ... without discovery) through a forwarder with the simulator's own
//! consumer (`ndnflow_core::app::Consumer`, sans-IO), run on the monotonic clock as the daemon
//! runs the forwarder: the same controllers, RTT estimator and retransmission rules as in a
//! simulated run, and the summary ndn-tools' ndncatchunks prints at the end (ndn-tools
//! tools/chunks/catchunks/pipeline-interests.cpp and pipeline-interests-adaptive.cpp,
//! `printSummary`).
//!
//! Its options are a scenario's consumer keys (`cc`, `segments`, `lifetime`, `rto`, ...): they
//! are written as a TOML consumer table and read by the scenario reader
//! (`ndnflow_sim::scenario::toml::parse_consumer_table`), so every key means, defaults and fails
//! as in a scenario file. Two defaults are ndncatchunks' instead: `cc`, which a scenario must
//! give, is its default pipeline (CUBIC with beta 0.7 and its TCP-friendly region), and
//! `max_retries` is its 15, so that a fetch of a name nobody serves ends.
//!
//! The window decreases ndncatchunks reports (per congestion mark, per timeout) are not counters
//! of the core's controllers: they are counted here, as a fall of `Consumer::window()` across the
//! call that handled a marked Data (a mark's) or anything else (a loss's: a timeout or a
//! Nack(Congestion)).

use std::future::Future;
use std::path::PathBuf;
use std::sync::Arc;

use bytes::Bytes;
use ndnflow_core::app::{Consumer, ConsumerConfig, ConsumerStats, RttHistogram};
use ndnflow_core::packet::{Frame, NetPacket};
use ndnflow_core::{Name, Time};
use ndnflow_sim::scenario::toml::{parse_consumer_table, ScenarioError};
use ndnflow_sim::trace::{ConsumerSummary, PathSummary, RunTraces};

use super::client::{Client, Received};
use super::discover::{discover_version, Asking, Discovered};
use super::get_trace::{FetchTrace, CONSUMER_ID, CONSUMER_NODE};
use super::verify::Verifier;
use super::{sleep_until, AppError};
use crate::clock::Clock;

/// `--cc` when none is given: ndncatchunks' default pipeline (`--pipeline-type cubic`, with
/// `--cubic-beta` 0.7), whose CUBIC keeps RFC 8312's TCP-friendly region, and which takes a
/// Nack(Congestion) for a timeout (pipeline-interests-adaptive.cpp `handleNack`: one decrease
/// per RTT, as CWA counts). A scenario's controllers leave unmarked Nacks alone (PCON §3.5);
/// a daemon refusing an Interest for want of PIT room answers one (`Forwarder::room_for_interest`).
pub const DEFAULT_CC: &str =
    r#"{ algorithm = "cubic", beta = 0.7, reno_friendly = true, decrease_on_unmarked_nacks = true }"#;

/// `--max-retries` when none is given: ndncatchunks' `--retries` default (Options
/// maxRetriesOnTimeoutOrNack, 15). A scenario's consumer has no limit by default, which on a real
/// network would retry a name nobody serves for ever.
pub const DEFAULT_MAX_RETRIES: &str = "15";

/// The consumer-table keys `ndnflow get` takes as options (`--max-retries` is `max_retries`).
/// Not `start` (a fetch starts when the command does), `catalog` (one object is written out).
pub const CONSUMER_KEYS: &[&str] =
    &["cc", "segments", "lifetime", "max_retries", "rto", "in_flight", "send_jitter", "stop", "batches"];

/// The consumer `name` and `options` (key, text as typed) describe, read by the scenario reader.
/// A text that is a TOML value (`10`, `{ initial = "1s" }`, `"4s"`) is used as it is; any other
/// is taken as a string (`4s`), and a `cc` string is the algorithm (`--cc aimd`). Errors name
/// the option.
pub fn consumer_config(name: &str, options: &[(String, String)]) -> Result<ConsumerConfig, AppError> {
    let parsed = Name::parse(name).map_err(|e| AppError::Usage(format!("NAME {name:?}: {e}")))?;
    super::check_name_fits(&parsed, "NAME")?;
    let mut text = format!("name = {}\n", toml_string(name));
    let mut lines = vec!["NAME".to_string()];
    let defaults = [("cc", DEFAULT_CC), ("max_retries", DEFAULT_MAX_RETRIES)];
    let defaults: Vec<(String, String)> = defaults
        .iter()
        .filter(|(key, _)| !options.iter().any(|(k, _)| k == key))
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
    let all = options.iter().chain(&defaults);
    for (key, value) in all {
        if !CONSUMER_KEYS.contains(&key.as_str()) {
            let msg = format!("{key:?} is not an option of ndnflow get (options: {})", CONSUMER_KEYS.join(", "));
            return Err(AppError::Usage(msg));
        }
        let value = match (key.as_str(), toml_value(value)) {
            ("cc", Some(toml::Value::Table(_))) => value.clone(),
            ("cc", Some(toml::Value::String(s))) => format!("{{ algorithm = {} }}", toml_string(&s)),
            ("cc", None) => format!("{{ algorithm = {} }}", toml_string(value.trim())),
            (_, Some(_)) => value.clone(),
            (_, None) => toml_string(value.trim()),
        };
        text.push_str(&format!("{key} = {value}\n"));
        lines.push(format!("--{}", key.replace('_', "-")));
    }
    parse_consumer_table(&text, "options").map_err(|e| AppError::Usage(option_error(&e, &lines)))
}

/// `text` as one TOML value, if it is exactly one.
fn toml_value(text: &str) -> Option<toml::Value> {
    let table: toml::Table = toml::from_str(&format!("v = {text}")).ok()?;
    (table.len() == 1).then(|| table.get("v").cloned()).flatten()
}

fn toml_string(s: &str) -> String {
    toml::Value::String(s.to_string()).to_string()
}

/// The reader's error, told by the option on its line rather than by a line of the document.
fn option_error(e: &ScenarioError, lines: &[String]) -> String {
    let option = e.line.and_then(|l| lines.get(l - 1)).map_or("options", String::as_str);
    match &e.field {
        Some(field) => format!("{option}: {field}: {}", e.message),
        None => format!("{option}: {}", e.message),
    }
}

/// What `fetch` is asked to do.
#[derive(Clone, Debug)]
pub struct GetOptions {
    pub consumer: ConsumerConfig,
    /// The forwarder's Unix socket.
    pub socket: PathBuf,
    /// Seeds the consumer's nonces and any random draws of its controller.
    pub seed: u64,
    /// Width of the traces' time bins (`--bin`; `get_trace::DEFAULT_BIN`).
    pub bin: Time,
    /// Discover the version by RDR metadata first, unless the name ends in one (ndncatchunks'
    /// default; false is its `--no-version-discovery`).
    pub discover: bool,
    /// `--verify`: the signature every Data taken must carry (`None`: none checked, as
    /// ndncatchunks).
    pub verify: Option<Verifier>,
}

impl GetOptions {
    /// A fetch of `consumer` through the forwarder at `socket`, with the default bins and
    /// version discovery.
    pub fn new(consumer: ConsumerConfig, socket: PathBuf, seed: u64) -> GetOptions {
        GetOptions { consumer, socket, seed, bin: super::get_trace::DEFAULT_BIN, discover: true, verify: None }
    }
}

/// The object fetched (when complete), the summary, and the traces a simulated run writes for
/// its consumers (`get_trace`).
pub struct Fetched {
    /// The content of segments 0..=last in order; `None` unless every one came.
    pub content: Option<Vec<u8>>,
    pub summary: Summary,
    pub traces: RunTraces,
}

/// ndncatchunks' end-of-run figures, and the consumer's counters.
#[derive(Clone, Debug)]
pub struct Summary {
    pub name: String,
    pub controller: &'static str,
    /// From the first Interest to the last segment (or to the stop).
    pub elapsed: Time,
    pub stats: ConsumerStats,
    /// Window decreases after a marked Data, and after anything else (timeouts, Nacks); `None`
    /// for a controller without a window (a rate).
    pub mark_decreases: Option<u64>,
    pub loss_decreases: Option<u64>,
    /// The RTT samples of `stats`, for their percentiles.
    pub rtt: RttHistogram,
    /// Segments the object has (FinalBlockId, or `segments`), once known.
    pub segments: Option<u64>,
    /// Elements from the forwarder that did not decode.
    pub malformed: u64,
    /// Why the object is not complete; `None` when it is.
    pub incomplete: Option<String>,
    /// A multipath consumer's paths at the end, in the order found (`None` for one path).
    pub paths: Option<Vec<PathSummary>>,
    pub seed: u64,
    /// Calls into the consumer: frames it was handed and timers that fired.
    pub events: u64,
    /// Trace bins the allocator refused room for (missing from `consumers.parquet`).
    pub refused_bins: u64,
    /// The version discovery before the fetch, when one ran.
    pub discovered: Option<Discovered>,
    /// With `--verify`: what was checked, and how many Data passed.
    pub verified: Option<(String, u64)>,
}

/// Fetches `options.consumer.name` through the forwarder at `options.socket`, until the object is
/// complete, the consumer stops (its `stop`, or a segment given up after `max_retries`), or
/// `shutdown` completes. The version is discovered first (`options.discover`); the fetch's time 0
/// is after it, as ndncatchunks' elapsed time starts with its pipeline.
pub async fn fetch(options: &GetOptions, shutdown: impl Future<Output = ()>) -> Result<Fetched, AppError> {
    let mut client = Client::connect(&options.socket).await?;
    tokio::pin!(shutdown);
    let mut consumer = options.consumer.clone();
    let discovered = if options.discover && !super::rdr::has_version(&consumer.name) {
        let (lifetime, max_retries, verify) = (consumer.lifetime, consumer.max_retries, options.verify.as_ref());
        let asking = Asking { lifetime, max_retries, seed: options.seed, verify };
        let found = discover_version(&mut client, &consumer.name, asking, shutdown.as_mut()).await?;
        consumer.name = found.versioned.clone();
        Some(found)
    } else {
        None
    };
    let mut run = Run::new(options, consumer);
    run.discovered = discovered;
    let mut out = Vec::new();
    run.on_timeout(&mut out); // starts it: its start is time 0
    let interrupted = loop {
        for frame in std::mem::take(&mut out) {
            client
                .send(&frame.encode())
                .await
                .map_err(|e| AppError::Failed(format!("writing to {}: {e}", client.path().display())))?;
        }
        if run.consumer.is_finished() || run.cannot_complete() {
            break false;
        }
        let deadline = run.consumer.poll_timeout().and_then(|t| run.clock.instant(t));
        let bin_end = run.clock.instant(run.trace.next_bin());
        tokio::select! {
            _ = &mut shutdown => break true,
            r = client.recv() => match r? {
                Received::Frame(frame) => {
                    if !run.passes_check(&frame, client.last_element(), options.verify.as_ref()) {
                        break false; // a Data that does not verify ends the fetch
                    }
                    run.on_frame(frame, &mut out)
                }
                Received::Malformed => run.malformed += 1,
                Received::Closed => {
                    let msg = format!("the forwarder at {} closed the connection", client.path().display());
                    return Err(AppError::Failed(msg));
                }
            },
            _ = sleep_until(deadline) => run.on_timeout(&mut out),
            _ = sleep_until(bin_end) => run.trace.close_bins(run.clock.now(), &run.consumer),
        }
    };
    Ok(run.finish(interrupted, options.verify.as_ref()))
}

/// A fetch in progress.
struct Run {
    clock: Clock,
    consumer: Consumer,
    name: Name,
    /// Content by segment number, as it came.
    content: Vec<Option<Bytes>>,
    /// The last segment, from FinalBlockId and `segments`.
    last: Option<u64>,
    mark_decreases: u64,
    loss_decreases: u64,
    malformed: u64,
    trace: FetchTrace,
    seed: u64,
    events: u64,
    discovered: Option<Discovered>,
    /// Data whose signature verified (with `--verify`).
    verified: u64,
    /// The Data that did not verify, and why.
    refused: Option<String>,
}

impl Run {
    fn new(options: &GetOptions, config: ConsumerConfig) -> Run {
        let last = config.segments.map(|n| n.saturating_sub(1));
        let name = config.name.clone();
        let mut consumer = Consumer::new(config, options.seed);
        Run {
            clock: Clock::start(),
            name,
            trace: FetchTrace::new(options.bin, &mut consumer),
            consumer,
            content: Vec::new(),
            last,
            mark_decreases: 0,
            loss_decreases: 0,
            malformed: 0,
            seed: options.seed,
            events: 0,
            discovered: None,
            verified: 0,
            refused: None,
        }
    }

    /// A segment was given up (after `max_retries`) while the object is not all in: the fetch
    /// fails now, as ndncatchunks' does, rather than asking for the segments past it (of an
    /// object whose end is unknown, without end).
    fn cannot_complete(&self) -> bool {
        self.consumer.stats.abandoned > 0 && !self.last.is_some_and(|l| self.has_all(l))
    }

    /// Whether segments 0..=last are all in.
    fn has_all(&self, last: u64) -> bool {
        usize::try_from(last).is_ok_and(|l| l < self.content.len() && self.content[..=l].iter().all(Option::is_some))
    }

    /// False when `frame` is a Data of the object whose signature, as `element` carried it, does
    /// not pass `verify` (the reason is kept); true for anything else.
    fn passes_check(&mut self, frame: &Frame, element: &[u8], verify: Option<&Verifier>) -> bool {
        let (NetPacket::Data(d), Some(verify)) = (&frame.packet, verify) else { return true };
        if !self.name.is_prefix_of(&d.name) {
            return true;
        }
        match verify.check(element) {
            Ok(()) => {
                self.verified += 1;
                true
            }
            Err(why) => {
                self.refused = Some(format!("{}: {why}", d.name));
                false
            }
        }
    }

    fn on_frame(&mut self, frame: Frame, out: &mut Vec<Frame>) {
        let marked = frame.lp.congestion_mark > 0;
        let data = match &frame.packet {
            NetPacket::Data(d) => Some(Arc::clone(d)),
            _ => None,
        };
        let (before, accepted) = (self.consumer.window(), self.consumer.stats.data_received);
        self.consumer.handle(self.clock.now(), frame, out);
        self.after_call();
        // Only a Data the consumer took (one it asked for, the first time) is kept: a segment
        // number no Interest carried never sizes the buffer.
        if let Some(d) = data.filter(|_| self.consumer.stats.data_received > accepted) {
            self.keep(&d);
        }
        if falls(before, self.consumer.window()) {
            if marked {
                self.mark_decreases += 1;
            } else {
                self.loss_decreases += 1;
            }
        }
    }

    fn on_timeout(&mut self, out: &mut Vec<Frame>) {
        let before = self.consumer.window();
        self.consumer.handle_timeout(self.clock.now(), out);
        self.after_call();
        if falls(before, self.consumer.window()) {
            self.loss_decreases += 1;
        }
    }

    fn after_call(&mut self) {
        self.events += 1;
        self.trace.drain(&mut self.consumer);
    }

    /// Keeps the content of a Data named NAME/seg=N.
    fn keep(&mut self, data: &ndnflow_core::packet::Data) {
        let n = &data.name;
        if n.len() != self.name.len() + 1 || !self.name.is_prefix_of(n) {
            return;
        }
        let Some(seg) = n.last().and_then(|c| c.as_segment()) else { return };
        if let Some(f) = data.final_segment() {
            self.last = Some(self.last.map_or(f, |l| l.min(f)));
        }
        let Ok(i) = usize::try_from(seg) else { return };
        if self.last.is_some_and(|l| seg > l) {
            return;
        }
        if self.content.len() <= i {
            self.content.resize(i + 1, None);
        }
        self.content[i] = Some(data.content.clone());
    }

    fn finish(mut self, interrupted: bool, verify: Option<&Verifier>) -> Fetched {
        let end = self.consumer.finished_at().unwrap_or_else(|| self.clock.now());
        let (traces, refused_bins) = self.trace.finish(end, &mut self.consumer);
        let c = &self.consumer;
        let segments = self.last.map(|l| l + 1);
        let have = self.content.iter().filter(|s| s.is_some()).count() as u64;
        let complete = self.refused.is_none() && self.last.is_some_and(|l| self.has_all(l));
        let incomplete = if complete {
            None
        } else if let Some(why) = self.refused.take() {
            Some(why)
        } else if interrupted {
            Some("interrupted".to_string())
        } else if c.stats.abandoned > 0 {
            Some(format!("gave up on {} segment(s) after max_retries retransmissions", c.stats.abandoned))
        } else {
            let of = segments.map_or("an unknown number of".to_string(), |n| n.to_string());
            Some(format!("stopped with {have} of {of} segments"))
        };
        let content = complete.then(|| {
            let n = segments.unwrap_or(0) as usize;
            self.content[..n].iter().flatten().flat_map(|b| b.iter().copied()).collect()
        });
        let windowed = c.window().is_some();
        let summary = Summary {
            name: self.name.to_string(),
            controller: c.controller_name(),
            elapsed: end,
            stats: c.stats,
            mark_decreases: windowed.then_some(self.mark_decreases),
            loss_decreases: windowed.then_some(self.loss_decreases),
            rtt: c.rtt_histogram().clone(),
            segments,
            malformed: self.malformed,
            incomplete,
            paths: c.paths().map(|paths| paths.into_iter().map(PathSummary::of).collect()),
            seed: self.seed,
            events: self.events,
            refused_bins,
            discovered: self.discovered,
            verified: verify.map(|v| (v.describe(), self.verified)),
        };
        Fetched { content, summary, traces }
    }
}

/// The window fell (a decrease), both before and after being known.
fn falls(before: Option<f64>, after: Option<f64>) -> bool {
    matches!((before, after), (Some(b), Some(a)) if a < b)
}

impl Summary {
    /// What ndncatchunks prints at the end, in its words and units (goodput as its
    /// `formatThroughput`), with the Nacks and the controller added.
    pub fn text(&self) -> String {
        let s = &self.stats;
        let row = self.consumer_row();
        let secs = self.elapsed.as_secs_f64();
        let mut lines = Vec::new();
        lines.push(match &self.incomplete {
            None => "All segments have been received.".to_string(),
            Some(why) => format!("Not all segments have been received: {why}."),
        });
        lines.push(format!("Time elapsed: {secs:.6} seconds"));
        lines.push(format!("Segments received: {}", s.data_received));
        lines.push(format!("Transferred size: {} kB", s.payload_bytes as f64 / 1e3));
        lines.push(format!("Goodput: {}", format_throughput(row.goodput_bps)));
        let caused = |n: Option<u64>| n.map_or(String::new(), |n| format!(" (caused {n} window decreases)"));
        lines.push(format!("Congestion marks: {}{}", s.marks, caused(self.mark_decreases)));
        lines.push(format!("Timeouts: {}{}", s.timeouts, caused(self.loss_decreases)));
        lines.push(format!("Nacks: {}", s.nacks));
        let pct = if s.interests_sent == 0 { 0.0 } else { s.retransmissions as f64 * 100.0 / s.interests_sent as f64 };
        lines.push(format!("Retransmitted segments: {} ({pct}%)", s.retransmissions));
        match (row.rtt_min_ms, row.rtt_avg_ms, row.rtt_max_ms) {
            (Some(lo), Some(avg), Some(hi)) => lines.push(format!("RTT min/avg/max = {lo:.3}/{avg:.3}/{hi:.3} ms")),
            _ => lines.push("RTT stats unavailable".to_string()),
        }
        lines.push(format!("Controller: {}", self.controller));
        if let Some(d) = &self.discovered {
            let ms = d.elapsed.as_secs_f64() * 1e3;
            lines.push(format!("Version discovered: {} ({} Interest(s), {ms:.3} ms)", d.versioned, d.interests));
        }
        if let Some((check, n)) = &self.verified {
            lines.push(format!("Signatures verified: {n} ({check})"));
        }
        lines.join("\n")
    }

    /// The consumer's row as a simulated run's summary.json has it (`consumers.<id>`), node
    /// "local", from 0 to the end of the fetch, with a multipath consumer's paths.
    pub fn consumer_row(&self) -> ConsumerSummary {
        let finished = self.incomplete.is_none();
        let mut row = ConsumerSummary::of(
            CONSUMER_NODE.into(),
            self.name.clone(),
            &self.stats,
            &self.rtt,
            Time::ZERO,
            self.elapsed,
            finished,
        );
        row.paths = self.paths.clone();
        row
    }

    /// `summary.json` of `--out DIR`, shaped as a simulated run's: `simulation` (the fetch's span
    /// as its duration and end, the seed, the consumer's calls as events, no packet-hops: the
    /// network is real), the consumer row under `consumers.get`, no `links` or `nodes` (the
    /// daemon prints its counters when it stops), and ndncatchunks' figures under `get`.
    pub fn to_json(&self) -> serde_json::Value {
        let row = self.consumer_row();
        let elapsed = self.elapsed.as_secs_f64();
        serde_json::json!({
            "simulation": {
                "duration_s": elapsed,
                "end_s": elapsed,
                "seed": self.seed,
                "events": self.events,
                "packet_hops": 0,
            },
            "consumers": { CONSUMER_ID: &row },
            "links": {},
            "nodes": {},
            "get": {
                "name": self.name,
                "controller": self.controller,
                "complete": self.incomplete.is_none(),
                "incomplete": self.incomplete,
                "elapsed_s": self.elapsed.as_secs_f64(),
                "segments": self.segments,
                "segments_received": self.stats.data_received,
                "bytes": self.stats.payload_bytes,
                "goodput_bps": row.goodput_bps,
                "congestion_marks": self.stats.marks,
                "mark_window_decreases": self.mark_decreases,
                "timeouts": self.stats.timeouts,
                "loss_window_decreases": self.loss_decreases,
                "nacks": self.stats.nacks,
                "interests_sent": self.stats.interests_sent,
                "retransmissions": self.stats.retransmissions,
                "malformed": self.malformed,
                "refused_bins": self.refused_bins,
                "verified": self.verified.as_ref().map(|(check, n)| serde_json::json!({ "check": check, "data": n })),
                "version_discovery": self.discovered.as_ref().map(|d| serde_json::json!({
                    "versioned_name": d.versioned.to_string(),
                    "interests": d.interests,
                    "elapsed_s": d.elapsed.as_secs_f64(),
                })),
            },
        })
    }
}

/// ndncatchunks' `formatThroughput`: bit/s scaled by 1000 up to Tbit/s, six decimals.
pub fn format_throughput(bps: f64) -> String {
    const UNITS: [&str; 5] = ["bit/s", "kbit/s", "Mbit/s", "Gbit/s", "Tbit/s"];
    let (mut value, mut unit) = (bps, 0);
    while value >= 1000.0 && unit < 4 {
        value /= 1000.0;
        unit += 1;
    }
    format!("{value:.6} {}", UNITS[unit])
}

#[cfg(test)]
#[path = "get_tests.rs"]
mod tests;
