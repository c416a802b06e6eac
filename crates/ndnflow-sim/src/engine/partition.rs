//! One run on several cores, a prototype (docs/architecture.md, "One run on several cores"): a
//! scenario's nodes split among logical processes (LPs), each a `Simulation` of its own that runs
//! only its nodes' events, synchronised conservatively in windows as long as the shortest delay of
//! the links the split cuts (the lookahead), as ns-3's distributed simulator grants time over MPI
//! (ns-3 src/mpi, DistributedSimulatorImpl).
//!
//! What an LP owns: its nodes (forwarder, Content Store, PIT, applications) and the link
//! directions they send on (queue, transmitter, loss, counters). Every LP builds the whole network,
//! so that node, app and direction indices mean the same in all of them; the parts an LP does not
//! own stay as built and never see an event. A cut direction's in-flight FIFO is the channel: the
//! sender's LP keeps a sentinel at the head of its copy, so that its transmissions never schedule
//! an arrival there (the engine schedules one only when a frame is alone in the FIFO), and at each
//! window's end hands what went on the wire to the receiver's LP, which appends it to its own copy
//! and schedules the arrival as the engine would. Nothing in the sequential path changes: nothing
//! here is called by `Simulation::run`.
//!
//! Why the windows are safe: a frame sent at `t >= T` on a cut direction arrives at
//! `t + transmission + delay >= T + L`, so no LP can receive, during the window `[T, T + L)`,
//! anything another LP sends during it.
//!
//! What the prototype refuses (each a clear error): cut links with a zero delay, with link
//! reliability, an Interest shaper, an overlay's underlay, or scheduled changes; scenarios with
//! underlays anywhere, the per-segment trace, the forwarding log; an Interest that reaches a cut
//! direction congestion-marked (PCON tells the sender's PIT at the arrival, another LP's state).
//! The time series are each LP's own (only LP 0 samples); the merged result is the summary.

use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Barrier, Mutex};
use std::time::{Duration, Instant};

use ndnflow_core::packet::{Frame, LpHeader, NetPacket};
use ndnflow_core::Time;

use super::Simulation;
use crate::build::App;
use crate::events::{Event, EventQueue};
use crate::scenario::model::Scenario;
use crate::trace::Summary;

/// How the LPs take turns: each on a thread of its own, or all on the calling thread, window by
/// window (the same windows and the same bytes, to measure what the windows cost without a
/// second core).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Schedule {
    /// Threads meeting at a barrier that spins, then yields the core (`SpinBarrier`).
    Threads,
    /// Threads meeting at `std::sync::Barrier`, which puts a waiting thread to sleep.
    ThreadsParked,
    OneThread,
}

/// A partitioned run's result and what its synchronisation did.
#[derive(Debug)]
pub struct Outcome {
    /// The LPs' summaries merged, each entry from the LP that owns it.
    pub summary: Summary,
    /// The window length: the shortest delay over the cut directions.
    pub lookahead: Time,
    pub windows: u64,
    /// Frames handed from one LP to another.
    pub cut_frames: u64,
    /// Events each LP processed.
    pub lp_events: Vec<u64>,
    /// Wall time of the windows alone (the LPs' builds and the merge excluded), for measuring.
    pub run_wall: Duration,
    /// Wall time each LP spent at the barriers (threads only): the cost of the windows, load
    /// imbalance and, on a busy machine, the other LP's time off its core.
    pub lp_waited: Vec<Duration>,
    /// CPU time of each LP's thread (threads only, Linux only, in 10 ms ticks): with a barrier
    /// that sleeps, the LP's own work, whatever else the machine runs.
    pub lp_cpu: Vec<Option<Duration>>,
}

/// A cut direction and the LPs at its two ends.
#[derive(Clone, Copy, Debug)]
struct Cut {
    dir: u32,
    from: usize,
    to: usize,
}

/// The split: which LP owns each node, the directions it cuts, and the lookahead.
struct Plan {
    owner: Vec<usize>,
    lps: usize,
    cuts: Vec<Cut>,
    lookahead: Time,
    duration: Time,
}

