"""The suite's hooks, markers, settings and the fixtures every test may use (``judge``, ``judge_process``, ``gensum``).

Markers: `slow` (whole gradings, clusters, Kattis round trips, verifying the
bundled problems, hostile programs, and every oracle test) and `oracle` (the
puzzle oracles that check the bundled problems' references, not the judge),
so `pytest -m "not slow"` is the judge's fast subset and `pytest -m oracle`
runs the puzzle checks alone. Hypothesis runs derandomized (profile
"tilejudge"), so a run is reproducible on every machine.

System tools: `.ci/setup-system` installs them as root; where one is missing
the tests that need it are skipped with a reason naming its Debian package
(`needs`, `require`), and pytest's `-rfEs` (pyproject.toml) lists them at the
end. Without gcc and g++ nothing can be judged, so every test is skipped; a
test whose id mentions java needs a JDK.

The helpers themselves are in harness.py; this file re-exports them, so ``from conftest import cli`` works as before.
"""

from __future__ import annotations

import atexit
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest
from harness import *  # noqa: F403 (re-exported: tests import the helpers from conftest)
from harness import FIXTURES, PROBLEMS, REPO_ROOT, SLOW_FILES, JudgeRunner, copy_problem, judge_runner, missing, needs
from kept import kept_folder
from progress_line import register as register_progress_line

# Dask's workers keep their scratch in <temporary-directory>/dask-scratch-space, the system's /tmp by default, and
# leave it there; read from the environment when Dask is first imported (by a test), so it is set here, before
# any test module, to a folder of this process's that goes when it ends.
_DASK_SCRATCH = tempfile.mkdtemp(prefix="tilejudge-tests-dask-")
os.environ["DASK_TEMPORARY_DIRECTORY"] = _DASK_SCRATCH
atexit.register(shutil.rmtree, _DASK_SCRATCH, ignore_errors=True)


def _load_hypothesis_profile() -> None:
    """Python may write bytecode from here on even where PYTHONDONTWRITEBYTECODE is set (this workplace sets it), and
    only then is hypothesis imported. Pytest rewrites the asserts of every module of a package that brings a pytest
    plugin (hypothesis is one) and caches the rewrite only where bytecode may be written: hypothesis's seventy
    modules were rewritten again in every worker and the controller, at each start. The test modules' rewrites are
    cached the same way (pytest_sessionstart compiles the judge's own modules).

    Hypothesis's own folder is a kept one (``kept.py``), not ``.hypothesis`` in the checkout: it holds the Unicode
    tables Hypothesis makes on first use (every code point encoded and decoded, about 2 CPU-s) and the constants it
    reads out of each module's source (named by the source's hash), which every fresh clone and each of its xdist
    workers made again (test_serve_fuzz.py took 16 CPU-s instead of 12). Both are the same wherever they are made;
    derandomize implies no example database, so nothing in it chooses what a test runs. HYPOTHESIS_STORAGE_DIRECTORY,
    where set, still wins."""
    sys.dont_write_bytecode = False
    import hypothesis
    from hypothesis import settings
    from hypothesis.configuration import set_hypothesis_home_dir

    if not os.environ.get("HYPOTHESIS_STORAGE_DIRECTORY"):
        set_hypothesis_home_dir(kept_folder(f"hypothesis-{hypothesis.__version__}"))
    settings.register_profile("tilejudge", derandomize=True, print_blob=True)
    settings.load_profile("tilejudge")


_load_hypothesis_profile()


def pytest_sessionstart(session: pytest.Session) -> None:
    """Compile the judge's modules once, as pip does when it installs them: the tests start the CLI a few hundred times,
    and where PYTHONDONTWRITEBYTECODE is set (this workplace sets it) each start would compile every module it imports
    again, about a fifth of a quick command's time. The compiled files go where Python keeps them (``__pycache__``,
    ignored by git); a stale one is never used, Python checks it against its source."""
    subprocess.run(
        [sys.executable, "-m", "compileall", "-q", str(REPO_ROOT / "judge")], stdout=subprocess.DEVNULL, check=False
    )
    # The test modules, which pytest rewrites for its assertions before it compiles them, keep their cached rewrite
    # (in ``__pycache__`` too) because this module lets Python write bytecode (_load_hypothesis_profile).
    _generate_fixture_cases()


