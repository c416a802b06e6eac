//! `ndnflow serve PREFIX FILE`: publishes a file as segmented, signed Data, after ndn-tools'
//! ndnputchunks (ndn-tools tools/chunks/putchunks/producer.cpp, main.cpp): the file is cut into
//! payloads of at most `segment_size` bytes (ndnputchunks' `--size` default, 8000), each a Data
//! named PREFIX/v=<version>/seg=N (NDN naming conventions rev3: a VersionNameComponent, type 0x36,
//! the publication time in milliseconds since 1970 unless PREFIX ends in a version already, and
//! a SegmentNameComponent, type 0x32), with FreshnessPeriod (ndnputchunks' default, 10 s),
//! FinalBlockId on every segment, and a DigestSha256 signature (`crate::sign`), or with
//! `--key FILE` a SignatureSha256WithEcdsa one (`crate::ecdsa`), whose self-signed certificate is
//! then served too when the key's name falls under PREFIX (as it does by default:
//! PREFIX/KEY/<key-id>). An empty file is one empty segment, as ndnputchunks publishes.
//!
//! What is answered, as ndnputchunks answers it:
//! - PREFIX/32=metadata with CanBePrefix: RDR metadata naming the versioned prefix (`rdr`), made
//!   and signed at each request, as `MetadataObject::makeData` is; without CanBePrefix, a Nack;
//! - PREFIX/v=<version>/seg=N: segment N;
//! - any Interest that segment 0's Data satisfies (PREFIX or PREFIX/v=<version> with
//!   CanBePrefix): segment 0, "unspecified version or segment number";
//! - anything else under PREFIX (past the last segment, another version, a longer name): a Nack
//!   with reason None, as ndnputchunks answers what it cannot satisfy.
//!
//! The unversioned prefix is registered as ndnputchunks registers it, with NFD's `rib/register`
//! command (`register`, the daemon's management, `crate::mgmt`), and serving starts once the
//! forwarder has answered 200.
//!
//! The segments are made and signed once, at the start, and kept encoded: an Interest costs a
//! lookup and a write. The whole file is then in memory (its size plus about 60 bytes a segment).

use std::borrow::Cow;
use std::future::Future;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use bytes::Bytes;
use ndnflow_core::name::component_type::SEGMENT;
use ndnflow_core::packet::{Data, Frame, Interest, Nack, NackReason, NetPacket};
use ndnflow_core::{Name, Time};

use super::client::{Client, Received};
use super::rdr;
use super::{sleep_until, AppError};
use crate::ecdsa::EcdsaKey;
use crate::face::udp::MAX_PACKET_SIZE;
use crate::files::ReadRefused;
use crate::mgmt::control::{signed_command_name, ControlParameters, ControlResponse};

/// ndnputchunks' `--size` default (Producer::Options::maxSegmentSize), bytes of content a Data.
pub const DEFAULT_SEGMENT_SIZE: usize = 8000;
/// ndnputchunks' `--freshness` default (Producer::Options::freshnessPeriod), 10 s.
pub const DEFAULT_FRESHNESS: Time = Time::from_secs(10);

/// What `serve` is asked to do.
#[derive(Clone, Debug)]
pub struct ServeOptions {
    pub prefix: Name,
    pub file: PathBuf,
    /// The forwarder's Unix socket.
    pub socket: PathBuf,
    pub segment_size: usize,
    /// FreshnessPeriod of every Data; `None` leaves it out (0 in ndnputchunks' terms is "stale at
    /// once", which is a FreshnessPeriod of 0, not its absence).
    pub freshness: Option<Time>,
    /// Register the prefix with `rib/register` before serving (false: the forwarder's
    /// configuration routes the prefix to this socket).
    pub register: bool,
    /// `--key`: a P-256 private key in PEM to sign with (ECDSA); `None`: DigestSha256.
    pub key: Option<PathBuf>,
    /// `--key-name`: the key's name, `<identity>/KEY/<key-id>`; `None`: PREFIX/KEY/<key-id>.
    pub key_name: Option<Name>,
}

