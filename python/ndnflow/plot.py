"""Figures of a run (PNG, matplotlib's Agg canvas; no pyplot, so no global backend is changed).

matplotlib, numpy and pandas load when a figure is drawn, not with this module: `ndnflow run
--no-plot` reads `FIGURES` only, to remove an earlier run's figures (issue 23, item 3)."""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, List, Mapping, Optional, Sequence, Tuple, Union

from ndnflow import figures
from ndnflow.report import natural_key
from ndnflow.results import Results

if TYPE_CHECKING:
    import numpy as np
    import pandas as pd
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

PathLike = Union[str, "os.PathLike[str]"]

DPI = figures.DPI
#: At most this many series per axes (the busiest ones); the title says when some were left out.
MAX_SERIES = 10


def _busiest(frame: pd.DataFrame, key: str, weight: str) -> List[str]:
    """Values of `key` whose rows carried traffic, busiest first, at most MAX_SERIES of them."""
    if frame.empty or weight not in frame:
        return []
    totals = frame.groupby(key, sort=False)[weight].sum()
    totals = totals[totals > 0]
    ordered = sorted(totals.index, key=lambda name: (-totals[name], natural_key(str(name))))
    return ordered[:MAX_SERIES]


def _active_links(results: Results) -> List[str]:
    """Link directions that carried packets, most bytes first."""
    links = results.links
    if links.empty:
        return []
    carried = links.groupby("link", sort=False)["packets"].sum()
    active = links[links["link"].isin(carried[carried > 0].index)]
    return _busiest(active, "link", "bytes") or sorted(carried[carried > 0].index, key=natural_key)[:MAX_SERIES]


def _count_active_links(results: Results) -> int:
    links = results.links
    if links.empty:
        return 0
    totals = links.groupby("link")["packets"].sum()
    return int((totals > 0).sum())


def _consumers(results: Results) -> List[str]:
    frame = results.consumers
    if frame.empty:
        return []
    names = sorted(frame["consumer"].unique(), key=lambda name: natural_key(str(name)))
    return names[:MAX_SERIES]


def _series_title(title: str, shown: int, total: int) -> str:
    return f"{title} (busiest {shown} of {total})" if total > shown else title


def _bin_width(frame: pd.DataFrame) -> float:
    import numpy as np

    times = np.unique(frame["time_s"].to_numpy())
    return float(np.diff(times).min()) if len(times) > 1 else 0.0


def _lines(
    ax: Axes, frame: pd.DataFrame, key: str, names: Sequence[str], column: str, scale: float = 1.0, sampled: bool = False
) -> bool:
    """One line per name; returns whether anything was drawn.

    A per-bin total or mean is drawn as a step over its bin; a `sampled` value (taken at the end of
    its bin) as a point at the bin end.
    """
    drawn = False
    shift = _bin_width(frame) if sampled else 0.0
    for name in names:
        rows = frame[frame[key] == name]
        values = rows[column] * scale
        if values.notna().any():
            style = "default" if sampled else "steps-post"
            ax.plot(rows["time_s"] + shift, values, label=str(name), linewidth=1.2, drawstyle=style)
            drawn = True
    if drawn:
        ax.legend(fontsize="small", loc="upper left", bbox_to_anchor=(1.01, 1.0), borderaxespad=0.0)
        ax.set_ylim(bottom=0)
        ax.set_xlim(left=0)
    else:
        ax.text(0.5, 0.5, "no data", transform=ax.transAxes, ha="center", va="center", color="gray")
    ax.grid(True, alpha=0.3)
    return drawn


def draw_throughput(ax: Axes, results: Results) -> None:
    names = _active_links(results)
    _lines(ax, results.links, "link", names, "throughput_bps", 1e-6)
    ax.set_title(_series_title("Link throughput", len(names), _count_active_links(results)))
    ax.set_xlabel("time (s)")
    ax.set_ylabel("throughput (Mbit/s)")


def draw_window(ax: Axes, results: Results) -> None:
    names = _consumers(results)
    drawn = _lines(ax, results.consumers, "consumer", names, "window")
    ax.set_title("Consumer window" if drawn else "Consumer window (rate-based consumers have none)")
    ax.set_xlabel("time (s)")
    ax.set_ylabel("window (Interests)")


