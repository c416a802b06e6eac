//! The discrete-event driver: moves frames between the sans-IO forwarders, applications and link
//! directions, in integer-nanosecond time with ties in scheduling order.
//!
//! A frame a forwarder sends to an application (or an application to its forwarder) is delivered at
//! the same instant through a local FIFO, so nothing recurses and nothing reorders.
//!
//! Link loss detection (PCON §3.5): a link that detects losses runs NDNLPv2 link reliability at both
//! faces (`reliable.rs`); what a face gives up on comes back as a Nack(Congestion), marked on
//! overlay links, not on wireless ones.
//!
//! Interest shaping (PCON §4.6, docs/protocols/shaper.md): an Interest a forwarder sends on a
//! shaped direction waits in the direction's shaper, which releases it to the output queue at its
//! pacing instant (a `ShaperWake` event); Data delivered over the reverse direction update the
//! shaper's size estimate. An Interest the shaper drops comes back at once, at the same instant,
//! to the sender as a marked Nack(Congestion), as a lost Interest the link gives up on does.

mod captures;
mod external;
mod fwlog;
mod interests;
pub mod partition;
mod reliable;
mod report;
mod shaping;
mod stall;
mod watch;
use std::collections::VecDeque;

use std::sync::Arc;

use ndnflow_core::fw::forwarder::Outbox;
use ndnflow_core::fw::{ForwarderExtension, Strategy};
use ndnflow_core::grow::OutOfMemory;
use ndnflow_core::link::reliability::Output;
use ndnflow_core::link::QueueDiscipline;
use ndnflow_core::packet::{Frame, Interest, Nack, NackReason, NetPacket};
use ndnflow_core::table::FaceId;
use ndnflow_core::{Name, Time};

use crate::build::{build_with_progress, App, FaceTarget, Network};
use crate::events::{Event, EventQueue};
use crate::scenario::model::{LinkChange, LinkDirection, Scenario};
use crate::trace::{ConsumerSample, Recorder, Results};
use crate::trace_counters::CounterRecorder;
pub use external::StopSlot;

pub struct Simulation {
    scenario: Scenario,
    net: Network,
    events: EventQueue,
    now: Time,
    /// Set when the run is over: duration reached or every consumer finished.
    end: Option<Time>,
    consumers_left: usize,
    local: VecDeque<(usize, FaceId, Frame)>,
    outbox: Outbox,
    app_out: Vec<Frame>,
    recorder: Recorder,
    events_processed: u64,
    /// Scratch for what a link's reliability asks for.
    lp_out: Vec<Output>,
    /// The network packet an IDLE packet's carrier frame holds (never read: see `link.rs`).
    idle_carrier: NetPacket,
    /// Scratch for the Interests a shaper drops.
    shaper_dropped: Vec<Frame>,
    warnings: Vec<String>,
    /// Why the run stopped before its end, when the memory watch stopped it (`crate::memory`).
    stopped: Option<String>,
    /// The first growth the allocator refused, and whose container it was ("node r's"): the run
    /// ends after the event that met it (`ndnflow_core::grow`, `watch.rs`).
    out_of_memory: Option<(OutOfMemory, String)>,
    /// `ndnflow_core::reserve::releases()` when the run began: a change means the system refused
    /// an allocation outside the guarded containers and the reserve covered it (`watch.rs`).
    reserve_releases: u64,
    /// The per-segment trace, `None` unless `[trace] interests = true`.
    interests: Option<crate::trace_interests::InterestLog>,
    /// The forwarding log's records (`[trace] forwarding`); `None`: off.
    fwlog: Option<Box<crate::fwlog::FwLogRecorder>>,
    /// Set by `stop_on`: an outside protocol's way to end the run (`external.rs`).
    stop_slot: Option<StopSlot>,
    /// Events and locally delivered frames handled since simulated time last advanced (`stall.rs`).
    at_instant: u64,
    /// Locally delivered frames since the memory watch last looked: a burst of them inside one
    /// event (a consumer's window of thousands) grows the run as events do.
    local_since_watch: u64,
    /// The local queue's length past which `drain_local` asks the memory watch again.
    local_watch_mark: usize,
}

