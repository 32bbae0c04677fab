"""verify feeds the input validators junk and altered copies of the real inputs, and warns where one lets them pass.

Three validators of one format ("N, then N integers on one line"), each a
real program run by the judge: one that accepts anything, one that reads
tokens (so it lets extra blanks and leading zeros through) and one that
checks every byte.
"""

from __future__ import annotations

import json
from pathlib import Path

from conftest import cli, write_files

from judge.tools.junk_inputs import ALTERATIONS, JUNK

ANYTHING = "import sys\nsys.stdin.buffer.read()\nsys.exit(42)\n"
TOKENS = """import sys
try:
    tokens = [int(t) for t in sys.stdin.buffer.read().split()]
except ValueError:
    sys.exit(43)
sys.exit(42 if tokens and len(tokens) == tokens[0] + 1 else 43)
"""
STRICT = r"""import re, sys
data = sys.stdin.buffer.read()
m = re.fullmatch(rb"(0|[1-9][0-9]*)\n((?:0|-?[1-9][0-9]*)(?: (?:0|-?[1-9][0-9]*))*)\n", data)
sys.exit(42 if m and len(m.group(2).split()) == int(m.group(1)) else 43)
"""
LENIENT_ON_SMALL = r"""import re, sys
data = sys.stdin.buffer.read()
if len(data) >= 12:
    m = re.fullmatch(rb"(0|[1-9][0-9]*)\n((?:0|-?[1-9][0-9]*)(?: (?:0|-?[1-9][0-9]*))*)\n", data)
    sys.exit(42 if m and len(m.group(2).split()) == int(m.group(1)) else 43)
try:
    tokens = [int(t) for t in data.split()]
except ValueError:
    sys.exit(43)
sys.exit(42 if tokens and len(tokens) == tokens[0] + 1 else 43)
"""
WHITESPACE = {"a second space after every space", "a space before every line end", "an empty line after every line"}
ALL_JUNK = {f"input validator accepts {what}" for what, _ in JUNK}


def _warnings(tmp_path: Path, validator: str) -> set[str]:
    root = write_files(
        tmp_path / "sums",
        {
            "problem.yaml": "name: Sums\nlimits:\n  time_limit: 1\n",
            "data/sample/1.in": "3\n1 2 3\n",
            "data/sample/1.ans": "6\n",
            "data/secret/1.in": "4\n10 -20 30 0\n",
            "data/secret/1.ans": "20\n",
            "data/secret/2.in": "1\n7\n",
            "data/secret/2.ans": "7\n",
            "input_validators/check.py": validator,
            "submissions/accepted/sum.py": "input()\nprint(sum(map(int, input().split())))\n",
        },
    )
    out = tmp_path / "verify.json"
    run = cli("verify", str(root), "-j", "2", "--json", str(out))
    assert run.returncode == 0 and "Traceback" not in run.stderr, run.stdout + run.stderr
    report = json.loads(out.read_text())
    return {f["message"] for f in report["findings"] if f["severity"] == "warning"}


def _alterations(warnings: set[str]) -> set[str]:
    """The alterations the warnings name (the case list in brackets left out)."""
    prefix = "the input validators accept the inputs with "
    return {w[len(prefix) :].split(" (")[0] for w in warnings if w.startswith(prefix)}


def test_a_validator_that_accepts_anything_is_told_of_every_junk_and_every_alteration(tmp_path: Path) -> None:
    warnings = _warnings(tmp_path, ANYTHING)
    assert ALL_JUNK <= warnings
    # no input has a decimal number, so that alteration changes nothing and proves nothing
    assert _alterations(warnings) == {what for what, _ in ALTERATIONS} - {"a trailing zero on every decimal number"}


def test_a_validator_reading_tokens_is_told_of_blanks_and_leading_zeros_only(tmp_path: Path) -> None:
    warnings = _warnings(tmp_path, TOKENS)
    assert not ALL_JUNK & warnings
    assert _alterations(warnings) == WHITESPACE | {"a leading zero on every integer"}


def test_a_byte_exact_validator_gets_no_junk_warning(tmp_path: Path) -> None:
    warnings = _warnings(tmp_path, STRICT)
    assert not ALL_JUNK & warnings and not _alterations(warnings), warnings


def test_an_alteration_the_smaller_inputs_pass_and_a_larger_one_fails_is_no_warning(tmp_path: Path) -> None:
    """Reading tokens on inputs under 12 bytes, every byte above: each alteration passes on the smaller inputs tried
    (their checks come first) and fails on the largest, so the validators do not accept it on every input."""
    warnings = _warnings(tmp_path, LENIENT_ON_SMALL)
    assert not _alterations(warnings), warnings
    assert not ALL_JUNK & warnings, warnings
