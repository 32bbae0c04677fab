"""Grading on a real Dask cluster (a scheduler and workers started as the dask commands start them, outside the
checkout, without PYTHONPATH) gives the same grades as grading locally.

Also: a worker killed in the middle of a run costs nothing (its tasks run
again elsewhere, every submission is stored once), and a worker without a
compiler gives those students a judge error that says so, never a hang.
"""

from __future__ import annotations

import csv
import importlib
import os
import shutil
import signal
import sqlite3
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from conftest import PROGRAMS, REPO_ROOT, run_cli

pytestmark = pytest.mark.slow

if TYPE_CHECKING:
    import distributed
else:
    distributed = None  # bound by _dask when a test here runs


@pytest.fixture(scope="module", autouse=True)
def _dask() -> None:
    """Import Dask for this module's tests (skipped without it, an error under CI), not at collection: its import
    is a second of every pytest process's start, the fast subset's too, which never runs these tests."""
    global distributed
    distributed = (
        pytest.importorskip("distributed") if not os.environ.get("CI") else importlib.import_module("distributed")
    )


PROBLEM = REPO_ROOT / "tests" / "fixtures" / "problems" / "aplusb"
STABLE = [
    "id",
    "language",
    "verdict",
    "score",
    "max_score",
    "cases_passed",
    "cases_total",
    "first_failing_case",
    "first_failing_verdict",
]
CLASS = {
    "a": "ac.c",
    "b": "ac.py",
    "c": "wa.py",
    "d": "pe.py",
    "e": "ce_syntax.cpp",
    "f": "re_exit3.c",
    "g": "ac.cpp",
    "h": "wa_int32.c",
}


def make_class(folder: Path, programs: dict[str, str]) -> Path:
    folder.mkdir()
    for sid, name in programs.items():
        shutil.copy(PROGRAMS / "aplusb" / name, folder / f"{sid}{Path(name).suffix}")
    (folder / "z").mkdir()
    (folder / "z" / "notes.txt").write_text("no source here\n")
    return folder


def rows(path: Path) -> dict[str, dict[str, str]]:
    with path.open(newline="") as f:
        return {row["id"]: row for row in csv.DictReader(f)}


@pytest.fixture(scope="module")
def local_grades(tmp_path_factory: pytest.TempPathFactory) -> dict[str, dict[str, str]]:
    """The class graded locally, once for the module: each cluster is compared with the same rows."""
    root = tmp_path_factory.mktemp("local")
    submissions = make_class(root / "class", CLASS)
    local = run_cli("grade", str(PROBLEM), str(submissions), "--out", str(root / "local"), "-j", "2")
    assert local.returncode == 0, local.stderr
    return rows(root / "local" / "grades.csv")


def graded_like_local(
    address: str, tmp_path: Path, here: dict[str, dict[str, str]]
) -> tuple[Path, dict[str, dict[str, str]]]:
    """Grade the class on the cluster at ``address``; the stable columns must agree with the local grades ``here``
    and both workers must have judged. Returns the class folder and the cluster's rows."""
    submissions = make_class(tmp_path / "class", CLASS)
    remote = run_cli("grade", str(PROBLEM), str(submissions), "--out", str(tmp_path / "remote"), "--cluster", address)
    assert remote.returncode == 0, remote.stderr
    there = rows(tmp_path / "remote" / "grades.csv")
    assert {k: [v[f] for f in STABLE] for k, v in here.items()} == {k: [v[f] for f in STABLE] for k, v in there.items()}
    assert len({there[sid]["worker"] for sid in CLASS}) == 2, "both workers should have judged"
    return submissions, there


