"""A consumer controller written in Python: AIMD under PCON's conservative window adaptation (PCON
§3.3, Algorithm 1), as the Rust one (crates/ndnflow-core/src/app/cc/aimd.rs and cwa.rs) with its
defaults: initial window 1 and floor of every decrease, beta 0.5, every mark a decrease, timeouts
and marked Nacks through the CWA gate. Run on the quick start's consumers.

    PYTHONPATH=python python3 examples/python_controller.py

tests/test_python_protocols.py checks that it gives the Rust controller's results row for row.
"""

from __future__ import annotations

from pathlib import Path

import ndnflow


class Aimd(ndnflow.Controller):
    """Slow start +1 per Data below ssthresh, +1/cwnd above; cwnd <- max(cwnd * beta, initial)."""

    def __init__(self, initial_window=1.0, beta=0.5):
        self.initial = max(initial_window, 1.0)
        self.beta = beta
        self.window = self.initial  # read by the consumer after every hook
        self.ssthresh = float("inf")
        # PCON Algorithm 1: m_highData, m_highInterest, m_recPoint.
        self.high_data = self.high_interest = 0
        self.rec_point = 0

    def on_interest_sent(self, now_ns, segment, retransmission):
        self.high_interest = max(self.high_interest, segment)

    def on_data(self, now_ns, sample):
        self.high_data = max(self.high_data, sample.segment)
        self.high_interest = max(self.high_interest, sample.highest_sent)
        if sample.congestion_mark:  # PCON §3.3: marks bypass the CWA gate
            self.decrease()
        elif self.window < self.ssthresh:
            self.window += 1.0
        else:
            self.window += 1.0 / self.window

    def on_timeout(self, now_ns, segment):
        self.loss()

    def on_nack(self, now_ns, segment, reason, marked):
        if marked:  # PCON §3.5: an unmarked Nack only triggers a retransmission
            self.loss()

    def loss(self):
        """Algorithm 1 lines 14-16: at most one decrease per RTT."""
        if self.high_data > self.rec_point:
            self.rec_point = self.high_interest
            self.decrease()

    def decrease(self):
        self.window = max(self.window * self.beta, self.initial)
        self.ssthresh = self.window


def main():
    # The quick start's consumers, each with its own instance of Aimd: the scenario names the class
    # by the word "python:__main__:Aimd", as a TOML file would name an importable one.
    scenario = ndnflow.Scenario.from_file(Path(__file__).with_name("quickstart.toml"))
    doc = scenario.to_dict()
    for consumer in doc["consumers"]:
        consumer["cc"] = {"algorithm": ndnflow.protocols.word(Aimd)}
    results = ndnflow.run(scenario.with_document(doc), progress=False)
    print(results.consumers.groupby("consumer")[["goodput_bps", "window"]].mean())


if __name__ == "__main__":
    main()
