//! Local applications on a real forwarder: the client face they connect with (`client`), and the
//! two tools built on it, `ndnflow serve PREFIX FILE` (`serve`: segments a file into signed Data,
//! after ndn-tools' ndnputchunks) and `ndnflow get NAME` (`get`: the simulator's consumer, with
//! any of its controllers, run in real time, with ndncatchunks' summary). The served Data are
//! signed by `crate::sign` (DigestSha256). docs/real-network.md, "ndnflow get and serve".

pub mod client;
pub mod discover;
pub mod get;
pub mod get_trace;
pub mod rdr;
pub mod serve;
pub mod verify;

/// Why a tool stopped. The Python command maps `Usage` and `Connect` to exit status 2 (bad
/// input, no forwarder), `Failed` to 1 (the exchange itself went wrong).
#[derive(Debug, thiserror::Error)]
pub enum AppError {
    /// A bad option or name: the message names it.
    #[error("{0}")]
    Usage(String),
    /// No forwarder at the socket, or a file that cannot be read.
    #[error("{0}")]
    Io(String),
    /// The forwarder went away, refused a registration, or a segment could not be fetched.
    #[error("{0}")]
    Failed(String),
}

/// Refuses a NAME or PREFIX whose Interests could not cross a face: the largest one a tool sends
/// under it (a version and a segment number of 8 octets each, CanBePrefix, MustBeFresh, a Nonce
/// and a lifetime) must fit the 8800 bytes a face carries (ndn-cxx MAX_NDN_PACKET_SIZE). Such a
/// name was sent anyway, and the forwarder closed the connection, which the tools reported as the
/// forwarder's fault, until 2026-11-28. `what` names the argument ("NAME", "PREFIX").
pub(crate) fn check_name_fits(name: &ndnflow_core::Name, what: &str) -> Result<(), AppError> {
    use crate::face::udp::MAX_PACKET_SIZE;
    let longest = name.append_version(u64::MAX).append_segment(u64::MAX);
    let mut interest = ndnflow_core::Interest::new(longest, 0, ndnflow_core::Time::from_secs(4));
    interest.can_be_prefix = true;
    interest.must_be_fresh = true;
    let size = interest.wire_size();
    if size > MAX_PACKET_SIZE {
        let msg = format!(
            "{what}: {} bytes of name make {size}-byte Interests, above the {MAX_PACKET_SIZE} bytes a face carries",
            name.component_wire().len()
        );
        return Err(AppError::Usage(msg));
    }
    Ok(())
}

/// Completes at `deadline`, never when there is none.
pub(crate) async fn sleep_until(deadline: Option<std::time::Instant>) {
    match deadline {
        Some(at) => tokio::time::sleep_until(tokio::time::Instant::from_std(at)).await,
        None => std::future::pending().await,
    }
}

/// Runs `work(stop)` to its end on a current-thread runtime of its own in this thread, where
/// `stop` completes once `asked()` says so (asked every `period`): for a host that hears signals
/// its own way (the Python extension asks the interpreter), as `daemon::run_blocking` does.
pub fn block_on_until<'a, T, F>(
    period: std::time::Duration,
    mut asked: impl FnMut() -> bool + 'a,
    work: impl FnOnce(std::pin::Pin<Box<dyn std::future::Future<Output = ()> + 'a>>) -> F,
) -> Result<T, AppError>
where
    F: std::future::Future<Output = Result<T, AppError>>,
{
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| AppError::Io(format!("cannot start the runtime: {e}")))?;
    let stop = Box::pin(async move {
        let mut tick = tokio::time::interval(period);
        while !asked() {
            tick.tick().await;
        }
    });
    runtime.block_on(work(stop))
}
