//! `[trace] pcap` (docs/wire-format.md "Captures"): the reader's directions and errors, and a run
//! whose records decode, with the codec, to the frames the links counted. tests/test_pcap.py reads
//! the same files through tshark.

use crate::common;

use ndnflow_core::packet::lp::decode_frame;
use ndnflow_core::packet::PacketKind;
use ndnflow_sim::capture::{ipv4_checksum, SharedBuffer, GLOBAL_HEADER_LEN, IP_UDP_LEN, RECORD_HEADER_LEN};
use ndnflow_sim::scenario::model::CapturedDirection;
use ndnflow_sim::Simulation;

use common::{node, parse, quickstart_text, small_with};

#[test]
fn a_direction_or_a_whole_link() {
    let s = small_with("[trace]\npcap = [\"b->a\", \"b-c\"]\n").unwrap();
    let (a, b, c) = (node(&s, "a"), node(&s, "b"), node(&s, "c"));
    let expected = [
        CapturedDirection { link: 0, from: b, to: a },
        CapturedDirection { link: 1, from: b, to: c },
        CapturedDirection { link: 1, from: c, to: b },
    ];
    assert_eq!(s.trace.pcap, expected);
    assert!(small_with("").unwrap().trace.pcap.is_empty());
}

fn error(extra: &str) -> String {
    small_with(extra).expect_err("should be rejected").to_string()
}

#[test]
fn what_names_no_direction_is_refused_with_its_name() {
    let e = error("[trace]\npcap = [\"a->q\"]\n");
    assert!(e.contains("trace.pcap[0]: no node named \"q\""), "{e}");
    let e = error("[trace]\npcap = [\"b->a\", \"a->c\"]\n");
    assert!(e.contains("trace.pcap[1]: no link between \"a\" and \"c\" (links of a: to b)"), "{e}");
    let e = error("[trace]\npcap = [\"ab\"]\n");
    assert!(e.contains("\"ab\" names no link: write \"a->b\""), "{e}");
    let e = error("[trace]\npcap = [\"a-b\", \"b->a\"]\n");
    assert!(e.contains("trace.pcap[1]: the direction b->a is listed twice"), "{e}");
    let e = error("[trace]\npcap = \"a->b\"\n");
    assert!(e.contains("trace.pcap: expected a list of link directions"), "{e}");
    let e = error("[trace]\npcaps = []\n");
    assert!(e.contains("trace.pcaps: unknown field \"pcaps\"; expected one of: interests, faces, nodes, pcap, forwarding (did you mean \"pcap\"?)"), "{e}");
}

/// Node names may hold '-': "x-y-z" splits as x | y-z or x-y | z, and both are links here.
#[test]
fn a_link_name_that_splits_two_ways_asks_for_arrows() {
    let text = "[simulation]\nduration = \"1s\"\n[nodes]\nx = {}\ny-z = {}\nx-y = {}\nz = {}\n\
        [[links]]\nbetween = [\"x\", \"y-z\"]\nbandwidth = \"1Mbps\"\ndelay = \"1ms\"\n\
        [[links]]\nbetween = [\"x-y\", \"z\"]\nbandwidth = \"1Mbps\"\ndelay = \"1ms\"\n\
        [trace]\npcap = [\"x-y-z\"]\n";
    let e = parse(text).expect_err("ambiguous").to_string();
    assert!(e.contains("\"x-y-z\" names more than one link"), "{e}");
    let s = parse(&text.replace("\"x-y-z\"", "\"x->y-z\"")).unwrap();
    assert_eq!(s.trace.pcap.len(), 1);
}

/// The records of a capture: (timestamp ns, IPv4 + UDP headers, the NDN bytes).
fn records(file: &[u8]) -> Vec<(u64, &[u8], &[u8])> {
    let mut out = Vec::new();
    let mut at = GLOBAL_HEADER_LEN;
    while at < file.len() {
        let word = |k: usize| u32::from_le_bytes(file[at + k..at + k + 4].try_into().unwrap());
        let ns = u64::from(word(0)) * 1_000_000_000 + u64::from(word(4));
        let len = word(8) as usize;
        let body = &file[at + RECORD_HEADER_LEN..at + RECORD_HEADER_LEN + len];
        out.push((ns, &body[..IP_UDP_LEN], &body[IP_UDP_LEN..]));
        at += RECORD_HEADER_LEN + len;
    }
    out
}

/// The quick start for 1 s, capturing r->p (Interests) and p->r (Data): one record per packet the
/// direction sent, each with a valid IPv4 checksum, in time order, decoding to the frame kinds and
/// bytes the direction counted.
#[test]
fn a_run_writes_one_decodable_record_per_frame() {
    let text = quickstart_text().replace("duration = \"30s\"", "duration = \"1s\"") + "[trace]\npcap = [\"r-p\"]\n";
    let mut sim = Simulation::new(parse(&text).unwrap());
    let outs: Vec<SharedBuffer> = (0..2).map(|_| SharedBuffer::default()).collect();
    let mut next = outs.iter().cloned();
    sim.start_captures(|_| Ok(Box::new(next.next().unwrap()))).unwrap();
    assert_eq!(sim.capture_names(), ["r-p.pcap", "p-r.pcap"]);
    sim.run_until(sim.duration());
    let stats = sim.finish_captures().unwrap();
    let summary = sim.summary();
    for ((direction, out), stat) in ["r->p", "p->r"].iter().zip(&outs).zip(&stats) {
        let link = &summary.links[*direction];
        let file = out.bytes();
        let records = records(&file);
        assert_eq!(records.len() as u64, link.packets);
        assert_eq!(stat.frames, link.packets);
        assert!(records.windows(2).all(|w| w[0].0 <= w[1].0));
        let (mut interests, mut data, mut bytes) = (0, 0, 0);
        for (_, headers, ndn) in &records {
            assert_eq!(ipv4_checksum(&headers[..20]), 0);
            let frame = decode_frame(ndn).unwrap();
            interests += u64::from(frame.packet.kind() == PacketKind::Interest);
            data += u64::from(frame.packet.kind() == PacketKind::Data);
            bytes += ndn.len() as u64;
        }
        assert_eq!((interests, data, bytes), (link.interests, link.data, link.bytes), "{direction}");
    }
    assert!(summary.links["r->p"].interests > 700 && summary.links["p->r"].data > 700);
}
