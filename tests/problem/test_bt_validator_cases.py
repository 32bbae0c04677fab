"""BAPCtools' folders that test the validators (``invalid_input``, ``invalid_answer``, ``invalid_output``,
``valid_output``), made by ``generate`` and checked by ``verify`` as bt checks them; and what a sample shows apart
from what is judged (``in.statement``, links), a ``match:`` that finds nothing, an ``include`` into another folder
with other validator arguments.

The package is written here: a Python input validator (two numbers 0..100, ``--small`` caps them at 10), an answer
validator (one number; ``--even`` wants it even) and the default output validator. Every folder holds cases its
validators judge as promised, and then one that they do not: each such case is a verify failure naming it. ``bt
generate`` 2026.10.0 on this very package names the same four cases (and the same unmatched pattern), and makes the
same files but for those four, which it leaves out of data/.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import cli, write_files

INPUT_VALIDATOR = """\
import sys
words = sys.stdin.read().split()
ok = len(words) == 2 and all(w.isdigit() and int(w) <= (10 if "--small" in sys.argv else 100) for w in words)
sys.exit(42 if ok else 43)
"""
ANSWER_VALIDATOR = """\
import sys
text = sys.stdin.read()
words = text.split()
open(sys.argv[1]).read()  # the input is its first argument
ok = len(words) == 1 and text == words[0] + "\\n"  # one number, one line
ok = ok and words[0].isdigit() and ("--even" not in sys.argv or int(words[0]) % 2 == 0)
sys.exit(42 if ok else 43)
"""
GENERATORS = """\
solution: /submissions/accepted/sum.py
data:
  sample:
    data:
      - '': {in: "1 2", ans: "3"}
      - shown:
          in.statement: "1 + 2"
          ans.statement: "three"
          in.download: {link: in.statement}
      - judged: {in: "2 2", in.statement: "two and two", match: "^2 2$"}
      - unmatched: {in: "4 4", match: {ans: "^9$"}}
  secret:
    data:
      - small: {in: "5 6"}
      - big: {in: "50 50"}
      - blank_line: {in: "1 1", ans: "2\\n\\n"}  # judged: AC for the sum, but its answer validator rejects it
  invalid_input:
    data:
      negative: {in: "-1 2"}
      capped:
        test_group.yaml: {input_validator_args: {check_input.py: [--small]}}
        include: [big]  # a case of secret, which bt makes before the validators' folders
      lax: {in: "1  2"}  # two spaces: this validator does not mind
  invalid_answer:
    test_group.yaml: {answer_validator_args: [--even]}
    data:
      odd: {in: "1 2", ans: "3"}
      words: {in: "1 2", ans: "three"}
      fine: {in: "1 1", ans: "2"}
  invalid_output:
    data:
      wrong: {in: "1 2", ans: "3", out: "4"}
      right: {in: "1 2", ans: "3", out: "3"}
  valid_output:
    data:
      spaced: {in: "1 2", ans: "3", out: "   3  "}
      wrong: {in: "1 2", ans: "3", out: "5"}
      large: {in: "50 50", ans: "100", out: "100"}
