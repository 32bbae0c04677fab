"""The built-in checkers hold little whatever a submission prints (issue 34).

They run inside the judge's process, and inside the HTTP service's beside
other judgings. Before, each read output and answer whole and split them:
a 64 MiB output of one-character tokens became tens of millions of list
entries (two-character ones, as many bytes objects: gigabytes). Now both
sides are read in chunks and compared as they come, so the judge's peak
memory grows by a few MiB at most.

Each test judges files of one-character tokens through the checkers the
registry makes (the objects the judge calls) in a fresh Python process, and
reads that process's peak resident memory (``VmHWM``; not ``ru_maxrss``, which
a process started by ``subprocess`` begins with the parent's, the test
process's, so that tens of MiB grew unseen) before and after
(the slow one after a small size and then a large one, so that what the
growth owes to the output's size shows):
against a small answer, against an equal answer (the same bytes, compared as
bytes), against an answer one token longer (the start both share is counted,
not split: the messages number every token and line all the same), and
against an answer whose first line ends in a blank (the same tokens and,
but for that blank, the same lines, so every token and line of both is
split and compared).

The other tests pin what reading in chunks must not change: where chunks end
changes no verdict or message, tokens and lines too long to hold are compared
by digest and numbers too long to hold by value, and a comparison a user
registers, which is handed whole files, is bounded.
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from judge.check import (
    CheckOutcome,
    compare,
    compare_exact,
    compare_floats,
    compare_kattis_default,
    compare_lines,
    compare_tokens,
    shared_start,
    streams,
)
from judge.verdict import Verdict

M = 1 << 20
UNIT = b"1 2\n"  # one-character tokens, two to a line
BLANK_MATTERS = {"exact", "kattis-space-float"}  # the checkers that see a blank at the end of the first line
BOUND_MIB = 40  # the peak may grow by this much: a few chunks of tokens, and one 4 MiB line held whole
SIZE_SLACK_MIB = 4  # what judging more output may add to the peak: noise of the allocator, nothing per byte

CHILD = r"""
import json, sys
from pathlib import Path
from judge.check import make_checker
from judge.core.run_limits import judge_side_limits
from judge.model import CheckerSpec

folder = Path(sys.argv[1])  # the checkers' working folder
checkers = {
    "exact": (CheckerSpec("exact"), []),
    "lines": (CheckerSpec("lines"), []),
    "tokens": (CheckerSpec("tokens"), []),
    "tokens-case-insensitive": (CheckerSpec("tokens", {"case_sensitive": False}), []),
    "float": (CheckerSpec("float", {"abs_tol": 1e-6, "rel_tol": 1e-6}), []),
    "kattis-default": (CheckerSpec("kattis-default"), []),
    "kattis-space-float": (CheckerSpec("kattis-default"), ["space_change_sensitive", "float_tolerance", "1e-6"]),
}
def peak():  # this process's own peak (KiB): ru_maxrss starts at what the parent held when it forked
    return int(next(line for line in open("/proc/self/status") if line.startswith("VmHWM:")).split()[1])

start = peak()
grown, verdicts = [], {}
for files in sys.argv[1:]:  # each a folder of files, in growing sizes: the peak after each
    for answer in ("small", "equal", "longer", "blank"):
        for name, (spec, args) in checkers.items():
            checker = make_checker(spec, None, judge_side_limits(1.0, None).limits)
            outcome = checker.check(folder, Path(files) / "out", Path(files) / answer, None, args)
            verdicts[f"{name} vs {answer}"] = [outcome.verdict.value, outcome.message]
    grown.append((peak() - start) / 1024)
