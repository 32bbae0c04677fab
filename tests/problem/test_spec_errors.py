"""Bad problem specs and bad command lines are refused cleanly.

Protects the user-facing side of validation: a malformed problem.yaml, an
unknown key, a value of the wrong type or out of range, a referenced file
that does not exist, an unknown language or a missing submission each end
with exit status 2 and ONE line on stderr, never a traceback. Errors in
problem.yaml name the file and, where one line is to blame, that line
(`.../problem.yaml:LINE: message`). Each broken problem is a copy of a good
fixture made in tmp_path, so the shared fixture tree stays valid.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from pathlib import Path

import pytest
from conftest import REPO_ROOT, JudgeRun, JudgeRunner, cli, copy_problem, program

SPEC_ERROR = re.compile(r"^(?P<path>\S*problem\.yaml)(?::(?P<line>\d+))?: (?P<message>\S.*)$")


@dataclass(frozen=True)
class Breakage:
    """One edit that breaks a fixture's problem.yaml, and what the error must say.

    `old` must occur once in the file and is replaced by `new`. `blamed` is
    the text within `new` whose line the error must report, or None when no
    single line is to blame (a missing key, a case that is wrong as a whole).
    `mentions` must appear in the message.
    """

    problem: str
    old: str
    new: str
    blamed: str | None
    mentions: str = ""


def _break(breakage: Breakage, root: Path) -> tuple[Path, int | None]:
    """Copy the fixture, apply the edit, and return the yaml path and the line to blame."""
    folder = copy_problem(breakage.problem, root)
    spec = folder / "problem.yaml"
    text = spec.read_text()
    assert text.count(breakage.old) == 1, f"{breakage.old!r} must occur once in {breakage.problem}"
    start = text.index(breakage.old)
    spec.write_text(text[:start] + breakage.new + text[start + len(breakage.old) :])
    if breakage.blamed is None:
        return spec, None
    blamed_at = start + breakage.new.index(breakage.blamed)
    return spec, (text[:start] + breakage.new).count("\n", 0, blamed_at) + 1


BREAKAGES = [
    pytest.param(Breakage("aplusb", "  memory: 64\n", "\tmemory: 64\n", "\tmemory"), id="yaml-tab-indent"),
    pytest.param(Breakage("aplusb", "  memory: 64\n", "  memory: 64: 65\n", "memory"), id="yaml-mapping-in-value"),
    pytest.param(
        Breakage("aplusb", "source: judge test fixtures\n", "source: x\ntimelimit: 2\n", "timelimit", "timelimit"),
        id="unknown-top-level-key",
    ),
    pytest.param(
        Breakage("aplusb", "  memory: 64\n", "  memory: 64\n  stack: 64\n", "stack", "stack"),
        id="unknown-limits-key",
    ),
    pytest.param(
        Breakage("aplusb", "    points: 40\n", "    points: 40\n    bonus: 5\n", "bonus", "bonus"),
        id="unknown-group-key",
    ),
    pytest.param(
        Breakage(
            "aplusb",
            "        file: data/big1.in\n",
            "        file: data/big1.in\n        weight: 2\n",
            "weight",
            "weight",
        ),
        id="unknown-case-key",
    ),
    pytest.param(Breakage("aplusb", "title: A plus B\n", "title: [A, plus, B]\n", "title"), id="title-not-string"),
    pytest.param(Breakage("aplusb", "  time: 0.5\n", "  time: fast\n", "time"), id="time-not-number"),
    pytest.param(Breakage("aplusb", "  time: 0.5\n", "  time: 0\n", "time"), id="time-zero"),
    pytest.param(Breakage("aplusb", "  memory: 64\n", "  memory: lots\n", "memory"), id="memory-not-integer"),
    pytest.param(Breakage("aplusb", "    points: 40\n", "    points: forty\n", "points"), id="points-not-number"),
    pytest.param(Breakage("aplusb", "    points: 40\n", "    points: -40\n", "points"), id="points-negative"),
    pytest.param(
        Breakage("aplusb", "solutions:\n  - solution.py\n", "solutions: solution.py\n", "solutions"),
        id="solutions-not-list",
    ),
    pytest.param(Breakage("aplusb", "  type: lines\n", "  type: fuzzy\n", "type", "fuzzy"), id="checker-type-unknown"),
    pytest.param(
        Breakage("words_ci", "  case_sensitive: false\n", "  case_sensitive: maybe\n", "case_sensitive"),
        id="case-sensitive-not-bool",
    ),
    pytest.param(Breakage("float_div", "  abs_tol: 1.0e-6\n", "  abs_tol: tiny\n", "abs_tol"), id="abs-tol-not-number"),
    pytest.param(Breakage("aplusb", "  - name: small\n", "  - name: Small Group\n", "name"), id="group-name-pattern"),
    pytest.param(
        Breakage("aplusb", "      - name: big2\n", "      - name: big1\n", "name", "big1"),
        id="case-name-duplicate",
    ),
    pytest.param(
        Breakage(
            "aplusb",
            "    cases:\n      - name: sample\n        file: data/sample.in\n"
            "      - name: mixed_signs\n        file: data/mixed_signs.in\n",
            "    cases: []\n",
            "cases",
        ),
        id="cases-empty",
    ),
    pytest.param(
        Breakage(
            "aplusb",
            "        file: data/sample.in\n",
            "        file: data/sample.in\n        generate: --seed 1\n",
            None,
        ),
        id="case-with-file-and-generate",
    ),
    pytest.param(
        Breakage("aplusb", "      - name: sample\n        file: data/sample.in\n", "      - name: sample\n", None),
        id="case-with-neither-file-nor-generate",
    ),
    pytest.param(Breakage("aplusb", "title: A plus B\n", "", None, "title"), id="title-missing"),
    pytest.param(
        Breakage("aplusb", "        file: data/big2.in\n", "        file: data/nowhere.in\n", "file", "nowhere.in"),
        id="case-file-missing",
    ),
    pytest.param(
        Breakage("aplusb", "  - solution.py\n", "  - nowhere.py\n", "nowhere", "nowhere.py"),
        id="solution-file-missing",
    ),
    pytest.param(
        Breakage("aplusb", "source: judge test fixtures\n", "statement: nowhere.md\n", "statement", "nowhere.md"),
        id="statement-file-missing",
    ),
    pytest.param(
        Breakage("divisors", "  program: checker.cpp\n", "  program: nowhere.cpp\n", "program", "nowhere.cpp"),
        id="checker-program-missing",
    ),
]


@pytest.mark.parametrize("breakage", BREAKAGES)
def test_broken_spec_is_reported_on_one_line(judge: JudgeRunner, tmp_path: Path, breakage: Breakage) -> None:
    """The error names problem.yaml (and the guilty line), exits 2 and prints no traceback."""
    spec, line = _break(breakage, tmp_path)

    run = judge(spec.parent, program("ac.py"))

    assert run.returncode == 2, run.describe()
    match = SPEC_ERROR.match(run.error_line())
    assert match, f"not `PATH/problem.yaml[:LINE]: message`\n{run.describe()}"
    assert (REPO_ROOT / match["path"]).resolve() == spec.resolve(), run.describe()
    if line is not None:
        assert match["line"] is not None and int(match["line"]) == line, run.describe()
    assert breakage.mentions in match["message"], run.describe()


def _assert_usage_error(run: JudgeRun, mentions: str) -> None:
    """Exit 2 with one line on stderr that names the offending thing."""
    assert run.returncode == 2, run.describe()
    assert mentions in run.error_line(), run.describe()


def test_unknown_language_is_refused(judge: JudgeRunner) -> None:
    """--lang accepts only the supported languages."""
    run = judge("aplusb", program("ac.py"), "--lang", "cobol")
    _assert_usage_error(run, "cobol")


def test_missing_submission_is_refused(judge: JudgeRunner, tmp_path: Path) -> None:
    """A submission path that does not exist is a usage error, not a CE or a crash."""
    run = judge("aplusb", tmp_path / "nowhere.cpp")
    _assert_usage_error(run, "nowhere.cpp")


@pytest.mark.parametrize("kind", ["device", "fifo"])
def test_a_submission_that_is_no_regular_file_is_refused_without_reading_it(
    judge: JudgeRunner, tmp_path: Path, kind: str
) -> None:
    """/dev/zero would never end and a pipe nobody writes would block for ever: both are refused in one line."""
    if kind == "device":
        path = Path("/dev/zero")
    else:
        path = tmp_path / "answer.py"
        os.mkfifo(path)
    run = judge("aplusb", path)
    _assert_usage_error(run, f"{path}: not a regular file (a device, pipe or socket)")


def test_missing_problem_is_refused(judge: JudgeRunner, tmp_path: Path) -> None:
    """A problem folder that does not exist is a usage error."""
    run = judge(tmp_path / "problems" / "ghost", program("ac.py"))
    _assert_usage_error(run, "ghost")


def test_unrecognised_source_is_refused(judge: JudgeRunner, tmp_path: Path) -> None:
    """A file that is neither a known source type nor executable has no language to run it with."""
    source = tmp_path / "adder.cob"
    source.write_text("DISPLAY 3.\n")
    source.chmod(0o644)

    run = judge("aplusb", source)

    _assert_usage_error(run, "adder.cob")


def test_a_language_that_is_not_installed_names_its_package(judge: JudgeRunner, tmp_path: Path) -> None:
    """A known language whose toolchain is missing here is one line naming the Debian package, never "no such file"."""
    source = tmp_path / "adder.py"
    source.write_text("#!/usr/bin/env python2\nprint 3\n")

    run = judge("aplusb", source)

    assert run.returncode == 3, run.describe()
    assert run.stderr.strip().splitlines() == [
        "error: language 'python2' needs 'python2', which is not installed here; "
        "install the Debian package python2 (Debian 11 and older)"
    ], run.describe()


def test_missing_arguments_are_a_usage_error(judge: JudgeRunner) -> None:
    """`judge` with a problem but neither a submission nor --cmd cannot run anything."""
    run = judge("aplusb")

    assert run.returncode == 2, run.describe()
    assert "Traceback" not in run.stderr, run.describe()


@pytest.mark.parametrize(
    ("where", "says"),
    [
        pytest.param("file", "not a folder (give --out a folder for the results)", id="a-file"),
        pytest.param(
            "/proc/no-such-process/results",
            "cannot make the results folder (No such file or directory)",
            id="cannot-be-made",
        ),
    ],
)
def test_a_results_folder_that_cannot_be_one_is_a_usage_error(tmp_path: Path, where: str, says: str) -> None:
    """``grade --out`` naming a file, or a place no folder can be made, is one line and exit 2, before any judging."""
    students = tmp_path / "class"
    students.mkdir()
    (students / "ann.py").write_text("print(3)\n")
    out = tmp_path / "results.txt" if where == "file" else Path(where)
    if where == "file":
        out.write_text("notes\n")
    run = cli("grade", str(REPO_ROOT / "tests" / "fixtures" / "problems" / "aplusb"), str(students), "--out", str(out))
    assert run.returncode == 2 and run.stderr.strip().splitlines() == [f"error: {out}: {says}"], run.stderr
    assert where != "file" or out.read_text() == "notes\n", "the file given as --out must be left as it was"


@pytest.mark.parametrize("command", ["judge", "verify", "export"])
def test_an_output_path_nothing_can_be_written_at_is_refused_before_any_work(tmp_path: Path, command: str) -> None:
    """``--json`` (or export's folder) under a place no file can be made is one line and exit 2, said before the cases
    are judged rather than after: a long judging must not end in a traceback or a lost report."""
    problem = str(REPO_ROOT / "tests" / "fixtures" / "problems" / "aplusb")
    nowhere = Path("/proc/no-such-process/out")
    argv = {
        "judge": ["judge", problem, str(program("ac.py")), "--json", str(nowhere / "r.json")],
        "verify": ["verify", problem, "--json", str(nowhere / "r.json")],
        "export": ["export", problem, str(nowhere / "pkg")],
    }[command]
    run = cli(*argv)
    assert run.returncode == 2, run.stdout + run.stderr
    assert len(run.stderr.strip().splitlines()) == 1 and "No such file or directory" in run.stderr, run.stderr
    assert "AC" not in run.stdout and "submissions as expected" not in run.stdout, "nothing may be judged first"


def test_export_into_a_path_under_a_file_is_refused_before_anything_is_made(tmp_path: Path) -> None:
    blocker = tmp_path / "notes.txt"
    blocker.write_text("mine\n")
    run = cli("export", str(REPO_ROOT / "tests" / "fixtures" / "problems" / "aplusb"), str(blocker / "pkg"))
    assert run.returncode == 2 and run.stderr.strip().splitlines() == [
        f"error: {blocker / 'pkg'}: cannot make the folder ({blocker} is not a writable folder)"
    ], run.stderr
    assert blocker.read_text() == "mine\n" and sorted(p.name for p in tmp_path.iterdir()) == ["notes.txt"]
