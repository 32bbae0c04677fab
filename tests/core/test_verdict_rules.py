"""Verdicts from measurements, not from signals: real programs judged end to end, in every sandbox mode.

Same harness and `hsum` problem as test_hostile.py (time 1 s, wall 2 s,
memory 64 MiB, output 1 MiB; cases c1, c2, c3; each program misbehaves on c1
only and answers c2 and c3, which must stay AC).

- A program that prints the right answer and then raises SIGXFSZ, SIGXCPU or
  SIGKILL itself reached no limit: RE naming the signal, never OLE, TLE or
  MLE.
- The output limit is for stdout and stderr: a correct program keeping 2 MiB
  in a scratch file (and writing 1,000,000 bytes to stderr) is AC; stdout past
  the limit is still OLE (test_hostile.py's floods), and the judge never holds
  more than the limit of it.
- A wall-clock TLE with CPU time well under the limit is confirmed by a run
  alone at every -j, -j 1 included: a correct program kept from its CPU by a
  busy process of higher priority during its first run (the test's own load,
  not the machine's) is AC, and the report names the first run and the load
  average at both. A sleeper is TLE at the wall limit and never run again.
  These two run until a wall limit stops them: on copies of hsum whose wall
  limit is shorter (test_hostile.py's hsum_short_wall and hsum_quick).
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from harness import top_priority
from test_hostile import (  # noqa: F401  (fixtures are found by pytest by name)
    HSUM,
    PROGRAMS,
    QUICK_WALL_LIMIT_S,
    Hostile,
    _expect_accepted,
    _from_template,
    _modes,
    _processes_marked,
    build_caches,
    hostile,
    hostile_references,
    hsum_quick,
    hsum_short_wall,
)

pytestmark = pytest.mark.slow


@pytest.mark.parametrize("mode", _modes(without_cgroups=True))
@pytest.mark.parametrize(
    ("signal", "not_verdict"),
    [
        pytest.param("SIGXFSZ", "OLE", id="sigxfsz"),
        pytest.param("SIGXCPU", "TLE", id="sigxcpu"),
        pytest.param("SIGKILL", "MLE", id="sigkill"),
    ],
)
def test_signal_raised_by_the_program_is_re(
    hostile: Hostile, tmp_path: Path, mode: str, signal: str, not_verdict: str
) -> None:
    """The right answer, then a resource signal sent to itself: no limit was reached, so RE naming the signal."""
    marker = f"hxraise{signal[3:].lower()}"
    source = _from_template("hx_raise_signal.c", tmp_path, SIGNAL=signal, NAME=marker)
    run = hostile.run(HSUM, source, mode, marker)
    _expect_accepted(run, ["c2", "c3"])
    case = run.case("c1")
    assert case["verdict"] == "RE" and case["signal"] == signal, run.describe()
    assert signal in case["message"] and not_verdict != case["verdict"], run.describe()
    assert case["time"] < 0.5 and case["memory_kb"] < 32 * 1024, run.describe()


@pytest.mark.parametrize("mode", _modes(without_cgroups=True))
def test_scratch_file_over_the_output_limit_is_accepted(hostile: Hostile, mode: str) -> None:
    """2 MiB in a temporary file under a 1 MiB output limit, and 1,000,000 bytes on stderr: AC on every case."""
    run = hostile.run(HSUM, PROGRAMS / "hx_scratch_file.c", mode, "hxscratch")
    _expect_accepted(run, ["c1", "c2", "c3"])


class _Starver:
    """While the first run of a program marked `marker` lives, a busy process of the highest priority on CPU 0 (where
    the program pins itself) takes nearly all of that CPU; it stops as soon as that run's processes have ended, so
    the run confirming it meets only the machine's own load. Bounded: the busy process ends itself after 20 s."""

    # its own session at the highest priority, also as a scheduling autogroup (which would otherwise share the CPU
    # between sessions equally, whatever their processes' nice values)
    # started ahead and set up, then held on its stdin until the program appears: a Python start-up on a busy
    # machine can take longer than the program's whole 0.3 s of CPU, and would let it finish unstarved
    HOG = (
        top_priority(0)
        + "import sys, time\nsys.stdin.read(1)\nend = time.monotonic() + 20\nwhile time.monotonic() < end: pass\n"
    )

    def __init__(self, marker: str) -> None:
        self._marker = marker
        self._done = threading.Event()
        self._thread = threading.Thread(target=self._watch, daemon=True)
        self.hogged = False

    def _watch(self) -> None:
        hog = subprocess.Popen([sys.executable, "-c", self.HOG], stdin=subprocess.PIPE, start_new_session=True)
        assert hog.stdin is not None
        try:
            deadline = time.monotonic() + 60
            while not (first := set(_processes_marked(self._marker))):
                if self._done.is_set() or time.monotonic() > deadline:
                    return
                time.sleep(0.002)
            hog.stdin.write(b"g")
            hog.stdin.flush()
            self.hogged = True
            # the first run's own processes, by pid: the run confirming it starts at once after it (a launcher makes
            # the next run's namespaces ahead), sooner than this thread may notice the gap on a loaded machine
            while first & set(_processes_marked(self._marker)) and not self._done.is_set():
                time.sleep(0.005)
        finally:
            hog.kill()
            hog.wait()
            hog.stdin.close()

    def __enter__(self) -> _Starver:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._done.set()
        self._thread.join()


@pytest.mark.skipif(os.geteuid() != 0, reason="taking a CPU from the program needs a priority only root may set")
@pytest.mark.parametrize("mode", _modes())
def test_load_starved_program_is_confirmed_at_j1(hostile: Hostile, hsum_short_wall: Path, mode: str) -> None:
    """At -j 1, a correct program kept from the CPU by another process reaches the wall limit with little CPU time: the
    case is run again alone before the TLE could stand, and is AC; the report keeps the first run and the load. On
    hsum_short_wall (wall 0.6 s): the starved run is stretched to 1.8 s, not hsum's 6 s, before the clock stops
    it."""
    starver = _Starver("hxstarved")
    run = hostile.run(hsum_short_wall, PROGRAMS / "hx_starved.c", mode, "hxstarved", jobs=1, beside=starver)
    assert starver.hogged, run.describe()
    _expect_accepted(run, ["c1", "c2", "c3"])
    note = run.case("c1")["confirmation"]
    assert re.search(
        r"first run: TLE after [\d.]+ s of wall time, [\d.]+ s of CPU, [\d.]+ s waiting for a CPU, load average", note
    ), run.describe()
    assert note.count("load average") == 2, run.describe()


@pytest.mark.parametrize("mode", _modes())
def test_sleeper_is_not_run_again_at_j1(hostile: Hostile, hsum_quick: Path, mode: str) -> None:
    """A program sleeping for ever uses no CPU and waits for none: TLE at the wall limit (hsum_quick's 1.2 s), at
    once, never confirmed."""
    run = hostile.run(hsum_quick, PROGRAMS / "sleep_forever.c", mode, "hxsleep", jobs=1)
    _expect_accepted(run, ["c2", "c3"])
    case = run.case("c1")
    assert case["verdict"] == "TLE" and case["confirmation"] == "" and case["waited"] < 0.5, run.describe()
    assert case["wall_time"] < QUICK_WALL_LIMIT_S + 1, run.describe()