impl Simulation {
    pub fn new(scenario: Scenario) -> Simulation {
        Simulation::with_progress(scenario, &mut |_, _| {})
    }

    /// `new`, telling `progress(done, total)` how far building the network is
    /// (`build::build_with_progress`).
    pub fn with_progress(scenario: Scenario, progress: &mut dyn FnMut(usize, usize)) -> Simulation {
        let net = build_with_progress(&scenario, progress);
        let mut warnings = crate::warnings::unreachable_consumers(&scenario, &net);
        warnings.extend(crate::warnings::untagged_multipath_consumers(&scenario, &net));
        warnings.extend(crate::warnings::lone_nodes(&scenario));
        let mut events = EventQueue::new();
        for (i, app) in net.apps.iter().enumerate() {
            if let App::Consumer(c) = &app.app {
                events.schedule(c.config().start, Event::AppWake(i as u32));
            }
        }
        for (i, e) in scenario.events.iter().enumerate() {
            events.schedule(e.at, Event::LinkChange(i as u32));
        }
        if scenario.bin > Time::ZERO {
            events.schedule(scenario.bin.min(scenario.duration), Event::Sample);
        }
        let consumers_left = scenario.consumers.len();
        let mut recorder = Recorder::new(net.dirs.len(), scenario.consumers.len());
        recorder.counters = CounterRecorder::new(&scenario.trace, &net);
        let mut sim = Simulation {
            recorder,
            net,
            events,
            now: Time::ZERO,
            end: None,
            consumers_left,
            local: VecDeque::new(),
            outbox: Vec::new(),
            app_out: Vec::new(),
            events_processed: 0,
            lp_out: Vec::new(),
            idle_carrier: reliable::idle_carrier(),
            shaper_dropped: Vec::new(),
            warnings,
            stopped: None,
            out_of_memory: None,
            reserve_releases: ndnflow_core::reserve::releases(),
            interests: None,
            fwlog: None,
            stop_slot: None,
            at_instant: 0,
            local_since_watch: 0,
            local_watch_mark: crate::memory::WATCH_EVERY as usize,
            scenario,
        };
        sim.start_interest_log();
        sim.install_forwarding_log();
        sim
    }

    pub fn now(&self) -> Time {
        self.now
    }
    pub fn duration(&self) -> Time {
        self.scenario.duration
    }
    pub fn is_finished(&self) -> bool {
        self.end.is_some()
    }
    pub fn scenario(&self) -> &Scenario {
        &self.scenario
    }
    /// What the scenario permits but probably does not mean (`crate::warnings`), one line each.
    pub fn warnings(&self) -> &[String] {
        &self.warnings
    }

    /// Installs `strategy` for `prefix` on the node named `node` (a strategy of another crate's,
    /// which a scenario cannot name); false when there is no such node. Before the run or
    /// between steps: the node's wake-up follows whatever timer the strategy has armed.
    pub fn set_strategy(&mut self, node: &str, prefix: &Name, strategy: Box<dyn Strategy>) -> bool {
        let Some(n) = self.scenario.nodes.iter().position(|s| s.name == node) else { return false };
        self.net.nodes[n].fw.set_strategy(prefix, strategy);
        self.reschedule_node(n);
        true
    }

    /// Adds a router extension of another crate's to the node named `node`, after those its
    /// scenario asks for; false when there is no such node. Before the run.
    pub fn add_extension(&mut self, node: &str, extension: Box<dyn ForwarderExtension>) -> bool {
        let Some(n) = self.scenario.nodes.iter().position(|s| s.name == node) else { return false };
        self.net.nodes[n].fw.add_extension(extension);
        true
    }

