"""Interactive, multi-pass and submit-answer problems, judged end to end through ``run_judge.py``.

Every package here is written by the test: a number-guessing game whose
interactor speaks the Kattis protocol (and one speaking testlib's exit
codes), a multi-pass validator that asks for more passes, and a
submit-answer problem whose submissions are folders of answer files. Each
submission is a real program the judge runs; the verdicts follow Kattis's
rules for who ended first.
"""

from __future__ import annotations

import csv
import json
import os
from pathlib import Path

import pytest
from conftest import cli, write_files

# Kattis protocol: the secret is the first number of the input; 7 guesses; "lower"/"higher"/"correct".
GUESS_VALIDATOR = r"""
import os, signal, sys
signal.signal(signal.SIGPIPE, signal.SIG_IGN)
secret = int(open(sys.argv[1]).read().split()[0])
feedback = sys.argv[3]
def verdict(code, message):
    with open(os.path.join(feedback, "judgemessage.txt"), "a") as f:
        f.write(message + "\n")
    sys.exit(code)
for n in range(7):
    line = sys.stdin.readline()
    if not line:
        verdict(43, f"guess {n + 1}: end of input")
    try:
        guess = int(line)
    except ValueError:
        verdict(43, f"guess {n + 1}: not a number")
    if not 1 <= guess <= 100:
        verdict(43, f"guess {n + 1}: {guess} is out of range")
    if guess == secret:
        print("correct", flush=True)
        if sys.stdin.read().strip():
            verdict(43, "output after the correct guess")
        verdict(42, f"found in {n + 1}")
    print("lower" if guess > secret else "higher", flush=True)
verdict(43, "no guesses left")
"""

BINARY_SEARCH = """
lo, hi = 1, 100
while True:
    m = (lo + hi) // 2
    print(m, flush=True)
    reply = input()
    if reply == "correct":
        break
    if reply == "lower":
        hi = m - 1
    else:
        lo = m + 1
"""

SUBMISSIONS = {
    "accepted/search.py": BINARY_SEARCH,
    "accepted/search.cpp": """
#include <cstdio>
#include <cstring>
int main() { int lo = 1, hi = 100; char r[32];
  while (true) { int m = (lo + hi) / 2; printf("%d\\n", m); fflush(stdout);
    if (scanf("%31s", r) != 1) return 1; if (!strcmp(r, "correct")) return 0;
    if (!strcmp(r, "lower")) hi = m - 1; else lo = m + 1; } }
""",
    # the interactor rejects "0" (out of range) at once; the spinning afterwards must not turn that into TLE
    "wrong_answer/spins_after_rejection.py": "print(0, flush=True)\nwhile True:\n    pass\n",
    # gives up after one guess with exit 0: the interactor sees end of input
    "wrong_answer/one_guess.py": "print(50, flush=True)\n",
    # crashes on the reply it gets after the interactor has already said no: still WA
    "wrong_answer/crash_after_rejection.py": "for _ in range(7):\n    print(50, flush=True)\n    input()\ninput()\n",
    # waits for a reply to a guess it never flushed (readline, unlike input(), does not flush): the wall limit ends it
    "time_limit_exceeded/no_flush.py": "import sys\nsys.stdout.write('50\\n')\nsys.stdin.readline()\n",
    # finds the number, closes its output, then spins: the interactor accepts, the submission's own ending decides
    "time_limit_exceeded/spin_after_correct.py": BINARY_SEARCH + "import os\nos.close(1)\nwhile True:\n    pass\n",
    "run_time_error/exit_at_once.py": "import sys\nsys.exit(3)\n",
    "run_time_error/exit_after_correct.py": BINARY_SEARCH + "raise SystemExit(4)\n",
}


# the time limit of the packages whose submissions run until a limit stops them: as surely stopped as at 1 s
QUICK_LIMIT = 0.2


def kattis_guess(
    root: Path,
    validator: str = GUESS_VALIDATOR,
    submissions: dict[str, str] | None = None,
    limits: str = "",
    time_limit: float = 1,
) -> Path:
    files = {
        "problem.yaml": (
            "problem_format_version: 2025-09\nname: Guess\ntype: pass-fail interactive\nlimits:\n"
            f"  time_limit: {time_limit:g}\n" + limits
        ),
        "output_validator/validate.py": validator,
        **{f"data/secret/{n:02d}.in": f"{secret}\n" for n, secret in enumerate((1, 37, 64, 100), 1)},
        **{f"data/secret/{n:02d}.ans": "\n" for n in range(1, 5)},
        **{f"submissions/{name}": text for name, text in (submissions or SUBMISSIONS).items()},
    }
    return write_files(root, files)


