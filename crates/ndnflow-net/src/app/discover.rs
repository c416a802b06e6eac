//! `ndnflow get`'s version discovery, as ndncatchunks discovers (ndn-tools
//! tools/chunks/catchunks/discover-version.cpp, and data-fetcher.cpp for its retries): before the
//! first segment, one Interest for NAME/32=metadata (CanBePrefix, MustBeFresh, the consumer's
//! lifetime) asks the producer which version to fetch (`rdr`). It is skipped when NAME already
//! ends in a version, or with `--no-version-discovery` (ndncatchunks' `-D`).
//!
//! Retries, as ndncatchunks' DataFetcher makes them, each with a new nonce: after a timeout; after
//! a Nack(Duplicate) at once; after a Nack(Congestion) once 2^k ms have passed (k the Congestion
//! Nacks so far, capped at 10 s). Our choice: DataFetcher's code sets its count back to 0 each
//! time it sends, so its wait stays at 1 ms; we keep the doubling the code is written for, since
//! a daemon whose PIT is full (`Forwarder::room_for_interest`) would otherwise be asked again
//! within the millisecond. Timeouts and Nacks are counted apart, and discovery fails when
//! either passes `max_retries`. Any other Nack (NoRoute, None) fails it at once, naming the
//! reason. The metadata's signature is checked only when asked (`get --verify`; ndncatchunks'
//! validator accepts every Data).

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::time::{Duration, Instant};

use ndnflow_core::packet::{Frame, Interest, NackReason, NetPacket};
use ndnflow_core::{Name, Time};

use super::client::{Client, Received};
use super::rdr::{discovery_name, versioned_name};
use super::verify::Verifier;
use super::{sleep_until, AppError};

/// The longest wait after a Nack(Congestion): DataFetcher's MAX_CONGESTION_BACKOFF_TIME, 10 s.
pub const MAX_CONGESTION_BACKOFF: Duration = Duration::from_secs(10);

/// What a discovery found.
#[derive(Clone, Debug, PartialEq)]
pub struct Discovered {
    /// The versioned name the metadata gave: the prefix of the segments fetched.
    pub versioned: Name,
    /// Discovery Interests sent (1 when the first was answered).
    pub interests: u32,
    /// From the first Interest to the metadata.
    pub elapsed: Duration,
}

/// How one discovery Interest ended.
enum Outcome {
    Data(Arc<ndnflow_core::packet::Data>),
    Nack(NackReason),
    Timeout,
}

/// How a discovery asks: the consumer's lifetime and retry limit (`None`: no limit), the seed its
/// nonces are drawn from, and the signature check the metadata must pass, if any.
pub struct Asking<'a> {
    pub lifetime: Time,
    pub max_retries: Option<u32>,
    pub seed: u64,
    pub verify: Option<&'a Verifier>,
}

