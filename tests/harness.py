"""What the suite's tests share beyond fixtures: the repository's paths, running the judge's CLI, skipping on a
missing tool, and small writers of packages and programs.

The black-box tests drive `run_judge.py` exactly as a user would, from the
repository root, and read its `--json` report. Most call its `main` in this
process (`judge`, `cli`: cli_in_process.py gives it what a process would
have), since its start-up would cost a third of a second for each; tests about
the process itself start it as a subprocess (`judge_process`, `run_cli`).
Either way only the command line is used, so those tests pin down its contract
and survive any rewrite of the judge's internals.

These live in a module of their own, not in conftest.py, because a conftest
is imported under the bare name ``conftest``: with a conftest.py in each
folder of tests, ``from conftest import ...`` gets whichever was loaded last.
Every conftest.py re-exports this module's names (``__all__``), so a test's
``from conftest import cli`` keeps working wherever it sits; new code imports
from ``harness``.
"""

from __future__ import annotations

import itertools
import json
import os
import shutil
import signal
import subprocess
import sys
import textwrap
import threading
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from cli_in_process import run_in_process

__all__ = [
    "REPO_ROOT",
    "FIXTURES",
    "PROBLEMS",
    "PROGRAMS",
    "VERDICTS",
    "JUDGE_TIMEOUT_S",
    "SLOW_FILES",
    "SYSTEM_PACKAGES",
    "missing",
    "needs",
    "require",
    "JudgeRun",
    "JudgeRunner",
    "judge_runner",
    "run_cli",
    "cli",
    "_run_bounded",
    "as_a_foreground_job",
    "processes_with",
    "top_priority",
    "program",
    "write_files",
    "bundled_with_fewer_cases",
    "write_printer",
    "copy_problem",
    "cache_with_launcher",
    "built",
    "shared_by_workers",
    "reference_commands",
    "language_missing",
]

REPO_ROOT = Path(__file__).resolve().parents[1]
FIXTURES = REPO_ROOT / "tests" / "fixtures"
PROBLEMS = FIXTURES / "problems"
PROGRAMS = FIXTURES / "programs"

VERDICTS = frozenset({"AC", "WA", "PE", "TLE", "MLE", "OLE", "RE", "CE", "JE"})

# Upper bound for one judge run. Far above what any fixture needs (the slowest
# compile plus four TLE cases), so hitting it means the judge hung.
JUDGE_TIMEOUT_S = 120

# Files owned by other work whose tests are slow: marked here by name instead of a pytestmark in the file.
SLOW_FILES = frozenset(
    {"test_hostile.py", "test_containment.py", "test_kattis_packages.py"}
)  # hostile programs; whole packages verified

# Tool on PATH -> the Debian package that provides it, named when a test is skipped because the tool is missing.
SYSTEM_PACKAGES = {
    "gcc": "gcc",
    "g++": "g++",
    "javac": "default-jdk-headless",
    "bwrap": "bubblewrap",
    "chromium": "chromium",
    "nginx": "nginx",
}


def missing(tool: str) -> str | None:
    """Why tests needing ``tool`` cannot run here (a one-line skip reason), or None when it is installed."""
    if shutil.which(tool) is not None:
        return None
    return f"{tool} is not installed (Debian package {SYSTEM_PACKAGES[tool]}; .ci/setup-system installs it as root)"


def needs(tool: str) -> pytest.MarkDecorator:
    """A mark skipping a test (or a parameter) on a machine without ``tool``: a missing package is a skip, not a
    failure."""
    reason = missing(tool)
    return pytest.mark.skipif(reason is not None, reason=reason or "")


def require(tool: str) -> None:
    """Skip the calling test or fixture now when ``tool`` is missing."""
    reason = missing(tool)
    if reason is not None:
        pytest.skip(reason)


