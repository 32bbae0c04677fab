"""The judge as an installed package: a wheel built from this checkout, installed into a fresh venv, judges from elsewhere.

This is what a newcomer's ``pip install .`` gives: if the launcher's C
sources were left out of the wheel, or the command found problems only
relative to the checkout, only a test outside the checkout would notice.
"""
from __future__ import annotations

import subprocess
import sys
import venv
from pathlib import Path

import pytest

import judge
from conftest import REPO_ROOT

pytestmark = pytest.mark.slow

POJ2893 = REPO_ROOT / "problems" / "poj2893"


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A fresh venv with the wheel of this checkout and its dependencies from PyPI; returns its bin folder."""
    root = tmp_path_factory.mktemp("package")
    try:
        venv.create(root / "venv", with_pip=True)
    except Exception as exc:  # no ensurepip (Debian's python3-venv missing) or no room: nothing to test here
        pytest.skip(f"cannot create a venv here ({exc}; Debian package python3-venv)")
    bin_dir = root / "venv" / "bin"
    wheels = root / "wheels"
    subprocess.run([sys.executable, "-m", "pip", "wheel", str(REPO_ROOT), "--no-deps", "-q", "-w", str(wheels)], check=True, timeout=600)
    (wheel,) = wheels.glob("tilejudge-*.whl")
    subprocess.run([str(bin_dir / "pip"), "install", "-q", str(wheel)], check=True, timeout=600)
    return bin_dir


def test_installed_command_judges_from_another_folder(installed: Path, tmp_path: Path) -> None:
    """``tilejudge judge`` with absolute paths, run outside the checkout, accepts the bundled reference."""
    done = subprocess.run(
        [str(installed / "tilejudge"), "judge", str(POJ2893), str(POJ2893 / "submissions" / "accepted" / "ref.cpp"), "-j", "2"],
        cwd=tmp_path, capture_output=True, text=True, timeout=600,
    )
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    assert "AC (accepted)" in done.stdout


def test_installed_version_is_the_package_version(installed: Path, tmp_path: Path) -> None:
    """``tilejudge --version`` prints the one version, from ``judge/__init__.py``."""
    done = subprocess.run([str(installed / "tilejudge"), "--version"], cwd=tmp_path, capture_output=True, text=True, timeout=60)
    assert done.stdout.strip() == f"tilejudge {judge.__version__}"
