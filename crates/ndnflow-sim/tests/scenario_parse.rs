//! The TOML scenario reader and the ndnSIM topology importer: the example files parse to the
//! expected model, and every validation error names the file, line, field and reason.

use std::path::{Path, PathBuf};

use ndnflow_core::{Name, Time};
use ndnflow_sim::scenario::model::*;
use ndnflow_sim::scenario::ndnsim::{parse_ndnsim_topology, topology_to_toml};
use ndnflow_sim::scenario::toml::{load_scenario, parse_scenario, ScenarioError};

fn examples() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples")
}

fn quickstart_text() -> String {
    std::fs::read_to_string(examples().join("quickstart.toml")).unwrap()
}

fn parse(text: &str) -> Result<Scenario, ScenarioError> {
    parse_scenario(text, "quickstart.toml", None)
}

/// The quick-start with line `line` (1-based) replaced by `new` (which may hold several lines).
fn quickstart_with_line(line: usize, new: &str) -> String {
    let text = quickstart_text();
    let mut lines: Vec<&str> = text.lines().collect();
    lines[line - 1] = new;
    lines.join("\n") + "\n"
}

fn node(s: &Scenario, name: &str) -> NodeId {
    s.nodes.iter().position(|n| n.name == name).unwrap_or_else(|| panic!("no node {name}"))
}

#[test]
fn quickstart_parses_to_the_expected_model() {
    let s = load_scenario(&examples().join("quickstart.toml")).unwrap();
    assert_eq!(s.duration, Time::from_secs(30));
    assert_eq!(s.seed, 1);
    assert_eq!(s.bin, Time::from_millis(100));
    assert_eq!(s.routing, RoutingMetric::HopCount);

    let names: Vec<&str> = s.nodes.iter().map(|n| n.name.as_str()).collect();
    assert_eq!(names, ["c1", "c2", "r", "p"]);
    let r = &s.nodes[2];
    assert_eq!(r.cs, CsSpec { policy: CsPolicy::Lru, capacity: 10_000 });
    assert_eq!(r.strategy, StrategyKind::BestRoute);
    assert_eq!(s.nodes[0].cs, CsSpec::default());

    assert_eq!(s.links.len(), 3);
    let rp = &s.links[2];
    assert_eq!((rp.a, rp.b, rp.metric), (2, 3, 1));
    for dir in [&rp.ab, &rp.ba] {
        assert_eq!(dir.bandwidth_bps, 10_000_000);
        assert_eq!(dir.delay, Time::from_millis(20));
        assert_eq!(dir.queue, QueueSpec::DropTail { limit: QueueLimit::Packets(100) });
        assert_eq!(dir.loss, LossSpec::None);
    }
    assert_eq!(s.links[0].ab.bandwidth_bps, 100_000_000);
    assert_eq!(s.links[0].ab.delay, Time::from_millis(5));
    assert_eq!(s.links[0].ab.queue, QueueSpec::default());

    assert_eq!(s.producers.len(), 1);
    let p = &s.producers[0];
    assert_eq!((p.node, p.payload, p.segments, p.freshness), (3, 1024, None, None));
    assert_eq!(p.prefix, Name::parse("/video").unwrap());

    assert_eq!(s.consumers.len(), 2);
    let c1 = &s.consumers[0];
    assert_eq!((c1.node, c1.start, c1.stop), (0, Time::ZERO, None));
    assert_eq!(c1.name, Name::parse("/video/a").unwrap());
    let c2 = &s.consumers[1];
    assert_eq!(c2.node, 1);
    assert_eq!(c2.start, Time::from_secs(10));
    assert_eq!(c2.cc, CcSpec::FixedWindow { window: 40 });
    assert_eq!(c2.lifetime, Time::from_secs(2));
    assert_eq!(c2.rto, RtoSpec::default());
    assert_eq!((c2.segments, c2.max_retries), (None, None));
    assert!(s.routes.is_empty() && s.events.is_empty());
}

