"""Who gets CoDel's drops at the MPTCP fairness bottleneck, and why (docs/protocols/multipath.md,
"CoDel: who gets the drops"). Reads what `run.sh OUT` wrote: per run, a results folder whose
forwarding log (forwarding.parquet, level "trace" at p) holds every Data event at the shared CoDel
queue p -> r2 (queueEnqueue, queueDeparture with its sojourn, queueDrop: "AQM drop" by CoDel,
"queue full" at the tail), each with its instant and the Data name, /p/c/... or /p/d/...; and
whose paths.parquet holds the per-path windows in 10 ms bins.

Usage: python3 scripts/codel_drops/analyse.py OUT [COUPLING ...]   (default: lia olia reno)

Everything is counted after the first 5 s (start-up). Definitions:
  episode        drops less than 150 ms apart (CoDel's dropping state, interval 100 ms)
  loss event     a path's window falling by more than a quarter from one bin to the next
  relief         the sojourn of some departure falls under the 5 ms target within 100 ms of the drop
  hit window     the window of the hit flow's path in the bin before its next loss event (< 150 ms)
"""
import bisect
import collections
import re
import sys

import pandas as pd

AFTER_NS = 5_000_000_000
TARGET_NS = 5_000_000
EPISODE_GAP_NS = 150_000_000
RELIEF_NS = 100_000_000
RTT_NS = 35_000_000


KINDS = {("queueEnqueue", ""): "E", ("queueDeparture", ""): "D", ("queueDrop", "AQM drop"): "X",
         ("queueDrop", "queue full"): "T"}
CAUSE = re.compile(r'cause="([^"]*)"')
SOJOURN = re.compile(r"sojourn_ms=([0-9.]+)")


def read_log(folder):
    """(kind, t_ns, name, flow, sojourn_ns) per Data event at the queue p -> r2, flow 'c' or 'd'."""
    log = pd.read_parquet(f"{folder}/forwarding.parquet")
    log = log[(log.node == "p") & (log.face_out == "r2") & log.detail.str.startswith("packet=Data")]
    events = []
    for row in log.itertuples(index=False):
        cause = CAUSE.search(row.detail)
        kind = KINDS.get((row.event, cause.group(1) if cause else ""))
        if kind:
            sojourn = round(float(SOJOURN.search(row.detail).group(1)) * 1e6)
            events.append((kind, round(row.time_s * 1e9), row.name, row.name.split("/")[2], sojourn))
    return events


def read_paths(folder):
    """Per (flow, path index): [(t_s, window)] and the instants of its loss events."""
    rows = collections.defaultdict(list)
    for r in pd.read_parquet(f"{folder}/paths.parquet").itertuples(index=False):
        rows[(r.consumer, r.path)].append((float(r.time_s), float(r.window)))
    losses = {}
    for key, rs in rows.items():
        rs.sort()
        losses[key] = [t1 for (_, w0), (t1, w1) in zip(rs, rs[1:]) if w0 >= 2 and w1 < 0.75 * w0]
    return rows, losses


def queue_walk(events):
    """Arrivals per flow, and per drop: (t, flow, queue length, d's share of the queue, d's share of
    the arrivals in the last RTT)."""
    queued = {}
    arrivals = {"c": [], "d": []}
    entered = collections.Counter()
    drops = []
    for kind, t, name, flow, _ in events:
        if kind == "E":
            queued[name] = flow
            arrivals[flow].append(t)
            entered[flow] += t >= AFTER_NS
        elif kind == "D":
            queued.pop(name, None)
        elif kind == "X":
            if t >= AFTER_NS:
                n_d = sum(f == "d" for f in queued.values())
                recent = {f: len(a) - bisect.bisect_left(a, t - RTT_NS) for f, a in arrivals.items()}
                drops.append((t, flow, len(queued), n_d / len(queued), recent["d"] / max(1, sum(recent.values()))))
            queued.pop(name, None)
    return entered, drops


