"""A case starved by load is run again with extra wall time, whatever the problem's kind.

Every kind runs the submission through one step (``judge/core/evaluation.py``);
before it, the extra wall time a confirming run gets reached batch cases only,
and an interactive or multi-pass case did not even carry how long its run
waited for a CPU, so a starved one was TLE for good. Here each kind's
package (written by the test, one case, time limit 0.3 s, so wall 1.3 s) is
judged at ``-j 1`` with one C program that needs 0.2 s of CPU pinned to
CPU 0 on the first pass, while ``test_verdict_rules._Starver`` keeps that CPU
busy at the highest priority during its first run only:

- the case is AC (the unstarved verdict), its report names the first run's
  TLE and the extra wall time;
- the confirming run really got it: the judge's slot was asked for runs of
  the submission with the wall limit plus that extra (each pass of the
  multi-pass case, the submission's side of the interactive pair), seen by
  wrapping ``Slot.queue_untrusted`` (every untrusted run goes through it) of the judge running in this process.

Submit-answer cases run nothing, so they are never TLE and never run again.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest
from conftest import JudgeRunner, write_files
from test_hostile import marker_lock
from test_interactive import GUESS_VALIDATOR, MULTI_PASS_VALIDATOR
from test_verdict_rules import _Starver

from judge.run import RunSpec, Slot

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(os.geteuid() != 0, reason="taking a CPU from the program needs a priority only root may set"),
]

WALL_LIMIT = 1.3  # time_limit 0.3 s: the wall limit is that plus 1 s; the starved first run is stretched to 3 times it
# A first run that got its 0.2 s of CPU inside its stretched wall limit after all is AC at once, rightly, and shows
# nothing of a confirmation: on a busy machine the watcher in this process (the judge's threads hold its GIL) can
# start the busy process late (one fresh-clone run of the suite, multi-pass). The judging is then tried again, up to
# this many times in all, and the test still fails if no first run was ever starved into a TLE.
ATTEMPTS = 3

PROGRAM = r"""
#define _GNU_SOURCE
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <time.h>

/* 0.2 s of CPU on CPU 0, where the test's busy process takes nearly all of it during the first run */
static void work(void) {
    cpu_set_t one;
    CPU_ZERO(&one);
    CPU_SET(0, &one);
    if (sched_setaffinity(0, sizeof one, &one) != 0) return;
    struct timespec ts;
    volatile unsigned long spin = 0;
    do {
        spin++;
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    } while (ts.tv_sec + ts.tv_nsec / 1e9 < 0.2);
}

int main(void) {
    prctl(PR_SET_NAME, "MARKER");
#ifdef GUESS
    work();
    int lo = 1, hi = 100;
    char reply[32];
    for (;;) {
        int m = (lo + hi) / 2;
        printf("%d\n", m);
        fflush(stdout);
        if (scanf("%31s", reply) != 1 || !strcmp(reply, "correct")) return 0;
        if (!strcmp(reply, "lower")) hi = m - 1; else lo = m + 1;
    }
#else
    long long k;
    if (scanf("%lld", &k) != 1) return 1;
    if (k == 1) work();  /* the first pass only */
    printf("%lld\n", k * k);
    return 0;
#endif
}
"""


def _package(kind: str) -> dict[str, str]:
    head = "problem_format_version: 2025-09\nname: Starved\nlimits:\n  time_limit: 0.3\n"
    if kind == "batch":
        return {"problem.yaml": head + "type: pass-fail\n", "data/secret/1.in": "1\n", "data/secret/1.ans": "1\n"}
    if kind == "multi-pass":
        return {
            "problem.yaml": head + "  validation_passes: 2\ntype: multi-pass\n",
            "output_validator/validate.py": MULTI_PASS_VALIDATOR,
            "data/secret/1.in": "1\n",
            "data/secret/1.ans": "\n",
            "data/secret/1.yaml": "output_validator_args: ['2']\n",
        }
    return {
        "problem.yaml": head + "type: pass-fail interactive\n",
        "output_validator/validate.py": GUESS_VALIDATOR,
        "data/secret/1.in": "37\n",
        "data/secret/1.ans": "\n",
    }


@pytest.mark.parametrize(
    ("kind", "marker", "runs"),
    [("batch", "hxrerunbatch", 1), ("multi-pass", "hxrerunpass", 2), ("interactive", "hxrerunguess", 1)],
)
def test_a_starved_case_is_run_again_with_extra_wall_time(
    judge: JudgeRunner, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, kind: str, marker: str, runs: int
) -> None:
    """Starved on its first run, the case is confirmed by ``runs`` runs of the submission given the extra wall time
    its report names, and is AC."""
    source = tmp_path / "starved.c"
    source.write_text(PROGRAM.replace("MARKER", marker).replace("#ifdef GUESS", f"#if {int(kind == 'interactive')}"))
    package = write_files(tmp_path / kind, _package(kind))
    walls: list[float] = []
    queue_untrusted = Slot.queue_untrusted

    def watched(slot: Slot, spec: RunSpec, binds: object) -> None:
        walls.append(spec.limits.wall)
        queue_untrusted(slot, spec, binds)  # type: ignore[arg-type]

    monkeypatch.setattr(Slot, "queue_untrusted", watched)
    for _attempt in range(ATTEMPTS):
        walls.clear()
        with marker_lock(marker), _Starver(marker) as starver:
            run = judge(package, source, "-j", "1")
        assert starver.hogged, run.describe()
        case = run.case("1")
        assert case["verdict"] == "AC", run.describe()
        if case.get("confirmation"):
            break  # the first run was starved into a TLE: what this test is about
    note = re.fullmatch(
        r"first run: TLE after [\d.]+ s of wall time, [\d.]+ s of CPU, [\d.]+ s waiting for a CPU, load average .*; "
        r"confirmed by a run alone with ([\d.]+) s more wall time, load average .*",
        case["confirmation"],
    )
    assert note is not None, run.describe()
    extra = float(note.group(1))
    assert extra > 0, run.describe()
    given = [wall for wall in walls if abs(wall - (WALL_LIMIT + extra)) <= 0.006]
    assert len(given) == runs, f"walls asked for: {walls}\n{run.describe()}"
