"""Legacy Kattis scoring packages judged as problemtools judges them (issue 47).

Each package is written here after the legacy format's examples (``testdata.yaml`` with ``grader_flags``,
``range``, ``on_reject``; ``graders/`` with ``grading: custom``) and judged through the CLI with real Python
submissions:

- ``always_accept`` in a group's ``testdata.yaml``: the group's verdict is AC whatever its cases', with the score
  they earn, so an ``accepted/`` submission scoring 50 passes with a warning and a ``partially_accepted/`` one
  scoring 0 passes;
- a ``partially_accepted/`` submission at full score is a warning, not a failure;
- the maximum score is ``range``'s upper end where the package states one, not ``accept_score`` × cases;
- a custom grader (``graders/``, ``grading: custom``) is run on each group's results, and one that breaks the
  protocol is a judge error naming it;
- ``judge`` reports the verdict the format gives (AC with its score) beside the first failing case.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from conftest import cli, write_files
from test_report_schema import schema, violations

SPLIT = "n = int(input())\nprint(n // 2, n - n // 2)\n"  # right on every case
SMALL_ONLY = "n = int(input())\nprint(*((n // 2, n - n // 2) if n < 10 else (0, 0)))\n"  # wrong on the big cases
NOTHING = "input()\nprint(-1, 0)\n"  # wrong everywhere
# the legacy format states no time limit (problemtools infers it); our side-car file, which other tools ignore, does
LIMIT = "base_time_limit: 2\n"

VALIDATOR = """
import sys
# input answer feedback_dir < output: two non-negative integers summing to the input
target = int(open(sys.argv[1]).read())
a, b = map(int, sys.stdin.read().split())
if a + b != target or min(a, b) < 0:
    open(sys.argv[3] + "/judgemessage.txt", "w").write(f"{a} + {b} is not {target}")
    sys.exit(43)
sys.exit(42)
"""


def judged(root: Path, program: Path, tmp_path: Path) -> tuple[int, dict, str]:
    out = tmp_path / f"{program.stem}.json"
    run = cli("judge", str(root), str(program), "--json", str(out), "-j", "1")
    return run.returncode, json.loads(out.read_text()) if out.exists() else {}, run.stdout + run.stderr


def verified(root: Path, json_out: Path | None = None) -> tuple[int, str]:
    run = cli("verify", str(root), "-j", "1", *(("--json", str(json_out)) if json_out is not None else ()))
    return run.returncode, run.stdout + run.stderr


@pytest.fixture(scope="module")
def subtasks(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Two subtasks worth 50 each (small: 2 cases × 25, big: 1 case × 50) under a secret/ whose grader always accepts,
    the samples ignored and the whole ranged 0 100, as an olympiad package writes it."""
    return write_files(
        tmp_path_factory.mktemp("legacy") / "halves",
        {
            "problem.yaml": "name: Halves\ntype: scoring\nvalidation: custom\n",
            "tilejudge.yaml": LIMIT,
            "data/testdata.yaml": "on_reject: continue\ngrader_flags: ignore_sample\nrange: 0 100\n",
            "data/sample/1.in": "4\n",
            "data/sample/1.ans": "2 2\n",
            "data/secret/testdata.yaml": "on_reject: continue\ngrader_flags: always_accept\n",
            "data/secret/1-small/testdata.yaml": "on_reject: break\naccept_score: 25\n",
            "data/secret/1-small/1.in": "2\n",
            "data/secret/1-small/1.ans": "1 1\n",
            "data/secret/1-small/2.in": "7\n",
            "data/secret/1-small/2.ans": "3 4\n",
            "data/secret/2-big/testdata.yaml": "on_reject: break\naccept_score: 50\n",
            "data/secret/2-big/1.in": "100\n",
            "data/secret/2-big/1.ans": "50 50\n",
            "output_validators/sums/validate.py": VALIDATOR,
            "submissions/accepted/split.py": SPLIT,
            "submissions/accepted/small_only.py": SMALL_ONLY,
            "submissions/partially_accepted/nothing.py": NOTHING,
            "submissions/partially_accepted/slow_split.py": SPLIT,
            "submissions/wrong_answer/nothing.py": NOTHING,  # secret always accepts: problemtools says "got AC"
        },
    )


