"""A sample case's result keeps the start of what the program printed; a secret case's never does.

A real C program is built and run by the judge on a Kattis package whose
sample and secret folders both hold a case named ``1`` (the names alone
cannot tell them apart); a submit-answer sample keeps the answer file handed
in, a multi-pass one what the last pass printed. The excerpt's bound, its escapes and a UTF-8
sequence split by the bound are checked on files, without a run.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import require, write_files

from judge.core import judge
from judge.core.sample_output import OUTPUT_BYTES, OUTPUT_LINES, excerpt
from judge.core.submission import prepare_submission
from judge.core.verdicts import OutputExcerpt
from judge.model import CaseSpec, FromFile
from judge.problem.formats import load
from judge.run import Isolation, SlotPool
from judge.verdict import Verdict

# Prints, for input "markup", markup, a byte that is no UTF-8, an ESC and a wrong sum; for "huge", 50 000 lines;
# otherwise the right answer.
PRINTER = r"""
#include <stdio.h>
#include <string.h>
int main(void) {
    char word[32] = "";
    if (scanf("%31s", word) != 1) return 1;
    if (strcmp(word, "markup") == 0) {
        fputs("<img src=x onerror=alert(1)>\n\xff\xfe caf\xc3\xa9 \x1b[2J\n42\n", stdout);
    } else if (strcmp(word, "huge") == 0) {
        for (int i = 0; i < 50000; i++) printf("line %d\n", i);
    } else {
        printf("%s\n", word);
    }
    return 0;
}
"""


@pytest.fixture(scope="module")
def judged(tmp_path_factory: pytest.TempPathFactory):
    require("gcc")
    root = write_files(
        tmp_path_factory.mktemp("samples") / "echo",
        {
            "problem.yaml": "problem_format_version: 2025-09\nname: Echo\nlimits:\n  time_limit: 2\n",
            "data/sample/1.in": "markup\n",
            "data/sample/1.ans": "markup\n",
            "data/sample/2.in": "huge\n",
            "data/sample/2.ans": "huge\n",
            "data/secret/1.in": "markup\n",
            "data/secret/1.ans": "markup\n",
            "printer.c": PRINTER,
        },
    )
    problem = load(root)
    with SlotPool(1, Isolation("none")) as pool:
        report = judge(problem, prepare_submission(problem, root / "printer.c", pool), pool)
    return {(case.group, case.name): case for case in report.cases}, report


def test_a_sample_case_keeps_what_the_program_printed_escaped(judged) -> None:
    cases, report = judged
    markup = cases[("sample", "1")]
    assert markup.verdict is Verdict.WA and markup.output is not None
    assert markup.output.text == "<img src=x onerror=alert(1)>\n\\xff\\xfe café \\x1b[2J\n42\n"
    assert markup.output.size == len(b"<img src=x onerror=alert(1)>\n\xff\xfe caf\xc3\xa9 \x1b[2J\n42\n")
    assert markup.output.cut is False
    assert report.to_json()["cases"][0]["output"] == {
        "text": markup.output.text,
        "size": markup.output.size,
        "cut": False,
    }


def test_a_huge_output_is_cut_to_the_bound_and_says_so(judged) -> None:
    cases, _ = judged
    huge = cases[("sample", "2")].output
    assert huge is not None and huge.cut
    assert huge.size == sum(len(f"line {i}\n") for i in range(50000))
    assert huge.text.count("\n") == OUTPUT_LINES and huge.text.startswith("line 0\nline 1\n")
    assert len(huge.text.encode()) <= OUTPUT_BYTES


def test_a_secret_case_keeps_no_output(judged) -> None:
    cases, report = judged
    secret = cases[("secret", "1")]
    assert secret.verdict is Verdict.WA and secret.output is None  # it printed the same markup as sample 1
    assert report.to_json()["cases"][-1]["output"] is None


def test_the_bound_keeps_whole_characters_and_counts_bytes(tmp_path: Path) -> None:
    split = tmp_path / "split"
    split.write_bytes(b"a" * (OUTPUT_BYTES - 1) + "é".encode() + b"tail")  # é straddles the bound
    cut = excerpt(split)
    assert cut.text == "a" * (OUTPUT_BYTES - 1) and cut.cut and cut.size == OUTPUT_BYTES + 5
    whole = tmp_path / "whole"
    whole.write_bytes(b"x\r\n\xc3")  # a last sequence that really is broken is shown, not dropped
    assert excerpt(whole).text == "x\\x0d\n\\xc3" and not excerpt(whole).cut
    assert excerpt(tmp_path / "missing").size == 0


# Kattis multi-pass: pass 1 on "1" must print 1 and asks for a pass on "2", which must print 4.
VALIDATOR = """
import sys
from pathlib import Path
given, printed = open(sys.argv[1]).read().split(), sys.stdin.read().split()
if given == ["1"] and printed == ["1"]:
    Path(sys.argv[3], "nextpass.in").write_text("2\\n")
    sys.exit(42)
sys.exit(42 if given == ["2"] and printed == ["4"] else 43)
"""


def _judged(root: Path, submission: Path):
    problem = load(root)
    with SlotPool(1, Isolation("none")) as pool:
        report = judge(problem, prepare_submission(problem, submission, pool), pool)
    return {(case.group, case.name): case for case in report.cases}


def test_a_submit_answer_sample_keeps_the_answer_file_and_a_multi_pass_one_its_last_pass(tmp_path: Path) -> None:
    data = {f"data/{group}/1.{ext}": "1\n" for group in ("sample", "secret") for ext in ("in", "ans")}
    answers = write_files(
        tmp_path / "answers",
        {"problem.yaml": "problem_format_version: 2025-09\nname: A\ntype: submit-answer\n", **data},
    )
    handed_in = write_files(tmp_path / "handed", {"sample/1.out": "<b>2</b>\n", "secret/1.out": "3\n"})
    cases = _judged(answers, handed_in)
    assert cases[("sample", "1")].output == OutputExcerpt("<b>2</b>\n", 9, False)
    assert cases[("secret", "1")].verdict is Verdict.WA and cases[("secret", "1")].output is None
    passes = write_files(
        tmp_path / "passes",
        {
            "problem.yaml": "problem_format_version: 2025-09\nname: P\ntype: multi-pass\nlimits:\n  time_limit: 2\n",
            "output_validator/validate.py": VALIDATOR,
            "wrong_on_second.py": "k = int(input())\nprint(k * k if k == 1 else 0)\n",
            **data,
        },
    )
    cases = _judged(passes, passes / "wrong_on_second.py")
    sample = cases[("sample", "1")]
    assert sample.verdict is Verdict.WA and sample.message.startswith("pass 2"), sample.message
    assert sample.output == OutputExcerpt("0\n", 2, False)  # the pass that failed, not the first
    assert cases[("secret", "1")].output is None


@pytest.mark.parametrize(
    ("group", "name", "sample"),
    [
        ("sample", "1", True),
        ("Sample", "x", True),
        ("sample/more", "1", True),
        ("small", "sample-2", True),
        ("secret", "1", False),
        ("secret", "samples", False),
        ("samplers", "a", False),
    ],
)
def test_which_cases_are_samples(group: str, name: str, sample: bool) -> None:
    assert CaseSpec(name, group, FromFile(Path("x.in"))).is_sample is sample