print(json.dumps({"grown_mib": grown, "verdicts": verdicts}))
"""


def _write(path: Path, size: int, tail: bytes = b"", first: bytes = UNIT) -> None:
    """``size`` bytes of ``UNIT``, the first written as ``first``, and then ``tail``, written a MiB at a time (the
    test process holds little too)."""
    block = UNIT * (M // len(UNIT))
    with path.open("wb") as file:
        file.write(first + block[len(UNIT) :])
        for _ in range(size // M - 1):
            file.write(block)
        file.write(tail)


def _files(folder: Path, size: int) -> Path:
    folder.mkdir()
    _write(folder / "out", size)
    _write(folder / "equal", size)
    _write(folder / "longer", size, b"3\n")
    _write(folder / "blank", size, first=b"1 2 \n")
    (folder / "small").write_bytes(UNIT)
    return folder


def _judge_in_a_fresh_process(tmp_path: Path, *sizes: int) -> dict[str, object]:
    """The verdicts of the last size, and the peak's growth after each size, judged in growing sizes in one process."""
    folders = [str(_files(tmp_path / f"{size}", size)) for size in sizes]
    done = subprocess.run(
        [sys.executable, "-c", CHILD, *folders],
        capture_output=True,
        text=True,
        check=True,
        cwd=Path(__file__).resolve().parents[2],
    )
    result: dict[str, object] = json.loads(done.stdout)
    return result


def _check(tmp_path: Path, *sizes: int) -> list[float]:
    """Judge the files of each size in turn; check the verdicts and messages of the last and that the peak grew by
    less than ``BOUND_MIB``; the peak's growth after each size."""
    result = _judge_in_a_fresh_process(tmp_path, *sizes)
    size = sizes[-1]
    verdicts = result["verdicts"]
    assert isinstance(verdicts, dict)
    tokens = size // len(UNIT) * 2
    for key, (verdict, message) in verdicts.items():
        same = key.endswith("vs equal") or key.endswith("vs blank") and key.split()[0] not in BLANK_MATTERS
        assert verdict == ("AC" if same else "WA"), (key, verdict, message)
    assert verdicts["tokens vs small"][1] == "extra output after 2 tokens: '1'"
    assert verdicts["tokens vs longer"][1] == f"output ends after {tokens} tokens; expected {tokens + 1} (next: '3')"
    assert verdicts["lines vs longer"][1] == f"line {tokens // 2 + 1}: expected '3', got nothing"
    assert verdicts["exact vs longer"][1].startswith(f"byte {size + 1} (line {tokens // 2 + 1}, column 1)")
    assert verdicts["kattis-space-float vs blank"][1] == "white space differs (space_change_sensitive)"
    grown = result["grown_mib"]
    assert isinstance(grown, list) and grown[-1] < BOUND_MIB, f"the judge's peak memory grew by {grown[-1]:.1f} MiB"
    return grown


def test_a_few_mib_of_one_character_tokens_are_checked_in_little_memory(tmp_path: Path) -> None:
    _check(tmp_path, 2 * M)


@pytest.mark.slow
def test_tens_of_mib_of_one_character_tokens_are_checked_in_what_a_few_took(tmp_path: Path) -> None:
    """The growth does not grow with the output: the peak after judging every file again at 24 MiB is at most
    ``SIZE_SLACK_MIB`` over the peak after judging them at 2 MiB, and under ``BOUND_MIB``.

    This judged 64 MiB, the largest output the default output limit lets through, against ``BOUND_MIB`` alone: 10
    CPU-seconds, most of them six checkers splitting every token and line of the answer whose first line ends in a
    blank. What a checker holds is a few chunks' batches, the same at every size (7.4 MiB here after 2 MiB and
    after 24 MiB alike; 4.5 MiB at 8, 24 and 64 MiB measured in another process), and whatever a checker kept per
    token, line or chunk (a side held whole, a list of lines) grows with the output: 22 MiB more of it may add no
    more than ``SIZE_SLACK_MIB`` to the peak, which fails a growth of a fifth of a byte per byte of output (one of
    a quarter of each side's bytes failed here, 13.6 MiB more, and passed the 64 MiB test), where 64 MiB against
    ``BOUND_MIB``, read right, fails one of three fifths and over; so what 64 MiB would add over 24 MiB stays
    within a few MiB."""
    small, large = _check(tmp_path, 2 * M, 24 * M)
    assert large - small <= SIZE_SLACK_MIB, f"2 MiB raised the peak by {small:.1f} MiB, 24 MiB by {large:.1f} MiB"


