//! Helpers shared by the scenario-level tests.
#![allow(dead_code)] // each test crate uses its own subset

use std::any::Any;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use ndnflow_core::fw::ext::DataCopy;
use ndnflow_core::fw::strategy::StrategyCtx;
use ndnflow_core::fw::{FaceKind, ForwarderExtension};
use ndnflow_core::packet::LpHeader;
use ndnflow_core::Time;
use ndnflow_sim::scenario::model::{NodeId, Scenario};
use ndnflow_sim::scenario::toml::{parse_scenario, ScenarioError};
use ndnflow_sim::trace::Summary;
use ndnflow_sim::{Results, Simulation};

/// The repository's `examples/` directory.
pub fn examples() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples")
}

/// Parses a scenario text, naming it `quickstart.toml` in errors.
pub fn parse(text: &str) -> Result<Scenario, ScenarioError> {
    parse_scenario(text, "quickstart.toml", None)
}

/// The id of the node called `name`.
pub fn node(s: &Scenario, name: &str) -> NodeId {
    s.nodes.iter().position(|n| n.name == name).unwrap_or_else(|| panic!("no node {name}"))
}

/// One link c - p, 10 Mbit/s and 10 ms each way, a producer of /p with 1024-byte payloads, the
/// per-segment trace on, and a consumer of /p on c whose other keys are `consumer`'s lines.
pub fn one_link_c_p(duration: &str, consumer: &str) -> String {
    format!(
        r#"
[simulation]
duration = "{duration}"
[trace]
interests = true
[nodes]
c = {{}}
p = {{}}
[[links]]
between = ["c", "p"]
bandwidth = "10Mbps"
delay = "10ms"
[[producers]]
node = "p"
prefix = "/p"
payload = 1024
[[consumers]]
node = "c"
name = "/p"
{consumer}
"#
    )
}

/// The quick-start example's text.
pub fn quickstart_text() -> String {
    std::fs::read_to_string(examples().join("quickstart.toml")).unwrap()
}

/// The quick-start with line `line` (1-based) replaced by `new` (which may hold several lines).
pub fn quickstart_with_line(line: usize, new: &str) -> String {
    let text = quickstart_text();
    let mut lines: Vec<&str> = text.lines().collect();
    lines[line - 1] = new;
    lines.join("\n") + "\n"
}

/// A three-node line a - b - c with a producer of /p on c, for tests that add to it.
pub const SMALL: &str = r#"
[simulation]
duration = "10s"

[nodes]
a = {}
b = {}
c = {}

[[links]]
between   = ["a", "b"]
bandwidth = "10Mbps"
delay     = "1ms"

[[links]]
between   = ["b", "c"]
bandwidth = "10Mbps"
delay     = "1ms"

[[producers]]
node   = "c"
prefix = "/p"
"#;

/// `SMALL` followed by `extra`, parsed.
pub fn small_with(extra: &str) -> Result<Scenario, ScenarioError> {
    parse(&format!("{SMALL}{extra}"))
}

/// Parses and runs a scenario to its end.
pub fn run(text: &str) -> Results {
    let scenario = parse_scenario(text, "test.toml", None).unwrap_or_else(|e| panic!("{e}"));
    Simulation::new(scenario).run()
}

/// What a node's extension notes of each Data it hands to a local application: the instant and
/// `read` of the Data's link header as it arrived and as it leaves.
struct AppDataRecorder<T> {
    seen: Arc<Mutex<Vec<(Time, T)>>>,
    read: fn(&LpHeader, &LpHeader) -> T,
}

impl<T: Send + 'static> ForwarderExtension for AppDataRecorder<T> {
    fn name(&self) -> &'static str {
        "app-data-recorder"
    }

    fn as_any(&self) -> &dyn Any {
        self
    }

    fn outgoing_data(&mut self, ctx: &StrategyCtx, copy: DataCopy, lp_in: &LpHeader, lp_out: &mut LpHeader) {
        if ctx.faces[copy.out_face.index()].kind == FaceKind::App {
            self.seen.lock().unwrap().push((ctx.now, (self.read)(lp_in, lp_out)));
        }
    }
}

