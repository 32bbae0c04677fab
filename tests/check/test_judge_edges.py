"""Edges of the judge core: testlib partial points, a checker that never answers, a compiler that is not there.

Each is a way a real contest goes wrong: points must scale the group and
never be rounded up to AC, a hung checker must end as a judge error within
its own limit instead of hanging the judge, and a missing compiler is the
organiser's problem (exit 3, named), never the contestant's CE.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import REPO_ROOT, cli, program

CHECKER = r"""
import sys, time
output = open(sys.argv[2]).read().split()
if output == ["half"]:
    print("0.5 half of it")
    sys.exit(7)
if output == ["full"]:
    print("1.0 all of it")
    sys.exit(7)
if output == ["hang"]:
    time.sleep(600)
print("unexpected output", file=sys.stderr)
sys.exit(1)
"""


@pytest.fixture
def points_problem(tmp_path: Path) -> Path:
    """Two groups of one case each; the answer printed decides what the testlib checker says."""
    root = tmp_path / "problems" / "points"
    (root / "data").mkdir(parents=True)
    (root / "data" / "1.in").write_text("1\n")
    (root / "data" / "2.in").write_text("2\n")
    (root / "checker.py").write_text(CHECKER)
    (root / "solution.py").write_text("print('full')\n")
    (root / "statement.md").write_text("# Points\n")
    (root / "problem.yaml").write_text(
        "title: Points\nlimits: {time: 0.5, memory: 128, checker_time: 1}\n"
        "checker: {type: testlib, program: checker.py}\n"
        "solutions: [solution.py]\ngroups:\n"
        "  - {name: one, points: 30, cases: [{name: a, file: data/1.in}]}\n"
        "  - {name: two, points: 70, cases: [{name: b, file: data/2.in}]}\n"
    )
    return root


def judge_json(
    problem: Path, submission: Path, tmp_path: Path, env: dict[str, str] | None = None, *extra: str
) -> tuple[subprocess.CompletedProcess[str], dict | None]:
    """Judge in this process, or with ``env`` in a process of its own: a judge reads the user's language file once."""
    report = tmp_path / "report.json"
    report.unlink(missing_ok=True)
    args = ["judge", str(problem), str(submission), "--json", str(report), *extra]
    if env is None:
        run = cli(*args, timeout=120)
    else:
        command = [sys.executable, str(REPO_ROOT / "run_judge.py"), *args]
        run = subprocess.run(command, capture_output=True, text=True, cwd=REPO_ROOT, timeout=120, env=env)
    return run, json.loads(report.read_text()) if report.exists() else None


def test_testlib_points_scale_the_group_and_are_not_accepted(points_problem: Path, tmp_path: Path) -> None:
    half = tmp_path / "half.py"
    half.write_text("print('half')\n")
    run, report = judge_json(points_problem, half, tmp_path)
    assert run.returncode == 1, run.stderr
    assert [c["score"] for c in report["cases"]] == [0.5, 0.5]
    assert report["verdict"] == "WA"
    assert report["score"] == pytest.approx(50.0)
    full = tmp_path / "full.py"
    full.write_text("print('full')\n")
    run, report = judge_json(points_problem, full, tmp_path)
    assert run.returncode == 0 and report["verdict"] == "AC" and report["score"] == pytest.approx(100.0)


@pytest.mark.slow
def test_hanging_checker_is_a_judge_error_within_its_limit(points_problem: Path, tmp_path: Path) -> None:
    """Stopped at the problem's ``checker_time`` (0.5 s of CPU here, so 1 s of wall time), not the default 5 s
    (10 s)."""
    spec = points_problem / "problem.yaml"
    spec.write_text(spec.read_text().replace("checker_time: 1}", "checker_time: 0.5}"))
    assert "checker_time: 0.5}" in spec.read_text()
    hang = tmp_path / "hang.py"
    hang.write_text("print('hang')\n")
    run, report = judge_json(points_problem, hang, tmp_path, None, "--first-fail")
    assert run.returncode == 3, run.stderr
    assert report["verdict"] == "JE"
    assert "time limit" in report["cases"][0]["message"]
    assert report["score"] == 0


def test_missing_compiler_is_a_named_setup_error_not_ce(tmp_path: Path) -> None:
    """A user's registry naming a compiler this machine lacks: one line naming the tool and its package (exit 3), not
    CE."""
    problem = REPO_ROOT / "tests" / "fixtures" / "problems" / "aplusb"
    languages = tmp_path / "languages.yaml"
    languages.write_text(
        "cpp:\n  extensions: [.cpp]\n  package: g++-99\n"
        "  compile: [g++-99, -o, '{exe}', '{sources}']\n  run: ['{exe}']\n"
    )
    env = {**os.environ, "TILEJUDGE_LANGUAGES": str(languages)}
    run, report = judge_json(problem, program("ac.cpp"), tmp_path, env, "--sandbox", "rlimits")
    assert run.returncode == 3
    assert report is None
    lines = run.stderr.strip().splitlines()
    assert lines == [
        "error: language 'cpp' needs 'g++-99', which is not installed here; install the Debian package g++-99"
    ], run.stderr


def test_sum_aggregation_gives_each_case_its_share(tmp_path: Path) -> None:
    root = tmp_path / "problems" / "echo"
    (root / "data").mkdir(parents=True)
    for name, text in (("1.in", "1\n"), ("2.in", "2\n"), ("3.in", "3\n"), ("4.in", "4\n")):
        (root / "data" / name).write_text(text)
    (root / "echo.py").write_text("print(input())\n")
    (root / "statement.md").write_text("# Echo\n")
    (root / "problem.yaml").write_text(
        "title: Echo\nlimits: {time: 1, memory: 128}\nsolutions: [echo.py]\ngroups:\n"
        "  - {name: shares, points: 40, aggregation: sum, "
        "cases: [{name: a, file: data/1.in}, {name: b, file: data/2.in}, "
        "{name: c, file: data/3.in}, {name: d, file: data/4.in}]}\n"
        "  - {name: whole, points: 60, cases: [{name: e, file: data/1.in}, {name: f, file: data/2.in}]}\n"
    )
    odd = tmp_path / "odd.py"
    odd.write_text("n = int(input())\nprint(n if n % 2 else 0)\n")
    run, report = judge_json(root, odd, tmp_path)
    assert run.returncode == 1, run.stderr
    groups = {g["name"]: g["earned"] for g in report["groups"]}
    assert groups == {"shares": pytest.approx(20.0), "whole": 0.0}
    assert report["score"] == pytest.approx(20.0)
