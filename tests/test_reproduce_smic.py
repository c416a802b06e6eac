"""The SMIC paper's experiments (§5): the workload of Table 1, the topologies and their optima, the
path-id pools the paper's hash needs, the reading of "X % faster", and the metrics on hand-made
inputs."""

from __future__ import annotations

import math
from types import SimpleNamespace

import pandas as pd
import pytest

from ndnflow.experiments import smic_bottleneck1 as b1
from ndnflow.experiments import smic_bottleneck2 as b2
from ndnflow.experiments import smic_common as sc
from ndnflow.experiments import smic_competition as comp
from ndnflow.experiments import smic_tree as tree
from ndnflow.optimum import max_flow

MASK = (1 << 64) - 1


def mix64(z):
    """SplitMix64's finaliser, the paper hash of docs/protocols/smic.md, written out again here."""
    z = (z + 0x9E3779B97F4A7C15) & MASK
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
    return z ^ (z >> 31)


def objects(rows):
    """An objects table from (consumer, start_s, end_s) triples."""
    return pd.DataFrame([{"consumer": c, "node": c, "object": 1, "start_s": s, "end_s": e, "bytes": 0, "paths": 1}
                         for c, s, e in rows])


def fake(objects_rows=(), summary=None, links=None, consumers=None):
    return SimpleNamespace(objects=objects(objects_rows), summary=summary or {"links": {}, "nodes": {}},
                           links=pd.DataFrame(links or {"link": [], "time_s": [], "throughput_bps": []}),
                           consumers=pd.DataFrame(consumers or {"consumer": [], "time_s": []}))


# ------------------------------------------------------------------------------- the workload


def test_table_one_workload():
    # 10 MB = 10 MiB = 10,485,760 bytes in 1040-byte payloads: 10,082.46, so 10,083 chunks, and the
    # 100 MB store holds 100,830 (the paper's own figure, ten objects).
    assert sc.SEGMENTS == math.ceil(10 * 2 ** 20 / 1040) == 10_083
    assert sc.CS_PACKETS == 10 * sc.SEGMENTS
    doc = b1.scenarios("10s", 1)[b1.VARIANT].to_dict()
    # "Each router has ... content store of 100MB": the four access routers, bot and p; the
    # consumers' own nodes have none.
    routers = {name for name, n in doc["nodes"].items() if n == {"cs": {"policy": "lru", "capacity": 100_830},
                                                                 "smic": True}}
    assert routers == {"acc1", "acc2", "acc3", "acc4", "bot", "p"}
    assert all(doc["nodes"][c] == {"cs": {"policy": "off"}, "smic": True} for c in b1.CONSUMERS)
    assert [c["cc"]["algorithm"] for c in doc["consumers"]] == ["smic", "smic", "smic", "icp"]
    # The authors' consumers: a new flow per object after a 1 s gap, the timer capped at 2 s.
    for consumer in doc["consumers"]:
        assert consumer["catalog"] == {"objects": 10_000, "alpha": 1.0, "restart": True, "gap": "1s"}
        assert consumer["segments"] == 10_083 and consumer["rto"] == {"max": "2s"}
    assert doc["producers"] == [{"node": "p", "prefix": "/snu", "payload": 1040}]
    # topo-bottleneck.txt: "10Mbps 1 10ms 50" on every link.
    assert all(link["queue"] == {"discipline": "droptail", "packets": 50} and link["delay"] == "10ms"
               for link in doc["links"])


