"""The benchmark's scaling row (issue #30): grading generated classes of 500 to 5,000 with similarity hints, each as the
command a teacher types, with its wall time and the judge's peak memory, and the part beyond judging on its own.

Each size is ``grade -j 2 --starter`` in a fresh process on a fresh results
folder (``bench_class.py`` writes the class), so its peak memory is that
size's alone: the judge process's own peak resident set (VmHWM, written
as it exits; its children, the sandboxed submissions, are not counted).
The similarity step and the report stage are then run on their own, each
in its own process, on the same class and results: the time a class
costs beyond judging it, and their own peaks.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, Protocol

from ..grade.discovery import discover
from ..grade.roster import Roster
from ..grade.similarity import similar_pairs
from ..grade.starter import load_handout
from ..grade.store import Entry, Key, Store
from ..text import table
from .bench_class import GeneratedClass, generate_class

REPO = Path(__file__).resolve().parents[2]
SIZES = (500, 1000, 2000, 5000)
QUICK_SIZES = (500, 1000)
PEAK_FILE = "TILEJUDGE_BENCH_PEAK"
# Runs a Python program and, as it exits, writes its VmHWM: the peak of the process itself. ru_maxrss from wait4 is
# not that: Linux carries the parent's resident set at the fork into the child's figure, so a big benchmark process
# would make every small child look big.
PEAK_WRAPPER = """import atexit, os, runpy, sys
def _peak():
    with open("/proc/self/status") as status:
        kib = next(line.split()[1] for line in status if line.startswith("VmHWM:"))
    with open(os.environ["TILEJUDGE_BENCH_PEAK"], "w") as out:
        out.write(kib)
atexit.register(_peak)
sys.argv = sys.argv[1:]
runpy.run_path(sys.argv[0], run_name="__main__")
"""
SIMILARITY_ALONE = """import sys, time, hashlib
from pathlib import Path
from judge.grade.discovery import discover
from judge.grade.roster import Roster
from judge.grade.similarity import similar_pairs
from judge.grade.starter import load_handout
start = time.perf_counter()
found = discover(Path(sys.argv[1]), exclude=[], answers=False)
result = similar_pairs(found.students, handout=load_handout([Path(sys.argv[2])], Roster()))
print(time.perf_counter() - start, len(result["pairs"]) + result["more"])
"""


class Bench(Protocol):
    work: Path
    quick: bool
    figures: dict[str, Any]
    log: Callable[[str], None]

    def modes(self) -> list[str]: ...


def measured(command: list[str], peak: Path | None = None) -> tuple[float, int, str]:
    """Wall seconds, the peak resident set (KiB) the command wrote to ``peak`` (0 without one) and its standard
    output."""
    with tempfile.TemporaryFile("w+") as out, tempfile.TemporaryFile("w+") as err:
        start = time.perf_counter()
        process = subprocess.run(
            command,
            stdout=out,
            stderr=err,
            cwd=REPO,
            text=True,
            env=os.environ | ({PEAK_FILE: str(peak)} if peak else {}),
        )
        elapsed = time.perf_counter() - start
        out.seek(0)
        err.seek(0)
        if process.returncode != 0:
            raise RuntimeError(f"{' '.join(command[:4])} ... exited {process.returncode}: {err.read().strip()[-500:]}")
        return elapsed, int(peak.read_text()) if peak else 0, out.read()


def python_measured(script: Path, args: list[str], work: Path) -> tuple[float, int, str]:
    """A Python program run under ``PEAK_WRAPPER``: its own peak, not its children's nor the benchmark's."""
    return measured([sys.executable, "-c", PEAK_WRAPPER, str(script), *args], work / "peak.txt")


def _recycled_results(out: Path, judged: Path, made: GeneratedClass) -> None:
    """A results folder for a class too large to judge in this run: each student given a judged student's report (all
    are accepted on the same 3 cases, so every report has the same shape) and the class's real similarity hints."""
    with Store(judged) as store:
        meta = store.meta()
        reports = [s.report for s in store.each_current() if s.report]
    students = discover(made.folder).students
    meta["similarity"] = json.dumps(similar_pairs(students, handout=load_handout([made.starter], Roster())))
    meta["submissions"] = str(made.folder)
    with Store(out) as store:
        entries = [Entry(Key(s.id, "recycled", s.digest, "recycled"), str(s.source)) for s in students]
        store.set_current(entries, meta, {s.id: {"name": "", "late_minutes": None} for s in students})
        for number, entry in enumerate(entries):
            store.put(entry.key, reports[number % len(reports)] | {"submission": Path(entry.source).name}, "recycled")


