//! What the management tests share: signed commands and their replies, status datasets and
//! their records.

use ndnflow_core::packet::tlv::Reader;
use ndnflow_core::packet::{Data, Frame, Interest, NetPacket};
use ndnflow_core::{Name, Time};
use ndnflow_net::mgmt::control::{signed_command_name, ControlParameters, ControlResponse};
use ndnflow_net::sign::verify_digest_sha256;

use super::App;

/// Sends one command on `app` and reads its response (which must be a DigestSha256-signed Data).
pub async fn command(
    app: &mut App,
    module: &str,
    verb: &str,
    params: ControlParameters,
    nonce: u32,
) -> ControlResponse {
    let name = signed_command_name(module, verb, &params, 1_700_000_000_000 + nonce as u64, nonce as u64);
    app.send(&Interest::new(name.clone(), nonce, Time::from_secs(1)).encode()).await;
    let wire = app.recv_bytes().await.expect("a reply");
    let data = data_of(&wire);
    assert_eq!(data.name, name, "the reply answers the command's own name");
    ControlResponse::decode(&data.content).unwrap()
}

/// The Data inside `wire` (a bare Data or an LpPacket around one); its signature must verify.
pub fn data_of(wire: &[u8]) -> Data {
    let frame = Frame::decode(wire).unwrap();
    let NetPacket::Data(d) = frame.packet else { panic!("expected a Data, got {:?}", frame.packet) };
    assert!(verify_digest_sha256(&d.encode()), "DigestSha256 must verify");
    (*d).clone()
}

/// Segment 0 of a dataset; (its content, its FinalBlockId).
pub async fn dataset(app: &mut App, module: &str, verb: &str, nonce: u32) -> (Vec<u8>, Option<u64>) {
    let name = Name::parse(&format!("/localhost/nfd/{module}/{verb}")).unwrap();
    let mut i = Interest::new(name, nonce, Time::from_secs(1));
    i.can_be_prefix = true;
    i.must_be_fresh = true;
    app.send(&i.encode()).await;
    let d = data_of(&app.recv_bytes().await.expect("a dataset segment"));
    (d.content.to_vec(), d.final_segment())
}

/// The records of a dataset: for each, its fields as (type, value).
pub fn records(content: &[u8]) -> Vec<Vec<(u64, Vec<u8>)>> {
    let mut r = Reader::new(content);
    let mut out = Vec::new();
    while !r.is_empty() {
        let rec = r.read_element().unwrap();
        let mut fields = Vec::new();
        let mut f = rec.reader();
        while !f.is_empty() {
            let e = f.read_element().unwrap();
            fields.push((e.typ, e.value.to_vec()));
        }
        out.push(fields);
    }
    out
}

pub fn prefix(s: &str) -> ControlParameters {
    ControlParameters { name: Some(Name::parse(s).unwrap()), ..Default::default() }
}