def test_topologies_have_the_papers_shapes():
    # Fig. 4(a) as topo-bottleneck.txt has it: each consumer its access router, the four into bot,
    # and bot - p: nine links of 10 Mbit/s.
    doc = b1.scenarios("10s", 1)[b1.VARIANT].to_dict()
    assert [link["between"] for link in doc["links"]][-1] == ["bot", "p"] and len(doc["links"]) == 9
    assert {link["bandwidth"] for link in doc["links"]} == {"10Mbps"}
    # Fig. 4(b) as topo-diamond.txt: the SMIC node has two links, the single-path one reaches r
    # through its own access router; the single-path flow slow-starts to 2.
    doc = b2.scenarios("10s", 1)[b2.VARIANT].to_dict()
    assert sorted(link["between"][1] for link in doc["links"] if link["between"][0] == "smic") == ["a", "b"]
    assert ["single", "c"] in [link["between"] for link in doc["links"]]
    assert doc["consumers"][1]["cc"] == {"algorithm": "icp", "rto": "rfc6298", "initial_ssthresh": 2}
    # The tree: one consumer per run, salted hashes, the single-path consumer on ICP.
    runs = tree.scenarios("10s", 1)
    assert list(runs) == ["SMIC", "MPTCP LIA", "single"]
    assert all(n["smic"] == {"hash": "salted"} for n in runs["SMIC"].to_dict()["nodes"].values())
    assert runs["MPTCP LIA"].to_dict()["consumers"][0]["cc"] == {"algorithm": "smic", "coupling": "lia",
                                                                 "path_ids": 32}


@pytest.mark.parametrize("n, expected", [(11, 0.169), (32, 0.0004)])
def test_salted_pool_misses_a_leaf_rarely(n, expected):
    # Independent fair hashes at r0 and below: r1 gets k of n ids (binomial), and misses one of its
    # two leaves when all k go one way, 2 x 2^-k; summed over k, 2 x 0.75^n, and as much for r2.
    miss = sum(math.comb(n, k) / 2 ** n * 2 * 2.0 ** -k for k in range(n + 1)) * 2
    assert miss == pytest.approx(4 * 0.75 ** n) == pytest.approx(expected, abs=5e-4)
    assert n != tree.POOL or miss < 1e-3


@pytest.mark.parametrize("k", comp.PATHS)
def test_competition_topology_and_its_max_flows(k):
    scenario = comp.topology(k, "single").scenario("10s", 1)
    doc = scenario.to_dict()
    # topo-disjoint*.txt: per path m - ri, si - ri, ri - p, every link "10Mbps 1 10ms 10".
    assert len(doc["links"]) == 3 * k
    assert doc["links"][0] == {**doc["links"][0], "between": ["m", "r1"], "bandwidth": "10Mbps"}
    assert all(link["queue"] == {"discipline": "droptail", "packets": 10} for link in doc["links"])
    # The multi-path consumer alone can fill every bottleneck (k x 10), a single-path one its own.
    assert max_flow(scenario, "m").value_bps == k * 10e6
    assert max_flow(scenario, "s1").value_bps == 10e6
    # The single-path flows slow-start to k (the authors' Ssth "k").
    run = comp.scenarios("10s", 1)[comp.variant(k, "SMIC")].to_dict()
    assert [c["cc"].get("initial_ssthresh") for c in run["consumers"]] == [None] + [k] * k


def test_the_authors_routes_give_a_single_path_flow_one_way(real_core):
    import ndnflow

    # The authors' files: CalculateRoutes (shortest path) plus the SMIC node's route to each
    # access router. With k = 2, m routes over r1 and r2; the single-path flows' routers only to p,
    # so s1's Interests, resent ones too, never cross m: with m's consumer gone, the links
    # between m and the routers carry nothing.
    doc = comp.scenarios("10s", 1)[comp.variant(2, "SMIC")].to_dict()
    assert doc["simulation"]["next_hops"] == "shortest-path"
    assert [(r["node"], r["nexthop"]) for r in doc["routes"]] == [("m", "r1"), ("m", "r2")]
    doc["consumers"] = [c for c in doc["consumers"] if c["node"] != "m"]
    doc["simulation"]["duration"] = "30s"
    links = ndnflow.run(ndnflow.Scenario.from_dict(doc), progress=False).summary["links"]
    assert sum(links[d]["packets"] for d in ("r1->m", "m->r1", "r2->m", "m->r2")) == 0
    assert links["r1->p"]["packets"] > 0 and links["p->r1"]["packets"] > 0


