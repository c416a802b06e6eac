//! The NDNLPv2 PrefixAnnouncement header field (type 848) that self-learning forwarding puts on a
//! Data answering a discovery Interest (NDNLPv2 spec, "Self-Learning Forwarding Support"; NFD
//! daemon/fw/self-learning-strategy.cpp; ndn-cxx lp/prefix-announcement-header and
//! ndn-cxx/prefix-announcement).
//!
//! The real field holds a whole signed Data object: its name is the announced prefix followed by
//! a `32=PA` keyword, a version and segment 0, its ContentType is PrefixAnn, its Content is
//! ExpirationPeriod (109, milliseconds) and an optional ValidityPeriod, and a signature follows.
//! ndnflow signs nothing and validates nothing, so it keeps and charges only what a router acts
//! on: PrefixAnnouncement { Name, ExpirationPeriod }. The link is charged this minimal encoding's
//! exact size; a real announcement is larger by the Data wrapper, the three name components,
//! MetaInfo and the signature (docs/wire-format.md says so beside the field).

use super::tlv::{millis_to_time, nonneg_tlv_size, tlv_size, write_nonneg_tlv, write_tlv, DecodeError, Element};
use crate::name::TLV_NAME;
use crate::{Name, Time};

/// ExpirationPeriod, as in the announcement's Content (ndn-cxx `tlv::nfd::ExpirationPeriod`).
pub const EXPIRATION_PERIOD: u64 = 109;

/// A prefix announcement: "`prefix` is reachable this way for `expiration`".
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PrefixAnnouncement {
    pub prefix: Name,
    /// How long the announcement holds from when it is made (ExpirationPeriod, milliseconds on
    /// the wire: whole milliseconds are kept).
    pub expiration: Time,
}

impl PrefixAnnouncement {
    /// Size of the field's value: Name then ExpirationPeriod.
    pub fn value_size(&self) -> usize {
        self.prefix.wire_size() + nonneg_tlv_size(EXPIRATION_PERIOD, self.expiration.as_millis())
    }

    /// Size of the whole header field of type `typ`.
    pub fn field_size(&self, typ: u64) -> usize {
        tlv_size(typ, self.value_size())
    }

    /// Appends the header field of type `typ`; its length is `field_size(typ)`.
    pub fn encode_field(&self, typ: u64, out: &mut Vec<u8>) {
        super::tlv::write_tl(out, typ, self.value_size());
        write_tlv(out, TLV_NAME, self.prefix.component_wire());
        write_nonneg_tlv(out, EXPIRATION_PERIOD, self.expiration.as_millis());
    }

    /// Decodes the field's value: exactly a Name and an ExpirationPeriod, in that order.
    pub fn decode_field(e: &Element<'_>) -> Result<PrefixAnnouncement, DecodeError> {
        let mut r = e.reader();
        let name = r.expect(TLV_NAME, "Name")?;
        let prefix = Name::from_component_wire_at(name.value, name.value_at)?;
        let period = r.expect(EXPIRATION_PERIOD, "ExpirationPeriod")?;
        let expiration = millis_to_time(period.nonneg()?).ok_or(DecodeError::Invalid {
            at: period.at,
            what: "ExpirationPeriod",
            reason: "too large",
        })?;
        if !r.is_empty() {
            return Err(DecodeError::Trailing(r.remaining()));
        }
        Ok(PrefixAnnouncement { prefix, expiration })
    }
}
