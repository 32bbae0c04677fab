"""Grading a class: results agree across every report and with judging each submission alone, survive kill -9, and
render.

The class is built from the verdict fixture programs, so every student's
expected verdict is known; one student is hostile (leaves a daemon behind),
two folders are not judgeable (no source, two sources).
"""

from __future__ import annotations

import contextlib
import csv
import json
import os
import secrets
import shutil
import signal
import sqlite3
import subprocess
import sys
import time
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from pathlib import Path

import pytest
from browser import CHROMIUM_ARGS
from conftest import as_a_foreground_job, cli, missing, processes_with, require, run_cli

pytestmark = pytest.mark.slow

REPO = Path(__file__).resolve().parents[2]
PROGRAMS = REPO / "tests" / "fixtures" / "programs" / "aplusb"
PROBLEM = REPO / "tests" / "fixtures" / "problems" / "aplusb"
MARKER = "600.731"  # the daemon's sleep: far longer than any grading, so only the judge's clean-up can end it
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
    "error",
]

HOSTILE = r"""
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <sys/wait.h>
#include <unistd.h>
/* Leaves a daemonised grandchild sleeping 600.731 s and answers correctly only once that daemon really runs:
   the close-on-exec pipe reads EOF when the exec succeeded, a byte when it failed. */
int main(void) {
    int ready[2];
    if (pipe2(ready, O_CLOEXEC) != 0) return 1;
    pid_t child = fork();
    if (child == 0) {
        setsid();
        if (fork() == 0) {
            execl("/bin/sleep", "sleep", "600.731", (char *)0);
            (void)write(ready[1], "x", 1);
            _exit(1);
        }
        _exit(0);
    }
    close(ready[1]);
    waitpid(child, NULL, 0);
    char failed;
    int daemon_runs = read(ready[0], &failed, 1) == 0;
    long long a, b;
    while (scanf("%lld %lld", &a, &b) == 2) printf("%lld\n", daemon_runs ? a + b : a + b + 1);
    return 0;
}
"""

# student id -> (fixture program or None for a special case, expected verdict)
CLASS = {
    "s01": ("ac.c", "AC"),
    "s02": ("ac.cpp", "AC"),
    "s03": ("ac.py", "AC"),
    "s04": ("ac.java", "AC"),
    "s05": ("wa.c", "WA"),
    "s06": ("wa.py", "WA"),
    "s07": ("wa_int32.c", "WA"),
    "s08": ("pe.py", "PE"),
    "s09": ("tle_busy.c", "TLE"),
    "s10": ("mle_bad_alloc.cpp", "MLE"),
    "s11": ("ole.c", "OLE"),
    "s12": ("re_segv.c", "RE"),
    "s13": ("re_exit3.c", "RE"),
    "s14": ("re_exception.py", "RE"),
    "s15": ("ce_syntax.cpp", "CE"),
    "s16": (None, "AC"),
    "s17": ("ac.c", "AC"),
    "s18": (None, "INVALID"),
    "s19": (None, "INVALID"),
    "s20": ("pe.c", "PE"),
}


def make_class(folder: Path) -> Path:
    """One file per student, except folders for s02 (one source), s17 (source + notes), s18 (two sources), s19
    (none)."""
    folder.mkdir()
    for student, (name, _) in CLASS.items():
        if student == "s16":
            (folder / "s16.c").write_text(HOSTILE)
        elif student == "s18":
            (folder / "s18").mkdir()
            shutil.copy(PROGRAMS / "ac.py", folder / "s18" / "a.py")
            shutil.copy(PROGRAMS / "wa.c", folder / "s18" / "b.c")
        elif student == "s19":
            (folder / "s19").mkdir()
            (folder / "s19" / "notes.txt").write_text("I could not finish.\n")
        elif student in ("s02", "s17"):
            (folder / student).mkdir()
            shutil.copy(PROGRAMS / name, folder / student / f"main{Path(name).suffix}")
            (folder / student / "README.txt").write_text("my solution\n")
        else:
            shutil.copy(PROGRAMS / name, folder / f"{student}{Path(name).suffix}")
    return folder


def read_csv(path: Path) -> dict[str, dict[str, str]]:
    with path.open(newline="") as f:
        return {row["id"]: row for row in csv.DictReader(f)}


def leftovers() -> list[str]:
    return processes_with(MARKER)


@pytest.fixture(scope="module")
def graded(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path, subprocess.CompletedProcess[str]]:
    require("javac")  # the class has a Java student
    root = tmp_path_factory.mktemp("grading")
    submissions = make_class(root / "submissions")
    out = root / "results"
    run = run_cli("grade", str(PROBLEM), str(submissions), "--out", str(out), "-j", "2")
    return submissions, out, run