def judged(tmp_path: Path, package: Path, submission: Path, *extra: str) -> tuple[int, dict]:
    out = tmp_path / f"{submission.stem}.json"
    run = cli("judge", str(package), str(submission), "--json", str(out), *extra)
    assert "Traceback" not in run.stderr, run.stderr
    return run.returncode, json.loads(out.read_text()) if out.exists() else {"stderr": run.stderr}


@pytest.mark.slow
def test_every_guess_submission_gets_its_kattis_verdict(tmp_path: Path) -> None:
    """Three of the submissions run until a limit stops them (two spin, one waits): at QUICK_LIMIT, not 1 s."""
    package = kattis_guess(tmp_path / "guess", time_limit=QUICK_LIMIT)
    run = cli("verify", str(package))
    assert run.returncode == 0, run.stdout + run.stderr
    assert f"verified: {len(SUBMISSIONS)}/{len(SUBMISSIONS)} submissions as expected" in run.stdout


def test_the_report_keeps_the_first_exchanges(tmp_path: Path) -> None:
    package = kattis_guess(tmp_path / "guess")
    code, report = judged(tmp_path, package, package / "submissions" / "accepted" / "search.py")
    assert code == 0 and report["verdict"] == "AC", report
    by_name = {c["name"]: c for c in report["cases"]}
    assert by_name["02"]["transcript"].splitlines()[:2] == [">50", "<lower"]
    assert by_name["02"]["transcript"].splitlines()[-1] == "<correct"
    assert by_name["01"]["message"].startswith("found in")


@pytest.mark.slow
def test_rejection_by_the_interactor_first_stands(tmp_path: Path) -> None:
    package = kattis_guess(tmp_path / "guess", time_limit=QUICK_LIMIT)
    code, report = judged(tmp_path, package, package / "submissions" / "wrong_answer" / "spins_after_rejection.py")
    assert report["verdict"] == "WA", report
    assert all(c["time"] <= QUICK_LIMIT for c in report["cases"]), "time after the rejection is capped at the limit"
    assert "0 is out of range" in report["cases"][0]["message"]


# Rejects the first guess, stops reading and writing, and only then takes its time to exit.
LINGERING_VALIDATOR = r"""
import os, sys, time
sys.stdin.readline()
open(os.path.join(sys.argv[3], "judgemessage.txt"), "w").write("no second chances\n")
os.close(0)
os.close(1)
time.sleep(0.5)
sys.exit(43)
"""


def test_a_rejection_decided_before_the_submission_ended_stands_whoever_exits_first(tmp_path: Path) -> None:
    """The submission crashes on the end-of-file the rejection caused, and its exit is reported before the
    interactor's: the interactor still decided first (it stopped reading before the submission's end could
    reach it), so the verdict is its WA, as it must be on a loaded machine where the reports come in any order."""
    package = kattis_guess(
        tmp_path / "guess", LINGERING_VALIDATOR, {"wrong_answer/crash.py": "print(50, flush=True)\ninput()\n"}
    )
    crash = package / "submissions" / "wrong_answer" / "crash.py"
    code, report = judged(tmp_path, package, crash, "--all-cases")  # every case, not only up to the group's first WA
    assert [c["verdict"] for c in report["cases"]] == ["WA"] * 4, report
    assert "no second chances" in report["cases"][0]["message"]


@pytest.mark.parametrize(
    ("validator", "expected"),
    [
        ("import sys\nsys.exit(1)\n", "exited 1 (expected 42 or 43)"),
        pytest.param("import time\ntime.sleep(60)\n", "exceeded its wall limit", marks=pytest.mark.slow),
        ("import os\nos.kill(os.getpid(), 9)\n", "SIGKILL"),
    ],
)
def test_a_broken_interactor_is_a_judge_error(tmp_path: Path, validator: str, expected: str) -> None:
    """The package's ``validation_time`` (0.5 s of CPU, so 1 s of wall time, counted from the submission's end) bounds
    the interactor: the one that sleeps is stopped at that, not at the default of twice the time limit, at least 5 s
    (10 s of wall time). The submission waiting for its answer meets its own wall limit first: QUICK_LIMIT's 1.2 s."""
    package = kattis_guess(
        tmp_path / "guess",
        validator,
        {"accepted/search.py": BINARY_SEARCH},
        limits="  validation_time: 0.5\n",
        time_limit=QUICK_LIMIT,
    )
    code, report = judged(tmp_path, package, package / "submissions" / "accepted" / "search.py", "--first-fail")
    assert report["verdict"] == "JE", report
    assert code == 3
    assert expected in report["cases"][0]["message"]


