"""Text reports of a run's summary: the results table and ndnget-style consumer statistics."""

from __future__ import annotations

import math
import re
import textwrap
from typing import Any, Iterable, List, Mapping, Optional, Sequence

_NATURAL_CHUNK = re.compile(r"(\d+)")


def natural_key(text: str) -> List[Any]:
    """Sort key that orders "node#2" before "node#10"."""
    return [int(chunk) if chunk.isdigit() else chunk for chunk in _NATURAL_CHUNK.split(text)]


def _number(value: Any) -> Optional[float]:
    if value is None:
        return None
    number = float(value)
    return number if math.isfinite(number) else None


def fixed(value: Any, decimals: int) -> str:
    """`value` with `decimals` decimals, or "-" when it is missing or not finite."""
    number = _number(value)
    return "-" if number is None else f"{number:.{decimals}f}"


def integer(value: Any) -> str:
    return "-" if value is None else str(int(value))


def bit_rate(bps: Any) -> str:
    """A rate with its unit scaled as ndnget prints it: "812.4 kbit/s", "9.876 Mbit/s"."""
    number = _number(bps)
    if number is None:
        return "-"
    for factor, unit in ((1e12, "Tbit/s"), (1e9, "Gbit/s"), (1e6, "Mbit/s"), (1e3, "kbit/s")):
        if abs(number) >= factor:
            return f"{number / factor:.4g} {unit}"
    return f"{number:.4g} bit/s"


def render(headers: Sequence[str], rows: Iterable[Sequence[str]], align: Optional[str] = None) -> str:
    """A plain-text table; `align` has one letter per column, "l" or "r" (default: first column
    left-aligned, the others right-aligned, as suits names followed by numbers)."""
    rows = [list(row) for row in rows]
    widths = [max(len(str(cell)) for cell in column) for column in zip(headers, *rows)]
    align = align or "l" + "r" * (len(headers) - 1)

    def line(cells: Sequence[str]) -> str:
        padded = [
            str(cell).ljust(width) if side == "l" else str(cell).rjust(width)
            for cell, width, side in zip(cells, widths, align)
        ]
        return "  ".join(padded).rstrip()

    rule = "  ".join("-" * width for width in widths)
    return "\n".join([line(headers), rule, *(line(row) for row in rows)])


def render_wrapped(headers: Sequence[str], rows: Iterable[Sequence[str]], widths: Sequence[int],
                   align: Optional[str] = None) -> str:
    """`render`, with each column's cells wrapped to at most its `widths` entry, so that a table
    of long prose cells fits a terminal; a row then takes several lines, its first line holding
    the start of every cell."""
    lines: List[List[str]] = []
    for row in rows:
        cells = [textwrap.wrap(str(cell), width) or [""] for cell, width in zip(row, widths)]
        height = max(len(cell) for cell in cells)
        lines.extend([cell[k] if k < len(cell) else "" for cell in cells] for k in range(height))
    return render(headers, lines, align)


def _elapsed_s(summary: Mapping[str, Any]) -> float:
    simulation = summary.get("simulation", {})
    for key in ("end_s", "duration_s"):
        value = _number(simulation.get(key))
        if value:
            return value
    return 0.0


def simulation_line(summary: Mapping[str, Any]) -> str:
    simulation = summary.get("simulation", {})
    parts = [f"simulated {fixed(simulation.get('end_s'), 3)} s of {fixed(simulation.get('duration_s'), 3)} s"]
    if simulation.get("seed") is not None:
        parts.append(f"seed {simulation['seed']}")
    if simulation.get("events") is not None:
        parts.append(f"{int(simulation['events']):,} events")
    if simulation.get("packet_hops") is not None:
        parts.append(f"{int(simulation['packet_hops']):,} packet-hops")
    line = "Run: " + ", ".join(parts)
    return line + " (interrupted)" if simulation.get("interrupted") else line


def late_start(start_s: Any, duration_s: Any) -> bool:
    """A consumer whose `start_s` is at or after the end of the run sends nothing: its goodput of
    0 says nothing about the network, so the reports warn of it rather than show it silently."""
    start, duration = _number(start_s), _number(duration_s)
    return start is not None and duration is not None and start >= duration


def late_consumer_warnings(summary: Mapping[str, Any]) -> List[str]:
    """One warning per consumer of `summary` that starts at or after the end of the run."""
    duration = summary.get("simulation", {}).get("duration_s")
    return [
        f"warning: consumer {cid} starts at {fixed(c.get('start_s'), 3)} s, at or after the end of the run "
        f"({fixed(duration, 3)} s): it sends nothing and its goodput of 0 is not a measurement"
        for cid, c in sorted(summary.get("consumers", {}).items(), key=lambda item: natural_key(item[0]))
        if late_start(c.get("start_s"), duration)
    ]


