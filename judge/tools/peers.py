"""Installing other judges for ``bench --peers``: each into a throw-away venv, recording what happened.

Kept apart from the measurements because it is the only part of the judge
that talks to a package index; nothing runs it unless ``--peers`` is given.
"""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

OTHER_PEERS = (
    "dmoj",
    "problemtools",
)  # installed and recorded, not timed: their runners need problems in their own layout


def install_oj(venv: Path, peers: dict[str, str], log: Callable[[str], None]) -> Path | None:
    """online-judge-tools' ``oj`` in ``venv`` (installed on first use), or None with the reason recorded in
    ``peers``."""
    oj = venv / "bin" / "oj"
    if not oj.exists():
        log("installing online-judge-tools into a throw-away venv…")
        subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
        done = subprocess.run(
            [str(venv / "bin" / "pip"), "install", "-q", "online-judge-tools"], capture_output=True, text=True
        )
        if done.returncode != 0:
            peers["online-judge-tools"] = f"did not install: {done.stderr.strip()[-200:]}"
            return None
    return oj


def record_other_peers(venv: Path, peers: dict[str, str]) -> None:
    """DMOJ's judge and Kattis problemtools: install them once into ``venv`` and record the outcome."""
    for package in OTHER_PEERS:
        if package in peers:
            continue
        done = subprocess.run(
            [str(venv / "bin" / "pip"), "install", "-q", package], capture_output=True, text=True, timeout=900
        )
        last = (done.stderr.strip().splitlines() or [""])[-1][:200]
        peers[package] = (
            "installed; not timed by this benchmark (its runner needs a problem in its own layout)"
            if done.returncode == 0
            else f"did not install: {last}"
        )
