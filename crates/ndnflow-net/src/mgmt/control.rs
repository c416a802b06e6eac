//! NFD's management encodings (NFD Management protocol, "ControlCommand" and "ControlParameters"
//! pages of the NFD wiki; TLV-TYPE numbers as NFD's and python-ndn's `nfd_mgmt`):
//! `ControlParameters` (0x68), the `ControlResponse` (0x65) a command is answered with, and the
//! name of a signed command Interest, `/localhost/nfd/<module>/<verb>/<ControlParameters>/...`.
//!
//! Decoding is lenient as ndn-cxx's `ControlParameters::wireDecode` is: fields may come in any
//! order, the first copy of a field counts, and unknown elements are skipped. A field that is
//! present but malformed (a Name that does not decode, a number longer than 8 bytes) is an error.

use bytes::Bytes;
use ndnflow_core::name::TLV_NAME;
use ndnflow_core::packet::tlv::{read_single, write_nonneg_tlv, write_tl, write_tlv, DecodeError, Reader};
use ndnflow_core::Name;

/// TLV-TYPE numbers of the management protocol.
pub mod tlv {
    pub const CONTROL_RESPONSE: u64 = 0x65;
    pub const STATUS_CODE: u64 = 0x66;
    pub const STATUS_TEXT: u64 = 0x67;
    pub const CONTROL_PARAMETERS: u64 = 0x68;
    pub const FACE_ID: u64 = 0x69;
    pub const COST: u64 = 0x6a;
    pub const STRATEGY: u64 = 0x6b;
    pub const FLAGS: u64 = 0x6c;
    pub const EXPIRATION_PERIOD: u64 = 0x6d;
    pub const ORIGIN: u64 = 0x6f;
    pub const MASK: u64 = 0x70;
    pub const URI: u64 = 0x72;
    pub const LOCAL_URI: u64 = 0x81;
    pub const CAPACITY: u64 = 0x83;
    pub const COUNT: u64 = 0x84;
    pub const FACE_PERSISTENCY: u64 = 0x85;
    pub const BASE_CONGESTION_MARKING_INTERVAL: u64 = 0x87;
    pub const DEFAULT_CONGESTION_THRESHOLD: u64 = 0x88;
    pub const MTU: u64 = 0x89;
}

/// The arguments of a command, and the body of its response. Every field is optional on the wire.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ControlParameters {
    pub name: Option<Name>,
    pub face_id: Option<u64>,
    pub uri: Option<String>,
    pub local_uri: Option<String>,
    pub origin: Option<u64>,
    pub cost: Option<u64>,
    pub capacity: Option<u64>,
    pub count: Option<u64>,
    pub base_congestion_marking_interval: Option<u64>,
    pub default_congestion_threshold: Option<u64>,
    pub mtu: Option<u64>,
    pub flags: Option<u64>,
    pub mask: Option<u64>,
    /// The strategy's name (inside a Strategy element).
    pub strategy: Option<Name>,
    /// Milliseconds.
    pub expiration_period: Option<u64>,
    pub face_persistency: Option<u64>,
}

/// The numeric fields, in NFD's encoding order, with their TLV-TYPEs.
fn numbers(p: &ControlParameters) -> [(u64, Option<u64>); 7] {
    use tlv::*;
    [
        (FACE_ID, p.face_id),
        (ORIGIN, p.origin),
        (COST, p.cost),
        (CAPACITY, p.capacity),
        (COUNT, p.count),
        (BASE_CONGESTION_MARKING_INTERVAL, p.base_congestion_marking_interval),
        (DEFAULT_CONGESTION_THRESHOLD, p.default_congestion_threshold),
    ]
}

impl ControlParameters {
    /// The ControlParameters TLV (NFD's field order).
    pub fn encode(&self) -> Vec<u8> {
        let mut v = Vec::new();
        self.encode_value(&mut v);
        let mut out = Vec::with_capacity(v.len() + 4);
        write_tlv(&mut out, tlv::CONTROL_PARAMETERS, &v);
        out
    }