def test_tree_optimum_is_the_sum_of_the_leaves():
    # topo-tree-depth2.txt: r1 feeds 3 + 2 = 5 Mbit/s into r0, exactly its 5 Mbit/s link, r2
    # 1.5 + 2 = 3.5 under its 5, and c - r0 (1 Gbit/s) carries 8.5: the leaves are the cut.
    assert tree.optimum_mbps() == 3 + 2 + 1.5 + 2
    best = max_flow(tree.topology("single").scenario("1s", 1), "c")
    assert best.link_flows["r0->c"] == 8.5e6 and best.link_flows["r1->r0"] == 5e6
    # The authors' single-path consumer starts with a window and threshold of 8.
    doc = tree.scenarios("10s", 1)["single"].to_dict()
    assert doc["consumers"][0]["cc"] == {"algorithm": "icp", "rto": "rfc6298", "initial_window": 8,
                                         "initial_ssthresh": 8}


def test_path_id_pools_reach_every_next_hop_under_the_papers_hash():
    # Path ids 0..10 over 2, 3, 4 next hops reach every index; over 5 they miss index 4, which path
    # id 17 is the first to take, so k = 5 gets the pool 0..17.
    for c in (2, 3, 4):
        assert {mix64(p) % c for p in range(11)} == set(range(c))
    assert {mix64(p) % 5 for p in range(11)} == {0, 1, 2, 3}
    assert [p for p in range(18) if mix64(p) % 5 == 4] == [17]
    assert comp.POOL == {5: 18}
    assert comp.scenarios("10s", 1)["k=5, MPTCP OLIA"].to_dict()["consumers"][0]["cc"] == {
        "algorithm": "smic", "coupling": "olia", "path_ids": 18}
    assert "path_ids" not in comp.scenarios("10s", 1)["k=4, SMIC"].to_dict()["consumers"][0]["cc"]


# ------------------------------------------------------------------------------ the readings


def test_percent_faster_is_the_texts_46_from_24_and_16_4():
    # 24 / 16.4 = 1.4634: "about 46% faster"; 1 - 16.4 / 24 would be 31.7 %.
    assert sc.faster_percent(24.0, 16.4) == pytest.approx(46.34, abs=0.01)
    assert sc.faster_percent(30.0, 15.0) == 100.0


@pytest.mark.parametrize("measured, verdict", [(35.1, "pass"), (64.9, "pass"), (34.9, "fail"), (65.1, "fail")])
def test_percent_faster_row_is_the_speed_up_within_ten_percent(measured, verdict):
    # 50 % faster is a speed-up of 1.5; within 10 %: 1.35 to 1.65, i.e. 35 to 65 %.
    assert sc.faster_row("x", 50.0, measured).verdict == verdict


def test_retrieval_times_read_finished_objects_only():
    res = fake([("c", 0.0, 10.0), ("c", 10.0, 40.0), ("c", 40.0, float("nan")), ("d", 0.0, 5.0)])
    assert sc.mean_time(res, "c") == 20.0 and sc.max_time(res, "c") == 30.0
    # The group's mean weighs every object once: (10 + 30 + 5) / 3.
    assert sc.mean_of(res, ["c", "d"]) == 15.0
    assert math.isnan(sc.mean_time(res, "e"))


def test_link_shares_add_both_directions_of_a_link():
    res = fake(summary={"links": {"a->b": {"bytes": 600}, "b->a": {"bytes": 200}, "b->c": {"bytes": 200},
                                  "c->b": {"bytes": 0}}})
    assert sc.link_shares(res) == {"a-b": 0.8, "b-c": 0.2}
    assert sc.link_stress(res) == [0.8, 0.2]


def test_halving_ratio_is_the_window_after_a_fresh_timeout_over_before():
    # Timeouts in bins 2 (20 -> 11) and 5 (16 -> 8); bin 3's second timeout follows bin 2's and is
    # left out. Median of 0.55 and 0.5.
    consumers = {"consumer": ["c"] * 6, "time_s": [0.1 * k for k in range(6)],
                 "window": [18.0, 20.0, 11.0, 5.0, 16.0, 8.0], "timeouts": [0, 0, 1, 1, 0, 2]}
    assert sc.halving_ratio(fake(consumers=consumers), "c") == pytest.approx(0.525)


