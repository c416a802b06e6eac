//! PCON's router side in whole scenarios (issue 3): mark-driven multipath forwarding reaching the
//! split the paper expects (§4.4 Diff_BW), and PIT marking of Interest-path congestion (§4.3
//! Cross_Opp_1 vs Cross_Opp_2).

use crate::common;

use common::run;
use ndnflow_sim::Results;

/// §4.4's three-path setting: r2 is the consumer's node, each path one link to a producer of
/// /data, equal 10 ms one-way delays, PCON queues, and the bandwidths given.
fn three_paths(strategy: &str, bandwidths: [&str; 3]) -> String {
    let mut s = format!(
        r#"
[simulation]
duration = "60s"
seed = 1
[nodes]
r2 = {{ strategy = "{strategy}" }}
p1 = {{}}
p2 = {{}}
p3 = {{}}
"#
    );
    for (i, bw) in bandwidths.iter().enumerate() {
        s += &format!(
            r#"
[[links]]
between = ["r2", "p{n}"]
bandwidth = "{bw}"
delay = "10ms"
queue = {{ discipline = "pcon", packets = 1000 }}
[[producers]]
node = "p{n}"
prefix = "/data"
"#,
            n = i + 1
        );
    }
    s += r#"
[[consumers]]
node = "r2"
name = "/data/a"
cc = { algorithm = "pcon" }
"#;
    s
}

/// Each producer's share of the Data that reached r2 in bins starting in [from_s, to_s).
fn data_shares(r: &Results, from_s: f64, to_s: f64) -> Vec<f64> {
    let l = &r.links;
    let mut per = [0u64; 3];
    for i in 0..l.time_s.len() {
        let name = &r.link_names[l.dir[i] as usize];
        if name.dst == "r2" && l.time_s[i] >= from_s && l.time_s[i] < to_s {
            let k: usize = name.src[1..].parse().expect("producer pN");
            per[k - 1] += l.data[i];
        }
    }
    let total: u64 = per.iter().sum();
    per.iter().map(|&n| n as f64 / total as f64).collect()
}

#[test]
fn pcon_converges_to_the_capacity_split_on_different_bandwidths() {
    // 22.5 : 6 : 1.5 Mbit/s is 75 % : 20 % : 5 % (§4.4 Diff_BW).
    let bws = ["22.5Mbps", "6Mbps", "1.5Mbps"];
    let r = run(&three_paths("pcon", bws));
    let shares = data_shares(&r, 30.0, 60.0);
    eprintln!("pcon shares {shares:?}");
    for (got, want) in shares.iter().zip([0.75, 0.20, 0.05]) {
        assert!((got - want).abs() <= 0.05, "shares {shares:?}: {got} vs {want} (5 points)");
    }
    // Pending-Interest forwarding keeps too much on the slow paths (§4.4: "only about 54%").
    let pi = run(&three_paths("pi", bws));
    let pi_shares = data_shares(&pi, 30.0, 60.0);
    eprintln!("pi shares {pi_shares:?}");
    assert!(pi_shares[0] < 0.6, "pi {pi_shares:?}");
    let (g_pcon, g_pi) = (r.summary.consumers["r2"].goodput_bps, pi.summary.consumers["r2"].goodput_bps);
    assert!(g_pcon > 1.5 * g_pi, "pcon {g_pcon} vs pi {g_pi}");
}

