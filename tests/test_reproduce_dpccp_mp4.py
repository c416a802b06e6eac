"""dpccp-mp4 (DPCCP §VII-C-4, the Abilene network): Jain's index, the topology and its delays, the
seeded draw of consumers, and the metrics on hand-made summaries, each derived by hand."""

from __future__ import annotations

import math
import random
from types import SimpleNamespace

import pytest

from ndnflow.experiments import common
from ndnflow.experiments import dpccp_common as dc
from ndnflow.experiments import dpccp_mp4 as mp4


@pytest.mark.parametrize("rates, index", [([1, 1, 1, 1], 1.0), ([1, 0, 0, 0], 0.25), ([3, 1], 16 / 20),
                                          ([2, 2, 4], 64 / 72)])
def test_jain_index_by_hand(rates, index):
    # (sum x)^2 / (n sum x^2): [3, 1] -> 16 / (2 * 10) = 0.8; [2, 2, 4] -> 64 / (3 * 24).
    assert common.jain_index(rates) == pytest.approx(index, rel=1e-12)


def test_jain_index_of_nothing_is_undefined():
    assert math.isnan(common.jain_index([])) and math.isnan(common.jain_index([0.0, 0.0]))


def test_abilene_has_eleven_pops_and_fourteen_links():
    nodes = {n for link in mp4.BACKBONE for n in link}
    assert nodes == {f"n{k}" for k in range(11, 22)} == set(mp4.POPS)
    assert len(set(map(frozenset, mp4.BACKBONE))) == 14
    # Degrees of the map: Chicago (12) and Los Angeles (16) have two links, Houston (19) three.
    degree = {n: sum(n in link for link in mp4.BACKBONE) for n in nodes}
    assert [degree[mp4.REPOSITORIES[p]] for p in ("/Amazon", "/Google", "/Warner")] == [2, 2, 3]


def test_repositories_are_on_12_16_19():
    scenario = mp4.scenarios("1s", 1)["DPCCP"].to_dict()
    producers = {(p["node"], p["prefix"]) for p in scenario["producers"]}
    assert producers == {("n12", "/Amazon"), ("n16", "/Google"), ("n19", "/Warner")}


def test_new_york_chicago_delay_by_hand():
    # New York (40.71427, -74.00597), Chicago (41.85003, -87.65005): dphi = 1.13576 deg, dlambda =
    # -13.64408 deg; h = sin^2(0.56788 deg) + cos(40.71427 deg) cos(41.85003 deg) sin^2(6.82204 deg)
    # = 9.8232e-5 + 0.757972 * 0.744894 * 0.0141101 = 0.0080649; d = 2 * 6371 * asin(sqrt h)
    # = 12742 * 0.0899260 = 1145.84 km; over 2/3 c = 199,861.6 km/s: 5.733 ms, 6 ms rounded.
    assert mp4.distance_km("n11", "n12") == pytest.approx(1145.84, abs=0.01)
    assert mp4.delay_ms("n11", "n12") == 6
    links = {(a, b): delay for a, b, _, delay in mp4.topology(1).links}
    assert links[("n11", "n12")] == "6ms"
    # Chicago-Indianapolis, 263 km: 1.32 ms -> 1 ms; Los Angeles-Houston, 2207 km: 11.04 ms -> 11 ms.
    assert links[("n12", "n21")] == "1ms" and links[("n16", "n19")] == "11ms"


def test_the_draw_follows_pythons_documented_sequence():
    # random.Random(1).random() gives 0.134364..., 0.847434..., 0.763775... (Python keeps this
    # sequence): PoP index int(0.134 * 8) = 1 (n13), start 8.474 s, size 10000 + int(0.763775 *
    # 30001) = 10000 + 22914.
    first = mp4.draw(1)[0]
    values = [random.Random(1).random() for _ in range(3)]
    assert values[0] == pytest.approx(0.134364, abs=1e-6)
    assert (first.prefix, first.pop, first.leaf, first.start_s, first.segments) == (
        "/Amazon", "n13", "n31", 8.474, 32914)


def test_the_draw_is_the_seeds_and_uses_only_the_eight_nodes():
    assert mp4.draw(7) == mp4.draw(7) and mp4.draw(1) != mp4.draw(2)
    pops = set()
    for seed in range(1, 41):
        drawn = mp4.draw(seed)
        assert [c.prefix for c in drawn] == ["/Amazon"] * 4 + ["/Google"] * 4 + ["/Warner"] * 4
        assert all(0.0 <= c.start_s < mp4.START_SPREAD_S and 10_000 <= c.segments <= 40_000 for c in drawn)
        pops.update(c.pop for c in drawn)
    # 480 draws over eight PoPs: each is missed with probability (7/8)^480, about 1e-28.
    assert pops == set(mp4.CONSUMER_POPS) == {"n11", "n13", "n14", "n15", "n17", "n18", "n20", "n21"}


