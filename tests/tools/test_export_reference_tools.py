"""The reference tools accept our export of every bundled problem and agree with each submission's folder.

problemtools' ``verifyproblem`` reads the legacy export (the default), and
BAPCtools' ``bt run`` the 2025-09 export with ``--pass-fail`` (it judges no
scoring problems). Both are installed from PyPI into a venv made once and
kept between runs (``tests/kept.py``; xdist's workers and later runs share
it); where that fails the tests skip naming what is missing.

Environment adaptations, each for something this machine lacks and not for
anything in the package: problemtools' statement check is left out (it
needs LuaLaTeX, Debian's ``texlive-luatex``), and its Java command line is
given without ``-source 21`` when the installed ``javac`` is older; bt's
wall-clock timeout (by default ``time_limit_to_tle``, 1.5 unless the package
says otherwise, times the time limit plus 1 s: 5 s for hdoj3600's 3 s) is
raised to 20 s, or three times that default where it is longer, so that on
a loaded machine a run starved of CPU is judged, as every finished run is,
by its CPU time against the same time limit instead of being killed and
reported as TLE. It was 60 s: bt gives that
timeout to every run, also as its CPU limit (timeout + 1 s), and a
time_limit_exceeded submission runs until it, so hdoj3600's quadratic.cpp,
which needs over 30 s of CPU on a 300 x 300 case, burnt up to a minute of CPU
on each case bt had started (the test took 90 s idle). 20 s is still sixty
times the CPU time of the slowest accepted run (ref.py, 0.34 s), i.e. room
for a share of a fiftieth of a core; the verdicts asked of bt are unchanged.
The time_limit_exceeded folder is run on its own (a second ``bt run``), with
bt's own timeout (5.5 s for hdoj3600): a run killed at its timeout is TLE
however starved it was, so the raised timeout cannot change that folder's
verdict and only made quadratic.cpp burn 20 s of CPU instead of 5.5.

The suite's own run (``TILEJUDGE_REFERENCE_PROBLEMS`` unset: hdoj3600) gives
problemtools the samples and the first case of each secret group but those
of ``SUITE_GROUPS_LEFT_OUT``, with the tool's own ``--data_filter``; a
chosen run (``all``, or a list) gives it every case. problemtools judges
every case of every group (the export says ``on_reject: continue``), and
quadratic.cpp runs until its CPU limit (twice the inferred time limit, plus
a little) on every case of 300 x 300 tiles: on all 11 of them this was 55 of
the test's 85 s of CPU. hdoj3600's max and multi groups hold nothing else
(every case of each has a board of 299 or 300 rows), and no wrong_answer
submission needs them (each fails on the samples, the first case of traps or
that of overflow), so the suite's run leaves them out: quadratic.cpp then
meets one such case (overflow's), and without max's 5.8 MB inputs the
slowest accepted run (ref.py) stays under a fifth of a second, so
problemtools infers a 1 s limit instead of 2 s and quadratic.cpp burns under
3 s of CPU there instead of 4.7 s on each of three cases (verifyproblem took
18 s of CPU instead of 33 s, at load 14 to 20). The accepted submissions
then score 60 of 100, which problemtools names in a warning each ("did not
attain full score"): a warning, not an error, and the price of the filter.
Still proven: problemtools loads and checks the whole package (problem.yaml,
every group's settings and grading, the input and output validators, their
junk-input checks on every kept case), infers its time limit from the
accepted submissions and gives each submission its folder's verdict on the
groups it runs (the max and multi groups have the very settings of the other
secret groups, which it runs); each wrong_answer submission of hdoj3600
fails on a kept case (were a change to the data to let one pass them, the
test fails naming it, and the filter needs another case). Not proven in the
suite's run: problemtools' own validation of the other 22 inputs and
answers, the accepted submissions on them and the grading of the max and
multi groups' results. bt still runs every case (the 2025-09 export holds
the same files), so each accepted submission still meets every case, max and
multi included, in one peer tool, and verify checks every case of every
bundled problem (``tests/puzzles/test_bundled_problems.py``).

The tools are installed with ``pip --no-compile``: compiling the byte code of
every module of both tools and their dependencies (numpy and matplotlib among
them) was most of pip's 28 s, where the two tool runs import a fraction of it.
The venv is made without a pip of its own (``ensurepip`` cost about 4.5 s of
CPU) and this suite's pip installs into it (``--python``).

bt's builds (every submission and its default output validator, about 10 CPU-s of compiling) are kept between
runs (``tests/bt_builds.py``) and given to the next run's fresh work folder, where bt's own up-to-date check (the
hash of the sources and the compile command) reuses them or builds again.

bt compiles C and C++ without ``-g`` (its own command otherwise, through
``languages.yaml`` in its configuration folder): nothing here reads debug
information, and it was a third of the 8.8 s of CPU that g++ spends on bt's
default output validator (``<regex>`` and ``<filesystem>`` at ``-O2``).

Both tools run Python with PyPy under an address-space limit of the problem's
memory limit, and PyPy sizes its nursery at half the cache the CPU reports: on
a VM reporting 300 MiB of L3 the reference ref.py ran out of address space
under 256 MiB (RTE), on one reporting 480 MiB PyPy could not even start
("cannot allocate nursery"). The tools therefore get PyPy's own nursery size,
as every run of the judge does (``PYPY_GC_NURSERY``, ``judge/run/slots.py``),
unless the environment sets one. A language a tool still cannot run here is
left out of the package with a reason, and the test, having checked every
other submission, ends skipped with that reason: the tool's limit on this
machine, not a fault of the package.
"""