# ---- where chunks end, and what is too long to hold ------------------------------------------------------------

COMPARISONS: dict[str, Callable[[bytes, bytes], CheckOutcome]] = {
    "exact": compare_exact,
    "lines": compare_lines,
    "tokens": compare_tokens,
    "tokens-case-insensitive": lambda o, a: compare_tokens(o, a, case_sensitive=False),
    "float": lambda o, a: compare_floats(o, a, abs_tol=1e-6, rel_tol=1e-6),
    "kattis-default": lambda o, a: compare_kattis_default(o, a, []),
    "kattis-float": lambda o, a: compare_kattis_default(o, a, ["float_tolerance", "1e-6"]),
    "kattis-space": lambda o, a: compare_kattis_default(o, a, ["space_change_sensitive"]),
    "kattis-space-float": lambda o, a: compare_kattis_default(o, a, ["space_change_sensitive", "float_tolerance", "1"]),
}


def _sizes(monkeypatch: pytest.MonkeyPatch, chunk: int, long: int) -> None:
    """Read ``chunk`` bytes at a time; keep items over ``long`` bytes as digests."""
    monkeypatch.setattr(streams, "CHUNK", chunk)
    monkeypatch.setattr(compare, "CHUNK", chunk)  # what compare_exact reads at a time
    monkeypatch.setattr(shared_start, "CHUNK", chunk)  # what the shared start is found and counted by
    monkeypatch.setattr(streams, "LONG", long)


def _random_text(rng: random.Random) -> bytes:
    parts = [b"a", b"B", b"1", b"0", b".", b"e", b"-", b" ", b"\t", b"\r", b"\n", b"\n", b"  ", b"1.5", b"\x0c", b"xyz"]
    return b"".join(rng.choice(parts) for _ in range(rng.randrange(40)))


def _mutated(rng: random.Random, data: bytes) -> bytes:
    changed = bytearray(data)
    for _ in range(rng.randrange(3)):
        at = rng.randrange(len(changed) + 1)
        changed[at:at] = rng.choice([b"a", b" ", b"\n", b"1", b"\r", b"0"])
    return bytes(changed)


def test_where_the_chunks_end_changes_no_verdict_and_no_message(monkeypatch: pytest.MonkeyPatch) -> None:
    """Random outputs and answers (mostly near each other, so sharing starts of every length) read one, two,
    three... bytes at a time, with items over a few bytes kept as digests, and split only past the start both share,
    are judged exactly as when each is read in one chunk, held whole and split from its first byte."""
    rng = random.Random(34)
    pairs = [(_mutated(rng, answer), answer) for answer in (_random_text(rng) for _ in range(150))]
    pairs += [(b"01 1.50\t 2.0\n", b"1 1.5\t 2.0\n"), (b"1.000  YES\n", b"1.0  yes\n"), (b"1.000 2", b"1  2")]
    pairs += [(b"a\n\n\nb c\n", b"a\n\n\nb d\n"), (b"a \n\n", b"a\n\n\nb"), (b"x\n \n", b"x\n \n\n")]
    with monkeypatch.context() as whole_files:
        whole_files.setattr(compare, "shared_length", lambda output, answer: 0)  # split from the first byte
        whole = {(name, pair): compare_(*pair) for name, compare_ in COMPARISONS.items() for pair in pairs}
    for chunk, long in ((1, 1), (2, 3), (3, 1000), (5, 6), (8, 8)):
        _sizes(monkeypatch, chunk, long)
        for (name, pair), expected in whole.items():
            outcome = COMPARISONS[name](*pair)
            assert (outcome.verdict, outcome.message) == (expected.verdict, expected.message), (name, chunk, pair)