def test_scenarios_of_one_seed_place_the_same_consumers_for_every_protocol():
    scenarios = mp4.scenarios("1s", 3)
    assert list(scenarios) == list(dc.SOLUTIONS)
    consumers = [sc.to_dict()["consumers"] for sc in scenarios.values()]
    placed = [[(c["node"], c["name"], c["start"], c["segments"]) for c in cs] for cs in consumers]
    assert all(p == placed[0] for p in placed)
    assert placed[0][0][1] == "/Amazon/n31"


def _summary(consumers):
    return SimpleNamespace(summary={"simulation": {"seed": 1}, "consumers": consumers}, links=None, consumers=None)


def test_repository_throughput_is_its_payload_over_its_busy_period():
    # Two consumers: 1,000,000 bytes over 0-10 s and 500,000 over 2-8 s. Busy 0-10 s:
    # 8 * 1.5e6 / 10 = 1.2 Mbit/s (not the sum of their rates, 0.8 + 0.667).
    drawn = mp4.draw(1)[:2]
    res = _summary({drawn[0].leaf: {"start_s": 0.0, "end_s": 10.0, "payload_bytes": 1_000_000},
                    drawn[1].leaf: {"start_s": 2.0, "end_s": 8.0, "payload_bytes": 500_000}})
    assert mp4.throughput_mbps(res, drawn) == pytest.approx(1.2)
    assert mp4.all_active_s(res, drawn) == (2.0, 8.0)


def test_dpccp_must_be_strictly_above_every_other_protocol():
    # "beats", "outperforms": strictly, with no margin (a tie fails).
    assert dc.dpccp_highest("m", "p", {"DPCCP": 2.0, "OMCC-RF": 1.0, "PCON": 1.9}).passed
    assert not dc.dpccp_highest("m", "p", {"DPCCP": 2.0, "OMCC-RF": 1.0, "PCON": 2.0}).passed


def test_a_short_run_gives_every_row_for_every_protocol(real_core, monkeypatch, tmp_path):
    # 3 s: nobody finishes, so every check compares partial rates; what matters here is that
    # INFO_ROWS names rows that exist (classify raises otherwise), the row count, and that a
    # protocol added to dpccp_common.SOLUTIONS is run and compared with no change to the module
    # (as MIRCC was): here a second PCON.
    monkeypatch.setitem(dc.SOLUTIONS, "PCON again", dc.SOLUTIONS["PCON"])
    report = common.run_experiment(mp4, tmp_path, duration="3s", progress=False)
    assert len(report.rows) == 17 and len(report.checks) == 6
    assert {row.metric for row in report.rows if not row.counts} == set(mp4.INFO_ROWS)
    throughput = next(row for row in report.rows if row.metric == "/Amazon: repository throughput")
    assert len(throughput.measured) == 5
    assert throughput.tolerance.endswith("(values: DPCCP, OMCC-RF, PCON, MIRCC, PCON again)")
    assert sorted(p.name for p in report.files if p.suffix == ".png") == ["figure22.png", "rates.png"]


def test_the_fluid_schedule_by_hand():
    from ndnflow.experiments.dpccp_mp4_fluid import fluid

    # One link of 10 bit/s split equally among the active consumers. A (100 bits) alone from 0 s
    # receives 50 by 5 s; B (30 bits) joins at 5 s: 5 bit/s each, B done at 11 s (A has 80);
    # A alone again at 10 bit/s receives its last 20 by 13 s.
    def equal(active):
        return {c: 10.0 / len(active) for c in active}

    starts, bits = {"A": 0.0, "B": 5.0}, {"A": 100.0, "B": 30.0}
    ends = fluid(starts, bits, equal, 100.0)
    assert ends["A"] == pytest.approx((13.0, 100.0)) and ends["B"] == pytest.approx((11.0, 30.0))
    # Cut at 12 s, A is not done: 90 bits received, ending at the cut.
    assert fluid(starts, bits, equal, 12.0)["A"] == pytest.approx((12.0, 90.0))


def test_the_steady_variant_keeps_the_draw_and_starts_everyone_at_once_without_end():
    from ndnflow.experiments import dpccp_mp4_steady as steady

    built, original = steady.topology(1), mp4.topology(1)
    assert built.links == original.links and built.producers == original.producers
    assert [c["node"] for c in built.consumers] == [c["node"] for c in original.consumers]
    assert all(c["start"] == "0s" and "segments" not in c for c in built.consumers)


def test_a_paths_round_trip_queueing_counts_both_directions():
    from ndnflow.experiments.dpccp_mp4_steady import ConsumerFigures, round_trip_queueing_s

    # Data p -> r -> c wait 10 + 5 ms; Interests c -> r -> p wait 0 + 2 ms: 17 ms in all.
    sojourn = {"p->r": 10.0, "r->c": 5.0, "r->p": 2.0, "x->y": 99.0}
    assert round_trip_queueing_s(["p", "r", "c"], sojourn) == pytest.approx(0.017)
    # 400 Data/s with 50 ms of queueing keep 20 packets queued: DPCCP's flow setpoint.
    assert ConsumerFigures("c", "/p", 400.0, 450.0, 0.05).held == pytest.approx(20.0)
