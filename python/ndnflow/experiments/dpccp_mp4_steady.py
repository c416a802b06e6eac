"""DPCCP on dpccp-mp4's Abilene network in a steady state, against the NUM optimum.

DPCCP §VII-C-4 says that "the downloading bandwidths of consumers explicitly converge to the
proportional fairness". MP-4 itself cannot show it: its consumers arrive over 10 s and fetch
finite objects, so the twelve are active together for some twenty seconds, while sub-flows are
still being found. This module runs the same draw (PoPs) with every consumer starting at 0 s and
fetching without end, lets DPCCP settle for half the run, and compares each consumer's Data rate
over the rest of the run with its rate at the NUM optimum (log utility, `ndnflow.optimum.num`,
over every loop-free path), the proportional-fair allocation.

It also prints why they differ. A delay-based sub-flow holds its setpoint of packets in the
queues of its path, so at DPCCP's equilibrium each consumer's rate times the queueing delay of its
paths is its flow setpoint (20 packets, §VII-A, Eq. 16 shares it among the sub-flows in
proportion to their rates): rates are then proportional fair with the queueing delays as prices.
A path's round-trip queueing counts the queues its Interests wait in as well as its Data's, and
the NUM model has no Interests. The module sums, for each path a consumer used (its nodes as
summary.json reads them back from its tag stack), the mean sojourn of every link direction it
crosses both ways, weights the paths by the Data they carried, and
prints that delay and its product with the consumer's rate.

Run: `python3 -m ndnflow.experiments.dpccp_mp4_steady [SEED] [--duration S] [--psi P]`
(docs/experiments/dpccp.md, "MP-4 in a steady state"). Information only: the paper gives no
steady-state numbers.
"""

from __future__ import annotations

import argparse
from dataclasses import dataclass
from typing import Any, List, Mapping, Optional, Sequence, Tuple

from ndnflow.experiments import common
from ndnflow.experiments import dpccp_common as dc
from ndnflow.experiments import dpccp_mp4 as mp4
from ndnflow.experiments.dpccp_mp4_fluid import WIRE_PER_PAYLOAD
from ndnflow.experiments import ptp_common as pc
from ndnflow.optimum import num, num_paths
from ndnflow.scenario import Scenario

#: The run's length; its second half is measured. DPCCP finds its paths within some 30 s here
#: (dpccp.md, MP-4).
DURATION_S = 200.0
#: A sub-flow below this rate over the measured half is counted as held at a floor (dpccp.md).
FLOOR_RATE = 10.0
#: A Data's bits on a link (dpccp_mp4_fluid's measure), to read the NUM optimum's link bits as Data.
DATA_WIRE_BITS = 8.0 * WIRE_PER_PAYLOAD * pc.PAYLOAD


@dataclass(frozen=True)
class ConsumerFigures:
    """One consumer's steady rates, Data per second, and its paths' queueing."""

    leaf: str
    prefix: str
    rate: float
    optimum: float
    queueing_s: float

    @property
    def held(self) -> float:
        """Packets the consumer keeps queued along its paths: rate x round-trip queueing."""
        return self.rate * self.queueing_s


def topology(seed: int) -> pc.Topology:
    """dpccp-mp4's network and PoPs for `seed`, every consumer from 0 s and without end."""
    drawn = mp4.topology(seed)
    endless = [{"node": c["node"], "name": c["name"], "start": "0s"} for c in drawn.consumers]
    return pc.Topology(drawn.links, drawn.producers, endless, queue=drawn.queue)


def scenario(seed: int, duration_s: float = DURATION_S, psi: Optional[float] = None) -> Scenario:
    """The steady run; `psi`, when given, replaces DPCCP's default (1 packet) on every consumer."""
    built = topology(seed).scenario("DPCCP", f"{duration_s:g}s", seed, solutions=dc.SOLUTIONS)
    if psi is None:
        return built
    doc = built.to_dict()
    for consumer in doc["consumers"]:
        consumer["cc"] = {**consumer["cc"], "psi": psi}
    return Scenario.from_dict(doc)