def draw_goodput(ax: Axes, results: Results) -> None:
    names = _consumers(results)
    _lines(ax, results.consumers, "consumer", names, "goodput_bps", 1e-6)
    total = results.consumers["consumer"].nunique() if not results.consumers.empty else 0
    ax.set_title(_series_title("Consumer goodput", len(names), total))
    ax.set_xlabel("time (s)")
    ax.set_ylabel("goodput (Mbit/s)")


def draw_queue(ax: Axes, results: Results) -> None:
    names = _active_links(results)
    _lines(ax, results.links, "link", names, "queue_packets", sampled=True)
    ax.set_title(_series_title("Queue length at bin end", len(names), _count_active_links(results)))
    ax.set_xlabel("time (s)")
    ax.set_ylabel("queue (packets)")


def draw_sojourn(ax: Axes, results: Results) -> None:
    names = _active_links(results)
    _lines(ax, results.links, "link", names, "sojourn_ms")
    ax.set_title(_series_title("Queue sojourn time", len(names), _count_active_links(results)))
    ax.set_xlabel("time (s)")
    ax.set_ylabel("sojourn (ms)")


def _cdfs(ax: Axes, frame: pd.DataFrame, values: Callable[[pd.DataFrame], Any], nothing: str,
          scale: float = 1.0) -> Tuple[int, int]:
    """Per consumer of `frame` (at most MAX_SERIES), the empirical CDF of `values(its rows)` x
    `scale` as a step line; returns (consumers drawn, consumers in all)."""
    import numpy as np

    names = sorted(frame["consumer"].unique(), key=lambda name: natural_key(str(name)))[:MAX_SERIES] if len(frame) else []
    for name in names:
        x = np.sort(np.asarray(values(frame[frame["consumer"] == name]), dtype=float)) * scale
        ax.step(x, np.arange(1, len(x) + 1) / len(x), where="post", label=str(name), linewidth=1.2)
    if names:
        ax.legend(fontsize="small", loc="upper left", bbox_to_anchor=(1.01, 1.0), borderaxespad=0.0)
        ax.set_xlim(left=0)
    else:
        ax.text(0.5, 0.5, nothing, transform=ax.transAxes, ha="center", va="center", color="gray")
    ax.set_ylim(0, 1.02)
    ax.grid(True, alpha=0.3)
    return len(names), (frame["consumer"].nunique() if len(frame) else 0)


def draw_completion_cdf(ax: Axes, results: Results) -> None:
    """Per catalog consumer, the empirical CDF of its objects' completion times (end - start;
    unfinished objects left out), as SMIC §5 plots retrieval times."""
    objects = results.objects
    done = objects[objects["end_s"].notna()] if not objects.empty else objects
    shown, total = _cdfs(ax, done, lambda rows: rows["end_s"] - rows["start_s"], "no completed object")
    ax.set_title(_series_title("Object completion time (CDF)", shown, total))
    ax.set_xlabel("completion time (s)")
    ax.set_ylabel("fraction of objects")


def draw_topology(ax: Axes, results: Results) -> None:
    from ndnflow.plot_topology import draw_topology as draw

    draw(ax, results)


def _delay_cdf(ax: Axes, results: Results, column: str, title: str) -> None:
    """Per consumer, the CDF of one delay of the per-segment trace over the segments that got Data
    (ndnSIM's AppDelayTracer delays), in ms."""
    segments = results.interests
    answered = segments[segments["arrival_s"].notna()] if not segments.empty else segments
    shown, total = _cdfs(ax, answered, lambda rows: rows[column], "no segment got Data", 1e3)
    ax.set_title(_series_title(title, shown, total))
    ax.set_xlabel("delay (ms)")
    ax.set_ylabel("fraction of segments")


def draw_full_delay_cdf(ax: Axes, results: Results) -> None:
    """Arrival - first send: what the application waited, retransmissions included."""
    _delay_cdf(ax, results, "full_delay_s", "Full delay, from the first Interest (CDF)")


def draw_last_delay_cdf(ax: Axes, results: Results) -> None:
    """Arrival - last send: the round trip of the Interest that was answered."""
    _delay_cdf(ax, results, "last_delay_s", "Last delay, from the last Interest (CDF)")


