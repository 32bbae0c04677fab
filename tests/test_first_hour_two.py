"""A newcomer's first hour, round two (issue 46, items 4 and 6 to 9): what the judge says must hold as said.

A summary that reads the same on the second judging; a reproduce line that runs as printed; usage errors that show
the usage and guess a mistyped command; skip reasons and progress that tell the truth; words in the statements and
docs that match what the judge does.
"""

from __future__ import annotations

from pathlib import Path

from conftest import cli, write_files

# wrong, and slow, on the first secret case; right and quick on every other: with -j 4 the later cases end first
SLOW_FIRST_WRONG = "import time\nn = int(input())\nif n == 1:\n    time.sleep(0.6)\n    n = -1\nprint(n)\n"


def _break_package(root: Path) -> Path:
    cases = {f"data/secret/{n}.{ext}": f"{n}\n" for n in range(1, 9) for ext in ("in", "ans")}
    return write_files(
        root,
        {
            "problem.yaml": "name: Echo\n",  # legacy pass-fail: secret stops at its first rejection (on_reject: break)
            "data/sample/1.in": "5\n",
            "data/sample/1.ans": "5\n",
            **cases,
            "submissions/accepted/right.py": "print(input())\n",
            "submissions/wrong_answer/slow_first.py": SLOW_FIRST_WRONG,
        },
    )


def _rows_and_summary(stdout: str) -> tuple[list[list[str]], str]:
    rows = [line.split()[:4] for line in stdout.splitlines() if line.split()[:1] and line.split()[0].isdigit()]
    summary = next(line for line in stdout.splitlines() if " | score " in line)
    return rows, summary


def test_the_judge_summary_and_table_do_not_depend_on_which_case_finished_first(tmp_path: Path) -> None:
    """Item 4: one at a time the later secret cases are never run; four at a time they end before the slow first one
    does. Both judgings must say the same: the verdict, "k passed, m failed, s skipped of N", the table in the cases'
    order with the same verdict on every row."""
    root = _break_package(tmp_path / "echo")
    submission = str(root / "submissions" / "wrong_answer" / "slow_first.py")
    said = []
    for jobs in ("1", "4"):
        run = cli("judge", str(root), submission, "-j", jobs)
        assert run.returncode == 1, run.stdout + run.stderr
        said.append(_rows_and_summary(run.stdout))
    (rows_one, summary_one), (rows_four, summary_four) = said
    assert [row[0] for row in rows_four] == [str(n) for n in range(1, 10)], rows_four
    assert rows_one == rows_four
    assert [row[3] for row in rows_four] == ["AC", "WA"] + ["SKIPPED"] * 7
    stable = [" | ".join(s.split(" | ")[:3]) for s in (summary_one, summary_four)]
    assert (
        stable[0] == stable[1] == "WA (wrong answer) on case secret/1 | score 0/0 | 1 passed, 1 failed, 7 skipped of 9"
    )