def sweep_late_consumer_warnings(rows: Sequence[Mapping[str, Any]]) -> List[str]:
    """The same warning for a sweep, whose `rows` are flattened summaries (``consumers.c1.start_s``,
    ``simulation.duration_s``, with ``point`` and ``seed``): one line per consumer, with how many
    runs it sat out and the first of them."""
    late: dict = {}
    for row in rows:
        duration = row.get("simulation.duration_s")
        for key, value in row.items():
            if key.startswith("consumers.") and key.endswith(".start_s") and late_start(value, duration):
                late.setdefault(key[len("consumers."):-len(".start_s")], []).append(row)
    return [
        f"warning: consumer {cid} starts at or after the end of the run in {len(runs)} of {len(rows)} runs "
        f"(first: point {runs[0].get('point')}, seed {runs[0].get('seed')}): it sends nothing there and its "
        "goodput of 0 is not a measurement"
        for cid, runs in sorted(late.items(), key=lambda item: natural_key(item[0]))
    ]


def consumers_table(summary: Mapping[str, Any]) -> str:
    consumers = summary.get("consumers", {})
    headers = ["consumer", "goodput Mbit/s", "data", "interests", "retx", "timeouts", "nacks", "RTT avg ms",
               "RTT p50/p95/p99 ms"]
    rows = [
        [
            cid,
            fixed(None if c.get("goodput_bps") is None else c["goodput_bps"] / 1e6, 3),
            integer(c.get("data_received")),
            integer(c.get("interests_sent")),
            integer(c.get("retransmissions")),
            integer(c.get("timeouts")),
            integer(c.get("nacks")),
            fixed(c.get("rtt_avg_ms"), 2),
            _percentiles(c, 2),
        ]
        for cid, c in sorted(consumers.items(), key=lambda item: natural_key(item[0]))
    ]
    return render(headers, rows)


def _percentiles(consumer: Mapping[str, Any], digits: int) -> str:
    """The consumer's RTT p50/p95/p99 in ms, "-" for each it lacks (no sample, or an older summary)."""
    return "/".join(fixed(consumer.get(key), digits) for key in ("rtt_p50_ms", "rtt_p95_ms", "rtt_p99_ms"))


def links_table(summary: Mapping[str, Any], top: Optional[int] = None) -> str:
    """Link directions that carried traffic; throughput is averaged over the simulated time.
    `top`: only the `top` busiest directions (most bytes), in the usual order, and a line saying
    how many were left out."""
    elapsed = _elapsed_s(summary)
    headers = ["link", "throughput Mbit/s", "packets", "drops", "marks"]
    active = [(name, link) for name, link in summary.get("links", {}).items() if link.get("packets") or link.get("bytes")]
    if not active:
        return "(no link carried traffic)"
    shown = active
    if top is not None and len(active) > top:
        busiest = sorted(active, key=lambda item: (-(item[1].get("bytes") or 0), natural_key(item[0])))[:top]
        shown = busiest
    rows = []
    for name, link in sorted(shown, key=lambda item: natural_key(item[0])):
        throughput = 8.0 * link.get("bytes", 0) / elapsed / 1e6 if elapsed else None
        rows.append([name, fixed(throughput, 3), integer(link.get("packets")), integer(link.get("drops")), integer(link.get("marks"))])
    table = render(headers, rows)
    if len(shown) < len(active):
        table += f"\n({len(shown)} busiest of {len(active)} directions with traffic; the files have them all)"
    return table


#: Path states of a consumer's paths that carry no Interests (the others: "in-use", and MIRCC's
#: "primary" and "secondary" sub-flows): the rule of the Rust core's `PathReport::in_use`, which
#: paths.parquet's `in_use` column follows.
NOT_IN_USE = ("idle", "failed")