@dataclass
class JudgeRun:
    """Outcome of one `run_judge.py` invocation."""

    args: list[str]
    returncode: int
    stdout: str
    stderr: str
    report: dict[str, Any] | None

    def describe(self) -> str:
        """Summarise the run for assertion messages, so a failure shows what the judge did."""
        lines = [f"command: {' '.join(self.args)}", f"exit code: {self.returncode}"]
        if self.report is not None:
            lines.append(f"verdict: {self.report.get('verdict')} score: {self.report.get('score')}")
            for case in self.report.get("cases", []):
                lines.append(
                    f"  {case.get('group')}/{case.get('name')}: {case.get('verdict')} "
                    f"time={case.get('time')} wall={case.get('wall_time')} "
                    f"mem={case.get('memory_kb')} exit={case.get('exit_code')} "
                    f"signal={case.get('signal')} message={case.get('message')!r}"
                )
        lines.append(f"stderr: {self.stderr[-2000:]}")
        return "\n".join(lines)

    @property
    def verdict(self) -> str:
        """The overall verdict from the JSON report."""
        assert self.report is not None, f"no JSON report was written\n{self.describe()}"
        return self.report["verdict"]

    @property
    def cases(self) -> list[dict[str, Any]]:
        """The per-case entries of the JSON report, in the order the judge wrote them."""
        assert self.report is not None, f"no JSON report was written\n{self.describe()}"
        return self.report["cases"]

    def case(self, name: str) -> dict[str, Any]:
        """The report entry of the case called `name`."""
        matches = [case for case in self.cases if case["name"] == name]
        assert len(matches) == 1, f"expected one case named {name!r}\n{self.describe()}"
        return matches[0]

    def error_line(self) -> str:
        """The single line a bad-input error must print on stderr, after checking that rule."""
        assert "Traceback" not in self.stderr, self.describe()
        lines = self.stderr.strip().splitlines()
        assert len(lines) == 1, f"expected exactly one line on stderr\n{self.describe()}"
        return lines[0]


JudgeRunner = Callable[..., JudgeRun]


def judge_runner(tmp_path: Path, in_process: bool) -> JudgeRunner:
    counter = itertools.count()

    def run(
        problem: str | Path,
        submission: str | Path | None = None,
        *options: str,
        cmd: str | None = None,
    ) -> JudgeRun:
        problem_arg = str(problem) if isinstance(problem, Path) else f"tests/fixtures/problems/{problem}"
        report_path = tmp_path / f"report-{next(counter)}.json"
        args = ["judge", problem_arg]
        if submission is not None:
            args.append(str(submission))
        if cmd is not None:
            args += ["--cmd", cmd]
        # every case's verdict, as these tests of judging expect: a decided group's cases are not left SKIPPED
        # (tests/tools/test_decided_groups.py tests that default of `judge`)
        args += ["--json", str(report_path), "--all-cases", *options]
        if in_process:
            returncode, stdout, stderr = run_in_process(args, JUDGE_TIMEOUT_S)
        else:
            args = [sys.executable, "run_judge.py", *args]
            returncode, stdout, stderr = _run_bounded(args)
        report = json.loads(report_path.read_text()) if report_path.exists() else None
        return JudgeRun(args, returncode, stdout, stderr, report)

    return run


def run_cli(*args: str, timeout: float = 900) -> subprocess.CompletedProcess[str]:
    """Run any ``run_judge.py`` command from the repo root in a subprocess of its own, bounded like the ``judge``
    fixture: for tests about the process (start-up, signals, ``--json -`` on its stdout, what a fresh machine has)."""
    argv = [sys.executable, str(REPO_ROOT / "run_judge.py"), *args]
    returncode, stdout, stderr = _run_bounded(argv, timeout)
    return subprocess.CompletedProcess(argv, returncode, stdout, stderr)


def cli(*args: str, timeout: float = 900) -> subprocess.CompletedProcess[str]:
    """Run any ``run_judge.py`` command in this process, as ``run_cli`` would in a subprocess (cli_in_process.py):
    for tests of what a command decides and says, which need not pay a third of a second of start-up each."""
    returncode, stdout, stderr = run_in_process(list(args), timeout)
    return subprocess.CompletedProcess(["run_judge.py", *args], returncode, stdout, stderr)


