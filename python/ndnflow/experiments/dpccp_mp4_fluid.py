"""What Jain's index of dpccp-mp4 would be if every consumer got its NUM rate at every instant.

DPCCP §VII-C-4 explains its fairness lead by convergence: "the downloading bandwidths of consumers
explicitly converge to the proportional fairness". In MP-4 the consumers arrive over 10 s and fetch
objects of 10,000-40,000 segments, so each one's mean rate (the rate Jain's index is taken of,
`dpccp_mp4.rate_mbps`) is an average over phases with different sets of competitors. This module
computes the mean rates of an ideal proportional-fair transport, one that holds the NUM optimum
(`ndnflow.optimum.num`, log utility, over every loop-free path) of the consumers active at each
instant, as a fluid: the optimum is recomputed at each start and each end, and each consumer's
remaining bits drain at its optimal rate until the next one. Its index is the best a protocol can
score by doing what the paper says DPCCP does; an unequal allocation can score higher or lower.

Run: `python3 -m ndnflow.experiments.dpccp_mp4_fluid [SEED]` (docs/experiments/dpccp.md, MP-4).
"""

from __future__ import annotations

import sys
from typing import Callable, Dict, List, Mapping, Sequence, Tuple

from ndnflow.experiments import common
from ndnflow.experiments import dpccp_common as dc
from ndnflow.experiments import dpccp_mp4 as mp4
from ndnflow.optimum import num, num_paths
from ndnflow.units import parse_duration

#: Link bits per payload bit of a Data: 1024 payload bytes in about 1,104 on the wire (the
#: leaf links of dpccp-mp4's runs: 36,351,288 bytes, 176 Nacks among them, for 32,914 Data of
#: /Amazon/n31 with seed 1).
WIRE_PER_PAYLOAD = 1104.0 / 1024.0


def fluid(starts: Mapping[str, float], bits: Mapping[str, float], rates: Callable[[Sequence[str]], Mapping[str, float]],
          end_s: float) -> Dict[str, Tuple[float, float]]:
    """Each consumer's (end time, bits received) when, between events, the active ones (started,
    not done) receive `rates(active)` bit/s each; `bits` to receive per consumer; a consumer not
    done by `end_s` ends there. Events are starts and ends, so rates stay constant between them."""
    left = dict(bits)
    ends: Dict[str, float] = {}
    now = 0.0
    while now < end_s and len(ends) < len(bits):
        active = sorted(c for c in bits if starts[c] <= now and c not in ends)
        upcoming = [starts[c] for c in bits if starts[c] > now]
        given = rates(active) if active else {}
        finish = [now + left[c] / given[c] for c in active if given[c] > 0]
        step_to = min(upcoming + finish + [end_s])
        for c in active:
            left[c] -= given[c] * (step_to - now)
            if left[c] <= 1e-6 * bits[c]:
                ends[c] = step_to
        now = step_to
    return {c: (ends.get(c, end_s), bits[c] - max(left[c], 0.0)) for c in bits}


def proportional_fair_mbps(seed: int) -> Dict[str, float]:
    """Each consumer's mean payload rate, Mbit/s, under the fluid proportional-fair schedule."""
    drawn = mp4.draw(seed)
    scenario = mp4.topology(seed).scenario(next(iter(dc.SOLUTIONS)), mp4.DURATION, seed, solutions=dc.SOLUTIONS)

    def rates(active: Sequence[str]) -> Mapping[str, float]:
        return num(*num_paths(scenario, consumers=list(active))).flows

    starts = {c.leaf: c.start_s for c in drawn}
    wire = {c.leaf: 8.0 * 1024 * c.segments * WIRE_PER_PAYLOAD for c in drawn}
    ends = fluid(starts, wire, rates, parse_duration(mp4.DURATION))
    return {c: got / WIRE_PER_PAYLOAD / (end - starts[c]) / 1e6 for c, (end, got) in ends.items()}


def report(seed: int) -> List[str]:
    """Per prefix: the fluid schedule's mean rates and their Jain's index."""
    drawn = mp4.draw(seed)
    means = proportional_fair_mbps(seed)
    lines = []
    for prefix in mp4.REPOSITORIES:
        mine = mp4.consumers_of(drawn, prefix)
        values = [means[c.leaf] for c in mine]
        lines.append(f"{prefix}: " + ", ".join(f"{c.leaf} {v:.2f}" for c, v in zip(mine, values))
                     + f" Mbit/s; Jain's index {common.jain_index(values):.3f}")
    return lines


if __name__ == "__main__":  # pragma: no cover - a command for the docs
    print("\n".join(report(int(sys.argv[1]) if len(sys.argv) > 1 else mp4.SEED)))
