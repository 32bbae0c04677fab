"""``bench --only``: one comparison row alone, for whoever works on it (the tiny-cases row of issue 48 item 5 took a
whole ``bench --quick`` of 13 minutes to read). Figures are read, never asserted on."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import bundled_with_fewer_cases, cache_with_launcher, cli


@pytest.mark.slow
def test_only_tiny_measures_that_row_alone_with_every_contender(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    problem = bundled_with_fewer_cases("poj2893", {"sample": None}, tmp_path)
    bench_yaml = problem / "bench.yaml"
    bench_yaml.write_text(bench_yaml.read_text().replace("cases: 100", "cases: 3"))
    monkeypatch.setenv("TILEJUDGE_CACHE", str(cache_with_launcher(tmp_path / "cache")))
    out = tmp_path / "tiny.json"
    done = cli("bench", str(problem), "--only", "tiny", "--rounds", "1", "--json", str(out))
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    figures = json.loads(out.read_text())
    assert set(figures) == {"machine", "command", "tiny cases"}  # no other section ran
    row = figures["tiny cases"]
    assert {"C floor (posix_spawn)", "shell loop", "ours none -j1", "ours none -j2", "ours rlimits -j1"} <= set(row)
    assert all(len(series["samples"]) == 1 and series["median"] > 0 for series in row.values())
    assert "tiny cases: 3 cases, 1 rounds interleaved" in done.stdout


@pytest.mark.parametrize(
    "extra", [["--markdown", "x.md"], ["--startup"], ["--scaling", "2"], ["--serve"]], ids=lambda a: a[0]
)
def test_only_refuses_what_measures_other_sections(extra: list[str]) -> None:
    done = cli("bench", "--only", "tiny", *extra)
    assert done.returncode != 0 and "Traceback" not in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1 and "--only" in done.stderr


def test_only_knows_the_two_comparisons() -> None:
    done = cli("bench", "--only", "startup")
    assert done.returncode != 0 and "invalid choice" in done.stderr
