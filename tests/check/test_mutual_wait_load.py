"""A submission and its interactor waiting on each other is the submission's TLE, whatever the machine's load.

BAPCtools' ``boolfind`` (its interactor started by a ``run`` script) gave
``time_limit_exceeded/boolfind-test-loop.cc`` a JE at load 13 to 25 and TLE
at load 10: the submission writes queries for ever and reads no answer, the
interactor answers each one after a short pause, and once the submission is
stopped at its limit the interactor still had a pipe full of its queries to
answer. Which of the two wall limits ran out first decided the verdict.

The package here is written for this test on that model (C, started by a
``run`` script that does not ``exec``, as boolfind's does):

- ``waits.c`` reads an answer before asking anything; the interactor reads a
  query before answering anything: both wait for ever, on each other;
- ``floods.c`` asks for ever and reads nothing, as ``boolfind-test-loop.cc``;
- ``asks_once.c`` asks once and waits for the answer, against an interactor
  that computes for ever once it has read a query: the interactor alone is
  at fault, JE.

Each is judged beside 2 and 8 busy processes (started here, each
ending itself after 60 s, always stopped), in every sandbox mode this
machine has, through the relay (``judge``) and joined directly (``verify``).
The busy processes burn every CPU they are given, so they are held only
while something is judged: the packages are loaded, the programs built and
the slots made before they start.
"""

from __future__ import annotations

import contextlib
import os
import subprocess
import sys
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import pytest
from conftest import needs, top_priority, write_files

from judge.core import JudgeOptions, judge
from judge.core.judging import problem_referee
from judge.core.submission import prepare_submission
from judge.lang import Program
from judge.model import Problem
from judge.problem.formats import load
from judge.run import RunLimits, RunSpec, SlotPool, resolve_sandbox

pytestmark = [pytest.mark.slow, needs("gcc")]

INTERACTOR = r"""
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
/* input answer feedback_dir: answers "? k" with "no" after a short pause, accepts "! 7" */
static int line(char *buf, int size) {  /* one byte at a time, as an unbuffered stdio reads */
    int n = 0;
    char c;
    while (read(0, &c, 1) == 1) {
        if (c == '\n') { buf[n] = 0; return 1; }
        if (n < size - 1) buf[n++] = c;
    }
    return 0;
}
int main(int argc, char **argv) {
    char query[64], path[512];
    const struct timespec pause = {0, 100000};
    snprintf(path, sizeof path, "%s/judgemessage.txt", argv[3]);
    while (line(query, sizeof query)) {
        if (SPIN) for (;;) {}
        if (!strcmp(query, "! 7")) return 42;
        nanosleep(&pause, NULL);
        printf("no\n");
        fflush(stdout);
    }
    FILE *message = fopen(path, "w");
    if (message) fprintf(message, "no more queries\n"), fclose(message);
    return 43;
}
"""

WAITS = '#include <stdio.h>\nint main(void) { char a[8]; scanf("%7s", a); return 0; }\n'
FLOODS = '#include <stdio.h>\nint main(void) { for (;;) { printf("? 0\\n"); fflush(stdout); } }\n'
ASKS_ONCE = (
    '#include <stdio.h>\nint main(void) { char a[8]; puts("? 1"); fflush(stdout); scanf("%7s", a); return 0; }\n'
)
SUBMISSIONS = {
    "time_limit_exceeded/waits.c": WAITS,
    "time_limit_exceeded/floods.c": FLOODS,
    "wrong_answer/asks_once.c": ASKS_ONCE,
    "accepted/asks.c": '#include <stdio.h>\nint main(void) { puts("! 7"); return 0; }\n',
}

HOG = "import time\nend = time.monotonic() + 60\nwhile time.monotonic() < end: pass\n"
LOADS = (2, 8)


