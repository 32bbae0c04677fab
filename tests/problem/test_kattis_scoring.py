"""Kattis scoring, submissions.yaml expectations and the time limit verify stores, on small real packages.

Every package is written here and every submission is a real Python program
judged through the CLI: a 2025-09 scoring package (pass-fail, sum with a
score_multiplier.txt, min with require_pass, partially_accepted, a
submissions.yaml with per-group rules, one of them broken on purpose), an
unbounded group scored by score.txt and a validator breaking a score rule,
a 2023-07-draft ``scoring:`` package and a legacy ``accept_score`` one, and a
package without a time limit whose inferred limit verify stores for judge.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
import yaml
from conftest import cli, write_files

HALF = "n = int(input())\nprint(n // 2, n - n // 2)\n"
UNEVEN = "n = int(input())\nprint(n - 1, 1)\n"
SMALL_WRONG = "n = int(input())\nprint(*((0, 0) if n <= 2 else (n // 2, n - n // 2)))\n"

VALIDATOR = """
import sys
from pathlib import Path
# input answer feedback_dir [args] < output: accepts two non-negative integers summing to the input.
target = int(open(sys.argv[1]).read())
args, feedback = sys.argv[4:], Path(sys.argv[3])
a, b = map(int, sys.stdin.read().split())
if a + b != target or min(a, b) < 0:
    feedback.joinpath("judgemessage.txt").write_text(f"{a} + {b} is not {target}")
    sys.exit(43)
if "--mult" in args and a != b:
    feedback.joinpath("judgemessage.txt").write_text("unequal halves")
    feedback.joinpath("score_multiplier.txt").write_text("0.5")
if "--points" in args:
    if a == 0:
        feedback.joinpath("score_multiplier.txt").write_text("1")
    else:
        feedback.joinpath("score.txt").write_text(str(min(a, b)))