class Cluster:
    """A scheduler and worker processes started as ``dask scheduler`` and ``dask worker`` (no nanny) would be, in a
    folder outside the checkout and, where the judge is installed in the interpreter, without PYTHONPATH: the way a
    real cluster is run, but listening on the loopback only. Workers can be added (nothing restarts a killed one)."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
        self.not_installed = _installed_judge(folder, self.env)
        if self.not_installed is not None:  # the judge only from the checkout: the cluster's other tests still run
            self.env["PYTHONPATH"] = str(REPO_ROOT)
        self.scheduler_file = folder / "scheduler.json"
        self.processes: list[subprocess.Popen[bytes]] = []
        self._start("distributed.cli.dask_scheduler", "--host", "127.0.0.1", "--port", "0", "--no-dashboard")
        try:
            deadline = time.monotonic() + 60
            while not self.scheduler_file.is_file() and time.monotonic() < deadline:
                time.sleep(0.1)
            assert self.scheduler_file.is_file(), "the scheduler did not start"
            self.client = distributed.Client(scheduler_file=str(self.scheduler_file), timeout=60)
        except BaseException:
            self._stop()
            raise
        self.address: str = self.client.scheduler.address

    def _start(self, module: str, *args: str) -> None:
        self.processes.append(
            subprocess.Popen(
                [sys.executable, "-m", module, "--scheduler-file", str(self.scheduler_file), *args],
                cwd=self.folder,
                env=self.env,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
            )
        )

    def add_workers(self, count: int, total: int) -> None:
        """Start ``count`` more workers (one thread each) and wait until the scheduler has ``total``."""
        for _ in range(count):
            self._start(
                "distributed.cli.dask_worker", "--host", "127.0.0.1", "--nthreads", "1", "--no-dashboard", "--no-nanny"
            )
        self.client.wait_for_workers(total, timeout=120)

    def close(self) -> None:
        """Stop every process, the client first."""
        self.client.close()
        self._stop()

    def _stop(self) -> None:
        """The workers first, then the scheduler, each given 10 s before it is killed: one fresh-clone run of the
        suite spent 30.4 s in this teardown (stopped all at once, a worker may wait on its gone scheduler up to Dask's
        30 s connect timeout; not reproduced alone). The tests are over, so a kill loses nothing."""
        workers, scheduler = self.processes[1:], self.processes[:1]
        for group in (workers, scheduler):
            for process in group:
                process.terminate()
            for process in group:
                try:
                    process.wait(timeout=10)
                except subprocess.TimeoutExpired:
                    process.kill()
                    process.wait()


@pytest.fixture(scope="module")
def cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Cluster]:
    """One cluster of two workers for the module's tests (its processes' start-up, Dask's import in each, is seconds
    of CPU): see ``Cluster``."""
    from judge.run import build_launcher

    build_launcher()  # workers share the build cache: no worker needs to build it
    started = Cluster(tmp_path_factory.mktemp("elsewhere"))
    try:
        started.add_workers(2, total=2)
        yield started
    finally:
        started.close()


def test_cluster_grades_equal_local_grades(
    cluster: Cluster, local_grades: dict[str, dict[str, str]], tmp_path: Path
) -> None:
    """The module's cluster (workers outside the checkout, without PYTHONPATH where the judge is installed) grades the
    class as local grading does; graded again, everything is reused."""
    address = cluster.address
    submissions, there = graded_like_local(address, tmp_path, local_grades)
    assert all(there[sid]["worker"].startswith("tcp://127.0.0.1:") for sid in CLASS)
    assert there["z"]["verdict"] == "INVALID"
    again = run_cli("grade", str(PROBLEM), str(submissions), "--out", str(tmp_path / "remote"), "--cluster", address)
    assert "judged 0, reused 9" in again.stdout


def test_killed_worker_loses_and_duplicates_nothing(cluster: Cluster, tmp_path: Path) -> None:
    """Sleepers (each held by the wall limit) keep both workers busy; one is killed in the middle of a run. Four
    are enough: the killed worker's run, one on the other worker, and two left queued for either."""
    address, client = cluster.address, cluster.client
    sleepers = {f"s{i}": "tle_sleep.c" for i in range(4)}
    submissions = make_class(tmp_path / "class", sleepers)
    out = tmp_path / "results"
    command = [
        sys.executable,
        str(REPO_ROOT / "run_judge.py"),
        "grade",
        str(PROBLEM),
        str(submissions),
        "--out",
        str(out),
        "--cluster",
        address,
    ]
    grader = subprocess.Popen(command, cwd=REPO_ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    victim = None
    deadline = time.monotonic() + 120
    while victim is None and time.monotonic() < deadline and grader.poll() is None:
        processing = client.processing()
        busy = [worker for worker, tasks in processing.items() if tasks]
        if busy:
            victim = client.run(os.getpid, workers=[busy[0]])[busy[0]]
            os.kill(victim, signal.SIGKILL)
        time.sleep(0.05)
    stdout, stderr = grader.communicate(timeout=300)
    assert victim is not None, "no worker was busy to be killed"
    assert grader.returncode == 0, stderr
    assert f"judged {len(sleepers) + 1}" in stdout
    with sqlite3.connect(out / "results.sqlite") as db:
        stored = db.execute("SELECT student, COUNT(*) FROM results GROUP BY student").fetchall()
    assert sorted(stored) == [(sid, 1) for sid in sorted([*sleepers, "z"])]
    assert {sid: row["verdict"] for sid, row in rows(out / "grades.csv").items() if sid != "z"} == {
        sid: "TLE" for sid in sleepers
    }
    cluster.add_workers(1, total=2)  # in place of the killed one: later tests get a whole cluster


def test_worker_without_compiler_gives_a_judge_error_with_the_reason(tmp_path: Path) -> None:
    submissions = make_class(tmp_path / "class", {"cpp": "ac.cpp", "py": "ac.py"})
    languages = tmp_path / "worker-languages.yaml"  # the worker's own registry names a C++ compiler its machine lacks
    languages.write_text(
        "cpp:\n  extensions: [.cpp]\n  package: g++-99\n"
        "  compile: [g++-99, -o, '{exe}', '{sources}']\n  run: ['{exe}']\n"
    )
    env = {"TILEJUDGE_LANGUAGES": str(languages)}
    with distributed.LocalCluster(
        n_workers=1, threads_per_worker=1, processes=True, dashboard_address=None, env=env
    ) as local:
        run = run_cli(
            "grade",
            str(PROBLEM),
            str(submissions),
            "--out",
            str(tmp_path / "out"),
            "--cluster",
            local.scheduler_address,
            timeout=300,
        )
    assert run.returncode == 0, run.stderr
    graded = rows(tmp_path / "out" / "grades.csv")
    assert graded["cpp"]["verdict"] == "JE"
    assert (
        "needs 'g++-99', which is not installed" in graded["cpp"]["error"]
        and "on worker tcp://" in graded["cpp"]["error"]
    )
    assert graded["py"]["verdict"] == "AC"


def test_bundled_problem_with_references_under_submissions(cluster: Cluster, tmp_path: Path) -> None:
    """slide's spec names its references under submissions/: the shipped package must carry them."""
    address = cluster.address
    accepted, wrong = (
        REPO_ROOT / "problems" / "slide" / "submissions" / "accepted",
        REPO_ROOT / "problems" / "slide" / "submissions" / "wrong_answer",
    )
    submissions = tmp_path / "class"
    submissions.mkdir()
    shutil.copy(accepted / "ref.cpp", submissions / "good.cpp")
    shutil.copy(wrong / "wa_one_short.cpp", submissions / "short.cpp")
    run = run_cli("grade", "slide", str(submissions), "--out", str(tmp_path / "out"), "--cluster", address)
    assert run.returncode == 0, run.stderr
    assert {sid: row["verdict"] for sid, row in rows(tmp_path / "out" / "grades.csv").items()} == {
        "good": "AC",
        "short": "WA",
    }


def _installed_judge(folder: Path, env: dict[str, str]) -> str | None:
    """Why an interpreter started outside the checkout, without PYTHONPATH, cannot import the judge (None: it can)."""
    probe = subprocess.run([sys.executable, "-c", "import judge"], cwd=folder, env=env, capture_output=True, text=True)
    return (
        None
        if probe.returncode == 0
        else "the judge is not installed in this interpreter (pip install -e . or a wheel)"
    )


def test_workers_started_without_pythonpath_grade_like_local(cluster: Cluster) -> None:
    """The module's cluster is a scheduler and two workers started as separate processes, outside the checkout and
    without PYTHONPATH: each worker's judge is the installed package (pip install -e . makes the checkout's the
    installed one), imported with no help. That they grade like local grading is
    test_cluster_grades_equal_local_grades, on this cluster."""
    if cluster.not_installed is not None:
        pytest.skip(cluster.not_installed)
    folders = cluster.client.run(os.getcwd)  # run on each worker (functions it imports as they are named)
    pythonpaths = cluster.client.run(os.getenv, "PYTHONPATH")
    assert len(folders) >= 2 and set(folders.values()) == {str(cluster.folder)}, folders
    assert not cluster.folder.is_relative_to(REPO_ROOT), cluster.folder
    assert set(pythonpaths.values()) == {None}, pythonpaths