def test_every_student_gets_the_expected_verdict(graded: tuple[Path, Path, subprocess.CompletedProcess[str]]) -> None:
    _, out, run = graded
    assert run.returncode == 0, run.stdout + run.stderr
    rows = read_csv(out / "grades.csv")
    assert {sid: row["verdict"] for sid, row in rows.items()} == {sid: verdict for sid, (_, verdict) in CLASS.items()}
    assert rows["s07"]["score"] == "40.0" and rows["s07"]["first_failing_case"] == "large/big1"
    assert "several candidate source files" in rows["s18"]["error"]
    assert "no source file" in rows["s19"]["error"]
    assert rows["s04"]["language"] == "java" and rows["s02"]["language"] == "cpp"
    assert "20 students" in run.stdout and "judged 20" in run.stdout


def test_hostile_student_leaves_nothing_running(graded: tuple[Path, Path, subprocess.CompletedProcess[str]]) -> None:
    """s16's daemon outlives any grading by far, and s16 is AC only if the daemon really started: nothing left means
    the judge killed it."""
    _, out, _ = graded
    assert read_csv(out / "grades.csv")["s16"]["verdict"] == "AC", (
        "the daemon never started, so there was nothing to clean up"
    )
    deadline = time.monotonic() + 3
    while leftovers() and time.monotonic() < deadline:
        time.sleep(0.1)
    left = leftovers()
    for line in left:  # do not leave a 10-minute sleeper behind on a shared machine when the judge failed
        os.kill(int(line.split(":")[0]), signal.SIGKILL)
    assert left == []


def test_csv_json_and_junit_agree(graded: tuple[Path, Path, subprocess.CompletedProcess[str]]) -> None:
    _, out, _ = graded
    rows = read_csv(out / "grades.csv")
    students = {s["id"]: s for s in json.loads((out / "grades.json").read_text())["students"]}
    suites = {s.get("name"): s for s in ET.parse(out / "junit.xml").getroot()}
    assert rows.keys() == students.keys() == suites.keys()
    for sid, row in rows.items():
        detail = students[sid]
        assert detail["verdict"] == row["verdict"]
        assert float(detail["score"]) == float(row["score"])
        failed = [c for c in detail["cases"] if c["verdict"] not in ("AC", "SKIPPED")]
        skipped = [c for c in detail["cases"] if c["verdict"] == "SKIPPED"]
        assert int(row["cases_passed"]) == len(detail["cases"]) - len(failed) - len(skipped)
        suite = suites[sid]
        assert int(suite.get("failures")) == len(failed) and int(suite.get("skipped")) == len(skipped)
        if detail["cases"]:
            assert [tc.get("name") for tc in suite.iter("testcase")] == [
                f"{c['group']}/{c['name']}" for c in detail["cases"]
            ]
            assert {f.get("type") for tc in suite.iter("testcase") for f in tc.iter("failure")} == {
                c["verdict"] for c in failed
            }
        else:
            assert int(suite.get("errors")) == (0 if row["verdict"] == "AC" else 1)


def test_grades_match_judging_each_submission_alone(
    graded: tuple[Path, Path, subprocess.CompletedProcess[str]], tmp_path: Path
) -> None:
    submissions, out, _ = graded
    students = {s["id"]: s for s in json.loads((out / "grades.json").read_text())["students"]}
    for sid, detail in students.items():
        if detail["verdict"] == "INVALID":
            continue
        report = tmp_path / f"{sid}.json"
        cli("judge", str(PROBLEM), detail["source"], "--json", str(report))
        alone = json.loads(report.read_text())
        assert (alone["verdict"], alone["score"]) == (detail["verdict"], detail["score"]), sid
        assert [g["earned"] for g in alone["groups"]] == [g["earned"] for g in detail["groups"]], sid
        # a case the grading skipped (its group already lost) is the only difference from judging alone
        graded = [c["verdict"] for c in detail["cases"]]
        assert [v if g != "SKIPPED" else g for v, g in zip((c["verdict"] for c in alone["cases"]), graded)] == graded, (
            sid
        )


def test_html_report_renders_in_headless_chromium(
    graded: tuple[Path, Path, subprocess.CompletedProcess[str]], tmp_path: Path
) -> None:
    _, out, _ = graded
    browser = shutil.which("chromium") or shutil.which("chromium-browser")
    if browser is None:
        if os.environ.get("CI"):
            pytest.fail("chromium is not installed; .ci/run installs it")
        pytest.skip(missing("chromium") or "")
    flags = ["--headless", *CHROMIUM_ARGS, f"--user-data-dir={tmp_path / 'profile'}"]
    url = (out / "report.html").as_uri()
    dom = subprocess.run([browser, *flags, "--dump-dom", url], capture_output=True, text=True, timeout=120).stdout
    assert "20 students, 20 judged" in dom
    for sid in CLASS:
        assert f'id="s-{sid}"' in dom
    assert dom.count("<svg") == 1 and "<script src" not in dom and "<link" not in dom  # self-contained: nothing fetched
    assert "expected declaration" in dom or "error:" in dom  # s15's compiler message is shown
    shot = tmp_path / "report.png"
    subprocess.run(
        [browser, *flags, f"--screenshot={shot}", "--window-size=1200,1600", url], capture_output=True, timeout=120
    )
    assert shot.stat().st_size > 10_000


