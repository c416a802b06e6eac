//! `ndnflow serve PREFIX FILE`: publishes a file as segmented, signed Data, after ndn-tools'
//! ndnputchunks (ndn-tools tools/chunks/putchunks/producer.cpp, main.cpp): the file is cut into
//! payloads of at most `segment_size` bytes (ndnputchunks' `--size` default, 8000), each a Data
//! named PREFIX/seg=N (NDN naming conventions rev3, a typed SegmentNameComponent, type 0x32), with
//! FreshnessPeriod (ndnputchunks' default, 10 s), FinalBlockId on every segment, and a
//! DigestSha256 signature (`crate::sign`). An empty file is one empty segment, as ndnputchunks publishes.
//!
//! Where it differs from ndnputchunks, to meet the simulator's consumer that `ndnflow get` runs:
//! no version component (ndnputchunks publishes PREFIX/v=<time>/seg=N and answers version
//! discovery; the simulator's consumer asks for NAME/seg=N directly), so an Interest is answered
//! only for exactly PREFIX/seg=N. Any other Interest under PREFIX (past the last segment, no
//! segment number, a longer name) gets a Nack with reason None, as ndnputchunks answers what it
//! cannot satisfy.
//!
//! The packets are made and signed once, at the start, and kept encoded: an Interest costs a
//! lookup and a write. The whole file is then in memory (its size plus about 60 bytes a segment).

use std::future::Future;
use std::path::PathBuf;
use std::sync::Arc;

use bytes::Bytes;
use ndnflow_core::name::component_type::SEGMENT;
use ndnflow_core::packet::{Data, Frame, Nack, NackReason, NetPacket};
use ndnflow_core::{Name, Time};

use super::client::{Client, Received};
use super::AppError;
use crate::face::udp::MAX_PACKET_SIZE;

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
}

/// A file's segments, encoded and signed.
pub struct Segments {
    prefix: Name,
    packets: Vec<Vec<u8>>,
    bytes: u64,
}

impl Segments {
    /// Cuts `content` into Data of at most `size` bytes each under `prefix`. An error when `size`
    /// is 0 or a packet would exceed the 8800 bytes a face takes (ndn-cxx MAX_NDN_PACKET_SIZE).
    pub fn new(prefix: &Name, content: &[u8], size: usize, freshness: Option<Time>) -> Result<Segments, AppError> {
        if size == 0 {
            return Err(AppError::Usage("--segment-size: must be at least 1 byte".into()));
        }
        let count = content.len().div_ceil(size).max(1) as u64;
        let last = segment_value(count - 1);
        let mut packets = Vec::with_capacity(count as usize);
        for seg in 0..count {
            let start = (seg as usize * size).min(content.len());
            let end = (start + size).min(content.len());
            let mut data = Data::new(prefix.append_segment(seg), Bytes::copy_from_slice(&content[start..end]));
            data.freshness_period = freshness;
            data.final_block_id = Some((SEGMENT, last.clone()));
            crate::sign::sign_digest_sha256(&mut data);
            let wire = data.encode();
            if wire.len() > MAX_PACKET_SIZE {
                let msg = format!(
                    "--segment-size: {size}-byte segments make {}-byte Data under {prefix}, above the {MAX_PACKET_SIZE} bytes a face carries",
                    wire.len()
                );
                return Err(AppError::Usage(msg));
            }
            packets.push(wire);
        }
        Ok(Segments { prefix: prefix.clone(), packets, bytes: content.len() as u64 })
    }

    /// Reads `options.file` and segments it.
    pub fn load(options: &ServeOptions) -> Result<Segments, AppError> {
        let content = std::fs::read(&options.file)
            .map_err(|e| AppError::Io(format!("cannot read {}: {e}", options.file.display())))?;
        Segments::new(&options.prefix, &content, options.segment_size, options.freshness)
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
    pub fn prefix(&self) -> &Name {
        &self.prefix
    }
    /// Segment `n`'s encoded Data.
    pub fn packet(&self, n: usize) -> Option<&[u8]> {
        self.packets.get(n).map(Vec::as_slice)
    }

    /// The Data that answers an Interest for `name`: exactly PREFIX/seg=N with N a segment.
    pub fn answer(&self, name: &Name) -> Option<&[u8]> {
        if name.len() != self.prefix.len() + 1 || !self.prefix.is_prefix_of(name) {
            return None;
        }
        let seg = name.last()?.as_segment()?;
        self.packets.get(usize::try_from(seg).ok()?).map(Vec::as_slice)
    }
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

/// Answers Interests from the forwarder at `client` with `segments` until `shutdown` completes;
/// an error if the forwarder closes the connection first.
pub async fn serve(
    client: &mut Client,
    segments: &Segments,
    shutdown: impl Future<Output = ()>,
) -> Result<ServeReport, AppError> {
    tokio::pin!(shutdown);
    let mut report = ServeReport::default();
    loop {
        let received = tokio::select! {
            _ = &mut shutdown => return Ok(report),
            r = client.recv() => r?,
        };
        let interest = match received {
            Received::Frame(Frame { packet: NetPacket::Interest(i), .. }) => i,
            Received::Frame(_) => continue, // Data or Nack: a producer asked for nothing
            Received::Malformed => {
                report.malformed += 1;
                continue;
            }
            Received::Closed => {
                let msg = format!("the forwarder at {} closed the connection", client.path().display());
                return Err(AppError::Failed(msg));
            }
        };
        report.interests += 1;
        let sent = match segments.answer(&interest.name) {
            Some(data) => {
                report.data_sent += 1;
                client.send(data).await
            }
            None if segments.prefix.is_prefix_of(&interest.name) => {
                report.nacks_sent += 1;
                let nack = Frame::nack(Arc::new(Nack { reason: NackReason::None, interest }));
                client.send(&nack.encode()).await
            }
            None => Ok(()),
        };
        sent.map_err(|e| AppError::Failed(format!("writing to {}: {e}", client.path().display())))?;
    }
}
