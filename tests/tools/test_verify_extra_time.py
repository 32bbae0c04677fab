"""verify lets a Kattis submission stand that its folder describes only at the limit × the safety margin, with a
warning, as problemtools does ("OK with extra time", "sensitive to time limit").

A legacy package written here, whose limit, 0.2 s, is stated in our side-car file (the legacy format states none,
and an inferred one is at least its 1 s resolution; test_kattis.py verifies with an inferred one): an accepted C
program, and wrong answers that spend CPU first. One spends 0.26 s (TLE at 0.2 s, its wrong answer at 0.2 s ×
time_safety_margin 2 = 0.4 s), one spins for ever (TLE at both limits). The CPU spent is the program's own
(``clock()``), so load does not change the verdicts.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import write_files

from judge.problem.formats import load
from judge.run import SlotPool, resolve_sandbox
from judge.tools import kattis_time
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
LIMIT = 0.2
SIDE_CAR = {"tilejudge.yaml": f"base_time_limit: {LIMIT:g}\n"}


@pytest.mark.slow
def test_a_wrong_answer_that_times_out_only_at_the_limit_stands_with_a_warning(tmp_path: Path) -> None:
    root = write_files(
        tmp_path / "slowwrong",
        {
            "problem.yaml": "name: Slow wrong\n",
            **SIDE_CAR,
            "data/sample/1.in": "1\n",
            "data/sample/1.ans": "1\n",
            "data/secret/1.in": "2\n",
            "data/secret/1.ans": "2\n",
            "submissions/accepted/echo.c": ECHO,
            "submissions/wrong_answer/slow.c": f"#define SECONDS {1.3 * LIMIT:g}\n" + SPIN_THEN_WRONG,
            "submissions/wrong_answer/endless.c": "#define SECONDS 1e9\n" + SPIN_THEN_WRONG,
        },
    )
    isolation, _ = resolve_sandbox(None)
    problem = load(root)
    with SlotPool(1, isolation, conceal=problem.folders) as pool:
        result = verify(problem, pool)
    outcomes = {o.path.name: o for o in result.outcomes}
    assert result.problem.limits.time == LIMIT
    slow, endless = outcomes["slow.c"], outcomes["endless.c"]
    assert slow.ok and slow.report.verdict is Verdict.WA  # the report judged at 0.4 s is the one that stands
    assert [w for w in result.warnings if w.startswith("wrong_answer/slow.c:")] == [
        "wrong_answer/slow.c: WA as its folder says only at 0.2 s × time_safety_margin 2 = 0.4 s (TLE at 0.2 s): "
        "sensitive to the time limit"
    ]
    assert not endless.ok and endless.report.verdict is Verdict.TLE  # more time does not make it a wrong answer
    assert not any(w.startswith("wrong_answer/endless.c:") for w in result.warnings)


@pytest.mark.slow
def test_the_margin_check_of_a_tle_submission_runs_only_the_cases_that_did_not_end_under_the_limit(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A case that ended under the limit ends under limit × the margin too: running it again only cost time."""
    root = write_files(
        tmp_path / "slowtwo",
        {
            "problem.yaml": "name: Slow on two\n",
            **SIDE_CAR,
            "data/sample/1.in": "1\n",
            "data/sample/1.ans": "1\n",
            **{f"data/secret/{n}.{ext}": f"{v}\n" for n, v in ((1, 1), (2, 2), (3, 1)) for ext in ("in", "ans")},
            "submissions/accepted/echo.c": ECHO,
            "submissions/time_limit_exceeded/spin_on_two.c": ECHO.replace('printf("%d', 'while (n == 2) {} printf("%d'),
        },
    )
    seen: list[list[str]] = []
    real = kattis_time.judge

    def spy(problem, program, pool, options):  # type: ignore[no-untyped-def]
        if options.time == 2 * LIMIT:  # judged at limit × margin: the same problem, at another limit
            seen.append([f"{c.group}/{c.name}" for c in problem.cases])
        return real(problem, program, pool, options)

    monkeypatch.setattr(kattis_time, "judge", spy)
    isolation, _ = resolve_sandbox(None)
    problem = load(root)
    with SlotPool(1, isolation, conceal=problem.folders) as pool:
        result = verify(problem, pool)
    spin = next(o for o in result.outcomes if o.path.name == "spin_on_two.c")
    assert spin.ok and [c.verdict for c in spin.report.cases][:3] == [Verdict.AC, Verdict.AC, Verdict.TLE]
    assert seen == [["secret/2", "secret/3"]]  # sample/1 and secret/1 ended under 0.2 s: not run at 0.4 s
    assert not any("no case times out" in w for w in result.warnings)  # and secret/2 still timed out at 0.4 s