def _package(root: Path, spin: bool = False) -> Path:
    """The spinning interactor's package states a ``validation_time`` of 1 s, so that its CPU limit (not the default
    5 s) ends it; the waiting one keeps the default, whose wall limit is the one a mutual wait must never reach."""
    return write_files(
        root,
        {
            "problem.yaml": "problem_format_version: 2025-09\ntype: interactive\nname: Mutual wait\n"
            "limits:\n  time_limit: 0.2\n" + ("  validation_time: 1\n" if spin else ""),
            "data/secret/1.in": "7\n",
            "data/secret/1.ans": "7\n",
            "output_validator/interactor.c": INTERACTOR.replace("SPIN", "1" if spin else "0"),
            "output_validator/build": "#!/bin/sh\ncc -O2 -o jury interactor.c\n",
            "output_validator/run": '#!/bin/sh\n./jury "$@"\nexit $?\n',  # no exec: sh is the run's main process
            **{f"submissions/{name}": text for name, text in SUBMISSIONS.items()},
        },
    )


@contextlib.contextmanager
def _hogs(count: int) -> Iterator[None]:
    """``count`` busy processes while the block runs: the machine's load, not the judge's."""
    hogs = [subprocess.Popen([sys.executable, "-c", HOG]) for _ in range(count)]
    try:
        yield
    finally:
        for hog in hogs:
            hog.kill()
            hog.wait()


def _modes() -> list[str]:
    modes = []
    for mode in ("bwrap", "rlimits", "none"):
        try:
            isolation, _ = resolve_sandbox(mode)
        except Exception:  # not available here: bwrap without user namespaces, rlimits without root
            continue
        if isolation.mode == mode:
            modes.append(mode)
    return modes


@dataclass(frozen=True)
class _Judging:
    """One submission built and given a slot pool of its own in one sandbox mode, ready to be judged relayed (as
    ``judge`` judges, with transcripts) or joined directly (as ``verify``)."""

    mode: str
    relayed: bool
    name: str
    problem: Problem
    program: Program
    pool: SlotPool

    def verdict(self) -> tuple[str, str]:
        """The submission's verdict and first case's message."""
        report = judge(self.problem, self.program, self.pool, JudgeOptions(transcripts=self.relayed)).to_json()
        return report["verdict"], report["cases"][0]["message"] if report["cases"] else ""


def _ready(
    stack: contextlib.ExitStack, package: Path, ways: list[tuple[str, bool]], names: list[str]
) -> list[_Judging]:
    """Each of ``names`` built and given its own pool in each way, the pools closed with ``stack``: all this is done
    before the load starts, which then lasts only as long as the judgings themselves."""
    problem = load(package)
    ready = []
    for mode, relayed in ways:
        for name in names:
            pool = stack.enter_context(SlotPool(1, resolve_sandbox(mode)[0]))
            program = prepare_submission(problem, package / "submissions" / name, pool)
            if not ready:
                problem_referee(problem, pool)  # the interactor's build, remembered for every judging's
            ready.append(_Judging(mode, relayed, name, problem, program, pool))
    return ready


def _judged_side_by_side(judgings: list[_Judging]) -> list[tuple[str, str]]:
    """Every judging at once, each on its own thread (adding its load to the machine's)."""
    with ThreadPoolExecutor(len(judgings)) as executor:
        return list(executor.map(_Judging.verdict, judgings))


