"""Which results are run again alone before they stand (core/reruns.py), as rules on measured results.

The end-to-end tests (test_reruns_by_kind.py, test_verdict_rules.py, test_needless_runs.py) starve real programs with
real load; these name each rule's edge, which load reaches only by chance: a wall-clock TLE near the CPU limit of a
program that waited for most of its wall time (0.87 s of a 1 s limit after 5.12 s waiting, at load 18) was not
confirmed with extra wall time, and stood.
"""

from __future__ import annotations

import pytest

from judge.core.reruns import disturbed, starved, wall_allowance
from judge.core.verdicts import CaseResult
from judge.verdict import Verdict

LIMIT = 1.0
WALL = 2.0


def _result(verdict: Verdict, time: float, wall: float, waited: float = 0.0) -> CaseResult:
    return CaseResult("c1", "secret", verdict, time=time, wall_time=wall, waited=waited)


@pytest.mark.parametrize(
    ("time", "wall", "waited", "expected"),
    [
        pytest.param(0.001, WALL, 0.0, False, id="sleeper"),
        pytest.param(0.3, WALL, 0.1, True, id="computing"),
        pytest.param(0.01, 3 * WALL, 5.5, True, id="kept-waiting"),
        pytest.param(0.87, 3 * WALL, 5.12, True, id="near-the-limit-waiting"),
        pytest.param(0.95, WALL, 0.0, True, id="near-the-limit-computing"),
        pytest.param(1.02, 1.1, 0.0, False, id="cpu-limit"),
    ],
)
def test_a_wall_clock_tle_under_the_cpu_limit_is_confirmed_unless_the_program_slept(
    time: float, wall: float, waited: float, expected: bool
) -> None:
    assert starved(_result(Verdict.TLE, time, wall, waited), LIMIT) is expected


@pytest.mark.parametrize("verdict", [Verdict.AC, Verdict.WA, Verdict.RE])
def test_only_a_tle_is_starved(verdict: Verdict) -> None:
    assert not starved(_result(verdict, 0.5, 3 * WALL, 5.0), LIMIT)


def test_parallel_load_is_confirmed_near_the_limit_and_not_far_over_it() -> None:
    assert disturbed(_result(Verdict.AC, 0.85, 1.0), LIMIT)
    assert disturbed(_result(Verdict.TLE, 1.2, 1.3), LIMIT)
    assert not disturbed(_result(Verdict.AC, 0.5, 0.6), LIMIT)
    assert not disturbed(_result(Verdict.TLE, 1.6, 1.7), LIMIT)


def test_a_confirming_run_gets_the_wait_or_the_time_to_reach_the_limit_at_most_twice_the_wall_limit() -> None:
    # 0.9 s of CPU in 2 s reaches 1.5 times the limit in 3.33 s, 1.33 s more: the 1.8 s it waited is longer
    assert wall_allowance(_result(Verdict.TLE, 0.9, WALL, 1.8), WALL, LIMIT) == pytest.approx(1.8)
    # a program whose children computed waits for no CPU itself: 0.6 s of CPU in 2 s reaches 1.5 s in 5 s, 3 s more
    assert wall_allowance(_result(Verdict.TLE, 0.6, WALL, 0.0), WALL, LIMIT) == pytest.approx(3.0)
    assert wall_allowance(_result(Verdict.TLE, 0.01, 3 * WALL, 9.0), WALL, LIMIT) == pytest.approx(2 * WALL)