from __future__ import annotations

import hashlib
import math
import os
import re
import resource
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
import yaml
from bt_builds import bt_work_folder, kept_bt_builds
from conftest import REPO_ROOT, cli, shared_by_workers
from kept import kept_folder, locked

PINS = ("problemtools==1.20260907", "bapctools==2026.10.0")
EXPECTED = {"accepted": "AC", "wrong_answer": "WA", "time_limit_exceeded": "TLE", "run_time_error": "RTE"}
BUNDLED = sorted(p.name for p in (REPO_ROOT / "problems").iterdir() if (p / "problem.yaml").is_file())
# The whole set takes about an hour on 2 cores (problemtools alone took 10 minutes on blind), far over the suite's
# budget: the suite runs one problem through both tools, and TILEJUDGE_REFERENCE_PROBLEMS=all, or a comma-separated
# list, runs the others.
CHOSEN = os.environ.get("TILEJUDGE_REFERENCE_PROBLEMS", "hdoj3600")
RUN = set(BUNDLED) if CHOSEN == "all" else set(CHOSEN.split(","))
# The suite's own run (nothing chosen) gives problemtools a part of hdoj3600's cases, a chosen run every case: see
# the module's docstring and _first_cases
WHOLE_DATA = "TILEJUDGE_REFERENCE_PROBLEMS" in os.environ
PROBLEMS = [
    pytest.param(
        name,
        marks=pytest.mark.skipif(
            name not in RUN,
            reason=f"{name}: set TILEJUDGE_REFERENCE_PROBLEMS=all (or a list) to run the reference tools",
        ),
    )
    for name in BUNDLED
]
ANSI = re.compile(r"\x1b\[[0-9;]*m")  # bt colours its lines where it guesses a terminal (as under CI=true)
PARTS = ["config", "data", "graders", "submissions", "validators"]  # all but "statement"
BT_TIMEOUT_S = 20  # see the module's docstring
# the secret groups of hdoj3600 that the suite's run leaves out of problemtools' data (see the module's docstring)
SUITE_GROUPS_LEFT_OUT = {"hdoj3600": ("03max", "05multi")}
# bt's C and C++ commands without -g (see the module's docstring); the rest of each is bt's own
BT_LANGUAGES = (
    "c:\n  compile: 'gcc -O2 -std=gnu11 -o {binary} {files} -lm -Wall -Wfatal-errors -fdiagnostics-color=always'\n"
    "cpp:\n  compile: 'g++ -O2 -std=gnu++23 -o {binary} {files} -Wall -Wfatal-errors -fdiagnostics-color=always'\n"
)
TOOL_ENV = {"PYPY_GC_NURSERY": os.environ.get("PYPY_GC_NURSERY", "4M")}  # see the module's docstring


