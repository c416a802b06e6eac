//! Version discovery by RDR metadata: the protocol ndnputchunks answers and ndncatchunks asks
//! (ndn-cxx `MetadataObject`, ndn-tools tools/chunks; the "Realtime Data Retrieval" convention of
//! the NDN naming conventions).
//!
//! A consumer that knows an object's name but not its version asks for NAME/32=metadata with
//! CanBePrefix and MustBeFresh. The producer answers a Data named
//! NAME/32=metadata/v=<now in ms>/seg=0 whose Content is the versioned name (a Name TLV),
//! fresh for 10 ms, so that a later discovery reaches the producer again rather than a cache.
//! The consumer then fetches VERSIONED/seg=0, 1, ...
//!
//! The checks on an answer are `MetadataObject`'s and ndncatchunks' `DiscoverVersion`'s: the
//! Data's name ends in 32=metadata, a version and a segment; its ContentType is Blob; its Content
//! is not empty and holds a Name (elements before the first Name are skipped); and that name
//! ends in a version.

use bytes::Bytes;
use ndnflow_core::name::component_type::{KEYWORD, SEGMENT};
use ndnflow_core::name::TLV_NAME;
use ndnflow_core::packet::tlv::{write_tlv, Reader};
use ndnflow_core::packet::Data;
use ndnflow_core::{Name, Time};

/// The keyword component's value: `32=metadata` (ndn-cxx `MetadataObject::getKeywordComponent`).
pub const METADATA_KEYWORD: &[u8] = b"metadata";

/// FreshnessPeriod of a metadata Data: `MetadataObject::makeData`'s default, 10 ms.
pub const METADATA_FRESHNESS: Time = Time::from_millis(10);

/// ContentType Blob (NDN packet format v0.3, ContentType 0), also meant when the field is absent.
const CONTENT_TYPE_BLOB: u64 = 0;

/// NAME/32=metadata: the name a discovery Interest asks for.
pub fn discovery_name(prefix: &Name) -> Name {
    prefix.append(KEYWORD, METADATA_KEYWORD)
}

/// Whether `name`'s last component is a version (`v=N`).
pub fn has_version(name: &Name) -> bool {
    name.last().is_some_and(|c| c.as_version().is_some())
}

/// `name` without its last component when that is a version (`/p/file/v=7` is `/p/file`), else
/// `name` itself: the prefix a producer registers and names its key under.
pub fn unversioned(name: &Name) -> Name {
    if has_version(name) {
        name.prefix(name.len() - 1)
    } else {
        name.clone()
    }
}

/// The metadata Data answering a discovery Interest for `interest_name` (which must end in
/// 32=metadata): named `interest_name`/v=`version`/seg=0, its Content `versioned`'s Name TLV,
/// fresh for `METADATA_FRESHNESS`. Unsigned: the producer signs it as it signs its segments.
pub fn metadata_data(interest_name: &Name, versioned: &Name, version: u64) -> Data {
    let name = interest_name.append_version(version).append_segment(0);
    let mut data = Data::new(name, Bytes::from(name_tlv(versioned)));
    data.freshness_period = Some(METADATA_FRESHNESS);
    data
}

/// `name` as a Name TLV (type 7).
pub fn name_tlv(name: &Name) -> Vec<u8> {
    let mut out = Vec::with_capacity(name.wire_size());
    write_tlv(&mut out, TLV_NAME, name.component_wire());
    out
}

/// Why a metadata Data was not taken; the text is what `ndnflow get` reports.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RdrError {
    #[error("{0} is not a metadata name (NAME/32=metadata/v=N/seg=N)")]
    NotMetadataName(String),
    #[error("metadata {name} has ContentType {found}, not Blob (0)")]
    ContentType { name: String, found: u64 },
    #[error("metadata {0} is empty")]
    Empty(String),
    #[error("metadata {name} holds no Name: {why}")]
    NoName { name: String, why: String },
    #[error("{0} is not a versioned name (its last component is no v=N)")]
    NotVersioned(String),
}

/// Whether `name` is a metadata Data's name: at least three components, the last three
/// 32=metadata, a version and a segment (`MetadataObject::isValidName`).
pub fn is_metadata_name(name: &Name) -> bool {
    let n = name.len();
    n >= 3
        && name.get(n - 3).is_some_and(|c| c.typ == KEYWORD && c.value == METADATA_KEYWORD)
        && name.get(n - 2).is_some_and(|c| c.as_version().is_some())
        && name.get(n - 1).is_some_and(|c| c.typ == SEGMENT && c.as_number().is_some())
}

