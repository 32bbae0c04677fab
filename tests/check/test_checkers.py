"""Output checkers, exercised through real judging runs.

Protects the comparison rules of the builtin checkers (`exact`, `lines`,
`tokens` with and without case sensitivity, `float` with absolute and
relative tolerance) and the two custom-checker protocols (testlib:
`checker INPUT OUTPUT ANSWER` with exit 0/1/2/3; Kattis: `checker INPUT
ANSWER FEEDBACK_DIR < OUTPUT` with exit 42/43 and judgemessage.txt). A
checker that crashes or answers outside its protocol must give JE with exit
status 3, never a verdict about the submission. Each submission here prints
fixed bytes, so every test states the exact output it judges.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import JudgeRun, JudgeRunner, write_printer


def _judge_output(judge: JudgeRunner, tmp_path: Path, problem: str, output: bytes) -> JudgeRun:
    """Judge a submission that prints `output` on the single-case fixture `problem`."""
    run = judge(problem, write_printer(tmp_path, output))
    assert len(run.cases) == 1, run.describe()
    return run


def _assert_verdict(run: JudgeRun, allowed: set[str]) -> None:
    """The run's verdict is one of `allowed`, the case agrees, and the exit status follows."""
    assert run.verdict in allowed, run.describe()
    assert run.cases[0]["verdict"] == run.verdict, run.describe()
    assert run.returncode == (0 if run.verdict == "AC" else 1), run.describe()


# reverse_words answer: b"world hello\nc b a\nlast\n"
LINES_OUTPUTS = [
    pytest.param(b"world hello\nc b a\nlast\n", "AC", id="identical"),
    pytest.param(b"world hello  \nc b a \nlast\n", "AC", id="trailing-spaces"),
    pytest.param(b"world hello\nc b a\nlast", "AC", id="no-final-newline"),
    pytest.param(b"world  hello\nc b a\nlast\n", "PE", id="double-space-inside-line"),
    pytest.param(b" world hello\nc b a\nlast\n", "PE", id="leading-space"),
    pytest.param(b"world hello c b a\nlast\n", "PE", id="two-lines-joined"),
    pytest.param(b"world hello\n\nc b a\nlast\n", "PE", id="blank-line-inserted"),
    pytest.param(b"world hello\nc b a\n", "WA", id="line-missing"),
    pytest.param(b"world hello\nc b a\nlast\nmore\n", "WA", id="extra-line"),
    pytest.param(b"hello world\nc b a\nlast\n", "WA", id="words-in-wrong-order"),
    pytest.param(b"", "WA", id="empty"),
]


@pytest.mark.parametrize(("output", "verdict"), LINES_OUTPUTS)
def test_lines_checker(judge: JudgeRunner, tmp_path: Path, output: bytes, verdict: str) -> None:
    """`lines` forgives trailing spaces and the last newline; other whitespace changes are PE."""
    run = _judge_output(judge, tmp_path, "reverse_words", output)
    _assert_verdict(run, {verdict})


def test_lines_checker_message_names_the_line(judge: JudgeRunner, tmp_path: Path) -> None:
    """A WA from `lines` tells the contestant which line went wrong (line 3 here)."""
    run = _judge_output(judge, tmp_path, "reverse_words", b"world hello\nc b a\nfirst\n")
    _assert_verdict(run, {"WA"})
    assert "line 3" in (run.cases[0]["message"] or "").lower(), run.describe()


# greeting answer: b"Hello, World!\n"
EXACT_OUTPUTS = [
    pytest.param(b"Hello, World!\n", {"AC"}, id="identical"),
    pytest.param(b"Hello, World!", {"WA", "PE"}, id="no-final-newline"),
    pytest.param(b"Hello, World! \n", {"WA", "PE"}, id="trailing-space"),
    pytest.param(b"Hello, World!\r\n", {"WA", "PE"}, id="crlf"),
    pytest.param(b"hello, World!\n", {"WA"}, id="different-letter"),
]


@pytest.mark.parametrize(("output", "allowed"), EXACT_OUTPUTS)
def test_exact_checker(judge: JudgeRunner, tmp_path: Path, output: bytes, allowed: set[str]) -> None:
    """`exact` accepts only the very same bytes; no whitespace is forgiven."""
    run = _judge_output(judge, tmp_path, "greeting", output)
    _assert_verdict(run, allowed)


