"""The network of a run as a picture: every link coloured by the utilisation of its busier
direction and drawn thicker the longer that direction's mean queue, consumers and producers marked
(issue 24, "a topology figure with per-link utilisation and queue, readable at 100 nodes").

Utilisation is the direction's mean throughput over the run's bins (the link trace's
`throughput_bps`: wire bytes whose transmission started in the bin) over its bit rate, the rate the
simulator gives it (`_core.flow_network`, so the figure reads the scenario exactly as the run did).
The layout is networkx's spring layout with a fixed seed: the same run gives the same picture.
Underlay hops (`a->b/u1`) are drawn as their overlay link.
"""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING, Any, Dict, Optional, Tuple

from ndnflow.results import Results

if TYPE_CHECKING:
    from matplotlib.axes import Axes

#: Above this many nodes the figure is not drawn by default: labels and links no longer read, and
#: the layout's time grows with the square of the nodes.
MAX_NODES = 300
#: Node labels are written up to this many nodes.
MAX_LABELS = 100


def _network(results: Results) -> Optional[Dict[str, Any]]:
    """The scenario's flow network, or None when the results do not carry their scenario."""
    if results.scenario_toml is None:
        return None
    return _flow_network(results.scenario_toml)


@lru_cache(maxsize=1)
def _flow_network(scenario_toml: str) -> Dict[str, Any]:
    """Read once per scenario: `plot_results` asks whether the figure is drawable, then draws it
    (reading a scenario is the Rust reader's whole build of it). Callers only read the dict."""
    from ndnflow import _native

    return _native.require("flow_network")(scenario_toml, "scenario.toml")


def drawable(results: Results) -> bool:
    """Whether `plot_results` draws the figure by default: the scenario is known and small enough."""
    try:
        network = _network(results)
    except Exception:  # a scenario that needs files beside it, say: no figure rather than no run
        return False
    return network is not None and 0 < len(network["nodes"]) <= MAX_NODES


def link_loads(results: Results, network: Dict[str, Any]) -> Dict[Tuple[str, str], Tuple[float, float]]:
    """Per undirected link (a, b), a < b: the utilisation and mean queue (packets) of its busier
    direction, the one of higher utilisation."""
    links = results.links
    means = links.groupby("link")[["throughput_bps", "queue_packets"]].mean() if not links.empty else None
    loads: Dict[Tuple[str, str], Tuple[float, float]] = {}
    for d in network["directions"]:
        name = f"{d['src']}->{d['dst']}"
        rate = float(d["chain"][0]["bandwidth_bps"])
        thr, queue = (0.0, 0.0)
        if means is not None and name in means.index:
            thr, queue = float(means.at[name, "throughput_bps"]), float(means.at[name, "queue_packets"])
        key = tuple(sorted((d["src"], d["dst"])))
        load = (thr / rate if rate > 0 else 0.0, queue)
        loads[key] = max(loads.get(key, (0.0, 0.0)), load)
    return loads


def draw_topology(ax: Axes, results: Results) -> None:
    import networkx as nx
    import matplotlib
    from matplotlib import cm, colors

    network = _network(results)
    if network is None:
        ax.text(0.5, 0.5, "no scenario with these results", transform=ax.transAxes, ha="center", va="center", color="gray")
        ax.set_axis_off()
        return
    loads = link_loads(results, network)
    graph = nx.Graph()
    graph.add_nodes_from(network["nodes"])
    graph.add_edges_from(loads)
    pos = nx.spring_layout(graph, seed=1)
    norm = colors.Normalize(vmin=0.0, vmax=1.0)
    cmap = matplotlib.colormaps["viridis"]
    most_queue = max((q for _, q in loads.values()), default=0.0) or 1.0
    for (a, b), (util, queue) in loads.items():
        (xa, ya), (xb, yb) = pos[a], pos[b]
        ax.plot([xa, xb], [ya, yb], color=cmap(norm(min(util, 1.0))), linewidth=1.0 + 5.0 * queue / most_queue,
                solid_capstyle="round", zorder=1)
    producers = {p["node"] for p in network["producers"]}
    consumers = {c["node"] for c in network["consumers"]}
    for kind, nodes, marker, colour in (
        ("router", [n for n in graph if n not in producers | consumers], "o", "lightgray"),
        ("consumer", [n for n in graph if n in consumers and n not in producers], "^", "tab:blue"),
        ("producer", [n for n in graph if n in producers], "s", "tab:red"),
    ):
        if nodes:
            ax.scatter([pos[n][0] for n in nodes], [pos[n][1] for n in nodes], s=40 if len(graph) <= MAX_LABELS else 12,
                       marker=marker, c=colour, edgecolors="black", linewidths=0.5, zorder=2, label=kind)
    if len(graph) <= MAX_LABELS:
        for n, (x, y) in pos.items():
            ax.annotate(str(n), (x, y), xytext=(3, 3), textcoords="offset points", fontsize=6 if len(graph) > 30 else 8)
    bar = ax.figure.colorbar(cm.ScalarMappable(norm=norm, cmap=cmap), ax=ax, fraction=0.04, pad=0.02)
    bar.set_label("utilisation of the busier direction")
    ax.legend(fontsize="small", loc="upper left", bbox_to_anchor=(0.0, -0.02), ncol=3, frameon=False)
    ax.set_title(f"Network: {len(graph)} nodes, {len(loads)} links (width: mean queue, up to {most_queue:.1f} packets)")
    ax.set_axis_off()
