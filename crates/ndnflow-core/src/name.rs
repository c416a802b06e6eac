//! NDN names (packet format v0.3 §2.1 "Name") with the naming conventions' typed components
//! (segment = 50, version = 54, ...).
//!
//! A `Name` holds its components already TLV-encoded in one shared buffer plus a precomputed hash:
//! cloning is a reference-count bump, equality is a byte compare, and the tables (PIT, CS, FIB) key
//! on the hash computed once when the name is made.

use std::fmt;
use std::hash::{Hash, Hasher};

use rustc_hash::FxHasher;
use smallvec::SmallVec;
use thiserror::Error;
use triomphe::ThinArc;

use crate::packet::tlv::{self, DecodeError, Reader};

/// TLV-TYPE numbers of name components (ndn-cxx `tlv.hpp`, naming conventions rev. 3).
pub mod component_type {
    pub const IMPLICIT_SHA256_DIGEST: u64 = 1;
    pub const PARAMETERS_SHA256_DIGEST: u64 = 2;
    pub const GENERIC: u64 = 8;
    pub const KEYWORD: u64 = 32;
    pub const SEGMENT: u64 = 50;
    pub const BYTE_OFFSET: u64 = 52;
    pub const VERSION: u64 = 54;
    pub const TIMESTAMP: u64 = 56;
    pub const SEQUENCE_NUM: u64 = 58;
}

/// TLV-TYPE of the Name element.
pub const TLV_NAME: u64 = 7;

/// A name component borrowed from a `Name`'s buffer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Component<'a> {
    pub typ: u64,
    pub value: &'a [u8],
}

