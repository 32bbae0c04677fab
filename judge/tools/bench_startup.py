"""The start-up row of ``bench``: the judge's quickest commands as ratios to a bare interpreter started in the same run.

Milliseconds say more about the machine than about the judge (a bare
``python3 -c pass`` takes 11 ms in a clean venv and 55 ms through a version
manager's shim), so each command is shown against three baselines measured
interleaved with it: ``python3 -c pass`` as the shell finds it, ``-c pass``
of the judge's own interpreter, ``-c 'import re, argparse'``, what the
smallest argparse console script cannot avoid, and the floor of a judging
command: the standard modules no judging can do without here (pathlib and
dataclasses, which the code is written in; subprocess and socket, which
reach the launcher; json). The goals are ratios to the argparse script, the
team's reference for start-up; the floor row shows how much of a goal is
left to the judge's own code.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from ..model import Problem
from .bench_series import interleave, timed

REPO = Path(__file__).resolve().parents[2]
FLOOR_MODULES = "re, argparse, pathlib, dataclasses, json, subprocess, socket"
BASELINES = ("python3 -c pass", "-c pass (same interpreter)", "-c 'import re, argparse'", "floor: -c 'import ...'")
GOAL_BASELINE = BASELINES[2]
GOALS = {"--version": 1.3, "list": 1.6, "judge 1 case, ready binary": 2.0}  # issue #16, as ratios to GOAL_BASELINE


def judge_command() -> list[str]:
    """``tilejudge`` beside this interpreter when the judge is installed (what a user runs), else ``run_judge.py``."""
    script = Path(sys.executable).with_name("tilejudge")
    return [str(script)] if script.is_file() else [sys.executable, str(REPO / "run_judge.py")]


def measure(problem: Problem, binary: str, rounds: int) -> dict[str, Any]:
    """Every baseline and command, interleaved over ``rounds``; ``list`` is run once first so that its cache is warm."""

    def run(argv: list[str]) -> Callable[[], float]:
        return lambda: timed(
            lambda: subprocess.run(argv, cwd=REPO, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        )

    judge = judge_command()
    python3 = shutil.which("python3")
    contenders = {
        **({BASELINES[0]: run([python3, "-c", "pass"])} if python3 else {}),
        BASELINES[1]: run([sys.executable, "-c", "pass"]),
        BASELINES[2]: run([sys.executable, "-c", "import re, argparse"]),
        BASELINES[3]: run([sys.executable, "-c", f"import {FLOOR_MODULES}"]),
        "--version": run([*judge, "--version"]),
        "list": run([*judge, "list"]),
        "judge 1 case, ready binary": run([*judge, "judge", str(problem.root), binary, "-j", "1"]),
    }
    subprocess.run([*judge, "list"], cwd=REPO, capture_output=True)
    results = interleave(contenders, rounds)
    medians = {name: series.median for name, series in results.items()}
    rows: dict[str, Any] = {}
    for name, series in results.items():
        rows[name] = {
            **series.to_json(),
            "ratios": {base: medians[name] / medians[base] for base in BASELINES if base in medians},
        }
        if name in GOALS:
            rows[name]["goal"] = GOALS[name]
            rows[name]["goal_met"] = rows[name]["ratios"][GOAL_BASELINE] <= GOALS[name]
    return {
        "judge": "tilejudge" if len(judge) == 1 else "python run_judge.py",
        "interpreter": sys.executable,
        "floor": FLOOR_MODULES,
        "goal_baseline": GOAL_BASELINE,
        "rows": rows,
    }


def goal_text(row: dict[str, Any]) -> str:
    """The goal column: the goal, and whether this run met it."""
    if "goal" not in row:
        return ""
    return f"≤ {row['goal']:g}× ({'met' if row['goal_met'] else 'not met'})"
