//! Status datasets (NFD Management protocol, "StatusDataset"; the record layouts of the NFD wiki's
//! ForwarderStatus, FaceMgmt, FibMgmt, RibMgmt and StrategyChoice pages, TLV-TYPE numbers as
//! python-ndn's `nfd_mgmt` reads them): a record list encoded once per request, published as
//! segmented Data under `/localhost/nfd/<module>/<verb>/v=<version>/seg=<n>`.
//!
//! A request without a version gets segment 0 of a fresh version (its name has CanBePrefix, as
//! ndn-cxx's and python-ndn's dataset fetchers send it); the later segments are asked by their full
//! names and served from the last version made for that dataset. A segment of an older version is
//! not answered: the fetcher times out and starts again, as it would if NFD's in-memory storage
//! had dropped it.

use bytes::Bytes;
use ndnflow_core::name::{component_type, TLV_NAME};
use ndnflow_core::packet::tlv::{write_nonneg_tlv, write_tlv};
use ndnflow_core::packet::Data;
use ndnflow_core::{Name, Time};

/// Payload bytes per segment: room for the name and signature under ndn-cxx's 8,800-byte packet
/// limit (NFD's `StatusDatasetContext` segments at the same limit less its overhead).
pub const SEGMENT_BYTES: usize = 8_000;
/// NFD publishes dataset segments fresh for 1 s (`StatusDatasetContext`).
pub const FRESHNESS: Time = Time::from_secs(1);

/// TLV-TYPE numbers of the dataset records.
pub mod tlv {
    pub const RECORD: u64 = 0x80;
    pub const NEXT_HOP_OR_ROUTE: u64 = 0x81;
    // ForwarderStatus
    pub const NFD_VERSION: u64 = 0x80;
    pub const START_TIMESTAMP: u64 = 0x81;
    pub const CURRENT_TIMESTAMP: u64 = 0x82;
    pub const N_NAME_TREE_ENTRIES: u64 = 0x83;
    pub const N_FIB_ENTRIES: u64 = 0x84;
    pub const N_PIT_ENTRIES: u64 = 0x85;
    pub const N_MEASUREMENTS_ENTRIES: u64 = 0x86;
    pub const N_CS_ENTRIES: u64 = 0x87;
    pub const N_IN_INTERESTS: u64 = 0x90;
    pub const N_IN_DATA: u64 = 0x91;
    pub const N_OUT_INTERESTS: u64 = 0x92;
    pub const N_OUT_DATA: u64 = 0x93;
    pub const N_IN_BYTES: u64 = 0x94;
    pub const N_OUT_BYTES: u64 = 0x95;
    pub const N_IN_NACKS: u64 = 0x97;
    pub const N_OUT_NACKS: u64 = 0x98;
    pub const N_SATISFIED_INTERESTS: u64 = 0x99;
    pub const N_UNSATISFIED_INTERESTS: u64 = 0x9a;
    // FaceStatus
    pub const FACE_SCOPE: u64 = 0x84;
    pub const FACE_PERSISTENCY: u64 = 0x85;
    pub const LINK_TYPE: u64 = 0x86;
}

/// Writes one record (a TLV of `typ`) whose value `fill` writes.
pub fn record(out: &mut Vec<u8>, typ: u64, fill: impl FnOnce(&mut Vec<u8>)) {
    let mut v = Vec::new();
    fill(&mut v);
    write_tlv(out, typ, &v);
}

pub fn name(out: &mut Vec<u8>, n: &Name) {
    write_tlv(out, TLV_NAME, n.component_wire());
}

pub fn number(out: &mut Vec<u8>, typ: u64, n: u64) {
    write_nonneg_tlv(out, typ, n);
}

pub fn text(out: &mut Vec<u8>, typ: u64, s: &str) {
    write_tlv(out, typ, s.as_bytes());
}

/// The segments of `content` under `prefix/v=version`, each with FinalBlockId, fresh for
/// `FRESHNESS`, DigestSha256-signed. An empty dataset is one empty segment.
pub fn segments(prefix: &Name, version: u64, content: &[u8]) -> Vec<Data> {
    let versioned = prefix.append(component_type::VERSION, &nonneg(version));
    let chunks: Vec<&[u8]> = if content.is_empty() { vec![&[][..]] } else { content.chunks(SEGMENT_BYTES).collect() };
    let last = chunks.len() as u64 - 1;
    chunks
        .iter()
        .enumerate()
        .map(|(i, chunk)| {
            let mut d = Data::new(versioned.append_segment(i as u64), Bytes::copy_from_slice(chunk));
            d.freshness_period = Some(FRESHNESS);
            d.final_block_id = Some((component_type::SEGMENT, Bytes::from(nonneg(last))));
            crate::sign::sign_digest_sha256(&mut d);
            d
        })
        .collect()
}

/// A NonNegativeInteger's shortest encoding (1, 2, 4 or 8 bytes).
fn nonneg(n: u64) -> Vec<u8> {
    let mut v = Vec::new();
    ndnflow_core::packet::tlv::write_nonneg(&mut v, n);
    v
}

/// The last version made of each dataset, to answer requests for its later segments. One version
/// per dataset, whatever name it was asked under (signed requests differ in their digest).
#[derive(Default)]
pub struct Published {
    last: Vec<(Dataset, Vec<Data>)>,
}

/// A dataset: (module, verb).
pub type Dataset = (&'static str, &'static str);

impl Published {
    /// Keeps `segments` of `dataset` in place of its previous version.
    pub fn keep(&mut self, dataset: Dataset, segments: Vec<Data>) {
        self.last.retain(|(d, _)| *d != dataset);
        self.last.push((dataset, segments));
    }

    /// The segment with exactly this name, if its version is the last one made.
    pub fn find(&self, name: &Name) -> Option<&Data> {
        self.last.iter().flat_map(|(_, s)| s.iter()).find(|d| d.name == *name)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_dataset_of_twice_the_segment_size_plus_one_is_three_segments_each_naming_the_last() {
        let prefix = Name::parse("/localhost/nfd/faces/list").unwrap();
        let content = vec![7u8; 2 * SEGMENT_BYTES + 1];
        let segs = segments(&prefix, 1_700_000_000_000, &content);
        assert_eq!(segs.len(), 3);
        assert_eq!(segs.iter().map(|d| d.content.len()).collect::<Vec<_>>(), vec![8_000, 8_000, 1]);
        for (i, d) in segs.iter().enumerate() {
            assert_eq!(d.name.len(), 6);
            assert_eq!(d.name.get(4).unwrap().typ, component_type::VERSION);
            assert_eq!(d.name.last().unwrap().as_segment(), Some(i as u64));
            assert_eq!(d.final_segment(), Some(2));
            assert!(crate::sign::verify_digest_sha256(&d.encode()));
            assert!(d.wire_size() <= crate::face::udp::MAX_PACKET_SIZE);
        }
        let mut kept = Published::default();
        kept.keep(("faces", "list"), segs.clone());
        assert_eq!(kept.find(&segs[2].name), Some(&segs[2]));
        kept.keep(("faces", "list"), segments(&prefix, 1_700_000_000_001, b"x"));
        assert_eq!(kept.find(&segs[2].name), None, "an older version is gone");
    }

    #[test]
    fn an_empty_dataset_is_one_empty_segment() {
        let segs = segments(&Name::parse("/localhost/nfd/rib/list").unwrap(), 1, &[]);
        assert_eq!(segs.len(), 1);
        assert!(segs[0].content.is_empty());
        assert_eq!(segs[0].final_segment(), Some(0));
    }
}
