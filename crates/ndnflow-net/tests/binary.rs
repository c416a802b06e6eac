//! The `ndnflow-fwd` executable: it starts from a file, stops on SIGTERM and SIGINT with its
//! counters as JSON on standard output, answers SIGUSR1 on standard error, and refuses a bad file
//! with exit status 2 and one line naming the field.

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

const BINARY: &str = env!("CARGO_BIN_EXE_ndnflow-fwd");

fn config(dir: &Path) -> PathBuf {
    let _ = std::fs::remove_dir_all(dir);
    std::fs::create_dir_all(dir).unwrap();
    let path = dir.join("fwd.toml");
    let text =
        format!("[listen]\nudp = \"127.0.0.1:0\"\ntcp = \"127.0.0.1:0\"\nunix = \"{}/app.sock\"\n", dir.display());
    std::fs::write(&path, text).unwrap();
    path
}

/// Starts the daemon and waits (at most 10 s) for its socket.
fn start(dir: &Path) -> Child {
    let child = Command::new(BINARY).arg(config(dir)).stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().unwrap();
    let deadline = Instant::now() + Duration::from_secs(10);
    while !dir.join("app.sock").exists() {
        assert!(Instant::now() < deadline, "the daemon did not start");
        std::thread::sleep(Duration::from_millis(10));
    }
    child
}

/// Sends SIGname through the shell's `kill` builtin (no `kill` executable needed).
fn signal(child: &Child, name: &str) {
    let status = Command::new("sh").arg("-c").arg(format!("kill -{name} {}", child.id())).status().unwrap();
    assert!(status.success());
}

/// Waits (at most 10 s) for the process to end; its exit code and output.
fn finish(mut child: Child) -> (Option<i32>, String, String) {
    let deadline = Instant::now() + Duration::from_secs(10);
    while child.try_wait().unwrap().is_none() {
        if Instant::now() > deadline {
            let _ = child.kill();
            panic!("the daemon did not stop");
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    let out = child.wait_with_output().unwrap();
    (out.status.code(), String::from_utf8_lossy(&out.stdout).into(), String::from_utf8_lossy(&out.stderr).into())
}

fn dir(test: &str) -> PathBuf {
    std::env::temp_dir().join(format!("ndnflow-fwd-{}-{test}", std::process::id()))
}

#[test]
fn sigterm_and_sigint_stop_it_with_the_counters_on_standard_output() {
    for name in ["TERM", "INT"] {
        let dir = dir(name);
        let child = start(&dir);
        signal(&child, name);
        let (code, out, err) = finish(child);
        assert_eq!(code, Some(0), "{err}");
        assert!(err.contains("listening on udp 127.0.0.1:"), "{err}");
        // Nothing came in: every counter of the forwarder is 0 and there is no face.
        let report: serde_json::Value = serde_json::from_str(&out).unwrap();
        assert_eq!(report["forwarder"]["in_interests"], 0);
        assert_eq!(report["faces"].as_array().map(Vec::len), Some(0));
        assert!(!dir.join("app.sock").exists(), "the socket is removed");
    }
}

#[test]
fn sigusr1_prints_the_counters_and_the_daemon_goes_on() {
    let dir = dir("usr1");
    let child = start(&dir);
    signal(&child, "USR1");
    std::thread::sleep(Duration::from_millis(200));
    assert!(dir.join("app.sock").exists(), "still running");
    signal(&child, "TERM");
    let (code, _, err) = finish(child);
    assert_eq!(code, Some(0));
    assert!(err.contains("\"forwarder\""), "the report on standard error: {err}");
}

#[test]
fn a_bad_file_is_one_line_naming_the_field_and_status_2() {
    let dir = dir("bad");
    let _ = std::fs::create_dir_all(&dir);
    let path = dir.join("bad.toml");
    std::fs::write(&path, "pit_capacity = 0\n").unwrap();
    let out = Command::new(BINARY).arg(&path).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(
        err,
        format!(
            "ndnflow-fwd: {}:1: pit_capacity: must be at least 1 (a forwarder with no PIT forwards nothing)\n",
            path.display()
        )
    );
    let usage = Command::new(BINARY).output().unwrap();
    assert_eq!(usage.status.code(), Some(2), "no argument: the usage, status 2");
}
