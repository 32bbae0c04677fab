"""The benchmark's grading rows: throughput with 1 and 2 workers (locally and on a local Dask cluster), and grading a
failing class with this judge against the grading before issue #15, side by side in one run, with identical grades.

The "before" grading is the judge as it was at ``BASELINE`` (every TLE case
re-run alone, every case of a lost group run), extracted from this
checkout's git history into the scratch folder and run by its own
``run_judge.py``: a measurement of the real previous code, not of a switch
in this one. Both gradings run as the command a teacher types, interleaved
over the rounds, on the same class, with ``--rejudge`` so nothing is reused.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any, Protocol

from ..grade.grading import GradeOptions, grade
from ..grade.store import Store
from ..model import Problem
from ..run import Isolation
from ..text import table
from .bench_series import interleave, timed


class Bench(Protocol):
    """What these rows use of a benchmark session (``bench.Bench``)."""

    problem: Problem
    work: Path
    rounds: int
    quick: bool
    figures: dict[str, Any]
    log: Callable[[str], None]

    def modes(self) -> list[str]: ...


REPO = Path(__file__).resolve().parents[2]
BASELINE = "e8ad4e0"  # the last commit before issue #15's grading work
# The failing class: (submission under the problem's submissions/, copies). About a third fail, as a real class does.
FAILING_CLASS = (
    ("accepted/ref.cpp", 3),
    ("accepted/fenwick.cpp", 3),
    ("accepted/mergesort_manhattan.cpp", 2),
    ("wrong_answer/wa_int32_overflow.cpp", 1),
    ("wrong_answer/wa_state_not_reset.cpp", 1),
    ("time_limit_exceeded/tle_quadratic.cpp", 2),
)


def grading_throughput(bench: Bench) -> None:
    folder = bench.work / "class"
    folder.mkdir(exist_ok=True)
    sources = sorted(
        p
        for p in (bench.problem.root / "submissions").rglob("*")
        if p.suffix in (".cpp", ".c", ".py") and "time_limit" not in str(p)
    )
    copies = 1 if bench.quick else 2
    for i in range(copies):
        for n, src in enumerate(sources):
            (folder / f"s{i}{n:02d}{src.suffix}").write_text(
                src.read_text() + (f"\n// copy {i}\n" if src.suffix != ".py" else f"\n# copy {i}\n")
            )
    count = len(list(folder.iterdir()))
    data, rows = {}, []
    per_minute: dict[int, float] = {}
    for jobs in (1, 2):
        with Store(bench.work / f"grades-j{jobs}") as store:
            elapsed = timed(
                lambda jobs=jobs: grade(
                    bench.problem, folder, store, Isolation(bench.modes()[-1]), GradeOptions(jobs=jobs, rejudge=True)
                )
            )
        per_minute[jobs] = count / elapsed * 60
        data[f"j{jobs}"] = {"submissions": count, "seconds": elapsed, "per_minute": per_minute[jobs]}
        rows.append([f"-j {jobs}", str(count), f"{elapsed:.1f} s", f"{per_minute[jobs]:.0f}"])
    data["speedup"] = per_minute[2] / per_minute[1]
    bench.figures["grading"] = data
    _cluster_grading(bench, folder, count)
    bench.log(
        f"\ngrading throughput ({bench.problem.name}, sandbox {bench.modes()[-1]}):\n"
        + table(rows, ["jobs", "submissions", "time", "per minute"])
        + f"\nspeed-up 1→2 workers: {data['speedup']:.2f}×"
    )


def _cluster_grading(bench: Bench, folder: Path, count: int) -> None:
    """The same class on a local Dask cluster of 1 and 2 single-threaded worker processes (only if Dask is
    installed)."""
    try:
        import dask
        from distributed import LocalCluster
    except ImportError:
        bench.log("\ncluster grading: skipped (Dask not installed: pip install -r requirements-cluster.txt)")
        return
    data, rows = {}, []
    scratch = {"temporary-directory": str(bench.work / "dask")}  # Dask's workers' scratch, else /tmp's for good
    for workers in (1, 2):
        with (
            dask.config.set(scratch),
            LocalCluster(n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=None) as cluster,
        ):
            with Store(bench.work / f"grades-cluster{workers}") as store:
                options = GradeOptions(jobs=workers, rejudge=True, cluster=cluster.scheduler_address)
                elapsed = timed(
                    lambda options=options: grade(bench.problem, folder, store, Isolation(bench.modes()[-1]), options)
                )
        data[f"workers{workers}"] = {"submissions": count, "seconds": elapsed, "per_minute": count / elapsed * 60}
        rows.append([str(workers), str(count), f"{elapsed:.1f} s", f"{count / elapsed * 60:.0f}"])
    data["speedup"] = data["workers2"]["per_minute"] / data["workers1"]["per_minute"]
    bench.figures["cluster_grading"] = data
    bench.log(
        "\ncluster grading (local Dask cluster, 1 thread per worker):\n"
        + table(rows, ["workers", "submissions", "time", "per minute"])
        + f"\nspeed-up 1→2 workers: {data['speedup']:.2f}×"
    )


def _baseline(work: Path) -> Path | None:
    """The judge at ``BASELINE``, extracted from git into ``work``; None where there is no history (an installed
    judge)."""
    target = work / "baseline"
    archive = subprocess.run(["git", "-C", str(REPO), "archive", "--format=tar", BASELINE], capture_output=True)
    if archive.returncode != 0:
        return None
    target.mkdir()
    subprocess.run(["tar", "-x", "-C", str(target)], input=archive.stdout, check=True)
    return target


def _grades(out: Path) -> dict[str, tuple[str, float, tuple[float, ...]]]:
    """What must not change: each student's verdict, score and points per group."""
    students = json.loads((out / "grades.json").read_text())["students"]
    return {
        s["id"]: (s["verdict"], round(s["score"], 6), tuple(round(g["earned"], 6) for g in s["groups"]))
        for s in students
    }