    fn encode_value(&self, v: &mut Vec<u8>) {
        use tlv::*;
        if let Some(n) = &self.name {
            write_tlv(v, TLV_NAME, n.component_wire());
        }
        let [face_id, rest @ ..] = numbers(self);
        put(v, face_id);
        if let Some(u) = &self.uri {
            write_tlv(v, URI, u.as_bytes());
        }
        if let Some(u) = &self.local_uri {
            write_tlv(v, LOCAL_URI, u.as_bytes());
        }
        rest.into_iter().for_each(|f| put(v, f));
        put(v, (MTU, self.mtu));
        put(v, (FLAGS, self.flags));
        put(v, (MASK, self.mask));
        if let Some(s) = &self.strategy {
            let mut inner = Vec::new();
            write_tlv(&mut inner, TLV_NAME, s.component_wire());
            write_tlv(v, STRATEGY, &inner);
        }
        put(v, (EXPIRATION_PERIOD, self.expiration_period));
        put(v, (FACE_PERSISTENCY, self.face_persistency));
    }

    /// Decodes one ControlParameters TLV that spans all of `wire`.
    pub fn decode(wire: &[u8]) -> Result<ControlParameters, DecodeError> {
        let e = read_single(wire, tlv::CONTROL_PARAMETERS, "ControlParameters")?;
        Self::decode_value(e.value, e.value_at)
    }

    fn decode_value(value: &[u8], at: usize) -> Result<ControlParameters, DecodeError> {
        use tlv::*;
        let mut p = ControlParameters::default();
        let mut r = Reader::with_base(value, at);
        while !r.is_empty() {
            let e = r.read_element()?;
            let text = || String::from_utf8_lossy(e.value).into_owned();
            match e.typ {
                TLV_NAME if p.name.is_none() => p.name = Some(Name::from_component_wire(e.value)?),
                URI if p.uri.is_none() => p.uri = Some(text()),
                LOCAL_URI if p.local_uri.is_none() => p.local_uri = Some(text()),
                STRATEGY if p.strategy.is_none() => {
                    let name = e.reader().expect(TLV_NAME, "Strategy Name")?;
                    p.strategy = Some(Name::from_component_wire(name.value)?);
                }
                typ => {
                    if let Some(slot) = p.number_mut(typ) {
                        if slot.is_none() {
                            *slot = Some(e.nonneg()?);
                        }
                    }
                }
            }
        }
        Ok(p)
    }

    fn number_mut(&mut self, typ: u64) -> Option<&mut Option<u64>> {
        use tlv::*;
        Some(match typ {
            FACE_ID => &mut self.face_id,
            ORIGIN => &mut self.origin,
            COST => &mut self.cost,
            CAPACITY => &mut self.capacity,
            COUNT => &mut self.count,
            BASE_CONGESTION_MARKING_INTERVAL => &mut self.base_congestion_marking_interval,
            DEFAULT_CONGESTION_THRESHOLD => &mut self.default_congestion_threshold,
            MTU => &mut self.mtu,
            FLAGS => &mut self.flags,
            MASK => &mut self.mask,
            EXPIRATION_PERIOD => &mut self.expiration_period,
            FACE_PERSISTENCY => &mut self.face_persistency,
            _ => return None,
        })
    }
}

fn put(v: &mut Vec<u8>, (typ, n): (u64, Option<u64>)) {
    if let Some(n) = n {
        write_nonneg_tlv(v, typ, n);
    }
}

/// A command's answer: an HTTP-like status code, its text, and (on success) the parameters as
/// the forwarder applied them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ControlResponse {
    pub status_code: u64,
    pub status_text: String,
    pub body: Option<ControlParameters>,
}

impl ControlResponse {
    pub fn ok(body: ControlParameters) -> ControlResponse {
        ControlResponse { status_code: 200, status_text: "OK".into(), body: Some(body) }
    }

    pub fn error(status_code: u64, status_text: impl Into<String>) -> ControlResponse {
        ControlResponse { status_code, status_text: status_text.into(), body: None }
    }