# words / words_ci answer: b"YES\nNO\nYES\nNO\n"
TOKENS_OUTPUTS = [
    pytest.param(b"YES\nNO\nYES\nNO\n", "AC", id="identical"),
    pytest.param(b"YES NO YES NO", "AC", id="one-line-no-newline"),
    pytest.param(b"  YES\t\tNO\n\n YES   NO  \n\n", "AC", id="odd-whitespace"),
    pytest.param(b"yes no yes no\n", "WA", id="lower-case"),
    pytest.param(b"YES NO YES\n", "WA", id="token-missing"),
    pytest.param(b"YES NO YES NO YES\n", "WA", id="extra-token"),
    pytest.param(b"YESNO YES NO\n", "WA", id="tokens-glued"),
]


@pytest.mark.parametrize(("output", "verdict"), TOKENS_OUTPUTS)
def test_tokens_checker(judge: JudgeRunner, tmp_path: Path, output: bytes, verdict: str) -> None:
    """`tokens` ignores all whitespace but compares each token exactly, letter case included."""
    run = _judge_output(judge, tmp_path, "words", output)
    _assert_verdict(run, {verdict})


TOKENS_CASE_INSENSITIVE_OUTPUTS = [
    pytest.param(b"YES NO YES NO\n", "AC", id="upper-case"),
    pytest.param(b"yes no yes no\n", "AC", id="lower-case"),
    pytest.param(b"Yes nO yEs No\n", "AC", id="mixed-case"),
    pytest.param(b"yes yes yes no\n", "WA", id="lower-case-but-wrong"),
]


@pytest.mark.parametrize(("output", "verdict"), TOKENS_CASE_INSENSITIVE_OUTPUTS)
def test_tokens_checker_case_insensitive(judge: JudgeRunner, tmp_path: Path, output: bytes, verdict: str) -> None:
    """With case_sensitive: false, tokens that differ only in letter case match."""
    run = _judge_output(judge, tmp_path, "words_ci", output)
    _assert_verdict(run, {verdict})


# float_div answer: 0.3333333333333333, 333333.3333333333, 2.0, -0.125 (abs_tol = rel_tol = 1e-6)
FLOAT_REFERENCE = ("0.3333333333333333", "333333.3333333333", "2.0", "-0.125")


def _floats(*replacements: tuple[int, str], tokens: tuple[str, ...] = FLOAT_REFERENCE) -> bytes:
    """The reference answer with the tokens at the given positions replaced."""
    changed = list(tokens)
    for index, token in replacements:
        changed[index] = token
    return "".join(token + "\n" for token in changed).encode()


FLOAT_OUTPUTS = [
    pytest.param(_floats(), "AC", id="reference"),
    pytest.param(b"0.333333 333333.333333 2 -0.125", "AC", id="fewer-digits-one-line"),
    pytest.param(_floats((0, "0.333334")), "AC", id="within-abs-tol-only"),
    pytest.param(_floats((1, "333333.6")), "AC", id="within-rel-tol-only"),
    pytest.param(_floats((2, "2e0")), "AC", id="scientific-notation"),
    pytest.param(_floats((0, "0.333335")), "WA", id="small-value-outside-both"),
    pytest.param(_floats((1, "333334")), "WA", id="large-value-outside-both"),
    pytest.param(_floats((3, "0.125")), "WA", id="wrong-sign"),
    pytest.param(_floats((2, "nan")), "WA", id="nan"),
    pytest.param(_floats((2, "inf")), "WA", id="inf"),
    pytest.param(_floats((2, "abc")), "WA", id="word"),
    pytest.param(_floats(tokens=FLOAT_REFERENCE[:3]), "WA", id="token-missing"),
    pytest.param(_floats(tokens=(*FLOAT_REFERENCE, "1.0")), "WA", id="extra-token"),
]


@pytest.mark.parametrize(("output", "verdict"), FLOAT_OUTPUTS)
def test_float_checker(judge: JudgeRunner, tmp_path: Path, output: bytes, verdict: str) -> None:
    """`float` passes a token within abs_tol OR rel_tol; nan, inf and non-numbers never pass."""
    run = _judge_output(judge, tmp_path, "float_div", output)
    _assert_verdict(run, {verdict})


