"""`ndnflow fwd`, `ndnflow get` and `ndnflow serve`: the protocol code on real sockets, through the
native module's daemon and apps (docs/real-network.md). Kept apart from cli.py, which holds the
commands that run scenarios."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from ndnflow import _native, units

EXIT_OK = 0
EXIT_INTERNAL = 1


def _say(message: str) -> None:
    from ndnflow.cli import _say as say

    say(message)


def _one_line(message: str) -> str:
    from ndnflow.cli import _one_line as one_line

    return one_line(message)


def _usage_error(message: str) -> Exception:
    from ndnflow.cli import UsageError

    return UsageError(message)


def cmd_fwd(args: argparse.Namespace) -> int:
    """Runs the real-time daemon in this process; prints its counters as JSON when it stops."""
    report = _native.require("run_forwarder")(args.config)
    print(report)
    return EXIT_OK


#: `ndnflow get`'s options that are consumer-table keys (docs/scenario-format.md), as argparse
#: names them; their text goes to the scenario reader as written (ndnflow-net app/get.rs).
GET_CONSUMER_OPTIONS = ("cc", "segments", "lifetime", "max_retries", "rto", "in_flight", "send_jitter", "stop",
                        "batches")


def _check_output_option(output: str | None) -> None:
    """`get -o FILE`, checked before the fetch: a folder, or a file in a folder that does not exist,
    failed only once every segment had come, and the object was lost."""
    if not output or output == "-":
        return
    path = Path(output)
    if path.is_dir():
        raise _usage_error(f"-o {output}: a folder; give the file to write the object to")
    parent = path.parent
    if not parent.is_dir():
        raise _usage_error(f"-o {output}: {parent} is not a folder")


def cmd_get(args: argparse.Namespace) -> int:
    """Fetches NAME through a forwarder with the simulator's consumer; the object to -o or
    stdout, ndncatchunks' summary to stderr, and to --out the files a simulated run writes for
    its consumers (summary.json, consumers, interests and paths traces)."""
    get_object = _native.require("get_object")
    options = [(key, getattr(args, key)) for key in GET_CONSUMER_OPTIONS if getattr(args, key) is not None]
    from ndnflow.cli import _check_out_option, _check_seed_option, _duration_option

    _check_seed_option(args.seed)
    _check_out_option(args.out)
    _check_output_option(args.output)
    bin_ns = None if args.bin is None else round(units.parse_duration(_duration_option(args.bin, "--bin")) * 1e9)
    try:
        content, text, summary, traces = get_object(args.name, options, args.socket, args.seed, bin_ns,
                                                    not args.no_version_discovery, args.verify)
    except RuntimeError as exc:  # the exchange failed once started: not a usage error
        _say(f"error: {_one_line(str(exc))}")
        return EXIT_INTERNAL
    if args.out is not None:
        from ndnflow.results import Results

        Results.from_core({"summary": json.loads(summary), "traces": traces}).save(args.out, format=args.format)
    if not args.quiet:
        _say(text)
    if content is None:
        _say(f"error: {args.name}: {json.loads(summary)['get']['incomplete']}; nothing written")
        return EXIT_INTERNAL
    if args.output and args.output != "-":
        try:
            Path(args.output).write_bytes(content)
        except OSError as exc:  # checked before the fetch, so a full disk or a device's refusal
            _say(f"error: -o {args.output}: {exc.strerror or exc}; the object was not written")
            return EXIT_INTERNAL
    else:
        sys.stdout.buffer.write(content)
        sys.stdout.flush()
    return EXIT_OK


def cmd_serve(args: argparse.Namespace) -> int:
    """Publishes FILE under PREFIX through a forwarder until Ctrl-C or SIGTERM; prints what it
    counted as JSON when it stops."""
    serve_file = _native.require("serve_file")
    try:
        freshness_ms = round(units.parse_duration(args.freshness) * 1000)
    except ValueError as exc:
        raise _usage_error(f"--freshness: {exc}") from None
    if freshness_ms < 0:
        raise _usage_error(f"--freshness {args.freshness}: must not be negative")
    if args.key_name is not None and args.key is None:
        # It was ignored, and the Data signed with DigestSha256, until 2026-11-28.
        raise _usage_error("--key-name names the key given by --key; give --key FILE too")
    if not 1 <= args.segment_size <= 2**32 - 1:
        raise _usage_error(f"--segment-size {args.segment_size}: a segment holds from 1 to {2**32 - 1} bytes")
    try:
        report = serve_file(args.prefix, args.file, args.socket, args.segment_size, freshness_ms, not args.no_register,
                            args.key, args.key_name)
    except RuntimeError as exc:
        _say(f"error: {_one_line(str(exc))}")
        return EXIT_INTERNAL
    print(report)
    return EXIT_OK


def add_parsers(commands: argparse._SubParsersAction) -> None:
    """The subcommands `fwd`, `get` and `serve`."""
    fwd = commands.add_parser(
        "fwd",
        help="run a forwarder daemon on UDP, TCP and Unix sockets until Ctrl-C or SIGTERM (docs/real-network.md)")
    fwd.add_argument("config", metavar="CONFIG.toml", help="the daemon's configuration: listeners, faces, routes, "
                     "[forwarder] as a scenario node")
    fwd.set_defaults(handler=cmd_fwd)

    get = commands.add_parser(
        "get", help="fetch a named object through a forwarder with the simulator's consumer (docs/real-network.md)")
    get.add_argument("name", metavar="NAME", help="the object's name; its version is discovered (RDR metadata, as "
                     "ndncatchunks) and NAME/v=<version>/seg=0, 1, ... are asked for")
    get.add_argument("-D", "--no-version-discovery", dest="no_version_discovery", action="store_true",
                     help="ask for NAME/seg=0, 1, ... directly (ndncatchunks' -D); a NAME ending in a version "
                     "(v=N) is fetched without discovery too")
    get.add_argument("-o", "--output", metavar="FILE", help="write the object here (default: standard output)")
    get.add_argument("--verify", metavar="CHECK", help="check every Data's signature: 'digest' (DigestSha256) or a "
                     "P-256 key's PEM file, public or private (SignatureSha256WithEcdsa); a Data that fails ends the "
                     "fetch (default: none checked, as ndncatchunks)")
    get.add_argument("--socket", metavar="PATH", help="the forwarder's Unix socket (default: the daemon's, "
                     "$XDG_RUNTIME_DIR/ndnflow/ndnflow.sock or /run/ndnflow/ndnflow.sock)")
    get.add_argument("--cc", metavar="SPEC", help="the consumer's controller: an algorithm (aimd) or a scenario's "
                     "cc table ('{ algorithm = \"ptp\" }'); default ndncatchunks' CUBIC, "
                     "{ algorithm = \"cubic\", beta = 0.7, reno_friendly = true, "
                     "decrease_on_unmarked_nacks = true }")
    get.add_argument("--segments", metavar="N", help="segments to fetch (default: until FinalBlockId)")
    get.add_argument("--lifetime", metavar="TIME", help="InterestLifetime (default 2s, a scenario consumer's)")
    get.add_argument("--max-retries", dest="max_retries", metavar="N",
                     help="retransmissions of a segment before giving it up (default 15, ndncatchunks' --retries)")
    get.add_argument("--rto", metavar="TABLE", help="retransmission timer, e.g. '{ initial = \"1s\", min = \"200ms\" }'")
    get.add_argument("--in-flight", dest="in_flight", metavar="RULE", help="outstanding (default) or consumer-cc")
    get.add_argument("--send-jitter", dest="send_jitter", metavar="TIME", help="random delay before each send "
                     "(default 0)")
    get.add_argument("--stop", metavar="TIME", help="give up after this long (default: never)")
    get.add_argument("--batches", metavar="TEXT", help="ask for segments in batches, e.g. '1s 1 2s 5'")
    get.add_argument("--seed", type=int, metavar="N", help="seed of the nonces and the controller's draws "
                     "(default: from the clock, so that runs differ)")
    get.add_argument("--out", metavar="DIR", help="write summary.json and the consumer's traces here, as a "
                     "simulated run's (consumers, interests, paths)")
    get.add_argument("--format", choices=("parquet", "csv", "both"), default="parquet",
                     help="file format of the traces in --out (default parquet)")
    get.add_argument("--bin", metavar="TIME", help="the traces' time bin width (default 100ms, a scenario's)")
    get.add_argument("-q", "--quiet", action="store_true", help="print no summary")
    get.set_defaults(handler=cmd_get)

    srv = commands.add_parser(
        "serve", help="publish a file as segmented, signed Data through a forwarder (docs/real-network.md)")
    srv.add_argument("prefix", metavar="PREFIX", help="the name the file is published under: PREFIX/v=<now in ms>/seg=N "
                     "(or PREFIX/seg=N when PREFIX ends in a version, v=N), with RDR metadata at PREFIX/32=metadata")
    srv.add_argument("file", metavar="FILE", help="the file to publish")
    srv.add_argument("--socket", metavar="PATH", help="the forwarder's Unix socket (default: the daemon's); "
                     "PREFIX is registered there with NFD's rib/register")
    srv.add_argument("--segment-size", dest="segment_size", type=int, default=8000, metavar="BYTES",
                     help="content bytes per Data (default 8000, ndnputchunks' --size)")
    srv.add_argument("--freshness", metavar="TIME", default="10s",
                     help="FreshnessPeriod of every Data (default 10s, ndnputchunks')")
    srv.add_argument("--no-register", dest="no_register", action="store_true",
                     help="do not send rib/register: the forwarder's configuration routes PREFIX to --socket")
    srv.add_argument("--key", metavar="FILE", help="sign with this P-256 private key (PEM, PKCS#8 or SEC1) instead "
                     "of DigestSha256: SignatureSha256WithEcdsa, and the key's self-signed certificate served")
    srv.add_argument("--key-name", dest="key_name", metavar="NAME",
                     help="the key's name, IDENTITY/KEY/KEY-ID (default PREFIX/KEY/ and 8 bytes of the public key's "
                     "SHA-256)")
    srv.set_defaults(handler=cmd_serve)
