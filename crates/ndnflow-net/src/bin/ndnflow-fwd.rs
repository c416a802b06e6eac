//! `ndnflow-fwd CONFIG.toml`: runs a forwarder daemon (docs/real-network.md) until SIGINT or
//! SIGTERM, then prints what it counted as JSON on standard output; SIGUSR1 prints the counters
//! so far on standard error (the management protocol's status datasets give them too, to
//! `nfdc`-like tools).

use std::path::PathBuf;
use std::process::ExitCode;

const USAGE: &str = "usage: ndnflow-fwd CONFIG.toml\n\nRuns an ndnflow forwarder on UDP, TCP and Unix sockets \
(docs/real-network.md). Stops on SIGINT or SIGTERM and prints its counters as JSON.";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let path = match args.as_slice() {
        [flag] if flag == "-h" || flag == "--help" => {
            println!("{USAGE}");
            return ExitCode::SUCCESS;
        }
        [path] => PathBuf::from(path),
        _ => {
            eprintln!("{USAGE}");
            return ExitCode::from(2);
        }
    };
    let config = match ndnflow_net::config::load(&path) {
        Ok(c) => c,
        Err(e) => {
            eprintln!("ndnflow-fwd: {e}");
            return ExitCode::from(2);
        }
    };
    let runtime = match tokio::runtime::Builder::new_current_thread().enable_all().build() {
        Ok(r) => r,
        Err(e) => {
            eprintln!("ndnflow-fwd: cannot start the runtime: {e}");
            return ExitCode::FAILURE;
        }
    };
    runtime.block_on(serve(config))
}

async fn serve(config: ndnflow_net::DaemonConfig) -> ExitCode {
    let signals = match ndnflow_net::shutdown_signals() {
        Ok(s) => s,
        Err(e) => {
            eprintln!("ndnflow-fwd: cannot install signal handlers: {e}");
            return ExitCode::FAILURE;
        }
    };
    // Before the sockets exist, so that no signal can find the default action (which ends the
    // process) once a client can see the daemon.
    let usr1 = tokio::signal::unix::signal(tokio::signal::unix::SignalKind::user_defined1());
    let daemon = match ndnflow_net::Daemon::bind(config).await {
        Ok(d) => d,
        Err(e) => {
            eprintln!("ndnflow-fwd: {e}");
            return ExitCode::FAILURE;
        }
    };
    eprintln!("ndnflow-fwd: listening on {}; SIGUSR1 prints the counters, SIGINT or SIGTERM stops", daemon.listening());
    match usr1 {
        Ok(usr1) => print_on_sigusr1(usr1, daemon.status()),
        Err(e) => eprintln!("ndnflow-fwd: no SIGUSR1 report: {e}"),
    }
    let report = daemon.run(signals).await;
    println!("{}", serde_json::to_string_pretty(&report.to_json()).unwrap_or_default());
    ExitCode::SUCCESS
}

/// Prints the daemon's counters as JSON on standard error at each SIGUSR1.
fn print_on_sigusr1(mut usr1: tokio::signal::unix::Signal, status: ndnflow_net::StatusHandle) {
    tokio::spawn(async move {
        while usr1.recv().await.is_some() {
            match status.report().await {
                Some(report) => eprintln!("{}", serde_json::to_string_pretty(&report.to_json()).unwrap_or_default()),
                None => return,
            }
        }
    });
}