def path_label(consumer: str, k: int, summary: Mapping[str, Any]) -> str:
    """A path's series name: "consumer path k", and its nodes, producer first, where summary.json
    read its tag stack back ("c path 0 (p-a-r-c)"). Not for a catalog consumer: one that starts
    each object afresh numbers its paths again, and path k's bins may then be other routes."""
    entry = summary.get("consumers", {}).get(consumer) or {}
    paths = [] if entry.get("catalog") else entry.get("paths") or []
    nodes = paths[k].get("nodes") if k < len(paths) else None
    return f"{consumer} path {k}" + (f" ({'-'.join(nodes)})" if nodes else "")


def _path_series(results: Results) -> Tuple[pd.DataFrame, List[str], int]:
    """The paths trace with a `series` column (`path_label`: one series per path index), the
    busiest series by Data (at most MAX_SERIES) and how many there are."""
    frame = results.paths.copy()
    if frame.empty:
        return frame, [], 0
    labels = {key: path_label(str(key[0]), int(key[1]), results.summary)
              for key in frame[["consumer", "path"]].drop_duplicates().itertuples(index=False, name=None)}
    frame["series"] = [labels[key] for key in zip(frame["consumer"], frame["path"])]
    totals = frame.groupby("series")["data"].sum()
    busiest = sorted(totals.index, key=lambda name: (-totals[name], natural_key(name)))
    return frame, busiest[:MAX_SERIES], len(busiest)


def path_rates(results: Results) -> Tuple[pd.DataFrame, float]:
    """Per path series ("consumer path k"), Data received per second (probes not included) over
    spans of whole bins of at least a second: a path of a few Data per bin is noise at the 100 ms
    bins of a window trace. Returns the rows (series, time_s: span start, data: per second) and
    the span, seconds (0 without path rows)."""
    return _rates_per_span(_path_series(results)[0])


def _rates_per_span(frame: pd.DataFrame) -> Tuple[pd.DataFrame, float]:
    """`path_rates` of the series rows `frame` (`_path_series`)."""
    import math

    width = _bin_width(frame) if not frame.empty else 0.0
    if width <= 0:
        return frame, 0.0
    span = width * math.ceil(1.0 / width - 1e-9)
    end = float(frame["time_s"].max()) + width  # the last bin's end: a last span may be shorter
    frame = frame.assign(time_s=(frame["time_s"] / span + 1e-9).astype(int) * span)
    frame = frame.groupby(["series", "time_s"], as_index=False)["data"].sum()
    frame["data"] = frame["data"] / (end - frame["time_s"]).clip(upper=span)
    return frame, span


def draw_path_rates(ax: Axes, results: Results) -> None:
    """Per path of the multipath consumers, Data received per second (`path_rates`)."""
    series, names, total = _path_series(results)
    frame, span = _rates_per_span(series)
    _lines(ax, frame, "series", names, "data")
    title = "Data per path" + (f", per {span:g} s" if span else "")
    ax.set_title(_series_title(title, len(names), total))
    ax.set_xlabel("time (s)")
    ax.set_ylabel("Data per second")


def path_windows(results: Results) -> pd.DataFrame:
    """The paths trace with its `series` (`_path_series`), each path's window blanked (NaN) at the
    ends of bins in which it was not in use: a path out of use keeps the window it had, which it
    will not start from again (it restarts in slow start), so drawing it would show a path that
    carries nothing as if it could send."""
    return _windows_in_use(_path_series(results)[0])


def _windows_in_use(frame: pd.DataFrame) -> pd.DataFrame:
    """`path_windows` of the series rows `frame` (`_path_series`)."""
    if frame.empty:
        return frame
    return frame.assign(window=frame["window"].where(frame["in_use"].astype(bool)))


def draw_path_windows(ax: Axes, results: Results) -> None:
    """Per path of the multipath consumers, the congestion window at the end of each bin in which
    it is in use (`path_windows`)."""
    series, names, total = _path_series(results)
    _lines(ax, _windows_in_use(series), "series", names, "window", sampled=True)
    ax.set_title(_series_title("Window per path at bin end, while in use", len(names), total))
    ax.set_xlabel("time (s)")
    ax.set_ylabel("window (Interests)")


