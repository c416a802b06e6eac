//! The TOML scenario reader: the example files parse to the expected model, and each field takes
//! its documented default. Validation errors are in `scenario_errors.rs`, the ndnSIM importer in
//! `ndnsim_import.rs`.

use crate::common;

use ndnflow_core::link::ShaperDrop;
use ndnflow_core::{Name, Time};
use ndnflow_sim::scenario::model::*;
use ndnflow_sim::scenario::toml::load_scenario;

use common::{examples, node, parse, quickstart_text, quickstart_with_line, SMALL};

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
    assert_eq!((r.forwarder.cs_policy, r.forwarder.cs_capacity), (CsPolicy::Lru, 10_000));
    assert_eq!(r.forwarder.default_strategy, StrategyKind::BestRoute);
    assert_eq!(s.nodes[0].forwarder, ForwarderConfig::default());

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
    assert_eq!(c2.cc, CcConfig::FixedWindow { window: 40 });
    assert_eq!(c2.lifetime, Time::from_secs(2));
    assert_eq!(c2.rto, RttOptions::default());
    assert_eq!((c2.segments, c2.max_retries), (None, None));
    assert!(s.routes.is_empty() && s.events.is_empty());
}

#[test]
fn cs_bytes_sets_a_byte_limit_beside_or_instead_of_the_packet_count() {
    let r = |cs: &str| {
        let s = parse(&quickstart_with_line(8, &format!("r  = {{ cs = {cs} }}"))).unwrap_or_else(|e| panic!("{e}"));
        let f = s.nodes[2].forwarder.clone();
        (f.cs_policy, f.cs_capacity, f.cs_bytes)
    };
    // SMIC §5's store: 100 MiB = 100 x 2^20 = 104,857,600 bytes; "MB" is 10^6 as in every size.
    assert_eq!(r(r#"{ bytes = "100MiB" }"#), (CsPolicy::Lru, usize::MAX, Some(104_857_600)));
    assert_eq!(r(r#"{ bytes = "100MB" }"#).2, Some(100_000_000));
    assert_eq!(r(r#"{ policy = "fifo", capacity = 50, bytes = 3000 }"#), (CsPolicy::Fifo, 50, Some(3000)));
    assert_eq!(r(r#"{ policy = "lfu", capacity = 50 }"#), (CsPolicy::Lfu, 50, None));
    assert_eq!(r(r#"{ policy = "random", bytes = 3000 }"#), (CsPolicy::Random, usize::MAX, Some(3000)));
    // Without `bytes`, nothing changes: a packet count alone, no byte limit.
    assert_eq!(r(r#"{ capacity = 10000 }"#), (CsPolicy::Lru, 10_000, None));
    assert_eq!(r(r#"{ policy = "off" }"#), (CsPolicy::Lru, 0, None));
}

#[test]
fn dumbbell_example_uses_every_feature() {
    let s = load_scenario(&examples().join("dumbbell.toml")).unwrap();
    assert_eq!((s.seed, s.bin, s.routing), (42, Time::from_millis(50), RoutingMetric::Delay));
    let r1 = &s.nodes[node(&s, "r1")];
    assert_eq!((r1.forwarder.cs_policy, r1.forwarder.cs_capacity), (CsPolicy::Fifo, 5000));
    assert_eq!(r1.forwarder.cs_admit, 1.0, "a store admits every Data unless told otherwise");
    assert_eq!(r1.forwarder.strategy_choices, vec![(Name::parse("/live").unwrap(), StrategyKind::Multicast)]);

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
        (c1.rto.initial_rto, c1.rto.min_rto, c1.rto.max_rto),
        (Time::from_millis(500), Time::from_millis(100), Time::from_secs(10))
    );
    assert_eq!(c1.rto.alpha, RttOptions::default().alpha);
    let c2 = &s.consumers[1];
    assert_eq!(c2.cc, CcConfig::ConstantRate { rate: 500.0, randomize: ndnflow_core::app::cc::Randomize::None });
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
    assert_eq!(s.nodes[2].forwarder.default_strategy, StrategyKind::Pcon(PconConfig::default()));
    assert_eq!(s.nodes[2].forwarder.interest_marks, InterestMarks::Ignore);
    let text =
        quickstart_with_line(8, r#"r  = { strategy = { name = "pcon", change_perc = 0.01, lower_threshold = 0.05 } }"#);
    let s = parse(&text).unwrap();
    let want = PconConfig { change_perc: 0.01, lower_threshold: 0.05, ..PconConfig::default() };
    assert_eq!(s.nodes[2].forwarder.default_strategy, StrategyKind::Pcon(want));
    for (line, field) in [
        (r#"r  = { strategy = { name = "pcon", change_perc = 1.5 } }"#, "nodes.r.strategy.change_perc"),
        (r#"r  = { strategy = { name = "pi", change_perc = 0.1 } }"#, "nodes.r.strategy.change_perc"),
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
    assert!(s.nodes[2].forwarder.route_labels);
    assert!(!s.nodes[0].forwarder.route_labels && !s.nodes[1].forwarder.route_labels);
    let e = parse(&quickstart_with_line(8, r#"r  = { route_labels = "yes" }"#)).unwrap_err();
    assert_eq!(e.field.as_deref(), Some("nodes.r.route_labels"), "{e}");
}

#[test]
fn dpccp_is_off_unless_a_node_asks_and_its_label_lasts_200_ms_by_default() {
    use ndnflow_core::fw::ext::DpccpConfig;
    let s = parse(&quickstart_with_line(8, r#"r  = { dpccp = true, ptp = true }"#)).unwrap();
    assert_eq!(s.nodes[2].forwarder.dpccp, Some(DpccpConfig { label_lifetime: Time::from_millis(200) }));
    assert!(s.nodes[2].forwarder.ptp, "both extensions on one node");
    assert_eq!(s.nodes[0].forwarder.dpccp, None);
    let s = parse(&quickstart_with_line(8, r#"r  = { dpccp = { label_lifetime = "1s" } }"#)).unwrap();
    assert_eq!(s.nodes[2].forwarder.dpccp, Some(DpccpConfig { label_lifetime: Time::from_secs(1) }));
    let s = parse(&quickstart_with_line(8, r#"r  = { dpccp = false }"#)).unwrap();
    assert_eq!(s.nodes[2].forwarder.dpccp, None);
}

#[test]
fn a_simulated_cache_takes_a_fixed_hit_probability_or_a_schedule() {
    use ndnflow_core::table::SimulatedCacheConfig;
    let line = r#"r  = { simulated_cache = { prefix = "/data", hit = 0.4 } }"#;
    let s = parse(&quickstart_with_line(8, line)).unwrap();
    let fixed = SimulatedCacheConfig {
        prefix: Name::parse("/data").unwrap(),
        payload: 1024,
        schedule: vec![(Time::ZERO, 0.4)],
    };
    assert_eq!(s.nodes[2].forwarder.simulated_cache, Some(fixed), "1024-byte payload by default (§VII-A)");
    let line = r#"r  = { simulated_cache = { prefix = "/data", payload = 100, schedule = [{ at = "0s", hit = 0 }, { at = "50s", hit = 0.95 }, { at = "150s", hit = 0 }] } }"#;
    let s = parse(&quickstart_with_line(8, line)).unwrap();
    let cache = s.nodes[2].forwarder.simulated_cache.clone().unwrap();
    assert_eq!(cache.payload, 100);
    assert_eq!(cache.schedule, vec![(Time::ZERO, 0.0), (Time::from_secs(50), 0.95), (Time::from_secs(150), 0.0)]);
    assert_eq!(s.nodes[0].forwarder.simulated_cache, None);
}

#[test]
fn the_straggler_time_is_zero_unless_a_node_sets_one() {
    let s = parse(&quickstart_with_line(8, r#"r  = { straggler = "100ms" }"#)).unwrap();
    assert_eq!(s.nodes[2].forwarder.straggler, Time::from_millis(100));
    assert_eq!((s.nodes[0].forwarder.straggler, s.nodes[1].forwarder.straggler), (Time::ZERO, Time::ZERO));
    let e = parse(&quickstart_with_line(8, r#"r  = { straggler = 100 }"#)).unwrap_err();
    assert_eq!(e.field.as_deref(), Some("nodes.r.straggler"), "{e}");
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
        flow_components: None,
        drop: None,
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
        r#"forward = { shaper = { capacity = "5Mbps", headroom = 0.9, limit = 50, target = "20ms", interval = "200ms", drop = "tail" } }"#,
    ))
    .unwrap();
    let custom = ShaperSpec {
        capacity_bps: Some(5_000_000),
        headroom: 0.9,
        limit: 50,
        target: Time::from_millis(20),
        interval: Time::from_millis(200),
        flow_components: None,
        drop: Some(ShaperDrop::Tail),
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
        ("shaper = { limit = 2.5 }", "links[2].shaper.limit", "expected an integer >= 1, found float 2.5"),
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
    assert_eq!((r.min_rto, r.timer), (Time::from_millis(10), TimerModel::NDNSIM_PCON));
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

#[test]
fn send_jitter_is_off_unless_given() {
    let jitter = |line: &str| parse(&quickstart_with_line(40, line)).unwrap().consumers[1].send_jitter;
    assert_eq!(jitter(""), Time::ZERO);
    assert_eq!(jitter(r#"send_jitter = "0.866ms""#), Time::from_nanos(866_000));
}