    /// Runs to completion.
    pub fn run(&mut self) -> Results {
        self.run_until(self.scenario.duration);
        self.results()
    }

    /// Advances to `t` (at most the duration); returns whether the run is over.
    pub fn run_until(&mut self, t: Time) -> bool {
        if self.end.is_some() {
            return true;
        }
        let limit = t.min(self.scenario.duration);
        while let Some((at, event)) = self.events.peek() {
            if at > limit {
                break;
            }
            match event {
                Event::Arrive(d) => self.next_arrival(d as usize),
                _ => {
                    self.events.pop();
                }
            }
            self.at_instant = if at == self.now { self.at_instant + 1 } else { 0 };
            self.now = at;
            self.events_processed += 1;
            let mut watch =
                matches!(event, Event::Sample) || self.events_processed.is_multiple_of(crate::memory::WATCH_EVERY);
            self.dispatch(event);
            if self.end.is_some() {
                return true; // the memory watch ended the run inside the event (`drain_local`)
            }
            if self.local_since_watch >= crate::memory::WATCH_EVERY {
                self.local_since_watch = 0;
                watch = true;
            }
            if self.consumers_left == 0 && !self.scenario.consumers.is_empty() {
                self.finish();
                return true;
            }
            if self.allocation_refused() || (watch && self.over_memory_limit()) || self.stalled() {
                return true;
            }
            if self.stop_slot.is_some() && self.outside_stop() {
                return true;
            }
        }
        self.now = self.now.max(limit);
        if limit >= self.scenario.duration {
            self.finish();
            return true;
        }
        false
    }

    /// Takes the due `Arrive(d)` off the queue; if another packet of direction `d` is in flight,
    /// its arrival takes the event's place (one heap operation instead of a pop and a push).
    fn next_arrival(&mut self, d: usize) {
        match self.net.dirs[d].in_flight.get(1) {
            Some(&(next, _)) => self.events.replace_earliest(next, Event::Arrive(d as u32)),
            None => {
                self.events.pop();
            }
        }
    }

    fn finish(&mut self) {
        if self.end.is_some() {
            return;
        }
        self.end = Some(self.now);
        self.sample();
    }

    fn sample(&mut self) {
        let consumers = self.net.apps.iter().filter_map(|a| match (&a.app, a.consumer) {
            (App::Consumer(c), Some(i)) => {
                let window = c.window().filter(|_| c.is_active());
                Some(ConsumerSample { index: i as u32, stats: c.stats, window, paths: c.traced_paths() })
            }
            _ => None,
        });
        if let Err(e) = self.recorder.sample(self.now, &self.net, consumers) {
            self.note_refused(e, "the trace's".to_string());
        }
    }

    fn dispatch(&mut self, event: Event) {
        match event {
            Event::Arrive(d) => {
                let dir = &mut self.net.dirs[d as usize];
                let arrived = dir.pop_arrival();
                let (to, to_face, next_hop, feeds) = (dir.to, dir.to_face, dir.next, dir.feeds_shaper);
                let origin = dir.chain.origin as usize;
                if let Some(mut frame) = arrived {
                    if next_hop.is_none() {
                        self.pit_mark_at_sender(origin, &mut frame);
                        // One NDN-level link crossed (an overlay link is one, whatever its
                        // underlay): the per-segment trace's `hops`, as ndnSIM's link service
                        // adds one to HopCountTag on receipt.
                        frame.add_hop();
                    }
                    match next_hop {
                        // An overlay link: on to the next underlay hop.
                        Some(n) => self.transmit(n as usize, frame),
                        None if self.net.dirs[origin].reliability.is_some() => self.receive_reliably(origin, frame),
                        None => {
                            if let Some(s) = feeds {
                                self.data_for_shaper(s as usize, &frame);
                            }
                            self.arrive_local(to, to_face, frame)
                        }
                    }
                }
                self.drain_local();
            }
            Event::TxDone(d) => {
                self.net.dirs[d as usize].tx_pending = false;
                self.kick(d as usize);
            }
            Event::NodeWake(n) => self.wake_node(n as usize),
            Event::AppWake(a) => self.wake_app(a as usize),
            Event::Sample => {
                self.sample();
                let next = self.now + self.scenario.bin;
                if next <= self.scenario.duration {
                    self.events.schedule(next, Event::Sample);
                }
            }
            Event::LinkChange(i) => self.apply_link_change(i as usize),
            Event::LinkWake(d) => self.wake_link(d as usize),
            Event::ShaperWake(d) => {
                self.release_shaped(d as usize);
                self.drain_local();
            }
        }
    }