/// Runs `text` to its end with an `AppDataRecorder` on node `at` (after its other extensions, so
/// that it sees what they wrote); returns the summary and the notes, in arrival order.
pub fn run_recording_app_data<T: Send + 'static>(
    text: &str,
    at: &str,
    read: fn(&LpHeader, &LpHeader) -> T,
) -> (Summary, Vec<(Time, T)>) {
    run_recording_app_data_with(text, at, read, Vec::new())
}

/// `run_recording_app_data` with `extra` extensions added first, each on its node (test-only
/// stand-ins for what no scenario key offers yet).
pub fn run_recording_app_data_with<T: Send + 'static>(
    text: &str,
    at: &str,
    read: fn(&LpHeader, &LpHeader) -> T,
    extra: Vec<(&str, Box<dyn ForwarderExtension>)>,
) -> (Summary, Vec<(Time, T)>) {
    let scenario = parse_scenario(text, "test.toml", None).unwrap_or_else(|e| panic!("{e}"));
    let mut sim = Simulation::new(scenario);
    for (node, extension) in extra {
        assert!(sim.add_extension(node, extension), "no node {node}");
    }
    let seen = Arc::new(Mutex::new(Vec::new()));
    assert!(sim.add_extension(at, Box::new(AppDataRecorder { seen: seen.clone(), read })));
    let results = sim.run();
    let seen = std::mem::take(&mut *seen.lock().unwrap());
    (results.summary, seen)
}

/// Rows of `consumer` in the consumer trace whose bin starts in [from_s, to_s).
pub fn rows(r: &Results, consumer: &str, from_s: f64, to_s: f64) -> Vec<usize> {
    let c = &r.consumers;
    let index = r.consumer_names.iter().position(|n| n.id == consumer).expect("consumer id") as u32;
    (0..c.time_s.len())
        .filter(|&i| c.consumer[i] == index && c.time_s[i] >= from_s - 1e-9 && c.time_s[i] < to_s - 1e-9)
        .collect()
}

/// Mean goodput of `consumer` over bins starting in [from_s, to_s).
pub fn goodput(r: &Results, consumer: &str, from_s: f64, to_s: f64) -> f64 {
    let rows = rows(r, consumer, from_s, to_s);
    rows.iter().map(|&i| r.consumers.goodput_bps[i]).sum::<f64>() / rows.len() as f64
}

pub fn assert_within(measured: f64, expected: f64, rel: f64, what: &str) {
    let err = (measured - expected).abs() / expected;
    assert!(err <= rel, "{what}: measured {measured:.1}, expected {expected:.1} ({:.3} % off)", err * 100.0);
}

/// The PTP paper's tree (§6-B Case I, scaled): c - r - {a: 10 Mbit/s, b: 5 Mbit/s} - p, the max
/// flow 15 Mbit/s. `node(name)` is each node's table, `queue` every link's, `cc` the consumer's
/// (of /p/obj, served by p under /p); static routes only.
pub fn ptp_tree(node: impl Fn(&str) -> String, queue: &str, cc: &str, duration: &str) -> String {
    let link = |a: &str, b: &str, bw: &str, delay: &str| {
        format!("[[links]]\nbetween = [\"{a}\", \"{b}\"]\nbandwidth = \"{bw}\"\ndelay = \"{delay}\"\nqueue = {queue}\n")
    };
    let route = |n: &str, h: &str| format!("[[routes]]\nnode = \"{n}\"\nprefix = \"/p\"\nnexthop = \"{h}\"\n");
    let nodes: String = ["c", "r", "a", "b", "p"].iter().map(|n| format!("{n} = {}\n", node(n))).collect();
    format!(
        "[simulation]\nduration = \"{duration}\"\nrouting = \"none\"\n[nodes]\n{nodes}{}{}{}{}{}{}{}{}{}{}\
         [[producers]]\nnode = \"p\"\nprefix = \"/p\"\n[[consumers]]\nnode = \"c\"\nname = \"/p/obj\"\ncc = {cc}\n",
        link("c", "r", "100Mbps", "5ms"),
        link("r", "a", "10Mbps", "10ms"),
        link("r", "b", "5Mbps", "10ms"),
        link("a", "p", "100Mbps", "5ms"),
        link("b", "p", "100Mbps", "5ms"),
        route("c", "r"),
        route("r", "a"),
        route("r", "b"),
        route("a", "p"),
        route("b", "p"),
    )
}
