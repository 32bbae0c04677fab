"""The suite's progress line (issue 46): a long run under ``-q -n 2`` says how far it is, not only dots."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

from conftest import REPO_ROOT


def _run(folder: Path, *args: str) -> str:
    (folder / "conftest.py").write_text(
        textwrap.dedent(
            f"""
            import sys
            sys.path.insert(0, {str(REPO_ROOT / "tests")!r})
            from progress_line import register

            def pytest_configure(config):
                register(config)
            """
        )
    )
    # Six tests of 0.1 s: whichever worker gets the larger half sleeps at least 0.3 s after the run began, the line's
    # interval here, so a line is due before the run ends however fast the workers start (0.4 s each only waited).
    (folder / "test_some.py").write_text(
        "import time, pytest\n\n@pytest.mark.parametrize('n', range(6))\ndef test_wait(n):\n    time.sleep(0.1)\n"
    )
    # Only the plugins this test is about (xdist and the progress line): the venv's others (hypothesis, anyio),
    # autoloaded in the controller and each worker, tripled this test's time and have no part in what it checks.
    env = {
        **os.environ,
        "TILEJUDGE_PROGRESS_SECONDS": "0.3",
        "PYTEST_ADDOPTS": "",
        "PYTEST_DISABLE_PLUGIN_AUTOLOAD": "1",
    }
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "xdist", *args, str(folder)],
        cwd=folder,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout


def test_a_long_run_under_xdist_says_how_many_of_how_many_are_done(tmp_path: Path) -> None:
    out = _run(tmp_path, "-n", "2")
    lines = [line for line in out.splitlines() if line.startswith("-- ") and " of 6 tests done after " in line]
    assert lines, out
    assert "6 passed" in out