@pytest.fixture(scope="session")
def reference_tools(tmp_path_factory: pytest.TempPathFactory) -> Callable[[], Path]:
    """A venv with both tools, kept between runs; the tests ask for it after their export, so that a test waiting for
    another worker's install has done its own part meanwhile.

    The venv is made once and kept (``kept.py``: in the user's cache folder, like the judge's builds), in a folder
    named by the pins and the interpreter it is made from: pip's install of the two tools and their dependencies
    (numpy and matplotlib among them) cost 13 CPU-seconds of every run, for nothing these tests are about. The first
    to ask makes it under the folder's lock while the others, other xdist workers or another run, wait for it; a venv
    left half made (an install killed midway) has no ``ready`` mark and is made again. Skips with pip's own last line
    when the tools cannot be installed here; that is not kept, but recorded for the run, so a worker that finds it
    skips with the same reason instead of trying again."""
    run = shared_by_workers(tmp_path_factory.getbasetemp()) / "reference-tools"
    pinned = hashlib.sha256(repr((PINS, sys.version, sys._base_executable)).encode()).hexdigest()[:16]

    def venv() -> Path:
        run.mkdir(exist_ok=True)
        with locked(kept_folder(f"reference-tools-{pinned}")) as folder:
            ready, failed = folder / "ready", run / "failed"
            if not ready.is_file() and not failed.is_file():
                shutil.rmtree(folder / "venv", ignore_errors=True)
                why = _install(folder / "venv")
                (failed if why else ready).write_text(why)
            why = failed.read_text() if failed.is_file() else ""
        if why:
            pytest.skip(why)
        return folder / "venv"

    return venv


def _install(venv: Path) -> str:
    """Make ``venv`` with both tools; why they cannot be installed here, or "" when they are."""
    made = subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], capture_output=True, text=True)
    if made.returncode != 0:
        return f"cannot make a venv: {(made.stderr.strip().splitlines() or ['?'])[-1]}"
    pip = subprocess.run(
        [sys.executable, "-m", "pip", "--python", str(venv / "bin" / "python"), "install", "-q", "--no-compile", *PINS],
        capture_output=True,
        text=True,
        timeout=900,
    )
    if pip.returncode != 0:
        errors = (
            [line for line in pip.stderr.splitlines() if "error" in line.lower()] or pip.stderr.splitlines() or ["?"]
        )
        return f"pip install {' '.join(PINS)} failed: {errors[-1].strip()}"
    missing = [tool for tool in ("verifyproblem", "bt") if not (venv / "bin" / tool).is_file()]
    return f"the venv has no {', '.join(missing)} after pip install" if missing else ""


def _problemtools_config(root: Path) -> dict[str, str]:
    """XDG_CONFIG_HOME with a languages.yaml for an older JDK, and the venv's tools on PATH."""
    folder = root / "config" / "problemtools"
    folder.mkdir(parents=True)
    # one JVM start (0.2 CPU-s), its two streams together: older JDKs print the version on stderr
    version = subprocess.run(["javac", "-version"], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True).stdout
    major = re.search(r"javac (\d+)", version)
    if major and int(major.group(1)) < 21:
        (folder / "languages.yaml").write_text(
            "java:\n  compile: 'javac -encoding UTF-8 -sourcepath {path} -d {path} {files}'\n"
        )
    return {"XDG_CONFIG_HOME": str(root / "config")}


def _exported(problem: str, out: Path, *options: str) -> Path:
    run = cli("export", problem, *options, str(out))
    assert run.returncode == 0, run.stderr[-2000:]
    return out