def paths_table(summary: Mapping[str, Any]) -> Optional[str]:
    """The paths in use of each multipath consumer at the end (PTP, MPTCP, DPCCP, MIRCC, SMIC), and
    per consumer a line counting those it knows but no longer uses; None without a multipath
    consumer. "nodes" is a tag stack read back into the path's nodes, producer first (summary.json's
    nodes; not for SMIC's path ids), a column only when some path has them; "bandwidth Mbit/s" is
    what PTP measured of a path over its last reselection period in use (summary.json's
    bandwidth_bps), a column only when some path has it. Every path is in summary.json and, bin by
    bin, in paths.parquet."""
    consumers = sorted(((cid, c) for cid, c in summary.get("consumers", {}).items() if c.get("paths")),
                       key=lambda item: natural_key(item[0]))
    if not consumers:
        return None
    measured = any(path.get("bandwidth_bps") is not None for _, c in consumers for path in c["paths"])
    located = any(path.get("nodes") for _, c in consumers for path in c["paths"])
    headers = ["consumer", "path", "state", "route", *(["nodes"] if located else []), "data", "window", "SRTT ms",
               "timeouts", "sharing"]
    headers += ["bandwidth Mbit/s"] if measured else []
    rows, notes = [], []
    for cid, c in consumers:
        paths = c["paths"]
        for k, path in enumerate(paths):
            if path.get("state") in NOT_IN_USE:
                continue
            nodes = ["-".join(path.get("nodes") or []) or "-"] if located else []
            row = [cid, str(k), str(path.get("state", "?")), " ".join(str(t) for t in path.get("tags", [])), *nodes,
                   integer(path.get("data")), fixed(path.get("window"), 1), fixed(path.get("srtt_ms"), 2),
                   integer(path.get("timeouts")), integer(path.get("sharing"))]
            bandwidth = path.get("bandwidth_bps")
            rows.append(row + ([fixed(None if bandwidth is None else bandwidth / 1e6, 3)] if measured else []))
        others = [path["state"] for path in paths if path.get("state") in NOT_IN_USE]
        if others:
            counts = ", ".join(f"{others.count(state)} {state}" for state in sorted(set(others)))
            notes.append(f"({cid}: {len(others)} more known, not in use: {counts})")
    align = "lrll" + ("l" if located else "") + "r" * (len(headers) - 4 - located)
    table = render(headers, rows, align=align) if rows else "(no path in use at the end)"
    return "\n".join([table, *notes])


def results_table(summary: Mapping[str, Any], top: Optional[int] = None) -> str:
    """The end-of-run table: a run line, then consumers, then links with traffic (the `top`
    busiest, when given), then the multipath consumers' paths in use, if any."""
    parts = [simulation_line(summary), "", "Consumers", consumers_table(summary), "", "Links (directions with traffic)",
             links_table(summary, top)]
    paths = paths_table(summary)
    if paths is not None:
        parts += ["", "Paths in use at the end (multipath consumers)", paths]
    return "\n".join(parts) + "\n"


def _kilobytes(count: Any) -> str:
    return "-" if count is None else f"{int(count) / 1e3:.3f} kB"


def consumer_report(cid: str, consumer: Mapping[str, Any]) -> str:
    """One consumer's statistics, the same figures ndnget prints at the end of a download."""
    sent = consumer.get("interests_sent") or 0
    retx = consumer.get("retransmissions") or 0
    share = f" ({100.0 * retx / sent:.1f}% of Interests)" if sent else ""
    finished = consumer.get("finished")
    state = "finished" if finished else "not finished"
    window = f"{fixed(consumer.get('start_s'), 3)} s to {fixed(consumer.get('end_s'), 3)} s, {state}"
    rtt = "/".join(fixed(consumer.get(key), 3) for key in ("rtt_min_ms", "rtt_avg_ms", "rtt_max_ms"))
    fields = [
        ("active", window),
        ("segments received", integer(consumer.get("data_received"))),
        ("transferred", _kilobytes(consumer.get("payload_bytes"))),
        ("goodput", bit_rate(consumer.get("goodput_bps"))),
        ("congestion marks", integer(consumer.get("marks"))),
        ("timeouts", integer(consumer.get("timeouts"))),
        ("nacks", integer(consumer.get("nacks"))),
        ("retransmissions", f"{integer(consumer.get('retransmissions'))}{share}"),
        ("RTT min/avg/max", f"{rtt} ms"),
        ("RTT p50/p95/p99", f"{_percentiles(consumer, 3)} ms"),
    ]
    width = max(len(label) for label, _ in fields) + 1
    title = f"Consumer {cid}: {consumer.get('name', '?')} on node {consumer.get('node', '?')}"
    return "\n".join([title, *(f"  {(label + ':').ljust(width)} {value}" for label, value in fields)])


def consumer_reports(summary: Mapping[str, Any], cid: Optional[str] = None) -> str:
    """ndnget-style blocks for consumer `cid`, or for every consumer when it is None."""
    consumers = summary.get("consumers", {})
    if cid is not None:
        if cid not in consumers:
            known = ", ".join(sorted(consumers, key=natural_key)) or "none"
            raise KeyError(f"no consumer {cid!r} (consumers: {known})")
        selected = [cid]
    else:
        selected = sorted(consumers, key=natural_key)
    return "\n\n".join(consumer_report(name, consumers[name]) for name in selected) + "\n"
