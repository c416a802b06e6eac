//! TLV primitives of the NDN packet format v0.3 (§1.1 "TLV encoding"): VAR-NUMBER type and length
//! fields, NonNegativeInteger values, and a bounds-checked reader that returns errors, never panics.

use thiserror::Error;

/// Why a wire buffer could not be decoded. Every variant names where decoding stopped.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum DecodeError {
    #[error("truncated input at byte {at}: needed {needed} more byte(s)")]
    Truncated { at: usize, needed: usize },
    #[error("unexpected TLV type {found} at byte {at} (expected {expected})")]
    UnexpectedType { at: usize, found: u64, expected: &'static str },
    #[error("invalid length {len} for {what} at byte {at}")]
    BadLength { at: usize, len: usize, what: &'static str },
    #[error("unrecognised critical TLV type {typ} at byte {at}")]
    UnknownCritical { at: usize, typ: u64 },
    #[error("missing required element {0}")]
    Missing(&'static str),
    #[error("{what} at byte {at}: {reason}")]
    Invalid { at: usize, what: &'static str, reason: &'static str },
    #[error("{0} trailing byte(s) after the packet")]
    Trailing(usize),
}

/// Number of bytes a VAR-NUMBER takes on the wire.
#[inline]
pub const fn var_number_size(n: u64) -> usize {
    if n < 253 {
        1
    } else if n <= 0xFFFF {
        3
    } else if n <= 0xFFFF_FFFF {
        5
    } else {
        9
    }
}

/// Appends a VAR-NUMBER.
pub fn write_var_number(out: &mut impl TlvSink, n: u64) {
    if n < 253 {
        out.put(&[n as u8]);
    } else if n <= 0xFFFF {
        out.put(&[253]);
        out.put(&(n as u16).to_be_bytes());
    } else if n <= 0xFFFF_FFFF {
        out.put(&[254]);
        out.put(&(n as u32).to_be_bytes());
    } else {
        out.put(&[255]);
        out.put(&n.to_be_bytes());
    }
}

/// Where encoders append bytes: a `Vec`, or the inline buffer of a `Name`.
pub trait TlvSink {
    fn put(&mut self, bytes: &[u8]);
}

impl TlvSink for Vec<u8> {
    #[inline]
    fn put(&mut self, bytes: &[u8]) {
        self.extend_from_slice(bytes);
    }
}

impl<A: smallvec::Array<Item = u8>> TlvSink for smallvec::SmallVec<A> {
    #[inline]
    fn put(&mut self, bytes: &[u8]) {
        self.extend_from_slice(bytes);
    }
}

/// Bytes of a NonNegativeInteger value: 1, 2, 4 or 8 octets, the shortest that holds `n`.
#[inline]
pub const fn nonneg_size(n: u64) -> usize {
    if n <= 0xFF {
        1
    } else if n <= 0xFFFF {
        2
    } else if n <= 0xFFFF_FFFF {
        4
    } else {
        8
    }
}

pub fn write_nonneg(out: &mut impl TlvSink, n: u64) {
    match nonneg_size(n) {
        1 => out.put(&[n as u8]),
        2 => out.put(&(n as u16).to_be_bytes()),
        4 => out.put(&(n as u32).to_be_bytes()),
        _ => out.put(&n.to_be_bytes()),
    }
}

/// Decodes a NonNegativeInteger value (length 1, 2, 4 or 8).
pub fn read_nonneg(value: &[u8], at: usize) -> Result<u64, DecodeError> {
    match value.len() {
        1 => Ok(value[0] as u64),
        2 => Ok(u16::from_be_bytes([value[0], value[1]]) as u64),
        4 => Ok(u32::from_be_bytes([value[0], value[1], value[2], value[3]]) as u64),
        8 => {
            let mut b = [0u8; 8];
            b.copy_from_slice(value);
            Ok(u64::from_be_bytes(b))
        }
        len => Err(DecodeError::BadLength { at, len, what: "NonNegativeInteger" }),
    }
}

/// Size of a whole TLV element whose value is `value_len` bytes.
#[inline]
pub const fn tlv_size(typ: u64, value_len: usize) -> usize {
    var_number_size(typ) + var_number_size(value_len as u64) + value_len
}

/// Appends type and length; the caller appends the value.
pub fn write_tl(out: &mut impl TlvSink, typ: u64, len: usize) {
    write_var_number(out, typ);
    write_var_number(out, len as u64);
}

/// Appends a whole TLV element.
pub fn write_tlv(out: &mut impl TlvSink, typ: u64, value: &[u8]) {
    write_tl(out, typ, value.len());
    out.put(value);
}

/// Appends a TLV element holding a NonNegativeInteger.
pub fn write_nonneg_tlv(out: &mut impl TlvSink, typ: u64, n: u64) {
    write_tl(out, typ, nonneg_size(n));
    write_nonneg(out, n);
}

/// Size of a TLV element holding a NonNegativeInteger.
#[inline]
pub const fn nonneg_tlv_size(typ: u64, n: u64) -> usize {
    tlv_size(typ, nonneg_size(n))
}

/// NDN's evolvability rule (packet spec, "Considerations for evolvability"): types 0-31 and odd
/// types are critical; an unknown critical element makes the packet invalid.
#[inline]
pub const fn is_critical(typ: u64) -> bool {
    typ <= 31 || typ & 1 == 1
}

/// A cursor over a wire buffer. `offset` is kept relative to the start of the outermost buffer so
/// that errors point at the exact byte.
#[derive(Clone, Copy, Debug)]
pub struct Reader<'a> {
    buf: &'a [u8],
    pos: usize,
    base: usize,
}

/// One decoded TLV element: its type, its value, and where the element started.
#[derive(Clone, Copy, Debug)]
pub struct Element<'a> {
    pub typ: u64,
    pub value: &'a [u8],
    pub at: usize,
    /// Offset of the value's first byte (for nested readers).
    pub value_at: usize,
}

