"""The judge as an installed package: a wheel built from this checkout, installed into a fresh venv, judges from
elsewhere.

This is what a newcomer's ``pip install .`` gives: if the launcher's C
sources were left out of the wheel, or the command found problems only
relative to the checkout, only a test outside the checkout would notice.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest
from conftest import REPO_ROOT
from kept import kept_folder, locked

import judge

pytestmark = pytest.mark.slow

POJ2893 = REPO_ROOT / "problems" / "poj2893"


def distribution_python() -> str:
    """The Python a fresh Debian or Ubuntu machine has: the distribution's own, not pyenv's or a venv's."""
    for candidate in ("/usr/bin/python3", "/usr/local/bin/python3"):
        if Path(candidate).is_file():
            return candidate
    return sys.executable


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A fresh venv of the distribution's Python with the wheel of this checkout and its test extras, as a newcomer's
    machine has it (no global packages); returns its bin folder.

    What is proven is the wheel and its extras, not pip: the venv is made without a pip of its own (ensurepip
    installing one cost about 4 s of CPU) and this suite's pip installs into it (``--python``), without compiling
    every module of every dependency ahead (``--no-compile``: about 6 s of CPU; the nested run compiles what it
    imports). Nor is it the package index: pip resolves the wheel's extras against wheels kept between runs
    (``kept.py``) instead of PyPI, where reading the index pages (hypothesis's lists thousands of files) was 8 of the
    install's 14 CPU-seconds, and builds the wheel with the build requirements (setuptools) from there too. Each run
    still resolves and installs every requirement from the wheel's own metadata, so an extra that lacks a package
    the suite imports still fails here; the kept wheels are fetched from the index again when they cannot satisfy
    the wheel (a requirement added or raised) and once they are a week old, so the newest releases are met within
    a week (CI's own fresh venv meets them at once)."""
    root = tmp_path_factory.mktemp("package")
    made = subprocess.run(
        [distribution_python(), "-m", "venv", "--without-pip", str(root / "venv")],
        capture_output=True,
        text=True,
        timeout=300,
    )
    if made.returncode != 0:  # Debian's python3-venv missing: .ci/setup-system installs it
        pytest.skip(f"cannot create a venv here ({made.stderr.strip()[-200:]}; Debian package python3-venv)")
    bin_dir = root / "venv" / "bin"
    with locked(kept_folder("package-wheels")) as kept:
        wheel = _wheel(kept, root / "wheels")
        if not _install(kept, bin_dir, wheel):
            _fetch(kept, bin_dir, wheel)
            assert _install(kept, bin_dir, wheel, quiet=False), "the wheel's extras cannot be installed"
    return bin_dir


PIP = [sys.executable, "-m", "pip"]
FRESH_DAYS = 7  # kept wheels older than this are fetched again


def _offline(kept: Path) -> list[str]:
    """pip's options to find packages among the kept wheels alone."""
    return ["--no-index", "--find-links", str(kept / "wheels")]


def _wheel(kept: Path, out: Path) -> Path:
    """The wheel of this checkout, built with the kept setuptools, or with the index's where they are missing or
    stale (the kept wheels are then fetched again, setuptools with them)."""
    stamp = kept / "fetched"
    fresh = stamp.is_file() and time.time() - stamp.stat().st_mtime < FRESH_DAYS * 86400
    build = [*PIP, "wheel", str(REPO_ROOT), "--no-deps", "-q", "-w", str(out)]
    if not (fresh and subprocess.run([*build, *_offline(kept)], capture_output=True, timeout=600).returncode == 0):
        subprocess.run(build, check=True, timeout=600)
        stamp.unlink(missing_ok=True)
    (wheel,) = out.glob("tilejudge-*.whl")
    return wheel


def _install(kept: Path, bin_dir: Path, wheel: Path, quiet: bool = True) -> bool:
    """Install the wheel with its test extras from the kept wheels; whether pip could (never while they are stale)."""
    if not (kept / "fetched").is_file():
        return False
    install = [*PIP, "--python", str(bin_dir / "python"), "install", "-q", "--no-compile", *_offline(kept)]
    return subprocess.run([*install, f"{wheel}[dev]"], capture_output=quiet, timeout=900).returncode == 0


def _fetch(kept: Path, bin_dir: Path, wheel: Path) -> None:
    """Fetch from the index, afresh, every wheel the wheel's test extras need and the build's setuptools."""
    shutil.rmtree(kept / "wheels", ignore_errors=True)
    (kept / "fetched").unlink(missing_ok=True)
    fetch = [*PIP, "--python", str(bin_dir / "python"), "download", "-q", "-d", str(kept / "wheels")]
    subprocess.run([*fetch, f"{wheel}[dev]", "setuptools>=64"], check=True, timeout=900)
    (kept / "fetched").touch()


def test_the_suite_loads_and_runs_in_a_fresh_venv_of_the_distributions_python(installed: Path, tmp_path: Path) -> None:
    """The wheel's ``[dev]`` extras are all the suite needs, with nothing preloaded by a global site-packages and
    another interpreter than the one running this suite: every test module is collected (each imports what it
    needs at its top) and the base and lint tests run (ruff, pinned in the extras). The tests run from the checkout
    (``python -m pytest`` puts it first on the path), with the venv's Python.

    This ran the whole fast subset here until issue 48's speed work: CI's ``.ci/run`` already runs the whole suite
    in a fresh venv of the distribution's Python made from ``requirements-dev.txt`` (``-e .[dev]``, the same
    extras), so the nested run repeated about 95 s of 2-core time for what that run shows. The base and lint tests
    run in the one process (no ``-n 2``): two xdist workers, each importing the test tree afresh, doubled the run's
    CPU (4.3 s against 2.0 s) for 16 short tests, and CI's run shows xdist working in such a venv (``-n auto``)."""
    base = [
        str(installed / "python"),
        "-m",
        "pytest",
        "-q",
        "-p",
        "no:cacheprovider",
        "--basetemp",
        str(tmp_path / "b"),
    ]
    collected = subprocess.run([*base, "--collect-only"], cwd=REPO_ROOT, capture_output=True, text=True, timeout=600)
    assert collected.returncode == 0, collected.stdout[-3000:] + collected.stderr[-2000:]
    assert "error" not in collected.stdout.splitlines()[-1], collected.stdout[-3000:]
    done = subprocess.run(
        [*base, "-x", "tests/base", "tests/project/test_lint.py"],
        cwd=REPO_ROOT,
        capture_output=True,
        text=True,
        timeout=600,
    )
    tail = done.stdout[-3000:] + done.stderr[-2000:]
    assert done.returncode == 0, tail
    assert " passed" in done.stdout.splitlines()[-1] and "failed" not in done.stdout.splitlines()[-1], tail


def test_installed_command_judges_from_another_folder(installed: Path, tmp_path: Path) -> None:
    """``tilejudge judge`` with absolute paths, run outside the checkout, accepts the bundled reference."""
    done = subprocess.run(
        [
            str(installed / "tilejudge"),
            "judge",
            str(POJ2893),
            str(POJ2893 / "submissions" / "accepted" / "ref.cpp"),
            "-j",
            "2",
        ],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    assert "AC (accepted)" in done.stdout


def test_installed_version_is_the_package_version(installed: Path, tmp_path: Path) -> None:
    """``tilejudge --version`` prints the one version, from ``judge/__init__.py``."""
    done = subprocess.run(
        [str(installed / "tilejudge"), "--version"], cwd=tmp_path, capture_output=True, text=True, timeout=60
    )
    assert done.stdout.strip() == f"tilejudge {judge.__version__}"
