"""Verdicts of real submissions, judged end to end through the CLI.

Protects the mapping from what a program does (answers, crashes, loops,
allocates, floods stdout, fails to compile) to the verdict, the exit code and
the per-case details of the JSON report, in every supported language; and the
rules that combine cases: the overall verdict is the first failing case in
case order, a group's points need all its cases accepted, and --first-fail
stops early. All runs use the `aplusb` fixture: time 0.5 s (x3 for Python and
Java), memory 64 MiB, output 1 MiB, groups `small` (40) and `large` (60).
"""

from __future__ import annotations

import shlex
import shutil
import subprocess
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from conftest import VERDICTS, JudgeRun, JudgeRunner, program

PROBLEM = "aplusb"
CASE_NAMES = ["sample", "mixed_signs", "big1", "big2"]
CASE_GROUPS = ["small", "small", "large", "large"]
TIME_LIMIT_S = 0.5
PYTHON_TIME_FACTOR = 3
MEMORY_LIMIT_KB = 64 * 1024


def _expect_accepted(run: JudgeRun) -> None:
    """An accepted run earns every point and every case ran cleanly."""
    assert run.report["score"] == run.report["max_score"] == 100, run.describe()
    assert run.report["compile"]["ok"] is True, run.describe()
    for case in run.cases:
        assert case["exit_code"] == 0 and case["signal"] is None, run.describe()


def _expect_small_native_memory(run: JudgeRun) -> None:
    """A C++ a+b peaks at a few MB; more means the judge measured itself or the compiler."""
    _expect_accepted(run)
    for case in run.cases:
        assert 0 < case["memory_kb"] < 10 * 1024, run.describe()


def _default_wall_limit(time_limit_s: float) -> float:
    """The documented default wall limit: max(2*time, time+1), time already scaled by the factor."""
    return max(2 * time_limit_s, time_limit_s + 1)


def _expect_cpu_burnt(time_limit_s: float) -> Callable[[JudgeRun], None]:
    """A busy loop is stopped promptly, with its CPU time really measured.

    On an idle machine the CPU limit stops it first, so its time is at least
    the limit. When other work shares the two cores the wall limit may come
    first; the time must then still show a real share of CPU, so a judge that
    measures no CPU time fails. (The sleeper catches one that reports wall time.)
    Promptly means apart from the time the machine's load kept it waiting for a
    CPU (``waited``), which the wall limit does not count.
    """
    wall_limit_s = _default_wall_limit(time_limit_s)

    def check(run: JudgeRun) -> None:
        for case in run.cases:
            stopped_by_wall = case["wall_time"] >= 0.95 * wall_limit_s
            assert case["time"] >= time_limit_s or stopped_by_wall, run.describe()
            assert case["time"] >= 0.25 * time_limit_s, run.describe()
            assert case["wall_time"] - case["waited"] < 5, run.describe()

    return check


def _expect_stopped_by_wall_clock(run: JudgeRun) -> None:
    """A sleeper uses no CPU, so only the wall limit (1.5 s here) can stop it, and promptly."""
    wall_limit_s = _default_wall_limit(TIME_LIMIT_S)
    for case in run.cases:
        assert case["time"] < TIME_LIMIT_S, run.describe()
        assert 0.9 * wall_limit_s <= case["wall_time"] < 5, run.describe()


def _expect_resident_near_limit(run: JudgeRun) -> None:
    """The touching allocator really got memory: the peak reported is a good part of the limit."""
    for case in run.cases:
        assert case["memory_kb"] >= MEMORY_LIMIT_KB // 2, run.describe()


def _expect_signal(name: str) -> Callable[[JudgeRun], None]:
    """The process died of the signal `name`, reported by its name."""

    def check(run: JudgeRun) -> None:
        for case in run.cases:
            assert case["signal"] == name, run.describe()

    return check


def _expect_exit_code(code: int) -> Callable[[JudgeRun], None]:
    """The process exited on its own with status `code` (no signal)."""

    def check(run: JudgeRun) -> None:
        for case in run.cases:
            assert case["exit_code"] == code and case["signal"] is None, run.describe()

    return check


def _expect_compile_log(run: JudgeRun) -> None:
    """A compile error carries the compiler's complaint and accepts no case."""
    assert run.report["compile"]["ok"] is False, run.describe()
    assert "error" in run.report["compile"]["log"].lower(), run.describe()
    assert all(case["verdict"] != "AC" for case in run.cases), run.describe()


def _no_extra_check(run: JudgeRun) -> None:
    """The verdict, exit code and language already say everything for this program."""