Drawer = Callable[["Axes", Results], None]

#: file name -> the panels of that figure, top to bottom.
FIGURES = {
    "throughput.png": [draw_throughput],
    "window.png": [draw_window, draw_goodput],
    "queue.png": [draw_queue, draw_sojourn],
    # Goodput rather than the window: a fixed-window consumer's window is a flat line that says
    # nothing about the run (window.png has both).
    "overview.png": [draw_throughput, draw_goodput, draw_queue],
    "objects.png": [draw_completion_cdf],
    "topology.png": [draw_topology],
    "delay.png": [draw_full_delay_cdf, draw_last_delay_cdf],
    "paths.png": [draw_path_rates, draw_path_windows],  # windows while in use
}

#: Figures drawn square rather than as a stack of time series.
SQUARE = {"topology.png": (9, 8)}

#: Figures drawn only when the run has rows for them (or when asked for by name).
OPTIONAL_FIGURES = {"objects.png": "objects", "delay.png": "interests", "paths.png": "paths"}


def _panels(name: str, results: Results) -> List[Drawer]:
    """A figure's panels; a run with catalog consumers gets their completion-time CDF in the
    overview too."""
    panels = list(FIGURES[name])
    if name == "overview.png" and not results.objects.empty:
        panels.append(draw_completion_cdf)
    return panels


def _figure(panels: Sequence[Drawer], results: Results, path: Path, title: Optional[str]) -> List[Path]:
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    figure = Figure(figsize=SQUARE.get(path.name, (9, 3.2 * len(panels))), dpi=DPI)
    FigureCanvasAgg(figure)
    axes = figure.subplots(len(panels), 1, squeeze=False)[:, 0]
    for ax, draw in zip(axes, panels):
        draw(ax, results)
    if title:
        figure.suptitle(title, fontsize=10)
    figure.tight_layout()
    return figures.save(figure, path)


def plot_results(results: Results, out_dir: PathLike, names: Optional[Sequence[str]] = None,
                 title: Optional[str] = None) -> List[Path]:
    """Draw the figures of `results` into `out_dir`; returns the paths written.

    throughput.png: per link direction that carried traffic, Mbit/s over time.
    window.png: consumer window and goodput over time.
    queue.png: queue length (packets) and sojourn time (ms) over time.
    overview.png: throughput, goodput and queue length, one above the other (and the objects'
        completion-time CDF when the run has catalog consumers).
    objects.png: per catalog consumer, the CDF of its objects' completion times; drawn only for a
        run with catalog consumers unless asked for by name.
    topology.png: the network, each link coloured by its busier direction's utilisation and as
        thick as its mean queue; drawn only when the results carry their scenario and it has at
        most 300 nodes, unless asked for by name.
    delay.png: per consumer, the CDFs of its segments' full and last delays (``[trace] interests =
        true``); drawn only for a run with that trace unless asked for by name.
    paths.png: per path of the multipath consumers (PTP, MPTCP, DPCCP, MIRCC, SMIC), Data per
        second and the window over time; drawn only for a run with such a consumer unless asked
        for by name.
    `names` picks a subset of these files; `title` (the scenario's name) heads every figure.
    """
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    if names is None:
        from ndnflow.plot_topology import drawable

        selected = [name for name in FIGURES
                    if name not in OPTIONAL_FIGURES or not getattr(results, OPTIONAL_FIGURES[name]).empty]
        if not drawable(results):
            selected.remove("topology.png")
    elif isinstance(names, str):  # one name, not its letters
        selected = [names]
    else:
        selected = list(names)
    unknown = [name for name in selected if name not in FIGURES]
    if unknown:
        raise ValueError(f"unknown figure(s) {', '.join(unknown)}; known: {', '.join(FIGURES)}")
    written: List[Path] = []
    for name in selected:
        try:
            written += _figure(_panels(name, results), results, out / name, title)
        except KeyError as exc:
            # A trace without a number column a figure draws (an older ndnflow's, or an edited
            # one) was an internal KeyError until 2026-11-28.
            from ndnflow.safe_io import ResultsFileError

            raise ResultsFileError(f"{name}: the results have no {exc.args[0]!r} column to draw it from "
                                   f"(a trace written by an older ndnflow, or edited)") from None
    return written


