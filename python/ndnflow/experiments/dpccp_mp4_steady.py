"""DPCCP on dpccp-mp4's Abilene network in a steady state, against the NUM optimum.

DPCCP §VII-C-4 says that "the downloading bandwidths of consumers explicitly converge to the
proportional fairness". MP-4 itself cannot show it: its consumers arrive over 10 s and fetch
finite objects, so the twelve are active together for some twenty seconds, while sub-flows are
still being found. This module runs the same draw (PoPs) with every consumer starting at 0 s and
fetching without end, lets DPCCP settle for `SETTLE_S`, and compares each consumer's Data rate
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

Run: `python3 -m ndnflow.experiments.dpccp_mp4_steady [SEED]` (docs/experiments/dpccp.md,
"MP-4 in a steady state"). Information only: the paper gives no steady-state numbers.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from typing import Any, List, Mapping, Sequence

from ndnflow.experiments import common
from ndnflow.experiments import dpccp_common as dc
from ndnflow.experiments import dpccp_mp4 as mp4
from ndnflow.experiments.dpccp_mp4_fluid import WIRE_PER_PAYLOAD
from ndnflow.experiments import ptp_common as pc
from ndnflow.optimum import num, num_paths
from ndnflow.scenario import Scenario

#: The run's length and the time left to settle: DPCCP finds its paths within some 30 s here
#: (dpccp.md, MP-4); with seed 1 the rates over [300, 600) s of a 600 s run differ from those
#: over [100, 200) s by at most 6 % per consumer and 0.2 % in all.
DURATION = "200s"
SETTLE_S = 100.0
END_S = 200.0
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


def scenario(seed: int) -> Scenario:
    return topology(seed).scenario("DPCCP", DURATION, seed, solutions=dc.SOLUTIONS)


def round_trip_queueing_s(nodes: Sequence[str], sojourn_ms: Mapping[str, float]) -> float:
    """Mean queueing of a path both ways: its Data's link directions (producer to consumer) and
    its Interests' (the reverse), each direction's mean sojourn, seconds."""
    hops = list(zip(nodes, nodes[1:]))
    return sum(sojourn_ms.get(f"{a}->{b}", 0.0) + sojourn_ms.get(f"{b}->{a}", 0.0) for a, b in hops) / 1e3


def figures(res: Any, seed: int) -> List[ConsumerFigures]:
    """Each consumer's figures over [SETTLE_S, END_S) of a run of `scenario(seed)`."""
    window = res.links[(res.links.time_s >= SETTLE_S) & (res.links.time_s < END_S)]
    sojourn = window.groupby("link").sojourn_ms.mean().to_dict()
    paths = res.paths[(res.paths.time_s >= SETTLE_S) & (res.paths.time_s < END_S)]
    data = paths.groupby(["consumer", "route"]).data.sum().to_dict()
    optimum = num(*num_paths(scenario(seed))).flows
    span = END_S - SETTLE_S
    out = []
    for c in mp4.draw(seed):
        carried, weighted = 0.0, 0.0
        for p in res.summary["consumers"][c.leaf]["paths"]:
            n = data.get((c.leaf, " ".join(map(str, p["tags"]))), 0)
            carried += n
            weighted += n * round_trip_queueing_s(p["nodes"], sojourn)
        out.append(ConsumerFigures(c.leaf, c.prefix, carried / span, optimum[c.leaf] / DATA_WIRE_BITS,
                                   weighted / carried if carried else float("nan")))
    return out


def report(seed: int) -> List[str]:
    res = common.run_variants({"DPCCP": scenario(seed)}, progress=False)["DPCCP"]
    rows = figures(res, seed)
    lines = [f"seed {seed}: DPCCP over [{SETTLE_S:g}, {END_S:g}) s of {DURATION}, every consumer from 0 s without end"]
    for r in rows:
        lines.append(f"{r.prefix}/{r.leaf}: {r.rate:6.1f} Data/s, NUM {r.optimum:6.1f} ({r.rate / r.optimum:.3f}); "
                     f"round-trip queueing {1e3 * r.queueing_s:5.1f} ms, rate x queueing {r.held:4.1f} packets")
    total, best = sum(r.rate for r in rows), sum(r.optimum for r in rows)
    lines.append(f"all: {total:.1f} Data/s, NUM {best:.1f} ({total / best:.3f})")
    return lines


if __name__ == "__main__":  # pragma: no cover - a command, run by hand
    print("\n".join(report(int(sys.argv[1]) if len(sys.argv) > 1 else mp4.SEED)))