#[test]
fn dumbbell_example_uses_every_feature() {
    let s = load_scenario(&examples().join("dumbbell.toml")).unwrap();
    assert_eq!((s.seed, s.bin, s.routing), (42, Time::from_millis(50), RoutingMetric::Delay));
    let r1 = &s.nodes[node(&s, "r1")];
    assert_eq!(r1.cs, CsSpec { policy: CsPolicy::Fifo, capacity: 5000 });
    assert_eq!(r1.strategy_choices, vec![(Name::parse("/live").unwrap(), StrategyKind::Multicast)]);

    let access = &s.links[0];
    let ge = LossSpec::GilbertElliott { p: 0.01, r: 0.3, loss_good: 0.0, loss_bad: 1.0 };
    assert_eq!((access.ab.loss, access.ba.loss), (ge, ge));

    let bottleneck = &s.links[2];
    assert_eq!(bottleneck.metric, 2);
    assert_eq!(
        bottleneck.ab.queue,
        QueueSpec::Codel {
            limit: QueueLimit::Bytes(150_000),
            target: Time::from_millis(5),
            interval: Time::from_millis(100),
            mode: CodelMode::Mark,
            law_interval: Time::from_millis(100),
            high_cong_after: None,
            signal_on_arrival: false,
        }
    );
    assert_eq!(bottleneck.ba.queue, QueueSpec::DropTail { limit: QueueLimit::Packets(200) });
    assert_eq!(bottleneck.ba.bandwidth_bps, 20_000_000);

    let to_p2 = &s.links[4];
    assert_eq!((to_p2.ab.bandwidth_bps, to_p2.ba.bandwidth_bps), (500_000_000, 1_000_000_000));

    let p1 = &s.producers[0];
    assert_eq!((p1.payload, p1.freshness), (1024, Some(Time::from_secs(10))));
    assert_eq!(s.producers[1].segments, Some(100_000));

    let c1 = &s.consumers[0];
    assert_eq!((c1.segments, c1.max_retries, c1.lifetime), (Some(20_000), Some(5), Time::from_secs(1)));
    assert_eq!(
        (c1.rto.initial, c1.rto.min, c1.rto.max),
        (Time::from_millis(500), Time::from_millis(100), Time::from_secs(10))
    );
    assert_eq!(c1.rto.alpha, RtoSpec::default().alpha);
    let c2 = &s.consumers[1];
    assert_eq!(c2.cc, CcSpec::ConstantRate { rate: 500.0 });
    assert_eq!((c2.start, c2.stop), (Time::from_secs(5), Some(Time::from_secs(55))));

    assert_eq!(
        s.routes,
        vec![RouteSpec {
            node: node(&s, "r1"),
            prefix: Name::parse("/live").unwrap(),
            nexthop: node(&s, "r2"),
            cost: 10
        }]
    );
    assert_eq!(
        s.events,
        vec![
            LinkEvent {
                at: Time::from_secs(20),
                link: 2,
                direction: LinkDirection::BtoA,
                change: LinkChange::Bandwidth(10_000_000)
            },
            LinkEvent { at: Time::from_secs(40), link: 3, direction: LinkDirection::Both, change: LinkChange::Down },
            LinkEvent { at: Time::from_secs(45), link: 3, direction: LinkDirection::Both, change: LinkChange::Up },
        ]
    );
}

#[test]
fn every_example_parses() {
    let mut n = 0;
    for entry in std::fs::read_dir(examples()).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "toml") {
            load_scenario(&path).unwrap_or_else(|e| panic!("{e}"));
            n += 1;
        }
    }
    assert!(n >= 3);
}

/// One validation error: the text, then the line, the field and message fragments it must show.
struct Case {
    text: String,
    line: Option<usize>,
    field: Option<&'static str>,
    says: &'static [&'static str],
}

