"""`ndnflow.figures` and `--figures`: every figure in the formats asked for (PNG by default, PDF
and SVG beside it for a paper), each format's file the same bytes on every run."""

from __future__ import annotations

from pathlib import Path

import pytest
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure

from ndnflow import figures
from ndnflow.cli import main


def _figure() -> Figure:
    figure = Figure(figsize=(3, 2))
    FigureCanvasAgg(figure)
    figure.subplots().plot([0, 1, 2], [0, 1, 4], label="x^2")
    return figure


def test_formats_are_parsed_in_order_once_each():
    assert figures.parse("PNG, pdf,png") == ("png", "pdf")
    assert figures.parse("svg") == ("svg",)


@pytest.mark.parametrize("text, message", [
    ("jpg", "unknown format 'jpg'; choose from png, pdf, svg"),
    ("png,,pdf", "an empty format"),
])
def test_an_unknown_or_empty_format_is_named(text, message):
    with pytest.raises(figures.FormatError, match=message):
        figures.parse(text)


def test_each_format_is_written_beside_the_others_and_the_setting_comes_back(tmp_path):
    assert figures.current() == ("png",)
    with figures.writing("svg", "png", "pdf"):
        written = figures.save(_figure(), tmp_path / "f.png")
    assert written == [tmp_path / "f.svg", tmp_path / "f.png", tmp_path / "f.pdf"]
    assert [p.read_bytes()[:4] for p in written] == [b"<?xm", b"\x89PNG", b"%PDF"]
    assert figures.current() == ("png",)
    with pytest.raises(RuntimeError), figures.writing("pdf"):
        raise RuntimeError("a figure failed")
    assert figures.current() == ("png",), "an error inside the block restores the setting too"


def test_vector_files_are_the_same_bytes_on_every_run(tmp_path):
    # A PDF would carry its creation time and an SVG random element ids.
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    with figures.writing("pdf", "svg"):
        first = figures.save(_figure(), tmp_path / "a" / "f.png")
        second = figures.save(_figure(), tmp_path / "b" / "f.png")
    assert [p.read_bytes() for p in first] == [p.read_bytes() for p in second]
    # Two saves within one second would match even with a date in them: the PDF carries none.
    assert b"CreationDate" not in first[0].read_bytes() and b"<dc:date>" not in first[1].read_bytes()


def test_run_writes_the_figures_asked_for_and_a_later_run_replaces_them(capsys, real_core, quickstart, tmp_path):
    out = tmp_path / "out"
    assert main(["run", str(quickstart), "--duration", "1s", "--out", str(out), "--figures", "pdf", "--quiet"]) == 0
    assert (out / "overview.pdf").is_file() and not (out / "overview.png").exists()
    assert figures.current() == ("png",), "the command's formats end with it"
    capsys.readouterr()
    assert main(["run", str(quickstart), "--duration", "1s", "--out", str(out)]) == 0
    assert (out / "overview.png").is_file() and not (out / "overview.pdf").exists()
    assert "removed throughput.pdf, window.pdf, queue.pdf, overview.pdf, topology.pdf" in capsys.readouterr().err


def test_a_bad_format_stops_the_command_before_it_runs(capsys, tmp_path):
    assert main(["run", str(tmp_path / "never-read.toml"), "--figures", "png,jpg"]) == 2
    err = capsys.readouterr().err
    assert err.strip() == "error: --figures 'png,jpg': unknown format 'jpg'; choose from png, pdf, svg"


def test_reproduce_draws_its_figure_in_every_format(real_core, tmp_path):
    out = tmp_path / "rep"
    main(["reproduce", "pcon-4.1", "--out", str(out), "--figures", "png,svg", "--quiet"])
    assert sorted(p.name for p in Path(out).glob("figure3.*")) == ["figure3.png", "figure3.svg"]
