use super::*;
use ndnflow_core::fw::config::StrategyName;

fn err(text: &str) -> String {
    parse(text, "fwd.toml").unwrap_err().to_string()
}

#[test]
fn an_empty_file_is_nfd_s_defaults() {
    let c = parse("", "fwd.toml").unwrap();
    assert_eq!(c.udp_listen, Some("0.0.0.0:6363".parse().unwrap()));
    assert_eq!(c.tcp_listen, Some("0.0.0.0:6363".parse().unwrap()));
    assert_eq!(c.unix_listen, Some(default_unix_path()));
    assert_eq!((c.forwarder.cs_policy, c.forwarder.cs_capacity), (CsPolicy::Lru, 65536));
    assert_eq!(c.forwarder.default_strategy, StrategyName::BestRoute);
    assert_eq!((c.pit_capacity, c.seed), (65536, 1));
    assert!(c.faces.is_empty() && c.routes.is_empty());
}

#[test]
fn faces_routes_and_the_forwarder_table_are_read() {
    let c = parse(
        r#"
        seed = 7
        pit_capacity = 10
        [listen]
        udp = "127.0.0.1:0"
        unix = false
        [forwarder]
        cs = { capacity = 5 }
        strategy = "multicast"
        strategies = { "/p" = { name = "pcon", change_perc = 0.02 } }
        [[faces]]
        name = "b"
        udp = "127.0.0.2:6363"
        [[faces]]
        name = "producer"
        unix = "/tmp/x.sock"
        [[routes]]
        prefix = "/p"
        nexthop = "b"
        [[routes]]
        prefix = "/q"
        nexthop = "producer"
        cost = 0
        "#,
        "fwd.toml",
    )
    .unwrap();
    assert_eq!((c.seed, c.pit_capacity, c.unix_listen.clone()), (7, 10, None));
    assert_eq!(c.forwarder.cs_capacity, 5);
    assert_eq!(c.forwarder.default_strategy, StrategyName::Multicast);
    assert_eq!(c.forwarder.strategy_choices.len(), 1);
    assert!(matches!(c.forwarder.strategy_choices[0].1, StrategyName::Pcon(p) if p.change_perc == 0.02));
    assert_eq!(c.faces[0].transport, FaceTransport::Udp("127.0.0.2:6363".parse().unwrap()));
    assert_eq!(c.faces[1].transport, FaceTransport::Unix("/tmp/x.sock".into()));
    // A route without a cost takes the scenario's default, 1.
    assert_eq!((c.routes[0].face, c.routes[0].cost), (0, 1));
    assert_eq!((c.routes[1].prefix.to_string(), c.routes[1].face, c.routes[1].cost), ("/q".into(), 1, 0));
}

#[test]
fn errors_name_the_file_the_line_and_the_field() {
    let e = err("[[faces]]\nname = \"b\"\nudp = \"nowhere\"\n");
    assert!(e.starts_with("fwd.toml:3: faces[0].udp: \"nowhere\" is not an IP address"), "{e}");
    let e = err("[[faces]]\nname = \"b\"\nudp = \"127.0.0.1:1\"\n[[routes]]\nprefix = \"/p\"\nnexthop = \"c\"\n");
    assert!(e.starts_with("fwd.toml:6: routes[0].nexthop: unknown face \"c\" (faces in [[faces]]: b)"), "{e}");
    let e = err("[[faces]]\nname = \"b\"\n");
    assert!(e.contains("faces[0]: give exactly one of udp"), "{e}");
    let e = err("[[faces]]\nname = \"b\"\nunix = \"/a\"\n[[faces]]\nname = \"b\"\nunix = \"/c\"\n");
    assert!(e.starts_with("fwd.toml:5: faces[1].name: face \"b\" is named twice"), "{e}");
    let e = err("pit_capacity = 0\n");
    assert_eq!(e, "fwd.toml:1: pit_capacity: must be at least 1 (a forwarder with no PIT forwards nothing)");
}