def test_rerun_judges_only_what_changed(tmp_path: Path) -> None:
    submissions = tmp_path / "submissions"
    submissions.mkdir()
    for sid, name in (("a", "ac.py"), ("b", "wa.py"), ("c", "ac.c")):
        shutil.copy(PROGRAMS / name, submissions / f"{sid}{Path(name).suffix}")
    problem = tmp_path / "problems" / "aplusb"
    shutil.copytree(PROBLEM, problem)
    out = tmp_path / "results"
    assert "judged 3, reused 0" in cli("grade", str(problem), str(submissions), "--out", str(out)).stdout
    assert "judged 0, reused 3" in cli("grade", str(problem), str(submissions), "--out", str(out)).stdout
    assert _sample_output(out, "b") == {"text": "3\n", "size": 2, "cut": False}  # kept in the store, read back
    (submissions / "b.py").write_text((PROGRAMS / "ac.py").read_text())
    second = cli("grade", str(problem), str(submissions), "--out", str(out))
    assert "judged 1, reused 2" in second.stdout
    assert read_csv(out / "grades.csv")["b"]["verdict"] == "AC"
    assert "judged 3, reused 0" in cli("grade", str(problem), str(submissions), "--out", str(out), "--rejudge").stdout
    spec = problem / "problem.yaml"
    spec.write_text(spec.read_text().replace("memory: 64", "memory: 96"))
    assert "judged 3, reused 0" in cli("grade", str(problem), str(submissions), "--out", str(out)).stdout
    with sqlite3.connect(out / "results.sqlite") as db:
        duplicates = db.execute(
            "SELECT COUNT(*) FROM (SELECT student, problem_hash, submission_hash, settings_hash, COUNT(*) n "
            "FROM results GROUP BY 1, 2, 3, 4 HAVING n > 1)"
        ).fetchone()[0]
    assert duplicates == 0
    (out / "grades.json").unlink()
    assert cli("report", str(out)).returncode == 0
    assert _sample_output(out, "b") == {"text": "3\n7\n", "size": 4, "cut": False}  # written again from the store


def _sample_output(out: Path, sid: str) -> dict[str, object] | None:
    """What a student's program printed on aplusb's sample case, as grades.json holds it."""
    student = next(s for s in json.loads((out / "grades.json").read_text())["students"] if s["id"] == sid)
    return next(c for c in student["cases"] if c["name"] == "sample")["output"]


def test_kill_9_mid_run_loses_nothing_and_duplicates_nothing(tmp_path: Path) -> None:
    submissions = tmp_path / "submissions"
    submissions.mkdir()
    names = ["ac.py", "wa.py", "pe.py", "re_exception.py"] * 3
    for i, name in enumerate(names):
        shutil.copy(PROGRAMS / name, submissions / f"p{i:02d}.py")
    killed_out, clean_out = tmp_path / "killed", tmp_path / "clean"
    command = [
        sys.executable,
        str(REPO / "run_judge.py"),
        "grade",
        str(PROBLEM),
        str(submissions),
        "--out",
        str(killed_out),
        "-j",
        "1",
    ]
    grader = subprocess.Popen(
        command, cwd=REPO, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True
    )
    stored = 0
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and grader.poll() is None:
        try:
            with sqlite3.connect(killed_out / "results.sqlite", timeout=1) as db:
                stored = db.execute("SELECT COUNT(*) FROM results").fetchone()[0]
        except sqlite3.Error:
            stored = 0
        if stored >= 3:
            break
        time.sleep(0.02)
    os.killpg(grader.pid, signal.SIGKILL)
    grader.wait()
    assert 3 <= stored < len(names), "the grader must be killed in the middle of the run"
    resumed = run_cli("grade", str(PROBLEM), str(submissions), "--out", str(killed_out), "-j", "1")
    assert resumed.returncode == 0, resumed.stderr
    reused = int(resumed.stdout.split("reused ")[1].split()[0])
    assert reused >= stored
    assert run_cli("grade", str(PROBLEM), str(submissions), "--out", str(clean_out), "-j", "2").returncode == 0
    with sqlite3.connect(killed_out / "results.sqlite") as db:
        rows = db.execute("SELECT student, COUNT(*) FROM results GROUP BY student").fetchall()
    assert sorted(rows) == [(f"p{i:02d}", 1) for i in range(len(names))]
    killed, clean = read_csv(killed_out / "grades.csv"), read_csv(clean_out / "grades.csv")
    assert {k: [v[f] for f in STABLE] for k, v in killed.items()} == {
        k: [v[f] for f in STABLE] for k, v in clean.items()
    }


