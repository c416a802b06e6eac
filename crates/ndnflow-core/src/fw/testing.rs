//! Test helpers shared by the forwarder's tests and its extensions' tests: a two-face router and
//! one Interest-Data round trip through it.

use std::sync::Arc;

use super::{FaceKind, Forwarder, ForwarderConfig};
use crate::packet::{Data, Frame, Interest, LpHeader};
use crate::table::FaceId;
use crate::{Name, Time};

/// A router with two link faces (0 downstream, 1 upstream) and a route for /p via face 1.
pub fn router() -> Forwarder {
    let mut fw = Forwarder::new(ForwarderConfig::default(), 1);
    fw.add_face(FaceKind::Link);
    fw.add_face(FaceKind::Link);
    fw.fib.add_nexthop(&Name::parse("/p").unwrap(), FaceId(1), 1);
    fw
}

/// An Interest for /p/seg=`nonce` (one name per nonce, so none aggregates with another).
pub fn interest(nonce: u32, hop_limit: Option<u8>) -> Frame {
    let name = Name::parse("/p").unwrap().append_segment(nonce as u64);
    let mut i = Interest::new(name, nonce, Time::from_secs(2));
    i.hop_limit = hop_limit;
    Frame::interest(Arc::new(i))
}

/// The Data for /p/seg=`seg` (a one-octet payload) under the link header `lp`.
pub fn data(seg: u64, lp: LpHeader) -> Frame {
    let name = Name::parse("/p").unwrap().append_segment(seg);
    let mut d = Frame::data(Arc::new(Data::new(name, bytes::Bytes::from_static(b"x"))));
    d.lp = lp;
    d
}

/// `router()` built from `config` instead of the default one.
pub fn router_with(config: ForwarderConfig) -> Forwarder {
    let mut fw = Forwarder::new(config, 1);
    fw.add_face(FaceKind::Link);
    fw.add_face(FaceKind::Link);
    fw.fib.add_nexthop(&Name::parse("/p").unwrap(), FaceId(1), 1);
    fw
}

/// Sends the Interest for /p/seg=`seg` from face 0 (marked or not) and returns the Data frame
/// sent back to face 0 when face 1 answers with `data_lp`.
pub fn round_trip(fw: &mut Forwarder, seg: u32, interest_mark: u64, data_lp: LpHeader) -> Frame {
    let mut out = Vec::new();
    let mut i = interest(seg, None);
    i.lp.congestion_mark = interest_mark;
    fw.handle(Time::ZERO, FaceId(0), i, &mut out);
    let (face, sent) = out.pop().expect("forwarded");
    assert_eq!((face, sent.lp.congestion_mark), (FaceId(1), 0), "an Interest's mark goes no further");
    fw.handle(Time::from_millis(1), FaceId(1), data(seg as u64, data_lp), &mut out);
    let (face, back) = out.pop().expect("Data sent back");
    assert_eq!(face, FaceId(0));
    back
}