#[test]
fn unknown_keys_and_bad_forwarder_values_are_refused_by_name() {
    let e = err("[listen]\nudpp = \"127.0.0.1:1\"\n");
    assert!(e.starts_with("fwd.toml:2: listen.udpp: unknown field \"udpp\", expected one of"), "{e}");
    // toml's own reports ran over several lines and named Rust types until 2026-11-28.
    let e = err("[listen]\nudp = 6363\n");
    assert_eq!(e, "fwd.toml:2: listen.udp: expected an address or path, or false for none");
    let e = err("pit_capacity = -1\n");
    assert_eq!(e, "fwd.toml:1: pit_capacity: invalid value: integer \"-1\", expected a whole number of 0 or more");
    let e = err("[[faces]]\nudp = \"127.0.0.1:7000\"\n");
    assert_eq!(e, "fwd.toml:1: faces[0]: missing field \"name\"");
    // The [forwarder] table goes through the scenario reader: its messages, its field paths.
    let e = err("[forwarder]\nstrategy = \"best-rout\"\n");
    assert!(e.starts_with("fwd.toml:2:12: forwarder.strategy: "), "{e}");
    let e = err("[forwarder]\nfoo = 1\n");
    assert!(e.contains("forwarder") && e.contains("unknown field \"foo\""), "{e}");
    let e = err("[listen]\nudp = true\n");
    assert!(e.starts_with("fwd.toml:2: listen.udp: expected an address or path, or false"), "{e}");
    // Accepted until 2026-11-28: the daemon said "listening on ... unix " and listened nowhere.
    let e = err("[listen]\nunix = \"\"\n");
    assert!(e.starts_with("fwd.toml:2: listen.unix: empty; give an address or path, or false for none"), "{e}");
}

#[test]
fn a_udp_face_is_shaped_in_a_scenario_link_s_words() {
    let c = parse(
        r#"
        [[faces]]
        name = "b"
        udp = "127.0.0.2:6363"
        bandwidth = "2Mbps"
        queue = { discipline = "codel", mode = "mark", packets = 30 }
        [[faces]]
        name = "c"
        udp = "127.0.0.3:6363"
        bandwidth = "10Mbps"
        delay = "20ms"
        [[faces]]
        name = "d"
        udp = "127.0.0.4:6363"
        "#,
        "fwd.toml",
    )
    .unwrap();
    let b = c.faces[0].output.as_ref().unwrap();
    assert_eq!(b.bandwidth_bps, 2_000_000);
    assert_eq!(b.queue.limit(), ndnflow_sim::scenario::model::QueueLimit::Packets(30));
    // Without `queue`: a scenario link's default, ns-3's DropTail of 100 packets.
    let c_out = c.faces[1].output.as_ref().unwrap();
    assert_eq!(c_out.queue, ndnflow_sim::scenario::model::QueueSpec::default());
    assert_eq!(c_out.delay, Some(ndnflow_core::Time::from_millis(20)));
    assert_eq!(b.delay, None, "no delay of its own: the network's");
    assert_eq!(c.faces[2].output, None);
}

#[test]
fn shaping_errors_name_the_face_and_key() {
    let unix = err("[[faces]]\nname = \"p\"\nunix = \"/tmp/p.sock\"\nbandwidth = \"1Mbps\"\n");
    assert!(unix.starts_with("fwd.toml:4: faces[0].bandwidth: only UDP faces are shaped"), "{unix}");
    let no_rate = err("[[faces]]\nname = \"b\"\nudp = \"127.0.0.2:6363\"\nqueue = { packets = 5 }\n");
    assert!(no_rate.contains("faces[0].queue: a queue needs the face's bandwidth"), "{no_rate}");
    let bad = err("[[faces]]\nname = \"b\"\nudp = \"127.0.0.2:6363\"\nbandwidth = \"fast\"\n");
    assert!(bad.contains("faces[0].bandwidth"), "{bad}");
    let no_rate = err("[[faces]]\nname = \"b\"\nudp = \"127.0.0.2:6363\"\ndelay = \"5ms\"\n");
    assert!(no_rate.contains("faces[0].delay: a delay needs the face's bandwidth"), "{no_rate}");
    let bad = err("[[faces]]\nname = \"b\"\nudp = \"127.0.0.2:6363\"\nbandwidth = \"1Mbps\"\ndelay = \"soon\"\n");
    assert!(bad.contains("faces[0].delay"), "{bad}");
}