VERDICT_CASES = [
    pytest.param("ac.c", "AC", "c", _expect_accepted, id="ac-c"),
    pytest.param("ac.cpp", "AC", "cpp", _expect_small_native_memory, id="ac-cpp"),
    pytest.param("ac.py", "AC", "python3", _expect_accepted, id="ac-python"),
    pytest.param("ac.java", "AC", "java", _expect_accepted, id="ac-java"),
    pytest.param("wa.c", "WA", "c", _expect_exit_code(0), id="wa-c"),
    pytest.param("wa.py", "WA", "python3", _expect_exit_code(0), id="wa-python-short-output"),
    pytest.param("pe.py", "PE", "python3", _no_extra_check, id="pe-python-one-line"),
    pytest.param("pe.c", "PE", "c", _no_extra_check, id="pe-c-blank-lines"),
    pytest.param("tle_busy.c", "TLE", "c", _expect_cpu_burnt(TIME_LIMIT_S), id="tle-c-busy"),
    pytest.param("tle_sleep.c", "TLE", "c", _expect_stopped_by_wall_clock, id="tle-c-sleep"),
    pytest.param(
        "tle_busy.py",
        "TLE",
        "python3",
        _expect_cpu_burnt(TIME_LIMIT_S * PYTHON_TIME_FACTOR),
        id="tle-python-busy",
    ),
    pytest.param("mle_touch.cpp", "MLE", "cpp", _expect_resident_near_limit, id="mle-cpp-touch"),
    pytest.param("mle_bad_alloc.cpp", "MLE", "cpp", _no_extra_check, id="mle-cpp-bad-alloc"),
    pytest.param("mle_list.py", "MLE", "python3", _no_extra_check, id="mle-python-list"),
    pytest.param("mle_oom.java", "MLE", "java", _no_extra_check, id="mle-java-oom"),
    pytest.param("ole.c", "OLE", "c", _no_extra_check, id="ole-c"),
    pytest.param("ole.py", "OLE", "python3", _no_extra_check, id="ole-python"),
    pytest.param("re_segv.c", "RE", "c", _expect_signal("SIGSEGV"), id="re-c-segv"),
    pytest.param("re_exit3.c", "RE", "c", _expect_exit_code(3), id="re-c-exit3"),
    pytest.param("re_exception.py", "RE", "python3", _expect_exit_code(1), id="re-python-exception"),
    pytest.param("re_exception.java", "RE", "java", _expect_exit_code(1), id="re-java-exception"),
    pytest.param("ce_syntax.cpp", "CE", "cpp", _expect_compile_log, id="ce-cpp"),
]


# Programs that spend a whole time or wall limit on every case. They are run
# with --first-fail, as judging the other three cases the same way would add
# seconds to the suite and nothing to what the first case shows.
STOP_EARLY = frozenset({"tle_busy.c", "tle_sleep.c", "tle_busy.py"})
# The Python busy loop runs at -j 1: at the default -j its first run may burn 1.5x its 1.5 s limit and is then run
# again alone, 3.75 s of CPU for one case; the C busy loop keeps that path, and tests/tools/test_two_limits.py its
# rules.
ONE_SLOT = frozenset({"tle_busy.py"})


@pytest.mark.parametrize(("source", "verdict", "language", "extra_check"), VERDICT_CASES)
def test_program_gets_its_verdict(
    judge: JudgeRunner,
    source: str,
    verdict: str,
    language: str,
    extra_check: Callable[[JudgeRun], None],
) -> None:
    """Every fixture program fails (or passes) every case the same way, so each case must agree."""
    stop_early = source in STOP_EARLY
    options = (["--first-fail"] if stop_early else []) + (["-j", "1"] if source in ONE_SLOT else [])
    run = judge(PROBLEM, program(source), *options)

    assert run.returncode == (0 if verdict == "AC" else 1), run.describe()
    assert run.verdict == verdict, run.describe()
    assert run.report["language"] == language, run.describe()
    if verdict != "CE":
        names = [case["name"] for case in run.cases]
        if stop_early:
            assert names and names == CASE_NAMES[: len(names)], run.describe()
        else:
            assert names == CASE_NAMES, run.describe()
        assert all(case["verdict"] == verdict for case in run.cases), run.describe()
    if verdict != "AC":
        assert run.report["score"] == 0, run.describe()
    extra_check(run)


def test_report_has_the_documented_shape(judge: JudgeRunner) -> None:
    """Other tools read the JSON report, so every documented field must be there with its type."""
    run = judge(PROBLEM, program("ac.py"))

    report = run.report
    assert report is not None, run.describe()
    assert report["verdict"] in VERDICTS
    assert report["problem"].endswith("aplusb"), run.describe()
    assert report["submission"].endswith("ac.py"), run.describe()
    assert report["max_score"] == 100
    assert isinstance(report["compile"]["ok"], bool)
    assert isinstance(report["compile"]["log"], str)
    assert [case["group"] for case in run.cases] == CASE_GROUPS
    for case in run.cases:
        _assert_case_fields(case)