/// A frame on its way from one LP to another: direction, arrival instant, frame.
type Message = (u32, Time, Frame);

/// Runs `scenario` as LPs, `owner[n]` being the LP of node `n` (LPs numbered from 0, each with at
/// least one node). The merged summary equals the sequential run's except for ties (see
/// docs/architecture.md, "Determinism").
pub fn run_partitioned(scenario: &Scenario, owner: &[usize], schedule: Schedule) -> Result<Outcome, String> {
    let first = Simulation::new(scenario.clone());
    let plan = Plan::new(&first, owner)?;
    let mut sims = vec![first];
    sims.extend((1..plan.lps).map(|_| Simulation::new(scenario.clone())));
    for (id, sim) in sims.iter_mut().enumerate() {
        plan.prepare(sim, id);
    }
    let started = Instant::now();
    let (windows, cut_frames, lp_waited, lp_cpu) = match schedule {
        Schedule::Threads => run_threads(&plan, &mut sims, Gate::Spinning(SpinBarrier::new(plan.lps)))?,
        Schedule::ThreadsParked => run_threads(&plan, &mut sims, Gate::Parked(Barrier::new(plan.lps)))?,
        Schedule::OneThread => run_one_thread(&plan, &mut sims)?,
    };
    let run_wall = started.elapsed();
    let all_finished = sims
        .iter()
        .enumerate()
        .all(|(id, s)| s.net.apps.iter().all(|a| a.consumer.is_none() || a.done || plan.owner[a.node] != id));
    if all_finished && !scenario.consumers.is_empty() {
        return Err("every consumer finished before the duration: a sequential run ends there, and the \
                    partitioned prototype does not agree on that end across LPs"
            .into());
    }
    Ok(Outcome {
        summary: plan.merge(&sims),
        lookahead: plan.lookahead,
        windows,
        cut_frames,
        lp_events: sims.iter().map(|s| s.events_processed).collect(),
        run_wall,
        lp_waited,
        lp_cpu,
    })
}

impl Plan {
    fn new(sim: &Simulation, owner: &[usize]) -> Result<Plan, String> {
        let scenario = &sim.scenario;
        if owner.len() != scenario.nodes.len() {
            return Err(format!(
                "the partition names {} nodes, the scenario has {}",
                owner.len(),
                scenario.nodes.len()
            ));
        }
        let lps = owner.iter().max().map_or(1, |m| m + 1);
        if let Some(empty) = (0..lps).find(|lp| !owner.contains(lp)) {
            return Err(format!("LP {empty} owns no node"));
        }
        if scenario.trace.interests || scenario.trace.forwarding.is_some() {
            return Err("the per-segment trace and the forwarding log are not partitioned".into());
        }
        let mut cuts = Vec::new();
        for (d, dir) in sim.net.dirs.iter().enumerate() {
            if dir.next.is_some() || dir.chain.origin as usize != d {
                return Err("overlay links (underlays) are not partitioned".into());
            }
            let (from, to) = (owner[dir.from], owner[dir.to]);
            if from == to {
                continue;
            }
            let name = &sim.net.dir_names[d].name;
            if dir.delay == Time::ZERO {
                return Err(format!("cut link {name} has no delay: no lookahead"));
            }
            if dir.reliability.is_some() || dir.shaper.is_some() || dir.feeds_shaper.is_some() {
                return Err(format!("cut link {name} runs link reliability or an Interest shaper"));
            }
            cuts.push(Cut { dir: d as u32, from, to });
        }
        for e in &scenario.events {
            let (ab, _) = sim.net.link_dirs[e.link];
            let d = &sim.net.dirs[ab];
            if owner[d.from] != owner[d.to] {
                return Err(format!("cut link {} has a scheduled change", sim.net.dir_names[ab].name));
            }
        }
        let lookahead = cuts.iter().map(|c| sim.net.dirs[c.dir as usize].delay).min().unwrap_or(scenario.duration);
        Ok(Plan { owner: owner.to_vec(), lps, cuts, lookahead: lookahead.max(Time(1)), duration: scenario.duration })
    }