/// A file's segments, encoded and signed, and the signing key's certificate when served.
pub struct Segments {
    /// The prefix registered: PREFIX without its version.
    prefix: Name,
    /// PREFIX/v=<version>: the segments' prefix.
    versioned: Name,
    /// PREFIX/32=metadata: the name a version discovery asks for.
    discovery: Name,
    packets: Vec<Vec<u8>>,
    bytes: u64,
    certificate: Option<Certificate>,
    /// Signs the metadata Data made at each discovery (`None`: DigestSha256).
    key: Option<EcdsaKey>,
}

/// A signing key's certificate as `serve` answers it.
struct Certificate {
    /// The key's name: an Interest under it asks for the certificate.
    key: Name,
    name: Name,
    wire: Vec<u8>,
}

/// The largest file `serve` takes, in bytes (2 GiB). The file is held in memory twice, as read and
/// as its signed segments, so past this a mistake such as `serve /ndn/x /dev/zero` would read
/// until the machine runs out of memory instead of stopping with an error.
pub const MAX_FILE_BYTES: u64 = 1 << 31;

impl Segments {
    /// Cuts `content` into Data of at most `size` bytes each under `prefix`/v=<now in ms> (or
    /// under `prefix` itself when it ends in a version). An error when `size` is 0 or a packet
    /// would exceed the 8800 bytes a face takes (ndn-cxx MAX_NDN_PACKET_SIZE).
    pub fn new(prefix: &Name, content: &[u8], size: usize, freshness: Option<Time>) -> Result<Segments, AppError> {
        Segments::signed(prefix, content, size, freshness, None)
    }

    /// `new`, signed with `key` (ECDSA) when given, DigestSha256 otherwise. With a key whose name
    /// is under `prefix`, its self-signed certificate (made now) is answered too.
    pub fn signed(
        prefix: &Name,
        content: &[u8],
        size: usize,
        freshness: Option<Time>,
        key: Option<&EcdsaKey>,
    ) -> Result<Segments, AppError> {
        if size == 0 {
            return Err(AppError::Usage("--segment-size: must be at least 1 byte".into()));
        }
        super::check_name_fits(prefix, "PREFIX")?;
        let versioned = if rdr::has_version(prefix) { prefix.clone() } else { prefix.append_version(unix_millis()) };
        let prefix = rdr::unversioned(prefix);
        let count = content.len().div_ceil(size).max(1) as u64;
        let last = segment_value(count - 1);
        // A Data with no payload at all past the limit is the prefix's doing, not the segments'.
        let mut empty = Data::new(versioned.append_segment(count - 1), Bytes::new());
        empty.freshness_period = freshness;
        empty.final_block_id = Some((SEGMENT, last.clone()));
        let bare = sign(empty, key).len();
        if bare + usize::from(!content.is_empty()) > MAX_PACKET_SIZE {
            let msg = format!(
                "PREFIX: {} bytes of name make Data of {bare} bytes before any payload, above the {MAX_PACKET_SIZE} bytes a face carries",
                prefix.component_wire().len()
            );
            return Err(AppError::Usage(msg));
        }
        let mut packets = Vec::with_capacity(count as usize);
        for seg in 0..count {
            let start = (seg as usize * size).min(content.len());
            let end = (start + size).min(content.len());
            let mut data = Data::new(versioned.append_segment(seg), Bytes::copy_from_slice(&content[start..end]));
            data.freshness_period = freshness;
            data.final_block_id = Some((SEGMENT, last.clone()));
            let wire = sign(data, key);
            if wire.len() > MAX_PACKET_SIZE {
                let msg = format!(
                    "--segment-size: {size}-byte segments make {}-byte Data under {versioned}, above the {MAX_PACKET_SIZE} bytes a face carries",
                    wire.len()
                );
                return Err(AppError::Usage(msg));
            }
            packets.push(wire);
        }
        let certificate = key.filter(|k| prefix.is_prefix_of(k.name())).map(|k| {
            let since_1970 = SystemTime::now().duration_since(UNIX_EPOCH).unwrap_or_default();
            let cert = k.certificate(since_1970.as_millis() as u64, since_1970.as_secs() as i64);
            Certificate { key: k.name().clone(), name: cert.name.clone(), wire: cert.encode() }
        });
        Ok(Segments {
            discovery: rdr::discovery_name(&prefix),
            prefix,
            versioned,
            packets,
            bytes: content.len() as u64,
            certificate,
            key: key.cloned(),
        })
    }