    /// PCON's PIT marking (§3.1, Algorithm 2): a queue of NDN-level direction `origin` (or of its
    /// underlay) marked this Interest; the mark is for the node that sent it there, which marks
    /// the Interest's PIT entry, and goes no further. Told on arrival rather than when the queue
    /// marks: the Data cannot be back before then, so the entry is marked in time either way.
    fn pit_mark_at_sender(&mut self, origin: usize, frame: &mut Frame) {
        let NetPacket::Interest(interest) = &frame.packet else { return };
        if frame.lp.congestion_mark == 0 {
            return;
        }
        frame.lp.congestion_mark = 0;
        let o = &self.net.dirs[origin];
        let (from, from_face) = (o.from, o.from_face);
        self.net.nodes[from].fw.note_congested_interest(self.now, from_face, interest);
        self.take_node_log(from);
    }

    /// A Nack(Congestion) for `interest`, carrying `mark`, arrives at the sender of NDN-level
    /// direction `origin` on that direction's face, as if the upstream had sent it.
    fn nack_to_sender(&mut self, origin: usize, interest: Arc<Interest>, mark: u64) {
        let o = &self.net.dirs[origin];
        let mut nack = Frame::nack(Arc::new(Nack { reason: NackReason::Congestion, interest }));
        nack.lp.congestion_mark = mark;
        self.local.push_back((o.from, o.from_face, nack));
    }

    /// Sends on NDN-level direction `d`, numbered first by its link's reliability if it has one.
    fn put_on(&mut self, d: usize, mut frame: Frame) {
        if self.net.dirs[d].reliability.is_some() {
            self.number(d, &mut frame);
        }
        self.transmit(d, frame);
    }

    /// Puts a frame on direction `d`: at once when it is idle with nothing queued, else through
    /// its queue.
    fn transmit(&mut self, d: usize, frame: Frame) {
        let frame = match self.net.dirs[d].send_now(self.now, frame) {
            Ok(tx) => {
                if let Some(arrival) = tx.arrival {
                    self.events.schedule(arrival, Event::Arrive(d as u32));
                }
                self.take_link_log(d);
                return;
            }
            Err(frame) => frame,
        };
        self.net.dirs[d].enqueue(self.now, frame);
        self.take_link_log(d);
        self.kick(d);
    }

    /// A frame for the forwarder of `node` at this instant: handed over at once when nothing is
    /// queued before it, which is what the local FIFO would do first anyway (nearly always the
    /// case on a link's arrival: the events that fill the FIFO drain it), sparing the frame's
    /// move into the FIFO and out again; behind the queued frames otherwise.
    fn arrive_local(&mut self, node: usize, face: FaceId, frame: Frame) {
        if self.local.is_empty() {
            self.forward(node, face, frame);
        } else {
            self.local.push_back((node, face, frame));
        }
    }