def grading_scale(bench: Bench, sizes: tuple[int, ...] = (), judge_up_to: int | None = None) -> None:
    """Each size graded (up to ``judge_up_to`` students), then its similarity step and report stage alone. A size above
    ``judge_up_to`` is not judged: its report stage runs on the largest judged size's reports, recycled."""
    sizes = sizes or (QUICK_SIZES if bench.quick else SIZES)
    mode = bench.modes()[-1]
    rows, data = [], {}
    judged: Path | None = None
    for students in sizes:
        made = generate_class(bench.work / "scale", students)
        out = bench.work / f"scale-results-{students}"
        row: dict[str, Any] = {
            "kinds": made.kinds,
            "sandbox": mode,
            "judged": judged is None or judge_up_to is None or students <= judge_up_to,
        }
        if row["judged"]:
            grade = [
                "grade",
                str(made.problem),
                str(made.folder),
                "--out",
                str(out),
                "-j",
                "2",
                "--sandbox",
                mode,
                "--starter",
                str(made.starter),
            ]
            row["grade_seconds"], row["grade_peak_kib"], _ = python_measured(REPO / "run_judge.py", grade, bench.work)
            judged = out
            verdicts = [s["verdict"] for s in json.loads((out / "grades.json").read_text())["students"]]
            row["verdicts"] = {v: verdicts.count(v) for v in sorted(set(verdicts))}
            bench.log(
                f"scaling: {students} students graded in {row['grade_seconds']:.0f} s, "
                f"peak {row['grade_peak_kib'] / 1024:.0f} MiB, "
                + ", ".join(f"{v} {n}" for v, n in row["verdicts"].items())
            )
        else:
            _recycled_results(out, judged, made)
        script = bench.work / "similarity_alone.py"
        script.write_text(SIMILARITY_ALONE)
        row["similarity_process_seconds"], row["similarity_peak_kib"], printed = python_measured(
            script, [str(made.folder), str(made.starter)], bench.work
        )
        seconds, pairs = printed.split()
        row["similarity_seconds"], row["pairs"] = float(seconds), int(pairs)
        row["report_seconds"], row["report_peak_kib"], _ = python_measured(
            REPO / "run_judge.py", ["report", str(out)], bench.work
        )
        row["report_html_bytes"] = (out / "report.html").stat().st_size
        row["chromium_seconds"] = _page_load(out / "report.html", bench.work)
        data[str(students)] = row
        rows.append(_cells(students, row))
    bench.figures["grading_scale"] = data
    bench.log(
        "\ngrading scale (generated Python class, 3 cases, -j 2, --starter, sandbox "
        + mode
        + "):\n"
        + table(rows, HEADERS)
    )


def _page_load(page: Path, work: Path) -> dict[str, float] | None:
    """Headless Chromium loading the page and running its script (``--dump-dom``), and a blank page the same way: the
    difference is what the report costs to open. None without Chromium."""
    browser = shutil.which("chromium") or shutil.which("chromium-browser")
    if browser is None:
        return None
    blank = work / "blank.html"
    blank.write_text("<!DOCTYPE html><title>blank</title>")
    flags = [
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--no-first-run",
        f"--user-data-dir={work / 'chromium-profile'}",
        "--dump-dom",
    ]
    runs: dict[str, list[float]] = {"blank": [], "report": []}
    for _ in range(2):  # alternated, the faster of two each: a shared machine's noise is mostly added time
        for name, target in (("blank", blank), ("report", page)):
            runs[name].append(measured([browser, *flags, target.as_uri()])[0])
    return {name: min(times) for name, times in runs.items()}


def _cells(students: int | str, row: dict[str, Any]) -> list[str]:
    judged = (
        [f"{row['grade_seconds']:.0f} s", f"{row['grade_peak_kib'] / 1024:.0f} MiB"]
        if row["judged"]
        else ["not judged", "-"]
    )
    return [
        str(students),
        *judged,
        f"{row['similarity_seconds']:.1f} s",
        f"{row['similarity_peak_kib'] / 1024:.0f} MiB",
        f"{row['report_seconds']:.1f} s",
        f"{row['report_peak_kib'] / 1024:.0f} MiB",
        f"{row['report_html_bytes'] / 1e6:.1f} MB",
        _opened(row),
        str(row["pairs"]),
    ]


def _opened(row: dict[str, Any]) -> str:
    load = row.get("chromium_seconds")
    return f"{load['report']:.1f} s (blank {load['blank']:.1f} s)" if load else "-"


HEADERS = [
    "students",
    "grade (all)",
    "judge peak",
    "similarity alone",
    "its peak",
    "reports alone",
    "their peak",
    "report.html",
    "opened (Chromium)",
    "pairs",
]


def scaling_markdown(data: dict[str, Any]) -> list[str]:
    """The scaling section of docs/benchmarks.md."""
    lines = [
        "## Grading scale: 500 to 5,000 students with similarity hints",
        "",
        "`grade -j 2 --starter starter.py` on a generated class of Python submissions to a 3-case problem "
        "(about 60% distinct",
        "programs, 15% near-copies of one of them, 25% filled-in starter files; all accepted), "
        "each size in a fresh process",
        "and results folder. Peak memory is the judge process's own peak resident set "
        "(VmHWM as it exits; not its sandboxed children).",
        "The similarity step and the report stage (`report`) were then run alone on the same class: "
        "the part beyond judging.",
        "",
        "| " + " | ".join(HEADERS) + " |",
        "|" + "---|" * len(HEADERS),
    ]
    lines += ["| " + " | ".join(_cells(students, row)) + " |" for students, row in data.items()]
    return lines + [""]
