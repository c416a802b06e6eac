//! The ndnSIM topology importer: annotated topology files (as ndnSIM writes them) become ndnflow
//! links, merge with a TOML scenario, and their errors point into the right file and line.

use crate::common;

use std::path::{Path, PathBuf};

use common::{examples, node, parse};

use ndnflow_core::Time;
use ndnflow_sim::scenario::model::*;
use ndnflow_sim::scenario::ndnsim::{parse_ndnsim_topology, topology_to_toml};
use ndnflow_sim::scenario::toml::{load_scenario, parse_scenario};

#[test]
fn ndnsim_grid_example_imports() {
    let s = load_scenario(&examples().join("grid.toml")).unwrap();
    assert_eq!(s.nodes.len(), 9);
    assert_eq!(s.links.len(), 12);
    assert_eq!(s.nodes[0].name, "Node0");
    let node4 = &s.nodes[node(&s, "Node4")].forwarder;
    assert_eq!((node4.cs_policy, node4.cs_capacity), (CsPolicy::Lru, 1000));
    let l = &s.links[0];
    assert_eq!((s.nodes[l.a].name.as_str(), s.nodes[l.b].name.as_str(), l.metric), ("Node0", "Node1", 1));
    let dir = LinkDirSpec {
        bandwidth_bps: 1_000_000,
        delay: Time::from_millis(10),
        queue: QueueSpec::DropTail { limit: QueueLimit::Packets(10) },
        loss: LossSpec::None,
        underlay: Vec::new(),
        loss_detection: LossDetection::None,
        shaper: None,
        mtu: None,
        marking: None,
    };
    assert_eq!((&l.ab, &l.ba), (&dir, &dir));
    assert_eq!(
        s.consumers[0].cc,
        CcConfig::ConstantRate { rate: 100.0, randomize: ndnflow_core::app::cc::Randomize::None }
    );
    assert_eq!(s.seed, 7);
}

#[test]
fn topology_to_toml_reparses_to_the_same_links() {
    let path = examples().join("topo-grid-3x3.txt");
    let text = std::fs::read_to_string(&path).unwrap();
    let topo = parse_ndnsim_topology(&text, "topo-grid-3x3.txt").unwrap();
    assert_eq!((topo.nodes.len(), topo.links.len()), (9, 12));
    assert_eq!((topo.nodes[1].x, topo.nodes[1].y), (2.0, 3.0));

    let converted = topology_to_toml(&topo);
    let standalone = format!("[simulation]\nduration = \"1s\"\n\n{converted}");
    let from_toml = parse_scenario(&standalone, "converted.toml", None).unwrap_or_else(|e| panic!("{e}\n{standalone}"));
    let from_file = load_scenario(&examples().join("grid.toml")).unwrap();
    assert_eq!(from_toml.links, from_file.links);
    let names = |s: &Scenario| s.nodes.iter().map(|n| n.name.clone()).collect::<Vec<_>>();
    assert_eq!(names(&from_toml), names(&from_file));
}

#[test]
fn ndnsim_files_as_ndnsim_writes_them() {
    // The shapes of ndnSIM's own files: a file that starts with `router`, tabs, trailing tabs,
    // fractional delays, negative coordinates, metric columns, links without queue, a loss column.
    let text = "router\n# node  comment     yPos    xPos\nNode0\tNA\t-135.764\t253.112\nNode1\tNA\t-124.26\t    242.106\nNode2\tNA\t21\t19\t\t\t\n\n# queue:  MaxPackets\nlink\n\nNode0\tNode1\t1Mbps   1   0.312ms     10\nNode1     Node2     100Mbps   71  5ms\nNode0 Node2 1Mbps 1 10ms 10 ns3::RateErrorModel,ErrorUnit=ERROR_UNIT_PACKET,ErrorRate=0.9\n";
    let topo = parse_ndnsim_topology(text, "sprint.txt").unwrap();
    assert_eq!(topo.nodes.len(), 3);
    assert_eq!((topo.nodes[0].x, topo.nodes[0].y), (253.112, -135.764));
    assert_eq!(topo.links[0].delay, Some(Time::from_micros(312)));
    assert_eq!((topo.links[1].metric, topo.links[1].queue_packets), (Some(71), None));
    assert_eq!(topo.links[2].loss_rate, Some(0.9));

    let converted = topology_to_toml(&topo);
    let s = parse_scenario(&format!("[simulation]\nduration = \"1s\"\n{converted}"), "x.toml", None).unwrap();
    assert_eq!(s.links[1].metric, 71);
    assert_eq!(s.links[1].ab.queue, QueueSpec::default());
    assert_eq!(s.links[2].ba.loss, LossSpec::Bernoulli { p: 0.9 });
}

/// A scratch directory holding a scenario and its topology file.
fn scratch(name: &str, files: &[(&str, &str)]) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("ndnflow-scenario-test-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for (file, text) in files {
        std::fs::write(dir.join(file), text).unwrap();
    }
    dir
}

const TOPO_HEAD: &str = "[simulation]\nduration = \"1s\"\n\n[topology]\nndnsim = \"t.txt\"\n";