fn case(text: String, line: usize, field: &'static str, says: &'static [&'static str]) -> Case {
    Case { text, line: Some(line), field: Some(field), says }
}

fn check(c: &Case) {
    let e = parse(&c.text).expect_err("should be rejected");
    let shown = e.to_string();
    assert_eq!(e.source_name, "quickstart.toml", "{shown}");
    assert_eq!(e.line, c.line, "{shown}");
    assert_eq!(e.field.as_deref(), c.field, "{shown}");
    for s in c.says {
        assert!(shown.contains(s), "{shown:?} lacks {s:?}");
    }
    if let (Some(line), Some(field)) = (c.line, c.field) {
        let prefix = format!("quickstart.toml:{line}:");
        assert!(shown.starts_with(&prefix), "{shown}");
        assert!(shown.contains(&format!(": {field}: ")), "{shown}");
    }
}

#[test]
fn unknown_node_message_is_exact() {
    let e = parse(&quickstart_with_line(22, r#"between   = ["r", "q"]"#)).unwrap_err();
    assert_eq!(
        e.to_string(),
        r#"quickstart.toml:22:19: links[2].between: unknown node "q" (known nodes: c1, c2, r, p)"#
    );
    assert_eq!((e.line, e.column), (Some(22), Some(19)));
}

#[test]
fn validation_errors_name_line_field_and_reason() {
    let q = quickstart_with_line;
    let cases = [
        // unknown keys and fields, anywhere
        case(
            q(1, "[simulaton]"),
            1,
            "simulaton",
            &["unknown top-level key \"simulaton\"", "did you mean \"simulation\"?"],
        ),
        case(
            q(13, r#"bandwdith = "100Mbps""#),
            13,
            "links[0].bandwdith",
            &["unknown field", "did you mean \"bandwidth\"?"],
        ),
        case(
            q(8, r#"r  = { cs = { policy = "lru", capasity = 10000 } }"#),
            8,
            "nodes.r.cs.capasity",
            &["unknown field", "policy, capacity"],
        ),
        case(
            q(35, r#"cc   = { algorithm = "fixed-window", windw = 40 }"#),
            35,
            "consumers[0].cc.windw",
            &["unknown field", "did you mean \"window\"?"],
        ),
        case(
            q(25, r#"queue     = { discipline = "droptail", pakets = 100 }"#),
            25,
            "links[2].queue.pakets",
            &["unknown field"],
        ),
        case(q(3, "seed = 1\nverbose = true"), 4, "simulation.verbose", &["unknown field \"verbose\""]),
        // units
        case(
            q(23, r#"bandwidth = "10Mbsp""#),
            23,
            "links[2].bandwidth",
            &["invalid bandwidth \"10Mbsp\"", "unknown unit \"Mbsp\"", "Mbps"],
        ),
        case(q(23, r#"bandwidth = "0Mbps""#), 23, "links[2].bandwidth", &["bandwidth must be positive"]),
        case(q(23, r#"bandwidth = "-10Mbps""#), 23, "links[2].bandwidth", &["bandwidth must be positive"]),
        case(
            q(23, "bandwidth = 10000000"),
            23,
            "links[2].bandwidth",
            &["expected a bandwidth string such as \"10Mbps\", found integer 10000000"],
        ),
        case(q(24, r#"delay     = "-20ms""#), 24, "links[2].delay", &["must not be negative"]),
        case(q(24, r#"delay     = "20""#), 24, "links[2].delay", &["missing unit", "ms"]),
        case(
            q(24, "delay     = 20"),
            24,
            "links[2].delay",
            &["expected a duration string such as \"5ms\", found integer 20"],
        ),
        case(
            q(2, r#"duration = "30 seconds""#),
            2,
            "simulation.duration",
            &["unknown unit \"seconds\"", "ns, us, ms, s, min, h"],
        ),
        case(q(2, r#"duration = "0s""#), 2, "simulation.duration", &["must be longer than 0"]),
        // nodes and links
        case(
            q(17, r#"between   = ["c2", "x"]"#),
            17,
            "links[1].between",
            &["unknown node \"x\" (known nodes: c1, c2, r, p)"],
        ),
        case(q(22, r#"between   = ["r", "r"]"#), 22, "links[2].between", &["link from \"r\" to itself"]),
        case(
            q(17, r#"between   = ["r", "c1"]"#),
            17,
            "links[1].between",
            &["duplicate link r - c1", "links[0] at line 12"],
        ),
        case(q(17, r#"between   = ["c2"]"#), 17, "links[1].between", &["expected two node names", "found 1 element"]),
        case(q(14, ""), 11, "links[0].delay", &["missing required field \"delay\""]),
        case(q(13, ""), 11, "links[0].bandwidth", &["missing required field \"bandwidth\""]),
        case(q(12, ""), 11, "links[0].between", &["missing required field \"between\""]),
        case(q(9, "\"p/q\" = {}"), 9, "nodes.p/q", &["contains '/'"]),
        case(
            q(8, r#"r  = { cs = { policy = "lfu", capacity = 10 } }"#),
            8,
            "nodes.r.cs.policy",
            &["unknown value \"lfu\"", "\"lru\", \"fifo\", \"off\""],
        ),
        case(
            q(8, r#"r  = { cs = { policy = "lru" } }"#),
            8,
            "nodes.r.cs.capacity",
            &["missing required field \"capacity\""],
        ),
        case(q(8, r#"r  = { strategy = "ncc" }"#), 8, "nodes.r.strategy", &["\"best-route\", \"multicast\""]),
        case(
            q(8, r#"r  = { strategies = { "video" = "multicast" } }"#),
            8,
            "nodes.r.strategies.\"video\"",
            &["must start with '/'"],
        ),
        case(q(8, "r  = 5"), 8, "nodes.r", &["expected a table", "found integer 5"]),
        // queues and loss
        case(
            q(25, r#"queue     = { discipline = "droptail", packets = 0 }"#),
            25,
            "links[2].queue.packets",
            &["must be at least 1"],
        ),
        case(
            q(25, r#"queue     = { discipline = "droptail", packets = 10, bytes = "15KB" }"#),
            25,
            "links[2].queue.bytes",
            &["either packets or bytes"],
        ),
        case(
            q(25, r#"queue     = { discipline = "droptail", target = "5ms" }"#),
            25,
            "links[2].queue.target",
            &["only applies to discipline = \"codel\""],
        ),
        case(
            q(25, r#"queue     = { discipline = "red" }"#),
            25,
            "links[2].queue.discipline",
            &["\"droptail\", \"codel\""],
        ),
        case(q(25, r#"queue     = { discipline = "codel", bytes = "10Kb" }"#), 25, "links[2].queue.bytes", &["bits"]),
        case(
            q(25, r#"loss      = { model = "bernoulli", p = 1.5 }"#),
            25,
            "links[2].loss.p",
            &["probability must be between 0 and 1, found 1.5"],
        ),
        case(q(25, r#"loss      = { model = "bernoulli", p = -0.1 }"#), 25, "links[2].loss.p", &["between 0 and 1"]),
        case(q(25, r#"loss      = { model = "bernoulli", p = nan }"#), 25, "links[2].loss.p", &["finite number"]),
        case(
            q(25, r#"loss      = { model = "gilbert-elliott", p = 0.1, r = 2 }"#),
            25,
            "links[2].loss.r",
            &["between 0 and 1"],
        ),
        case(
            q(25, r#"loss      = { model = "gilbert-elliott", p = 0.1 }"#),
            25,
            "links[2].loss.r",
            &["missing required field \"r\""],
        ),
        case(
            q(25, r#"loss      = { model = "bernoulli", p = 0.1, r = 0.5 }"#),
            25,
            "links[2].loss.r",
            &["does not apply to model = \"bernoulli\""],
        ),
        case(
            q(25, r#"forward   = { bandwidth = "1Mbps", metric = 3 }"#),
            25,
            "links[2].forward.metric",
            &["unknown field \"metric\""],
        ),
        case(q(25, r#"metric    = 0"#), 25, "links[2].metric", &["must be at least 1"]),
        // producers and consumers
        case(q(29, r#"prefix  = "video""#), 29, "producers[0].prefix", &["must start with '/'"]),
        case(q(30, "payload = -5"), 30, "producers[0].payload", &["must not be negative"]),
        case(q(30, "payload = 1.5"), 30, "producers[0].payload", &["expected a number of bytes"]),
        case(q(28, r#"node    = "r2""#), 28, "producers[0].node", &["unknown node \"r2\"", "did you mean \"r\"?"]),
        case(
            q(39, r#"name  = "/audio/b""#),
            39,
            "consumers[1].name",
            &["no producer serves /audio/b (producer prefixes: /video)"],
        ),
        case(q(39, r#"name  = "/vide/b""#), 39, "consumers[1].name", &["no producer serves /vide/b"]),
        case(
            q(35, r#"cc   = { algorithm = "fixed-window", window = 0 }"#),
            35,
            "consumers[0].cc.window",
            &["window must be at least 1"],
        ),
        case(
            q(35, r#"cc   = { algorithm = "fixed-window" }"#),
            35,
            "consumers[0].cc.window",
            &["missing required field \"window\""],
        ),
        case(
            q(35, r#"cc   = { algorithm = "constant-rate", rate = 0 }"#),
            35,
            "consumers[0].cc.rate",
            &["rate must be positive"],
        ),
        case(
            q(35, r#"cc   = { algorithm = "constant-rate", rate = -3.5 }"#),
            35,
            "consumers[0].cc.rate",
            &["rate must be positive"],
        ),
        case(
            q(35, r#"cc   = { algorithm = "constant-rate", window = 3 }"#),
            35,
            "consumers[0].cc.window",
            &["does not apply to algorithm = \"constant-rate\""],
        ),
        case(
            q(35, r#"cc   = { algorithm = "reno", window = 3 }"#),
            35,
            "consumers[0].cc.algorithm",
            &["\"fixed-window\", \"constant-rate\""],
        ),
        case(q(35, ""), 32, "consumers[0].cc", &["missing required field \"cc\""]),
        case(
            q(
                40,
                r#"start = "10s"
stop  = "5s""#,
            ),
            41,
            "consumers[1].stop",
            &["stop (5s) must be after start (10s)"],
        ),
        case(q(40, r#"lifetime = "0s""#), 40, "consumers[1].lifetime", &["must be longer than 0"]),
        case(q(40, r#"rto = { min = "2s", max = "1s" }"#), 40, "consumers[1].rto.min", &["must not exceed max"]),
        case(q(40, r#"rto = { timer = "ns3" }"#), 40, "consumers[1].rto.timer", &["\"per-segment\", \"ndnsim\""]),
        case(q(40, r#"rto = { check = "50ms" }"#), 40, "consumers[1].rto.check", &["only with timer = \"ndnsim\""]),
        case(
            q(40, r#"rto = { timer = "ndnsim", max_multiplier = 0 }"#),
            40,
            "consumers[1].rto.max_multiplier",
            &["at least 1"],
        ),
        case(q(40, "max_retries = -1"), 40, "consumers[1].max_retries", &["must not be negative"]),
        case(q(40, r#"in_flight = "ndnsim""#), 40, "consumers[1].in_flight", &["\"outstanding\", \"consumer-cc\""]),
        case(q(40, "segments = 0"), 40, "consumers[1].segments", &["must be at least 1"]),
        // TOML syntax
        case(q(13, r#"bandwidth = "100Mbps"#), 13, "", &["quickstart.toml:13:", "TOML syntax error"]).no_field(),
        case(
            q(
                13,
                r#"bandwidth = "100Mbps"
bandwidth = "1Mbps""#,
            ),
            14,
            "",
            &["TOML syntax error", "duplicate key"],
        )
        .no_field(),
    ];
    for c in &cases {
        check(c);
    }
}

impl Case {
    fn no_field(mut self) -> Case {
        self.field = None;
        self
    }
}

const SMALL: &str = r#"
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

fn small_with(extra: &str) -> Result<Scenario, ScenarioError> {
    parse(&format!("{SMALL}{extra}"))
}

#[test]
fn routes_and_events_are_checked() {
    // SMALL has 22 lines (it starts with an empty line); the extra text starts at line 23.
    let e = small_with("\n[[routes]]\nnode = \"a\"\nprefix = \"/p\"\nnexthop = \"c\"\n").unwrap_err();
    assert_eq!((e.line, e.field.as_deref()), (Some(27), Some("routes[0].nexthop")), "{e}");
    assert!(e.message.contains("\"c\" is not a neighbour of \"a\": no link joins them (neighbours of a: b)"), "{e}");
    let e = small_with("\n[[routes]]\nnode = \"a\"\nprefix = \"/p\"\nnexthop = \"a\"\n").unwrap_err();
    assert!(e.message.contains("not the node itself"), "{e}");

    let s = small_with("\n[[routes]]\nnode = \"a\"\nprefix = \"/p\"\nnexthop = \"b\"\n").unwrap();
    assert_eq!(s.routes[0].cost, 1);

    let e = small_with("\n[[events]]\nat = \"1s\"\nlink = [\"a\", \"c\"]\ndown = true\n").unwrap_err();
    assert_eq!((e.line, e.field.as_deref()), (Some(26), Some("events[0].link")), "{e}");
    assert!(e.message.contains("no link between \"a\" and \"c\" (links of a: to b)"), "{e}");

    let e = small_with("\n[[events]]\nat = \"1s\"\nlink = [\"a\", \"b\"]\ndown = true\nbandwidth = \"1Mbps\"\n")
        .unwrap_err();
    assert_eq!(e.field.as_deref(), Some("events[0].down"), "{e}");
    assert!(e.message.contains("give only one of bandwidth, down"), "{e}");

    let e = small_with("\n[[events]]\nat = \"1s\"\nlink = [\"a\", \"b\"]\n").unwrap_err();
    assert_eq!((e.line, e.field.as_deref()), (Some(24), Some("events[0]")), "{e}");
    assert!(e.message.contains("missing the change"), "{e}");

    let e = small_with("\n[[events]]\nat = \"1s\"\nlink = [\"a\", \"b\"]\ndown = false\n").unwrap_err();
    assert!(e.message.contains("write up = true instead"), "{e}");

    let e =
        small_with("\n[[events]]\nat = \"1s\"\nlink = [\"a\", \"b\"]\ndirection = \"up\"\nup = true\n").unwrap_err();
    assert_eq!(e.field.as_deref(), Some("events[0].direction"), "{e}");

    // Events after the end are fine; "forward" follows the link's `between` order, not the event's.
    let s = small_with(
        "\n[[events]]\nat = \"99s\"\nlink = [\"b\", \"a\"]\ndirection = \"forward\"\nbandwidth = \"1Mbps\"\n",
    )
    .unwrap();
    assert_eq!(
        s.events[0],
        LinkEvent {
            at: Time::from_secs(99),
            link: 0,
            direction: LinkDirection::AtoB,
            change: LinkChange::Bandwidth(1_000_000)
        }
    );
}

#[test]
fn payload_forms_and_zero() {
    let s = small_with("payload = 0\n").unwrap();
    assert_eq!(s.producers[0].payload, 0);
    let s = small_with("payload = \"1.5KB\"\n").unwrap();
    assert_eq!(s.producers[0].payload, 1500);
    assert_eq!(small_with("").unwrap().producers[0].payload, 1024);
}

#[test]
fn structural_errors() {
    let e = parse("").unwrap_err();
    assert_eq!(
        e.to_string(),
        "quickstart.toml: simulation: missing required table [simulation] (it needs at least duration = \"30s\")"
    );
    let e = parse("[simulation]\nseed = 3\n").unwrap_err();
    assert_eq!(e.to_string(), "quickstart.toml:1:1: simulation.duration: missing required field \"duration\" (how long to simulate, e.g. duration = \"30s\")");
    let e = parse("[simulation]\nduration = \"1s\"\n[links]\nbetween = [\"a\", \"b\"]\n").unwrap_err();
    assert_eq!((e.line, e.field.as_deref()), (Some(3), Some("links")), "{e}");
    assert!(e.message.contains("write [[links]] (double brackets)"), "{e}");
    let e = parse("[simulation]\nduration = \"1s\"\nseed = -1\n").unwrap_err();
    assert_eq!((e.line, e.field.as_deref()), (Some(3), Some("simulation.seed")), "{e}");
    let e = parse("[simulation]\nduration = \"1s\"\n[[links]]\nbetween = [\"a\", \"b\"]\n").unwrap_err();
    assert!(e.message.contains("no nodes are defined"), "{e}");
    let e = parse("[simulation]\nduration = \"1s\"\n[nodes]\na = {}\n[[consumers]]\nnode = \"a\"\nname = \"/x\"\ncc = { algorithm = \"fixed-window\", window = 1 }\n").unwrap_err();
    assert!(e.message.contains("no producer serves /x: there are no [[producers]]"), "{e}");
    let e = parse("[simulation]\nduration = \"1s\"\nrouting = \"ospf\"\n").unwrap_err();
    assert_eq!(e.field.as_deref(), Some("simulation.routing"), "{e}");
    assert!(e.message.contains("\"hop-count\", \"delay\", \"none\""), "{e}");
}

#[test]
fn per_direction_overrides_may_supply_required_fields() {
    let text = SMALL.replace(
        "between   = [\"a\", \"b\"]\nbandwidth = \"10Mbps\"\n",
        "between   = [\"a\", \"b\"]\nforward = { bandwidth = \"1Mbps\" }\nreverse = { bandwidth = \"2Mbps\", loss = { model = \"bernoulli\", p = 0.5 } }\n",
    );
    let s = parse(&text).unwrap();
    assert_eq!((s.links[0].ab.bandwidth_bps, s.links[0].ba.bandwidth_bps), (1_000_000, 2_000_000));
    assert_eq!((s.links[0].ab.loss, s.links[0].ba.loss), (LossSpec::None, LossSpec::Bernoulli { p: 0.5 }));

    let text = SMALL.replace(
        "between   = [\"a\", \"b\"]\nbandwidth = \"10Mbps\"\n",
        "between   = [\"a\", \"b\"]\nforward = { bandwidth = \"1Mbps\" }\n",
    );
    let e = parse(&text).unwrap_err();
    assert_eq!(e.field.as_deref(), Some("links[0].bandwidth"), "{e}");
    assert!(e.message.contains("or in both forward and reverse"), "{e}");
}

#[test]
fn codel_defaults() {
    let text = quickstart_with_line(25, r#"queue     = { discipline = "codel" }"#);
    let s = parse(&text).unwrap();
    assert_eq!(
        s.links[2].ab.queue,
        QueueSpec::Codel {
            limit: QueueLimit::Packets(1500),
            target: Time::from_millis(5),
            interval: Time::from_millis(100),
            mode: CodelMode::Drop,
            law_interval: Time::from_millis(100),
            high_cong_after: None,
            signal_on_arrival: false,
        }
    );
    let s = parse(&quickstart_with_line(25, r#"queue     = { packets = 7 }"#)).unwrap();
    assert_eq!(s.links[2].ba.queue, QueueSpec::DropTail { limit: QueueLimit::Packets(7) });
}

#[test]
fn pcon_queue_marks_with_a_marking_interval_of_1_1_codel_intervals() {
    let text = quickstart_with_line(25, r#"queue     = { discipline = "pcon", interval = "200ms" }"#);
    let s = parse(&text).unwrap();
    assert_eq!(
        s.links[2].ab.queue,
        QueueSpec::Codel {
            limit: QueueLimit::Packets(1500),
            target: Time::from_millis(5),
            interval: Time::from_millis(200),
            mode: CodelMode::Mark,
            law_interval: Time::from_millis(220),
            high_cong_after: Some(Time::from_secs(2)),
            signal_on_arrival: false,
        }
    );
    let text = quickstart_with_line(25, r#"queue     = { discipline = "pcon", mode = "drop" }"#);
    let e = parse(&text).unwrap_err();
    assert_eq!(e.field.as_deref(), Some("links[2].queue.mode"), "{e}");
    assert!(e.message.contains("always marks"), "{e}");
}

#[test]
fn queue_signal_placement_is_departure_unless_arrival_is_asked_for_on_a_marking_queue() {
    let text = quickstart_with_line(25, r#"queue     = { discipline = "pcon", signal = "arrival" }"#);
    match parse(&text).unwrap().links[2].ab.queue {
        QueueSpec::Codel { signal_on_arrival, mode, .. } => assert!(signal_on_arrival && mode == CodelMode::Mark),
        q => panic!("{q:?}"),
    }
    for (line, needle) in [
        (r#"queue     = { discipline = "codel", signal = "arrival" }"#, "marking queue"),
        (r#"queue     = { discipline = "droptail", signal = "arrival" }"#, "only applies to discipline"),
        (r#"queue     = { discipline = "pcon", signal = "later" }"#, "departure"),
    ] {
        let e = parse(&quickstart_with_line(25, line)).unwrap_err();
        assert_eq!(e.field.as_deref(), Some("links[2].queue.signal"), "{e}");
        assert!(e.message.contains(needle), "{line}: {e}");
    }
}

#[test]
fn pcon_strategy_by_name_or_with_parameters() {
    let text = quickstart_with_line(8, r#"r  = { strategy = "pcon", interest_marks = "ignore" }"#);
    let s = parse(&text).unwrap();
    assert_eq!(s.nodes[2].strategy, StrategyKind::Pcon(PconConfig::default()));
    assert_eq!(s.nodes[2].interest_marks, InterestMarks::Ignore);
    let text =
        quickstart_with_line(8, r#"r  = { strategy = { name = "pcon", change_perc = 0.01, lower_threshold = 0.05 } }"#);
    let s = parse(&text).unwrap();
    let want = PconConfig { change_perc: 0.01, lower_threshold: 0.05, ..PconConfig::default() };
    assert_eq!(s.nodes[2].strategy, StrategyKind::Pcon(want));
    for (line, field) in [
        (r#"r  = { strategy = { name = "pcon", change_perc = 1.5 } }"#, "nodes.r.strategy.change_perc"),
        (r#"r  = { strategy = { name = "pi" } }"#, "nodes.r.strategy.name"),
        (r#"r  = { strategy = { change_perc = 0.1 } }"#, "nodes.r.strategy.name"),
        (r#"r  = { interest_marks = "drop" }"#, "nodes.r.interest_marks"),
    ] {
        let e = parse(&quickstart_with_line(8, line)).unwrap_err();
        assert_eq!(e.field.as_deref(), Some(field), "{line}: {e}");
    }
}

#[test]
fn route_labels_are_off_unless_a_node_asks() {
    let s = parse(&quickstart_with_line(8, r#"r  = { route_labels = true }"#)).unwrap();
    assert!(s.nodes[2].route_labels);
    assert!(!s.nodes[0].route_labels && !s.nodes[1].route_labels);
    let e = parse(&quickstart_with_line(8, r#"r  = { route_labels = "yes" }"#)).unwrap_err();
    assert_eq!(e.field.as_deref(), Some("nodes.r.route_labels"), "{e}");
}

#[test]
fn the_straggler_time_is_zero_unless_a_node_sets_one() {
    let s = parse(&quickstart_with_line(8, r#"r  = { straggler = "100ms" }"#)).unwrap();
    assert_eq!(s.nodes[2].straggler, Time::from_millis(100));
    assert_eq!((s.nodes[0].straggler, s.nodes[1].straggler), (Time::ZERO, Time::ZERO));
    let e = parse(&quickstart_with_line(8, r#"r  = { straggler = 100 }"#)).unwrap_err();
    assert_eq!(e.field.as_deref(), Some("nodes.r.straggler"), "{e}");
}

// ------------------------------------------------------------------------------ ndnSIM import

#[test]
fn ndnsim_grid_example_imports() {
    let s = load_scenario(&examples().join("grid.toml")).unwrap();
    assert_eq!(s.nodes.len(), 9);
    assert_eq!(s.links.len(), 12);
    assert_eq!(s.nodes[0].name, "Node0");
    assert_eq!(s.nodes[node(&s, "Node4")].cs, CsSpec { policy: CsPolicy::Lru, capacity: 1000 });
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
    assert_eq!(s.consumers[0].cc, CcSpec::ConstantRate { rate: 100.0 });
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
    assert_eq!(s.nodes[1].strategy, StrategyKind::Multicast);
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
fn a_payload_above_64_kib_is_refused_with_its_line() {
    let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../examples/quickstart.toml"))
        .unwrap()
        .replace("payload = 1024", "payload = \"2MB\"");
    let err = ndnflow_sim::scenario::toml::parse_scenario(&text, "q.toml", None).unwrap_err().to_string();
    assert!(err.contains("producers[0].payload") && err.contains("65536-byte maximum"), "{err}");
    assert!(err.starts_with("q.toml:30:11:"), "{err}");
}

#[test]
fn payload_changes_must_increase_in_time() {
    let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../examples/quickstart.toml"))
        .unwrap()
        .replace(
            "payload = 1024",
            "payload = 1024\npayload_changes = [{ at = \"5s\", payload = 5000 }, { at = \"5s\", payload = 100 }]",
        );
    let err = ndnflow_sim::scenario::toml::parse_scenario(&text, "q.toml", None).unwrap_err().to_string();
    assert!(err.contains("producers[0].payload_changes[1].at") && err.contains("increasing time order"), "{err}");
    let ok = text.replace("{ at = \"5s\", payload = 100 }", "{ at = \"15s\", payload = 100 }");
    let s = ndnflow_sim::scenario::toml::parse_scenario(&ok, "q.toml", None).unwrap();
    assert_eq!(
        s.producers[0].payload_changes,
        vec![(ndnflow_core::Time::from_secs(5), 5000), (ndnflow_core::Time::from_secs(15), 100)]
    );
}

#[test]
fn overlay_links_have_underlay_hops_and_loss_detection() {
    let text = quickstart_with_line(
        25,
        r#"underlay = [{ bandwidth = "10Mbps", delay = "5ms", queue = { discipline = "droptail", bytes = "250KB" } }, { bandwidth = "1Gbps", delay = "0s" }]
loss_detection = "overlay""#,
    );
    let s = parse(&text).unwrap();
    let l = &s.links[2];
    let hop = UnderlayHop {
        bandwidth_bps: 10_000_000,
        delay: Time::from_millis(5),
        queue: QueueSpec::DropTail { limit: QueueLimit::Bytes(250_000) },
    };
    let fast = UnderlayHop { bandwidth_bps: 1_000_000_000, delay: Time::ZERO, queue: QueueSpec::default() };
    assert_eq!(l.ab.underlay, vec![hop, fast]);
    assert_eq!((l.ab.loss_detection, l.ba.loss_detection), (LossDetection::Overlay, LossDetection::Overlay));
    // Routing by delay counts the underlay: 20 ms + 5 ms.
    assert_eq!(l.ab.total_delay(), Time::from_millis(25));
    for (line, field) in [
        (r#"loss_detection = "wifi""#, "links[2].loss_detection"),
        (r#"underlay = [{ delay = "5ms" }]"#, "links[2].underlay[0].bandwidth"),
        (r#"underlay = { bandwidth = "1Mbps", delay = "5ms" }"#, "links[2].underlay"),
        (
            r#"underlay = [{ bandwidth = "1Mbps", delay = "5ms", loss = { model = "none" } }]"#,
            "links[2].underlay[0].loss",
        ),
    ] {
        let e = parse(&quickstart_with_line(25, line)).unwrap_err();
        assert_eq!(e.field.as_deref(), Some(field), "{line}: {e}");
    }
}

#[test]
fn interest_shapers_are_set_per_direction_with_wang_et_al_defaults() {
    let defaults = ShaperSpec {
        capacity_bps: None,
        headroom: 0.98,
        limit: 100,
        target: Time::from_millis(5),
        interval: Time::from_millis(100),
    };
    assert_eq!(ShaperSpec::default(), defaults);
    // No shaper unless asked for.
    let s = parse(&quickstart_text()).unwrap();
    assert!(s.links.iter().all(|l| l.ab.shaper.is_none() && l.ba.shaper.is_none()));

    // On the link: both directions, capacity given or left to the reverse direction's bandwidth.
    let s = parse(&quickstart_with_line(25, r#"shaper = { capacity = "10Mbps" }"#)).unwrap();
    let ideal = ShaperSpec { capacity_bps: Some(10_000_000), ..defaults };
    assert_eq!((s.links[2].ab.shaper, s.links[2].ba.shaper), (Some(ideal), Some(ideal)));
    assert_eq!(s.links[1].ab.shaper, None);
    for line in ["shaper = {}", "shaper = true"] {
        let s = parse(&quickstart_with_line(25, line)).unwrap();
        assert_eq!((s.links[2].ab.shaper, s.links[2].ba.shaper), (Some(defaults), Some(defaults)), "{line}");
    }

    // In forward / reverse, every field; `false` exempts a direction from the link's shaper.
    let s = parse(&quickstart_with_line(
        25,
        r#"forward = { shaper = { capacity = "5Mbps", headroom = 0.9, limit = 50, target = "20ms", interval = "200ms" } }"#,
    ))
    .unwrap();
    let custom = ShaperSpec {
        capacity_bps: Some(5_000_000),
        headroom: 0.9,
        limit: 50,
        target: Time::from_millis(20),
        interval: Time::from_millis(200),
    };
    assert_eq!((s.links[2].ab.shaper, s.links[2].ba.shaper), (Some(custom), None));
    let s = parse(&quickstart_with_line(25, "shaper = { headroom = 1 }\nreverse = { shaper = false }")).unwrap();
    assert_eq!((s.links[2].ab.shaper, s.links[2].ba.shaper), (Some(ShaperSpec { headroom: 1.0, ..defaults }), None));
    let s = parse(&quickstart_with_line(25, "shaper = false\nforward = { shaper = true }")).unwrap();
    assert_eq!((s.links[2].ab.shaper, s.links[2].ba.shaper), (Some(defaults), None));
}

#[test]
fn bad_shaper_values_are_refused_with_their_field() {
    for (line, field, message) in [
        ("shaper = { headroom = 0 }", "links[2].shaper.headroom", "must be greater than 0 and at most 1"),
        ("shaper = { headroom = 1.5 }", "links[2].shaper.headroom", "found 1.5"),
        ("shaper = { headroom = \"98%\" }", "links[2].shaper.headroom", "expected a number"),
        ("shaper = { limit = 0 }", "links[2].shaper.limit", "must be at least 1"),
        ("shaper = { limit = 2.5 }", "links[2].shaper.limit", "expected a non-negative integer"),
        ("shaper = { capacity = \"10MBps\" }", "links[2].shaper.capacity", "bandwidth"),
        ("shaper = { capacity = 10000000 }", "links[2].shaper.capacity", "a bandwidth string"),
        ("shaper = { target = \"0s\" }", "links[2].shaper.target", "must be longer than 0"),
        ("shaper = { interval = \"5\" }", "links[2].shaper.interval", "unit"),
        ("shaper = { capcity = \"10Mbps\" }", "links[2].shaper.capcity", "did you mean \"capacity\"?"),
        ("shaper = 10", "links[2].shaper", "expected a table such as { capacity = \"10Mbps\" }, or true"),
        ("forward = { shaper = \"on\" }", "links[2].forward.shaper", "or false (none)"),
    ] {
        let e = parse(&quickstart_with_line(25, line)).unwrap_err();
        assert_eq!(e.field.as_deref(), Some(field), "{line}: {e}");
        assert!(e.message.contains(message), "{line}: {e}");
        assert_eq!(e.line, Some(25), "{line}: {e}");
    }
    // An unknown field of a link names `shaper` among the accepted ones.
    let e = parse(&quickstart_with_line(25, r#"shapper = {}"#)).unwrap_err();
    assert!(e.message.contains("did you mean \"shaper\"?"), "{e}");
}

#[test]
fn every_example_scenario_loads() {
    let mut n = 0;
    for entry in std::fs::read_dir(examples()).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "toml") {
            load_scenario(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            n += 1;
        }
    }
    // quickstart, dumbbell, grid, pcon
    assert!(n >= 4, "only {n} examples found");
}

#[test]
fn rto_timer_is_per_segment_unless_ndnsim_is_asked_for() {
    use ndnflow_core::app::TimerModel;
    let rto = |line: &str| parse(&quickstart_with_line(40, line)).unwrap().consumers[1].rto;
    assert_eq!(rto(r#"rto = { min = "10ms" }"#).timer, TimerModel::PerSegment);
    // The PCON authors' fork: checks every 10 ms, multiplier at most 8.
    let r = rto(r#"rto = { min = "10ms", timer = "ndnsim" }"#);
    assert_eq!((r.min, r.timer), (Time::from_millis(10), TimerModel::NDNSIM_PCON));
    assert_eq!(
        rto(r#"rto = { timer = "ndnsim", check = "50ms", max_multiplier = 64 }"#).timer,
        TimerModel::NdnSim { check: Time::from_millis(50), max_multiplier: 64 }
    );
}

#[test]
fn in_flight_counts_outstanding_segments_unless_consumer_cc_is_asked_for() {
    use ndnflow_core::app::InFlightRule;
    let rule = |line: &str| parse(&quickstart_with_line(40, line)).unwrap().consumers[1].in_flight;
    assert_eq!(rule(""), InFlightRule::Outstanding);
    assert_eq!(rule(r#"in_flight = "outstanding""#), InFlightRule::Outstanding);
    assert_eq!(rule(r#"in_flight = "consumer-cc""#), InFlightRule::ConsumerCc);
}
