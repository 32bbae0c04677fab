"""Grading a real class folder as a teacher meets it (issue #15): every entry accounted for, unzip leftovers, odd
entries, groups and feedback per student, similarity hints, roster and deadlines, --only, skipped cases.

The class is graded once (module fixture) with real programs compiled and run
by the judge; each test reads what that grading wrote.
"""

from __future__ import annotations

import csv
import json
import os
import shutil
import subprocess
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from conftest import PROGRAMS, REPO_ROOT, cli, run_cli

from judge.text import safe_text

pytestmark = pytest.mark.slow

PROBLEM = REPO_ROOT / "tests" / "fixtures" / "problems" / "aplusb"
AC = PROGRAMS / "aplusb"
RECURSION = "import sys\nsys.setrecursionlimit(500)\ndef f(n):\n    return f(n + 1)\nf(0)\n"
# alice's solution with every identifier renamed, comments and blank lines added: the same program to a fingerprint
RENAMED = """/* my own work */
#include <stdio.h>

int main(void) {
    long long first, second;   // the two numbers
    while (scanf("%lld %lld", &first, &second) == 2) {

        printf("%lld\\n", first + second);
    }
    return 0;
}
"""
ROSTER = "id,name,deadline\nalice,Alice Liddell,\nbob,Bob Dylan,2030-01-01 00:00\nzoe,Zoe Absent,\n"


def make_class(folder: Path) -> Path:
    """A class folder with what the issue's teacher found in a 33-entry export, and a results folder inside it."""
    folder.mkdir()
    shutil.copy(AC / "ac.c", folder / "alice.c")
    (folder / "mallory.c").write_text(RENAMED)
    shutil.copy(AC / "wa.py", folder / "bob.py")
    shutil.copy(AC / "tle_busy.c", folder / "carol.c")
    shutil.copy(AC / "ce_syntax.cpp", folder / "chuck.cpp")
    (folder / "rex.py").write_text(RECURSION)
    shutil.copy(
        AC / "ac.c", folder / "trent.go"
    )  # a language the registry may or may not know: judged or INVALID, never dropped
    (folder / "ursula.rb").write_text("puts gets.split.map(&:to_i).sum\n")
    (folder / "sybil.docx").write_bytes(b"PK\x03\x04 not really a document\0\0")
    (folder / "walter.zip").write_bytes(b"PK\x05\x06" + b"\0" * 18)
    subprocess.run(["gcc", "-O2", "-o", str(folder / "victor"), str(AC / "ac.c")], check=True)
    (folder / "noext").write_text("just some text\n")
    shutil.copy(AC / "ac.py", folder / "dave.py")
    shutil.copy(AC / "wa.c", folder / "dave.c")
    shutil.copy(AC / "ac.cpp", folder / "erin.cpp")
    (folder / "erin.docx").write_text("my report\n")
    os.symlink("/etc/passwd", folder / "eve.c")
    os.mkfifo(folder / "pipe.c")
    (folder / "huge.c").write_bytes(b"//" + b"x" * (2 << 20) + b"\n")
    (folder / "__MACOSX" / "ruth").mkdir(parents=True)
    (folder / "__MACOSX" / "ruth" / "._main.cpp").write_bytes(b"\0\x05\x16\x07 AppleDouble")
    (folder / "ruth").mkdir()
    shutil.copy(AC / "ac.cpp", folder / "ruth" / "main.cpp")
    (folder / "ruth" / "._main.cpp").write_bytes(b"\0\x05\x16\x07 AppleDouble")
    (folder / "ruth" / ".DS_Store").write_bytes(b"\0\0\0\1Bud1")
    (folder / "quinn").mkdir()
    (folder / "quinn" / "notes.txt").write_text("I could not finish.\n")
    (folder / ".hidden.c").write_text("int main(){}\n")
    shutil.copy(AC / "ac.py", folder / "odd\x1bname\nx.py")
    return folder


def read_csv(path: Path) -> dict[str, dict[str, str]]:
    with path.open(newline="") as f:
        return {row["id"]: row for row in csv.DictReader(f)}


