"""A checker's or interactor's CPU limit as the problem states it: our ``limits.checker_time``, Kattis'
``limits.validation_time``.

Without either, a checker gets twice the submission's time limit, at least
5 s, and twice that in wall time; a setter who knows the validator is quick
states less, so that a hung one is caught sooner. The judged side of this
(a sleeping checker and interactor stopped at the stated limit) is in
tests/check/test_judge_edges.py and tests/check/test_interactive.py; here,
what the formats read, refuse and write.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import cli, copy_problem, write_files

from judge.core.run_limits import CHECKER_MIN_CPU, judge_side_limits
from judge.problem.formats import load


def _native(tmp_path: Path, line: str) -> Path:
    folder = copy_problem("aplusb", tmp_path)
    spec = folder / "problem.yaml"
    spec.write_text(spec.read_text().replace("  output: 1\n", f"  output: 1\n{line}"))
    return folder


def _kattis(root: Path, line: str) -> Path:
    return write_files(
        root,
        {
            "problem.yaml": f"problem_format_version: 2025-09\nname: Echo\nlimits:\n  time_limit: 1\n{line}",
            "data/secret/1.in": "1\n",
            "data/secret/1.ans": "1\n",
            "submissions/accepted/echo.py": "print(input())\n",
        },
    )


def test_without_a_stated_time_a_checker_gets_twice_the_time_at_least_the_minimum(tmp_path: Path) -> None:
    problem = load(_native(tmp_path, ""))
    assert problem.limits.checker_time is None
    limits = judge_side_limits(problem.limits.time, None, stated=problem.limits.checker_time).limits
    assert (limits.cpu, limits.wall) == (CHECKER_MIN_CPU, 2 * CHECKER_MIN_CPU)
    assert judge_side_limits(4.0, None).limits.cpu == 8.0


def test_our_checker_time_and_kattis_validation_time_are_the_checkers_cpu(tmp_path: Path) -> None:
    ours = load(_native(tmp_path / "ours", "  checker_time: 1.5\n"))
    theirs = load(_kattis(tmp_path / "kattis", "  validation_time: 2\n"))
    assert (ours.limits.checker_time, theirs.limits.checker_time) == (1.5, 2.0)
    limits = judge_side_limits(ours.limits.time, None, stated=ours.limits.checker_time).limits
    assert (limits.cpu, limits.wall) == (1.5, 3.0)


def test_an_export_keeps_the_checker_time_as_validation_time(tmp_path: Path) -> None:
    out = tmp_path / "exported"
    run = cli("export", str(_native(tmp_path, "  checker_time: 1.5\n")), str(out))
    assert run.returncode == 0, run.stdout + run.stderr
    assert "validation_time: 1.5" in (out / "problem.yaml").read_text()
    assert load(out).limits.checker_time == 1.5


@pytest.mark.parametrize(
    ("kattis", "line", "mentions"),
    [
        (False, "  checker_time: 0\n", "limits.checker_time"),
        (False, "  checker_time: soon\n", "limits.checker_time"),
        (True, "  validation_time: 0\n", "validation_time"),
        (True, "  validation_time: soon\n", "limits"),
    ],
)
def test_a_checker_time_that_is_no_positive_number_is_refused_in_one_line(
    tmp_path: Path, kattis: bool, line: str, mentions: str
) -> None:
    folder = _kattis(tmp_path / "kattis", line) if kattis else _native(tmp_path, line)
    run = cli("validate", str(folder))
    assert run.returncode == 2, run.stdout + run.stderr
    assert "Traceback" not in run.stderr
    lines = run.stderr.strip().splitlines()
    assert len(lines) == 1 and mentions in lines[0] and "problem.yaml" in lines[0], run.stderr