    /// Delivers frames queued for forwarders at this instant, and whatever they cause locally.
    fn drain_local(&mut self) {
        while let Some((node, face, frame)) = self.local.pop_front() {
            self.forward(node, face, frame);
            self.at_instant += 1;
            self.local_since_watch += 1;
            if self.at_instant > stall::STALL_LIMIT {
                // Answered on its own node, a consumer asks again at the same instant, forever:
                // the run ends at the next event boundary (`stalled`), these frames unsent.
                self.local.clear();
            } else if self.local_since_watch >= crate::memory::WATCH_EVERY || self.local.len() > self.local_watch_mark {
                // The same loop can fill memory long before the stall guard's count (a window
                // that doubles at every Data answered there reached 2.3 GB under a 200 MB limit,
                // and a rate without bound, 65,536 Interests per Data, 14 GB, until 2026-11-28):
                // the watch looks here too, every 65,536 frames and whenever the queue has
                // doubled, and ends the run in this event.
                self.local_since_watch = 0;
                self.local_watch_mark = 2 * self.local.len().max(crate::memory::WATCH_EVERY as usize);
                if self.over_memory_limit() {
                    self.local.clear();
                }
            }
        }
    }

    /// The forwarder of `node` handles `frame` from `face`; what it sends goes out at once.
    #[inline(always)]
    fn forward(&mut self, node: usize, face: FaceId, frame: Frame) {
        let mut out = std::mem::take(&mut self.outbox);
        self.net.nodes[node].fw.handle(self.now, face, frame, &mut out);
        self.take_node_log(node);
        self.send_all(node, &mut out);
        self.outbox = out;
        self.reschedule_node(node);
    }

    /// Sends what `node`'s forwarder put in `out`, in order, leaving `out` empty. One frame (a
    /// forwarded Interest, a Data to its one downstream: nearly every hop) is popped, which costs
    /// less than setting up and dropping a `Drain` for it.
    #[inline(always)]
    fn send_all(&mut self, node: usize, out: &mut Outbox) {
        if out.len() == 1 {
            if let Some((face, frame)) = out.pop() {
                self.send_from(node, face, frame);
            }
            return;
        }
        for (face, frame) in out.drain(..) {
            self.send_from(node, face, frame);
        }
    }

    fn send_from(&mut self, node: usize, face: FaceId, frame: Frame) {
        match self.net.nodes[node].faces[face.index()] {
            // A shaped direction holds its Interests back (PCON §4.6); Data and Nacks pass.
            FaceTarget::Link(d) if self.net.dirs[d as usize].shaper.is_some() => match frame.packet {
                NetPacket::Interest(_) => self.shape(d as usize, frame),
                _ => self.put_on(d as usize, frame),
            },
            FaceTarget::Link(d) => self.put_on(d as usize, frame),
            FaceTarget::App(a) => self.deliver_to_app(a as usize, frame),
        }
    }

    fn deliver_to_app(&mut self, a: usize, frame: Frame) {
        let now = self.now;
        let slot = &mut self.net.apps[a];
        match &mut slot.app {
            App::Producer(p) => {
                if let Some(reply) = p.handle(now, frame) {
                    self.local.push_back((slot.node, slot.face, reply));
                }
            }
            App::Consumer(c) => {
                let mut out = std::mem::take(&mut self.app_out);
                c.handle(now, frame, &mut out);
                for f in out.drain(..) {
                    self.local.push_back((slot.node, slot.face, f));
                }
                self.app_out = out;
                self.after_app(a);
            }
        }
    }

    fn wake_app(&mut self, a: usize) {
        let now = self.now;
        let slot = &mut self.net.apps[a];
        if let App::Consumer(c) = &mut slot.app {
            let mut out = std::mem::take(&mut self.app_out);
            c.handle_timeout(now, &mut out);
            for f in out.drain(..) {
                self.local.push_back((slot.node, slot.face, f));
            }
            self.app_out = out;
            self.after_app(a);
            self.drain_local();
        }
    }