def _generate_fixture_cases() -> None:
    """Make the fixture problems' missing cases before any test runs.

    Tests judge the fixture problems (and the hostile ones) in place, and the
    judge generates their cases on first use. Left to the tests, that first
    use would write into tests/fixtures while, in another xdist worker, a
    hostile test is watching that tree for any change a program made. Each
    worker (and the controller) comes here and holds the judge's own lock for
    making a problem's cases (``producing``), so one generates while the
    others wait and then find nothing missing.
    """
    from judge.cli.places import shown
    from judge.core.data_lock import producing
    from judge.core.testdata import ensure, missing_cases
    from judge.problem.formats import load
    from judge.run import SlotPool, resolve_sandbox

    if missing("gcc") is not None:  # no launcher can be built: every test is skipped anyway
        return
    for root in sorted([*PROBLEMS.iterdir(), *(FIXTURES / "hostile" / "problems").iterdir()]):
        problem = load(root, shown(root))
        with producing(problem):
            if not missing_cases(problem):
                continue
            isolation, _ = resolve_sandbox(None)
            with SlotPool(os.cpu_count() or 1, isolation, conceal=problem.folders) as pool:
                ensure(problem, pool)


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers", "slow: judges whole classes, clusters, packages or hostile programs (deselect with -m 'not slow')"
    )
    config.addinivalue_line(
        "markers", "oracle: checks a bundled problem's references against an independent oracle (also slow)"
    )
    register_progress_line(config)


@pytest.hookimpl(optionalhook=True)  # xdist's hook: a run with ``-p no:xdist`` must not fail on it
def pytest_xdist_auto_num_workers(config: pytest.Config) -> int | None:
    """``-n auto``: one worker more than the CPUs this process may use. Many tests wait on a clock (a wall limit, a
    sleeping submission, a server's poll), and with one worker per CPU those waits left the CPUs idle: the fast
    subset kept 2 CPUs 79-81% busy at ``-n 2`` and 93-94% at ``-n 3`` (67-74 s against 58-61 s, interleaved, idle),
    while the whole suite, busy either way, took as long with 3 workers as with 2. ``PYTEST_XDIST_AUTO_NUM_WORKERS``
    still overrides it: then xdist's own hook reads it."""
    if os.environ.get("PYTEST_XDIST_AUTO_NUM_WORKERS"):
        return None
    return len(os.sched_getaffinity(0)) + 1


@pytest.hookimpl(optionalhook=True, tryfirst=True)  # xdist's hook: a run with ``-p no:xdist`` must not fail on it
def pytest_xdist_make_scheduler(config: pytest.Config, log: object) -> object | None:
    """Under ``-n`` with xdist's default distribution, the longest work goes out first, a piece at a time
    (scheduling.py says why); an explicit ``--dist`` is left to xdist."""
    if config.getvalue("dist") != "load":
        return None
    from scheduling import LongestFirstScheduling

    return LongestFirstScheduling(config, log)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    compilers = [reason for reason in map(missing, ("gcc", "g++")) if reason]
    for item in items:
        if item.path.name in SLOW_FILES or item.get_closest_marker("oracle"):
            item.add_marker(pytest.mark.slow)
        if compilers:  # the judge builds its launcher with gcc; the fixtures and references include C++
            item.add_marker(pytest.mark.skip(reason=compilers[0]))
        elif "java" in item.name.lower():
            item.add_marker(needs("javac"))
    # The slow tests first, then the heaviest module first, each module's tests together in their order
    # (scheduling.py): spread over the cores by pytest-xdist, a minute-long verify that came last would leave every
    # core but one idle at the end of the run.
    from scheduling import order, read_durations

    marked = [(item.nodeid, item.get_closest_marker("slow") is not None) for item in items]
    items[:] = [items[index] for index in order(marked, read_durations())]


@pytest.fixture
def judge(tmp_path: Path) -> JudgeRunner:
    """Return a function that runs `run_judge.py judge` in this process (``cli``) and loads its JSON report.

    Call it as `judge(problem, submission, *options, cmd=None)`. A `str`
    problem names a fixture under tests/fixtures/problems (passed as a path
    relative to the repository root); a `Path` is passed as it is, for the
    broken copies that tests make in tmp_path. `submission` may be None when
    `cmd` is given. Each call writes its report to a fresh file in tmp_path.
    """
    return judge_runner(tmp_path, in_process=True)


@pytest.fixture
def judge_process(tmp_path: Path) -> JudgeRunner:
    """``judge`` in a subprocess of its own, for tests about the judge's process (hostile programs that aim at it,
    the interpreters it finds)."""
    return judge_runner(tmp_path, in_process=False)


@pytest.fixture
def gensum(tmp_path: Path) -> Path:
    """A private copy of the gensum problem with its committed cases, as problems/ and cases/ side by side."""
    root = copy_problem("gensum", tmp_path)
    shutil.copytree(FIXTURES / "cases" / "gensum", tmp_path / "cases" / "gensum")
    return root
