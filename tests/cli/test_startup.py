"""Start-up: what each command imports, and the cached rows of ``list`` staying true when a package changes.

Timings are measured by ``bench`` (docs/benchmarks.md), never asserted; what
a command imports is stable, and importing a heavy layer again is exactly
how start-up regresses, so that is what these tests pin.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import REPO_ROOT, cache_with_launcher, copy_problem, program

import judge
from judge.cli import listing
from judge.errors import SpecError

# What only a problem's loading, judging, grading or the tools need: none of it belongs to a command that does not use
# it.
LOADING = {
    "yaml",
    "pathlib",
    "judge.problem",
    "judge.problem.formats",
    "judge.lang",
    "judge.check",
    "judge.run",
    "judge.core",
}
COMMANDS_ELSEWHERE = {
    "judge.grade",
    "judge.tools",
    "judge.problem.formats.kattis_export",
    "tqdm",
    "dask",
    "copydetect",
    # the service's web stack: only `serve` imports it, inside its run
    "judge.serve",
    "starlette",
    "uvicorn",
    "argon2",
}


# Runs run_judge.py as ``python run_judge.py`` would, and writes on stderr, as it exits, the modules it imported beyond
# those of this harness (``-X importtime`` cannot tell: a command module imported through importlib has no line there).
# ``runpy.run_path`` imports pkgutil, and with it typing: imported before the count starts, so a fresh venv (where
# nothing preloads typing, unlike a Python whose site packages do) counts only the judge's own imports.
_HARNESS = """
import atexit, pkgutil, runpy, sys
before = set(sys.modules)
atexit.register(lambda: sys.stderr.write("\\nMODULES " + " ".join(sorted(set(sys.modules) - before)) + "\\n"))
sys.argv = sys.argv[1:]
runpy.run_path(sys.argv[0], run_name="__main__")
"""


def imported(*args: str, env: dict[str, str] | None = None) -> tuple[set[str], subprocess.CompletedProcess[str]]:
    """The modules ``run_judge.py ARGS`` imports, and how it ended."""
    done = subprocess.run(
        [sys.executable, "-c", _HARNESS, str(REPO_ROOT / "run_judge.py"), *args],
        cwd=REPO_ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, **(env or {})},
    )
    marker = done.stderr.rindex("\nMODULES ")
    names = set(done.stderr[marker:].split()[1:])
    return names, subprocess.CompletedProcess(done.args, done.returncode, done.stdout, done.stderr[:marker])


def test_version_imports_neither_argparse_nor_any_layer() -> None:
    names, done = imported("--version")
    assert done.returncode == 0 and done.stdout == f"run_judge.py {judge.__version__}\n", done.stdout + done.stderr
    assert "judge.cli" in names  # the measurement sees the judge's imports at all
    assert names & ({"argparse", "traceback", "shutil"} | LOADING | COMMANDS_ELSEWHERE) == set()


def test_warm_list_loads_no_package(tmp_path: Path) -> None:
    """The second ``list`` shows the rows of the first from the cache, without importing YAML or the model."""
    env = {"TILEJUDGE_CACHE": str(tmp_path)}
    cold, first = imported("list", env=env)
    warm, second = imported("list", env=env)
    assert first.returncode == 0 and second.returncode == 0, first.stderr + second.stderr
    assert second.stdout == first.stdout and "poj2893" in second.stdout
    assert "yaml" in cold  # the first run did load the packages
    assert (
        warm & (LOADING | COMMANDS_ELSEWHERE | {"typing", "pickle"}) == set()
    )  # checking the cache costs no more than that


def test_judge_imports_neither_grading_nor_the_tools() -> None:
    names, done = imported("judge", "no-such-problem", "sol.cpp")
    assert done.returncode == 2 and "no-such-problem" in done.stderr
    assert "judge.cli.cmd_judge" in names
    assert names & COMMANDS_ELSEWHERE == set()


# What judging a batch problem with a ready program must not import once the package is remembered: the YAML parser,
# the format readers, the interactive layer, time-limit inference and the thread pool.
WARM_JUDGE_AVOIDS = {
    "yaml",
    "judge.problem.formats.native",
    "judge.problem.formats.kattis",
    "judge.core.pass_by_pass",
    "judge.check.interactor_protocols",
    "judge.run.relayed_pair",
    "judge.run.direct_pair",
    "judge.run.pair",
    "judge.core.timelimit",
    "concurrent.futures",
}


def test_warm_judge_reads_no_yaml_and_imports_only_what_a_batch_case_needs(tmp_path: Path) -> None:
    root = copy_problem("aplusb", tmp_path)
    env = {"TILEJUDGE_CACHE": str(cache_with_launcher(tmp_path / "cache"))}
    argv = ("judge", str(root), str(program("ac.py")), "-j", "1", "--sandbox", "none")
    cold, first = imported(*argv, env=env)
    warm, second = imported(*argv, env=env)
    assert first.returncode == 0 and second.returncode == 0, first.stderr + second.stderr
    assert "AC" in second.stdout and second.stdout.count("\n") == first.stdout.count("\n")
    assert {"yaml", "judge.problem.formats.native"} <= cold  # the first run did read the package
    assert warm & (WARM_JUDGE_AVOIDS | COMMANDS_ELSEWHERE) == set()

    spec = root / "problem.yaml"
    spec.write_text(spec.read_text().replace("title: A plus B", "title: A plus B, edited"))
    edited, third = imported(
        "judge",
        str(root),
        str(program("ac.py")),
        "-j",
        "1",
        "--sandbox",
        "none",
        "--json",
        str(tmp_path / "r.json"),
        env=env,
    )
    assert third.returncode == 0 and "yaml" in edited  # an edited package is read again


@pytest.fixture
def package(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A copy of a bundled package under a problems folder of its own, and a cache folder of its own."""
    monkeypatch.setenv("TILEJUDGE_CACHE", str(tmp_path / "cache"))
    for name in ("slide", "_lib"):  # _lib: the family's shared library the package names
        shutil.copytree(
            REPO_ROOT / "problems" / name, tmp_path / "problems" / name, ignore=shutil.ignore_patterns("__pycache__")
        )
    return tmp_path / "problems" / "slide"