def failing_class(bench: Bench) -> None:
    """Wall time of ``grade -j 2`` on a class where a third fail (WA, TLE): the grading before issue #15 and now."""
    baseline = _baseline(bench.work)
    if baseline is None:
        bench.log(f"\nfailing-class grading: skipped (no git history holding {BASELINE} here)")
        return
    folder = bench.work / "failing-class"
    folder.mkdir()
    for relative, copies in FAILING_CLASS:
        source = bench.problem.root / "submissions" / relative
        for i in range(copies):
            (folder / f"{source.stem}-{i}{source.suffix}").write_text(source.read_text() + f"\n// student {i}\n")
    mode = bench.modes()[-1]

    def contender(judge_root: Path, out: Path) -> Any:
        command = [
            sys.executable,
            str(judge_root / "run_judge.py"),
            "grade",
            str(bench.problem.root),
            str(folder),
            "--out",
            str(out),
            "-j",
            "2",
            "--rejudge",
            "--sandbox",
            mode,
        ]
        return lambda: timed(lambda: subprocess.run(command, check=True, capture_output=True, cwd=judge_root))

    outs = {"before #15": bench.work / "failing-before", "now": bench.work / "failing-now"}
    results = interleave(
        {"before #15": contender(baseline, outs["before #15"]), "now": contender(REPO, outs["now"])},
        max(1, bench.rounds // 3),
    )
    before, now = (_grades(outs[name]) for name in ("before #15", "now"))
    identical = before == now
    differing = sorted(sid for sid in before if before[sid] != now.get(sid))
    count = len(before)
    speedup = results["before #15"].median / results["now"].median
    bench.figures["failing_class"] = {
        "submissions": count,
        "sandbox": mode,
        "baseline": BASELINE,
        "class": [f"{r} x{c}" for r, c in FAILING_CLASS],
        **{name: s.to_json() for name, s in results.items()},
        "speedup": speedup,
        "identical_grades": identical,
        "differing": differing,
    }
    rows = [[name, f"{s.median:.1f} s", f"{min(s.samples):.1f}–{max(s.samples):.1f} s"] for name, s in results.items()]
    bench.log(
        f"\nfailing-class grading ({count} submissions of {bench.problem.name}, "
        f"a third WA/TLE, -j 2, sandbox {mode}):\n"
        + table(rows, ["grading", "median", "min–max"])
        + f"\nspeed-up {speedup:.2f}×; grades (verdict, score, points per group) identical: "
        f"{'yes' if identical else 'NO: ' + ', '.join(differing)}"
    )
    shutil.rmtree(baseline, ignore_errors=True)
