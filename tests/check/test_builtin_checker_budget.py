"""The built-in checkers stay linear whatever a submission prints, and a CPU budget ends one that does not in JE.

They run inside the judge's own process, where no kernel limit stops them. Before
issue 34 the float checker's number pattern backtracked quadratically: a token of
16,000 digits and a letter took 19 s of CPU time, so a 1 MB token would have held
the judge for about a day. Here every built-in comparison is fed 1 MB outputs built
to make a parser work (long runs of digits before a letter, many exponents, signs
and points, huge runs of white space, half a million bad tokens) and must give the
right verdict within a few times the CPU time of a benign comparison of the same
size, measured in the same test: thread CPU time, the least of a few runs, so
neither load nor a core shared with other tests decides. A quadratic comparison
would take thousands of times longer; ``_cpu_guard`` makes such a regression fail
after a minute of CPU time instead of hanging the suite.
"""

from __future__ import annotations

import signal
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from conftest import JudgeRunner

from judge.check import (
    BuiltinChecker,
    CheckOutcome,
    budget,
    compare_exact,
    compare_floats,
    compare_kattis_default,
    compare_lines,
    compare_tokens,
)
from judge.check.budget import BudgetExceeded, cpu_budget
from judge.verdict import Verdict

M = 1 << 20
ANSWER = b"1.0\n2\n"
RATIO = 5  # an adversarial 1 MB output may cost this many benign 1 MB float comparisons
REPEATS = 2

Compare = Callable[[bytes, bytes], CheckOutcome]

CHECKERS: dict[str, Compare] = {
    "exact": compare_exact,
    "lines": compare_lines,
    "tokens": compare_tokens,
    "tokens-case-insensitive": lambda o, a: compare_tokens(o, a, case_sensitive=False),
    "float": lambda o, a: compare_floats(o, a, abs_tol=1e-6, rel_tol=1e-6),
    "kattis-default": lambda o, a: compare_kattis_default(o, a, []),
    "kattis-float": lambda o, a: compare_kattis_default(o, a, ["float_tolerance", "1e-6"]),
    "kattis-space": lambda o, a: compare_kattis_default(o, a, ["space_change_sensitive", "case_sensitive"]),
}

NUMERIC = {"float", "kattis-float"}
FORGIVE_SPACE = {"tokens", "tokens-case-insensitive", "float", "kattis-default", "kattis-float"}