def _submissions(package: Path) -> dict[str, str]:
    """Every exported submission and the verdict its folder states."""
    base = package / "submissions"
    return {
        f"{entry.parent.name}/{entry.name}": EXPECTED[entry.parent.name]
        for entry in sorted(base.glob("*/*"))
        if entry.parent.name in EXPECTED
    }


def _pypy_cannot_start(memory_mib: int) -> str | None:
    """Why PyPy, as both tools run it (their environment, an address-space limit of ``memory_mib``), cannot start
    here; None when it can, or when it is not installed (the tools then run CPython)."""
    pypy = shutil.which("pypy3")
    if pypy is None:
        return None
    limit = memory_mib << 20

    def limited() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))

    run = subprocess.run(
        [pypy, "-c", "pass"],
        capture_output=True,
        text=True,
        preexec_fn=limited,
        env={**os.environ, **TOOL_ENV},
        timeout=120,
    )
    if run.returncode == 0:
        return None
    said = [line for line in run.stderr.splitlines() if line.strip() and "traceback" not in line.lower()]
    return f"pypy3 cannot start under a {memory_mib} MiB address-space limit here ({(said or ['?'])[-1].strip()})"


def _leave_out_unrunnable(problem: str, package: Path) -> str | None:
    """Take out of the exported package the submissions the tools cannot run here; the reason, or None."""
    from judge.problem.formats import load

    why = _pypy_cannot_start(load(REPO_ROOT / "problems" / problem).limits.memory_mib)
    python = sorted((package / "submissions").glob("*/*.py"))
    if why is None or not python:
        return None
    for path in python:
        path.unlink()
    names = ", ".join(f"{p.parent.name}/{p.name}" for p in python)
    return f"{problem}: {names} not run by the reference tool: {why}; every other submission was checked"


def _bt_timeout(package: Path) -> int:
    """bt's wall-clock timeout (and CPU limit) for every run: 20 s, or three times bt's own default for the exported
    time limit where that is longer (see the module's docstring)."""
    meta = yaml.safe_load((package / "problem.yaml").read_text())
    limits = meta.get("limits") or {}
    default = (
        float(limits.get("time_limit", 1.0)) * float(limits.get("time_multipliers", {}).get("time_limit_to_tle", 1.5))
        + 1
    )
    return max(BT_TIMEOUT_S, math.ceil(3 * default))


def _first_cases(package: Path, problem: str) -> list[str]:
    """problemtools' ``--data_filter`` for the suite's run: every sample and the first case of each secret group but
    those left out for the problem (the names the filter is matched against: the path under data/ without the
    extension)."""
    data = package / "data"
    left_out = SUITE_GROUPS_LEFT_OUT.get(problem, ())
    folders = sorted({p.parent for p in (data / "secret").rglob("*.in")} - {data / "secret" / g for g in left_out})
    firsts = [min(folder.glob("*.in")) for folder in folders]
    names = [re.escape(str(first.relative_to(data).with_suffix(""))) + "$" for first in firsts]
    return ["-d", "^(sample/|" + "|".join(names) + ")"]


def _tool_log(venv: Path, argv: list[str], cwd: Path, env: dict[str, str] | None = None) -> tuple[int, str]:
    """A reference tool's exit code and what it printed, colour codes stripped; the venv's tools come first on PATH.

    The exit code counts: bt prints some errors without the word ERROR (a missing statement, for one), and
    exits 1 on any error or warning; verifyproblem exits 1 when it counted an error."""
    run = subprocess.run(
        [str(venv / "bin" / argv[0]), *argv[1:]],
        capture_output=True,
        text=True,
        env={**os.environ, **TOOL_ENV, **(env or {}), "PATH": f"{venv / 'bin'}:{os.environ['PATH']}"},
        cwd=cwd,
        timeout=1800,
    )
    return run.returncode, ANSI.sub("", run.stdout + run.stderr)


