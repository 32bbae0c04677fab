"""The code keeps ruff's format and lint rules (``[tool.ruff]`` in pyproject.toml), checked as part of the suite.

A check inside the suite rather than a separate CI step, so that `.ci/run` stays exactly the README's test
command and a newcomer running that command sees what CI sees. ruff comes with the test requirements, pinned,
since its formatter's style moves between releases; without it these tests are skipped, naming how to get it.
"""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import REPO_ROOT

pytestmark = pytest.mark.skipif(
    importlib.util.find_spec("ruff") is None,
    reason="ruff is not installed (pip install -r requirements-dev.txt installs the pinned version)",
)


def _ruff(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "ruff", *args, "--no-cache"], cwd=REPO_ROOT, capture_output=True, text=True, timeout=120
    )


def test_the_code_passes_the_linter() -> None:
    done = _ruff("check", ".")
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-2000:]


def test_the_code_is_formatted() -> None:
    done = _ruff("format", "--check", ".")
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-2000:]


def test_the_checks_see_a_violation(tmp_path: Path) -> None:
    """Both checks read this project's rules and fail on a file that breaks them: a lint run that looked at nothing
    would pass the two tests above as well."""
    bad = tmp_path / "bad.py"
    bad.write_text("import os\nx = {  'a':1 }\n" + "y = '" + "z" * 130 + "'\n")
    config = ["--config", str(REPO_ROOT / "pyproject.toml")]
    checked = _ruff("check", *config, str(bad))
    assert checked.returncode == 1 and "F401" in checked.stdout and "E501" in checked.stdout, checked.stdout
    formatted = _ruff("format", "--check", *config, str(bad))
    assert formatted.returncode == 1 and "bad.py" in formatted.stdout + formatted.stderr
