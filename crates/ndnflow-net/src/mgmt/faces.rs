//! faces/update and the faces/query dataset (NFD daemon/mgmt/face-manager.cpp, FaceManager's
//! `updateFace` and `queryFaces`; ndn-cxx mgmt/nfd/face-query-filter.cpp for the filter's fields).
//!
//! faces/update, as NFD answers it: the face is FaceId's, or the asking face's when FaceId is 0 or
//! absent; an unknown one is 404. Every asked change is checked before any is made; if one cannot
//! be made the answer is 409 with a body naming it, and nothing changes. Otherwise 200 with the
//! face's FaceId, FacePersistency and Flags.
//!
//! What can change, and where we differ from NFD:
//! - FacePersistency: any value on a TCP or UDP face (NFD's TcpTransport and unicast
//!   UdpTransport accept every change); on a Unix face none but its own (NFD's default
//!   Transport). A TCP face made permanent reconnects when its connection ends (`face::tcp`,
//!   `stream_closed`); a permanent one made otherwise while down closes, as NFD's does.
//! - Flags/Mask bit 2 (link reliability) on a UDP face turns its NDNLPv2 reliability on or off.
//!   Differences: turning it on is refused (409) on a stream face, which has no NDNLPv2 link
//!   service here (NFD's GenericLinkService would take it), and on a UDP face made with an Mtu
//!   (a reliable face here never fragments: `face::lp`).
//! - Mtu, congestion marking and local fields are not changed here (NFD ignores Mtu in update at
//!   the version read; the others are not built); the answer carries no congestion fields.

use ndnflow_core::packet::tlv::{read_single, DecodeError, Reader};
use ndnflow_core::table::FaceId;

use super::control::{tlv as cp, ControlParameters, ControlResponse};
use super::dataset::tlv;
use super::manager::{nfd_face_id, FLAG_CONGESTION_MARKING, FLAG_LP_RELIABILITY};
use crate::daemon::Daemon;
use crate::face::{Persistency, Transport};

/// FaceQueryFilter's TLV-TYPE (ndn-cxx tlv-nfd.hpp) and its UriScheme field.
const FACE_QUERY_FILTER: u64 = 0x96;
const URI_SCHEME: u64 = 0x83;

/// A faces/query filter: a face matches when it has every field present.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct FaceQueryFilter {
    pub face_id: Option<u64>,
    pub uri_scheme: Option<String>,
    pub uri: Option<String>,
    pub local_uri: Option<String>,
    pub face_scope: Option<u64>,
    pub face_persistency: Option<u64>,
    pub link_type: Option<u64>,
}

impl FaceQueryFilter {
    /// Decodes the filter TLV that spans `wire`; unknown fields are skipped, the first copy of a
    /// field counts.
    pub fn decode(wire: &[u8]) -> Result<FaceQueryFilter, DecodeError> {
        let e = read_single(wire, FACE_QUERY_FILTER, "FaceQueryFilter")?;
        let mut f = FaceQueryFilter::default();
        let mut r = Reader::with_base(e.value, e.value_at);
        while !r.is_empty() {
            let e = r.read_element()?;
            let text = || Some(String::from_utf8_lossy(e.value).into_owned());
            let slot = match e.typ {
                URI_SCHEME if f.uri_scheme.is_none() => {
                    f.uri_scheme = text();
                    continue;
                }
                cp::URI if f.uri.is_none() => {
                    f.uri = text();
                    continue;
                }
                cp::LOCAL_URI if f.local_uri.is_none() => {
                    f.local_uri = text();
                    continue;
                }
                cp::FACE_ID => &mut f.face_id,
                tlv::FACE_SCOPE => &mut f.face_scope,
                tlv::FACE_PERSISTENCY => &mut f.face_persistency,
                tlv::LINK_TYPE => &mut f.link_type,
                _ => continue,
            };
            if slot.is_none() {
                *slot = Some(e.nonneg()?);
            }
        }
        Ok(f)
    }
}

/// The scheme of a face URI (`udp4` of `udp4://...`).
fn scheme(uri: &str) -> &str {
    uri.split_once("://").map_or(uri, |(s, _)| s)
}

