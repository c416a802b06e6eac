//! NFD's self-learning strategy (issue 24) on a mesh with no routes (`routing = "none"`): the
//! first Interest floods, its Data brings a prefix announcement back and every node on the way
//! learns a route, and every later Interest goes along the learned path only.
//!
//! ```text
//!   c --1ms-- r --1ms-- a --1ms-- q --10ms-- p     every node self-learning; the producer on p
//!             |         |2ms      |                serves /p
//!             +--2ms--- b --1ms---+
//! ```
//!
//! The consumer fetches 10 segments one at a time (window 1), so the Data of one segment is back
//! before the next Interest leaves. Interest 1 (discovery, no route anywhere) leaves c at 0:
//! - c sends it to r, its only link (c->r); r (at 1 ms) to a and b (r->a, r->b);
//! - a (at 2 ms) to q and b (a->q, a->b); b (at 3 ms) to q and a (b->q, b->a);
//! - q (at 3 ms, a's copy) to p and b (q->p, q->b);
//! - the copies that arrive later carry a nonce the node's pending entry already has from another
//!   face, so each is answered Nack(Duplicate) and goes no further: b's at q (4 ms, q->b Nack),
//!   q's and a's at b (4 ms, b->q and b->a Nacks), b's at a (5 ms, a->b Nack). Self-learning
//!   does nothing with a Duplicate Nack.
//! - p's node has its producer's route: the Interest (13 ms) goes to the producer, marked
//!   NonDiscovery, and the Data goes back with /p announced, p->q->a->r->c (23 to 26 ms), long
//!   after the flood is over. q learns /p via p, a via q, r via a, c via r; b learns nothing.
//!
//! Interests 2 to 10 go c->r->a->q->p only, NonDiscovery. Per link over the run: c->r, r->a,
//! a->q, q->p 10 Interests each; r->b, a->b, b->a, b->q, q->b 1 each; Data 10 on each link of
//! the path back; Nacks 1 on a->b, b->a, b->q, q->b.

use crate::common;

use common::run;

const MESH: &str = r#"
[simulation]
duration = "2s"
routing = "none"
[nodes]
c = { strategy = "self-learning" }
r = { strategy = "self-learning" }
a = { strategy = "self-learning" }
b = { strategy = "self-learning" }
q = { strategy = "self-learning" }
p = { strategy = "self-learning" }
[[links]]
between = ["c", "r"]
bandwidth = "100Mbps"
delay = "1ms"
[[links]]
between = ["r", "a"]
bandwidth = "100Mbps"
delay = "1ms"
[[links]]
between = ["r", "b"]
bandwidth = "100Mbps"
delay = "2ms"
[[links]]
between = ["a", "b"]
bandwidth = "100Mbps"
delay = "2ms"
[[links]]
between = ["a", "q"]
bandwidth = "100Mbps"
delay = "1ms"
[[links]]
between = ["b", "q"]
bandwidth = "100Mbps"
delay = "1ms"
[[links]]
between = ["q", "p"]
bandwidth = "100Mbps"
delay = "10ms"
[[producers]]
node = "p"
prefix = "/p"
payload = 1024
[[consumers]]
node = "c"
name = "/p"
segments = 10
cc = { algorithm = "fixed-window", window = 1 }
"#;

#[test]
fn the_first_interest_floods_and_the_rest_follow_the_learned_path() {
    let r = run(MESH);
    let links = &r.summary.links;
    let count = |l: &str| (links[l].interests, links[l].data, links[l].nacks);
    // (Interests, Data, Nacks) per link direction, as derived in the module comment.
    for (l, want) in [
        ("c->r", (10, 0, 0)),
        ("r->a", (10, 0, 0)),
        ("a->q", (10, 0, 0)),
        ("q->p", (10, 0, 0)),
        ("r->b", (1, 0, 0)),
        ("a->b", (1, 0, 1)),
        ("b->a", (1, 0, 1)),
        ("b->q", (1, 0, 1)),
        ("q->b", (1, 0, 1)),
        ("p->q", (0, 10, 0)),
        ("q->a", (0, 10, 0)),
        ("a->r", (0, 10, 0)),
        ("r->c", (0, 10, 0)),
        ("b->r", (0, 0, 0)),
    ] {
        assert_eq!(count(l), want, "{l}");
    }
}

/// The announcement costs bytes on the Data that carries it, and only there. A Data here is
/// 1079 octets: Name /p/seg=N (2 + 3 + 3 = 8), Content (4 + 1024), SignatureInfo (5),
/// SignatureValue (2 + 32) make 1075, in a 1 + 3 octet TL. The first one crosses p->q, q->a, a->r
/// and r->c as LpPacket { PrefixAnnouncement, Fragment }: PrefixAnnouncement (848) is
/// FD 03 50 0B, Name /p (07 03 08 01 70) and ExpirationPeriod 3,600,000 ms (6D 04 00 36 EE 80),
/// 15 octets; Fragment = 1 + 3 + 1079 = 1083, LpPacket = 1 + 3 + 15 + 1083 = 1102, 23 more than bare.
#[test]
fn only_the_first_data_carries_the_announcement() {
    let r = run(MESH);
    for l in ["p->q", "q->a", "a->r", "r->c"] {
        assert_eq!(r.summary.links[l].bytes, 10 * 1079 + 23, "{l}");
    }
    // An Interest is 20 octets (Name 8, Nonce 6, InterestLifetime 4, in a 2-octet TL); marked
    // NonDiscovery it is 28: LpPacket TL (2) + NonDiscovery (FD 03 4C 00, 4) + Fragment TL (2).
    // c->r carries the discovery one bare, then 9 marked.
    assert_eq!(r.summary.links["c->r"].bytes, 20 + 9 * 28);
    assert_eq!(r.summary.links["r->b"].bytes, 20);
}

/// The forwarding log shows both fields: at r, the Data of segment 0 comes in from a and goes out
/// to c with the announcement, and every later Interest goes out to a marked NonDiscovery (the
/// first, a discovery one, goes to a and b bare).
#[test]
fn the_forwarding_log_shows_non_discovery_and_the_announcement() {
    let text = MESH.replace("[nodes]", "[trace]\nforwarding = { nodes = [\"r\"] }\n[nodes]");
    let r = run(&text);
    let f = &r.forwarding;
    let lines: Vec<_> = f.row.iter().map(|&k| &f.lines[k as usize]).collect();
    let detail = |event: &str, name: &str| -> Vec<String> {
        let rows = lines.iter().filter(|l| l.event == event && l.name == name);
        rows.map(|l| format!("{} {}", l.face_out, l.detail)).collect()
    };
    assert_eq!(detail("onOutgoingInterest", "/p/seg=0"), ["a ", "b "]);
    assert_eq!(detail("onOutgoingData", "/p/seg=0"), ["c prefix-announcement"]);
    assert_eq!(detail("onOutgoingInterest", "/p/seg=1"), ["a non-discovery"]);
    assert_eq!(detail("onOutgoingData", "/p/seg=1"), ["c "]);
}