def _assert_case_fields(case: dict[str, Any]) -> None:
    """Check the types of one case entry of the report."""
    assert case["verdict"] in VERDICTS
    assert isinstance(case["name"], str) and isinstance(case["group"], str)
    for key in ("time", "wall_time"):
        assert isinstance(case[key], (int, float)) and case[key] >= 0, (key, case)
    assert isinstance(case["memory_kb"], int) and case["memory_kb"] >= 0, case
    assert case["exit_code"] is None or isinstance(case["exit_code"], int), case
    assert case["signal"] is None or isinstance(case["signal"], str), case
    assert case["message"] is None or isinstance(case["message"], str), case


def test_ready_executable_is_judged_as_exe(judge: JudgeRunner, tmp_path: Path) -> None:
    """A compiled binary with no source extension is run as it is."""
    gcc = shutil.which("gcc")
    if gcc is None:
        pytest.skip("gcc is needed to build the executable")
    binary = tmp_path / "adder"
    subprocess.run([gcc, "-O2", "-o", str(binary), str(program("ac.c"))], check=True)

    run = judge(PROBLEM, binary)

    assert run.returncode == 0, run.describe()
    assert run.verdict == "AC", run.describe()
    assert run.report["language"] == "exe", run.describe()


def test_cmd_runs_a_command_line(judge: JudgeRunner) -> None:
    """--cmd judges an arbitrary command line instead of a submission file."""
    if shutil.which("python3") is None:
        pytest.skip("python3 must be on PATH for the command line")

    run = judge(PROBLEM, None, cmd=shlex.join(["python3", str(program("ac.py"))]))

    assert run.returncode == 0, run.describe()
    assert run.verdict == "AC", run.describe()
    assert [case["verdict"] for case in run.cases] == ["AC"] * len(CASE_NAMES), run.describe()


def test_cmd_wrong_answer_is_reported(judge: JudgeRunner) -> None:
    """A --cmd submission goes through the checker like any other, not just an exit-code check."""
    run = judge(PROBLEM, None, cmd=shlex.join(["python3", str(program("wa.py"))]))

    assert run.returncode == 1, run.describe()
    assert run.verdict == "WA", run.describe()


def test_lang_option_overrides_the_extension(judge: JudgeRunner, tmp_path: Path) -> None:
    """--lang lets a source with an unusual name be judged in the given language."""
    source = tmp_path / "adder.txt"
    source.write_bytes(program("ac.py").read_bytes())

    run = judge(PROBLEM, source, "--lang", "python3")

    assert run.returncode == 0, run.describe()
    assert run.verdict == "AC", run.describe()
    assert run.report["language"] == "python3", run.describe()


def test_failing_only_the_second_group_keeps_the_first_groups_points(judge: JudgeRunner) -> None:
    """32-bit sums are right on `small` and wrong on `large`: 40 of 100 points."""
    run = judge(PROBLEM, program("wa_int32.c"))

    assert run.returncode == 1, run.describe()
    assert run.verdict == "WA", run.describe()
    assert run.report["score"] == 40, run.describe()
    assert run.report["max_score"] == 100, run.describe()
    assert [case["verdict"] for case in run.cases] == ["AC", "AC", "WA", "WA"], run.describe()


def test_wrong_answer_message_points_at_the_first_difference(judge: JudgeRunner) -> None:
    """On big1 the 32-bit sum first goes wrong on line 2 (4000000000 wraps to -294967296)."""
    run = judge(PROBLEM, program("wa_int32.c"))

    message = run.case("big1")["message"] or ""
    assert "line 2" in message.lower(), run.describe()
    assert "4000000000" in message or "-294967296" in message, run.describe()


def test_overall_verdict_is_the_first_failure_in_case_order(judge: JudgeRunner) -> None:
    """big1 times out while big2 is wrong at once; big1 comes first, so the run is TLE."""
    run = judge(PROBLEM, program("mixed.c"))

    assert run.returncode == 1, run.describe()
    assert [case["verdict"] for case in run.cases] == ["AC", "AC", "TLE", "WA"], run.describe()
    assert run.verdict == "TLE", run.describe()
    assert run.report["score"] == 40, run.describe()


def test_first_fail_stops_after_the_first_failing_case(judge: JudgeRunner) -> None:
    """With one worker and --first-fail, big2 is never judged once big1 has failed."""
    run = judge(PROBLEM, program("wa_int32.c"), "--first-fail", "-j", "1")

    assert run.returncode == 1, run.describe()
    assert run.verdict == "WA", run.describe()
    assert [case["name"] for case in run.cases] == ["sample", "mixed_signs", "big1"], run.describe()
    assert [case["verdict"] for case in run.cases] == ["AC", "AC", "WA"], run.describe()


def test_first_fail_on_the_first_case_judges_one_case(judge: JudgeRunner) -> None:
    """A program wrong from the start is reported on its first case only."""
    run = judge(PROBLEM, program("wa.c"), "--first-fail", "-j", "1")

    assert run.verdict == "WA", run.describe()
    assert len(run.cases) == 1 and run.cases[0]["name"] == "sample", run.describe()