/// The versioned name a metadata Data announces, checked as ndncatchunks checks it.
pub fn versioned_name(data: &Data) -> Result<Name, RdrError> {
    let name = || data.name.to_string();
    if !is_metadata_name(&data.name) {
        return Err(RdrError::NotMetadataName(name()));
    }
    let content_type = data.content_type.unwrap_or(CONTENT_TYPE_BLOB);
    if content_type != CONTENT_TYPE_BLOB {
        return Err(RdrError::ContentType { name: name(), found: content_type });
    }
    if data.content.is_empty() {
        return Err(RdrError::Empty(name()));
    }
    let no_name = |why: String| RdrError::NoName { name: name(), why };
    let mut reader = Reader::new(&data.content);
    let versioned = loop {
        if reader.is_empty() {
            return Err(no_name("no Name element".into()));
        }
        let element = reader.read_element().map_err(|e| no_name(e.to_string()))?;
        if element.typ == TLV_NAME {
            break Name::from_component_wire(element.value).map_err(|e| no_name(e.to_string()))?;
        }
    };
    if !has_version(&versioned) {
        return Err(RdrError::NotVersioned(versioned.to_string()));
    }
    Ok(versioned)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn name(uri: &str) -> Name {
        Name::parse(uri).unwrap()
    }

    #[test]
    fn the_discovery_name_ends_in_the_metadata_keyword() {
        // 32=metadata: type 0x20, length 8, "metadata".
        let d = discovery_name(&name("/p"));
        assert_eq!(d.component_wire(), b"\x08\x01p\x20\x08metadata");
        assert_eq!(d.to_string(), "/p/32=metadata");
    }

    #[test]
    fn a_metadata_data_carries_the_versioned_name_and_reads_back() {
        let versioned = name("/p/v=1700000000000");
        let data = metadata_data(&discovery_name(&name("/p")), &versioned, 5);
        assert_eq!(data.name.to_string(), "/p/32=metadata/v=5/seg=0");
        assert_eq!(data.freshness_period, Some(Time::from_millis(10)));
        // The Content, by hand: Name (07 0d) | "p" (08 01 70) | v= (36 08: 1.7e12 = 0x18b_cfe5_6800
        // needs six bytes, and a NonNegativeInteger takes 1, 2, 4 or 8).
        assert_eq!(&data.content[..], b"\x07\x0d\x08\x01p\x36\x08\x00\x00\x01\x8b\xcf\xe5\x68\x00");
        let decoded = Data::decode(&data.encode()).unwrap();
        assert_eq!(versioned_name(&decoded), Ok(versioned));
    }

    #[test]
    fn elements_before_the_name_are_skipped() {
        let mut data = metadata_data(&discovery_name(&name("/p")), &name("/p/v=3"), 4);
        let mut content = b"\x80\x01\xff".to_vec(); // an application's element first
        content.extend_from_slice(&data.content);
        data.content = content.into();
        assert_eq!(versioned_name(&data).unwrap(), name("/p/v=3"));
    }

    #[test]
    fn answers_that_are_not_metadata_are_refused_with_the_reason() {
        let good = metadata_data(&discovery_name(&name("/p")), &name("/p/v=3"), 4);
        let mut wrong_name = good.clone();
        wrong_name.name = name("/p/v=3/seg=0"); // a segment, as a producer without RDR answers
        assert!(matches!(versioned_name(&wrong_name), Err(RdrError::NotMetadataName(_))));
        let mut key = good.clone();
        key.content_type = Some(2);
        assert!(matches!(versioned_name(&key), Err(RdrError::ContentType { found: 2, .. })));
        let mut empty = good.clone();
        empty.content = Bytes::new();
        assert!(matches!(versioned_name(&empty), Err(RdrError::Empty(_))));
        let mut garbage = good.clone();
        garbage.content = Bytes::from_static(b"\x80\x05ab"); // a length past the end
        assert!(matches!(versioned_name(&garbage), Err(RdrError::NoName { .. })));
        let unversioned = metadata_data(&discovery_name(&name("/p")), &name("/p/file"), 4);
        assert_eq!(versioned_name(&unversioned), Err(RdrError::NotVersioned("/p/file".into())));
    }

    #[test]
    fn a_version_is_recognised_only_as_the_last_component() {
        assert!(has_version(&name("/p/v=0")));
        assert!(!has_version(&name("/p/v=0/seg=1")));
        assert_eq!(unversioned(&name("/p/file/v=7")), name("/p/file"));
        assert_eq!(unversioned(&name("/p/file")), name("/p/file"));
        // Type 54 with a 3-byte value is no NonNegativeInteger (1, 2, 4 or 8 bytes).
        assert!(!has_version(&name("/p/54=abc")));
    }
}