TESTLIB_INTERACTOR = r"""
import sys
secret = int(open(sys.argv[1]).read().split()[0])
record = open(sys.argv[2], "w")
for n in range(40):
    line = sys.stdin.readline()
    if not line:
        print("wrong answer unexpected end of file", file=sys.stderr)
        sys.exit(1)
    guess = int(line)
    if guess == secret:
        print("correct", flush=True)
        record.write(f"{n + 1}\n")
        sys.exit(0)
    print("lower" if guess > secret else "higher", flush=True)
print("wrong answer too many guesses", file=sys.stderr)
sys.exit(1)
"""

# testlib protocol: INPUT OUTPUT ANSWER; the record holds how many guesses the submission needed (the interactor
# allows 40).
RECORD_CHECKER = r"""
import sys
guesses = int(open(sys.argv[2]).read())
if guesses > 7:
    print(f"{guesses} guesses, at most 7 allowed", file=sys.stderr)
    sys.exit(1)
sys.exit(0)
"""


def test_testlib_interactor_and_a_checker_on_its_record(tmp_path: Path) -> None:
    package = write_files(
        tmp_path / "guesslib",
        {
            "problem.yaml": "\n".join(
                [
                    "title: Guess with testlib",
                    "type: interactive",
                    "interactor:",
                    "  program: interactor.py",
                    "  protocol: testlib",
                    "checker:",
                    "  type: testlib",
                    "  program: checker.py",
                    "limits:",
                    "  time: 1",
                    "  memory: 256",
                    "solutions:",
                    "  - secret.py",
                    "groups:",
                    "  - name: all",
                    "    points: 100",
                    "    cases:",
                    *(f"      - name: s{n}\n        file: inputs/{n}.in" for n in (1, 37, 100)),
                    "",
                ]
            ),
            "interactor.py": TESTLIB_INTERACTOR,
            "checker.py": RECORD_CHECKER,
            "secret.py": "print(input())\n",
            **{f"inputs/{n}.in": f"{n}\n" for n in (1, 37, 100)},
            "search.py": BINARY_SEARCH,
            "linear.py": (
                "n = 1\nwhile True:\n    print(n, flush=True)\n    if input() == 'correct':\n        break\n"
                "    n += 1\n"
            ),
        },
    )
    run = cli("generate", str(package))
    assert run.returncode == 0, run.stderr
    code, report = judged(tmp_path, package, package / "search.py")
    assert report["verdict"] == "AC", report
    code, report = judged(tmp_path, package, package / "linear.py", "--all-cases")
    verdicts = {c["name"]: c["verdict"] for c in report["cases"]}
    seen = {c["name"]: (c["verdict"], c["message"], c.get("transcript", "")[-200:]) for c in report["cases"]}
    assert verdicts == {"s1": "AC", "s37": "WA", "s100": "WA"}, seen
    messages = {c["name"]: c["message"] for c in report["cases"]}
    assert "37 guesses, at most 7 allowed" in messages["s37"], "the checker judged the interactor's record"
    assert "too many guesses" in messages["s100"], "the interactor rejected before any checker ran"


# Multi-pass: pass k gets "k" and must answer "k squared"; the validator asks for 3 passes in all.
MULTI_PASS_VALIDATOR = r"""
import os, sys
k = int(open(sys.argv[1]).read())
feedback = sys.argv[3]
if sys.stdin.read().split() != [str(k * k)]:
    open(os.path.join(feedback, "judgemessage.txt"), "a").write(f"pass with {k}: wrong square\n")
    sys.exit(43)
open(os.path.join(feedback, "judgemessage.txt"), "a").write(f"{k} ok\n")
if k < int(sys.argv[4]):
    open(os.path.join(feedback, "nextpass.in"), "w").write(f"{k + 1}\n")
sys.exit(42)
"""