    pub fn encode(&self) -> Vec<u8> {
        let mut v = Vec::new();
        write_nonneg_tlv(&mut v, tlv::STATUS_CODE, self.status_code);
        write_tlv(&mut v, tlv::STATUS_TEXT, self.status_text.as_bytes());
        if let Some(b) = &self.body {
            v.extend_from_slice(&b.encode());
        }
        let mut out = Vec::with_capacity(v.len() + 4);
        write_tl(&mut out, tlv::CONTROL_RESPONSE, v.len());
        out.extend_from_slice(&v);
        out
    }

    pub fn decode(wire: &[u8]) -> Result<ControlResponse, DecodeError> {
        let e = read_single(wire, tlv::CONTROL_RESPONSE, "ControlResponse")?;
        let mut r = e.reader();
        let status_code = r.expect(tlv::STATUS_CODE, "StatusCode")?.nonneg()?;
        let status_text = String::from_utf8_lossy(r.expect(tlv::STATUS_TEXT, "StatusText")?.value).into_owned();
        let mut body = None;
        while !r.is_empty() {
            let e = r.read_element()?;
            if e.typ == tlv::CONTROL_PARAMETERS && body.is_none() {
                body = Some(ControlParameters::decode_value(e.value, e.value_at)?);
            }
        }
        Ok(ControlResponse { status_code, status_text, body })
    }
}

/// The first components of every local command name.
pub const LOCALHOST_NFD: [&str; 2] = ["localhost", "nfd"];

/// `/localhost/nfd/<module>/<verb>/<ControlParameters>`: a command's name before its signature
/// components (python-ndn's `make_command_v2`, ndn-cxx's `ControlCommand::getRequestName`).
pub fn command_name(module: &str, verb: &str, params: &ControlParameters) -> Name {
    let parts = [LOCALHOST_NFD[0], LOCALHOST_NFD[1], module, verb];
    let generic = ndnflow_core::name::component_type::GENERIC;
    let params = params.encode();
    Name::from_components(parts.iter().map(|p| (generic, p.as_bytes())).chain([(generic, &params[..])]))
}

/// A complete signed command Interest's name in the form NFD has always accepted and python-ndn's
/// `make_command` still sends (the NDN "Signed Interest" v0.2 form): the command name, then a
/// timestamp (ms), a random 64-bit nonce, a SignatureInfo of type DigestSha256, and a
/// SignatureValue, the SHA-256 of the components before it.
pub fn signed_command_name(
    module: &str,
    verb: &str,
    params: &ControlParameters,
    timestamp_ms: u64,
    nonce: u64,
) -> Name {
    use sha2::{Digest, Sha256};
    let generic = ndnflow_core::name::component_type::GENERIC;
    let mut sig_info = Vec::new();
    write_tlv(
        &mut sig_info,
        22,
        &[27, 1, ndnflow_core::packet::data::SIGNATURE_DIGEST_SHA256 as u8], // SignatureType 0
    );
    let unsigned = command_name(module, verb, params)
        .append(generic, &timestamp_ms.to_be_bytes())
        .append(generic, &nonce.to_be_bytes())
        .append(generic, &sig_info);
    let digest = Sha256::digest(unsigned.component_wire());
    let mut sig_value = Vec::new();
    write_tlv(&mut sig_value, 23, &digest);
    unsigned.append(generic, &sig_value)
}

/// A command read from an Interest's name: module, verb and parameters. `None` when the name is
/// not under /localhost/nfd or has no verb; an error when its parameters do not decode.
pub fn parse_command(name: &Name) -> Option<Result<(String, String, ControlParameters), DecodeError>> {
    let word = |i: usize| name.get(i).map(|c| String::from_utf8_lossy(c.value).into_owned());
    if word(0)? != LOCALHOST_NFD[0] || word(1)? != LOCALHOST_NFD[1] {
        return None;
    }
    let (module, verb) = (word(2)?, word(3)?);
    let params = match name.get(4) {
        Some(c) => ControlParameters::decode(c.value),
        None => Ok(ControlParameters::default()),
    };
    Some(params.map(|p| (module, verb, p)))
}

/// Bytes of the Data content a response makes.
pub fn response_content(response: &ControlResponse) -> Bytes {
    Bytes::from(response.encode())
}

#[cfg(test)]
#[path = "control_tests.rs"]
mod tests;