    /// Makes `sim` LP `id`: only its own start events (in the order `Simulation::new` schedules
    /// them, so its ties keep their order), samples on LP 0 only, a sentinel at the head of the
    /// FIFO of every cut direction it sends on, and no end when its own consumers finish (all
    /// LPs must agree on the end).
    fn prepare(&self, sim: &mut Simulation, id: usize) {
        let mut events = EventQueue::new();
        for (i, app) in sim.net.apps.iter().enumerate() {
            if let (App::Consumer(c), true) = (&app.app, self.owner[app.node] == id) {
                events.schedule(c.config().start, Event::AppWake(i as u32));
            }
        }
        for (i, e) in sim.scenario.events.iter().enumerate() {
            if self.owner[sim.net.dirs[sim.net.link_dirs[e.link].0].from] == id {
                events.schedule(e.at, Event::LinkChange(i as u32));
            }
        }
        if id == 0 && sim.scenario.bin > Time::ZERO {
            events.schedule(sim.scenario.bin.min(sim.scenario.duration), Event::Sample);
        }
        sim.events = events;
        sim.consumers_left = usize::MAX;
        for cut in self.cuts.iter().filter(|c| c.from == id) {
            sim.net.dirs[cut.dir as usize].in_flight.push_back((Time::ZERO, sentinel()));
        }
    }

    /// The last instant window `k` runs (windows are `[kL, (k+1)L)`, the last cut at the end).
    fn window_end(&self, k: u64) -> Time {
        Time((self.lookahead.0.saturating_mul(k + 1)).saturating_sub(1)).min(self.duration)
    }

    /// Takes what LP `id` put on its cut directions this window, per receiving LP.
    fn take_outgoing(&self, sim: &mut Simulation, id: usize, out: &mut [Vec<Message>]) -> Result<u64, String> {
        let mut moved = 0;
        for cut in self.cuts.iter().filter(|c| c.from == id) {
            let dir = &mut sim.net.dirs[cut.dir as usize];
            for (at, frame) in dir.in_flight.drain(1..) {
                if matches!(frame.packet, NetPacket::Interest(_)) && frame.lp.congestion_mark != 0 {
                    let name = &sim.net.dir_names[cut.dir as usize].name;
                    return Err(format!(
                        "a congestion-marked Interest crossed cut link {name}: PIT marking is not partitioned"
                    ));
                }
                out[cut.to].push((cut.dir, at, frame));
                moved += 1;
            }
        }
        Ok(moved)
    }

    /// The summaries of the LPs, each node, consumer and link direction from its owner's.
    fn merge(&self, sims: &[Simulation]) -> Summary {
        let mut parts: Vec<Summary> = sims.iter().map(Simulation::summary).collect();
        let net = &sims[0].net;
        let scenario = &sims[0].scenario;
        let mut merged = parts[0].clone();
        for (i, spec) in scenario.consumers.iter().enumerate() {
            let id = &net.consumer_ids[i];
            if let Some(c) = parts[self.owner[spec.node]].consumers.remove(id) {
                merged.consumers.insert(id.clone(), c);
            }
        }
        for (d, dir) in net.dirs.iter().enumerate() {
            let name = &net.dir_names[d].name;
            if let Some(l) = parts[self.owner[dir.from]].links.remove(name) {
                merged.links.insert(name.clone(), l);
            }
        }
        for (n, spec) in scenario.nodes.iter().enumerate() {
            if let Some(s) = parts[self.owner[n]].nodes.remove(&spec.name) {
                merged.nodes.insert(spec.name.clone(), s);
            }
        }
        let sim = &mut merged.simulation;
        sim.events = sims.iter().map(|s| s.events_processed).sum();
        sim.packet_hops =
            net.dirs.iter().enumerate().map(|(d, dir)| sims[self.owner[dir.from]].net.dirs[d].counters.packets).sum();
        sim.stopped = sims.iter().find_map(|s| s.stopped.clone());
        merged
    }
}

/// The placeholder at the head of a cut direction's FIFO in its sender's LP; never delivered.
fn sentinel() -> Frame {
    Frame::new(LpHeader::default(), super::reliable::idle_carrier())
}

