"""A compile's ending names the limit that ended it, and a compile the machine's load starved is compiled again.

The rule (judge/lang/compiling.py) is read here on a slot that hands back chosen run results, so each edge is named
without loading the machine: stopped by the clock after the launcher stretched its wall limit (it waited for a CPU)
it gets a second try with twice the wall time; stopped by the clock at the limit itself (a compiler that blocks)
it does not; the CPU limit keeps its own message. A compiler that really blocks is then judged end to end, under the
real launcher: CE, one try, a message that names the wall clock and not the CPU limit.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from judge.lang import prepare_program
from judge.lang.compiling import STARVED_WALL_FACTOR, Compiled, compile_limits, compile_step
from judge.lang.language import Language
from judge.run import Isolation, RunResult, RunSpec, SlotPool

LANG = Language(name="sleepy", run=("true",), extensions=(".zz",), compile=(("sleep", "30"),))
COMPILE_TIME = 4.0
LIMITS = compile_limits(COMPILE_TIME, LANG)  # wall 13 s


@dataclass
class ScriptedSlot:
    """A slot whose runs end as told, one result a run, and that keeps the limits each run was given."""

    results: list[RunResult]
    given: list[RunSpec] = field(default_factory=list)
    uid: int | None = None

    def run_untrusted(self, spec: RunSpec, binds: object) -> RunResult:
        self.given.append(spec)
        return self.results.pop(0)


def _ended(killed: str = "none", cpu: float = 1.0, wall: float = 2.0, code: int | None = 0) -> RunResult:
    return RunResult(exit_code=code, signal=None, cpu=cpu, wall=wall, memory_kb=1000, killed=killed)


def _compiled(tmp_path: Path, *results: RunResult) -> tuple[Compiled, list[RunSpec]]:
    slot = ScriptedSlot(list(results))
    spec = RunSpec(argv=["cc"], limits=LIMITS, stdout=tmp_path / "out", stderr=tmp_path / "err", cwd=tmp_path)
    return compile_step(spec, [], slot, LANG), slot.given  # type: ignore[arg-type]


def test_a_starved_compile_is_compiled_again_with_twice_the_wall_time(tmp_path: Path) -> None:
    """Stopped by the clock at 2.5 x its wall limit (the launcher stretched it: it waited) with 1.2 s of its 4 s CPU."""
    done, given = _compiled(tmp_path, _ended("wall", cpu=1.2, wall=2.5 * LIMITS.wall), _ended())
    assert done.ok and done.lasting
    assert [s.limits.wall for s in given] == [LIMITS.wall, STARVED_WALL_FACTOR * LIMITS.wall]
    assert [s.limits.cpu for s in given] == [COMPILE_TIME, COMPILE_TIME]  # the CPU limit is the source's, unchanged


def test_starved_twice_is_ce_saying_the_machine_was_busy_and_not_remembered(tmp_path: Path) -> None:
    starved = _ended("wall", cpu=0.9, wall=3 * LIMITS.wall)
    done, given = _compiled(tmp_path, starved, starved)
    assert len(given) == 2 and not done.ok and not done.lasting
    assert "too busy" in done.log and f"the limit is {COMPILE_TIME:g} s" in done.log
    assert "exceeded" not in done.log


@pytest.mark.parametrize(
    ("ending", "says"),
    [
        (_ended("wall", cpu=0.01, wall=LIMITS.wall + 0.01), "wall-clock limit"),  # blocked: not stretched
        (_ended("wall", cpu=COMPILE_TIME, wall=3 * LIMITS.wall), "wall-clock limit"),  # its CPU used up: not starved
        (_ended("cpu", cpu=COMPILE_TIME, wall=COMPILE_TIME + 0.1), f"exceeded the {COMPILE_TIME:g} s limit"),
    ],
    ids=["blocked", "cpu-spent", "cpu-limit"],
)
def test_other_stops_get_one_try_and_name_their_limit(tmp_path: Path, ending: RunResult, says: str) -> None:
    done, given = _compiled(tmp_path, ending)
    assert len(given) == 1 and not done.ok and not done.lasting
    assert says in done.log, done.log


@pytest.mark.slow  # it waits out a 5.1 s wall limit
def test_a_compiler_that_blocks_is_ce_at_its_wall_limit_in_one_try(tmp_path: Path) -> None:
    """`sleep 30` as the compiler, a 0.05 s compile limit: its wall limit is 5.1 s, it used no CPU, it was never
    runnable, so no second try (which would take 10.2 s more) and the message names the wall clock."""
    source = tmp_path / "main.zz"
    source.write_text(f"{time.time_ns()}\n")  # a source never built before: the build cache cannot answer
    started = time.monotonic()
    with SlotPool(1, Isolation("none")) as pool:
        program = prepare_program(source, LANG, pool, 0.05)
    took = time.monotonic() - started
    assert not program.compiled and "5.1 s wall-clock limit" in program.compile_log, program.compile_log
    assert "waited, not computed" in program.compile_log
    assert took < 5.1 * STARVED_WALL_FACTOR, f"a second try ran: {took:.1f} s"