def episodes(drops):
    eps = []
    for d in drops:
        if eps and d[0] - eps[-1][-1][0] < EPISODE_GAP_NS:
            eps[-1].append(d)
        else:
            eps.append([d])
    return eps


def relieved(events, drops):
    """Per drop: whether a departure within RELIEF_NS after it waited less than the target."""
    deps = [(t, sojourn) for kind, t, _, _, sojourn in events if kind == "D"]
    times = [t for t, _ in deps]
    out = []
    for t, *_ in drops:
        j = bisect.bisect_left(times, t)
        k = bisect.bisect_left(times, t + RELIEF_NS)
        out.append(any(s < TARGET_NS for _, s in deps[j:k]))
    return out


def hit_window(rows, losses, t_ns, flow):
    """The window of `flow`'s path whose next loss event follows the drop soonest (within 150 ms)."""
    ts = t_ns / 1e9
    best = None
    for key, ls in losses.items():
        if key[0] != flow:
            continue
        i = bisect.bisect_right(ls, ts)
        if i < len(ls) and ls[i] - ts < 0.15 and (best is None or ls[i] < best[0]):
            rs = rows[key]
            j = bisect.bisect_left(rs, (ls[i], -1.0)) - 1
            best = (ls[i], rs[j][1])
    return best and best[1]


def mean(xs):
    xs = [x for x in xs if x is not None]
    return sum(xs) / len(xs) if xs else float("nan")


def analyse(prefix):
    events = read_log(prefix)
    rows, losses = read_paths(prefix)
    entered, drops = queue_walk(events)
    eps = episodes(drops)
    relief = relieved(events, drops)
    by = {f: [i for i, d in enumerate(drops) if d[1] == f] for f in "cd"}
    after_c = [b[1] for e in eps for a, b in zip(e, e[1:]) if a[1] == "c"]
    loss_events = {f: sum(t * 1e9 >= AFTER_NS for k, ls in losses.items() if k[0] == f for t in ls) for f in "cd"}
    return {
        "d's share of the Data entering the queue": entered["d"] / sum(entered.values()),
        "d's share of the drops": len(by["d"]) / len(drops),
        "d's share of the queue at the drops": mean(d[3] for d in drops),
        "d's share of the arrivals in the RTT before a drop": mean(d[4] for d in drops),
        "queue at a drop (packets)": mean(d[2] for d in drops),
        "hit window, d": mean(hit_window(rows, losses, drops[i][0], "d") for i in by["d"]),
        "hit window, c's subflow": mean(hit_window(rows, losses, drops[i][0], "c") for i in by["c"]),
        "relief after a drop on d": mean(relief[i] for i in by["d"]),
        "relief after a drop on c": mean(relief[i] for i in by["c"]),
        "next drop of the episode is d's, after one on c": mean(f == "d" for f in after_c),
        "episodes with a drop on d": mean(any(x[1] == "d" for x in e) for e in eps),
        "episodes with a drop on c": mean(any(x[1] == "c" for x in e) for e in eps),
        "drops c / d": f"{len(by['c'])} / {len(by['d'])}",
        "loss events c / d": f"{loss_events['c']} / {loss_events['d']}",
        "Data per loss event c / d": f"{entered['c'] / loss_events['c']:.0f} / {entered['d'] / loss_events['d']:.0f}",
    }


def show(v):
    return v if isinstance(v, str) else f"{v:.3f}"


def main(out, couplings):
    for jitter in ("none", "0.866ms"):
        for coupling in couplings:
            runs = [analyse(f"{out}/{coupling}-{seed}-{jitter}") for seed in (1, 2, 3, 4)]
            print(f"{coupling}, jitter {jitter}, seeds 1-4")
            for key in runs[0]:
                print(f"  {key:50s} " + "  ".join(show(r[key]) for r in runs))


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2:] or ["lia", "olia", "reno"])