@pytest.fixture(scope="module")
def graded(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path, subprocess.CompletedProcess[str]]:
    root = tmp_path_factory.mktemp("class")
    submissions = make_class(root / "export")
    out = submissions / "results"  # the results folder inside the class folder: never a student
    roster = root / "roster.csv"
    roster.write_text(ROSTER)
    os.utime(submissions / "bob.py", (2_000_000_000, 2_000_000_000))  # 2033: after bob's own deadline
    run = run_cli(
        "grade",
        str(PROBLEM),
        str(submissions),
        "--out",
        str(out),
        "-j",
        "2",
        "--roster",
        str(roster),
        "--deadline",
        "2030-06-01 12:00",
    )
    assert run.returncode == 0, run.stdout + run.stderr
    return submissions, out, run


def test_every_entry_is_a_student_or_ignored_with_a_reason(
    graded: tuple[Path, Path, subprocess.CompletedProcess[str]],
) -> None:
    _, out, run = graded
    rows = read_csv(out / "grades.csv")
    data = json.loads((out / "grades.json").read_text())
    ignored = {i["entry"]: i["why"] for i in data["ignored"]}
    expected_students = {
        "alice",
        "mallory",
        "bob",
        "carol",
        "chuck",
        "rex",
        "trent",
        "ursula",
        "sybil",
        "walter",
        "victor",
        "noext",
        "dave",
        "erin",
        "eve",
        "pipe",
        "huge",
        "ruth",
        "quinn",
        "odd\\x1bname\\x0ax",
        "zoe",
    }
    assert set(rows) == expected_students
    assert set(ignored) == {"__MACOSX", "results", ".hidden.c", "erin.docx"}
    assert (
        "leftover" in ignored["__MACOSX"]
        and "results folder" in ignored["results"]
        and "erin.cpp" in ignored["erin.docx"]
    )
    invalid = {sid: row["error"] for sid, row in rows.items() if row["verdict"] == "INVALID"}
    assert "'.docx' is not a supported language" in invalid["sybil"]
    assert (
        "archive" in invalid["walter"]
        and "compiled program" in invalid["victor"]
        and "no extension" in invalid["noext"]
    )
    assert "dave.c" in invalid["dave"] and "dave.py" in invalid["dave"]
    assert "symbolic link" in invalid["eve"] and "named pipe" in invalid["pipe"] and "MiB" in invalid["huge"]
    assert "notes.txt" in invalid["quinn"]
    for sid in ("trent", "ursula"):  # judged if the registry knows the language, else INVALID saying it does not
        assert rows[sid]["verdict"] != "INVALID" or "not a supported language" in rows[sid]["error"]
    assert (
        rows["ruth"]["verdict"] == "AC"
        and rows["erin"]["verdict"] == "AC"
        and rows["odd\\x1bname\\x0ax"]["verdict"] == "AC"
    )
    assert rows["zoe"]["verdict"] == "MISSING"
    assert f"{len(expected_students)} students" in run.stdout and "4 entries ignored" in run.stdout


def test_a_line_per_finished_submission_when_stderr_is_not_a_terminal(
    graded: tuple[Path, Path, subprocess.CompletedProcess[str]],
) -> None:
    _, out, run = graded
    lines = [line for line in run.stderr.splitlines() if line.startswith("graded ")]
    assert len(lines) == len(read_csv(out / "grades.csv"))
    assert any(line.endswith("alice AC 100/100") for line in lines)
    assert "\x1b" not in run.stderr


def test_runtime_error_shows_the_error_line_and_no_judge_path(
    graded: tuple[Path, Path, subprocess.CompletedProcess[str]],
) -> None:
    _, out, _ = graded
    message = next(c for c in json.loads((out / "grades.json").read_text())["students"] if c["id"] == "rex")["cases"][
        0
    ]["message"]
    assert message.startswith("exit code 1 | stderr: RecursionError: maximum recursion depth exceeded"), message
    assert ".cache" not in message and "tilejudge" not in message and 'File "rex.py"' in message