# ------------------------------------------------------------------------------ the metrics


def test_competition_gains_and_order_by_hand():
    # k = 2: SMIC 16.4 s against singles of 24 s (46.3 %); LIA and OLIA 24.5 s, their singles 24 s.
    # k = 3..5: SMIC 12 s against singles of 18, 22.8, 24.24 s (+50, +90, +102 %); LIA and OLIA 16 s
    # against 18 s (+12.5 %).
    results = {}
    for k in comp.PATHS:
        for multi in comp.MULTI:
            if multi == "SMIC":
                m_s, s_s = (16.4, 24.0) if k == 2 else (12.0, 12.0 * (1 + comp.PAPER_FASTER[k] / 100))
            else:
                m_s, s_s = (24.5, 24.0) if k == 2 else (16.0, 18.0)
            rows = [("m", 0.0, m_s)] + [(s, 0.0, s_s) for s in comp.singles(k)]
            results[comp.variant(k, multi)] = fake(rows)
    got = {row.metric: row for row in comp.metrics(results)}
    assert all(row.verdict == "pass" for row in got.values()), [r.metric for r in got.values() if not r.passed]
    assert got["k=2: SMIC % faster than its single-path flows"].measured == pytest.approx(46.34, abs=0.01)
    # SMIC no faster than LIA at k = 4: the order row fails.
    results[comp.variant(4, "SMIC")] = fake([("m", 0.0, 16.0)] + [(s, 0.0, 18.0) for s in comp.singles(4)])
    got = {row.metric: row.verdict for row in comp.metrics(results)}
    assert got["k=4: % faster (SMIC, LIA, OLIA)"] == "fail"
    assert got["k=4: SMIC % faster than its single-path flows"] == "fail"


def test_bottleneck2_window_before_the_first_timeout():
    # SMIC's first timeout is in bin 2: compare the windows at the end of bin 1 (30 against 12).
    consumers = {"consumer": ["smic"] * 3 + ["single"] * 3, "time_s": [0.0, 0.1, 0.2] * 2,
                 "window": [10.0, 30.0, 15.0, 6.0, 12.0, 13.0], "timeouts": [0, 0, 1, 0, 0, 0]}
    res = fake(consumers=consumers)
    assert b2.window_at_first_timeout(res, "smic", "smic") == 30.0
    assert b2.window_at_first_timeout(res, "single", "smic") == 12.0
    assert math.isnan(b2.window_at_first_timeout(res, "smic", "single"))


def test_tree_link_rows_by_hand():
    # The single-path run loads c-r0, r0-r1, r1-s1 (and leaks 0.5 % to r2's side: under 1 %); the
    # multi-path runs spread: of their 1100 bytes, c-r0 carries 400 and their 2nd and 3rd shares
    # (200 / 1100 = 0.18, 150 / 1100 = 0.14) are below single's (325 / 990 = 0.33 each).
    single = {"c->r0": 10, "r0->c": 320, "r0->r1": 10, "r1->r0": 315, "r1->s1": 10, "s1->r1": 315,
              "r0->r2": 5, "r2->s3": 5, "s3->r2": 0}
    spread = {"r0->c": 400, "r1->r0": 200, "r2->r0": 150, "s1->r1": 100, "s2->r1": 100, "s3->r2": 100,
              "s4->r2": 50}

    def run(volumes, mean_s):
        return fake([("c", 0.0, mean_s)], summary={"links": {k: {"bytes": v} for k, v in volumes.items()}},
                    links={"link": ["s1->r1", "s2->r1"], "time_s": [0.0, 0.0], "throughput_bps": [3e6, 0.0]})

    results = {"SMIC": run(spread, 11.0), "MPTCP LIA": run(spread, 15.8), "single": run(single, 27.0)}
    got = {row.metric: row for row in tree.metrics(results)}
    assert got["single: links carrying >= 1 % of the traffic (all, on the best path)"].measured == [3, 3]
    assert got["SMIC: share of c-r0, of the most loaded other link"].measured == pytest.approx([4 / 11, 2 / 11])
    assert got["SMIC: 2nd and 3rd link shares (single's)"].passed
    assert got["SMIC < MPTCP < single (average retrieval time)"].passed
    assert got["single: median 1 s rate from the servers"].measured == 3.0
    # The same volumes under SMIC and single: nothing was spread.
    results["SMIC"] = run(single, 11.0)
    assert not {row.metric: row for row in tree.metrics(results)}["SMIC: 2nd and 3rd link shares (single's)"].passed
    # A single-path run that loaded r2's side: four links carry traffic, one off the best path.
    results["single"] = run({**single, "r0->r2": 50, "r2->r0": 0}, 27.0)
    got = {row.metric: row for row in tree.metrics(results)}
    assert got["single: links carrying >= 1 % of the traffic (all, on the best path)"].measured == [4, 3]
    assert not got["single: links carrying >= 1 % of the traffic (all, on the best path)"].passed


