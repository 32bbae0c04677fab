"""Kattis packages as problem setters write them elsewhere (issue 29): verify goes through everything and says all it
found.

Each package here is written for its test, small but with the habits of
real ones: a failing accepted submission, BAPCtools' ``*.disabled`` files
and notes beside the programs, a folder submission that links a shared
solution, ``submissions.yaml`` globs with spaces inside braces.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from pathlib import Path

import pytest
from conftest import cli, copy_problem, needs, run_cli, write_files

from judge.lang.classfile import Malformed, main_class, parse

ECHO = "print(input())\n"


@pytest.fixture
def echo(tmp_path: Path) -> Path:
    """A copy of its own of ``echo_package``, for a test that changes it."""
    return echo_package(tmp_path)


def echo_package(tmp_path: Path) -> Path:
    """Legacy, no time limit; one accepted submission is wrong and one wrong_answer submission is right."""
    root = write_files(
        tmp_path / "echo",
        {
            "problem.yaml": "name: Echo\n",
            "data/sample/1.in": "1\n",
            "data/sample/1.ans": "1\n",
            "data/secret/1.in": "2\n",
            "data/secret/1.ans": "2\n",
            "data/secret/2.in": "3\n",
            "data/secret/2.ans": "3\n",
            "input_validators/digits.py": "import sys\nsys.exit(42 if sys.stdin.read().strip().isdigit() else 43)\n",
            "submissions/accepted/echo.py": ECHO,
            "submissions/accepted/off.py": "print(int(input()) + 1)\n",
            "submissions/accepted/notes.txt": "why these submissions exist\n",
            "submissions/accepted/echo.scala.disabled": "object Echo\n",
            "submissions/wrong_answer/right.py": ECHO,
            "submissions/shared/echo.py": ECHO,
            "submissions/mixed/three.py": "n = input()\nprint(0 if n == '3' else n)\n",
            "submissions/submissions.yaml": (
                'mixed/three.py:\n  "secret/{ 1 }":\n    required: [AC]\n  "secret/{ 2 , 9 }":\n    required: [WA]\n'
            ),
        },
    )
    (root / "submissions/accepted/linked").mkdir()
    (root / "submissions/accepted/linked/echo.py").symlink_to("../../shared/echo.py")
    outside = write_files(tmp_path / "elsewhere", {"echo.py": ECHO}) / "echo.py"
    (root / "submissions/accepted/escape").mkdir()
    (root / "submissions/accepted/escape/echo.py").symlink_to(outside)
    return root


def verified(root: Path, tmp_path: Path) -> tuple[int, dict, str]:
    out = tmp_path / "verify.json"
    run = cli("verify", str(root), "-j", "1", "--json", str(out))
    assert "Traceback" not in run.stderr, run.stderr
    return run.returncode, json.loads(out.read_text()), run.stdout


@dataclass(frozen=True)
class Verified:
    root: Path
    code: int
    report: dict
    stdout: str


@pytest.fixture(scope="module")
def echo_verified(tmp_path_factory: pytest.TempPathFactory) -> Verified:
    """``verify`` of an untouched echo package, run once for the module: the tests that only read what it found
    share it."""
    tmp_path = tmp_path_factory.mktemp("echo")
    root = echo_package(tmp_path)
    return Verified(root, *verified(root, tmp_path))


def test_verify_reports_every_finding_instead_of_stopping_at_the_first(echo_verified: Verified) -> None:
    code, report, stdout = echo_verified.code, echo_verified.report, echo_verified.stdout
    assert code == 1 and report["ok"] is False
    outcomes = {s["name"]: (s["verdict"], s["ok"]) for s in report["submissions"]}
    assert outcomes["accepted/echo.py"] == ("AC", True)
    assert outcomes["accepted/off.py"] == ("WA", False)  # judged at the limit the others gave, and failing
    assert outcomes["wrong_answer/right.py"] == ("AC", False)
    errors = [(f["kind"], f["message"]) for f in report["findings"] if f["severity"] == "error"]
    assert ("time_limit", "accepted/off.py: gets WA while inferring the time limit: not used for it") in errors
    assert ("submission", "wrong_answer/right.py: required WA, got only AC") in errors
    assert report["time_limit"] == 1.0 and report["inputs"] == {"cases": 3, "invalid": 0, "validated": True}
    assert not (
        echo_verified.root / "tilejudge.yaml"
    ).exists()  # a limit some accepted submissions failed is not kept for judge
    assert "NOT verified: 3/6 submissions as expected" in stdout
    assert "time limit: accepted/off.py: gets WA" in stdout.split("finding(s):")[1]  # the summary repeats it at the end


def test_no_accepted_submission_passing_is_a_finding_and_the_rest_is_still_judged(tmp_path: Path) -> None:
    root = write_files(
        tmp_path / "none",
        {
            "problem.yaml": "name: None\n",
            "data/secret/1.in": "2\n",
            "data/secret/1.ans": "2\n",
            "submissions/accepted/off.py": "print(int(input()) + 1)\n",
            "submissions/wrong_answer/off.py": "print(int(input()) + 1)\n",
        },
    )
    code, report, _ = verified(root, tmp_path)
    assert code == 1 and report["time_limit"] == 1.0
    messages = [f["message"] for f in report["findings"] if f["kind"] == "time_limit"]
    assert "no time limit given and no accepted submission could be run to infer it" in messages
    assert "the other submissions are judged at a provisional 1 s" in messages
    assert {s["name"]: s["ok"] for s in report["submissions"]} == {
        "accepted/off.py": False,
        "wrong_answer/off.py": True,
    }


def test_without_other_submissions_no_provisional_limit_is_mentioned(tmp_path: Path) -> None:
    """A package whose only submission is a failing accepted one: its findings say so, and nothing about a provisional
    limit for submissions that do not exist."""
    root = write_files(
        tmp_path / "alone",
        {
            "problem.yaml": "name: Alone\n",
            "data/secret/1.in": "2\n",
            "data/secret/1.ans": "2\n",
            "submissions/accepted/off.py": "print(int(input()) + 1)\n",
        },
    )
    code, report, _ = verified(root, tmp_path)
    messages = [f["message"] for f in report["findings"] if f["kind"] == "time_limit"]
    assert code == 1 and messages == [
        "accepted/off.py: gets WA while inferring the time limit: not used for it",
        "no time limit given and no accepted submission could be run to infer it",
    ]


def test_disabled_files_and_notes_are_skipped_and_listed(echo_verified: Verified) -> None:
    report, stdout = echo_verified.report, echo_verified.stdout
    skipped = {f["subject"]: f["message"] for f in report["findings"] if f["kind"] == "skipped"}
    assert skipped == {
        "accepted/echo.scala.disabled": "disabled (*.disabled): not judged",
        "accepted/notes.txt": "no known language for '.txt': not judged",
    }
    assert all(f["severity"] == "warning" for f in report["findings"] if f["kind"] == "skipped")
    assert "skipped: accepted/echo.scala.disabled: disabled" in stdout
    assert not any(s["name"].endswith((".disabled", ".txt")) for s in report["submissions"])


def test_a_folder_holding_only_a_link_is_judged_by_its_target_inside_the_package(echo_verified: Verified) -> None:
    by_name = {s["name"]: s for s in echo_verified.report["submissions"]}
    assert (by_name["accepted/linked"]["verdict"], by_name["accepted/linked"]["ok"]) == ("AC", True)
    escape = by_name["accepted/escape"]
    assert escape["ok"] is False and escape["failures"] == [
        "accepted/escape: a link to something outside the package: not followed"
    ]


def test_brace_choices_with_spaces_match_their_cases(echo_verified: Verified, echo: Path, tmp_path: Path) -> None:
    mixed = next(s for s in echo_verified.report["submissions"] if s["name"] == "mixed/three.py")
    assert mixed["ok"] is True, mixed  # secret/1 accepted, secret/2 wrong: both scopes matched their case
    (echo / "submissions/mixed/three.py").write_text(ECHO)
    _, report, _ = verified(echo, tmp_path)
    mixed = next(s for s in report["submissions"] if s["name"] == "mixed/three.py")
    assert mixed["failures"] == ["mixed/three.py: secret/{ 2 , 9 }: required WA, got only AC"]


def test_verify_json_to_standard_output_is_the_json_alone(echo: Path) -> None:
    run = run_cli("verify", str(echo), "-j", "1", "--json", "-")  # a process: its stdout holds the JSON alone
    report = json.loads(run.stdout)
    assert run.returncode == 1 and len(report["findings"]) >= 5
    assert "NOT verified" in run.stderr


def test_unreadable_link_target_does_not_stop_verify(echo: Path, tmp_path: Path) -> None:
    os.unlink(echo / "submissions/accepted/linked/echo.py")
    (echo / "submissions/accepted/linked/echo.py").symlink_to("../../shared/missing.py")
    _, report, _ = verified(echo, tmp_path)
    linked = next(s for s in report["submissions"] if s["name"] == "accepted/linked")
    assert linked["ok"] is False and linked["failures"] == [
        "accepted/linked: a link to nothing (its target is missing)"
    ]


INTERACTOR = """
import os
import sys
numbers = open(sys.argv[1]).read().split()
print(len(numbers))
print("\\n".join(numbers), flush=True)
os.close(1)  # everything is said: the submission must see end-of-file now, while this still waits for its answer
answer = sys.stdin.read().split()
sys.exit(42 if answer == [str(sum(map(int, numbers)))] else 43)
"""


def test_an_interactor_closing_its_output_early_passes_end_of_file_at_once(tmp_path: Path) -> None:
    """Read to end-of-file, then answer: as under Kattis and BAPCtools, the end-of-file arrives when the interactor
    closes."""
    root = write_files(
        tmp_path / "sumtoeof",
        {
            "problem.yaml": (
                "problem_format_version: 2025-09\nname: Sum to EOF\ntype: interactive\nlimits:\n  time_limit: 2\n"
            ),
            "data/sample/1.in": "1 2 3\n",
            "data/sample/1.ans": "\n",
            "data/secret/1.in": "5 6\n",
            "data/secret/1.ans": "\n",
            "output_validator/interactor.py": INTERACTOR,
            "submissions/accepted/until_eof.py": (
                "import sys\nlines = sys.stdin.read().split()\nprint(sum(map(int, lines[1:])))\n"
            ),
            "submissions/wrong_answer/off.py": (
                "import sys\nlines = sys.stdin.read().split()\nprint(sum(map(int, lines[1:])) + 1)\n"
            ),
            # the other way round the end-of-file waits for the run's end: the interactor's WA must not hide this crash
            "submissions/run_time_error/quits.py": "import os, sys, time\nos.close(1)\ntime.sleep(0.3)\nsys.exit(3)\n",
        },
    )
    code, report, _ = verified(root, tmp_path)
    assert {s["name"]: (s["verdict"], s["ok"]) for s in report["submissions"]} == {
        "accepted/until_eof.py": ("AC", True),
        "run_time_error/quits.py": ("RE", True),
        "wrong_answer/off.py": ("WA", True),
    }
    assert code == 0 and max(s["slowest"] for s in report["submissions"]) < 2


NESTED_FIRST = """import java.util.*;

