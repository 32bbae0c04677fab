"""Kattis problem packages judged as they are, our packages exported to the format, testlib checkers run unchanged.

The fixture packages are written by the tests themselves, small but real:
a legacy pass-fail package with nested groups, default-validator flags, an
inferred time limit and a folder submission; a 2025-09 scoring package with
a custom output validator, scoring groups and an explicit limit; an
interactive one that must be refused. The export round trip runs verify on
the exported form of a bundled problem (slide, with the cases that catch each
submission; why that one alone and those cases are said above the test).
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

import pytest
from conftest import REPO_ROOT, bundled_with_fewer_cases, cli, write_files

from judge.check import compare_kattis_default
from judge.lang import by_extension, saved_name
from judge.verdict import Verdict

SUM = "import sys\nnums = list(map(float, sys.stdin.read().split()))\nprint(f'{sum(nums):.6f}')\n"
BUSY = "int main(void){volatile unsigned long x=0;for(unsigned long i=0;i<40000000000UL;i++)x++;return 0;}\n"
CRASH = "import sys\nsys.exit(5)\n"


@pytest.fixture
def legacy(tmp_path: Path) -> Path:
    """Legacy layout: nested secret groups, validator_flags + group flags, no time limit, a folder submission."""
    return write_files(
        tmp_path / "sumfloat",
        {
            "problem.yaml": (
                "name: Sum of floats\nvalidator_flags: float_tolerance 1e-6\nlimits:\n  time_multiplier: 5\n"
            ),
            "problem_statement/problem.en.tex": "\\problemname{Sum of floats}\n",
            "data/sample/1.in": "1.5 2.5\n",
            "data/sample/1.ans": "4\n",
            "data/secret/a/1.in": "1 2 3\n",
            "data/secret/a/1.ans": "6.0000001\n",
            "data/secret/a/deep/2.in": "0.1 0.2\n",
            "data/secret/a/deep/2.ans": "0.3\n",
            "data/secret/b/testdata.yaml": "output_validator_flags: case_sensitive\n",
            "data/secret/b/3.in": "10\n",
            "data/secret/b/3.ans": "10\n",
            "input_validators/check.py": (
                "import sys\nok = all(t.replace('.', '', 1).isdigit() for t in sys.stdin.read().split())\n"
                "sys.exit(42 if ok else 43)\n"
            ),
            "submissions/accepted/sum.py": SUM,
            "submissions/accepted/folder/main.py": SUM,
            "submissions/accepted/folder/README": "a folder submission\n",
            "submissions/wrong_answer/truncate.py": (
                "import sys\nprint(int(sum(map(float, sys.stdin.read().split()))))\n"
            ),
            "submissions/time_limit_exceeded/busy.c": BUSY,
            "submissions/run_time_error/crash.py": CRASH,
        },
    )


VALIDATOR = """
import sys
from pathlib import Path
# Kattis protocol: input answer feedback_dir [args] < output. Accepts any pair summing to the input's number.
target = int(open(sys.argv[1]).read())
bonus = sys.argv[4:] == ["--strict"]
feedback = Path(sys.argv[3])
try:
    a, b = map(int, sys.stdin.read().split())
except ValueError:
    feedback.joinpath("judgemessage.txt").write_text("need two integers")
    sys.exit(43)
if a + b != target or a < 0 or b < 0:
    feedback.joinpath("judgemessage.txt").write_text(f"{a} + {b} is not {target}")
    sys.exit(43)
if bonus and a != b:
    feedback.joinpath("score_multiplier.txt").write_text("0.5")