"""


def _package(root: Path) -> Path:
    return write_files(
        root,
        {
            "problem.yaml": "problem_format_version: 2025-09\nname: Sum\nlimits:\n  time_limit: 2\n",
            "generators/generators.yaml": GENERATORS,
            "input_validators/check_input.py": INPUT_VALIDATOR,
            "answer_validators/check_answer.py": ANSWER_VALIDATOR,
            "submissions/accepted/sum.py": "print(sum(map(int, input().split())))\n",
        },
    )


@pytest.mark.slow  # two generate and verify runs, about 13 s
def test_the_validators_folders_are_made_and_each_case_not_judged_as_its_folder_says_fails_verify(
    tmp_path: Path,
) -> None:
    package = _package(tmp_path / "sum")
    made = cli("generate", str(package))
    assert made.returncode == 0, made.stdout + made.stderr
    data = package / "data"
    assert (data / "invalid_input" / "capped" / "6-big.in").read_text() == "50 50\n"  # included, with its number
    assert (data / "invalid_output" / "wrong.out").read_text() == "4\n"
    sample = data / "sample"
    assert (sample / "2-shown.in.statement").read_text() == "1 + 2\n"
    assert (sample / "2-shown.in.download").read_text() == "1 + 2\n"  # the link, as a copy
    assert not (sample / "2-shown.in").exists() and not (sample / "2-shown.ans").exists()  # shown, never judged
    assert (sample / "3-judged.ans").read_text() == "4\n"  # the judged input's answer, by the solution
    warnings = [line for line in made.stderr.splitlines() if "match" in line]
    assert warnings == ["warning: generators/generators.yaml: sample/4-unmatched: no match for '^9$' in its .ans"]

    verified = cli("verify", str(package), "-j", "2")
    assert verified.returncode == 1, verified.stdout + verified.stderr
    lines = {line.split(": ")[1]: line for line in verified.stdout.splitlines() if "validator test:" in line}
    assert sorted(lines) == [
        "data/invalid_answer/fine",  # 2 is even and one number: every answer validator accepts it
        "data/invalid_input/lax",
        "data/invalid_output/right",
        "data/valid_output/wrong",
    ], verified.stdout
    answers = [line for line in verified.stdout.splitlines() if "invalid answer:" in line]
    assert len(answers) == 1 and "data/secret/7-blank_line: its answer must be valid, but" in answers[0], answers
    assert "not rejected: no input validator rejected it" in lines["data/invalid_input/lax"]
    assert "its output must be valid, but output validator rejected" in lines["data/valid_output/wrong"]
    summary = verified.stdout.splitlines()[-1]
    assert "1/1 submissions as expected" in summary and "7/11 invalid/valid-output cases judged as bt" in summary

    (package / "generators" / "generators.yaml").write_text(
        "\n".join(
            line
            for line in GENERATORS.splitlines()
            if not any(
                w in line for w in ("lax", "fine", "right:", "blank_line", 'wrong: {in: "1 2", ans: "3", out: "5"}')
            )
        )
    )
    assert cli("generate", str(package)).returncode == 0
    again = cli("verify", str(package), "-j", "2")
    assert again.returncode == 0 and "7/7 invalid/valid-output cases judged as bt" in again.stdout, again.stdout


def test_a_mapping_of_validator_names_to_arguments_gives_each_input_validator_its_own(tmp_path: Path) -> None:
    """``input_validator_args: {strict: [--strict]}`` (BAPCtools' divsort writes them so): the validator named
    ``strict`` (a folder) gets ``--strict``, the one named ``plain.py`` nothing, in the judged cases as in the
    validators' folders; a list goes to every validator."""
    wants = "import sys\nsys.exit(42 if sys.argv[1:] == {args!r} else 43)\n"
    package = write_files(
        tmp_path / "named",
        {
            "problem.yaml": "problem_format_version: 2025-09\nname: Named\n",
            "input_validators/strict/check.py": wants.format(args=["--strict"]),
            "input_validators/plain.py": wants.format(args=[]),
            "data/sample/1.in": "1\n",
            "data/sample/1.ans": "1\n",
            "data/sample/test_group.yaml": "input_validator_args: {strict: [--strict]}\n",
            "data/secret/1.in": "1\n",
            "data/secret/1.ans": "1\n",
            "data/secret/test_group.yaml": "input_validator_args: [--strict]\n",  # plain.py rejects it: invalid
        },
    )
    validated = cli("validate", str(package))
    assert validated.returncode == 1, validated.stdout + validated.stderr
    assert validated.stdout.splitlines() == ["secret/1: invalid (plain.py), no message", "named: 1/2 inputs valid"]