# divisors input: 6, 91, 9991; answer file: "2 3\n7 13\n97 103\n"
TESTLIB_OUTPUTS = [
    pytest.param(b"2 3\n7 13\n97 103\n", "AC", "", id="same-as-answer"),
    pytest.param(b"3 2\n13 7\n103 97\n", "AC", "", id="other-valid-answer"),
    pytest.param(b"1 6\n7 13\n97 103\n", "WA", "not a nontrivial factorisation", id="trivial-factor"),
    pytest.param(b"2 3\n7 13\n101 99\n", "WA", "101 * 99 is not 9991", id="wrong-product"),
    pytest.param(b"2x3\n7 13\n97 103\n", "PE", "expected two integers", id="not-integers"),
    pytest.param(b"2 3\n7 13\n97 103\n1\n", "PE", "extra output", id="output-too-long"),
]


@pytest.mark.parametrize(("output", "verdict", "message"), TESTLIB_OUTPUTS)
def test_testlib_checker(judge: JudgeRunner, tmp_path: Path, output: bytes, verdict: str, message: str) -> None:
    """Exit 0/1/2 of a testlib checker mean AC/WA/PE and its stderr becomes the message.

    The checker also validates the answer file, so a judge that passes OUTPUT
    and ANSWER the wrong way round gets JE instead of the expected verdict.
    """
    run = _judge_output(judge, tmp_path, "divisors", output)
    _assert_verdict(run, {verdict})
    assert message in (run.cases[0]["message"] or ""), run.describe()


# pairsum input: n=6, target=10, values 1 9 3 7 5 5; answer file: "1 2\n"
KATTIS_OUTPUTS = [
    pytest.param(b"1 2\n", "AC", "", id="same-as-answer"),
    pytest.param(b"4 3\n", "AC", "", id="other-valid-pair"),
    pytest.param(b"1 3\n", "WA", "a[1] + a[3] = 4, expected 10", id="wrong-sum"),
    pytest.param(b"5 5\n", "WA", "indices must differ", id="same-index-twice"),
    pytest.param(b"7 1\n", "WA", "out of range", id="index-out-of-range"),
    pytest.param(b"abc def\n", "WA", "must be integers", id="garbage"),
]


@pytest.mark.parametrize(("output", "verdict", "message"), KATTIS_OUTPUTS)
def test_kattis_checker(judge: JudgeRunner, tmp_path: Path, output: bytes, verdict: str, message: str) -> None:
    """Exit 42/43 of a Kattis checker mean AC/WA and judgemessage.txt becomes the message.

    The checker validates the answer file too (exit 1 if it is wrong), which
    catches a judge that feeds it the arguments in the wrong order.
    """
    run = _judge_output(judge, tmp_path, "pairsum", output)
    _assert_verdict(run, {verdict})
    assert message in (run.cases[0]["message"] or ""), run.describe()


@pytest.mark.parametrize(
    ("problem", "output"),
    [
        pytest.param("checker_crash", b"ping\n", id="testlib-checker-segfaults"),
        pytest.param("checker_crash", b"pong\n", id="testlib-checker-segfaults-on-wrong-output"),
        pytest.param("checker_fail", b"ping\n", id="testlib-checker-exits-3"),
        pytest.param("checker_badexit", b"ping\n", id="testlib-checker-exits-5"),
        pytest.param("checker_kattis_exit0", b"ping\n", id="kattis-checker-exits-0"),
    ],
)
def test_misbehaving_checker_is_a_judge_error(judge: JudgeRunner, tmp_path: Path, problem: str, output: bytes) -> None:
    """A checker that crashes or leaves its protocol yields JE and exit 3, even for a right output.

    The submission printed the input back, which is the right answer, so any
    verdict but JE would be a guess; a crash on a wrong output is JE too, not WA.
    """
    run = _judge_output(judge, tmp_path, problem, output)

    assert run.returncode == 3, run.describe()
    assert run.verdict == "JE", run.describe()
    assert run.cases[0]["verdict"] == "JE", run.describe()
    assert run.report["score"] == 0, run.describe()