    /// Reads `options.file` (and `options.key`) and segments it.
    pub fn load(options: &ServeOptions) -> Result<Segments, AppError> {
        let content = crate::files::read_capped(&options.file, MAX_FILE_BYTES).map_err(|e| match e {
            ReadRefused::Io(e) => AppError::Io(format!("cannot read {}: {e}", options.file.display())),
            ReadRefused::TooLarge { cap } => AppError::Usage(format!(
                "{}: more than {cap} bytes; serve publishes at most {cap} bytes (it holds the file in memory twice)",
                options.file.display()
            )),
        })?;
        // The key's default name is under the prefix as registered, without its version.
        let identity = rdr::unversioned(&options.prefix);
        let key = match &options.key {
            Some(path) => Some(
                EcdsaKey::load(path, &identity, options.key_name.clone())
                    .map_err(|e| AppError::Usage(format!("--key: {e}")))?,
            ),
            None => None,
        };
        Segments::signed(&options.prefix, &content, options.segment_size, options.freshness, key.as_ref())
    }

    pub fn len(&self) -> usize {
        self.packets.len()
    }
    pub fn is_empty(&self) -> bool {
        self.packets.is_empty()
    }
    /// Bytes of the file.
    pub fn content_bytes(&self) -> u64 {
        self.bytes
    }
    /// The prefix registered: PREFIX without a version.
    pub fn prefix(&self) -> &Name {
        &self.prefix
    }
    /// PREFIX/v=<version>, under which the segments are named.
    pub fn versioned_prefix(&self) -> &Name {
        &self.versioned
    }
    /// Segment `n`'s encoded Data.
    pub fn packet(&self, n: usize) -> Option<&[u8]> {
        self.packets.get(n).map(Vec::as_slice)
    }

    /// The signing key's certificate, when served: its name and its encoding.
    pub fn certificate(&self) -> Option<(&Name, &[u8])> {
        self.certificate.as_ref().map(|c| (&c.name, c.wire.as_slice()))
    }

    /// The Data that answers `interest`: the certificate for an Interest under the key's name
    /// that names it, or a prefix of it with CanBePrefix (as a validator asks by KeyLocator);
    /// fresh metadata for a discovery (PREFIX/32=metadata with CanBePrefix); `answer`'s segment;
    /// or segment 0 for an Interest its Data satisfies (PREFIX or PREFIX/v=<version> with
    /// CanBePrefix: ndnputchunks' "unspecified version or segment number").
    pub fn answer_interest(&self, interest: &Interest) -> Option<Cow<'_, [u8]>> {
        let name = &interest.name;
        let asks = |c: &&Certificate| {
            c.key.is_prefix_of(name) && (*name == c.name || interest.can_be_prefix && name.is_prefix_of(&c.name))
        };
        if let Some(c) = self.certificate.as_ref().filter(asks) {
            return Some(Cow::Borrowed(&c.wire));
        }
        if *name == self.discovery {
            return interest.can_be_prefix.then(|| Cow::Owned(self.metadata(name)));
        }
        if let Some(segment) = self.answer(name) {
            return Some(Cow::Borrowed(segment));
        }
        let first = self.versioned.append_segment(0);
        let satisfied = *name == first || interest.can_be_prefix && name.is_prefix_of(&first);
        satisfied.then(|| Cow::Borrowed(self.packets[0].as_slice()))
    }

    /// The segment that answers an Interest for `name`: exactly PREFIX/v=<version>/seg=N with N
    /// a segment.
    pub fn answer(&self, name: &Name) -> Option<&[u8]> {
        if name.len() != self.versioned.len() + 1 || !self.versioned.is_prefix_of(name) {
            return None;
        }
        let seg = name.last()?.as_segment()?;
        self.packets.get(usize::try_from(seg).ok()?).map(Vec::as_slice)
    }

    /// RDR metadata for a discovery Interest named `name`, versioned now and signed as the
    /// segments are.
    fn metadata(&self, name: &Name) -> Vec<u8> {
        sign(rdr::metadata_data(name, &self.versioned, unix_millis()), self.key.as_ref())
    }
}

/// `data` signed with `key` (ECDSA) or DigestSha256, encoded.
fn sign(mut data: Data, key: Option<&EcdsaKey>) -> Vec<u8> {
    match key {
        Some(key) => key.sign(&mut data),
        None => crate::sign::sign_digest_sha256(&mut data),
    }
    data.encode()
}

