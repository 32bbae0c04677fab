"""verify lets a Kattis submission stand that its folder describes only at the limit × the safety margin, with a
warning, as problemtools does ("OK with extra time", "sensitive to time limit").

A legacy package written here: an accepted C program that makes the inferred limit 1 s, and wrong answers that
spend CPU first. One spends about 1.3 s (TLE at 1 s, its wrong answer at 1 s × time_safety_margin 2 = 2 s), one
spins for ever (TLE at both limits). The CPU spent is the program's own (``clock()``), so load does not change the
verdicts.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import write_files

from judge.problem.formats import load
from judge.run import SlotPool, resolve_sandbox
from judge.tools.verify import verify
from judge.verdict import Verdict

ECHO = '#include <stdio.h>\nint main(void) { int n; scanf("%d", &n); printf("%d\\n", n); return 0; }\n'
SPIN_THEN_WRONG = """\
#include <stdio.h>
#include <time.h>
int main(void) {
    int n;
    if (scanf("%d", &n) != 1) return 1;
    while ((double)clock() / CLOCKS_PER_SEC < SECONDS) {}
    printf("%d\\n", n + 1);
    return 0;
}
"""


@pytest.mark.slow
def test_a_wrong_answer_that_times_out_only_at_the_limit_stands_with_a_warning(tmp_path: Path) -> None:
    root = write_files(
        tmp_path / "slowwrong",
        {
            "problem.yaml": "name: Slow wrong\n",
            "data/sample/1.in": "1\n",
            "data/sample/1.ans": "1\n",
            "data/secret/1.in": "2\n",
            "data/secret/1.ans": "2\n",
            "submissions/accepted/echo.c": ECHO,
            "submissions/wrong_answer/slow.c": "#define SECONDS 1.3\n" + SPIN_THEN_WRONG,
            "submissions/wrong_answer/endless.c": "#define SECONDS 1e9\n" + SPIN_THEN_WRONG,
        },
    )
    isolation, _ = resolve_sandbox(None)
    problem = load(root)
    with SlotPool(1, isolation, conceal=problem.folders) as pool:
        result = verify(problem, pool)
    outcomes = {o.path.name: o for o in result.outcomes}
    assert result.problem.limits.time == 1
    slow, endless = outcomes["slow.c"], outcomes["endless.c"]
    assert slow.ok and slow.report.verdict is Verdict.WA  # the report judged at 2 s is the one that stands
    assert [w for w in result.warnings if w.startswith("wrong_answer/slow.c:")] == [
        "wrong_answer/slow.c: WA as its folder says only at 1 s × time_safety_margin 2 = 2 s (TLE at 1 s): "
        "sensitive to the time limit"
    ]
    assert not endless.ok and endless.report.verdict is Verdict.TLE  # more time does not make it a wrong answer
    assert not any(w.startswith("wrong_answer/endless.c:") for w in result.warnings)
