"""`ndnflow topology` and `ndnflow import-rocketfuel`: scenario networks from networkx generators
and Rocketfuel maps (`ndnflow.topology`, `ndnflow.rocketfuel`), written as scenario TOML. Kept
apart from cli.py, which holds the commands that run scenarios."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any, Optional

from ndnflow import safe_io

EXIT_OK = 0


def check_seed(seed: Optional[int]) -> None:
    from ndnflow.cli import _check_seed_option

    _check_seed_option(seed)


def _usage_error(message: str) -> Exception:
    from ndnflow.cli import UsageError

    return UsageError(message)


def _emit(text: str, output: Optional[str]) -> int:
    """The scenario TOML into `output` (atomically), or onto stdout."""
    if output is not None:
        safe_io.write_text(Path(output), text)
    else:
        sys.stdout.write(text)
    return EXIT_OK


def cmd_import_rocketfuel(args: argparse.Namespace) -> int:
    from ndnflow import rocketfuel, topology

    check_seed(args.seed)
    _check_link_options(args)
    if args.client_degrees < 0:
        raise _usage_error(f"--client-degrees: routers of degree 1..D are clients; D must be 0 or more, got "
                           f"{args.client_degrees}")
    params = rocketfuel.RocketfuelParams(client_degrees=args.client_degrees)
    try:
        graph = rocketfuel.read(
            args.map, params, seed=args.seed, keep_one_component=not args.all_components,
            connect_backbones=not args.no_connect_backbones,
        )
    except rocketfuel.RocketfuelError as exc:
        raise _usage_error(str(exc)) from None
    return _emit(topology.scenario(graph, duration=args.duration, seed=args.seed).validate().to_toml(), args.output)


def _check_link_options(args: argparse.Namespace) -> None:
    """The options written into the generated scenario, checked here, so that an error names the
    option rather than a line of a scenario the user never wrote."""
    from ndnflow.cli import _bandwidth_option, _duration_option

    args.duration = _duration_option(args.duration)
    if "bandwidth" not in vars(args):  # import-rocketfuel draws each link's own
        return
    args.bandwidth = _bandwidth_option(args.bandwidth)
    args.delay = _duration_option(args.delay, "--delay", zero=True)
    if args.queue is not None and args.queue < 1:
        raise _usage_error(f"--queue {args.queue}: a drop-tail queue holds at least 1 packet")
    if args.queue is not None and args.queue > 2**64 - 1:
        raise _usage_error(f"--queue {args.queue}: too large (at most {2**64 - 1} packets)")


def cmd_topology(args: argparse.Namespace) -> int:
    from ndnflow import topology

    check_seed(args.seed)
    _check_link_options(args)
    try:
        graph = topology.generate(args.kind, *args.sizes, seed=args.seed, beta=args.beta, alpha=args.alpha)
        sc = topology.scenario(
            graph, bandwidth=args.bandwidth, delay=args.delay, queue=args.queue, duration=args.duration, seed=args.seed
        )
        if args.consumers:
            topology.populate(sc, graph, consumers=args.consumers, producers=args.producers, place=args.place, seed=args.seed)
    except topology.TopologyError as exc:
        raise _usage_error(str(exc)) from None
    return _emit(sc.validate().to_toml(), args.output)


def add_parsers(commands: Any) -> None:
    """The two commands' parsers, on `ndnflow`'s subcommand list."""
    rf = commands.add_parser(
        "import-rocketfuel", help="convert a Rocketfuel router map (.cch) to scenario TOML, as ndnSIM's reader does"
    )
    rf.add_argument("map", metavar="MAP.cch", help="Rocketfuel map file")
    rf.add_argument("--seed", type=int, default=1, help="seed of the links' bandwidths and delays (default 1)")
    rf.add_argument("--client-degrees", type=int, default=2, metavar="D",
                    help="routers of degree 1..D are clients (default 2, ndnSIM's example)")
    rf.add_argument("--all-components", action="store_true", help="keep every component, not only the largest")
    rf.add_argument("--no-connect-backbones", action="store_true", help="do not chain the backbone's components")
    rf.add_argument("--duration", default="10s", help="the scenario's duration (default 10s)")
    rf.add_argument("-o", "--output", metavar="FILE", help="write the TOML here instead of stdout")
    rf.set_defaults(handler=cmd_import_rocketfuel)

    top = commands.add_parser(
        "topology",
        help="generate a scenario's network: grid ROWS COLS, tree BRANCHING HEIGHT, waxman N, ba N M",
    )
    top.add_argument("kind", choices=["grid", "tree", "waxman", "ba"], help="the generator (networkx)")
    top.add_argument("sizes", type=int, nargs="+", metavar="SIZE", help="its sizes, in the order KIND lists them")
    top.add_argument("--seed", type=int, default=1, help="seed of the random generators and placement (default 1)")
    top.add_argument("--bandwidth", default="10Mbps", help="every link's bandwidth (default 10Mbps)")
    top.add_argument("--delay", default="5ms", help="every link's delay (default 5ms)")
    top.add_argument("--queue", type=int, default=None, metavar="PACKETS", help="drop-tail queue size (default: the scenario's)")
    top.add_argument("--duration", default="10s", help="the scenario's duration (default 10s)")
    top.add_argument("--consumers", type=int, default=0, metavar="N", help="place N consumers (default none)")
    top.add_argument("--producers", type=int, default=1, metavar="M", help="with --consumers: M producers (default 1)")
    top.add_argument("--place", choices=["random", "leaves", "core"], default="random",
                     help="where producers, then consumers, go: at random, lowest degree first, or highest first")
    top.add_argument("--beta", type=float, default=0.4, help="waxman: link probability scale (default 0.4)")
    top.add_argument("--alpha", type=float, default=0.1, help="waxman: distance scale (default 0.1)")
    top.add_argument("-o", "--output", metavar="FILE", help="write the TOML here instead of stdout")
    top.set_defaults(handler=cmd_topology)