@pytest.fixture(scope="module")
def packages(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    root = tmp_path_factory.mktemp("mutual")
    return {"waits": _package(root / "waits"), "spins": _package(root / "spins", spin=True)}


def test_a_mutual_wait_is_the_submissions_tle_at_every_load(packages: dict[str, Path]) -> None:
    """Beside 2 and 8 busy processes, in every sandbox mode, relayed and direct (all of them, both submissions too,
    judged side by side, adding their own load): TLE each time for both submissions that leave the interactor
    waiting, never the JE of the interactor's wall limit."""
    names = ["time_limit_exceeded/floods.c", "time_limit_exceeded/waits.c"]
    modes = _modes()
    assert "none" in modes, modes
    ways = [(mode, relayed) for mode in modes for relayed in (True, False)]
    seen = []
    with contextlib.ExitStack() as stack:
        judgings = _ready(stack, packages["waits"], ways, names)
        for count in LOADS:
            with _hogs(count):
                got = _judged_side_by_side(judgings)
            seen += [(count, judging, verdict) for judging, verdict in zip(judgings, got)]
    assert len(seen) == len(LOADS) * len(modes) * 2 * len(names)
    for count, judging, (verdict, message) in seen:
        where = (count, judging.mode, judging.relayed, judging.name, verdict, message)
        assert verdict == "TLE", where
        assert "wall time over" in message, where


def test_an_interactor_that_spins_alone_is_a_judge_error(packages: dict[str, Path]) -> None:
    """The interactor reads the one query and computes for ever while the submission waits for its answer: its own
    fault, JE naming its limit (its CPU limit, or its wall limit counted from the submission's end), beside 2 busy
    processes (beside 8 its wall limit's stretch for load makes this take 25 s, for the same verdict)."""
    with contextlib.ExitStack() as stack:
        (judging,) = _ready(stack, packages["spins"], [("none", False)], ["wrong_answer/asks_once.c"])
        with _hogs(2):
            verdict, message = judging.verdict()
    assert verdict == "JE" and "the interactor exceeded its" in message, (verdict, message)


# The stretch test's busy processes: on one CPU, each in a session (a scheduling autogroup) of its own, at the highest
# priority both as a process and as an autogroup, so that they and the run split that CPU in equal shares whatever
# else the machine runs (the priority needs root, as CI has; without it they are only pinned, which holds on an idle
# machine); each says when it is set up, and ends itself after 60 s.
PINNED_HOG = "import sys, time\nsys.stdout.write('r')\nsys.stdout.flush()\n" + HOG
STRETCH_WALL = 1.2
STRETCH_CPU = 0.6
STRETCH_HOGS = 2  # the program's share of its CPU is a third: 1.8 s of wall time for its 0.6 s of CPU


@contextlib.contextmanager
def _pinned_hogs(count: int, cpu: int) -> Iterator[None]:
    """``count`` busy processes on ``cpu`` at the highest priority, all running when the block starts."""
    code = top_priority(cpu) + PINNED_HOG
    hogs = [
        subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, start_new_session=True)
        for _ in range(count)
    ]
    try:
        for hog in hogs:
            assert hog.stdout is not None and hog.stdout.read(1) == b"r", "a busy process did not start"
        yield
    finally:
        for hog in hogs:
            hog.kill()
            hog.wait()
            if hog.stdout is not None:
                hog.stdout.close()


def test_a_program_a_script_starts_gets_its_wall_limit_stretched_by_the_load_it_waits_in() -> None:
    """An interactor's ``run`` script that does not exec leaves the shell as the run's main process, waiting on no run
    queue while its child waits on one: the wall limit's stretch for load is the longest wait of any of the run's
    processes, so 0.6 s of CPU under a 1.2 s wall limit ends, where counting the shell alone stopped it at 1.2 s.

    The load is the test's own and fixed: the program and two busy processes share one CPU (the last: the starving
    tests' busy process takes CPU 0) at the highest priority, so the program gets a third of it, about 1.8 s of wall
    time for its 0.6 s of CPU, whatever else runs (beside 8 busy processes free to run anywhere, as before, the
    machine's own load moved the program's share under the 1/6 the stretch's cap of 3 × 1.2 s allows, and the run
    was stopped). The run raises its own autogroup's priority (the launcher's session) first, the program also its own
    priority, and takes its CPU."""
    cpu = max(os.sched_getaffinity(0))
    with SlotPool(1, resolve_sandbox("none")[0]) as pool, pool.slot() as slot, _pinned_hogs(STRETCH_HOGS, cpu):
        busy = slot.private / "busy.py"
        busy.write_text(top_priority(cpu) + f"import time\nwhile time.process_time() < {STRETCH_CPU}:\n    pass\n")
        result = slot.run(
            RunSpec(
                # the shell raises the run's autogroup at once: the program's start-up is on no CPU of its choice yet
                argv=["/bin/sh", "-c", f"echo -20 2>/dev/null >/proc/self/autogroup; {sys.executable} {busy}; exit $?"],
                limits=RunLimits(cpu=5, wall=STRETCH_WALL, memory_mib=256, output_bytes=1 << 20),
                stdout=slot.private / "out",
                stderr=slot.private / "err",
            )
        )
    assert (result.killed, result.exit_code) == ("none", 0), result
    # what makes this test: the shell's own wait (``waited``) would not have stretched the limit far enough
    assert result.wall > STRETCH_WALL + result.waited, result