    /// Reschedules the app's timer and notes when a consumer has finished.
    fn after_app(&mut self, a: usize) {
        let now = self.now;
        if self.interests.is_some() {
            self.drain_interests(a);
        }
        let slot = &mut self.net.apps[a];
        let App::Consumer(c) = &mut slot.app else { return };
        if let Some(e) = c.out_of_memory() {
            let i = slot.consumer.unwrap_or_default();
            self.note_refused(e, format!("consumer {i}'s"));
            return;
        }
        if c.is_finished() {
            if !slot.done {
                slot.done = true;
                self.consumers_left -= 1;
            }
            return;
        }
        if let Some(t) = c.poll_timeout() {
            let t = t.max(now);
            if t < slot.wake_at || slot.wake_at <= now {
                slot.wake_at = t;
                self.events.schedule(t, Event::AppWake(a as u32));
            }
        }
    }

    /// PIT expiries and strategy timers; what the timers send goes out as the pipelines' frames do.
    fn wake_node(&mut self, n: usize) {
        let mut out = std::mem::take(&mut self.outbox);
        self.net.nodes[n].fw.handle_timeout(self.now, &mut out);
        self.take_node_log(n);
        self.send_all(n, &mut out);
        self.outbox = out;
        self.reschedule_node(n);
        self.drain_local();
    }

    // Inlined into `drain_local` (its caller per frame) as it was before `set_strategy` and
    // `external.rs` gave it more callers: out of line it cost 1 % of the bench's instructions.
    #[inline(always)]
    fn reschedule_node(&mut self, n: usize) {
        let now = self.now;
        if let Some(e) = self.net.nodes[n].fw.out_of_memory() {
            let place = format!("node {}'s", self.scenario.nodes[n].name);
            self.note_refused(e, place);
        }
        let node = &mut self.net.nodes[n];
        if let Some(t) = node.fw.poll_timeout() {
            let t = t.max(now);
            if t < node.wake_at || node.wake_at <= now {
                node.wake_at = t;
                self.events.schedule(t, Event::NodeWake(n as u32));
            }
        }
    }

    /// Starts a transmission if the direction is idle, and makes sure a busy one wakes when done.
    fn kick(&mut self, d: usize) {
        let now = self.now;
        let dir = &mut self.net.dirs[d];
        if let Some(tx) = dir.transmit_next(now) {
            if let Some(arrival) = tx.arrival {
                self.events.schedule(arrival, Event::Arrive(d as u32));
            }
        }
        self.take_link_log(d);
        let dir = &mut self.net.dirs[d];
        if !dir.tx_pending && !dir.is_idle(now) && !dir.queue.is_empty() {
            dir.tx_pending = true;
            self.events.schedule(dir.busy_until, Event::TxDone(d as u32));
        }
    }

    fn apply_link_change(&mut self, i: usize) {
        let e = self.scenario.events[i];
        let (ab, ba) = self.net.link_dirs[e.link];
        let dirs: &[usize] = match e.direction {
            LinkDirection::Both => &[ab, ba],
            LinkDirection::AtoB => &[ab],
            LinkDirection::BtoA => &[ba],
        };
        for &d in dirs {
            match e.change {
                LinkChange::Bandwidth(bps) => {
                    self.net.dirs[d].bandwidth_bps = bps;
                    self.net.dirs[d].queue.set_capacity(self.now, bps);
                }
                LinkChange::Down => {
                    self.net.dirs[d].set_down(self.now);
                    self.take_link_log(d);
                    self.set_face_state(d, false);
                }
                LinkChange::Up => {
                    self.net.dirs[d].up = true;
                    self.set_face_state(d, true);
                    self.kick(d);
                }
            }
        }
    }

    /// A direction that is down makes its sending face ineligible as a next hop.
    fn set_face_state(&mut self, d: usize, up: bool) {
        let from = self.net.dirs[d].from;
        let face = self.net.nodes[from].faces.iter().position(|t| matches!(t, FaceTarget::Link(x) if *x as usize == d));
        if let Some(face) = face {
            self.net.nodes[from].fw.set_face_up(FaceId(face as u32), up);
        }
    }
}