impl<'a> Element<'a> {
    pub fn reader(&self) -> Reader<'a> {
        Reader { buf: self.value, pos: 0, base: self.value_at }
    }
}

impl<'a> Reader<'a> {
    pub fn new(buf: &'a [u8]) -> Self {
        Reader { buf, pos: 0, base: 0 }
    }
    /// A reader over `buf` whose offsets are reported as `base + position`.
    pub fn with_base(buf: &'a [u8], base: usize) -> Self {
        Reader { buf, pos: 0, base }
    }
    pub fn is_empty(&self) -> bool {
        self.pos >= self.buf.len()
    }
    pub fn offset(&self) -> usize {
        self.base + self.pos
    }
    pub fn remaining(&self) -> usize {
        self.buf.len() - self.pos
    }

    pub fn read_var_number(&mut self) -> Result<u64, DecodeError> {
        let at = self.offset();
        let first = *self.buf.get(self.pos).ok_or(DecodeError::Truncated { at, needed: 1 })?;
        let width = match first {
            0..=252 => {
                self.pos += 1;
                return Ok(first as u64);
            }
            253 => 2,
            254 => 4,
            255 => 8,
        };
        let start = self.pos + 1;
        // Lazy error: computing `needed` eagerly would underflow whenever the bytes are all there.
        let bytes = self
            .buf
            .get(start..start + width)
            .ok_or_else(|| DecodeError::Truncated { at, needed: start + width - self.buf.len() })?;
        let mut n = 0u64;
        for b in bytes {
            n = (n << 8) | *b as u64;
        }
        self.pos = start + width;
        Ok(n)
    }

    /// Reads the next element, checking that its length fits in what is left.
    pub fn read_element(&mut self) -> Result<Element<'a>, DecodeError> {
        let at = self.offset();
        let typ = self.read_var_number()?;
        let len = self.read_var_number()?;
        let remaining = self.remaining() as u64;
        if len > remaining {
            return Err(DecodeError::Truncated { at: self.offset(), needed: (len - remaining) as usize });
        }
        let len = len as usize;
        let value_at = self.offset();
        let value = &self.buf[self.pos..self.pos + len];
        self.pos += len;
        Ok(Element { typ, value, at, value_at })
    }

    /// Reads the next element and requires its type.
    pub fn expect(&mut self, typ: u64, what: &'static str) -> Result<Element<'a>, DecodeError> {
        let el = self.read_element()?;
        if el.typ != typ {
            return Err(DecodeError::UnexpectedType { at: el.at, found: el.typ, expected: what });
        }
        Ok(el)
    }

    /// Type of the next element without consuming it.
    pub fn peek_type(&self) -> Option<u64> {
        let mut copy = *self;
        copy.read_var_number().ok()
    }
}

/// The spec's largest millisecond count we can hold: `Time` is u64 nanoseconds.
const MAX_MILLIS: u64 = u64::MAX / 1_000_000;

/// Converts a millisecond field (InterestLifetime, FreshnessPeriod) to `Time`, or `None` when it
/// does not fit in u64 nanoseconds (about 584 years), so decoders reject it instead of overflowing.
pub fn millis_to_time(ms: u64) -> Option<crate::Time> {
    (ms <= MAX_MILLIS).then(|| crate::Time::from_millis(ms))
}

/// Appends a TLV element whose value is a fixed-width 8-octet big-endian integer (NDNLPv2
/// TxSequence and Ack, and the ndnflow path/trajectory ids).
pub fn write_fixed_u64_tlv(out: &mut Vec<u8>, typ: u64, n: u64) {
    write_tl(out, typ, 8);
    out.extend_from_slice(&n.to_be_bytes());
}