impl Component<'_> {
    /// The component's value as a NonNegativeInteger, if it is one.
    pub fn as_number(&self) -> Option<u64> {
        tlv::read_nonneg(self.value, 0).ok()
    }
    /// The segment number, when this is a SegmentNameComponent.
    pub fn as_segment(&self) -> Option<u64> {
        (self.typ == component_type::SEGMENT).then(|| self.as_number()).flatten()
    }
    /// The version, when this is a VersionNameComponent (naming conventions: `v=N`).
    pub fn as_version(&self) -> Option<u64> {
        (self.typ == component_type::VERSION).then(|| self.as_number()).flatten()
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum NameError {
    #[error("name {0:?} must start with '/'")]
    NotAbsolute(String),
    #[error("name {name:?}: bad component {component:?}: {reason}")]
    BadComponent { name: String, component: String, reason: &'static str },
}

/// Encoded components while a name is being built (inline up to 48 bytes: the papers' names are
/// 10-30 bytes).
type Wire = SmallVec<[u8; 48]>;
type Ends = SmallVec<[u32; 6]>;

/// The fixed part of a name's single allocation.
#[derive(Clone, Copy)]
struct Head {
    /// Bytes of concatenated component TLVs (the Name element's value).
    wire_len: u32,
    /// Number of components.
    count: u32,
}

/// A name's body, after its `Head`, in one immutable allocation sized to fit:
/// `wire_len` bytes of component TLVs, then `count` component end offsets (u32, native order, so
/// prefixes are slices of the wire), then `count` prefix hashes (u64; entry k covers the first
/// k + 1 components, computed once so longest-prefix match probes its table without hashing).
/// The wire comes first: comparing two names reads the head and the wire, which for the papers'
/// names share the allocation's first cache line. About 80 bytes for the benchmark's names, where
/// three inline vectors took 168; reads are plain slice reads, without inline-vector branches.
type Store = ThinArc<Head, u8>;

/// Hash of the root name "/".
const ROOT_HASH: u64 = 0x6A09_E667_F3BC_C908;

/// Extends the hash of a prefix by one more component, so a name's hash equals the prefix hash of
/// every longer name that starts with it.
fn extend_hash(prefix: u64, component_tlv: &[u8]) -> u64 {
    hash_bytes(component_tlv) ^ prefix.rotate_left(23).wrapping_mul(0x9E37_79B9_7F4A_7C15)
}

/// An NDN name. Cheap to clone; compares and hashes by its encoding.
///
/// The whole name's hash lives in the handle, beside the pointer: a Data packet's name is looked up
/// in the PIT at every hop, and with the hash at hand (and the PIT confirming a match by the
/// allocation's address) a router never touches the name's allocation, which is usually out of
/// cache by the time the Data comes back.
#[derive(Clone)]
pub struct Name {
    /// Hash of the whole name: the last prefix hash, or the root's.
    hash: u64,
    store: Store,
}

/// Hash of encoded components: FxHash for speed, then a SplitMix64 finaliser so that every bit
/// depends on every byte (names that differ only in a trailing segment number must spread over the
/// whole table, since the maps below use this value as is).
fn hash_bytes(bytes: &[u8]) -> u64 {
    let mut h = FxHasher::default();
    h.write(bytes);
    crate::mix::mix64(h.finish())
}

/// `BuildHasher` for maps keyed by `Name` (or by a name hash): a name carries a well-mixed hash
/// computed once, so the map takes it as is instead of hashing it again on every lookup.
#[derive(Clone, Copy, Debug, Default)]
pub struct PrehashedBuilder;

#[derive(Clone, Copy, Debug, Default)]
pub struct Prehashed(u64);

impl Hasher for Prehashed {
    fn write(&mut self, bytes: &[u8]) {
        // Only reached for keys other than names and hashes; keep it correct if not fast.
        self.0 = hash_bytes(bytes) ^ self.0.rotate_left(5);
    }
    fn write_u64(&mut self, n: u64) {
        self.0 = n;
    }
    fn finish(&self) -> u64 {
        self.0
    }
}

impl std::hash::BuildHasher for PrehashedBuilder {
    type Hasher = Prehashed;
    fn build_hasher(&self) -> Prehashed {
        Prehashed(0)
    }
}

/// A hash map keyed by names (or name hashes) that reuses their precomputed hash.
pub type NameMap<K, V> = std::collections::HashMap<K, V, PrehashedBuilder>;

impl Name {
    /// Builds a name from the encoded components (a Name element's value), validating them.
    pub fn from_component_wire(wire: &[u8]) -> Result<Name, DecodeError> {
        Self::from_component_wire_at(wire, 0)
    }

    pub(crate) fn from_component_wire_at(wire: &[u8], base: usize) -> Result<Name, DecodeError> {
        let mut r = Reader::new(wire);
        let mut ends = Ends::new();
        let mut minimal = true;
        while !r.is_empty() {
            let start = r.offset();
            let el = r.read_element()?;
            minimal &= tlv::tlv_size(el.typ, el.value.len()) == r.offset() - start;
            if el.typ == 0 || el.typ > 0xFFFF {
                return Err(DecodeError::Invalid {
                    at: base + el.at,
                    what: "name component",
                    reason: "component type must be 1..65535",
                });
            }
            ends.push(r.offset() as u32);
        }
        if minimal {
            return Ok(Self::from_parts(wire, &ends));
        }
        // A type or length written longer than it needs (`08 FD 0001 61` for "a") names the same
        // component: kept in its shortest form, so that it equals the name written canonically.
        let mut canonical = Vec::with_capacity(wire.len());
        let mut r = Reader::new(wire);
        ends.clear();
        while !r.is_empty() {
            let el = r.read_element()?;
            tlv::write_tlv(&mut canonical, el.typ, el.value);
            ends.push(canonical.len() as u32);
        }
        Ok(Self::from_parts(&canonical, &ends))
    }

    /// A new name from its encoded components and their end offsets, hashing every prefix.
    fn from_parts(wire: &[u8], ends: &[u32]) -> Name {
        let mut end_bytes = SmallVec::<[u8; 32]>::with_capacity(4 * ends.len());
        let mut hash_bytes = SmallVec::<[u8; 64]>::with_capacity(8 * ends.len());
        let (mut hash, mut start) = (ROOT_HASH, 0);
        for &end in ends {
            hash = extend_hash(hash, &wire[start..end as usize]);
            end_bytes.extend_from_slice(&end.to_ne_bytes());
            hash_bytes.extend_from_slice(&hash.to_ne_bytes());
            start = end as usize;
        }
        let head = Head { wire_len: wire.len() as u32, count: ends.len() as u32 };
        Self::assemble(hash, head, [wire, &[], &end_bytes, &[], &hash_bytes, &[]])
    }

    /// Allocates a name whose body is the concatenation of `parts`, copied once: names are made
    /// on the hot path (an Interest per segment), so the body is laid out in a stack buffer and
    /// never in a growing vector.
    fn assemble(hash: u64, head: Head, parts: [&[u8]; 6]) -> Name {
        const STACK: usize = 192;
        let total: usize = parts.iter().map(|p| p.len()).sum();
        let fill = |body: &mut [u8]| {
            let mut at = 0;
            for part in parts {
                body[at..at + part.len()].copy_from_slice(part);
                at += part.len();
            }
        };
        if total <= STACK {
            let mut body = [0u8; STACK];
            fill(&mut body[..total]);
            Name { hash, store: ThinArc::from_header_and_slice(head, &body[..total]) }
        } else {
            let mut body = vec![0u8; total];
            fill(&mut body);
            Name { hash, store: ThinArc::from_header_and_slice(head, &body) }
        }
    }

    #[inline]
    fn head(&self) -> &Head {
        &self.store.header.header
    }

    /// The body's regions: the wire, the end offsets of the first `len` components, and the
    /// hashes of the first `len` prefixes, as bytes (a name made from this one copies them).
    fn regions(&self, len: usize) -> (&[u8], &[u8], &[u8]) {
        let (wire_len, count) = (self.head().wire_len as usize, self.head().count as usize);
        let body = &self.store.slice[..];
        let hashes = wire_len + 4 * count;
        (&body[..wire_len], &body[wire_len..wire_len + 4 * len], &body[hashes..hashes + 8 * len])
    }

    /// Offset just past component `i` (`i < len()`).
    #[inline]
    fn end(&self, i: usize) -> usize {
        let at = self.head().wire_len as usize + 4 * i;
        let bytes: [u8; 4] = self.store.slice[at..at + 4].try_into().expect("four bytes");
        u32::from_ne_bytes(bytes) as usize
    }

    /// Stored hash of the first `k + 1` components (`k < len()`).
    #[inline]
    fn stored_hash(&self, k: usize) -> u64 {
        let h = self.head();
        let at = h.wire_len as usize + 4 * h.count as usize + 8 * k;
        let bytes: [u8; 8] = self.store.slice[at..at + 8].try_into().expect("eight bytes");
        u64::from_ne_bytes(bytes)
    }

    /// The root name "/".
    pub fn root() -> Name {
        Self::from_parts(&[], &[])
    }

    /// Builds a name from (type, value) pairs.
    pub fn from_components<'a>(comps: impl IntoIterator<Item = (u64, &'a [u8])>) -> Name {
        let mut wire = Wire::new();
        let mut ends = Ends::new();
        for (typ, value) in comps {
            tlv::write_tlv(&mut wire, typ, value);
            ends.push(wire.len() as u32);
        }
        Self::from_parts(&wire, &ends)
    }

    /// This name with one more component.
    pub fn append(&self, typ: u64, value: &[u8]) -> Name {
        let mut component = SmallVec::<[u8; 16]>::new();
        tlv::write_tlv(&mut component, typ, value);
        self.append_encoded(&component)
    }

    /// This name with a SegmentNameComponent (naming conventions: `seg=N`). Consumers make one
    /// per Interest, so the component is encoded in place: type 50, length, the big-endian value.
    pub fn append_segment(&self, segment: u64) -> Name {
        let size = tlv::nonneg_size(segment);
        let mut component = [0u8; 10];
        component[0] = component_type::SEGMENT as u8;
        component[1] = size as u8;
        component[2..2 + size].copy_from_slice(&segment.to_be_bytes()[8 - size..]);
        self.append_encoded(&component[..2 + size])
    }

    /// This name with a VersionNameComponent (naming conventions: `v=N`, type 54).
    pub fn append_version(&self, version: u64) -> Name {
        let mut value = SmallVec::<[u8; 8]>::new();
        tlv::write_nonneg(&mut value, version);
        self.append(component_type::VERSION, &value)
    }

    /// This name with one more component, given as its TLV encoding.
    fn append_encoded(&self, component: &[u8]) -> Name {
        let count = self.len();
        let (wire, ends, hashes) = self.regions(count);
        let end = (wire.len() + component.len()) as u32;
        let hash = extend_hash(self.hash64(), component);
        let head = Head { wire_len: end, count: count as u32 + 1 };
        Self::assemble(hash, head, [wire, component, ends, &end.to_ne_bytes(), hashes, &hash.to_ne_bytes()])
    }

    /// Bytes of the name's allocation, shared by its clones: the reference count, the head, the
    /// slice's length and the body, for a driver's memory watch.
    pub fn heap_bytes(&self) -> usize {
        2 * std::mem::size_of::<usize>() + std::mem::size_of::<Head>() + self.store.slice.len()
    }

    /// Number of components.
    #[inline]
    pub fn len(&self) -> usize {
        self.head().count as usize
    }
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The Name element's value: the concatenated component TLVs.
    #[inline]
    pub fn component_wire(&self) -> &[u8] {
        &self.store.slice[..self.head().wire_len as usize]
    }

    /// Size of the whole Name TLV element.
    pub fn wire_size(&self) -> usize {
        tlv::tlv_size(TLV_NAME, self.head().wire_len as usize)
    }

    /// Precomputed hash of the whole name.
    #[inline]
    pub fn hash64(&self) -> u64 {
        self.hash
    }

    /// Identity of the name's allocation: two names with the same address are the same name for
    /// as long as either is alive. Tables that keep a name alive compare addresses before bytes.
    #[inline]
    pub fn address(&self) -> usize {
        self.store.ptr() as usize
    }

    /// Hash of the first `len` components, equal to `self.prefix(len).hash64()`.
    pub fn prefix_hash(&self, len: usize) -> u64 {
        match len.min(self.len()) {
            0 => ROOT_HASH,
            n => self.stored_hash(n - 1),
        }
    }

    fn prefix_end(&self, len: usize) -> usize {
        if len == 0 {
            0
        } else {
            self.end(len - 1)
        }
    }

    /// The first `len` components as a new name (clamped to the name's length).
    pub fn prefix(&self, len: usize) -> Name {
        let len = len.min(self.len());
        if len == self.len() {
            return self.clone();
        }
        let end = self.prefix_end(len);
        let (wire, ends, hashes) = self.regions(len);
        let head = Head { wire_len: end as u32, count: len as u32 };
        Self::assemble(self.prefix_hash(len), head, [&wire[..end], &[], ends, &[], hashes, &[]])
    }

    /// The encoded first `len` components (clamped to the name's length): compares prefixes of two
    /// names without building either as a name.
    #[inline]
    pub fn prefix_wire(&self, len: usize) -> &[u8] {
        &self.component_wire()[..self.prefix_end(len.min(self.len()))]
    }

    /// Whether `self` is a prefix of (or equal to) `other`.
    pub fn is_prefix_of(&self, other: &Name) -> bool {
        self.len() <= other.len() && other.component_wire().starts_with(self.component_wire())
    }

    /// The component at `i`.
    pub fn get(&self, i: usize) -> Option<Component<'_>> {
        if i >= self.len() {
            return None;
        }
        let start = self.prefix_end(i);
        let mut r = Reader::new(&self.component_wire()[start..]);
        let el = r.read_element().ok()?;
        Some(Component { typ: el.typ, value: el.value })
    }

    pub fn last(&self) -> Option<Component<'_>> {
        self.len().checked_sub(1).and_then(|i| self.get(i))
    }

    pub fn components(&self) -> impl Iterator<Item = Component<'_>> {
        (0..self.len()).filter_map(move |i| self.get(i))
    }

    /// Parses an NDN URI ("/video/a/seg=3"): percent-escapes, `seg=`, `v=`, `off=`, `t=`, `seq=`
    /// and numeric `TYPE=value` components, as ndn-cxx's URI format does.
    pub fn parse(uri: &str) -> Result<Name, NameError> {
        let rest = uri.strip_prefix("ndn:").unwrap_or(uri);
        let Some(rest) = rest.strip_prefix('/') else {
            return Err(NameError::NotAbsolute(uri.to_string()));
        };
        let mut wire = Wire::new();
        let mut ends = Ends::new();
        for raw in rest.split('/').filter(|s| !s.is_empty()) {
            let bad = |reason| NameError::BadComponent { name: uri.to_string(), component: raw.to_string(), reason };
            let (typ, value) = parse_component(raw).map_err(bad)?;
            tlv::write_tlv(&mut wire, typ, &value);
            ends.push(wire.len() as u32);
        }
        Ok(Self::from_parts(&wire, &ends))
    }
}

