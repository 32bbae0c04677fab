"""The bundled problems pass the problem setter's full self-check, and their data regenerates bit for bit.

``verify`` proves each package end to end: every input valid, every
reference reproduces every answer, every test submission (each typical bug,
the quadratic solution) gets exactly the verdict its folder promises. In a
fresh clone the large cases are absent, so this also regenerates them and
checks each against the sha256 recorded in the manifest.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import cli

pytestmark = pytest.mark.slow

REPO = Path(__file__).resolve().parents[2]
BUNDLED = ["hdoj3600", "poj2893", "cube", "reach", "eight", "slide", "klotski", "blind", "tangram"]


@pytest.mark.parametrize("problem", BUNDLED)
def test_verify_passes(problem: str) -> None:
    run = cli("verify", problem)
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-2000:]
    assert f"{problem}: verified:" in run.stdout
    assert "FAIL" not in run.stdout
    assert "time_limit_exceeded/" in run.stdout and "wrong_answer/" in run.stdout


def test_generate_check_reproduces_every_case_bit_for_bit() -> None:
    run = cli("generate", "hdoj3600", "--check")
    assert run.returncode == 0, run.stdout + run.stderr
    assert "27/27 cases reproduce bit for bit" in run.stdout


def test_list_shows_the_bundled_problems() -> None:
    run = cli("list")
    assert run.returncode == 0
    for problem in BUNDLED:
        assert problem in run.stdout
    assert "M × N Puzzle" in run.stdout or "M x N" in run.stdout
