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
pub fn write_var_number(out: &mut Vec<u8>, n: u64) {
    if n < 253 {
        out.push(n as u8);
    } else if n <= 0xFFFF {
        out.push(253);
        out.extend_from_slice(&(n as u16).to_be_bytes());
    } else if n <= 0xFFFF_FFFF {
        out.push(254);
        out.extend_from_slice(&(n as u32).to_be_bytes());
    } else {
        out.push(255);
        out.extend_from_slice(&n.to_be_bytes());
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

pub fn write_nonneg(out: &mut Vec<u8>, n: u64) {
    match nonneg_size(n) {
        1 => out.push(n as u8),
        2 => out.extend_from_slice(&(n as u16).to_be_bytes()),
        4 => out.extend_from_slice(&(n as u32).to_be_bytes()),
        _ => out.extend_from_slice(&n.to_be_bytes()),
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
pub fn write_tl(out: &mut Vec<u8>, typ: u64, len: usize) {
    write_var_number(out, typ);
    write_var_number(out, len as u64);
}

/// Appends a whole TLV element.
pub fn write_tlv(out: &mut Vec<u8>, typ: u64, value: &[u8]) {
    write_tl(out, typ, value.len());
    out.extend_from_slice(value);
}

/// Appends a TLV element holding a NonNegativeInteger.
pub fn write_nonneg_tlv(out: &mut Vec<u8>, typ: u64, n: u64) {
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
        let bytes = self
            .buf
            .get(start..start + width)
            .ok_or(DecodeError::Truncated { at, needed: start + width - self.buf.len() })?;
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
    }

    #[test]
    fn critical_types_follow_the_evolvability_rule() {
        assert!(is_critical(5) && is_critical(31) && is_critical(33));
        assert!(!is_critical(34) && !is_critical(832));
    }
}