public class Closest {
    static class Pt {  // declared before main: a guess from the source picks it
        final long x;
        Pt(long x) { this.x = x; }
    }

    public static void main(String[] args) {
        Scanner in = new Scanner(System.in);
        System.out.println(new Pt(in.nextLong()).x);
    }
}
"""


@needs("javac")
def test_java_main_class_is_read_from_the_compiled_classes(tmp_path: Path) -> None:
    root = write_files(
        tmp_path / "javaecho",
        {
            "problem.yaml": "name: Java echo\nlimits:\n  time_limit: 4\n",
            "data/secret/1.in": "7\n",
            "data/secret/1.ans": "7\n",
            "submissions/accepted/closest.java": NESTED_FIRST,
            "submissions/accepted/helper/Main.java": (
                "public class Main {\n  public static void main(String[] a) { Echo.run(); }\n}\n"
            ),
            "submissions/accepted/helper/Echo.java": (
                "class Echo {\n  static class Pt {}\n"
                "  static void run() { System.out.println(new java.util.Scanner(System.in).nextLine()); }\n}\n"
            ),
            # a comment naming "public class names" once saved the file under names.java, which javac refused
            "submissions/accepted/commented/first.java": (
                "/* two files: the file names must match the public class names */\n"
                "public class first {\n  public static void main(String[] a) {\n"
                '    System.out.println(new second().echo()); // "public class x"\n  }\n}\n'
            ),
            "submissions/accepted/commented/second.java": (
                "public class second {\n  String echo() { return new java.util.Scanner(System.in).nextLine(); }\n}\n"
            ),
        },
    )
    code, report, _ = verified(root, tmp_path)
    assert {s["name"]: s["verdict"] for s in report["submissions"]} == {
        "accepted/closest.java": "AC",
        "accepted/commented": "AC",
        "accepted/helper": "AC",
    }
    assert code == 0


@needs("javac")
def test_class_file_parser_finds_main_and_refuses_every_truncation(tmp_path: Path) -> None:
    import subprocess

    (tmp_path / "Closest.java").write_text(NESTED_FIRST)
    subprocess.run(["javac", "-d", str(tmp_path / "out"), str(tmp_path / "Closest.java")], check=True, timeout=120)
    parsed = {p.name: parse(p.read_bytes()) for p in (tmp_path / "out").glob("*.class")}
    assert {c.name: (c.has_main, c.source_file) for c in parsed.values()} == {
        "Closest": (True, "Closest.java"),
        "Closest$Pt": (False, "Closest.java"),
    }
    assert main_class(tmp_path / "out", "Closest.java", "Closest$Pt") == "Closest"
    data = (tmp_path / "out" / "Closest.class").read_bytes()
    for cut in range(0, len(data), 7):
        with pytest.raises(Malformed):
            parse(data[:cut])
    (tmp_path / "out" / "Closest.class").write_bytes(data[: len(data) // 2])
    assert (
        main_class(tmp_path / "out", "Closest.java", "Closest$Pt") == "Closest$Pt"
    )  # nothing to read: the guess stands


@pytest.mark.parametrize("command", ["verify", "judge"])
def test_custom_validation_without_an_output_validator_is_refused_up_front(tmp_path: Path, command: str) -> None:
    root = write_files(
        tmp_path / "novalidator",
        {
            "problem.yaml": "name: No validator\nvalidation: custom\nlimits:\n  time_limit: 1\n",
            "data/secret/1.in": "1\n",
            "data/secret/1.ans": "1\n",
            "submissions/accepted/echo.py": ECHO,
        },
    )
    args = [command, str(root)] + ([str(root / "submissions/accepted/echo.py")] if command == "judge" else [])
    run = cli(*args)
    assert run.returncode == 2 and run.stdout == ""
    assert run.stderr.strip().splitlines() == [
        f"error: {root}: 'validation: custom' needs an output validator, "
        "and there is no output_validators/ (or output_validator/) folder"
    ]


def judged(root: Path, program: Path, tmp_path: Path) -> tuple[int, dict]:
    out = tmp_path / f"{program.stem}.json"
    run = cli("judge", str(root), str(program), "--json", str(out), "-j", "1")
    assert "Traceback" not in run.stderr, run.stderr
    return run.returncode, json.loads(out.read_text()) if out.exists() else {"error": run.stderr}


FAIL_ON_7 = "n = input()\nprint(0 if n == '7' else n)\n"


@pytest.fixture
def graded(tmp_path: Path) -> Path:
    """A 2023-07-draft package scored with the legacy keys, as problemtools' examples are: every key of the default
    grader."""
    return write_files(
        tmp_path / "graded",
        {
            "problem.yaml": (
                "problem_format_version: 2023-07-draft\ntype: scoring\nname:\n  en: Graded echo\n"
                "limits:\n  time_limit: 2\n"
            ),
            "data/testdata.yaml": "on_reject: continue\nrange: 0 100\ngrader_flags: ignore_sample\n",
            "data/sample/testdata.yaml": "accept_score: 0\nrange: 0 0\ngrader_flags: first_error\n",
            "data/sample/1.in": "7\n",
            "data/sample/1.ans": "7\n",
            "data/secret/testdata.yaml": "grader_flags: first_error accept_if_any_accepted\n",
            "data/secret/g1/testdata.yaml": "on_reject: break\naccept_score: 20\nrange: 0 20\ngrader_flags: min\n",
            "data/secret/g1/1.in": "1\n",
            "data/secret/g1/1.ans": "1\n",
            "data/secret/g1/2.in": "2\n",
            "data/secret/g1/2.ans": "2\n",
            "data/secret/g2/testdata.yaml": (
                "on_reject: break\naccept_score: 10\nreject_score: 0\ngrader_flags: sum\nrange: 0 30\n"
            ),
            "data/secret/g2/1.in": "7\n",
            "data/secret/g2/1.ans": "7\n",
            "data/secret/g2/2.in": "3\n",
            "data/secret/g2/2.ans": "3\n",
            "data/secret/g2/3.in": "4\n",
            "data/secret/g2/3.ans": "4\n",
            "data/secret/g3/testdata.yaml": "accept_score: 25\ngrader_flags: sum\nrange: 0 50\n",
            "data/secret/g3/1.in": "7\n",
            "data/secret/g3/1.ans": "7\n",
            "data/secret/g3/2.in": "5\n",
            "data/secret/g3/2.ans": "5\n",
            "submissions/accepted/echo.py": ECHO,
            "submissions/partially_accepted/fail_on_7.py": FAIL_ON_7,
            "submissions/submissions.yaml": "partially_accepted/fail_on_7.py:\n  score: 45\n",
        },
    )


def test_legacy_grading_keys_in_a_2023_07_package_score_as_problemtools_does(graded: Path, tmp_path: Path) -> None:
    """g1 min of 20s = 20; g2 breaks at its first case (0, the rest never counts); g3 continues: 0 + 25. Sample
    ignored."""
    code, report = judged(graded, graded / "submissions/partially_accepted/fail_on_7.py", tmp_path)
    assert report["max_score"] == 100, report
    assert {g["name"]: g["earned"] for g in report["groups"]} == {
        "sample": 0,
        "secret/g1": 20,
        "secret/g2": 0,
        "secret/g3": 25,
    }
    assert report["score"] == 45
    code, report = judged(graded, graded / "submissions/accepted/echo.py", tmp_path)
    assert code == 0 and report["score"] == 100
    code, verified_report, _ = verified(graded, tmp_path)
    assert code == 0 and all(s["ok"] for s in verified_report["submissions"]), verified_report


@pytest.mark.parametrize(
    ("changes", "groups", "score"),
    [
        # on_reject: continue everywhere: g2 earns its two later cases
        (
            {"data/secret/g2/testdata.yaml": "on_reject: continue\naccept_score: 10\ngrader_flags: sum\n"},
            {"secret/g2": 20},
            65,
        ),
        # without ignore_sample the sample scores too (accept_score 3, inherited on_reject: continue)
        (
            {"data/testdata.yaml": "on_reject: continue\n", "data/sample/testdata.yaml": "accept_score: 3\n"},
            {"sample": 0},
            45,
        ),
        (
            {
                "data/testdata.yaml": "on_reject: continue\n",
                "data/sample/testdata.yaml": "accept_score: 3\n",
                "data/sample/1.in": "8\n",
                "data/sample/1.ans": "8\n",
            },
            {"sample": 3},
            48,
        ),
        # avg and max of one folder's cases; a reject_score counts
        (
            {"data/secret/g3/testdata.yaml": "accept_score: 25\nreject_score: 5\ngrader_flags: avg\n"},
            {"secret/g3": 15},
            35,
        ),
        ({"data/secret/g3/testdata.yaml": "accept_score: 25\ngrader_flags: max\n"}, {"secret/g3": 25}, 45),
        # problem.yaml's older grading values override every folder's
        (
            {
                "problem.yaml": (
                    "problem_format_version: 2023-07-draft\ntype: scoring\nname: G\nlimits:\n  time_limit: 2\n"
                    "grading:\n  on_reject: grade\n"
                )
            },
            {"secret/g2": 20},
            65,
        ),
    ],
)
def test_every_legacy_key_combination_scores_as_the_default_grader(
    graded: Path, tmp_path: Path, changes: dict[str, str], groups: dict[str, float], score: float
) -> None:
    write_files(graded, changes)
    code, report = judged(graded, graded / "submissions/partially_accepted/fail_on_7.py", tmp_path)
    earned = {g["name"]: g["earned"] for g in report["groups"]}
    assert {k: earned[k] for k in groups} == groups and report["score"] == score, report


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        (
            {"data/secret/testdata.yaml": "grader_flags: min\n"},
            "grader_flags min over 3 sub-results is not supported (only sum combines test data groups)",
        ),
        ({"data/secret/g1/testdata.yaml": "grader_flags: median\n"}, "grader_flags: unknown flag 'median'"),
        ({"data/secret/g1/testdata.yaml": "on_reject: stop\n"}, "on_reject: 'stop' is not break or continue"),
    ],
)
def test_a_legacy_grading_we_cannot_score_is_refused_in_one_line(
    graded: Path, changes: dict[str, str], message: str
) -> None:
    write_files(graded, changes)
    run = cli("judge", str(graded), str(graded / "submissions/accepted/echo.py"))
    assert run.returncode == 2 and message in run.stderr and len(run.stderr.strip().splitlines()) == 1, run.stderr


def test_submit_answer_folders_verify_as_judge_judges_them(tmp_path: Path) -> None:
    root = write_files(
        tmp_path / "answers",
        {
            "problem.yaml": "problem_format_version: 2025-09\nname: Answers\ntype: submit-answer\n",
            "data/sample/1.in": "2\n",
            "data/sample/1.ans": "4\n",
            "data/secret/2.in": "3\n",
            "data/secret/2.ans": "9\n",
            "data/secret/3.in": "4\n",
            "data/secret/3.ans": "16\n",
            "submissions/accepted/flat/1.ans": "4\n",
            "submissions/accepted/flat/2.ans": "9\n",
            "submissions/accepted/flat/3.ans": "16\n",
            "submissions/accepted/by_group/sample/1.ans": "4\n",
            "submissions/accepted/by_group/secret/2.ans": "9\n",
            "submissions/accepted/by_group/secret/3.ans": "16\n",
            "submissions/accepted/by_group/solve.py": "print('how the answers were made')\n",
            "submissions/wrong_answer/one_off/1.ans": "4\n",
            "submissions/wrong_answer/one_off/2.ans": "9\n",
            "submissions/wrong_answer/one_off/3.ans": "15\n",
        },
    )
    code, report, _ = verified(root, tmp_path)
    assert {s["name"]: (s["verdict"], s["ok"]) for s in report["submissions"]} == {
        "accepted/by_group": ("AC", True),
        "accepted/flat": ("AC", True),
        "wrong_answer/one_off": ("WA", True),
    }, report
    assert code == 0
    for name in ("accepted/flat", "accepted/by_group"):
        run = cli("judge", str(root), str(root / "submissions" / name))
        assert run.returncode == 0, run.stdout + run.stderr


def test_a_compile_error_says_why(tmp_path: Path) -> None:
    root = write_files(
        tmp_path / "broken",
        {
            "problem.yaml": "name: Broken\nlimits:\n  time_limit: 1\n",
            "data/secret/1.in": "1\n",
            "data/secret/1.ans": "1\n",
            "submissions/accepted/echo.py": ECHO,
            "submissions/wrong_answer/broken.c": "int main( {\n",
        },
    )
    _, report, _ = verified(root, tmp_path)
    broken = next(s for s in report["submissions"] if s["name"] == "wrong_answer/broken.c")
    assert broken["verdict"] == "CE" and broken["failures"][0].startswith("wrong_answer/broken.c: got CE: ")
    assert "error" in broken["failures"][0].split("got CE: ")[1]


@needs("javac")
def test_an_exported_java_submission_is_named_after_its_public_class(tmp_path: Path) -> None:
    import subprocess

    problem = copy_problem("aplusb", tmp_path)
    write_files(
        problem,
        {
            "submissions/accepted/sum.java": "import java.util.*;\n// not the public class names in a comment\n"
            "public class Main {\n  public static void main(String[] a) {\n    Scanner s = new Scanner(System.in);\n"
            "    System.out.println(s.nextLong() + s.nextLong());\n  }\n}\n"
        },
    )
    out = tmp_path / "exported"
    run = cli("export", str(problem), str(out))
    assert run.returncode == 0, run.stderr
    exported = out / "submissions" / "accepted"
    assert sorted(p.name for p in exported.iterdir()) == ["Main.java"]
    javac = subprocess.run(
        ["javac", "-d", str(tmp_path / "classes"), str(exported / "Main.java")],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert javac.returncode == 0, javac.stderr


def test_an_output_validator_folder_holding_only_gitkeep_leaves_the_default_validator(tmp_path: Path) -> None:
    root = write_files(
        tmp_path / "kept",
        {
            "problem.yaml": "problem_format_version: 2025-09\nname: Kept\nlimits:\n  time_limit: 1\n",
            "output_validator/.gitkeep": "",
            "data/secret/1.in": "1\n",
            "data/secret/1.ans": "1\n",
            "submissions/accepted/echo.py": ECHO,
            "submissions/wrong_answer/off.py": "print(int(input()) + 1)\n",
        },
    )
    code, report, _ = verified(root, tmp_path)
    assert code == 0 and [s["verdict"] for s in report["submissions"]] == ["AC", "WA"]


def test_our_format_reports_an_unknown_verdict_folder_and_still_judges_the_rest(tmp_path: Path) -> None:
    problem = copy_problem("aplusb", tmp_path)
    write_files(
        problem,
        {
            "submissions/maybe/sum.py": "print(sum(map(int, input().split())))\n",
            "submissions/accepted/notes.md": "how the references were written\n",
        },
    )
    out = tmp_path / "verify.json"
    run = cli("verify", str(problem), "-j", "1", "--json", str(out))
    report = json.loads(out.read_text())
    assert run.returncode == 1 and report["ok"] is False
    assert {
        (f["kind"], f["subject"], f["severity"]) for f in report["findings"] if f["kind"] in ("package", "skipped")
    } == {("package", "maybe/", "error"), ("skipped", "accepted/notes.md", "warning")}
    assert [(s["name"], s["ok"]) for s in report["submissions"]] == [("aplusb/solution.py", True)]