@pytest.mark.slow
def test_always_accept_and_full_score_partials_verify_as_problemtools_says(subtasks: Path, tmp_path: Path) -> None:
    code, out = verified(subtasks, tmp_path / "verify.json")
    assert code == 1, out
    for name in ("accepted/split.py", "accepted/small_only.py", "partially_accepted/nothing.py"):
        assert re.search(rf"ok\s+{re.escape(name)}", out), out
    assert "accepted/small_only.py: did not attain full score (50 of 100)" in out
    assert "partially_accepted/slow_split.py: was fully accepted (100 of 100)" in out
    assert "wrong_answer/nothing.py: the legacy grader gives AC (0), expected WA" in out
    assert "4/5 submissions as expected" in out
    report = json.loads((tmp_path / "verify.json").read_text())
    assert violations(report, schema("verify-report.schema.json")) == []
    graded = {s["name"]: s["graded"] for s in report["submissions"]}
    assert graded["partially_accepted/nothing.py"] == {"verdict": "AC", "score": 0.0, "message": ""}


def test_judge_reports_the_format_verdict_beside_the_first_failing_case(subtasks: Path, tmp_path: Path) -> None:
    code, report, out = judged(subtasks, subtasks / "submissions/accepted/small_only.py", tmp_path)
    assert violations(report, schema("judge-report.schema.json")) == []
    assert report["verdict"] == "WA" and report["score"] == 50 and report["max_score"] == 100, out
    assert report["graded"] == {"verdict": "AC", "score": 50.0, "message": ""}
    assert "WA (wrong answer) on case secret/2-big/1" in out
    assert "the legacy grader gives AC (50)" in out
    _, report, _ = judged(subtasks, subtasks / "submissions/partially_accepted/nothing.py", tmp_path)
    assert report["graded"]["verdict"] == "AC" and report["score"] == 0


