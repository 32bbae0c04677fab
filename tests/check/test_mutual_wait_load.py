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
"""

from __future__ import annotations

import contextlib
import subprocess
import sys
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from conftest import needs, write_files

from judge.core import JudgeOptions, judge
from judge.core.submission import prepare_submission
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


def _verdicts(package: Path, mode: str, names: list[str], transcripts: bool) -> dict[str, tuple[str, str]]:
    """Each submission's verdict and first case's message, judged in ``mode``: through the relay with
    ``transcripts`` (as ``judge`` judges), else joined directly (as ``verify``)."""
    problem = load(package)
    got = {}
    with SlotPool(1, resolve_sandbox(mode)[0]) as pool:
        for name in names:
            submission = prepare_submission(problem, package / "submissions" / name, pool)
            report = judge(problem, submission, pool, JudgeOptions(transcripts=transcripts)).to_json()
            got[name] = (report["verdict"], report["cases"][0]["message"] if report["cases"] else "")
    return got


@pytest.fixture(scope="module")
def packages(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    root = tmp_path_factory.mktemp("mutual")
    return {"waits": _package(root / "waits"), "spins": _package(root / "spins", spin=True)}


def test_a_mutual_wait_is_the_submissions_tle_at_every_load(packages: dict[str, Path]) -> None:
    """Beside 2 and 8 busy processes, in every sandbox mode, relayed and direct (all of them judged side by side,
    adding their own load): TLE each time for both submissions that leave the interactor waiting, never the JE of
    the interactor's wall limit."""
    names = ["time_limit_exceeded/floods.c", "time_limit_exceeded/waits.c"]
    modes = _modes()
    assert "none" in modes, modes
    ways = [(mode, relayed) for mode in modes for relayed in (True, False)]

    def judged(way: tuple[str, bool]) -> tuple[str, bool, dict[str, tuple[str, str]]]:
        mode, relayed = way
        return mode, relayed, _verdicts(packages["waits"], mode, names, relayed)

    seen = []
    for count in LOADS:
        with _hogs(count), ThreadPoolExecutor(len(ways)) as executor:
            seen += [(count, *each) for each in executor.map(judged, ways)]
    assert len(seen) == len(LOADS) * len(modes) * 2
    for count, mode, relayed, got in seen:
        verdicts = {name: verdict for name, (verdict, _) in got.items()}
        assert verdicts == dict.fromkeys(names, "TLE"), (count, mode, relayed, got)
        assert all("wall time over" in message for _, message in got.values()), (count, mode, relayed, got)


def test_an_interactor_that_spins_alone_is_a_judge_error(packages: dict[str, Path]) -> None:
    """The interactor reads the one query and computes for ever while the submission waits for its answer: its own
    fault, JE naming its limit (its CPU limit, or its wall limit counted from the submission's end), beside 2 busy
    processes (beside 8 its wall limit's stretch for load makes this take 25 s, for the same verdict)."""
    with _hogs(2):
        got = _verdicts(packages["spins"], "none", ["wrong_answer/asks_once.c"], False)
    verdict, message = got["wrong_answer/asks_once.c"]
    assert verdict == "JE" and "the interactor exceeded its" in message, got


def test_a_program_a_script_starts_gets_its_wall_limit_stretched_by_the_load_it_waits_in() -> None:
    """An interactor's ``run`` script that does not exec leaves the shell as the run's main process, waiting on no run
    queue while its child waits on one: the wall limit's stretch for load is the longest wait of any of the run's
    processes, so 0.6 s of CPU under a 1.2 s wall limit beside 8 busy processes (about 2.5 s of wall time) ends, where
    counting the shell alone stopped it at 1.2 s."""
    with SlotPool(1, resolve_sandbox("none")[0]) as pool, pool.slot() as slot, _hogs(8):
        busy = slot.private / "busy.py"
        busy.write_text("import time\nwhile time.process_time() < 0.6:\n    pass\n")
        result = slot.run(
            RunSpec(
                argv=["/bin/sh", "-c", f"{sys.executable} {busy}; exit $?"],
                limits=RunLimits(cpu=5, wall=1.2, memory_mib=256, output_bytes=1 << 20),
                stdout=slot.private / "out",
                stderr=slot.private / "err",
            )
        )
    assert (result.killed, result.exit_code) == ("none", 0), result