# output -> the checkers that accept it (AC) or call it PE; every other checker must say WA
ADVERSARIAL: dict[str, tuple[bytes, dict[str, str]]] = {
    "digits-then-letter": (b"1" * M + b"x", {}),
    "point-digits-then-letter": (b"1." + b"0" * M + b"x\n2\n", {}),
    "exponent-digits-then-letter": (b"1e" + b"0" * M + b"x\n2\n", {}),
    "long-number": (b"1." + b"0" * M + b"\n2\n", dict.fromkeys(NUMERIC, "AC")),
    "long-exponent": (b"0.1e" + b"0" * M + b"1\n2\n", dict.fromkeys(NUMERIC, "AC")),
    "many-exponents": (b"1e" * (M // 2), {}),
    "signs-points-exponents": (b"+-.e" * (M // 4), {}),
    "white-space-run": (b"1.0" + b" \t\r\n" * (M // 4) + b"2\n", {**dict.fromkeys(FORGIVE_SPACE, "AC"), "lines": "PE"}),
    "many-bad-tokens": (b"1x " * (M // 3), {}),
    "newlines-only": (b"\n" * M, {}),
}


@contextmanager
def _cpu_guard(seconds: float = 60.0) -> Iterator[None]:
    """Fail instead of hanging when the body spends ``seconds`` of CPU time (SIGPROF interrupts even a regular
    expression, which checks for signals as it runs)."""

    def stop(signum: int, frame: object) -> None:
        raise TimeoutError(f"more than {seconds:g} s of CPU time: a comparison is not linear")

    previous = signal.signal(signal.SIGPROF, stop)
    signal.setitimer(signal.ITIMER_PROF, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_PROF, 0)
        signal.signal(signal.SIGPROF, previous)


def _cpu(compare: Compare, output: bytes, answer: bytes) -> tuple[float, CheckOutcome]:
    """The least thread CPU time of ``REPEATS`` runs, and the outcome."""
    best = float("inf")
    for _ in range(REPEATS):
        started = time.thread_time()
        outcome = compare(output, answer)
        best = min(best, time.thread_time() - started)
    return best, outcome


def _benign_seconds() -> float:
    """A benign 1 MB comparison: 80,000 numbers printed with fewer digits than the answer's, each within tolerance,
    so the float checker reads every one of them."""
    count = M // 13
    output, answer = b"0.3333333333\n" * count, b"0.333333333333333\n" * count
    seconds, outcome = _cpu(CHECKERS["float"], output, answer)
    assert outcome.verdict is Verdict.AC, outcome
    return seconds


def test_adversarial_megabyte_outputs_are_judged_in_linear_time() -> None:
    """Every built-in checker on every adversarial output: the right verdict, within ``RATIO`` benign comparisons."""
    failures = []
    with _cpu_guard():
        benign = _benign_seconds()
        for checker, compare in CHECKERS.items():
            for name, (output, verdicts) in ADVERSARIAL.items():
                seconds, outcome = _cpu(compare, output, ANSWER)
                expected = verdicts.get(checker, "WA")
                if outcome.verdict.value != expected:
                    failures.append(f"{checker} on {name}: {outcome.verdict.value}, expected {expected}: {outcome}")
                if seconds > RATIO * benign:
                    failures.append(
                        f"{checker} on {name}: {seconds:.3f} s of CPU time, over {RATIO}x the {benign:.3f} s of a"
                        " benign 1 MB float comparison"
                    )
    assert not failures, "\n".join(failures)


def test_numbers_are_read_as_the_documented_pattern() -> None:
    """The linear number reader accepts exactly what the pattern it replaced did, on every token of up to five
    characters over the characters numbers are made of (the old pattern is the oracle where its backtracking costs
    nothing)."""
    import itertools
    import re

    from judge.check.compare import _is_number

    pattern = re.compile(rb"[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?\Z|[+-]?(inf|infinity|nan)\Z", re.I)
    alphabet = b"09+-.eEx"
    for length in range(6):
        for letters in itertools.product(alphabet, repeat=length):
            token = bytes(letters)
            assert _is_number(token) == bool(pattern.match(token)), token
    for word in (b"inf", b"-Infinity", b"+NaN", b"infinit", b"nana"):
        assert _is_number(word) == bool(pattern.match(word)), word


def test_a_spent_budget_stops_the_work_with_a_judge_error(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The comparison's own loop stops once the budget is spent: a 1 MB float output against a budget of nothing is
    a judge error naming the checker and its budget, given long before the whole comparison would have ended."""
    count = M // 13
    output, answer = b"0.3333333333\n" * count, b"0.333333333333333\n" * count
    (tmp_path / "out").write_bytes(output)
    (tmp_path / "ans").write_bytes(answer)
    monkeypatch.setattr(budget, "SECONDS_PER_MIB", 0.0)
    checker = BuiltinChecker(lambda o, a, args: CHECKERS["float"](o, a), "float", cpu=0.0)
    whole, _ = _cpu(CHECKERS["float"], output, answer)
    started = time.thread_time()
    outcome = checker.check(tmp_path, tmp_path / "out", tmp_path / "ans", slot=None)  # type: ignore[arg-type]
    stopped = time.thread_time() - started
    assert outcome.verdict is Verdict.JE, outcome
    assert "built-in checker 'float' exceeded its CPU budget (0 s of CPU time for 2.38 MiB" in outcome.message
    assert stopped < whole / 2, f"stopped after {stopped:.3f} s, the whole comparison takes {whole:.3f} s"


def test_a_comparison_that_never_looks_at_its_budget_is_measured_around_the_call() -> None:
    """A comparison registered by a user may never call ``checkpoint``: the time is measured around the call too."""

    def busy() -> None:
        started = time.thread_time()
        while time.thread_time() - started < 0.02:
            pass

    with pytest.raises(BudgetExceeded):
        with cpu_budget(0.01):
            busy()
    with cpu_budget(60.0):
        busy()


BUILTIN_FIXTURES = ["greeting", "reverse_words", "words", "words_ci", "float_div"]


@pytest.mark.parametrize("problem", BUILTIN_FIXTURES)
def test_a_megabyte_token_through_the_judge_is_wrong_answer(judge: JudgeRunner, tmp_path: Path, problem: str) -> None:
    """A real submission printing a 1 MB run of digits and a letter (the token that hung the float checker) gets WA
    from every built-in checker, within the fixtures' 1 MiB output limit."""
    submission = tmp_path / "long_token.py"
    submission.write_text("import sys\nsys.stdin.buffer.read()\nsys.stdout.buffer.write(b'1' * 1_000_000 + b'x')\n")
    with _cpu_guard():
        run = judge(problem, submission)
    assert run.verdict == "WA", run.describe()


def test_the_budget_through_the_judge_is_a_judge_error(
    judge: JudgeRunner, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Through the judge, a built-in checker out of budget ends the case in JE with the reason (the budget is made
    nothing for the test)."""
    import judge.check.programs as programs

    monkeypatch.setattr(programs, "budget_seconds", lambda cpu, size: 0.0)
    submission = tmp_path / "numbers.py"
    submission.write_text("import sys\nsys.stdin.buffer.read()\nsys.stdout.buffer.write(b'0.5\\n' * 200_000)\n")
    run = judge("float_div", submission)
    assert run.verdict == "JE", run.describe()
    assert "built-in checker 'float' exceeded its CPU budget" in run.cases[0]["message"], run.describe()