sys.exit(42)
"""


@pytest.fixture
def scoring(tmp_path: Path) -> Path:
    """2025-09 layout: scoring groups (min and sum), a custom output validator with args, an explicit time limit."""
    return write_files(
        tmp_path / "split",
        {
            "problem.yaml": (
                "problem_format_version: 2025-09\nname: {en: Split}\nuuid: 0e6f2a3c-1b2c-4d5e-8f90-123456789abc\n"
                "type: scoring\nlimits:\n  time_limit: 1.5\n  memory: 256\n"
            ),
            "statement/problem.en.md": "Split n into two non-negative integers.\n",
            "data/sample/1.in": "4\n",
            "data/sample/1.ans": "2 2\n",
            "data/secret/test_group.yaml": "max_score: 100\n",
            "data/secret/01-easy/test_group.yaml": "max_score: 30\nscore_aggregation: min\n",
            "data/secret/01-easy/1.in": "2\n",
            "data/secret/01-easy/1.ans": "1 1\n",
            "data/secret/02-hard/test_group.yaml": (
                "max_score: 70\nscore_aggregation: sum\noutput_validator_args: [--strict]\n"
            ),
            "data/secret/02-hard/1.in": "10\n",
            "data/secret/02-hard/1.ans": "5 5\n",
            "data/secret/02-hard/2.in": "7\n",
            "data/secret/02-hard/2.ans": "3 4\n",
            "output_validator/validate.py": VALIDATOR,
            "submissions/accepted/half.py": "n = int(input())\nprint(n // 2, n - n // 2)\n",
            "submissions/wrong_answer/plus_one.py": "n = int(input())\nprint(n, 1)\n",
        },
    )


def report_of(run_dir: Path, *args: str) -> tuple[int, dict]:
    out = run_dir / "report.json"
    run = cli("judge", *args, "--json", str(out))
    return run.returncode, json.loads(out.read_text()) if out.exists() else {"stderr": run.stderr}


@pytest.mark.slow
def test_legacy_package_verifies_with_inferred_time_limit(legacy: Path) -> None:
    run = cli("verify", str(legacy))
    assert run.returncode == 0, run.stdout + run.stderr
    assert re.search(
        r"time limit inferred the Kattis way: slowest accepted [\d.]+ s \(\S+\) × 5, rounded up to 1 s → 1 s",
        run.stderr,
    )
    for line in (
        "accepted/folder",
        "accepted/sum.py",
        "wrong_answer/truncate.py",
        "time_limit_exceeded/busy.c",
        "run_time_error/crash.py",
    ):
        assert re.search(rf"ok\s+{re.escape(line)}", run.stdout), run.stdout
    assert "5/5 submissions as expected, 4/4 inputs valid" in run.stdout


def test_legacy_flags_reach_the_default_validator(legacy: Path, tmp_path: Path) -> None:
    shouty = tmp_path / "shouty.py"
    shouty.write_text("import sys\nprint(f'{sum(map(float, sys.stdin.read().split())):.9f}')\n")
    code, report = report_of(tmp_path, str(legacy), str(shouty))
    assert code == 0, report
    assert [c["group"] for c in report["cases"]] == ["sample", "secret/a", "secret/a/deep", "secret/b"]
    assert report["max_score"] == 0  # pass-fail: no points


@pytest.mark.slow
def test_scoring_package_groups_validator_args_and_score_multiplier(scoring: Path, tmp_path: Path) -> None:
    run = cli("verify", str(scoring))
    assert run.returncode == 0, run.stdout + run.stderr
    uneven = tmp_path / "uneven.py"
    uneven.write_text("n = int(input())\nprint(n - 1, 1)\n")
    code, report = report_of(tmp_path, str(scoring), str(uneven))
    assert code == 0 and report["verdict"] == "AC"
    groups = {g["name"]: g for g in report["groups"]}
    assert groups["secret/01-easy"]["earned"] == 30
    assert groups["secret/02-hard"]["earned"] == pytest.approx(35.0)  # sum of two half-scored cases
    assert report["score"] == pytest.approx(65.0) and report["max_score"] == 100
    wrong = tmp_path / "wrong.py"
    wrong.write_text("print(0, 0)\n")
    code, report = report_of(tmp_path, str(scoring), str(wrong))
    assert code == 1 and report["verdict"] == "WA"
    assert report["cases"][0]["message"] == "0 + 0 is not 4"


@pytest.mark.parametrize(
    ("output", "answer", "flags", "verdict"),
    [
        (b"Hello World\n", b"hello   world", [], Verdict.AC),
        (b"Hello World\n", b"hello world\n", ["case_sensitive"], Verdict.WA),
        (b"a  b\n", b"a b\n", ["space_change_sensitive"], Verdict.WA),
        (b"a b\n", b"a b\n", ["space_change_sensitive"], Verdict.AC),
        (b"1.0000001\n", b"1\n", ["float_tolerance", "1e-6"], Verdict.AC),
        (b"1.0\n", b"1\n", [], Verdict.WA),
        (b"101\n", b"100\n", ["float_relative_tolerance", "0.02"], Verdict.AC),
        (b"101\n", b"100\n", ["float_absolute_tolerance", "0.5"], Verdict.WA),
        (b"101\n", b"100\n", ["float_absolute_tolerance", "0.5", "float_relative_tolerance", "0.01"], Verdict.AC),
        (b"abc\n", b"1.5\n", ["float_tolerance", "1"], Verdict.WA),
        (b"nan\n", b"1.5\n", ["float_tolerance", "1"], Verdict.WA),
        (b"YES 2\n", b"yes 2.0\n", ["float_tolerance", "0"], Verdict.AC),
        (b"1 2\n", b"1 2 3\n", [], Verdict.WA),
        (b"1\n", b"1\n", ["no_such_flag"], Verdict.JE),
        # white space is compared even where the tokens pass only by a tolerance, and where it lies at an end
        (b"1.00  2\n", b"1.0 2\n", ["space_change_sensitive", "float_tolerance", "1e-6"], Verdict.WA),
        (b" a b", b"a b ", ["space_change_sensitive"], Verdict.WA),
        (b"1\n", b"1\n", ["float_tolerance", "-1"], Verdict.JE),
    ],
)
def test_default_output_validator_flags(output: bytes, answer: bytes, flags: list[str], verdict: Verdict) -> None:
    assert compare_kattis_default(output, answer, flags).verdict is verdict


# One bundled problem: slide, with a custom Kattis output validator that imports a shared library (exported with
# it), an accepted Java submission renamed after its public class, Python, C++, and a time_limit_exceeded submission
# judged against the single 2025-09 time limit while tilejudge.yaml keeps the per-language factors. hdoj3600 was here
# too (21 s idle) for two things slide lacks, each now proved elsewhere at a fraction of the cost: the lines checker
# exported as the default validator with its flags, with verdicts, in test_export_formats.py's round trip of every
# format version (and by both reference tools on hdoj3600 in test_export_reference_tools.py), and a C submission,
# now in that round trip's package too. The interactive kind's round trip is test_blind_export_verifies. The other
# problems go through the same code with other data; each is verified natively (test_bundled_problems.py) and,
# with TILEJUDGE_REFERENCE_PROBLEMS, exported to the reference tools.
# Slide is exported with 8 of its 60 cases, those that catch each wrong submission and one of the largest boards:
# the samples (the wrong letters and the move one short), two 2x2 boards and an impossible 4x4 one (even sides,
# where wa_blank_row_from_top counts the blank's row from the wrong end), a 5x5 board (beyond IDA*) and a 10x10
# one (the accepted Python and Java at their largest). The solvable 4x4 board is left out: IDA* solves it in about
# 1.2 s, over the limit and under the limit times time_limit_to_tle, so verify judged it twice. Every case costs a
# run of the Python output validator (checker.py) for each of the eight submissions (verifying the whole export took
# 23.4 s idle); the cases left out take the same path through the export, and the whole data is verified natively
# with every submission in test_bundled_problems.py.
FEWER: dict[str, dict[str, list[str] | None]] = {
    "slide": {
        "sample": None,
        "tiny": ["perm-2x2-01", "perm-2x2-02"],
        "small": ["random-4-no", "random-5-yes"],
        "large": ["random-10-yes"],
    }
}


@pytest.mark.slow
@pytest.mark.parametrize("problem", ["slide"])
def test_export_round_trip_gives_every_submission_its_verdict(problem: str, tmp_path: Path) -> None:
    out = tmp_path / problem
    fewer = bundled_with_fewer_cases(problem, FEWER[problem], tmp_path / "native")
    exported = cli("export", str(fewer), "--format", "kattis", str(out))
    assert exported.returncode == 0, exported.stderr
    assert len(list((out / "data").rglob("*.in"))) == 8
    meta = (out / "problem.yaml").read_text()
    assert "problem_format_version: 2025-09" in meta and "time_limit:" in meta
    assert (out / "statement" / "problem.en.tex").is_file() and (out / "data" / "secret").is_dir()
    verified = cli("verify", str(out))
    assert verified.returncode == 0, verified.stdout[-3000:] + verified.stderr[-2000:]
    # each under the name its compiler wants: a Java file under its public class's name
    base = REPO_ROOT / "problems" / problem / "submissions"
    original = sorted(
        (
            p.parent.relative_to(base)
            / (saved_name(by_extension(p), p.name, p.read_bytes()) if by_extension(p) else p.name)
        ).as_posix()
        for p in base.rglob("*")
        if p.is_file()
    )
    seen = sorted(re.findall(r"ok\s+(\S+)\s+expected", verified.stdout))
    assert seen == original


TESTLIB_STAND_IN = r"""
// A test-written stand-in with testlib's interface and exit codes, used when no real testlib.h is available.
#include <cstdio>
#include <cstdlib>
#include <cstdarg>
enum TResult { _ok = 0, _wa = 1, _pe = 2, _fail = 3, _points = 7 };
struct InStream {
    FILE *f;
    long long readLong() {
        long long x;
        if (std::fscanf(f, "%lld", &x) != 1) { std::fprintf(stderr, "wrong output format"); std::exit(_pe); }
        return x;
    }
    int readInt() { return (int)readLong(); }
};
static InStream inf, ouf, ans;
void registerTestlibCmd(int argc, char *argv[]) {
    if (argc < 4) std::exit(_fail);
    inf.f = std::fopen(argv[1], "r"); ouf.f = std::fopen(argv[2], "r"); ans.f = std::fopen(argv[3], "r");
}
void quitf(TResult r, const char *fmt, ...) {
    va_list ap; va_start(ap, fmt); std::vfprintf(stderr, fmt, ap); va_end(ap); std::exit(r);
}
void quitp(double points, const char *fmt, ...) {
    std::fprintf(stderr, "%.6f ", points);
    va_list ap; va_start(ap, fmt); std::vfprintf(stderr, fmt, ap); va_end(ap); std::exit(_points);
}
"""

TESTLIB_CHECKER = r"""
#include "testlib.h"
// Unchanged testlib style: the sum must match; half points for being off by one.
int main(int argc, char *argv[]) {
    registerTestlibCmd(argc, argv);
    long long want = ans.readLong(), got = ouf.readLong();
    if (got == want) quitf(_ok, "sum %lld", got);
    if (got == want + 1 || got == want - 1) quitp(0.5, "off by one");
    quitf(_wa, "expected %lld, found %lld", want, got);
}
"""


def test_testlib_checker_compiles_unchanged_with_its_header(tmp_path: Path) -> None:
    real = os.environ.get("TESTLIB_H")
    root = write_files(
        tmp_path / "problems" / "tl",
        {
            "problem.yaml": (
                "title: testlib\nlimits: {time: 1, memory: 128}\nchecker: {type: testlib, program: check.cpp}\n"
                "solutions: [sol.py]\n"
                "groups:\n  - {name: all, points: 10, cases: [{name: a, file: a.in}, {name: b, file: b.in}]}\n"
            ),
            "check.cpp": TESTLIB_CHECKER,
            "testlib.h": Path(real).read_text() if real else TESTLIB_STAND_IN,
            "a.in": "1 2\n",
            "b.in": "5 5\n",
            "sol.py": "print(sum(map(int, input().split())))\n",
            "statement.md": "# t\n",
        },
    )
    code, report = report_of(tmp_path, str(root), str(root / "sol.py"))
    assert code == 0 and report["verdict"] == "AC", report
    off = tmp_path / "off.py"
    off.write_text("print(sum(map(int, input().split())) + 1)\n")
    code, report = report_of(tmp_path, str(root), str(off))
    assert report["verdict"] == "WA" and report["score"] == pytest.approx(5.0)
    assert "off by one" in report["cases"][0]["message"]
    assert not (REPO_ROOT / "testlib.h").exists() and not list(REPO_ROOT.glob("judge/**/testlib.h"))


@pytest.mark.parametrize(
    ("files", "message"),
    [
        ({"problem.yaml": "name: x\nlimits:\n  memory: lots\n"}, "problem.yaml: limits: invalid literal"),
        (
            {"problem.yaml": "name: x\n", "data/secret/testdata.yaml": "a: [\n"},
            "data/secret/testdata.yaml:2: invalid YAML",
        ),
        (
            {"problem.yaml": "problem_format_version: 2025-09\nname: x\n", "data/secret/test_group.yaml": "- a list\n"},
            "test_group.yaml:1: test_group.yaml must be a mapping",
        ),
    ],
)
def test_malformed_kattis_package_is_a_one_line_error(tmp_path: Path, files: dict[str, str], message: str) -> None:
    package = write_files(tmp_path / "bad", {"data/secret/1.in": "1\n", "data/secret/1.ans": "1\n", **files})
    solution = write_files(tmp_path, {"echo.py": "print(input())\n"}) / "echo.py"
    run = cli("judge", str(package), str(solution))
    assert run.returncode == 2, run.stderr
    lines = run.stderr.strip().splitlines()
    assert len(lines) == 1 and message in lines[0] and "Traceback" not in run.stderr
