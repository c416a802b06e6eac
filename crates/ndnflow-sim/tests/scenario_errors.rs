//! Scenario errors: every validation error names the file, line, field and reason.

use crate::common;

use ndnflow_core::Time;
use ndnflow_sim::scenario::model::*;

use common::{parse, quickstart_with_line, small_with};

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
            q(8, r#"r  = { cs = { policy = "arc", capacity = 10 } }"#),
            8,
            "nodes.r.cs.policy",
            &["unknown value \"arc\"", "\"lru\", \"fifo\", \"lfu\", \"random\", \"off\""],
        ),
        case(
            q(8, r#"r  = { cs = { policy = "lru" } }"#),
            8,
            "nodes.r.cs.capacity",
            &["missing required field \"capacity\""],
        ),
        case(
            q(8, r#"r  = { cs = { capacity = 10, admit = 1.5 } }"#),
            8,
            "nodes.r.cs.admit",
            &["probability must be between 0 and 1, found 1.5"],
        ),
        case(q(8, r#"r  = { cs = { capacity = 10, admit = 0 } }"#), 8, "nodes.r.cs.admit", &["must be above 0"]),
        // The byte limit (SMIC §5's "content store of 100 MB")
        case(q(8, r#"r  = { cs = { bytes = -5 } }"#), 8, "nodes.r.cs.bytes", &["must not be negative, found -5"]),
        case(q(8, r#"r  = { cs = { bytes = "-5MB" } }"#), 8, "nodes.r.cs.bytes", &["must not be negative"]),
        case(q(8, r#"r  = { cs = { bytes = 0 } }"#), 8, "nodes.r.cs.bytes", &["must be at least 1 byte"]),
        case(q(8, r#"r  = { cs = { bytes = "0MB" } }"#), 8, "nodes.r.cs.bytes", &["must be at least 1 byte"]),
        case(q(8, r#"r  = { cs = { bytes = "lots" } }"#), 8, "nodes.r.cs.bytes", &["invalid size \"lots\""]),
        case(q(8, r#"r  = { cs = { bytes = "100Mb" } }"#), 8, "nodes.r.cs.bytes", &["lower-case \"b\" means bits"]),
        case(q(8, r#"r  = { cs = { bytes = 1.5 } }"#), 8, "nodes.r.cs.bytes", &["expected a number of bytes"]),
        case(
            q(8, r#"r  = { cs = { policy = "off", bytes = "1MB" } }"#),
            8,
            "nodes.r.cs.bytes",
            &["a byte limit has no effect with policy = \"off\""],
        ),
        case(
            q(8, r#"r  = { cs = { policy = "fifo" } }"#),
            8,
            "nodes.r.cs.capacity",
            &["missing required field \"capacity\"", "or `bytes`"],
        ),
        case(q(8, r#"r  = { strategy = "ncc" }"#), 8, "nodes.r.strategy", &["\"best-route\", \"multicast\""]),
        case(
            q(8, r#"r  = { strategies = { "video" = "multicast" } }"#),
            8,
            "nodes.r.strategies.\"video\"",
            &["must start with '/'"],
        ),
        case(q(8, "r  = 5"), 8, "nodes.r", &["expected a table", "found integer 5"]),
        // DPCCP's router side and simulated caches
        case(q(8, r#"r  = { dpccp = 1 }"#), 8, "nodes.r.dpccp", &["expected true, false or a table"]),
        case(
            q(8, r#"r  = { dpccp = { label_lifetime = "0s" } }"#),
            8,
            "nodes.r.dpccp.label_lifetime",
            &["must be longer than 0"],
        ),
        case(
            q(8, r#"r  = { simulated_cache = { prefix = "/data", hit = 1.5 } }"#),
            8,
            "nodes.r.simulated_cache.hit",
            &["probability must be between 0 and 1, found 1.5"],
        ),
        case(
            q(8, r#"r  = { simulated_cache = { hit = 0.5 } }"#),
            8,
            "nodes.r.simulated_cache.prefix",
            &["missing required field \"prefix\""],
        ),
        case(
            q(8, r#"r  = { simulated_cache = { prefix = "/data" } }"#),
            8,
            "nodes.r.simulated_cache.hit",
            &["missing the hit probability"],
        ),
        case(
            q(8, r#"r  = { simulated_cache = { prefix = "/data", hit = 0.5, schedule = [] } }"#),
            8,
            "nodes.r.simulated_cache.schedule",
            &["either hit", "not both"],
        ),
        case(
            q(8, r#"r  = { simulated_cache = { prefix = "/data", schedule = [] } }"#),
            8,
            "nodes.r.simulated_cache.schedule",
            &["at least one"],
        ),
        case(
            q(
                8,
                r#"r  = { simulated_cache = { prefix = "/data", schedule = [{ at = "50s", hit = 0.9 }, { at = "50s", hit = 0 }] } }"#,
            ),
            8,
            "nodes.r.simulated_cache.schedule[1].at",
            &["increasing order"],
        ),
        case(
            q(8, r#"r  = { simulated_cache = { prefix = "/data", schedule = [{ at = "5s", hit = -0.1 }] } }"#),
            8,
            "nodes.r.simulated_cache.schedule[0].hit",
            &["probability must be between 0 and 1"],
        ),
        case(
            q(8, r#"r  = { simulated_cache = { prefix = "/data", hit = 0.5, size = 3 } }"#),
            8,
            "nodes.r.simulated_cache.size",
            &["unknown field \"size\"", "prefix, payload, hit, schedule"],
        ),
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
            &["must be at least 1, found 0"],
        ),
        case(
            q(35, r#"cc   = { algorithm = "fixed-window", window = "8" }"#),
            35,
            "consumers[0].cc.window",
            // The docs' type: "integer >= 1" (scenario-format.md, consumers' cc table).
            &["expected an integer >= 1, found string \"8\""],
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
            q(35, r#"cc   = { algorithm = "ptp", min_window = 100, initial_window = 4 }"#),
            35,
            "consumers[0].cc.min_window",
            &["min_window (100) must not exceed initial_window (4)"],
        ),
        case(
            q(35, r#"cc   = { algorithm = "mptcp", min_window = 2 }"#),
            35,
            "consumers[0].cc.min_window",
            &["min_window (2) must not exceed initial_window (1)"],
        ),
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
        // max alone under min's default of 200 ms: max is named.
        case(
            q(40, r#"rto = { max = "100ms" }"#),
            40,
            "consumers[1].rto.max",
            &["min (200ms) must not exceed max (100ms)"],
        ),
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
        case(q(40, "send_jitter = 1"), 40, "consumers[1].send_jitter", &["expected a duration string"]),
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
fn a_consumer_no_route_serves_is_warned_about() {
    use ndnflow_sim::Simulation;
    // SMALL: a - b - c, the producer of /p on c. With automatic routes every node reaches it.
    let routed = small_with("[[consumers]]\nnode = \"a\"\nname = \"/p/x\"\ncc = { algorithm = \"aimd\" }\n").unwrap();
    assert_eq!(Simulation::new(routed).warnings(), [] as [String; 0]);
    // Without automatic routes, a static route a -> b that b does not continue leads nowhere;
    // the consumer on c itself (the producer's node) is served.
    let text = common::SMALL.replace("duration = \"10s\"", "duration = \"10s\"\nrouting = \"none\"");
    let stranded = parse(&format!(
        "{text}[[routes]]\nnode = \"a\"\nprefix = \"/p\"\nnexthop = \"b\"\n\
         [[consumers]]\nnode = \"a\"\nname = \"/p/x\"\ncc = {{ algorithm = \"aimd\" }}\n\
         [[consumers]]\nnode = \"c\"\nname = \"/p/y\"\ncc = {{ algorithm = \"aimd\" }}\n"
    ))
    .unwrap();
    assert_eq!(
        Simulation::new(stranded).warnings(),
        ["consumer a (consumers[0]) on a: no route leads from a to a producer of /p/x; its Interests will go \
          unanswered"]
    );
}

#[test]
fn a_ptp_consumer_on_a_node_that_is_not_a_ptp_router_is_warned_about() {
    use ndnflow_sim::Simulation;
    // SMALL's nodes have no `ptp = true`: the PTP consumer is named (a#0, the first of node a's
    // two consumers), the AIMD one beside it not.
    let text = small_with(
        "[[consumers]]\nnode = \"a\"\nname = \"/p/x\"\ncc = { algorithm = \"ptp\" }\n\
         [[consumers]]\nnode = \"a\"\nname = \"/p/y\"\ncc = { algorithm = \"aimd\" }\n",
    )
    .unwrap();
    assert_eq!(
        Simulation::new(text).warnings(),
        ["consumer a#0 (consumers[0]) on a runs ptp, whose paths PTP's routers write, but a has no `ptp = true`: it \
          will find no path and fetch only what its probes bring back"]
    );
}

#[test]
fn a_node_no_link_touches_is_warned_about() {
    use ndnflow_sim::Simulation;
    // SMALL links a - b - c; "bb" and "zz" are declared beside them and linked to nothing. "bb"
    // is one letter from b (a mistyped name, as `--set nodes.bb...` over a [topology] file
    // makes one); "zz" is near no linked name. A scenario of one node warns of nothing: with
    // nothing to link, its applications talk on the node itself.
    let text = common::SMALL.replace("c = {}", "c = {}\nbb = {}\nzz = {}");
    assert_eq!(
        Simulation::new(parse(&text).unwrap()).warnings(),
        [
            "node bb has no link: nothing reaches it and it reaches nothing (a mistyped b?)",
            "node zz has no link: nothing reaches it and it reaches nothing",
        ]
    );
    assert_eq!(Simulation::new(parse(common::SMALL).unwrap()).warnings(), [] as [String; 0]);
    let alone = parse("[simulation]\nduration = \"1s\"\n[nodes]\na = {}\n").unwrap();
    assert_eq!(Simulation::new(alone).warnings(), [] as [String; 0]);
    // 13 nodes and no link: the first 10 named, the other 3 counted.
    let nodes: String = (0..13).map(|i| format!("n{i} = {{}}\n")).collect();
    let unlinked = parse(&format!("[simulation]\nduration = \"1s\"\n[nodes]\n{nodes}")).unwrap();
    let w = Simulation::new(unlinked).warnings().to_vec();
    assert_eq!(w.len(), 11);
    assert_eq!(w[0], "node n0 has no link: nothing reaches it and it reaches nothing");
    assert_eq!(w[10], "3 more nodes have no link");
}