#: At most this many metrics get a panel in a sweep's figure.
MAX_SWEEP_PANELS = 6


def _sweep_x(values: pd.Series, every: pd.Series) -> Tuple[np.ndarray, Optional[List[str]]]:
    """(x positions of `values`, tick labels or None): numbers stay on a numeric axis; anything
    else is placed at 0, 1, 2, ... in the order `every` (the whole column) first has them, so that
    every line puts a value at the same place even when a sweep was cut short."""
    import pandas as pd

    if pd.api.types.is_numeric_dtype(every) and not pd.api.types.is_bool_dtype(every):
        return values.to_numpy(dtype=float), None
    order = list(dict.fromkeys(every.astype(str)))
    return values.astype(str).map(order.index).to_numpy(dtype=float), order


def _sweep_y_axis(ax: Axes, values: np.ndarray) -> None:
    """Counts and rates start at 0 (an axis from 4.6 to 4.9 Mbit/s exaggerates a 6 % spread), and
    a metric that is 0 in every run gets the axis 0..1 instead of matplotlib's -0.04..0.04."""
    import numpy as np

    finite = values[np.isfinite(values)]
    if finite.size == 0 or finite.min() < 0:
        return
    if finite.max() == 0:
        ax.set_ylim(0, 1)
    else:
        ax.set_ylim(bottom=0)


def sweep_figure(sweep: Any, patterns: Sequence[str]) -> Figure:
    """One panel per metric matching `patterns` (at most `MAX_SWEEP_PANELS`; the title says how
    many were left out): the metric's mean over the seeds against the first grid key, one line per
    value of the other keys, the standard deviation over the seeds as error bars. Rates
    (``*_bps``) in Mbit/s."""
    import numpy as np
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    from ndnflow.sweeps import display

    means = sweep.mean(patterns)
    matched = sweep.metrics(patterns)
    metrics = matched[:MAX_SWEEP_PANELS]
    keys = list(sweep.keys)
    x_key = keys[0] if keys else "point"
    figure = Figure(figsize=(7, 2.8 * max(1, len(metrics))), dpi=DPI)
    FigureCanvasAgg(figure)
    axes = figure.subplots(max(1, len(metrics)), 1, squeeze=False)[:, 0]
    groups = means.groupby([means[key].astype(str) for key in keys[1:]], sort=False) if keys[1:] else [((), means)]
    for ax, metric in zip(axes, metrics):
        name, scale, unit = display(metric)
        drawn = []
        for group_values, frame in groups:
            group_values = group_values if isinstance(group_values, tuple) else (group_values,)
            label = ", ".join(f"{key}={value}" for key, value in zip(keys[1:], group_values)) or None
            x, ticks = _sweep_x(frame[x_key], means[x_key])
            y = frame[metric].to_numpy(dtype=float) / scale
            error = frame[f"{metric}.std"].to_numpy(dtype=float) / scale
            ax.errorbar(x, y, yerr=None if np.isnan(error).all() else error, marker="o", capsize=3, label=label)
            drawn.append(y + np.nan_to_num(error))
            if ticks is not None:
                ax.set_xticks(range(len(ticks)), ticks)
        _sweep_y_axis(ax, np.concatenate(drawn) if drawn else np.array([]))
        ax.set_ylabel(f"{name} [{unit}]" if unit else name, fontsize=8)
        ax.set_xlabel(x_key)
        ax.grid(True, alpha=0.3)
        if len(keys) > 1:
            ax.legend(fontsize=7)
    seeds = ", ".join(str(seed) for seed in sweep.seeds)
    title = f"{sweep.source}: mean over seeds {seeds}" if len(sweep.seeds) > 1 else f"{sweep.source} (seed {seeds})"
    if len(matched) > len(metrics):
        title += f"\nthe first {len(metrics)} of {len(matched)} metrics; the files have them all"
    axes[0].set_title(title, fontsize=9)
    figure.tight_layout()
    return figure


def plot_sweep(sweep: Any, path: PathLike, patterns: Sequence[str]) -> List[Path]:
    """`sweep_figure` at `path`, once per chosen figure format (`ndnflow.figures`)."""
    return figures.save(sweep_figure(sweep, patterns), Path(path))
