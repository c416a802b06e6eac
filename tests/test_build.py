"""Building a scenario (issue 22 item 3): built once whatever `run` overrides, and its progress
reported in counts that only grow, shown only past a second on a terminal and never with --quiet."""

from __future__ import annotations

import pytest

from ndnflow import Scenario, _native
from ndnflow.cli import main

CHAIN = '''[simulation]
duration = "1s"
seed = 1

[[producers]]
node = "n0"
prefix = "/a"

[[consumers]]
node = "n{last}"
name = "/a"
cc = {{ algorithm = "fixed-window", window = 2 }}
'''


def chain(links: int) -> str:
    """A chain of `links` + 1 nodes n0 - n1 - ... with the producer at one end, the consumer at
    the other."""
    edges = "".join(f'\n[[links]]\nbetween = ["n{k}", "n{k + 1}"]\nbandwidth = "10Mbps"\ndelay = "1ms"\n'
                    for k in range(links))
    nodes = "\n[nodes]\n" + "".join(f"n{k} = {{}}\n" for k in range(links + 1))
    return CHAIN.format(last=links) + nodes + edges


@pytest.fixture
def builds(real_core, monkeypatch):
    """Every `_core.Simulation` built from here on, as the keyword arguments it was given."""
    made = []
    real = _native.require("Simulation")

    def counted(*args, **kwargs):
        made.append(kwargs)
        return real(*args, **kwargs)

    original = _native.require
    monkeypatch.setattr(_native, "require", lambda name: counted if name == "Simulation" else original(name))
    return made


def test_a_changed_seed_and_duration_build_the_scenario_once(builds, tmp_path, capsys):
    # Before: four builds (the file as written, the overridden scenario, and both again to run).
    path = tmp_path / "chain.toml"
    path.write_text(chain(3))
    assert main(["run", str(path), "--seed", "7", "--duration", "0.5s", "--quiet", "--out", str(tmp_path / "o")]) == 0
    assert len(builds) == 1
    text = (tmp_path / "o" / "scenario.toml").read_text()
    assert "seed = 7" in text and 'duration = "0.5s"' in text


def test_a_mistake_in_the_file_keeps_its_line_and_one_in_the_options_names_them(real_core, tmp_path, capsys):
    path = tmp_path / "chain.toml"
    path.write_text(chain(1).replace('prefix = "/a"', 'prefix = "/a"\npayload = -1'))
    assert main(["run", str(path), "--seed", "7", "--quiet"]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"error: {path}:") and "(modified)" not in err, err
    path.write_text(chain(1))
    assert main(["run", str(path), "--set", "producers[0].payload=-1", "--quiet"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: --set producers[0].payload=-1: "), err


def test_building_reports_counts_that_only_grow_to_the_total(real_core):
    # 2,501 nodes, 2,500 links, 1 producer: 5,002 steps. Reported after the nodes (2,501), every
    # 1,024 links (2,501 + 1,024 = 3,525 and 2,501 + 2,048 = 4,549), after the links (5,001),
    # before the producer's routes (5,001 + 0) and at the end (5,002).
    calls = []
    Scenario.from_toml(chain(2500)).build_simulation(progress=lambda done, total: calls.append((done, total)))
    assert calls == [(2501, 5002), (3525, 5002), (4549, 5002), (5001, 5002), (5001, 5002), (5002, 5002)]
    dones = [done for done, _ in calls]
    assert dones == sorted(dones)


def test_a_quiet_build_reports_nothing_and_prints_nothing(builds, tmp_path, capsys):
    path = tmp_path / "chain.toml"
    path.write_text(chain(2500))
    assert main(["run", str(path), "--quiet"]) == 0
    assert builds == [{}], "a quiet build is not even asked for its progress"
    assert capsys.readouterr().err == ""


def test_a_build_off_a_terminal_shows_no_bar(builds, tmp_path, capsys):
    # capsys's stderr is no terminal: as a run's bar, the build's is left out.
    path = tmp_path / "chain.toml"
    path.write_text(chain(10))
    assert main(["run", str(path)]) == 0
    assert builds == [{}]
    assert "building" not in capsys.readouterr().err


def test_a_forced_bar_follows_the_build(builds):
    from ndnflow.runner import build

    seen = []

    class Bar:
        def __init__(self, **kwargs):
            self.n, self.total = 0, kwargs["total"]

        def update(self, n):
            self.n += n
            seen.append((self.n, self.total))

        def close(self):
            pass

    import tqdm

    original = tqdm.tqdm
    tqdm.tqdm = Bar
    try:
        build(Scenario.from_toml(chain(3)), progress=True)
    finally:
        tqdm.tqdm = original
    # 4 nodes, 3 links, 1 producer: after the nodes, after the links, before and after routing.
    assert seen == [(4, 8), (7, 8), (7, 8), (8, 8)]
