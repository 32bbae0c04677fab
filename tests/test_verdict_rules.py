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
"""

from __future__ import annotations

import pytest

from test_hostile import (  # noqa: F401  (fixtures are found by pytest by name)
    HSUM,
    PROGRAMS,
    Hostile,
    _expect_accepted,
    _modes,
    build_caches,
    hostile,
    hostile_cases,
)

pytestmark = pytest.mark.slow


@pytest.mark.parametrize("mode", _modes(without_cgroups=True))
@pytest.mark.parametrize(("source", "marker", "signal", "not_verdict"), [
    pytest.param("hx_raise_xfsz.c", "hxraisefsz", "SIGXFSZ", "OLE", id="sigxfsz"),
    pytest.param("hx_raise_xcpu.c", "hxraisecpu", "SIGXCPU", "TLE", id="sigxcpu"),
    pytest.param("hx_raise_kill.c", "hxraisekill", "SIGKILL", "MLE", id="sigkill"),
])
def test_signal_raised_by_the_program_is_re(hostile: Hostile, mode: str, source: str, marker: str, signal: str,
                                            not_verdict: str) -> None:
    """The right answer, then a resource signal sent to itself: no limit was reached, so RE naming the signal."""
    run = hostile.run(HSUM, PROGRAMS / source, mode, marker)
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