def test_groups_in_every_report_and_skipped_cases(graded: tuple[Path, Path, subprocess.CompletedProcess[str]]) -> None:
    _, out, _ = graded
    rows = read_csv(out / "grades.csv")
    # grades.json holds ids as the file system spells them, grades.csv with control characters escaped
    students = {safe_text(s["id"], one_line=True): s for s in json.loads((out / "grades.json").read_text())["students"]}
    assert rows["carol"]["group:small"] == "0.0" and rows["alice"]["group:large"] == "60.0"
    carol = [c["verdict"] for c in students["carol"]["cases"]]
    assert carol == ["TLE", "SKIPPED", "TLE", "SKIPPED"] and rows["carol"]["cases_skipped"] == "2"
    for sid, row in rows.items():
        earned = {g["name"]: g["earned"] for g in students[sid]["groups"]}
        assert {k[6:]: float(v) for k, v in row.items() if k.startswith("group:")} == earned, sid
        assert abs(sum(earned.values()) - float(row["score"])) < 1e-6, sid
    suite = next(s for s in ET.parse(out / "junit.xml").getroot() if s.get("name") == "carol")
    properties = {p.get("name"): p.get("value") for p in suite.find("properties") or []}
    assert properties["group:small"] == "0/40" and properties["group:large"] == "0/60"
    assert suite.get("skipped") == "2" and {tc.get("classname") for tc in suite.iter("testcase")} == {
        "carol.small",
        "carol.large",
    }
    # a compile error runs no case, but the problem still has four: every row counts the same cases
    assert rows["chuck"]["verdict"] == "CE" and rows["chuck"]["cases_total"] == rows["alice"]["cases_total"] == "4"
    assert rows["chuck"]["cases_passed"] == "0"


def test_feedback_file_per_student(graded: tuple[Path, Path, subprocess.CompletedProcess[str]]) -> None:
    _, out, _ = graded
    feedback = out / "feedback"
    assert len(list(feedback.glob("*.md"))) == len(read_csv(out / "grades.csv"))
    bob = (feedback / "bob.md").read_text()
    assert (
        "Bob Dylan" in bob
        and "**Verdict: WA**" in bob
        and "expected '7', got nothing" in bob
        and "| ` small ` | 0 / 40 |" in bob
    )
    chuck = (feedback / "chuck.md").read_text()
    assert "## Compiler output" in chuck and "error" in chuck
    odd = [p.name for p in feedback.glob("odd*.md")]
    assert len(odd) == 1 and "\x1b" not in odd[0] and "\n" not in odd[0]


def test_similarity_hints_pair_the_renamed_copy(graded: tuple[Path, Path, subprocess.CompletedProcess[str]]) -> None:
    _, out, _ = graded
    similarity = json.loads((out / "grades.json").read_text())["similarity"]
    assert similarity["tool"].startswith("tilejudge winnowing") and not similarity["error"]
    pairs = {(p["a"], p["b"]): p for p in similarity["pairs"]}
    renamed = pairs[("alice", "mallory")]
    assert renamed["score"] >= 0.8 and not renamed["identical"] and renamed["regions"][0] and renamed["regions"][1]
    assert not any("bob" in key or "carol" in key for key in pairs)  # different programs are not paired
    assert (
        "mallory 1.00" in read_csv(out / "grades.csv")["alice"]["similar_to"]
        or "mallory" in read_csv(out / "grades.csv")["alice"]["similar_to"]
    )
    assert "id='similarity'" in (out / "report.html").read_text()


def test_roster_names_and_late_flags(graded: tuple[Path, Path, subprocess.CompletedProcess[str]]) -> None:
    _, out, run = graded
    rows = read_csv(out / "grades.csv")
    assert rows["alice"]["name"] == "Alice Liddell" and rows["alice"]["late_minutes"] == ""
    assert (
        float(rows["bob"]["late_minutes"]) > 60 * 24 * 365
    )  # bob's own deadline (2030-01-01) is before his file's time (2033)
    assert rows["zoe"]["verdict"] == "MISSING" and "roster" in rows["zoe"]["error"]
    assert "late: 1 (bob late" in run.stdout


def test_only_regrades_the_named_students_and_skipping_keeps_the_score(
    graded: tuple[Path, Path, subprocess.CompletedProcess[str]],
) -> None:
    submissions, out, _ = graded
    before = read_csv(out / "grades.csv")
    again = cli("grade", str(PROBLEM), str(submissions), "--out", str(out), "--only", "carol", "--all-cases")
    assert again.returncode == 0, again.stderr
    assert "judged 1," in again.stdout
    after = read_csv(out / "grades.csv")
    assert after["carol"]["cases_skipped"] == "0" and after["carol"]["cases_total"] == "4"
    stable = ["verdict", "score", "group:small", "group:large", "first_failing_case"]
    assert {k: [v[f] for f in stable] for k, v in after.items()} == {
        k: [v[f] for f in stable] for k, v in before.items()
    }
    unknown = cli("grade", str(PROBLEM), str(submissions), "--out", str(out), "--only", "nobody")
    assert unknown.returncode == 2 and "nobody" in unknown.stderr and "Traceback" not in unknown.stderr