/// Decodes `wire` as exactly one element of type `typ`; bytes after it are an error.
pub fn read_single<'a>(wire: &'a [u8], typ: u64, what: &'static str) -> Result<Element<'a>, DecodeError> {
    let mut r = Reader::new(wire);
    let el = r.expect(typ, what)?;
    if !r.is_empty() {
        return Err(DecodeError::Trailing(r.remaining()));
    }
    Ok(el)
}

/// The evolvability rule applied to an element the decoder does not know: a critical one is an
/// error, a non-critical one is skipped.
pub fn skip_unknown(el: &Element<'_>) -> Result<(), DecodeError> {
    if is_critical(el.typ) {
        Err(DecodeError::UnknownCritical { at: el.at, typ: el.typ })
    } else {
        Ok(())
    }
}

/// Checks that `value` is a sequence of well-formed TLV elements (framing only), so that bytes we
/// keep opaque (SignatureInfo extras) re-encode into something a peer can parse.
pub fn check_framing(value: &[u8], base: usize) -> Result<(), DecodeError> {
    let mut r = Reader::with_base(value, base);
    while !r.is_empty() {
        r.read_element()?;
    }
    Ok(())
}

impl Element<'_> {
    /// The value as a NonNegativeInteger (1, 2, 4 or 8 octets; non-minimal widths are accepted,
    /// as ndn-cxx accepts them).
    pub fn nonneg(&self) -> Result<u64, DecodeError> {
        read_nonneg(self.value, self.at)
    }

    /// The value as a fixed-width 8-octet integer.
    pub fn fixed_u64(&self, what: &'static str) -> Result<u64, DecodeError> {
        let bytes: [u8; 8] =
            self.value.try_into().map_err(|_| DecodeError::BadLength { at: self.at, len: self.value.len(), what })?;
        Ok(u64::from_be_bytes(bytes))
    }

    /// Requires a zero-length value (flag elements such as CanBePrefix).
    pub fn expect_empty(&self, what: &'static str) -> Result<(), DecodeError> {
        if self.value.is_empty() {
            Ok(())
        } else {
            Err(DecodeError::BadLength { at: self.at, len: self.value.len(), what })
        }
    }
}

/// Order check for the fixed-sequence packets (Interest, Data, MetaInfo), done the way ndn-cxx's
/// decoders do it: every known element has a rank in spec order, and a known element whose rank is
/// not above the last one seen is out of order. A repeated element is thereby out of order too.
#[derive(Clone, Copy, Debug, Default)]
pub struct SpecOrder {
    last: u8,
}

impl SpecOrder {
    /// Whether an element of `rank` would be out of order now (for non-critical elements that
    /// ndn-cxx ignores rather than rejects when misplaced).
    pub fn is_past(&self, rank: u8) -> bool {
        self.last >= rank
    }

    /// Records an element of `rank`, or reports it as out of order.
    pub fn advance(&mut self, rank: u8, el: &Element<'_>, what: &'static str) -> Result<(), DecodeError> {
        if self.is_past(rank) {
            return Err(DecodeError::Invalid { at: el.at, what, reason: "element out of order or repeated" });
        }
        self.last = rank;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn var_number_boundaries_round_trip() {
        for (n, size) in [(0u64, 1), (252, 1), (253, 3), (0xFFFF, 3), (0x1_0000, 5), (0xFFFF_FFFF, 5), (1 << 32, 9)] {
            let mut out = Vec::new();
            write_var_number(&mut out, n);
            assert_eq!(out.len(), size, "size of {n}");
            assert_eq!(var_number_size(n), size);
            assert_eq!(Reader::new(&out).read_var_number().unwrap(), n);
        }
    }

    #[test]
    fn truncated_length_is_an_error_not_a_panic() {
        // Type 7, length 10, but only 2 value bytes.
        let err = Reader::new(&[7, 10, 1, 2]).read_element().unwrap_err();
        assert_eq!(err, DecodeError::Truncated { at: 2, needed: 8 });
        assert!(Reader::new(&[253, 1]).read_var_number().is_err());
        assert_eq!(Reader::new(&[253, 1]).read_var_number(), Err(DecodeError::Truncated { at: 0, needed: 1 }));
        // A complete 3-octet VAR-NUMBER followed by more bytes (regression: `needed` underflowed).
        assert_eq!(Reader::new(&[253, 1, 0, 9, 9]).read_var_number(), Ok(256));
    }

    #[test]
    fn critical_types_follow_the_evolvability_rule() {
        assert!(is_critical(5) && is_critical(31) && is_critical(33));
        assert!(!is_critical(34) && !is_critical(832));
    }
}
