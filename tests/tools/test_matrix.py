"""The test-strength matrix: who rejects whom, the smallest rejecting set, and ``verify --matrix`` end to end.

The cover search is checked on hand-made grids whose optimum is known
(one built so that greedy is one case worse) and against brute force on
small random grids; the end-to-end test writes a tiny Kattis package whose
matrix is worked out by hand in ``SUM_PACKAGE``'s comment and lets the
judge compile and run its submissions on every case.
"""

from __future__ import annotations

import itertools
import operator
import re
import textwrap
from functools import reduce
from pathlib import Path

import pytest
from conftest import cli
from hypothesis import given
from hypothesis import strategies as st

from judge.core import CaseResult, JudgeReport
from judge.errors import JudgeError
from judge.problem.formats import load
from judge.tools.matrix import Row, analyse, smallest_cover
from judge.tools.matrix_render import letter, to_html, to_text
from judge.tools.verify import Expectation, Outcome, strength
from judge.verdict import Verdict

AC, WA, TLE, RE = Verdict.AC, Verdict.WA, Verdict.TLE, Verdict.RE


def bits(*members: int) -> int:
    return sum(1 << m for m in members)


# Fourteen submissions; cases 3 and 4 reject seven each and together all. Case 0 rejects eight, so greedy takes it
# first and then needs cases 1 and 2 as well: greedy 3, optimum 2.
GREEDY_TRAP = [bits(0, 1, 2, 3, 7, 8, 9, 10), bits(4, 5, 11, 12), bits(6, 13), bits(*range(7)), bits(*range(7, 14))]


def test_exact_search_beats_greedy_and_proves_it() -> None:
    cover = smallest_cover(GREEDY_TRAP)
    assert cover.cases == (3, 4) and cover.optimal
    assert cover.method.startswith("exact")


def test_spent_budget_falls_back_to_greedy_and_says_so() -> None:
    cover = smallest_cover(GREEDY_TRAP, budget=0)
    assert cover.cases == (0, 1, 2) and not cover.optimal
    assert "greedy (3 cases)" in cover.method and "not proven smallest" in cover.method


def test_equal_cases_tie_to_the_earlier_and_nothing_to_reject_needs_no_case() -> None:
    assert smallest_cover([0, bits(0, 1), bits(1), bits(0, 1)]).cases == (1,)
    assert smallest_cover([0, 0]).cases == () and smallest_cover([]).optimal


@given(st.lists(st.integers(min_value=0, max_value=(1 << 7) - 1), max_size=9))
def test_cover_is_as_small_as_brute_force(masks: list[int]) -> None:
    def union(picked: tuple[int, ...]) -> int:
        return reduce(operator.or_, (masks[j] for j in picked), 0)

    target = union(tuple(range(len(masks))))
    cover = smallest_cover(masks)
    assert union(cover.cases) == target and cover.optimal
    fewest = next(
        size
        for size in range(len(masks) + 1)
        if any(union(pick) == target for pick in itertools.combinations(range(len(masks)), size))
    )
    assert len(cover.cases) == fewest


def row(name: str, expected: Verdict, cells: str) -> Row:
    """A row from a cell string: '.' AC, 'W' WA, 'T' TLE, 'R' RE; a '-' string is a program that did not compile."""
    if cells == "-":
        return Row(name, expected.value, expected is not AC, None, (False,) * 5)
    verdicts = tuple({".": AC, "W": WA, "T": TLE, "R": RE}[c] for c in cells)
    return Row(
        name,
        expected.value,
        expected is not AC,
        verdicts,
        tuple(expected is not AC and v is expected for v in verdicts),
    )


CASES = ["sample/s1", "main/a", "main/b", "main/c", "main/d"]
GRID = [
    row("accepted/ok.cpp", AC, "....."),
    row("wrong_answer/two.cpp", WA, ".W.W."),  # rejected by a and c
    row("time_limit_exceeded/slow.cpp", TLE, ".W.T."),  # the WA on a does not reject a TLE submission: only c does
    row("wrong_answer/crashy.cpp", WA, "...RW"),  # the RE on c does not count: only d rejects it
    row("wrong_answer/lucky.cpp", WA, "R...."),  # fails only another way: rejected by no case
    row("wrong_answer/broken.cpp", WA, "-"),
]


def test_analysis_of_a_hand_made_grid() -> None:
    m = analyse(CASES, GRID)
    assert m.caught_by == ((), (1, 3), (3,), (4,), (), ())
    assert m.idle == (0, 2) and m.uncaught == (4,) and m.unjudged == (5,)
    assert m.single == (2, 3)
    assert m.sole == ((), (), (), (2,), (3,))
    assert m.cover.cases == (3, 4) and m.cover.optimal
    assert m.catches(3) == (1, 2)