def _run_bounded(args: list[str], timeout: float = JUDGE_TIMEOUT_S) -> tuple[int, str, str]:
    """Run the judge in its own session; if it hangs, kill that session and fail.

    The judge's children (submissions, checkers) share the session, so killing
    the group leaves no runaway busy loop behind on a 2-core machine.
    """
    process = subprocess.Popen(
        args,
        cwd=REPO_ROOT,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    try:
        stdout, stderr = process.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        process.communicate()
        pytest.fail(f"judge did not finish within {timeout} s: {' '.join(args)}")
    return process.returncode, stdout, stderr


def as_a_foreground_job() -> None:
    """``preexec_fn`` for a judge a test will Ctrl-C: SIGINT at its default, as a terminal's foreground job has it.

    A suite started in the background (``pytest ... &`` in a script, an asynchronous list as CI may run it) has
    SIGINT ignored; exec keeps an ignored signal ignored, and Python then installs no KeyboardInterrupt handler, so
    the judge would never see the Ctrl-C the test sends and would run on to its limits (the grading Ctrl-C test
    failed that way "at load 10": it passed alone, in the foreground)."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def top_priority(cpu: int) -> str:
    """Python source that pins its process to ``cpu`` at the highest priority, as a process and as a scheduling
    autogroup (which otherwise shares a CPU between sessions equally, whatever their processes' nice values): what the
    tests that make their own load on one CPU start their busy processes (and programs) with. Without root it is only
    pinned."""
    return (
        f"import os\nos.sched_setaffinity(0, {{{cpu}}})\n"
        "try:\n    open('/proc/self/autogroup', 'w').write('-20')\n    os.nice(-20)\nexcept OSError:\n    pass\n"
    )


def processes_with(marker: str) -> list[str]:
    """Live processes whose command line holds ``marker`` (a run's ``sleep``), judges excluded: what a test that
    stops a judge looks for to prove no run outlived it."""
    found = []
    for proc in Path("/proc").iterdir():
        if proc.name.isdigit():
            try:
                cmdline = (proc / "cmdline").read_bytes().replace(b"\0", b" ").decode()
            except OSError:
                continue
            if marker in cmdline and "run_judge.py" not in cmdline:
                found.append(f"{proc.name}: {cmdline}")
    return found


def joined_and_reaped(work: Callable[[], None], marker: str, bound: float) -> list[str]:
    """Run ``work`` on a thread, give it ``bound`` seconds, then SIGKILL every process whose command line holds
    ``marker`` and wait for the thread: the processes found (what outlived the bound), so a test that expects none
    can say which, and never leaves a sleeper behind whatever happened."""
    worker = threading.Thread(target=work)
    worker.start()
    worker.join(bound)
    leaked = processes_with(marker)
    for line in leaked:
        os.kill(int(line.split(":")[0]), signal.SIGKILL)
    worker.join()
    return leaked


def program(name: str) -> Path:
    """Path of a fixture submission for the aplusb problem."""
    path = PROGRAMS / "aplusb" / name
    assert path.is_file(), f"missing fixture program {path}"
    return path


def write_files(root: Path, files: dict[str, str]) -> Path:
    """Write a package (or any tree) the test describes as {relative path: text}; the text is dedented, so a test
    may indent it with its own code. Returns ``root``."""
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text))
    return root


def write_printer(directory: Path, output: bytes, name: str = "printer.py") -> Path:
    """Write a Python submission that drains stdin and then prints exactly `output`.

    Checker tests need submissions whose bytes they control to the last
    whitespace; writing through the binary buffer keeps Python from touching
    newlines. Reading stdin first keeps the judge from ever meeting a closed
    pipe.
    """
    path = directory / name
    path.write_text(f"import sys\nsys.stdin.buffer.read()\nsys.stdout.buffer.write({output!r})\n")
    return path


def copy_problem(name: str, root: Path) -> Path:
    """Copy fixture problem `name` to root/problems/<name> and return the new folder.

    The copy sits in a `problems` folder so that its generated data goes to
    root/cases/<name>, away from the shared fixture tree.
    """
    destination = root / "problems" / name
    shutil.copytree(PROBLEMS / name, destination)
    return destination


def bundled_with_fewer_cases(name: str, kept: dict[str, list[str] | None], root: Path) -> Path:
    """A copy of bundled problem ``name`` in root/problems/<name> whose problem.yaml keeps the groups named in
    ``kept``, each with the cases listed (all of them with None): for a round trip that needs the cases catching each
    submission, not all of them. The family's shared library folder is copied beside it (``libraries:`` names it
    relative to the problem)."""
    import yaml

    bundled = REPO_ROOT / "problems"
    destination = root / "problems" / name
    shutil.copytree(bundled / name, destination)
    if (bundled / "_lib").is_dir():
        shutil.copytree(bundled / "_lib", root / "problems" / "_lib")
    spec = yaml.safe_load((destination / "problem.yaml").read_text())
    groups = [group for group in spec["groups"] if group["name"] in kept]
    for group in groups:
        named = kept[group["name"]]
        group["cases"] = [case for case in group["cases"] if named is None or case["name"] in named]
    spec["groups"] = groups
    (destination / "problem.yaml").write_text(yaml.safe_dump(spec, sort_keys=False))
    return destination


def cache_with_launcher(folder: Path) -> Path:
    """A judge cache folder (for ``TILEJUDGE_CACHE``) holding the launcher already, made on first use: a test that
    needs a cache of its own (nothing remembered yet, a sandbox mode's own builds) does not pay seconds of gcc and a
    static link for the launcher the suite's cache has."""
    if not folder.is_dir():
        from judge.run.launcher import build_launcher

        built = build_launcher()
        folder.mkdir(parents=True)
        shutil.copy2(built, folder / built.name)
    return folder


def shared_by_workers(basetemp: Path) -> Path:
    """The temporary folder every pytest-xdist worker of this run shares: the parent of a worker's ``basetemp`` (xdist
    makes one folder per worker inside the run's), or ``basetemp`` itself in a run without workers. Work made once
    per run (a tools venv, a build cache) lives there, under a lock of its own."""
    return basetemp.parent if os.environ.get("PYTEST_XDIST_WORKER") else basetemp


def built(source: Path, memory_mib: int = 2048) -> list[str]:
    """The command line the judge runs ``source`` with (a bundled reference or test submission), built by the judge
    into its content-addressed build cache: ``verify`` of the same problem, a judging or an earlier run has usually
    built the very same source already, so an oracle test pays no compile of its own (g++ -O2 of a reference costs
    2-3 CPU-seconds, javac more), and it runs what the judge runs. ``memory_mib`` is the heap a JVM is given."""
    from judge.lang import prepare_program
    from judge.run import Isolation, SlotPool

    with SlotPool(1, Isolation("none")) as pool:
        program = prepare_program(source, None, pool, 120)
    assert program.compiled, f"{source} does not compile: {program.compile_log[-2000:]}"
    return program.command(memory_mib)


def reference_commands(problem: str) -> dict[str, list[str]]:
    """Both references of a bundled problem as command lines, for oracles that run them directly; the C++ one
    built through the judge's build cache (``built``)."""
    accepted = REPO_ROOT / "problems" / problem / "submissions" / "accepted"
    return {"ref.cpp": built(accepted / "ref.cpp"), "ref.py": [sys.executable, str(accepted / "ref.py")]}


def language_missing(name: str) -> str | None:
    """Why a language's tests cannot run here (a one-line skip reason), or None when its toolchain is installed.

    The reason says what is true of the package: ``.ci/setup-system`` installs it only if the script names it (python2
    has no Debian 12 package at all, so nothing installs it there)."""
    from judge.lang import LANGUAGES

    language = LANGUAGES[name]
    absent = language.missing()
    if not absent:
        return None
    package = language.package.split()[0] if language.package else absent[0]
    script = (REPO_ROOT / ".ci" / "setup-system").read_text()
    if f":{package} " in script or f":{package})" in script:
        how = f"Debian package {package}; .ci/setup-system installs it as root"
    elif "Debian 11 and older" in language.package:  # python2: gone from Debian 12, no apt-get line brings it back
        how = f"Debian 12 has no {package} package, only Debian 11 and older; .ci/setup-system cannot install it"
    else:
        how = f"Debian package {language.package}, which .ci/setup-system does not install"
    return f"{name}: '{absent[0]}' is not installed ({how})"