#[test]
fn pcon_starts_on_the_shortest_path_and_stays_there_while_it_suffices() {
    // A consumer held to 200 Interests/s (1.7 Mbit/s) never congests the first path: no mark, no
    // traffic anywhere else.
    let text = three_paths("pcon", ["10Mbps", "10Mbps", "10Mbps"])
        .replace(r#"cc = { algorithm = "pcon" }"#, r#"cc = { algorithm = "constant-rate", rate = 200 }"#);
    let r = run(&text);
    let shares = data_shares(&r, 0.0, 60.0);
    assert_eq!(shares, vec![1.0, 0.0, 0.0]);
    assert_eq!(r.summary.consumers["r2"].marks, 0);
}

/// c - r - p where the Interest direction r -> p is the bottleneck (asymmetric link: 160 kbit/s
/// up, 100 Mbit/s down) with a PCON queue of 100 packets. `interest_marks` is r's: the node that
/// sends into the congested queue marks its PIT entry (PCON §3.1, Algorithm 2).
fn interest_path_congestion(interest_marks: &str) -> String {
    format!(
        r#"
[simulation]
duration = "20s"
seed = 1
[nodes]
c = {{}}
r = {{ interest_marks = "{interest_marks}" }}
p = {{}}
[[links]]
between = ["c", "r"]
bandwidth = "100Mbps"
delay = "5ms"
[[links]]
between = ["r", "p"]
delay = "20ms"
forward = {{ bandwidth = "160Kbps", queue = {{ discipline = "pcon", packets = 100 }} }}
reverse = {{ bandwidth = "100Mbps" }}
[[producers]]
node = "p"
prefix = "/data"
[[consumers]]
node = "c"
name = "/data/a"
cc = {{ algorithm = "pcon" }}
"#
    )
}

#[test]
fn pit_marking_signals_interest_path_congestion_and_ignoring_it_fills_the_queue() {
    // Cross_Opp_2: r marks the PIT entries of the Interests its queue found congested, and the
    // Data it sends down carry the mark; the consumer slows down before the 100-packet queue
    // overflows.
    let marked = run(&interest_path_congestion("pit"));
    let up = &marked.summary.links["r->p"];
    let c = &marked.summary.consumers["c"];
    eprintln!("pit: marks {} drops {} consumer marks {} timeouts {}", up.marks, up.drops, c.marks, c.timeouts);
    assert!(up.marks > 0 && c.marks > 0);
    assert_eq!((up.drops, c.timeouts), (0, 0));
    // Cross_Opp_1: the same marks are ignored, so the consumer only learns from tail drops.
    let ignored = run(&interest_path_congestion("ignore"));
    let up = &ignored.summary.links["r->p"];
    let c = &ignored.summary.consumers["c"];
    eprintln!("ignore: marks {} drops {} consumer marks {} timeouts {}", up.marks, up.drops, c.marks, c.timeouts);
    assert_eq!(c.marks, 0);
    assert!(up.drops > 0 && c.timeouts > 0);
}

/// c - r - p; the r - p link is `rp` (extra TOML fields), 10 ms each way; c - r is clean.
/// Mean wire size of what crossed link direction `dir` (Data only there).
fn data_size(r: &Results, dir: &str) -> f64 {
    let l = &r.summary.links[dir];
    l.bytes as f64 / l.packets as f64
}

/// The consumer has PCON's high fixed RTO (§3.3: losses are signalled, so timers can be long) and
/// fetches 15 000 segments: when it has them all, every loss has been reported.
fn lossy_line(rp: &str) -> String {
    format!(
        r#"
[simulation]
duration = "60s"
seed = 3
[nodes]
c = {{}}
r = {{}}
p = {{}}
[[links]]
between = ["c", "r"]
bandwidth = "100Mbps"
delay = "5ms"
[[links]]
between = ["r", "p"]
delay = "10ms"
{rp}
[[producers]]
node = "p"
prefix = "/data"
[[consumers]]
node = "c"
name = "/data/a"
segments = 15000
cc = {{ algorithm = "pcon" }}
rto = {{ initial = "1s", min = "1s", max = "1s" }}
"#
    )
}

#[test]
fn wireless_losses_come_back_as_unmarked_nacks_and_are_only_retransmitted() {
    let rp = r#"bandwidth = "10Mbps"
queue = { discipline = "pcon", packets = 1000 }
loss = { model = "bernoulli", p = 0.01 }
loss_detection = "wireless""#;
    let r = run(&lossy_line(rp));
    let c = &r.summary.consumers["c"];
    let (up, down) = (&r.summary.links["r->p"], &r.summary.links["p->r"]);
    eprintln!(
        "wireless: losses {} + {}, given up {} + {}, idle {} + {}, nacks {}, marks {}, timeouts {}, goodput {}",
        up.losses,
        down.losses,
        up.lp_gave_up,
        down.lp_gave_up,
        up.lp_idle,
        down.lp_idle,
        c.nacks,
        c.marks,
        c.timeouts,
        c.goodput_bps
    );
    // NDNLPv2 reliability with no local retransmission gives up on every frame the radio lost
    // (no false negative), and on some that arrived but whose Ack was lost with the frame that
    // carried it (false positives, which PCON §3.5 accepts).
    assert!(up.losses + down.losses > 100);
    assert!(up.lp_gave_up >= up.losses && down.lp_gave_up >= down.losses);
    assert_eq!(up.lp_retx + down.lp_retx, 0);
    // Each comes back as an unmarked Nack the consumer retransmits: nothing times out.
    assert!(c.nacks >= up.losses + down.losses);
    assert_eq!(c.timeouts, 0);
    assert!(c.retransmissions >= c.nacks);
    // The window ignores them, so the link stays full: 10 Mbit/s x payload / Data wire size, 99 %
    // delivered. The Data frame is the bare Data (measured without loss detection, where only
    // Data cross p->r) plus 42 bytes of reliability fields (see the overlay test).
    let silent = run(&lossy_line(&rp.replace("loss_detection = \"wireless\"", "")));
    let ceiling = 10e6 * 1024.0 / (data_size(&silent, "p->r") + 42.0) * 0.99;
    assert!(c.goodput_bps > 0.9 * ceiling, "goodput {} vs {ceiling}", c.goodput_bps);
    // Without loss detection the same losses time out.
    let c = &silent.summary.consumers["c"];
    assert_eq!(c.nacks, 0);
    assert!(c.timeouts > 100, "timeouts {}", c.timeouts);
}

#[test]
fn overlay_losses_in_the_underlay_come_back_as_marked_nacks() {
    // PCON §4.6's UDP tunnel: the local link runs at 20 Mbit/s, the underlay hop behind it at
    // 10 Mbit/s with a 250 KB drop-tail queue the forwarders cannot see.
    let rp = r#"bandwidth = "20Mbps"
queue = { discipline = "pcon", packets = 1000 }
underlay = [{ bandwidth = "10Mbps", delay = "5ms", queue = { discipline = "droptail", bytes = "250KB" } }]
loss_detection = "overlay""#;
    let r = run(&lossy_line(rp));
    let c = &r.summary.consumers["c"];
    let (under, under_up) = (&r.summary.links["p->r/u1"], &r.summary.links["r->p/u1"]);
    let (up, down) = (&r.summary.links["r->p"], &r.summary.links["p->r"]);
    eprintln!(
        "overlay: underlay drops {} (up {}), given up {} + {}, nacks {}, marks {}, timeouts {}, goodput {}",
        under.drops, under_up.drops, up.lp_gave_up, down.lp_gave_up, c.nacks, c.marks, c.timeouts, c.goodput_bps
    );
    assert!(under.drops > 0, "the consumer must have hit the underlay's queue");
    // Every frame the underlay dropped is given up by the face that sent it, and reported.
    assert!(down.lp_gave_up >= under.drops && up.lp_gave_up >= under_up.drops);
    assert_eq!(c.timeouts, 0);
    // The marked Nacks keep the consumer near the 10 Mbit/s it cannot see. A Data frame on the
    // tunnel is the bare Data (measured where only Data cross, without loss detection) plus the
    // reliability fields: Sequence 10 + TxSequence 12 + LpPacket and Fragment headers 4 + 4 (a
    // 1000-odd-byte length takes 3 octets) + about one Ack 12 = 42 bytes.
    let bare = data_size(&run(&lossy_line(&rp.replace("loss_detection = \"overlay\"", ""))), "p->r/u1");
    let ceiling = 10e6 * 1024.0 / (bare + 42.0);
    assert!(c.goodput_bps > 0.8 * ceiling && c.goodput_bps < ceiling, "goodput {} of {ceiling}", c.goodput_bps);
    // The same tunnel reporting its losses unmarked, as a wireless link does: the consumer only
    // retransmits, never slows down, and overflows the underlay queue far more often.
    let unmarked = run(&lossy_line(&rp.replace("\"overlay\"", "\"wireless\"")));
    let unmarked_drops = unmarked.summary.links["p->r/u1"].drops;
    eprintln!("overlay reported unmarked: underlay drops {unmarked_drops}");
    assert!(unmarked_drops > 2 * under.drops, "{unmarked_drops} vs {}", under.drops);
}

/// §4.5 in small: c fetches /a, served by p1 and p2 (10 Mbit/s each); from 5 s to 20 s an
/// unresponsive consumer x floods /c, served by p1 only, at 1500 Data/s (13 Mbit/s).
fn flood(queue: &str) -> String {
    let link = |a: &str, b: &str, bw: &str, delay: &str| {
        format!("[[links]]\nbetween = [\"{a}\", \"{b}\"]\nbandwidth = \"{bw}\"\ndelay = \"{delay}\"\nqueue = {queue}\n")
    };
    let mut s = String::from(
        "[simulation]\nduration = \"30s\"\nseed = 1\n[nodes]\nc = {}\nx = {}\nr = { strategy = \"pcon\" }\np1 = {}\np2 = {}\n",
    );
    s += &link("c", "r", "100Mbps", "5ms");
    s += &link("x", "r", "100Mbps", "5ms");
    s += &link("r", "p1", "10Mbps", "5ms");
    s += &link("r", "p2", "10Mbps", "10ms");
    s += r#"
[[producers]]
node = "p1"
prefix = "/a"
[[producers]]
node = "p2"
prefix = "/a"
[[producers]]
node = "p1"
prefix = "/c"
[[consumers]]
node = "c"
name = "/a/obj"
cc = { algorithm = "pcon" }
rto = { initial = "1s", min = "1s", max = "1s" }
[[consumers]]
node = "x"
name = "/c/flood"
start = "5s"
stop = "20s"
cc = { algorithm = "constant-rate", rate = 1500 }
"#;
    s
}

#[test]
fn the_highly_congested_state_steers_around_a_flooded_link_that_one_bit_marks_cannot() {
    // Data /a/obj/seg=N with a 1024-byte payload: 1084 to 1086 bytes on the wire.
    let one_path = 10e6 * 1024.0 / 1086.0;
    // PCON: p1's queue tells r it is highly congested; r sends c's traffic to p2 only.
    let r = run(&flood(r#"{ discipline = "pcon", packets = 200 }"#));
    let (g, timeouts) = (common::goodput(&r, "c", 10.0, 20.0), r.summary.consumers["c"].timeouts);
    eprintln!("pcon: goodput during the flood {g}, timeouts {timeouts}");
    assert!(g > 0.85 * one_path && timeouts <= 5, "goodput {g}, timeouts {timeouts}");
    // 1-bit CoDel marks only: r keeps sending part of c's traffic into the flooded link, and the
    // timeouts there hold c's window down (§4.5: "C2 can't even go much higher than 1").
    let r = run(&flood(r#"{ discipline = "codel", mode = "mark", packets = 200 }"#));
    let (g, timeouts) = (common::goodput(&r, "c", 10.0, 20.0), r.summary.consumers["c"].timeouts);
    eprintln!("codel marks: goodput during the flood {g}, timeouts {timeouts}");
    assert!(g < 0.2 * one_path && timeouts > 50, "goodput {g}, timeouts {timeouts}");
}