def test_rows_must_fit_the_cases() -> None:
    with pytest.raises(ValueError, match="3 cells for 5 cases"):
        analyse(CASES, [Row("x", "WA", True, None, (False,) * 3)])


def test_text_marks_the_cover_and_tells_rejections_from_other_failures() -> None:
    text = to_text(analyse(CASES, GRID), "toy")
    lines = {}
    for line in text.splitlines():
        cells = line.split()
        if len(cells) > 3 and "main" in cells[1:3]:
            lines[cells[cells.index("main") - 1]] = line
    assert lines["c"].startswith("*") and lines["d"].startswith("*") and not lines["a"].startswith("*")
    assert lines["c"].split()[3:9] == [".", "WA", "TLE", "re", ".", "-"]
    assert "cases rejecting no wrong submission (2): sample/s1, main/b" in text
    assert (
        "wrong submissions rejected by a single case (2): time_limit_exceeded/slow.cpp (only main/c), "
        "wrong_answer/crashy.cpp (only main/d)" in text
    )
    assert "wrong submissions no case rejects (1): wrong_answer/lucky.cpp" in text
    assert "smallest rejecting set: 2 of 5 cases, proven smallest" in text


def test_page_escapes_names_and_loads_nothing() -> None:
    hostile = [
        Row("wrong_answer/<script>alert(1)</script>\x1b[2J.py", "WA", True, (WA,) + (AC,) * 4, (True,) + (False,) * 4)
    ]
    page = to_html(analyse(["g/<b>x", "g/b", "g/c", "g/d", "g/e"], hostile), "p&q", "T <i>")
    assert "<script" not in page and "&lt;script&gt;" in page and "\x1b" not in page and "\\x1b[2J" in page
    assert "&lt;b&gt;x" in page and "p&amp;q" in page and "T &lt;i&gt;" in page
    assert not re.search(r"(src|href)\s*=|@import|url\(", page)


@pytest.mark.parametrize(("index", "name"), [(0, "A"), (25, "Z"), (26, "AA"), (27, "AB"), (701, "ZZ"), (702, "AAA")])
def test_column_letters(index: int, name: str) -> None:
    assert letter(index) == name


# Sum of the integers on a line. Which case rejects whom (cases in Kattis order: sample/1, then secret/ by name):
#   absolute.py (WA)       only 2-negative              no_negatives.py (RTE)  only 2-negative
#   int32.c (WA)           3-big, 5-bigger              two_only.py (WA)       4-many, 5-bigger
#   slow_big.py (TLE)      3-big, 5-bigger; its wrong answer on 4-many does not count
# sample/1 and 1-small reject nothing; the smallest rejecting set is {2-negative, 5-bigger}.
SUM_PACKAGE = {
    "problem.yaml": (
        "problem_format_version: 2025-09\nname: Sum\nuuid: 5b0c1d2e-3f40-4a5b-8c6d-7e8f90a1b2c3\n"
        "limits:\n  time_limit: 0.5\n"
    ),
    "data/sample/1.in": "1 2\n",
    "data/sample/1.ans": "3\n",
    "data/secret/1-small.in": "5 7\n",
    "data/secret/1-small.ans": "12\n",
    "data/secret/2-negative.in": "-4 1\n",
    "data/secret/2-negative.ans": "-3\n",
    "data/secret/3-big.in": "3000000000 3000000000\n",
    "data/secret/3-big.ans": "6000000000\n",
    "data/secret/4-many.in": "1 1 1 1 1\n",
    "data/secret/4-many.ans": "5\n",
    "data/secret/5-bigger.in": "2000000000 2000000000 1\n",
    "data/secret/5-bigger.ans": "4000000001\n",
    "submissions/accepted/sum.py": "import sys\nprint(sum(map(int, sys.stdin.read().split())))\n",
    "submissions/wrong_answer/two_only.py": "import sys\nprint(sum(list(map(int, sys.stdin.read().split()))[:2]))\n",
    "submissions/wrong_answer/absolute.py": "import sys\nprint(sum(abs(int(t)) for t in sys.stdin.read().split()))\n",
    "submissions/wrong_answer/int32.c": (
        "#include <stdio.h>\n"
        'int main(void){long long x;int s=0;while(scanf("%lld",&x)==1)s+=x;printf("%d\\n",s);return 0;}\n'
    ),
    "submissions/run_time_error/no_negatives.py": (
        "import sys\nnums = list(map(int, sys.stdin.read().split()))\nif min(nums) < 0:\n    sys.exit(3)\n"
        "print(sum(nums))\n"
    ),
    "submissions/time_limit_exceeded/slow_big.py": textwrap.dedent("""\
        import sys
        nums = list(map(int, sys.stdin.read().split()))
        while max(nums) > 10**9:
            pass
        print(sum(nums) + (len(nums) > 2))
        """),
}