fn parse_number(s: &str) -> Result<u64, &'static str> {
    s.parse::<u64>().map_err(|_| "expected a non-negative integer")
}

fn parse_component(raw: &str) -> Result<(u64, Vec<u8>), &'static str> {
    use component_type::*;
    let numbered = |typ: u64, s: &str| -> Result<(u64, Vec<u8>), &'static str> {
        let mut v = Vec::new();
        tlv::write_nonneg(&mut v, parse_number(s)?);
        Ok((typ, v))
    };
    if let Some((prefix, value)) = raw.split_once('=') {
        match prefix {
            "seg" => return numbered(SEGMENT, value),
            "off" => return numbered(BYTE_OFFSET, value),
            "v" => return numbered(VERSION, value),
            "t" => return numbered(TIMESTAMP, value),
            "seq" => return numbered(SEQUENCE_NUM, value),
            _ if prefix.bytes().all(|b| b.is_ascii_digit()) && !prefix.is_empty() => {
                let typ = parse_number(prefix)?;
                if typ == 0 || typ > 0xFFFF {
                    return Err("component type must be 1..65535");
                }
                return Ok((typ, component_value(value)?));
            }
            _ => {}
        }
    }
    Ok((GENERIC, component_value(raw)?))
}

/// A component's value from its URI form, of any type: percent-escapes undone, and "..." plus
/// dots read as a value of fewer dots (the URI scheme's rule for values made of '.' only, the
/// empty one included), as `write_escaped` writes them.
fn component_value(s: &str) -> Result<Vec<u8>, &'static str> {
    let value = unescape(s)?;
    if !value.is_empty() && value.iter().all(|&b| b == b'.') {
        if value.len() < 3 {
            return Err("'.' and '..' are not valid components");
        }
        return Ok(value[3..].to_vec());
    }
    Ok(value)
}