/// Appends frames from another LP to this LP's copies of their directions, scheduling an arrival
/// for a direction that had none in flight (the engine's invariant: one `Arrive` per non-empty
/// FIFO, for its head).
fn deliver(sim: &mut Simulation, messages: &mut Vec<Message>) {
    for (d, at, frame) in messages.drain(..) {
        let dir = &mut sim.net.dirs[d as usize];
        dir.in_flight.push_back((at, frame));
        if dir.in_flight.len() == 1 {
            sim.events.schedule(at, Event::Arrive(d));
        }
    }
}

/// Whether an LP's window ended the run early (memory watch, refused allocation).
fn stopped_early(plan: &Plan, over: bool, end: Time) -> bool {
    over && end < plan.duration
}

/// What a schedule reports: windows, frames moved, each LP's time at the barriers and CPU time.
type Counts = (u64, u64, Vec<Duration>, Vec<Option<Duration>>);

/// All LPs on this thread, window after window.
fn run_one_thread(plan: &Plan, sims: &mut [Simulation]) -> Result<Counts, String> {
    let mut mail: Vec<Vec<Message>> = vec![Vec::new(); plan.lps * plan.lps];
    let (mut k, mut moved) = (0, 0);
    loop {
        let end = plan.window_end(k);
        let mut stop = false;
        for (id, sim) in sims.iter_mut().enumerate() {
            stop |= stopped_early(plan, sim.run_until(end), end);
            moved += plan.take_outgoing(sim, id, &mut mail[id * plan.lps..(id + 1) * plan.lps])?;
        }
        for (id, sim) in sims.iter_mut().enumerate() {
            for from in 0..plan.lps {
                deliver(sim, &mut mail[from * plan.lps + id]);
            }
        }
        k += 1;
        if end >= plan.duration || stop {
            return Ok((k, moved, vec![Duration::ZERO; plan.lps], vec![None; plan.lps]));
        }
    }
}

/// What the LP threads share: a mailbox per (window parity, sender, receiver), so a sender can
/// post window k+1 while its receiver still reads window k; a barrier per window; the first
/// window after which to stop, and the first error.
struct Shared {
    mail: Vec<Mutex<Vec<Message>>>,
    barrier: Gate,
    stop_after: AtomicU64,
    error: Mutex<Option<String>>,
    moved: AtomicU64,
}

impl Shared {
    fn slot(&self, lps: usize, k: u64, from: usize, to: usize) -> &Mutex<Vec<Message>> {
        &self.mail[(k as usize % 2) * lps * lps + from * lps + to]
    }
}

