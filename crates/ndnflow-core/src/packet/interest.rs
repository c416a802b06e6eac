//! Interest packet (NDN packet format v0.3 §3 "Interest Packet").

use bytes::Bytes;

use super::tlv::{nonneg_tlv_size, tlv_size};
use crate::{Name, Time};

pub mod tlv_type {
    pub const INTEREST: u64 = 5;
    pub const CAN_BE_PREFIX: u64 = 33;
    pub const MUST_BE_FRESH: u64 = 18;
    pub const FORWARDING_HINT: u64 = 30;
    pub const NONCE: u64 = 10;
    pub const INTEREST_LIFETIME: u64 = 12;
    pub const HOP_LIMIT: u64 = 34;
    pub const APPLICATION_PARAMETERS: u64 = 36;
}

/// InterestLifetime when the element is absent (packet spec §3.2.4).
pub const DEFAULT_INTEREST_LIFETIME: Time = Time::from_millis(4000);

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Interest {
    pub name: Name,
    pub can_be_prefix: bool,
    pub must_be_fresh: bool,
    /// 4-octet nonce. Absent only on Interests decoded from a wire that lacks it; forwarders assign one.
    pub nonce: Option<u32>,
    /// `None` encodes nothing and means the spec default of 4 s.
    pub lifetime: Option<Time>,
    pub hop_limit: Option<u8>,
    /// ApplicationParameters value, carried as is. Whoever sets it is responsible for the name's
    /// ParametersSha256DigestComponent (the codec does not hash).
    pub app_parameters: Option<Bytes>,
}

impl Interest {
    /// An Interest as a consumer sends it: a name, a nonce and a lifetime.
    pub fn new(name: Name, nonce: u32, lifetime: Time) -> Interest {
        Interest {
            name,
            can_be_prefix: false,
            must_be_fresh: false,
            nonce: Some(nonce),
            lifetime: Some(lifetime),
            hop_limit: None,
            app_parameters: None,
        }
    }

    /// The lifetime in force: the encoded one or the spec default.
    pub fn effective_lifetime(&self) -> Time {
        self.lifetime.unwrap_or(DEFAULT_INTEREST_LIFETIME)
    }

    fn value_size(&self) -> usize {
        use tlv_type::*;
        let mut n = self.name.wire_size();
        if self.can_be_prefix {
            n += tlv_size(CAN_BE_PREFIX, 0);
        }
        if self.must_be_fresh {
            n += tlv_size(MUST_BE_FRESH, 0);
        }
        if self.nonce.is_some() {
            n += tlv_size(NONCE, 4);
        }
        if let Some(l) = self.lifetime {
            n += nonneg_tlv_size(INTEREST_LIFETIME, l.as_millis());
        }
        if self.hop_limit.is_some() {
            n += tlv_size(HOP_LIMIT, 1);
        }
        if let Some(p) = &self.app_parameters {
            n += tlv_size(APPLICATION_PARAMETERS, p.len());
        }
        n
    }

    /// Exact size of the encoded Interest TLV.
    pub fn wire_size(&self) -> usize {
        tlv_size(tlv_type::INTEREST, self.value_size())
    }
}