/// Milliseconds since 1970: ndn-cxx's `Name::appendVersion()` without an argument.
fn unix_millis() -> u64 {
    SystemTime::now().duration_since(UNIX_EPOCH).unwrap_or_default().as_millis() as u64
}

/// A segment number as a FinalBlockId component's value (NonNegativeInteger).
fn segment_value(n: u64) -> Bytes {
    let mut value = Vec::new();
    ndnflow_core::packet::tlv::write_nonneg(&mut value, n);
    value.into()
}

/// What a serve counted.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ServeReport {
    pub interests: u64,
    pub data_sent: u64,
    pub nacks_sent: u64,
    /// Elements from the forwarder that did not decode.
    pub malformed: u64,
}

impl ServeReport {
    pub fn to_json(&self) -> serde_json::Value {
        serde_json::json!({
            "interests": self.interests, "data_sent": self.data_sent, "nacks_sent": self.nacks_sent,
            "malformed": self.malformed,
        })
    }
}

/// How long `register` waits for the forwarder's answer: ndn-cxx's default command timeout
/// (nfd::CommandOptions, 10 s), also the command Interest's lifetime.
pub const REGISTER_TIMEOUT: Duration = Duration::from_secs(10);

/// Registers `segments`' prefix on the face of `client` with NFD's `rib/register` (FaceId 0, the
/// face asking; origin app, cost 0, NFD's defaults), and waits for the ControlResponse: the
/// route as applied when the status is 200, an error naming the status otherwise, or when no
/// answer comes within `wait` (a forwarder without management) or a Nack does. Interests that
/// come meanwhile are answered.
pub async fn register(
    client: &mut Client,
    segments: &Segments,
    wait: Duration,
    report: &mut ServeReport,
) -> Result<ControlParameters, AppError> {
    let prefix = segments.prefix();
    let params = ControlParameters { name: Some(prefix.clone()), ..Default::default() };
    let since_1970 = SystemTime::now().duration_since(UNIX_EPOCH).unwrap_or_default();
    let nonce = since_1970.as_nanos() as u64 ^ u64::from(std::process::id());
    let name = signed_command_name("rib", "register", &params, since_1970.as_millis() as u64, nonce);
    let lifetime = Time::from_nanos(wait.as_nanos().min(u128::from(u64::MAX)) as u64);
    let interest = Frame::interest(Arc::new(Interest::new(name.clone(), nonce as u32, lifetime)));
    let wire = interest.encode();
    if wire.len() > MAX_PACKET_SIZE {
        // The command's name holds the prefix (in its ControlParameters) and about 100 bytes of
        // management prefix, timestamp, nonce and signature besides.
        let msg = format!(
            "PREFIX: its rib/register command is a {}-byte Interest, above the {MAX_PACKET_SIZE} bytes a face carries (a shorter prefix, or --no-register)",
            wire.len()
        );
        return Err(AppError::Usage(msg));
    }
    send(client, &wire).await?;
    let deadline = Instant::now() + wait;
    let at = client.path().display().to_string();
    let failed = |why: String| AppError::Failed(format!("rib/register {prefix} at {at}: {why}"));
    loop {
        let received = tokio::select! {
            r = client.recv() => r?,
            _ = sleep_until(Some(deadline)) => {
                let why = format!("no answer in {} s (a forwarder without NFD's management?)", wait.as_secs_f64());
                return Err(failed(why));
            }
        };
        match received {
            Received::Frame(Frame { packet: NetPacket::Data(d), .. }) if d.name == name => {
                let response = ControlResponse::decode(&d.content)
                    .map_err(|e| failed(format!("the answer is no ControlResponse: {e}")))?;
                return match (response.status_code, response.body) {
                    (200, Some(route)) => Ok(route),
                    (code, _) => Err(failed(format!("refused, {code} {}", response.status_text))),
                };
            }
            Received::Frame(Frame { packet: NetPacket::Nack(n), .. }) if n.interest.name == name => {
                return Err(failed(format!("Nack ({})", n.reason.as_str())));
            }
            received => handle(client, segments, received, report).await?,
        }
    }
}