@pytest.mark.parametrize(("passes", "rounds", "expected"), [(3, 3, "AC"), (3, 4, "JE"), (2, 2, "AC")])
def test_multi_pass_runs_until_the_validator_stops_asking(
    tmp_path: Path, passes: int, rounds: int, expected: str
) -> None:
    package = write_files(
        tmp_path / "squares",
        {
            "problem.yaml": (
                "problem_format_version: 2025-09\nname: Squares\ntype: multi-pass\nlimits:\n  time_limit: 1\n"
                f"  validation_passes: {passes}\n"
            ),
            "output_validator/validate.py": MULTI_PASS_VALIDATOR,
            "data/secret/1.in": "1\n",
            "data/secret/1.ans": "\n",
            "data/secret/1.yaml": f"output_validator_args: ['{rounds}']\n",
            "square.py": "k = int(input())\nprint(k * k)\n",
            "wrong_on_second.py": "k = int(input())\nprint(k * k if k == 1 else 0)\n",
        },
    )
    code, report = judged(tmp_path, package, package / "square.py")
    assert report["verdict"] == expected, report
    if expected == "JE":
        assert f"asked for pass {passes + 1}" in report["cases"][0]["message"]
    code, report = judged(tmp_path, package, package / "wrong_on_second.py")
    assert report["verdict"] == "WA", report
    assert report["cases"][0]["message"].startswith("pass 2:")


def submit_answer_package(root: Path) -> Path:
    return write_files(
        root,
        {
            "problem.yaml": "problem_format_version: 2025-09\nname: Answers\ntype: pass-fail submit-answer\n",
            **{f"data/secret/{n}.in": f"{n}\n" for n in (1, 2, 3)},
            **{f"data/secret/{n}.ans": f"{n * n}\n" for n in (1, 2, 3)},
        },
    )


def test_submit_answer_checks_answer_files_and_never_runs_them(tmp_path: Path) -> None:
    package = submit_answer_package(tmp_path / "answers")
    good = write_files(tmp_path / "good", {"1.out": "1\n", "secret/2.ans": "4\n", "3.txt": "9\n"})
    code, report = judged(tmp_path, package, good)
    assert code == 0 and report["verdict"] == "AC", report
    partial = write_files(tmp_path / "partial", {"1.out": "1\n", "2.out": "5\n"})
    (partial / "3.out").symlink_to("/etc/passwd")
    code, report = judged(tmp_path, package, partial, "--all-cases")
    verdicts = {c["name"]: c["verdict"] for c in report["cases"]}
    assert verdicts == {"1": "AC", "2": "WA", "3": "WA"}, report
    assert "no answer file" in next(c["message"] for c in report["cases"] if c["name"] == "3")
    assert "root:" not in json.dumps(report)


def test_submit_answer_survives_a_fifo_in_the_folder(tmp_path: Path) -> None:
    package = submit_answer_package(tmp_path / "answers")
    hostile = write_files(tmp_path / "hostile", {"1.out": "1\n", "2.out": "4\n"})
    os.mkfifo(hostile / "3.out")
    code, report = judged(tmp_path, package, hostile)
    verdicts = {c["name"]: c["verdict"] for c in report["cases"]}
    assert verdicts == {"1": "AC", "2": "AC", "3": "WA"}, report


def test_native_submit_answer_package_verifies_its_answer_folders(tmp_path: Path) -> None:
    package = write_files(
        tmp_path / "squares",
        {
            "problem.yaml": "\n".join(
                [
                    "title: Squares, answers only",
                    "type: submit-answer",
                    "limits:",
                    "  time: 1",
                    "  memory: 256",
                    "solutions:",
                    "  - square.py",
                    "groups:",
                    "  - name: all",
                    "    points: 100",
                    "    cases:",
                    *(f"      - name: n{n}\n        file: inputs/{n}.in" for n in (2, 3)),
                    "",
                ]
            ),
            "square.py": "n = int(input())\nprint(n * n)\n",
            **{f"inputs/{n}.in": f"{n}\n" for n in (2, 3)},
            "submissions/accepted/exact/n2.out": "4\n",
            "submissions/accepted/exact/all/n3.ans": "9\n",
            "submissions/wrong_answer/off_by_one/n2.out": "4\n",
            "submissions/wrong_answer/off_by_one/n3.out": "10\n",
        },
    )
    assert cli("generate", str(package)).returncode == 0
    run = cli("verify", str(package))
    assert run.returncode == 0, run.stdout + run.stderr
    assert "verified: 2/2 submissions as expected" in run.stdout, run.stdout


def test_a_failed_interactive_judging_shows_how_the_exchange_began(tmp_path: Path) -> None:
    package = kattis_guess(
        tmp_path / "guess", submissions={"wrong_answer/one_guess.py": SUBMISSIONS["wrong_answer/one_guess.py"]}
    )
    run = cli("judge", str(package), str(package / "submissions" / "wrong_answer" / "one_guess.py"))
    assert run.returncode == 1, run.stdout + run.stderr
    lines = run.stdout.splitlines()
    start = lines.index("the exchange on that case began (> the submission, < the interactor):")
    assert lines[start + 1 : start + 3] == ["  >50", "  <lower"], run.stdout