#[test]
fn topology_and_toml_are_merged() {
    let topo = "router\na\nb\nlink\na b 10Mbps\n";
    let scenario = format!(
        "{TOPO_HEAD}\n[nodes]\nextra = {{}}\nb = {{ strategy = \"multicast\" }}\n\n[[links]]\nbetween = [\"b\", \"extra\"]\nbandwidth = \"1Mbps\"\ndelay = \"1ms\"\n"
    );
    let dir = scratch("merge", &[("t.txt", topo), ("s.toml", &scenario)]);
    let s = load_scenario(&dir.join("s.toml")).unwrap();
    let names: Vec<&str> = s.nodes.iter().map(|n| n.name.as_str()).collect();
    assert_eq!(names, ["a", "b", "extra"]);
    assert_eq!(s.nodes[1].forwarder.default_strategy, StrategyKind::Multicast);
    assert_eq!(s.links.len(), 2);
    // No delay column: ns-3's default of 0 s.
    assert_eq!(s.links[0].ab.delay, Time::ZERO);
    assert_eq!(s.links[0].ab.queue, QueueSpec::default());
    std::fs::remove_dir_all(dir).ok();
}

#[test]
fn topology_errors_point_into_the_right_file() {
    // A duplicate of a topology link in [[links]].
    let topo = "router\na\nb\nlink\na b 10Mbps 1 1ms\n";
    let scenario =
        format!("{TOPO_HEAD}\n[[links]]\nbetween = [\"b\", \"a\"]\nbandwidth = \"1Mbps\"\ndelay = \"1ms\"\n");
    let dir = scratch("dup", &[("t.txt", topo), ("s.toml", &scenario)]);
    let e = load_scenario(&dir.join("s.toml")).unwrap_err();
    assert!(e.source_name.ends_with("s.toml"), "{e}");
    assert_eq!((e.line, e.field.as_deref()), (Some(8), Some("links[0].between")), "{e}");
    assert!(e.message.contains("duplicate link b - a (already defined by "), "{e}");
    assert!(e.message.contains("t.txt line 5"), "{e}");

    // A bad line in the topology file: the error names that file and line.
    let dir = scratch("bad", &[("t.txt", "router\na\nb\nlink\na b 10Mbps 1 1ms\nb c 1Mbps\n"), ("s.toml", TOPO_HEAD)]);
    let e = load_scenario(&dir.join("s.toml")).unwrap_err();
    assert!(e.source_name.ends_with("t.txt"), "{e}");
    assert_eq!((e.line, e.column, e.field.as_deref()), (Some(6), Some(3), Some("dstNode")), "{e}");
    assert!(e.message.contains("unknown node \"c\" (routers: a, b)"), "{e}");

    // A link without bandwidth.
    let dir = scratch("nobw", &[("t.txt", "router\na\nb\nlink\na b\n"), ("s.toml", TOPO_HEAD)]);
    let e = load_scenario(&dir.join("s.toml")).unwrap_err();
    assert!(e.source_name.ends_with("t.txt"), "{e}");
    assert_eq!(e.line, Some(5), "{e}");
    assert!(e.message.contains("no bandwidth column"), "{e}");

    // A missing file: the error points at the [topology] line of the scenario.
    let dir = scratch("missing", &[("s.toml", &TOPO_HEAD.replace("t.txt", "nope.txt"))]);
    let e = load_scenario(&dir.join("s.toml")).unwrap_err();
    assert_eq!((e.line, e.field.as_deref()), (Some(5), Some("topology.ndnsim")), "{e}");
    assert!(e.message.contains("cannot read ndnSIM topology \"nope.txt\""), "{e}");

    let e = parse("[simulation]\nduration = \"1s\"\n[topology]\nns2 = \"x\"\n").unwrap_err();
    assert_eq!(e.field.as_deref(), Some("topology.ns2"), "{e}");
    for name in ["dup", "bad", "nobw", "missing"] {
        std::fs::remove_dir_all(
            std::env::temp_dir().join(format!("ndnflow-scenario-test-{}-{name}", std::process::id())),
        )
        .ok();
    }
}

#[test]
fn load_scenario_reports_unreadable_files() {
    let e = load_scenario(Path::new("/nonexistent/dir/s.toml")).unwrap_err();
    assert_eq!(e.source_name, "/nonexistent/dir/s.toml");
    assert!(e.message.contains("cannot read scenario file"), "{e}");
}

#[test]
fn a_topology_path_that_is_no_file_is_refused_before_reading() {
    // /dev/zero never ends: read whole it took 8 GB before failing. A device is refused at once,
    // with the [topology] line and field.
    let e = parse("[simulation]\nduration = \"1s\"\n[topology]\nndnsim = \"/dev/zero\"\n").unwrap_err();
    assert_eq!((e.line, e.field.as_deref()), (Some(4), Some("topology.ndnsim")), "{e}");
    assert!(e.message.contains("\"/dev/zero\"") && e.message.contains("not a regular file"), "{e}");
    // A directory likewise.
    let e = parse("[simulation]\nduration = \"1s\"\n[topology]\nndnsim = \"/\"\n").unwrap_err();
    assert!(e.message.contains("cannot read ndnSIM topology \"/\""), "{e}");

    // A named pipe is refused before it is opened: opening one waits for a writer, for ever.
    let dir = std::env::temp_dir().join(format!("ndnflow-fifo-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let fifo = dir.join("pipe.txt");
    let made = std::process::Command::new("mkfifo").arg(&fifo).status().is_ok_and(|s| s.success());
    assert!(made, "mkfifo {} (coreutils) could not make the pipe this test needs", fifo.display());
    let text = format!("[simulation]\nduration = \"1s\"\n[topology]\nndnsim = {:?}\n", fifo.display().to_string());
    let e = parse(&text).unwrap_err();
    assert!(e.message.contains("not a regular file"), "{e}");
    // And so is a scenario file that is not a regular file.
    let e = load_scenario(&fifo).unwrap_err();
    assert!(e.message.contains("cannot read scenario file: not a regular file"), "{e}");
    std::fs::remove_dir_all(&dir).ok();
}