fn unescape(s: &str) -> Result<Vec<u8>, &'static str> {
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' {
            let hex = bytes.get(i + 1..i + 3).ok_or("truncated percent-escape")?;
            let hex = std::str::from_utf8(hex).map_err(|_| "bad percent-escape")?;
            out.push(u8::from_str_radix(hex, 16).map_err(|_| "bad percent-escape")?);
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    Ok(out)
}

fn write_escaped(f: &mut fmt::Formatter<'_>, value: &[u8]) -> fmt::Result {
    if value.iter().all(|&b| b == b'.') {
        write!(f, "...")?;
    }
    for &b in value {
        if b.is_ascii_alphanumeric() || matches!(b, b'-' | b'.' | b'_' | b'~') {
            write!(f, "{}", b as char)?;
        } else {
            write!(f, "%{b:02X}")?;
        }
    }
    Ok(())
}

impl fmt::Display for Name {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use component_type::*;
        if self.is_empty() {
            return write!(f, "/");
        }
        for c in self.components() {
            write!(f, "/")?;
            let label = match c.typ {
                SEGMENT => Some("seg"),
                BYTE_OFFSET => Some("off"),
                VERSION => Some("v"),
                TIMESTAMP => Some("t"),
                SEQUENCE_NUM => Some("seq"),
                _ => None,
            };
            match (label, c.as_number()) {
                (Some(label), Some(n)) => write!(f, "{label}={n}")?,
                _ if c.typ == GENERIC => write_escaped(f, c.value)?,
                _ => {
                    write!(f, "{}=", c.typ)?;
                    write_escaped(f, c.value)?;
                }
            }
        }
        Ok(())
    }
}