def test_multi_pass_in_our_own_format(tmp_path: Path) -> None:
    package = write_files(
        tmp_path / "squares",
        {
            "problem.yaml": "\n".join(
                [
                    "title: Squares, three passes",
                    "type: multi-pass",
                    "checker:",
                    "  type: kattis",
                    "  program: validate.py",
                    "limits:",
                    "  time: 1",
                    "  memory: 256",
                    "  passes: 3",
                    "solutions:",
                    "  - square.py",
                    "groups:",
                    "  - name: all",
                    "    points: 100",
                    "    cases:",
                    "      - name: one",
                    "        file: one.in",
                    "",
                ]
            ),
            "validate.py": MULTI_PASS_VALIDATOR.replace("int(sys.argv[4])", "3"),
            "square.py": "k = int(input())\nprint(k * k)\n",
            "one.in": "1\n",
            "wrong_on_third.py": "k = int(input())\nprint(k * k if k < 3 else 0)\n",
        },
    )
    assert cli("generate", str(package)).returncode == 0
    code, report = judged(tmp_path, package, package / "square.py")
    assert report["verdict"] == "AC", report
    assert report["cases"][0]["message"].startswith("pass 3:"), report
    code, report = judged(tmp_path, package, package / "wrong_on_third.py")
    assert report["verdict"] == "WA" and report["cases"][0]["message"].startswith("pass 3:"), report


def test_a_child_left_holding_the_pipes_does_not_keep_the_exchange_open(tmp_path: Path) -> None:
    """The submission finds the number, then leaves a child holding its stdin and stdout: the run ends with the
    submission's own process, the child goes with its control group, and the interactor sees end-of-file at once
    (else it would wait out its wall limit and the case would be a judge error)."""
    lingering = BINARY_SEARCH + "import os, time\nif os.fork() == 0:\n    time.sleep(120)\n"
    package = kattis_guess(tmp_path / "guess", submissions={"accepted/lingering.py": lingering})
    code, report = judged(tmp_path, package, package / "submissions" / "accepted" / "lingering.py")
    assert code == 0 and report["verdict"] == "AC", report


def test_grading_a_class_on_a_submit_answer_problem(tmp_path: Path) -> None:
    """Each student hands in a folder of answer files; a lone file, an empty folder and a link are told apart."""
    package = submit_answer_package(tmp_path / "answers")
    submissions = tmp_path / "class"
    write_files(
        submissions,
        {
            "alice/1.out": "1\n",
            "alice/2.out": "4\n",
            "alice/3.out": "9\n",
            "bob/1.out": "1\n",
            "bob/secret/2.ans": "5\n",
            "carol.out": "1\n",
        },
    )
    (submissions / "dave").mkdir()
    (submissions / "erin").symlink_to(submissions / "alice")
    out = tmp_path / "out"
    run = cli("grade", str(package), str(submissions), "--out", str(out))
    assert run.returncode == 0, run.stdout + run.stderr
    with (out / "grades.csv").open() as f:
        grades = {row["id"]: row for row in csv.DictReader(f)}
    assert {sid: row["verdict"] for sid, row in grades.items()} == {
        "alice": "AC",
        "bob": "WA",
        "carol": "INVALID",
        "dave": "INVALID",
        "erin": "INVALID",
    }, grades
    reasons = json.dumps(grades)
    assert "a submit-answer problem takes a folder of answer files per student" in reasons, reasons
    assert "no answer file in the folder" in reasons, reasons


def test_output_over_the_limit_through_the_pipe_is_ole(tmp_path: Path) -> None:
    """A pipe has no file-size limit: the relay counts what the submission writes and closes its output at the limit."""
    package = write_files(
        tmp_path / "flood",
        {
            "problem.yaml": (
                "problem_format_version: 2025-09\nname: Flood\ntype: interactive\nlimits:\n  time_limit: 2\n"
                "  output: 1\n"
            ),
            "output_validator/validate.py": "import sys\nsys.stdin.buffer.read()\nsys.exit(42)\n",
            "data/secret/1.in": "1\n",
            "data/secret/1.ans": "\n",
            "flood.py": "import sys\nsys.stdout.write('x' * (3 << 20))\n",
            "small.py": "import sys\nsys.stdout.write('x' * (1 << 19))\n",
        },
    )
    code, report = judged(tmp_path, package, package / "flood.py")
    assert report["verdict"] == "OLE", report
    code, report = judged(tmp_path, package, package / "small.py")
    assert report["verdict"] == "AC", report