sys.exit(42)
"""


def judged(root: Path, program: Path, tmp_path: Path) -> tuple[int, dict, str]:
    out = tmp_path / f"{program.stem}.json"
    run = cli("judge", str(root), str(program), "--json", str(out), "-j", "1")
    return run.returncode, json.loads(out.read_text()) if out.exists() else {}, run.stderr


@pytest.fixture
def subtasks(tmp_path: Path) -> Path:
    """2025-09: pass-fail g1 (10), sum g2 (20, multiplier), min g3 (30, requires g1); submissions.yaml with one false
    promise."""
    return write_files(
        tmp_path / "subtasks",
        {
            "problem.yaml": "problem_format_version: 2025-09\nname: Halves\ntype: scoring\nlimits:\n  time_limit: 2\n",
            "data/sample/1.in": "4\n",
            "data/sample/1.ans": "2 2\n",
            "data/secret/test_group.yaml": "max_score: 60\n",
            "data/secret/g1/test_group.yaml": "max_score: 10\n",
            "data/secret/g1/1.in": "2\n",
            "data/secret/g1/1.ans": "1 1\n",
            "data/secret/g2/test_group.yaml": (
                "max_score: 20\nscore_aggregation: sum\noutput_validator_args: [--mult]\n"
            ),
            "data/secret/g2/1.in": "10\n",
            "data/secret/g2/1.ans": "5 5\n",
            "data/secret/g2/2.in": "8\n",
            "data/secret/g2/2.ans": "4 4\n",
            "data/secret/g3/test_group.yaml": "max_score: 30\nscore_aggregation: min\nrequire_pass: secret/g1\n",
            "data/secret/g3/1.in": "6\n",
            "data/secret/g3/1.ans": "3 3\n",
            "data/secret/g3/2.in": "12\n",
            "data/secret/g3/2.ans": "6 6\n",
            "output_validator/validate.py": VALIDATOR,
            "submissions/accepted/half.py": HALF,
            "submissions/partially_accepted/uneven.py": UNEVEN,
            "submissions/wrong_answer/small.py": SMALL_WRONG,
            "submissions/wrong_answer/claims.py": HALF,
            "submissions/submissions.yaml": """\
            wrong_answer/{small,other}.py:
              score: 20
              secret/g1: {required: [WA]}
              secret/g2: {permitted: [AC], score: 20}
              secret/g3: {permitted: [AC]}
            partially_accepted/uneven.py:
              score: [40, 55]
              secret/g2: {message: unequal}
            wrong_answer/claims.py:
              secret/*2: {required: [TLE]}
            """,
        },
    )


@pytest.mark.slow
def test_verify_checks_scores_groups_and_says_which_promise_failed(subtasks: Path) -> None:
    run = cli("verify", str(subtasks), "-j", "1")
    assert run.returncode == 1, run.stdout + run.stderr
    for name in ("accepted/half.py", "partially_accepted/uneven.py", "wrong_answer/small.py"):
        assert re.search(rf"ok\s+{re.escape(name)}", run.stdout), run.stdout
    assert re.search(r"FAIL\s+wrong_answer/claims\.py", run.stdout)
    assert "wrong_answer/claims.py: secret/*2: required TLE, got only AC" in run.stdout
    assert "wrong_answer/claims.py: required WA, got only AC" in run.stdout
    assert "3/4 submissions as expected" in run.stdout


def test_scores_pass_fail_sum_min_and_require_pass(subtasks: Path, tmp_path: Path) -> None:
    code, report, _ = judged(subtasks, subtasks / "submissions/partially_accepted/uneven.py", tmp_path)
    groups = {g["name"]: g["earned"] for g in report["groups"]}
    assert code == 0 and report["max_score"] == 60
    assert groups == {"sample": 0, "secret/g1": 10, "secret/g2": pytest.approx(10), "secret/g3": 30}
    assert report["score"] == pytest.approx(50)
    assert report["cases"][2]["score_file"] == ["score_multiplier.txt", 0.5]
    assert report["cases"][2]["message"] == "unequal halves"
    code, report, _ = judged(subtasks, subtasks / "submissions/wrong_answer/small.py", tmp_path)
    assert code == 1 and report["verdict"] == "WA" and report["score"] == pytest.approx(20)
    skipped = [c for c in report["cases"] if c["group"] == "secret/g3"]
    assert [c["verdict"] for c in skipped] == ["SKIPPED", "SKIPPED"]
    assert "require_pass secret/g1 not passed" in skipped[0]["message"]


@pytest.fixture
def unbounded(tmp_path: Path) -> Path:
    """An unbounded secret whose one group is scored by the validator's score.txt."""
    return write_files(
        tmp_path / "free",
        {
            "problem.yaml": "problem_format_version: 2025-09\nname: Free\ntype: scoring\nlimits:\n  time_limit: 2\n",
            "data/sample/1.in": "4\n",
            "data/sample/1.ans": "2 2\n",
            "data/secret/test_group.yaml": "max_score: unbounded\n",
            "data/secret/free/test_group.yaml": (
                "max_score: unbounded\nscore_aggregation: sum\noutput_validator_args: [--points]\n"
            ),
            "data/secret/free/1.in": "10\n",
            "data/secret/free/1.ans": "5 5\n",
            "data/secret/free/2.in": "6\n",
            "data/secret/free/2.ans": "3 3\n",
            "output_validator/validate.py": VALIDATOR,
            "submissions/accepted/half.py": HALF,
        },
    )


def test_unbounded_group_sums_score_txt_and_a_broken_rule_is_judge_error(unbounded: Path, tmp_path: Path) -> None:
    code, report, _ = judged(unbounded, unbounded / "submissions/accepted/half.py", tmp_path)
    assert code == 0 and report["score"] == pytest.approx(5 + 3)
    zero = tmp_path / "zero.py"
    zero.write_text("print(0, int(input()))\n")
    code, report, _ = judged(unbounded, zero, tmp_path)
    assert code == 3 and report["verdict"] == "JE"
    assert "score_multiplier.txt for a case of an unbounded group" in report["cases"][1]["message"]


def test_submit_answer_is_scored_by_score_txt_as_a_run_is(unbounded: Path, tmp_path: Path) -> None:
    """The answers a student hands in are scored by the validator's score.txt exactly as a program's output."""
    write_files(
        unbounded,
        {
            "problem.yaml": "problem_format_version: 2025-09\nname: Free answers\ntype: scoring submit-answer\n",
            "submissions/accepted/mine/sample/1.ans": "2 2\n",
            "submissions/accepted/mine/secret/free/1.ans": "4 6\n",
            "submissions/accepted/mine/secret/free/2.ans": "3 3\n",
        },
    )
    code, report, stderr = judged(unbounded, unbounded / "submissions/accepted/mine", tmp_path)
    assert code == 0 and report["score"] == pytest.approx(4 + 3), (stderr, report.get("cases"))


def test_2023_07_draft_scoring_map_and_legacy_accept_score(tmp_path: Path) -> None:
    draft = write_files(
        tmp_path / "draft",
        {
            "problem.yaml": (
                "problem_format_version: 2023-07-draft\nname: Echo\ntype: scoring\nlimits:\n  time_limit: 2\n"
            ),
            "data/sample/1.in": "1\n",
            "data/sample/1.ans": "1\n",
            "data/secret/testdata.yaml": "scoring:\n  aggregation: sum\n",
            "data/secret/s1/testdata.yaml": "scoring:\n  score: 30\n  aggregation: min\n",
            "data/secret/s1/1.in": "3\n",
            "data/secret/s1/1.ans": "3\n",
            "data/secret/s1/2.in": "4\n",
            "data/secret/s1/2.ans": "4\n",
            "data/secret/s2/testdata.yaml": "scoring:\n  score: 70\n  aggregation: min\n",
            "data/secret/s2/1.in": "-5\n",
            "data/secret/s2/1.ans": "-5\n",
        },
    )
    absolute = tmp_path / "abs.py"
    absolute.write_text("print(abs(int(input())))\n")
    code, report, _ = judged(draft, absolute, tmp_path)
    assert code == 1 and report["max_score"] == 100 and report["score"] == 30
    legacy = write_files(
        tmp_path / "legacy",
        {
            "problem.yaml": "name: Echo\ntype: scoring\nlimits:\n  time_limit: 2\n",
            "data/sample/1.in": "1\n",
            "data/sample/1.ans": "1\n",
            "data/secret/testdata.yaml": "accept_score: 5\nreject_score: 1\ngrader_flags: sum\n",
            "data/secret/1.in": "3\n",
            "data/secret/1.ans": "3\n",
            "data/secret/2.in": "-4\n",
            "data/secret/2.ans": "-4\n",
        },
    )
    code, report, _ = judged(legacy, absolute, tmp_path)
    # one accepted (5), one rejected (1), and the sample's default accept_score 1: without ignore_sample it counts, as
    # in problemtools
    assert report["max_score"] == 11 and report["score"] == 7


@pytest.fixture
def untimed(tmp_path: Path) -> Path:
    return write_files(
        tmp_path / "untimed",
        {
            "problem.yaml": "problem_format_version: 2025-09\nname: Untimed\n",
            "tilejudge.yaml": "time_factor:\n  python3: 1.0\n",
            "data/sample/1.in": "4\n",
            "data/sample/1.ans": "2 2\n",
            "data/secret/1.in": "6\n",
            "data/secret/1.ans": "3 3\n",
            "submissions/accepted/half.py": HALF,
            "submissions/time_limit_exceeded/spin.py": "while True:\n    pass\n",
        },
    )


@pytest.mark.slow
def test_verify_stores_the_inferred_limit_and_judge_reuses_it(untimed: Path, tmp_path: Path) -> None:
    run = cli("verify", str(untimed), "-j", "1")
    assert run.returncode == 0, run.stdout + run.stderr
    assert "time limit 1 s stored in tilejudge.yaml" in run.stderr
    assert "warning: time_limit_exceeded/spin.py" not in run.stdout  # it still times out at 1 s × 1.5
    side = yaml.safe_load((untimed / "tilejudge.yaml").read_text())
    assert side["time_factor"] == {"python3": 1.0} and side["time_limit"]["value"] == 1.0
    code, report, stderr = judged(untimed, untimed / "submissions/accepted/half.py", tmp_path)
    assert code == 0 and "time limit 1 s stored by verify in tilejudge.yaml (not inferred again)" in stderr
    assert "inferred the Kattis way" not in stderr
    write_files(untimed, {"data/secret/2.in": "8\n", "data/secret/2.ans": "4 4\n"})
    code, report, stderr = judged(untimed, untimed / "submissions/accepted/half.py", tmp_path)
    assert code == 0 and "is stale" in stderr and "inferred the Kattis way" in stderr and "would store it" in stderr


@pytest.mark.parametrize(
    ("pattern", "path", "matches"),
    [
        ("accepted", "accepted/a.py", True),
        ("accepted/*", "accepted/a.py", True),
        ("*.py", "accepted/a.py", False),  # * does not cross /
        ("accepted/{a,b}.py", "accepted/b.py", True),
        ("accepted/{a,b}.py", "accepted/c.py", False),
        ("secret/*-hard", "secret/02-hard/1", True),
        ("secret/*-hard", "secret/02-easy/1", False),
    ],
)
def test_submissions_yaml_globs(pattern: str, path: str, matches: bool) -> None:
    from judge.problem.formats.kattis_submissions import glob_matches

    assert glob_matches(pattern, path) is matches


def test_bad_submissions_yaml_is_one_line(subtasks: Path) -> None:
    (subtasks / "submissions/submissions.yaml").write_text("accepted/half.py:\n  permitted: [OK]\n")
    run = cli("verify", str(subtasks))
    assert run.returncode == 2 and "Traceback" not in run.stderr
    assert "submissions.yaml" in run.stderr and "permitted" in run.stderr and len(run.stderr.strip().splitlines()) == 1
