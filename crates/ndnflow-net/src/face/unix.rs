//! Unix stream faces for local applications, after NFD's UnixStreamChannel (NFD
//! daemon/face/unix-stream-channel.cpp): a listener at a path, and a face of kind `App` (NFD's
//! local scope) per connection, framed and served by `stream`.

use std::io;
use std::path::Path;

use tokio::net::{UnixListener, UnixStream};
use tokio::sync::mpsc;
use tokio::task::JoinSet;

use crate::daemon::Event;

pub use super::stream::{TlvFramer, TooLarge, WRITE_QUEUE};

/// Binds a listener at `path`, making its directory. A socket file left by a daemon that died is
/// replaced (NFD's UnixStreamChannel does the same); one a live daemon answers on, or a file that
/// is not a socket, is an error.
pub async fn bind(path: &Path) -> io::Result<UnixListener> {
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir)?;
    }
    if let Ok(meta) = std::fs::symlink_metadata(path) {
        use std::os::unix::fs::FileTypeExt;
        if !meta.file_type().is_socket() {
            let msg = format!("{} exists and is not a socket", path.display());
            return Err(io::Error::new(io::ErrorKind::AlreadyExists, msg));
        }
        if UnixStream::connect(path).await.is_ok() {
            let msg = format!("another process is listening on {}", path.display());
            return Err(io::Error::new(io::ErrorKind::AddrInUse, msg));
        }
        std::fs::remove_file(path)?;
    }
    UnixListener::bind(path)
}

/// Accepts connections on listener number `listener` and hands each to the daemon.
pub(crate) fn spawn_accept(
    tasks: &mut JoinSet<()>,
    socket: UnixListener,
    listener: usize,
    events: mpsc::Sender<Event>,
) {
    tasks.spawn(async move {
        loop {
            match socket.accept().await {
                Ok((stream, _)) => {
                    if events.send(Event::Accepted { listener, stream }).await.is_err() {
                        return; // the daemon has stopped
                    }
                }
                // EMFILE and the like: wait rather than spin, and go on accepting.
                Err(_) => tokio::time::sleep(std::time::Duration::from_millis(100)).await,
            }
        }
    });
}

/// Removes a listener's socket file when the daemon stops (a leftover would be replaced by the
/// next daemon anyway; this keeps the directory clean).
pub fn remove_socket(path: &Path) {
    let _ = std::fs::remove_file(path);
}