#[test]
fn tcp_listens_on_nfd_s_port_unless_told_and_faces_may_connect_out() {
    let c = parse("[listen]\ntcp = false\n[[faces]]\nname = \"b\"\ntcp = \"127.0.0.2:6363\"\n", "fwd.toml").unwrap();
    assert_eq!(c.tcp_listen, None);
    assert_eq!(c.faces[0].transport, FaceTransport::Tcp("127.0.0.2:6363".parse().unwrap()));
    let two = err("[[faces]]\nname = \"b\"\ntcp = \"127.0.0.2:6363\"\nudp = \"127.0.0.2:6363\"\n");
    assert!(two.contains("give exactly one of udp"), "{two}");
    let shaped = err("[[faces]]\nname = \"b\"\ntcp = \"127.0.0.2:6363\"\nbandwidth = \"1Mbps\"\n");
    assert!(shaped.contains("only UDP faces are shaped"), "{shaped}");
}

#[test]
fn a_udp_face_takes_an_mtu_or_link_reliability() {
    let c = parse("[[faces]]\nname = \"b\"\nudp = \"127.0.0.2:6363\"\nmtu = 1500\n", "fwd.toml").unwrap();
    assert_eq!((c.faces[0].mtu, c.faces[0].reliability), (Some(1500), false));
    let c = parse("[[faces]]\nname = \"b\"\nudp = \"127.0.0.2:6363\"\nreliability = true\n", "fwd.toml").unwrap();
    assert_eq!((c.faces[0].mtu, c.faces[0].reliability), (None, true));
    let unix = err("[[faces]]\nname = \"p\"\nunix = \"/tmp/p.sock\"\nmtu = 1500\n");
    assert!(unix.contains("fwd.toml:4: faces[0].mtu: only UDP faces have an MTU"), "{unix}");
    let tcp = err("[[faces]]\nname = \"b\"\ntcp = \"127.0.0.2:6363\"\nreliability = true\n");
    assert!(tcp.contains("faces[0].reliability: link reliability is for UDP faces"), "{tcp}");
    let small = err("[[faces]]\nname = \"b\"\nudp = \"127.0.0.2:6363\"\nmtu = 63\n");
    assert!(small.contains("faces[0].mtu: 63 bytes is outside 64..=65527"), "{small}");
    let both = err("[[faces]]\nname = \"b\"\nudp = \"127.0.0.2:6363\"\nmtu = 1500\nreliability = true\n");
    assert!(both.contains("faces[0].mtu: not with reliability = true"), "{both}");
}