def test_list_rows_follow_edits_of_the_package(package: Path) -> None:
    spec = package / "problem.yaml"
    (row,) = listing.rows([(str(package), "slide")])
    assert row[0] == "slide" and row[1] in spec.read_text()
    assert listing.rows([(str(package), "slide")]) == [row]  # from the cache now

    text = spec.read_text()
    title_line = next(line for line in text.splitlines() if line.startswith("title:"))
    spec.write_text(text.replace(title_line, 'title: "A title long enough to change the size"'))
    assert listing.rows([(str(package), "slide")])[0][1] == "A title long enough to change the size"

    solution = package / "submissions" / "accepted" / "ref.cpp"  # the first of the spec's solutions
    kept = solution.read_bytes()
    solution.unlink()  # a package the loader rejects is not listed from a stale row
    with pytest.raises(SpecError, match=solution.name):
        listing.rows([(str(package), "slide")])
    solution.write_bytes(kept)
    assert listing.rows([(str(package), "slide")])[0][1] == "A title long enough to change the size"


@pytest.mark.slow
def test_bench_startup_reports_each_command_against_each_baseline(tmp_path: Path) -> None:
    from judge.tools.bench_markdown import to_markdown
    from judge.tools.bench_startup import BASELINES, GOALS

    out = tmp_path / "startup.json"
    done = subprocess.run(
        [sys.executable, str(REPO_ROOT / "run_judge.py"), "bench", "--startup", "--rounds", "1", "--json", str(out)],
        cwd=REPO_ROOT,
        capture_output=True,
        text=True,
        timeout=600,
        # a cache of its own, with the launcher the suite has built (not seconds of gcc and a static link again)
        env={**os.environ, "TILEJUDGE_CACHE": str(cache_with_launcher(tmp_path / "cache"))},
    )
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    figures = json.loads(out.read_text())
    rows = figures["startup"]["rows"]
    for name, goal in GOALS.items():
        assert rows[name]["goal"] == goal and rows[name]["median"] > 0
        assert set(rows[name]["ratios"]) >= set(BASELINES[1:])  # python3 on PATH may be missing; the interpreter is not
    page = to_markdown(figures)
    assert "## Start-up" in page and "| `list` |" in page and "vs `-c 'import re, argparse'`" in page