def test_long_tokens_and_lines_are_compared_by_their_digest(monkeypatch: pytest.MonkeyPatch) -> None:
    """Over ``LONG`` bytes an item is held as its digest: equal ones still match, a difference at the very end still
    shows, a long line long only in its trailing blanks still equals the short one, and a message quotes its start."""
    _sizes(monkeypatch, 16, 64)
    token = b"7" * 500
    assert compare_tokens(token + b"\n", b" " + token).verdict is Verdict.AC
    outcome = compare_tokens(token + b"8\n", token + b"9\n")
    assert outcome.verdict is Verdict.WA and outcome.message.startswith("token 1 (line 1): expected '7777")
    assert compare_tokens(b"AB" * 300, b"ab" * 300, case_sensitive=False).verdict is Verdict.AC
    assert compare_lines(b"x y" + b" \t" * 300 + b"\n\n", b"x y\n").verdict is Verdict.AC
    assert compare_lines(b"x  y" * 100, b"x y" * 100 + b" ").verdict is Verdict.PE
    assert compare_floats(b"1" * 500 + b"x", b"1\n", 1e-6, 1e-6).verdict is Verdict.WA


def test_a_number_too_long_to_hold_is_read_by_value(monkeypatch: pytest.MonkeyPatch) -> None:
    """A number over ``LONG`` bytes is never held, yet the float checkers judge it by its value as before: long runs
    of zeros within tolerance, a long integer far from it, a halfway point between two doubles decided by a digit
    far beyond the 767 that can matter, and a token with a letter among its digits, no number at all."""
    _sizes(monkeypatch, 16, 64)
    halfway = b"1.00000000000000011102230246251565404236316680908203125"  # 1 + 2**-53: rounds to 1.0, or up
    for floats in (COMPARISONS["float"], COMPARISONS["kattis-float"]):
        assert floats(b"1 1." + b"0" * 500 + b"\n", b"1 1\n").verdict is Verdict.AC
        assert floats(b"-0.000" + b"0" * 500 + b"1e+0003\n", b"0\n").verdict is Verdict.AC
        assert floats(b"1" + b"0" * 500 + b"\n", b"1\n").verdict is Verdict.WA
        assert floats(b"1 1." + b"0" * 500 + b"x\n", b"1 1\n").verdict is Verdict.WA
    exact = lambda o, a: compare_floats(o, a, abs_tol=0, rel_tol=0)  # noqa: E731
    assert exact(halfway + b"0" * 900 + b"\n", b"1\n").verdict is Verdict.AC
    assert exact(halfway + b"0" * 900 + b"1\n", b"1.0000000000000002\n").verdict is Verdict.AC
    assert exact(halfway + b"0" * 900 + b"1\n", b"1\n").verdict is Verdict.WA


def test_a_comparison_handed_whole_files_is_bounded(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A comparison a user registers gets both files whole as bytes: past ``WHOLE_BYTES`` of them the case is a judge
    error saying why, and the comparison is never called; below, it is called with the files' bytes."""
    from judge.check import BuiltinChecker, programs

    calls: list[tuple[bytes, bytes]] = []

    def whole(output: bytes, answer: bytes, args: object) -> CheckOutcome:
        calls.append((output, answer))
        return CheckOutcome(Verdict.AC)

    (tmp_path / "out").write_bytes(b"1 2\n" * 100)
    (tmp_path / "ans").write_bytes(b"1 2\n")
    checker = BuiltinChecker(whole, "numbers")
    assert checker.check(tmp_path, tmp_path / "out", tmp_path / "ans", None).verdict is Verdict.AC  # type: ignore[arg-type]
    assert calls == [(b"1 2\n" * 100, b"1 2\n")]
    monkeypatch.setattr(programs, "WHOLE_BYTES", 300)
    outcome = checker.check(tmp_path, tmp_path / "out", tmp_path / "ans", None)  # type: ignore[arg-type]
    assert outcome.verdict is Verdict.JE and len(calls) == 1
    assert outcome.message.startswith(
        "built-in checker 'numbers' reads whole files, at most 0 MiB of output and answer"
    )