/// Asks the forwarder at `client` for `prefix`'s metadata until it comes, a retry limit passes
/// or `shutdown` completes.
pub async fn discover_version(
    client: &mut Client,
    prefix: &Name,
    asking: Asking<'_>,
    mut shutdown: Pin<&mut impl Future<Output = ()>>,
) -> Result<Discovered, AppError> {
    let Asking { lifetime, max_retries, seed, verify } = asking;
    let name = discovery_name(prefix);
    let failed = |why: String| AppError::Failed(format!("version discovery of {prefix}: {why}"));
    let exceeded = |count: u32| max_retries.is_some_and(|m| count > m);
    let wait = Duration::from_nanos(lifetime.as_nanos());
    let start = Instant::now();
    let (mut sent, mut timeouts, mut nacks, mut congestion) = (0u32, 0u32, 0u32, 0u32);
    loop {
        let nonce = nonce(seed, sent);
        let mut interest = Interest::new(name.clone(), nonce, lifetime);
        interest.can_be_prefix = true;
        interest.must_be_fresh = true;
        let wire = Frame::interest(Arc::new(interest)).encode();
        client.send(&wire).await.map_err(|e| failed(format!("writing to {}: {e}", client.path().display())))?;
        sent += 1;
        let deadline = Instant::now() + wait;
        let outcome = loop {
            let received = tokio::select! {
                _ = shutdown.as_mut() => return Err(failed("interrupted".into())),
                _ = sleep_until(Some(deadline)) => break Outcome::Timeout,
                r = client.recv() => r?,
            };
            match received {
                Received::Frame(Frame { packet: NetPacket::Data(d), .. }) if name.is_prefix_of(&d.name) => {
                    break Outcome::Data(d)
                }
                Received::Frame(Frame { packet: NetPacket::Nack(n), .. })
                    if n.interest.name == name && n.interest.nonce == Some(nonce) =>
                {
                    break Outcome::Nack(n.reason)
                }
                Received::Closed => {
                    return Err(failed(format!("the forwarder at {} closed the connection", client.path().display())))
                }
                _ => {} // not ours, or malformed: the wait goes on
            }
        };
        match outcome {
            Outcome::Data(d) => {
                if let Some(why) = verify.and_then(|v| v.check(client.last_element()).err()) {
                    return Err(failed(format!("metadata {}: {why}", d.name)));
                }
                let versioned = versioned_name(&d).map_err(|e| failed(e.to_string()))?;
                return Ok(Discovered { versioned, interests: sent, elapsed: start.elapsed() });
            }
            Outcome::Timeout => {
                timeouts += 1;
                if exceeded(timeouts) {
                    let secs = wait.as_secs_f64();
                    return Err(failed(format!(
                        "no answer to {name} after {sent} Interest(s) of {secs} s (a producer without RDR \
                         metadata? --no-version-discovery fetches NAME/seg=N directly)"
                    )));
                }
            }
            Outcome::Nack(reason) => {
                nacks += 1;
                if exceeded(nacks) {
                    return Err(failed(format!("{nacks} Nacks for {name}, the last {}", reason.as_str())));
                }
                match reason {
                    NackReason::Duplicate => {}
                    NackReason::Congestion => {
                        let backoff = congestion_backoff(congestion);
                        congestion += 1;
                        tokio::select! {
                            _ = shutdown.as_mut() => return Err(failed("interrupted".into())),
                            _ = tokio::time::sleep(backoff) => {}
                        }
                    }
                    other => return Err(failed(format!("Nack ({}) for {name}", other.as_str()))),
                }
            }
        }
    }
}

/// The wait after the `k`-th Nack(Congestion) (from 0): 2^k ms, at most 10 s.
pub fn congestion_backoff(k: u32) -> Duration {
    Duration::from_millis(1u64.checked_shl(k).unwrap_or(u64::MAX)).min(MAX_CONGESTION_BACKOFF)
}

/// The `n`-th discovery Interest's nonce: SplitMix64 of the seed and `n`, so that a run's
/// nonces are reproduced by its seed and differ between Interests.
fn nonce(seed: u64, n: u32) -> u32 {
    let mut z = seed ^ 0x6469_7363_6f76_6572 ^ u64::from(n).wrapping_mul(0x9e37_79b9_7f4a_7c15); // "discover"
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    (z ^ (z >> 31)) as u32
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_congestion_backoff_doubles_from_1_ms_up_to_10_s() {
        let ms = |k| congestion_backoff(k).as_millis();
        assert_eq!((ms(0), ms(1), ms(3)), (1, 2, 8));
        // 2^13 = 8,192 ms is the last below 10 s; 2^14 = 16,384 is capped, as is 2^64.
        assert_eq!((ms(13), ms(14), ms(64)), (8_192, 10_000, 10_000));
    }

    #[test]
    fn nonces_differ_between_interests_and_follow_the_seed() {
        assert_ne!(nonce(1, 0), nonce(1, 1));
        assert_ne!(nonce(1, 0), nonce(2, 0));
        // A seed's first 16 retries (DataFetcher's 15 and the first Interest) never repeat a
        // nonce, which a forwarder would take for a loop.
        let first: std::collections::HashSet<u32> = (0..16).map(|n| nonce(7, n)).collect();
        assert_eq!(first.len(), 16);
    }
}