@pytest.mark.slow
@pytest.mark.parametrize("problem", PROBLEMS)
def test_problemtools_verifies_the_legacy_export(
    reference_tools: Callable[[], Path], problem: str, tmp_path: Path
) -> None:
    package = _exported(problem, tmp_path / "pkg" / problem)
    left_out = _leave_out_unrunnable(problem, package)
    only = [] if WHOLE_DATA else _first_cases(package, problem)
    code, log = _tool_log(
        reference_tools(),
        ["verifyproblem", str(package), "-p", *PARTS, *only],
        tmp_path,
        _problemtools_config(tmp_path),
    )
    assert code == 0 and re.search(rf"{problem} tested: 0 errors", log), log[-4000:]
    for name, verdict in _submissions(
        package
    ).items():  # problemtools says OK when a submission gets its folder's verdict
        # the language is named in brackets, which may hold brackets: "Python 3 (w/PyPy3)"
        assert re.search(rf"^\s*{re.escape(name)} \(.*\) OK: {verdict}\b", log, re.M), (
            f"{name}: expected {verdict}\n{log[-4000:]}"
        )
    if left_out:
        pytest.skip(left_out)


@pytest.mark.slow
@pytest.mark.parametrize("problem", PROBLEMS)
def test_bapctools_runs_the_pass_fail_2025_09_export(
    reference_tools: Callable[[], Path], problem: str, tmp_path: Path
) -> None:
    package = _exported(problem, tmp_path / problem, "--format", "2025-09", "--pass-fail")
    left_out = _leave_out_unrunnable(problem, package)
    # bt remembers every problem.yaml it ran by uuid in XDG_CONFIG_HOME and warns (exit 1) when another folder has
    # the same one: an earlier run's export (our uuids are stable per problem) must not count, so the record is fresh
    # bt also keeps its runs in a bapctools_* folder under the temporary folder, never removed: here, the test's own
    config = {"XDG_CONFIG_HOME": str(tmp_path / "config"), "TMPDIR": str(tmp_path)}
    (tmp_path / "config" / "bapctools").mkdir(parents=True)
    (tmp_path / "config" / "bapctools" / "languages.yaml").write_text(BT_LANGUAGES)
    # the time_limit_exceeded folder runs on its own with bt's own timeout (see the module's docstring)
    folders = sorted(p.name for p in (package / "submissions").iterdir() if p.is_dir())
    runs = [
        ["--timeout", str(_bt_timeout(package)), *(f"submissions/{f}" for f in folders if f != "time_limit_exceeded")],
        *([["submissions/time_limit_exceeded"]] if "time_limit_exceeded" in folders else []),
    ]
    log, venv = "", reference_tools()
    # bt's builds of an earlier run of the same sources are reused, bt's own up-to-date check deciding (bt_builds.py)
    with kept_bt_builds(PINS, problem, bt_work_folder(tmp_path, package)):
        for argv in runs:
            code, said = _tool_log(venv, ["bt", "run", "--no-bar", *argv], package, config)
            log += said
            assert code == 0 and "FATAL" not in said and "ERROR" not in said, f"bt run {' '.join(argv)}\n{said[-4000:]}"
    for name, verdict in _submissions(package).items():
        # the verdict is right-aligned and a duration of 10 s or more follows it without a space: "TLE60.112s"
        assert re.search(rf"^{re.escape(name)}:\s+{verdict}(?![A-Z])", log, re.M), (
            f"{name}: expected {verdict}\n{log[-4000:]}"
        )
    if left_out:
        pytest.skip(left_out)


def test_a_runtime_that_cannot_start_under_the_limit_is_named_with_the_reason() -> None:
    """The probe that leaves a language out says why: PyPy cannot start in 1 MiB of address space anywhere."""
    if shutil.which("pypy3") is None:
        pytest.skip("pypy3 is not installed (Debian package pypy3; .ci/setup-system installs it as root)")
    why = _pypy_cannot_start(1)
    assert why is not None and why.startswith("pypy3 cannot start under a 1 MiB address-space limit here (")
    assert _pypy_cannot_start(4096) is None