impl Daemon {
    /// The FaceStatus records of the live faces `filter_wire` (a FaceQueryFilter) matches; 400
    /// when it does not decode, as NFD rejects a malformed filter.
    pub(crate) fn faces_query(&self, filter_wire: &[u8]) -> Result<Vec<u8>, Box<ControlResponse>> {
        let filter = FaceQueryFilter::decode(filter_wire)
            .map_err(|e| Box::new(ControlResponse::error(400, format!("malformed filter: {e}"))))?;
        let mut out = Vec::new();
        for face in self.live_faces().filter(|&f| self.matches(&filter, f)) {
            self.face_status(&mut out, face);
        }
        Ok(out)
    }

    /// NFD's `matchFilter`: the scheme may be the remote URI's or the local one's.
    fn matches(&self, f: &FaceQueryFilter, face: FaceId) -> bool {
        let (uri, local) = self.face_uris(face);
        let schemes = [scheme(&uri), scheme(&local)];
        f.face_id.is_none_or(|id| id == nfd_face_id(face))
            && f.uri_scheme.as_deref().is_none_or(|s| schemes.contains(&s))
            && f.uri.as_deref().is_none_or(|u| u == uri)
            && f.local_uri.as_deref().is_none_or(|u| u == local)
            && f.face_scope.is_none_or(|s| s == self.face_scope(face))
            && f.face_persistency.is_none_or(|p| p == self.faces[face.index()].persistency.nfd())
            && f.link_type.is_none_or(|t| t == 0) // every face here is point-to-point
    }

    pub(super) fn faces_update(&mut self, asking: FaceId, p: ControlParameters) -> ControlResponse {
        let face = match p.face_id {
            None | Some(0) => Some(asking),
            Some(id) => self.live_face(id),
        };
        let Some(face) = face.filter(|f| self.faces.get(f.index()).is_some()) else {
            return ControlResponse::error(404, "Specified face does not exist");
        };
        let reliable = match (p.flags, p.mask) {
            (None, None) => None,
            (Some(flags), Some(mask)) => (mask & FLAG_LP_RELIABILITY != 0).then_some(flags & FLAG_LP_RELIABILITY != 0),
            _ => return ControlResponse::error(400, "Flags and Mask must come together"),
        };
        let persistency = match p.face_persistency.map(persistency_of).transpose() {
            Ok(persistency) => persistency,
            Err(e) => return *e,
        };
        let mut refused = self.refused_changes(face, persistency, reliable, p.mtu);
        if let (Some(flags), Some(mask)) = (p.flags, p.mask) {
            // Asking for congestion marking got 200 and nothing until 2026-11-28.
            if mask & flags & FLAG_CONGESTION_MARKING != 0 {
                refused.flags = Some(refused.flags.unwrap_or(0) | FLAG_CONGESTION_MARKING);
                refused.mask = Some(refused.mask.unwrap_or(0) | FLAG_CONGESTION_MARKING);
            }
        }
        if refused != ControlParameters::default() {
            let mut r = ControlResponse::error(409, "Invalid properties specified");
            r.body = Some(refused);
            return r;
        }
        if let Some(new) = persistency {
            self.set_persistency(face, new);
        }
        let f = &mut self.faces[face.index()];
        let ipv6 = matches!(f.transport, Transport::Udp(peer) if peer.is_ipv6());
        if let Some(lp) = f.lp.as_mut() {
            if let Some(on) = reliable {
                lp.set_reliable(on);
            }
            if let Some(mtu) = p.mtu {
                lp.set_mtu(u32::try_from(mtu).unwrap_or(u32::MAX), ipv6);
            }
        }
        ControlResponse::ok(ControlParameters {
            face_id: Some(nfd_face_id(face)),
            face_persistency: Some(self.faces[face.index()].persistency.nfd()),
            flags: Some(self.face_flags(face)),
            mtu: self.face_mtu(face).map(u64::from),
            ..Default::default()
        })
    }