def round_trip_queueing_s(nodes: Sequence[str], sojourn_ms: Mapping[str, float]) -> float:
    """Mean queueing of a path both ways: its Data's link directions (producer to consumer) and
    its Interests' (the reverse), each direction's mean sojourn, seconds."""
    hops = list(zip(nodes, nodes[1:]))
    return sum(sojourn_ms.get(f"{a}->{b}", 0.0) + sojourn_ms.get(f"{b}->{a}", 0.0) for a, b in hops) / 1e3


def figures(res: Any, seed: int, start_s: float, end_s: float) -> Tuple[List[ConsumerFigures], List[float]]:
    """Each consumer's figures over [start_s, end_s) of a run of `scenario(seed)`, and the rate of
    every sub-flow that carried Data then (Data per second). A consumer's rate is all the Data it
    received (its probes' too); its paths' Data weight their queueing."""
    def within(frame: Any) -> Any:
        return frame[(frame.time_s >= start_s) & (frame.time_s < end_s)]

    sojourn = within(res.links).groupby("link").sojourn_ms.mean().to_dict()
    received = within(res.consumers).groupby("consumer").data.sum().to_dict()
    carried = within(res.paths).groupby(["consumer", "route"]).data.sum()
    optimum = num(*num_paths(scenario(seed))).flows
    span = end_s - start_s
    out = []
    for c in mp4.draw(seed):
        total, weighted = 0.0, 0.0
        for p in res.summary["consumers"][c.leaf]["paths"]:
            n = carried.get((c.leaf, " ".join(map(str, p["tags"]))), 0)
            if n and p.get("nodes"):
                total += n
                weighted += n * round_trip_queueing_s(p["nodes"], sojourn)
        out.append(ConsumerFigures(c.leaf, c.prefix, received.get(c.leaf, 0) / span, optimum[c.leaf] / DATA_WIRE_BITS,
                                   weighted / total if total else float("nan")))
    return out, [n / span for n in carried if n > 0]


def report(seed: int, duration_s: float = DURATION_S, psi: Optional[float] = None) -> List[str]:
    res = common.run_variants({"DPCCP": scenario(seed, duration_s, psi)}, progress=False)["DPCCP"]
    start_s = duration_s / 2
    rows, subflows = figures(res, seed, start_s, duration_s)
    setting = "" if psi is None else f", psi = {psi:g}"
    lines = [f"seed {seed}: DPCCP over [{start_s:g}, {duration_s:g}) s, every consumer from 0 s without end{setting}"]
    for r in rows:
        lines.append(f"{r.prefix}/{r.leaf}: {r.rate:6.1f} Data/s, NUM {r.optimum:6.1f} ({r.rate / r.optimum:.3f}); "
                     f"round-trip queueing {1e3 * r.queueing_s:5.1f} ms, rate x queueing {r.held:4.1f} packets")
    total, best = sum(r.rate for r in rows), sum(r.optimum for r in rows)
    lines.append(f"all: {total:.1f} Data/s, NUM {best:.1f} ({total / best:.3f})")
    floor = [x for x in subflows if x < FLOOR_RATE]
    lines.append(f"sub-flows: {len(subflows)}, of which {len(floor)} under {FLOOR_RATE:g} Data/s "
                 f"({min(floor, default=0):.1f}-{max(floor, default=0):.1f}) carrying {sum(floor):.0f} Data/s")
    return lines


def main(argv: Optional[Sequence[str]] = None) -> None:
    parser = argparse.ArgumentParser(prog="python3 -m ndnflow.experiments.dpccp_mp4_steady",
                                     description="DPCCP on dpccp-mp4's network held steady, against the NUM optimum")
    parser.add_argument("seed", nargs="?", type=int, default=mp4.SEED)
    parser.add_argument("--duration", type=float, default=DURATION_S, help="seconds (the second half is measured)")
    parser.add_argument("--psi", type=float, default=None, help="DPCCP's psi, packets (default: the consumer's, 1)")
    args = parser.parse_args(argv)
    print("\n".join(report(args.seed, args.duration, args.psi)))


if __name__ == "__main__":  # pragma: no cover - a command, run by hand
    main()