@pytest.fixture
def sum_package(tmp_path: Path) -> Path:
    root = tmp_path / "sum"
    for name, text in SUM_PACKAGE.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text)
    return root


def test_kattis_folders_decide_what_rejects_and_skipped_cases_stop_the_matrix(sum_package: Path) -> None:
    problem = load(sum_package, "sum")
    keys = [case.key for case in problem.cases]
    verdicts = [AC, AC, Verdict.MLE, TLE, WA, AC]

    def outcome(folder: str, judged: int) -> Outcome:
        cases = [
            CaseResult(name=k.rpartition("/")[2], group=k.rpartition("/")[0], verdict=v) for k, v in zip(keys, verdicts)
        ][:judged]
        report = JudgeReport("sum", folder, "python3", True, "", cases=cases, verdict=Verdict.MLE)
        return Outcome(sum_package / "submissions" / folder / "x.py", Expectation.kattis(folder), report)

    m = strength(problem, [outcome("run_time_error", 6), outcome("rejected", 6), outcome("time_limit_exceeded", 6)])
    assert m.caught_by == ((2,), (2, 3, 4), (3,))  # MLE counts as a run-time error, as Kattis counts it
    # verify's rule stops at the first failure, as Kattis judging does, even when every case ran: the TLE and WA after
    # the run-time error do not matter, the run-time error before any TLE does
    assert outcome("run_time_error", 6).ok and not outcome("time_limit_exceeded", 6).ok
    with pytest.raises(JudgeError, match=r"3 case\(s\) not judged \(first secret/3-big\)"):
        strength(problem, [outcome("run_time_error", 3)])
    verdicts[4] = Verdict.SKIPPED  # as grading leaves a case of a lost group
    with pytest.raises(JudgeError, match=r"1 case\(s\) not judged \(first secret/4-many\)"):
        strength(problem, [outcome("run_time_error", 6)])


@pytest.mark.slow  # verifies a whole package
def test_verify_matrix_on_a_kattis_package(sum_package: Path, tmp_path: Path) -> None:
    page = tmp_path / "out" / "sum.html"
    run = cli("verify", str(sum_package), "--html", str(page), "-j", "2")
    assert run.returncode == 0, run.stdout + run.stderr
    assert "6/6 submissions as expected" in run.stdout
    legend = dict(re.findall(r"^  ([A-F])  (\S+)", run.stdout, re.M))
    assert legend == {
        "A": "accepted/sum.py",
        "B": "run_time_error/no_negatives.py",
        "C": "time_limit_exceeded/slow_big.py",
        "D": "wrong_answer/absolute.py",
        "E": "wrong_answer/int32.c",
        "F": "wrong_answer/two_only.py",
    }
    grid = {}
    for line in run.stdout.splitlines():
        cells = line.split()
        marked = bool(cells) and cells[0] == "*"
        cells = cells[1:] if marked else cells
        if len(cells) >= 9 and cells[1] in ("sample", "secret"):
            grid[cells[0]] = (marked, cells[2:8], cells[8], cells[9:])
    assert grid == {
        "1": (False, [".", ".", ".", ".", ".", "."], "0", []),
        "1-small": (False, [".", ".", ".", ".", ".", "."], "0", []),
        "2-negative": (True, [".", "RE", ".", "WA", ".", "."], "2", ["B", "D"]),
        "3-big": (False, [".", ".", "TLE", ".", "WA", "."], "2", []),
        "4-many": (False, [".", ".", "wa", ".", ".", "WA"], "1", []),
        "5-bigger": (True, [".", ".", "TLE", ".", "WA", "WA"], "3", []),
    }
    assert "cases rejecting no wrong submission (2): sample/1, secret/1-small" in run.stdout
    assert "smallest rejecting set: 2 of 6 cases, proven smallest" in run.stdout
    html = page.read_text()
    assert (
        html.startswith("<!DOCTYPE html>") and "Test strength: sum" in html and html.count("<td class='c catch'") == 8
    )


def test_html_into_a_folder_is_a_one_line_error(tmp_path: Path) -> None:
    run = cli("verify", "slide", "--html", str(tmp_path))
    assert run.returncode == 2
    assert run.stderr.strip() == f"error: {tmp_path}: is a folder; --html needs a file name"