def test_tree_convergence_is_the_first_bin_at_ninety_percent_of_the_median():
    # The servers' 1 s rates 1, 2, 8, 9, 9, 9 (s1 alone): median 8.5, 90 % of it 7.65, first reached
    # in the bin starting at 2 s, so converged at its end, 3 s.
    rates = [1, 2, 8, 9, 9, 9]
    res = fake(links={"link": ["s1->r1"] * 6, "time_s": [float(t) for t in range(6)],
                      "throughput_bps": [r * 1e6 for r in rates]})
    assert tree.convergence_s(res) == 3.0


@pytest.mark.parametrize("hits, verdict", [
    # smic1, smic2, smic3, single hits of 100 Data each: 0.10, 0.30, 0.20, 0.15 -> min(0.30, 0.20) = 0.20
    # above max(0.10, 0.15) = 0.15: passes.
    ((10, 30, 20, 15), True),
    # smic3 at 0.15 ties single's 0.15: "more" is strict, fails.
    ((10, 30, 15, 15), False),
    # smic1 the highest (seed 1's shape): fails.
    ((17, 7, 9, 11), False),
])
def test_bottleneck1_per_consumer_hits_are_data_from_a_store_over_data_received(hits, verdict):
    consumers = {c: {"data_received": 100, "data_from_cache": h} for c, h in zip(b1.CONSUMERS, hits)}
    row = b1.more_hits_row(fake(summary={"consumers": consumers}))
    assert row.measured == [h / 100 for h in hits]
    assert row.passed is verdict


def test_grouped_spans_merge_the_bins_where_every_subflow_in_use_is_grouped():
    # Bins of 0.1 s: at 0.0 s neither sub-flow is grouped; at 0.1 and 0.2 s both are (one span
    # 0.1-0.3 s); at 0.3 s only one is; at 0.4 s the other is idle and the one in use is grouped
    # (0.4-0.5 s); the single-path consumer's rows do not count.
    rows = [(0.0, "smic", 1, 1.0), (0.0, "smic", 1, 1.0),
            (0.1, "smic", 1, 2.0), (0.1, "smic", 1, 2.0),
            (0.2, "smic", 1, 2.0), (0.2, "smic", 1, 2.0),
            (0.3, "smic", 1, 2.0), (0.3, "smic", 1, 1.0),
            (0.4, "smic", 1, 2.0), (0.4, "smic", 0, math.nan),
            (0.3, "other", 1, 2.0)]
    paths = pd.DataFrame(rows, columns=["time_s", "consumer", "in_use", "sharing"])
    spans = sc.grouped_spans(paths, "smic", 0.1)
    assert spans == [(pytest.approx(0.1), pytest.approx(0.3)), (pytest.approx(0.4), pytest.approx(0.5))]
    assert sc.grouped_spans(paths, "nobody", 0.1) == []