/// Each LP on a thread of its own.
fn run_threads(plan: &Plan, sims: &mut [Simulation], barrier: Gate) -> Result<Counts, String> {
    let shared = Shared {
        mail: (0..2 * plan.lps * plan.lps).map(|_| Mutex::new(Vec::new())).collect(),
        barrier,
        stop_after: AtomicU64::new(u64::MAX),
        error: Mutex::new(None),
        moved: AtomicU64::new(0),
    };
    let ends: Vec<(u64, Duration, Option<Duration>)> = std::thread::scope(|s| {
        let handles: Vec<_> = sims
            .iter_mut()
            .enumerate()
            .map(|(id, sim)| {
                s.spawn({
                    let shared = &shared;
                    move || lp_thread(plan, shared, sim, id)
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap_or_default()).collect()
    });
    let windows = ends.iter().map(|e| e.0).max().unwrap_or(0);
    if let Some(e) = shared.error.into_inner().unwrap_or_else(|p| p.into_inner()) {
        return Err(e);
    }
    let cpu = ends.iter().map(|e| e.2).collect();
    Ok((windows, shared.moved.into_inner(), ends.into_iter().map(|e| e.1).collect(), cpu))
}

/// One LP's loop: run the window, post what crossed, wait for the others, take what came.
/// Every LP leaves after the same window: the stop request names the window it was made in,
/// and all read it after that window's barrier.
fn lp_thread(plan: &Plan, shared: &Shared, sim: &mut Simulation, id: usize) -> (u64, Duration, Option<Duration>) {
    let mut out = vec![Vec::new(); plan.lps];
    let (mut k, mut waited) = (0, Duration::ZERO);
    loop {
        let end = plan.window_end(k);
        if stopped_early(plan, sim.run_until(end), end) {
            shared.stop_after.fetch_min(k, Ordering::SeqCst);
        }
        match plan.take_outgoing(sim, id, &mut out) {
            Ok(n) => {
                shared.moved.fetch_add(n, Ordering::Relaxed);
            }
            Err(e) => {
                shared.error.lock().unwrap_or_else(|p| p.into_inner()).get_or_insert(e);
                shared.stop_after.fetch_min(k, Ordering::SeqCst);
            }
        }
        for (to, messages) in out.iter_mut().enumerate() {
            if !messages.is_empty() {
                std::mem::swap(
                    &mut *shared.slot(plan.lps, k, id, to).lock().unwrap_or_else(|p| p.into_inner()),
                    messages,
                );
            }
        }
        let arrived = Instant::now();
        shared.barrier.wait();
        waited += arrived.elapsed();
        for from in 0..plan.lps {
            deliver(sim, &mut shared.slot(plan.lps, k, from, id).lock().unwrap_or_else(|p| p.into_inner()));
        }
        k += 1;
        if end >= plan.duration || shared.stop_after.load(Ordering::SeqCst) < k {
            return (k, waited, thread_cpu());
        }
    }
}

/// The calling thread's CPU time so far, user and system, from /proc/thread-self/stat (in
/// USER_HZ ticks, 100 a second on Linux whatever the kernel's own tick); `None` elsewhere.
fn thread_cpu() -> Option<Duration> {
    let stat = std::fs::read_to_string("/proc/thread-self/stat").ok()?;
    // Fields after the command name (which may hold spaces, hence the last ')'): state is the
    // first, utime the 12th, stime the 13th.
    let mut fields = stat.get(stat.rfind(')')? + 2..)?.split(' ').skip(11);
    let ticks: u64 = fields.next()?.parse::<u64>().ok()? + fields.next()?.parse::<u64>().ok()?;
    Some(Duration::from_millis(ticks * 10))
}

/// Where the LP threads meet after each window.
enum Gate {
    Parked(Barrier),
    Spinning(SpinBarrier),
}

impl Gate {
    fn wait(&self) {
        match self {
            Gate::Parked(b) => {
                b.wait();
            }
            Gate::Spinning(b) => b.wait(),
        }
    }
}

/// A barrier for windows of a few hundred microseconds: a thread that arrives early spins for
/// a while, then yields its core until the last one arrives. Why not sleep: waking a sleeping
/// thread costs tens of microseconds on a virtual machine (the idle virtual CPU has to be woken
/// through the hypervisor), as much as a short window's work; yielding still lets other
/// processes have the core when the wait is long.
struct SpinBarrier {
    parties: usize,
    arrived: AtomicUsize,
    /// Windows completed; a waiter leaves when it changes.
    generation: AtomicU64,
}

/// Spins before a waiting thread starts yielding (each a `spin_loop` hint, some tens of
/// nanoseconds: a few tens of microseconds in all).
const SPINS: u32 = 2000;

impl SpinBarrier {
    fn new(parties: usize) -> SpinBarrier {
        SpinBarrier { parties, arrived: AtomicUsize::new(0), generation: AtomicU64::new(0) }
    }

    fn wait(&self) {
        let generation = self.generation.load(Ordering::Acquire);
        if self.arrived.fetch_add(1, Ordering::AcqRel) + 1 == self.parties {
            // The last to arrive: reset the count before releasing the others, who cannot
            // arrive again before they see the new generation.
            self.arrived.store(0, Ordering::Relaxed);
            self.generation.fetch_add(1, Ordering::Release);
            return;
        }
        let mut spins = 0;
        while self.generation.load(Ordering::Acquire) == generation {
            if spins < SPINS {
                std::hint::spin_loop();
                spins += 1;
            } else {
                std::thread::yield_now();
            }
        }
    }
}

#[cfg(test)]
#[path = "partition_tests.rs"]
mod tests;