#[test]
fn tcp_faces_are_permanent_unless_told_and_udp_faces_idle_out_after_nfd_s_600_s() {
    let faces =
        "[[faces]]\nname = \"t\"\ntcp = \"127.0.0.1:6363\"\n[[faces]]\nname = \"u\"\nudp = \"127.0.0.1:6363\"\n";
    let c = parse(faces, "fwd.toml").unwrap();
    assert_eq!((c.faces[0].persistency, c.faces[1].persistency), (Persistency::Permanent, Persistency::Persistent));
    assert_eq!(c.udp_idle_timeout, Time::from_secs(600));
    let c = parse("[listen]\nudp_idle_timeout = \"2s\"\n[[faces]]\nname = \"t\"\ntcp = \"127.0.0.1:1\"\npersistency = \"persistent\"\n", "f.toml")
        .unwrap();
    assert_eq!((c.faces[0].persistency, c.udp_idle_timeout), (Persistency::Persistent, Time::from_secs(2)));
    let e = err("[[faces]]\nname = \"u\"\nudp = \"127.0.0.1:1\"\npersistency = \"permanent\"\n");
    assert_eq!(e, "fwd.toml:4: faces[0].persistency: only TCP faces reconnect: persistency is for TCP faces");
    let e = err("[[faces]]\nname = \"t\"\ntcp = \"127.0.0.1:1\"\npersistency = \"forever\"\n");
    assert!(e.starts_with("fwd.toml:4: faces[0].persistency: \"forever\": expected \"permanent\""), "{e}");
    assert_eq!(
        err("[listen]\nudp_idle_timeout = \"0s\"\n"),
        "fwd.toml:2: listen.udp_idle_timeout: must be longer than 0"
    );
    assert!(err("[listen]\nudp_idle_timeout = \"soon\"\n").starts_with("fwd.toml:2: listen.udp_idle_timeout: "));
}

#[test]
fn a_configuration_that_never_ends_is_refused_at_the_ceiling() {
    // `ndnflow-fwd /dev/zero` read until the machine ran out of memory until 2026-11-28.
    let e = load(std::path::Path::new("/dev/zero")).unwrap_err().to_string();
    assert_eq!(e, "/dev/zero: cannot read the configuration: it holds more than 67108864 bytes, the most read");
}

#[test]
fn a_face_peer_no_packet_can_reach_is_refused_at_its_line() {
    // Each started until 2026-11-28 and lost every packet sent to the face; an IPv6 peer beside an
    // IPv4 socket, and a UDP face without one, were named without the file or not at all.
    let face = |peer: &str| format!("[listen]\nudp = \"127.0.0.1:6363\"\n[[faces]]\nname = \"a\"\nudp = \"{peer}\"\n");
    assert_eq!(err(&face("127.0.0.1:0")), "fwd.toml:5: faces[0].udp: \"127.0.0.1:0\": port 0 is no peer's port");
    assert!(err(&face("0.0.0.0:6363")).contains("faces[0].udp: \"0.0.0.0:6363\": the unspecified address"));
    assert!(err(&face("224.0.0.1:6363")).contains("multicast faces are not built here"));
    assert!(err(&face("255.255.255.255:6363")).contains("the broadcast address"));
    assert_eq!(
        err(&face("[::1]:9")),
        "fwd.toml:5: faces[0].udp: [::1]:9 is an IPv6 peer and listen.udp (127.0.0.1:6363) an IPv4 socket; \
         give listen.udp of the peer's family"
    );
    let off = "[listen]\nudp = false\n[[faces]]\nname = \"a\"\nudp = \"127.0.0.1:9\"\n";
    assert_eq!(err(off), "fwd.toml:5: faces[0].udp: a UDP face needs the daemon's UDP socket, and listen.udp is false");
    let tcp = "[[faces]]\nname = \"a\"\ntcp = \"224.0.0.1:6363\"\n";
    assert!(err(tcp).starts_with("fwd.toml:3: faces[0].tcp: \"224.0.0.1:6363\": multicast"), "{}", err(tcp));
}

#[test]
fn errors_name_the_table_s_index_and_the_range() {
    // "routes.cost" without the index and "as i128" until 2026-11-28.
    let routes = "[[faces]]\nname = \"b\"\nudp = \"127.0.0.1:9\"\n[[routes]]\nprefix = \"/p\"\nnexthop = \"b\"\n\
                  [[routes]]\nprefix = \"/q\"\nnexthop = \"b\"\ncost = 1.5\n";
    assert!(err(routes).starts_with("fwd.toml:10: routes[1].cost: invalid type: floating point"), "{}", err(routes));
    assert_eq!(
        err("seed = 99999999999999999999\n"),
        "fwd.toml:1: seed: out of range: integer \"99999999999999999999\", expected a whole number from 0 to \
         18446744073709551615"
    );
}