    /// The asked changes that cannot be made, as NFD's 409 body names them (empty: none).
    fn refused_changes(
        &self,
        face: FaceId,
        persistency: Option<Persistency>,
        reliable: Option<bool>,
        mtu: Option<u64>,
    ) -> ControlParameters {
        let f = &self.faces[face.index()];
        let mut refused = ControlParameters::default();
        let changeable = matches!(f.transport, Transport::Udp(_)) || f.remote.starts_with("tcp");
        if let Some(new) = persistency.filter(|&new| new != f.persistency && !changeable) {
            refused.face_persistency = Some(new.nfd());
        }
        let ipv6 = matches!(f.transport, Transport::Udp(peer) if peer.is_ipv6());
        let can_be_reliable = f.lp.as_ref().is_some_and(|lp| lp.has_default_mtu(ipv6));
        if reliable == Some(true) && !can_be_reliable {
            (refused.flags, refused.mask) = (Some(FLAG_LP_RELIABILITY), Some(FLAG_LP_RELIABILITY));
        }
        // An MTU override needs a UDP face (a stream has no MTU: NFD's `canOverrideMtuTo` is false
        // for it), at least NFD's MIN_MTU of 64, and a face without reliability, as it is or as
        // this command leaves it (a reliable face here sends whole frames, `face::lp`).
        let reliable_after = reliable.unwrap_or_else(|| f.lp.as_ref().is_some_and(|lp| lp.reliable()));
        if let Some(m) = mtu.filter(|&m| f.lp.is_none() || m < 64 || reliable_after) {
            refused.mtu = Some(m);
        }
        refused
    }

    /// A permanent TCP face that is down and made otherwise closes: only a permanent face may be
    /// down (NFD TcpTransport::afterChangePersistency).
    fn set_persistency(&mut self, face: FaceId, new: Persistency) {
        let f = &mut self.faces[face.index()];
        let was = std::mem::replace(&mut f.persistency, new);
        let down = !self.forwarder.faces()[face.index()].up;
        if was == Persistency::Permanent && new != Persistency::Permanent && down && f.remote.starts_with("tcp") {
            self.close_face(face);
        }
    }
}

/// NFD's FacePersistency numbers: persistent 0, on-demand 1, permanent 2; others are 400.
fn persistency_of(n: u64) -> Result<Persistency, Box<ControlResponse>> {
    match n {
        0 => Ok(Persistency::Persistent),
        1 => Ok(Persistency::OnDemand),
        2 => Ok(Persistency::Permanent),
        n => Err(Box::new(ControlResponse::error(400, format!("FacePersistency {n} is none of 0, 1, 2")))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_filter_decodes_its_fields_and_skips_unknown_ones() {
        // 0x96, 16 bytes: FaceId 257 (69 02 01 01), UriScheme "udp4" (83 04 ...), FacePersistency
        // 2 (85 01 02), and a type the filter does not have, 0x99 (skipped): 4 + 6 + 3 + 3 = 16.
        let wire = [0x96, 16, 0x69, 2, 1, 1, 0x83, 4, b'u', b'd', b'p', b'4', 0x85, 1, 2, 0x99, 1, 0];
        let f = FaceQueryFilter::decode(&wire).unwrap();
        assert_eq!(f.face_id, Some(257));
        assert_eq!(f.uri_scheme.as_deref(), Some("udp4"));
        assert_eq!(f.face_persistency, Some(2));
        assert_eq!((f.uri, f.local_uri, f.face_scope, f.link_type), (None, None, None, None));
        assert!(FaceQueryFilter::decode(&[0x96, 3, 0x69, 9, 1]).is_err(), "a field past the end");
        assert!(FaceQueryFilter::decode(&[0x68, 0]).is_err(), "not a FaceQueryFilter");
        assert_eq!(FaceQueryFilter::decode(&[0x96, 0]).unwrap(), FaceQueryFilter::default());
    }

    #[test]
    fn persistency_numbers_are_nfds() {
        assert_eq!(persistency_of(2).unwrap(), Persistency::Permanent);
        assert_eq!(persistency_of(1).unwrap(), Persistency::OnDemand);
        assert_eq!(persistency_of(3).unwrap_err().status_code, 400);
    }
}