def test_results_folder_of_another_problem_is_refused(
    graded: tuple[Path, Path, subprocess.CompletedProcess[str]],
) -> None:
    submissions, out, _ = graded
    before = (out / "grades.csv").read_bytes()
    other = cli(
        "grade", str(REPO_ROOT / "tests" / "fixtures" / "problems" / "greeting"), str(submissions), "--out", str(out)
    )
    assert other.returncode == 2
    assert other.stderr.strip().count("\n") == 0 and "holds the grades of aplusb" in other.stderr
    assert (out / "grades.csv").read_bytes() == before


def test_html_report_renders_groups_and_similarity_in_chromium(
    graded: tuple[Path, Path, subprocess.CompletedProcess[str]], tmp_path: Path
) -> None:
    from conftest import missing

    _, out, _ = graded
    browser = shutil.which("chromium") or shutil.which("chromium-browser")
    if browser is None:
        pytest.skip(missing("chromium") or "")
    flags = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", f"--user-data-dir={tmp_path / 'profile'}"]
    dom = subprocess.run(
        [browser, *flags, "--dump-dom", (out / "report.html").as_uri()], capture_output=True, text=True, timeout=120
    ).stdout
    assert 'id="similarity"' in dom and 'class="gh"' in dom and "small (40)" in dom
    assert "students shown" in dom  # the page's script ran: the filter counted the rows
    # carol lost each group at its first case and the other was not run: her details say so beside "passed 0/2" (a
    # test of this module regrades her with --all-cases, after which every case ran and nothing may say "not run")
    carol = dom[dom.index('<details id="s-carol">') :]
    carol = carol[: carol.index("</details>")]
    cases = next(s for s in json.loads((out / "grades.json").read_text())["students"] if s["id"] == "carol")["cases"]
    assert carol.count("the program printed:") == 1  # on the sample, the one case whose output the judge keeps
    unrun = sum(1 for c in cases if c["verdict"] == "SKIPPED")
    if unrun:
        assert carol.count("0/2, 1 not run (the group was already lost)") == unrun == 2, carol
    else:
        assert "not run" not in carol, carol


def test_rejudge_killed_half_way_leaves_every_student_a_result(tmp_path: Path) -> None:
    """--rejudge replaces each stored result only when its new one is stored: killed half-way, nobody is PENDING."""
    import signal
    import sqlite3
    import sys
    import time

    submissions = tmp_path / "class"
    submissions.mkdir()
    names = ["ac.py", "wa.py", "pe.py", "re_exception.py"] * 2
    for i, name in enumerate(names):
        shutil.copy(AC / name, submissions / f"p{i}.py")
    out = tmp_path / "results"
    assert cli("grade", str(PROBLEM), str(submissions), "--out", str(out), "-j", "2").returncode == 0
    before = read_csv(out / "grades.csv")
    started = time.time()
    command = [
        sys.executable,
        str(REPO_ROOT / "run_judge.py"),
        "grade",
        str(PROBLEM),
        str(submissions),
        "--out",
        str(out),
        "-j",
        "1",
        "--rejudge",
    ]
    grader = subprocess.Popen(
        command, cwd=REPO_ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True
    )
    fresh = 0
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and grader.poll() is None and fresh < 2:
        try:
            with sqlite3.connect(out / "results.sqlite", timeout=1) as db:
                fresh = db.execute("SELECT COUNT(*) FROM results WHERE judged_at > ?", (started,)).fetchone()[0]
        except sqlite3.Error:
            pass
        time.sleep(0.02)
    os.killpg(grader.pid, signal.SIGKILL)
    grader.wait()
    assert 1 <= fresh < len(names), "the re-grade must be killed in the middle"
    assert cli("report", str(out)).returncode == 0
    after = read_csv(out / "grades.csv")
    assert "PENDING" not in {row["verdict"] for row in after.values()}
    assert {k: v["verdict"] for k, v in after.items()} == {k: v["verdict"] for k, v in before.items()}
