"""A forwarding strategy written in Python: NFD's best-route (BestRouteStrategy2), line for line the
Rust one (crates/ndnflow-core/src/fw/strategy/best_route.rs), run on the quick start's router.

    PYTHONPATH=python python3 examples/python_strategy.py

tests/test_python_protocols.py checks that it gives the Rust strategy's results row for row: a
strategy prototyped this way is ported to Rust against the same test.
"""

from __future__ import annotations

from pathlib import Path

import ndnflow
from ndnflow import Forward, Nack

# NFD RetxSuppressionExponential: initial 10 ms, x2, at most 250 ms (nanoseconds).
INITIAL_NS, MULTIPLIER, MAX_NS = 10_000_000, 2, 250_000_000


class BestRoute(ndnflow.Strategy):
    """A new Interest goes to the lowest-cost eligible next hop; a retransmission, past the
    suppression interval, to an unused next hop, else to the one used longest ago."""

    def after_receive_interest(self, ctx, in_face, entry, nexthops):
        retx = self.retransmission(ctx.now_ns, entry)
        if retx == "suppress":
            return None
        if retx == "new":
            for hop in nexthops:
                if eligible(ctx, in_face, hop.face, entry, want_unused=False):
                    return Forward([hop.face])
            return Nack("no-route")
        for hop in nexthops:
            if eligible(ctx, in_face, hop.face, entry, want_unused=True):
                return Forward([hop.face])
        # The eligible next hop used longest ago; one never used counts as oldest.
        used = [(last_sent(entry, hop.face), hop.face) for hop in nexthops
                if eligible(ctx, in_face, hop.face, entry, want_unused=False)]
        return Forward([min(used, key=lambda u: u[0])[1]]) if used else None

    @staticmethod
    def retransmission(now_ns, entry):
        """NFD's RetxSuppressionExponential, its interval kept on the PIT entry."""
        if not any(o.nack is None and o.expiry_ns > now_ns for o in entry.out_records):
            return "new"
        last_out = max(o.last_sent_ns for o in entry.out_records)
        if entry.suppression_interval_ns == 0:
            entry.suppression_interval_ns = INITIAL_NS
        if now_ns - last_out < entry.suppression_interval_ns:
            return "suppress"
        entry.suppression_interval_ns = min(entry.suppression_interval_ns * MULTIPLIER, MAX_NS)
        return "forward"


def eligible(ctx, in_face, face, entry, want_unused):
    """NFD's isNextHopEligible: an up face other than the incoming one, and when `want_unused`
    one without an unexpired out-record."""
    if face >= len(ctx.faces) or not ctx.faces[face].up or face == in_face:
        return False
    out = entry.out_record(face)
    return not (want_unused and out is not None and out.expiry_ns > ctx.now_ns)


def last_sent(entry, face):
    out = entry.out_record(face)
    return -1 if out is None else out.last_sent_ns


def main():
    scenario = ndnflow.Scenario.from_file(Path(__file__).with_name("quickstart.toml")).node("r", strategy=BestRoute)
    results = ndnflow.run(scenario, progress=False)
    print(results.consumers.groupby("consumer").goodput_bps.mean())


if __name__ == "__main__":
    main()