@contextlib.contextmanager
def _grader_blocked_on_its_second_student(
    tmp_path: Path,
) -> Iterator[tuple[subprocess.Popen[str], Path, list[str], str]]:
    """A grade of three students whose first is judged (AC) and stored and whose second is blocked in a run lasting far
    longer than any test waits; yields the grader (its own session), the results folder and its command. The grader
    and its runs are killed on the way out if the test has not ended them. The blocked run is ``sleep MARKER``, the
    marker (yielded last) this grading's own: two tests using this at once, in two xdist workers, must not take each
    other's run for their own."""
    marker = f"600.{secrets.randbelow(10**6):06d}"
    problem = tmp_path / "problems" / "aplusb"
    shutil.copytree(PROBLEM, problem)
    spec = problem / "problem.yaml"
    spec.write_text(spec.read_text().replace("  time: 0.5\n", "  time: 20\n"))  # a blocked run lasts 40 s per case
    submissions = tmp_path / "submissions"
    submissions.mkdir()
    shutil.copy(PROGRAMS / "ac.py", submissions / "a00.py")
    for student in ("s01", "s02"):
        (submissions / f"{student}.py").write_text(f"import os\nos.execv('/bin/sleep', ['sleep', '{marker}'])\n")
    out = tmp_path / "results"
    command = [sys.executable, str(REPO / "run_judge.py"), "grade", str(problem), str(submissions), "--out", str(out)]
    command += ["-j", "1"]
    grader = subprocess.Popen(
        command,
        cwd=REPO,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
        preexec_fn=as_a_foreground_job,
    )
    try:
        assert grader.stderr is not None
        for line in grader.stderr:  # one line per finished submission when stderr is not a terminal
            if line.startswith("graded 1/3"):
                break
        deadline = time.monotonic() + 60
        while not processes_with(marker) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert processes_with(marker), "the second student's run never started"
        yield grader, out, command, marker
    finally:
        if grader.poll() is None:
            os.killpg(grader.pid, signal.SIGKILL)
            grader.wait()


def test_ctrl_c_kills_the_runs_in_flight_keeps_what_is_stored_and_writes_reports(tmp_path: Path) -> None:
    """A Ctrl-C (SIGINT to the grader's process group, as a terminal sends it) stops grading at once: the student in
    flight, blocked for far longer than the test waits, is not finished; the finished one is kept and reported."""
    with _grader_blocked_on_its_second_student(tmp_path) as (grader, out, _, marker):
        os.killpg(grader.pid, signal.SIGINT)
        stdout, stderr = grader.communicate(timeout=30)  # finishing the student in flight would take 160 s
    assert grader.returncode == 130, stderr
    assert "interrupted: 1 of 3 submission(s) judged" in stderr and "run the same command again" in stderr
    assert "Traceback" not in stderr
    assert not processes_with(marker), "a run in flight outlived the interrupted grader"
    grades = read_csv(out / "grades.csv")
    assert grades["a00"]["verdict"] == "AC"
    assert {grades[s]["verdict"] for s in ("s01", "s02")} == {"PENDING"}
    with sqlite3.connect(out / "results.sqlite") as db:
        assert db.execute("SELECT student FROM results").fetchall() == [("a00",)]
    assert "grades.csv" in stdout


def test_a_second_grade_into_a_folder_being_graded_is_refused(tmp_path: Path) -> None:
    """The same grade started again while the first runs (a cron job overlapping itself, a second terminal) would judge
    every student again beside it and race it for the reports: it is refused at once, in one line, and touches
    nothing; ``report`` only reads the store and works meanwhile."""
    with _grader_blocked_on_its_second_student(tmp_path) as (grader, out, command, _):
        files = sorted(p.name for p in out.iterdir())
        second = run_cli(*command[2:], timeout=60)
        assert second.returncode == 2, second.stderr
        assert second.stderr.strip() == (
            f"error: {out}: another grade is writing its results here; "
            "wait for it to end, or grade into another --out folder"
        )
        assert sorted(p.name for p in out.iterdir()) == files
        assert grader.poll() is None, "the first grade must still be running"
        peek = run_cli("report", str(out), timeout=60)
        assert peek.returncode == 0, peek.stderr
        assert read_csv(out / "grades.csv")["a00"]["verdict"] == "AC"