/// Answers Interests from the forwarder at `client` with `segments` until `shutdown` completes;
/// an error if the forwarder closes the connection first.
pub async fn serve(
    client: &mut Client,
    segments: &Segments,
    report: &mut ServeReport,
    shutdown: impl Future<Output = ()>,
) -> Result<(), AppError> {
    tokio::pin!(shutdown);
    loop {
        let received = tokio::select! {
            _ = &mut shutdown => return Ok(()),
            r = client.recv() => r?,
        };
        handle(client, segments, received, report).await?;
    }
}

/// What a producer does with what it receives: Data for an Interest it can answer, a Nack for
/// one under its prefix it cannot; Data and Nacks it did not ask for are ignored.
async fn handle(
    client: &mut Client,
    segments: &Segments,
    received: Received,
    report: &mut ServeReport,
) -> Result<(), AppError> {
    let (interest, echo) = match received {
        Received::Frame(Frame { packet: NetPacket::Interest(i), lp, .. }) => (i, lp.flags & ECHOED_FLAGS),
        Received::Frame(_) => return Ok(()),
        Received::Malformed => {
            report.malformed += 1;
            return Ok(());
        }
        Received::Closed => {
            let msg = format!("the forwarder at {} closed the connection", client.path().display());
            return Err(AppError::Failed(msg));
        }
    };
    report.interests += 1;
    match segments.answer_interest(&interest) {
        Some(data) if echo == 0 => {
            report.data_sent += 1;
            send(client, &data).await
        }
        Some(data) => {
            // The simulator's producer echoes these flags (app/producer.rs): a PTP probe gets a
            // probing Data, whose empty tag stack the routers on the way back fill; a MIRCC
            // Interest's class is its Data's. Without the echo a PTP consumer finds no path.
            let mut frame = Frame::decode(&data).map_err(|e| AppError::Failed(format!("a stored segment: {e}")))?;
            frame.lp.flags |= echo;
            report.data_sent += 1;
            send(client, &frame.encode()).await
        }
        None if segments.prefix.is_prefix_of(&interest.name) => {
            report.nacks_sent += 1;
            let nack = Frame::nack(Arc::new(Nack { reason: NackReason::None, interest }));
            send(client, &nack.encode()).await
        }
        None => Ok(()),
    }
}

/// The Interest's link-header flags its Data carries back, as the simulator's producer does.
const ECHOED_FLAGS: u64 = ndnflow_core::packet::lp::flags::PTP_PROBE | ndnflow_core::packet::lp::flags::MIRCC_SECONDARY;

async fn send(client: &mut Client, bytes: &[u8]) -> Result<(), AppError> {
    client.send(bytes).await.map_err(|e| AppError::Failed(format!("writing to {}: {e}", client.path().display())))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_prefix_too_long_for_any_data_is_blamed_not_the_segment_size() {
        // PREFIX of one L-byte component: the Data's name adds 4 (its TL) + 10 (the version, a
        // millisecond clock in 8 octets) + 3 (seg=0), MetaInfo with FinalBlockId 7, the empty
        // Content 2, SignatureInfo 5 and a 32-byte SignatureValue 34, the Name's and the Data's
        // TLs 4 each: L + 73 bytes before any payload. With L = 8740 that is 8813, above 8800,
        // while its Interests (L + 46) still fit. Until 2026-11-28 "--segment-size" was blamed,
        // although no segment size could help.
        let prefix = Name::parse(&format!("/{}", "a".repeat(8740))).unwrap();
        let e = Segments::new(&prefix, b"x", 8000, None).err().unwrap().to_string();
        assert_eq!(
            e,
            "PREFIX: 8744 bytes of name make Data of 8813 bytes before any payload, above the 8800 bytes a face carries"
        );
        let e = Segments::new(&Name::parse(&format!("/{}", "a".repeat(8755))).unwrap(), b"x", 8000, None);
        assert!(e.err().unwrap().to_string().starts_with("PREFIX: 8759 bytes of name make 8801-byte Interests"));
        // A prefix that leaves room for a payload still blames the segment size.
        let short = Name::parse(&format!("/{}", "a".repeat(8700))).unwrap();
        let e = Segments::new(&short, &[0; 100], 100, None).err().unwrap().to_string();
        assert!(e.starts_with("--segment-size: 100-byte segments make"), "{e}");
    }
}
