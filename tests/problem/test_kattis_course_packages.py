"""Kattis packages with the slips of problem setters who are not tool authors (issue 29): verify names each one.

The packages are written for their tests, each with one habit seen in
packages from course and problem-setting repositories: an answer file whose
input was lost, a validator that crashes with a Python traceback, a
validator that cannot be built.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import cli, write_files

ECHO = "print(input())\n"


def echo_package(root: Path, extra: dict[str, str]) -> Path:
    """A legacy package with a stated time limit, one accepted and one wrong submission, and ``extra`` files."""
    return write_files(
        root,
        {
            "problem.yaml": "name: Echo\nlimits:\n  time_limit: 2\n",
            "data/sample/1.in": "1\n",
            "data/sample/1.ans": "1\n",
            "data/secret/1.in": "2\n",
            "data/secret/1.ans": "2\n",
            "submissions/accepted/echo.py": ECHO,
            "submissions/wrong_answer/off.py": "print(int(input()) + 1)\n",
            **extra,
        },
    )


def verified(root: Path, tmp_path: Path) -> tuple[int, dict, str]:
    out = tmp_path / "verify.json"
    run = cli("verify", str(root), "-j", "1", "--json", str(out))
    assert "Traceback" not in run.stderr, run.stderr
    return run.returncode, json.loads(out.read_text()), run.stdout


def test_an_answer_file_without_its_input_fails_verify_and_the_rest_is_still_judged(tmp_path: Path) -> None:
    validator = "import sys\nsys.exit(42 if sys.stdin.read().strip().isdigit() else 43)\n"
    root = echo_package(tmp_path / "echo", {"data/secret/2.ans": "3\n", "input_validators/digits.py": validator})
    code, report, stdout = verified(root, tmp_path)
    assert code == 1 and report["ok"] is False
    errors = [(f["kind"], f["message"]) for f in report["findings"] if f["severity"] == "error"]
    assert errors == [("package", "data/secret/2.ans: no matching .in file, so it is no test case")]
    assert {s["name"]: s["ok"] for s in report["submissions"]} == {
        "accepted/echo.py": True,
        "wrong_answer/off.py": True,
    }
    assert report["inputs"] == {"cases": 2, "invalid": 0, "validated": True}
    assert "package error: data/secret/2.ans: no matching .in file" in stdout


def test_the_same_package_with_its_input_verifies_and_notes_beside_the_validator_are_no_validator(
    tmp_path: Path,
) -> None:
    validator = "import re, sys\nsys.exit(42 if re.fullmatch(r'(0|[1-9][0-9]*)\\n', sys.stdin.read()) else 43)\n"
    root = echo_package(
        tmp_path / "echo",
        {
            "data/secret/2.in": "3\n",
            "data/secret/2.ans": "3\n",
            "input_validators/digits.py": validator,
            "input_validators/README.txt": "digits.py checks that the input is a number\n",
        },
    )
    code, report, stdout = verified(root, tmp_path)
    findings = [(f["kind"], f["severity"], f["message"]) for f in report["findings"]]
    assert code == 0 and findings == [
        ("warning", "warning", "input_validators/README.txt: notes, not a program: not run")
    ]
    assert "verified: 2/2 submissions as expected, 3/3 inputs valid" in stdout


def test_a_crashing_validator_is_reported_by_the_line_naming_its_error(tmp_path: Path) -> None:
    # A common slip: comparing the line read (a string) with a number; Python prints a traceback of several lines.
    validator = "import sys\n\n\ndef check(line):\n    assert 1 <= line <= 9\n\n\ncheck(sys.stdin.readline())\n"
    root = echo_package(tmp_path / "echo", {"input_validators/range.py": validator})
    code, report, stdout = verified(root, tmp_path)
    assert code == 1 and report["inputs"] == {"cases": 2, "invalid": 2, "validated": True}
    inputs = [f["message"] for f in report["findings"] if f["kind"] == "input"]
    assert len(inputs) == 2, inputs
    for message in inputs:
        assert message.endswith(
            "validator failed (exit code 1, expected 42 or 43): TypeError: '<=' not supported "
            "between instances of 'int' and 'str'"
        ), message
        assert "Traceback" not in message and "build/" not in message
    assert "2/2 submissions as expected, 0/2 inputs valid" in stdout


def test_a_validator_that_cannot_be_built_leaves_the_inputs_unvalidated_not_valid(tmp_path: Path) -> None:
    root = echo_package(tmp_path / "echo", {"input_validators/broken.cpp": "int main() { return 42 }\n"})
    code, report, stdout = verified(root, tmp_path)
    assert code == 1 and report["inputs"] == {"cases": 2, "invalid": 0, "validated": False}
    errors = [f for f in report["findings"] if f["severity"] == "error"]
    assert len(errors) == 1 and errors[0]["kind"] == "package", errors
    assert errors[0]["subject"] == "input validators" and errors[0]["message"].startswith("inputs not validated: ")
    assert stdout.rstrip().endswith("echo: NOT verified: 2/2 submissions as expected, inputs not validated")


def test_a_validator_exiting_0_without_a_word_is_named_as_such(tmp_path: Path) -> None:
    # The Kattis protocol wants 42 for a valid input; a validator written like a testlib one ends with exit code 0.
    root = echo_package(tmp_path / "echo", {"input_validators/quiet.py": "import sys\nsys.stdin.read()\n"})
    code, report, _ = verified(root, tmp_path)
    assert code == 1 and report["inputs"]["invalid"] == 2
    inputs = sorted(f["message"] for f in report["findings"] if f["kind"] == "input")
    assert inputs == [
        f"{case}: validator failed (exit code 0, expected 42 or 43), no message" for case in ("sample/1", "secret/1")
    ]


@pytest.mark.parametrize(
    ("version", "no_secret"),
    [
        ("", "error"),
        ("problem_format_version: 2023-07-draft\n", "error"),
        ("problem_format_version: 2025-09\n", "warning"),
    ],
    ids=["legacy", "2023-07", "2025-09"],
)
def test_a_package_whose_secret_data_is_only_a_recipe_says_what_was_not_judged(
    tmp_path: Path, version: str, no_secret: str
) -> None:
    """BAPCtools makes data/secret from generators.yaml, which this judge does not run; a stray case sits in data/.
    No secret cases fail the package where problemtools reads it (it says "No secret data provided"); BAPCtools, the
    tool of 2025-09, runs such a package and refuses it only on export, so there it is a warning."""
    root = write_files(
        tmp_path / "echo",
        {
            "problem.yaml": f"{version}name: Echo\nlimits:\n  time_limit: 2\n",
            "data/sample/1.in": "1\n",
            "data/sample/1.ans": "1\n",
            "data/3.in": "3\n",
            "data/3.ans": "3\n",
            "generators/generators.yaml": "data:\n  secret:\n    data:\n      - '': {in: '2', ans: '2'}\n",
            "submissions/accepted/echo.py": ECHO,
        },
    )
    code, report, stdout = verified(root, tmp_path)
    assert code == 1 and report["inputs"]["cases"] == 1
    by_severity = {
        severity: [f["message"] for f in report["findings"] if f["severity"] == severity]
        for severity in ("error", "warning")
    }
    stray = [
        f"data/3.{suffix}: test data directly in data/ is no test case (use data/sample or data/secret)"
        for suffix in ("ans", "in")
    ]
    assert [m for m in by_severity["error"] if m.startswith("data/")] == (
        ["data/secret: no secret test cases (only samples judged)"] if no_secret == "error" else []
    ) + stray
    assert ("data/secret: no secret test cases (only samples judged)" in by_severity["warning"]) is (
        no_secret == "warning"
    )
    assert (
        "generators/generators.yaml: data/ was not made from it here (`generate` makes it, as bt generate does); "
        "only the cases already in data/ are judged"
    ) in by_severity["warning"]
    assert "NOT verified: 1/1 submissions as expected" in stdout


def test_a_legacy_package_is_told_its_own_key_for_the_margin_a_tle_submission_misses(tmp_path: Path) -> None:
    # 0.7 s of CPU: over the 0.5 s limit, under the 1 s that time_safety_margin 2 asks it to exceed.
    slow = "import time\nwhile time.process_time() < 0.7:\n    pass\nprint(input())\n"
    root = write_files(
        tmp_path / "echo",
        {
            "problem.yaml": "name: Echo\nlimits:\n  time_limit: 0.5\n  time_safety_margin: 2\n",
            "data/secret/1.in": "1\n",
            "data/secret/1.ans": "1\n",
            "submissions/accepted/echo.py": ECHO,
            "submissions/time_limit_exceeded/slow.py": slow,
        },
    )
    code, report, _ = verified(root, tmp_path)
    assert code == 0, report["findings"]
    warnings = [f["message"] for f in report["findings"] if f["severity"] == "warning"]
    assert any(
        w.startswith("time_limit_exceeded/slow.py: no case times out at 0.5 s × time_safety_margin 2 = 1 s")
        for w in warnings
    ), warnings


def test_the_kernels_cpu_backstop_leaves_the_judges_own_stop_a_limits_worth_of_slack(tmp_path: Path) -> None:
    """A course package's brute force, judged at a 29 s limit, was killed by the kernel's RLIMIT_CPU (SIGXCPU, RE)
    after 28.85 s of measured CPU: that clock runs ahead of the measured CPU time in a VM under load, so the backstop
    must sit well above the limit the launcher stops the run at. The program reads its own backstop."""
    program = (
        "import resource\n"
        "soft, hard = resource.getrlimit(resource.RLIMIT_CPU)\n"
        "print(input() if 6 <= soft < hard else f'RLIMIT_CPU {soft} {hard} for a 3 s limit')\n"
    )
    root = write_files(
        tmp_path / "echo",
        {
            "problem.yaml": "name: Echo\nlimits:\n  time_limit: 3\n",
            "data/secret/1.in": "1\n",
            "data/secret/1.ans": "1\n",
            "backstop.py": program,
        },
    )
    out = tmp_path / "judge.json"
    run = cli("judge", str(root), str(root / "backstop.py"), "--json", str(out), "-j", "1")
    report = json.loads(out.read_text())
    assert run.returncode == 0 and report["verdict"] == "AC", (run.stdout, report["cases"])


def test_a_package_without_samples_is_warned_and_still_verifies(tmp_path: Path) -> None:
    root = write_files(
        tmp_path / "echo",
        {
            "problem.yaml": "name: Echo\nlimits:\n  time_limit: 2\n",
            "data/secret/1.in": "1\n",
            "data/secret/1.ans": "1\n",
            "submissions/accepted/echo.py": ECHO,
        },
    )
    code, report, _ = verified(root, tmp_path)
    warnings = [f["message"] for f in report["findings"] if f["severity"] == "warning"]
    assert code == 0 and "data/sample: no sample cases, so the statement shows no example" in warnings, warnings