@pytest.fixture(scope="module")
def scorer(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One secret case scored by its validator's score.txt (the number printed, at most 100), ranged 0 100."""
    return write_files(
        tmp_path_factory.mktemp("legacy") / "guess",
        {
            "problem.yaml": "name: Guess high\ntype: scoring\nvalidation: custom score\n",
            "tilejudge.yaml": LIMIT,
            "data/testdata.yaml": "on_reject: continue\ngrader_flags: ignore_sample\n",
            "data/sample/1.in": "0\n",
            "data/sample/1.ans": "0\n",
            "data/secret/testdata.yaml": "range: 0 100\n",
            "data/secret/1.in": "0\n",
            "data/secret/1.ans": "0\n",
            "output_validators/score/score.py": """
                import sys
                said = int(sys.stdin.read().split()[0])
                open(sys.argv[3] + "/score.txt", "w").write(str(max(0, min(100, said))))
                sys.exit(42)
                """,
            "submissions/accepted/hundred.py": "input()\nprint(100)\n",
            "submissions/partially_accepted/some.py": "input()\nprint(37)\n",
        },
    )


def test_range_sets_the_maximum_and_a_partial_score_passes(scorer: Path, tmp_path: Path) -> None:
    code, report, out = judged(scorer, scorer / "submissions/partially_accepted/some.py", tmp_path)
    assert report["max_score"] == 100 and report["score"] == 37, out
    code, out = verified(scorer)
    assert code == 0, out
    assert re.search(r"ok\s+partially_accepted/some\.py", out), out


GRADER = """
import sys
# the legacy grader protocol: one "verdict score" line per result on stdin, "verdict score" on stdout; flags as args
lines = [line.split() for line in sys.stdin.read().splitlines() if line.strip()]
verdict = next((v for v, _ in lines if v != "AC"), "AC")
scores = [float(s) for _, s in lines]
if "best" in sys.argv[1:]:
    print("AC", max(scores))
elif "broken" in sys.argv[1:]:
    print("a score of", sum(scores))
elif "crash" in sys.argv[1:]:
    raise SystemExit("grader gave up: " + str(len(lines)) + " lines")
else:
    print(verdict, sum(scores))
"""


def graded_package(root: Path, secret_flags: str) -> Path:
    """secret/ holds two subtasks (40 and 60) graded by the package's own grader with ``secret_flags``."""
    return write_files(
        root,
        {
            "problem.yaml": "name: Halves graded\ntype: scoring\nvalidation: custom\n",
            "tilejudge.yaml": LIMIT,
            "data/testdata.yaml": "on_reject: continue\ngrader_flags: ignore_sample\n",
            "data/sample/1.in": "4\n",
            "data/sample/1.ans": "2 2\n",
            "data/secret/testdata.yaml": f"on_reject: continue\ngrading: custom\ngrader_flags: {secret_flags}\n",
            "data/secret/1-small/testdata.yaml": "on_reject: break\naccept_score: 40\n",
            "data/secret/1-small/1.in": "6\n",
            "data/secret/1-small/1.ans": "3 3\n",
            "data/secret/2-big/testdata.yaml": "on_reject: break\naccept_score: 60\n",
            "data/secret/2-big/1.in": "100\n",
            "data/secret/2-big/1.ans": "50 50\n",
            "output_validators/sums/validate.py": VALIDATOR,
            "graders/grader.py": GRADER,
        },
    )


@pytest.mark.slow
def test_a_custom_grader_decides_the_verdict_and_score(tmp_path: Path) -> None:
    package = graded_package(tmp_path / "best", "best")
    small, split = tmp_path / "small.py", tmp_path / "split.py"
    small.write_text(SMALL_ONLY)
    split.write_text(SPLIT)
    # the default grader would give WA with 40; this one accepts and keeps the best subtask's score
    _, report, out = judged(package, small, tmp_path)
    assert report["graded"] == {"verdict": "AC", "score": 40.0, "message": ""}, out
    assert report["score"] == 40
    _, report, out = judged(package, split, tmp_path)
    assert report["graded"] == {"verdict": "AC", "score": 60.0, "message": ""}, out
    assert report["score"] == 60 and report["max_score"] == 100
    package = graded_package(tmp_path / "broken", "broken")
    code, report, out = judged(package, small, tmp_path)
    assert report["verdict"] == "JE", out
    assert report["graded"]["verdict"] == "JE"
    assert "graders/grader.py" in report["graded"]["message"] and "verdict score" in report["graded"]["message"]
    package = graded_package(tmp_path / "crash", "crash")
    _, report, out = judged(package, small, tmp_path)
    message = report["graded"]["message"]
    assert report["verdict"] == "JE" and "grader graders/grader.py failed (exit code 1" in message, out
    assert "grader gave up: 1 lines" in message


def test_custom_grading_without_a_grader_is_refused_in_one_line(tmp_path: Path) -> None:
    package = graded_package(tmp_path / "none", "best")
    (package / "graders/grader.py").unlink()
    (package / "graders").rmdir()
    program = tmp_path / "split.py"
    program.write_text(SPLIT)
    run = cli("judge", str(package), str(program))
    assert run.returncode != 0
    assert "grading: custom" in run.stderr and "graders/" in run.stderr, run.stderr
    assert "Traceback" not in run.stderr and len(run.stderr.strip().splitlines()) == 1, run.stderr


def test_the_default_grader_tree_reads_flags_breaks_and_ranges_as_problemtools_does() -> None:
    from judge.core.legacy_grading import default_grader, grade
    from judge.core.verdicts import CaseResult
    from judge.model import GraderNode
    from judge.verdict import Verdict

    # worst_error (the default) ranks RTE before TLE before WA; first_error keeps the order; the last mode named wins
    results = [("WA", 1.0), ("TLE", 2.0), ("RTE", 3.0), ("AC", 4.0)]
    assert default_grader(results, ()) == ("RTE", 10.0)
    assert default_grader(results, ("first_error", "min")) == ("WA", 1.0)
    assert default_grader(results, ("max", "avg", "always_accept")) == ("AC", 2.5)
    assert default_grader(results, ("accept_if_any_accepted",)) == ("AC", 10.0)
    assert default_grader([("WA", 0.0), ("AC", 5.0)], ("ignore_sample",)) == ("AC", 5.0)

    def leaf(name: str, breaks: bool, cases: int, bounds: tuple[float, float] | None = None) -> GraderNode:
        keys = tuple(f"{name}/{n}" for n in range(1, cases + 1))
        return GraderNode(name, (), breaks, 10.0, 1.0, False, keys, bounds)

    def case(group: str, name: str, verdict: Verdict, score_file: tuple[str, float] | None = None) -> CaseResult:
        return CaseResult(name, group, verdict, score_file=score_file)

    secret = GraderNode(
        "secret", ("first_error",), False, 1.0, 0.0, False, (leaf("secret/a", True, 3), leaf("secret/b", False, 2))
    )
    root = GraderNode("", (), True, 1.0, 0.0, False, (secret,))
    cases = [
        case("secret/a", "1", Verdict.AC),
        case("secret/a", "2", Verdict.MLE),  # RTE in Kattis' names; break: case 3 is never read
        case("secret/a", "3", Verdict.AC),
        case("secret/b", "1", Verdict.WA),  # continue: both read, the rejected one earns reject_score
        case("secret/b", "2", Verdict.AC, ("score.txt", 7.0)),
    ]
    graded = grade(root, cases)
    assert (graded.verdict, graded.score) == ("RTE", 10 + 1 + 1 + 7)
    assert graded.folders["secret/a"] == ("RTE", 11.0) and graded.folders["secret/b"] == ("WA", 8.0)
    bounded = GraderNode("", (), True, 1.0, 0.0, False, (leaf("secret/a", True, 1, (0.0, 5.0)),))
    out = grade(bounded, [case("secret/a", "1", Verdict.AC)])
    assert out.verdict == "JE" and "secret/a: score 10 is outside its range 0 5" in out.message