impl fmt::Debug for Name {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Name({self})")
    }
}

impl PartialEq for Name {
    fn eq(&self, other: &Self) -> bool {
        self.address() == other.address()
            || (self.hash64() == other.hash64() && self.component_wire() == other.component_wire())
    }
}
impl Eq for Name {}

impl Hash for Name {
    fn hash<H: Hasher>(&self, state: &mut H) {
        state.write_u64(self.hash64());
    }
}

impl PartialOrd for Name {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}
/// Canonical order of the packet spec: component by component, type first, then length, then value.
impl Ord for Name {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        let mut a = self.components();
        let mut b = other.components();
        loop {
            match (a.next(), b.next()) {
                (None, None) => return std::cmp::Ordering::Equal,
                (None, Some(_)) => return std::cmp::Ordering::Less,
                (Some(_), None) => return std::cmp::Ordering::Greater,
                (Some(x), Some(y)) => {
                    let ord = x.typ.cmp(&y.typ).then(x.value.len().cmp(&y.value.len())).then(x.value.cmp(y.value));
                    if ord.is_ne() {
                        return ord;
                    }
                }
            }
        }
    }
}

impl std::str::FromStr for Name {
    type Err = NameError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Name::parse(s)
    }
}

#[cfg(test)]
#[path = "name_tests.rs"]
mod tests;
