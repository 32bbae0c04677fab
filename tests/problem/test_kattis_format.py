"""The rest of the Kattis package format, testlib validators, and libraries shipped with problem programs.

Every package here is written by the test (small but real, judged through
the CLI or the same calls the commands make): ``type`` in its forms and its
refusals, a package without data/, ``include/`` drivers that a submission
needs to compile, ``{{constants}}`` in validators and submissions, a testlib
validator (a stand-in header written here, or the real one named by
``TESTLIB_H``) in our format and found by its source in a Kattis package, and
a library folder that reaches a problem's programs but never a contestant's.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from conftest import REPO_ROOT, cli, write_files

from judge.core import judge
from judge.core.added_to_build import added_to_build
from judge.core.testdata import generate
from judge.core.validators import validate
from judge.lang import prepare_program
from judge.model import Kind
from judge.problem.formats import is_kattis, load
from judge.run import Isolation, SlotPool
from judge.verdict import Verdict

SUM_VALIDATOR = """\
import sys
from pathlib import Path
# Kattis output validator: input answer feedback_dir < output; the output must be the input's sum.
want = sum(map(int, Path(sys.argv[1]).read_text().split()))
got = sys.stdin.read().split()
sys.exit(42 if got == [str(want)] else 43)
"""
# A test-written stand-in for testlib's validator interface, with its exit codes (0 valid, 3 _fail); no real testlib
# is shipped.
TESTLIB_STAND_IN = r"""
#include <cstdio>
#include <cstdlib>
#include <cstdarg>
enum TResult { _ok = 0, _wa = 1, _pe = 2, _fail = 3 };
struct InStream {
    [[noreturn]] void fail(const char *fmt, ...) {
        std::fprintf(stderr, "FAIL ");
        va_list ap; va_start(ap, fmt); std::vfprintf(stderr, fmt, ap); va_end(ap); std::exit(_fail);
    }
    long long readLong(long long lo, long long hi, const char *name) {
        int c = std::getchar(); bool neg = c == '-'; if (neg) c = std::getchar();
        if (c < '0' || c > '9') fail("expected integer %s", name);
        long long x = 0; while (c >= '0' && c <= '9') { x = 10 * x + (c - '0'); c = std::getchar(); }
        std::ungetc(c, stdin); if (neg) x = -x;
        if (x < lo || x > hi) fail("integer %s = %lld violates the range [%lld, %lld]", name, x, lo, hi);
        return x;
    }
    int readInt(int lo, int hi, const char *name) { return (int)readLong(lo, hi, name); }
    void readSpace() { if (std::getchar() != ' ') fail("expected a space"); }
    void readEoln() { if (std::getchar() != '\n') fail("expected end of line"); }
    void readEof() { if (std::getchar() != EOF) fail("expected end of file"); }
};
static InStream inf;
inline void registerValidation(int, char **) {}
"""
TESTLIB_VALIDATOR = r"""
#include "testlib.h"
int main(int argc, char *argv[]) {
    registerValidation(argc, argv);
    inf.readInt(1, 100, "n");
    inf.readEoln();
    inf.readEof();
}
"""


def stand_in_or_real_header() -> str:
    real = os.environ.get("TESTLIB_H")
    return Path(real).read_text() if real else TESTLIB_STAND_IN


def kattis(root: Path, problem_yaml: str, **extra: str) -> Path:
    """A 2025-09 package with two cases (sums of two numbers) and the sum output validator."""
    return write_files(
        root,
        {
            "problem.yaml": problem_yaml,
            "data/sample/1.in": "1 2\n",
            "data/sample/1.ans": "3\n",
            "data/secret/1.in": "20 22\n",
            "data/secret/1.ans": "42\n",
            "output_validator/check.py": SUM_VALIDATOR,
            **extra,
        },
    )


def one_line_error(package: Path, tmp_path: Path) -> str:
    solution = write_files(tmp_path, {"echo.py": "print(input())\n"}) / "echo.py"
    run = cli("judge", str(package), str(solution))
    lines = run.stderr.strip().splitlines()
    assert run.returncode == 2 and len(lines) == 1 and "Traceback" not in run.stderr, run.stderr
    return lines[0]


@pytest.mark.parametrize(
    ("problem_yaml", "kind"),
    [
        ("problem_format_version: 2025-09\n", Kind()),
        ("problem_format_version: 2025-09\ntype: scoring\n", Kind(scoring=True)),
        ("problem_format_version: 2025-09\ntype: pass-fail interactive\n", Kind(interactive=True)),
        (
            "problem_format_version: 2025-09\ntype: [scoring, multi-pass]\nlimits: {validation_passes: 3}\n",
            Kind(passes=3, scoring=True),
        ),
        ("problem_format_version: 2025-09\ntype: multi-pass\n", Kind(passes=2)),
        ("problem_format_version: 2025-09\ntype: submit-answer\n", Kind(submit_answer=True)),
        ("name: legacy\nvalidation: custom interactive\n", Kind(interactive=True)),
        ("name: legacy\nvalidation: custom score\n", Kind(scoring=True)),
    ],
)
def test_type_in_every_form_becomes_the_kind(tmp_path: Path, problem_yaml: str, kind: Kind) -> None:
    folder = "output_validators/check" if "legacy" in problem_yaml else "output_validator"
    package = write_files(
        tmp_path / "p",
        {
            "problem.yaml": problem_yaml,
            "data/secret/1.in": "1 2\n",
            "data/secret/1.ans": "3\n",
            f"{folder}/check.py": SUM_VALIDATOR,
        },
    )
    problem = load(package)
    assert problem.kind == kind
    assert problem.checker.program is not None and problem.checker.program.name == "check.py"
    assert problem.interactor == (problem.checker if kind.interactive else None)


@pytest.mark.parametrize(
    ("problem_yaml", "message"),
    [
        ("problem_format_version: 2025-09\ntype: pvp\n", "problem.yaml:2: unknown problem type 'pvp'"),
        (
            "problem_format_version: 2025-09\nname: x\ntype: [pass-fail, scoring]\n",
            "problem.yaml:3: problem types 'pass-fail' and 'scoring' cannot be combined",
        ),
        (
            "problem_format_version: 2025-09\ntype: interactive submit-answer\n",
            "'interactive' and 'submit-answer' cannot be combined",
        ),
        (
            "problem_format_version: 2025-09\ntype: multi-pass\nlimits: {validation_passes: 1}\n",
            "limits.validation_passes must be an integer >= 2",
        ),
        ("name: legacy\nvalidation: custom pvp\n", "problem.yaml:2: validation must be"),
    ],
)
def test_unknown_or_incompatible_type_is_one_line(tmp_path: Path, problem_yaml: str, message: str) -> None:
    package = kattis(tmp_path / "bad", problem_yaml)
    assert message in one_line_error(package, tmp_path)


def test_interactive_or_multi_pass_without_output_validator_is_one_line(tmp_path: Path) -> None:
    for kind in ("interactive", "multi-pass"):
        package = write_files(
            tmp_path / kind,
            {
                "problem.yaml": f"problem_format_version: 2025-09\ntype: {kind}\n",
                "data/secret/1.in": "1\n",
                "data/secret/1.ans": "1\n",
            },
        )
        assert "problem needs an output validator" in one_line_error(package, tmp_path)


def test_a_package_without_data_is_still_kattis(tmp_path: Path) -> None:
    """Like the spec's interactive example: problem.yaml and an output validator, no data/ at all."""
    package = write_files(
        tmp_path / "interactive",
        {
            "problem.yaml": "problem_format_version: 2025-09\ntype: interactive\nname: Guess\n",
            "output_validator/check.py": SUM_VALIDATOR,
        },
    )
    assert is_kattis(package)
    assert one_line_error(package, tmp_path).endswith("interactive: no test cases under data/")
    ours = write_files(
        tmp_path / "ours", {"problem.yaml": "title: t\nlimits: {time: 1, memory: 64}\nsolutions: [s.py]\ngroups: []\n"}
    )
    assert not is_kattis(ours)


DRIVER_CPP = """\
#include <cstdio>
long long add(long long a, long long b);  // written by the contestant
int main() { long long a, b; if (std::scanf("%lld %lld", &a, &b) == 2) std::printf("%lld\\n", add(a, b)); }
"""


def test_include_adds_drivers_and_helpers_before_building(tmp_path: Path) -> None:
    package = kattis(
        tmp_path / "inc",
        "problem_format_version: 2025-09\nname: Sum\nconstants: {offset: 0}\n",
        **{
            "include/cpp/main.cpp": DRIVER_CPP,
            "include/python3/helper.py": "def add(a, b):\n    return a + b + {{offset}}\n",
            "include/default/helper.py": (
                "def add(a, b):\n    return a - b  # never used by Python: include/python3 overrides it\n"
            ),
            "submissions/accepted/add.cpp": "long long add(long long a, long long b) { return a + b; }\n",
            "submissions/accepted/uses_helper.py": "import helper\nprint(helper.add(*map(int, input().split())))\n",
            "submissions/accepted/folder/main.py": "import helper\nprint(helper.add(*map(int, input().split())))\n",
            "submissions/accepted/folder/helper.py": (
                "def add(a, b):\n    return a * b  # the package's helper.py overwrites this one\n"
            ),
        },
    )
    verified = cli("verify", str(package))
    assert verified.returncode == 0, verified.stdout[-3000:] + verified.stderr[-2000:]
    for name in ("accepted/add.cpp", "accepted/uses_helper.py", "accepted/folder"):
        assert f"ok    {name}" in verified.stdout, verified.stdout
    outside = (
        write_files(tmp_path / "student", {"add.cpp": "long long add(long long a, long long b) { return a + b; }\n"})
        / "add.cpp"
    )
    report = tmp_path / "report.json"
    judged = cli("judge", str(package), str(outside), "--json", str(report))
    assert judged.returncode == 0 and json.loads(report.read_text())["verdict"] == "AC", judged.stderr
    with SlotPool(1, Isolation("none")) as pool:
        bare = prepare_program(outside, None, pool, 60)
    assert (
        not bare.compiled and "main" in bare.compile_log
    )  # the contestant's file alone does not link: the driver was needed


def test_constants_are_written_into_the_build_copies_only(tmp_path: Path) -> None:
    package = kattis(
        tmp_path / "const",
        "problem_format_version: 2025-09\nconstants:\n  k: 2\n  big: {value: 1000, tex: '10^3'}\n",
        **{
            "output_validator/check.py": (
                "import sys\nfrom pathlib import Path\n"
                "want = sum(map(int, Path(sys.argv[1]).read_text().split())) + {{k}}\n"
                "sys.exit(42 if sys.stdin.read().split() == [str(want)] else 43)\n"
            ),
            "input_validators/range.py": (
                "import sys\nsys.exit(42 if all(0 <= int(t) <= {{big}} for t in sys.stdin.read().split()) else 43)\n"
            ),
            "submissions/accepted/plus_k.py": (
                "# {{big.tex}} at most; {{nowhere}} is no constant\nprint(sum(map(int, input().split())) + {{k}})\n"
            ),
            "submissions/wrong_answer/plain.py": "print(sum(map(int, input().split())))\n",
        },
    )
    verified = cli("verify", str(package))
    assert verified.returncode == 0, verified.stdout[-3000:] + verified.stderr[-2000:]
    assert "ok    accepted/plus_k.py" in verified.stdout and "ok    wrong_answer/plain.py" in verified.stdout
    assert "submissions/accepted/plus_k.py: {{nowhere}} is not a constant" in verified.stdout + verified.stderr
    assert "{{k}}" in (package / "submissions/accepted/plus_k.py").read_text()  # the package on disk is never changed
    problem = load(package)
    assert problem.files.constants == {"k": "2", "k.value": "2", "big": "1000", "big.value": "1000", "big.tex": "10^3"}
    with SlotPool(1, Isolation("none")) as pool:
        assert validate(problem, pool) == []
        (package / "data/secret/1.in").write_text("2000 1\n")
        assert [line.split(":")[0] for line in validate(problem, pool)] == ["secret/1"]


def package_with_testlib_validator(root: Path, validator: str) -> Path:
    return write_files(
        root,
        {
            "problem.yaml": f"title: t\nlimits: {{time: 1, memory: 128}}\nvalidator: {validator}\nsolutions: [sol.py]\n"
            "groups:\n  - {name: all, points: 10, cases: [{name: ok, file: ok.in}, {name: big, file: big.in}]}\n",
            "v.cpp": TESTLIB_VALIDATOR,
            "testlib.h": stand_in_or_real_header(),
            "ok.in": "7\n",
            "big.in": "500\n",
            "sol.py": "print(input())\n",
            "statement.md": "# t\n",
        },
    )


@pytest.mark.parametrize("validator", ["{type: testlib, program: v.cpp}", "v.cpp"])
def test_testlib_validator_in_our_format(tmp_path: Path, validator: str) -> None:
    problem = load(package_with_testlib_validator(tmp_path / "tl", validator))
    with SlotPool(1, Isolation("none")) as pool:
        generate(problem, pool)
        failures = validate(problem, pool)
    assert len(failures) == 1 and failures[0].startswith("all/big: invalid: ") and "500" in failures[0], failures


def test_stated_kattis_protocol_wins_over_detection(tmp_path: Path) -> None:
    """``type: kattis`` says 42 is valid: the testlib validator's exit 0 is then a failure of the validator itself."""
    problem = load(package_with_testlib_validator(tmp_path / "tl", "{type: kattis, program: v.cpp}"))
    with SlotPool(1, Isolation("none")) as pool:
        generate(problem, pool)
        failures = validate(problem, pool)
    assert any("all/ok: validator failed (exit code 0" in line for line in failures), failures


def test_testlib_validator_found_in_a_kattis_package(tmp_path: Path) -> None:
    package = kattis(
        tmp_path / "k",
        "problem_format_version: 2025-09\n",
        **{
            "input_validators/tl/v.cpp": TESTLIB_VALIDATOR.replace(
                'inf.readInt(1, 100, "n");\n    inf.readEoln();',
                'inf.readInt(1, 100, "a"); inf.readSpace(); inf.readInt(1, 100, "b");\n    inf.readEoln();',
            ),
            "input_validators/tl/testlib.h": stand_in_or_real_header(),
            "input_validators/extra.ctd": "INT(1, 100) SPACE INT(1, 100) NEWLINE\nEOF\n",
            "input_validators/extra.viva": "<pattern>\n",
        },
    )
    problem = load(package)
    assert [p.name for p in problem.validators] == ["extra.ctd", "v.cpp"]  # the .viva script is left out, and named
    with SlotPool(1, Isolation("none")) as pool:
        assert validate(problem, pool) == []
        (package / "data/secret/1.in").write_text("20 222\n")
        failures = validate(problem, pool)
    assert [f.split(":")[1] for f in failures] == [" invalid (extra.ctd)", " invalid (v.cpp)"], failures
    assert all(f.startswith("secret/1: ") for f in failures) and "222" in failures[1], failures
    from judge.problem.formats.kattis import package_warnings

    assert any(w.startswith("input_validators/extra.viva: not run") for w in package_warnings(problem))


def test_a_library_reaches_problem_programs_and_never_submissions(tmp_path: Path) -> None:
    lib = write_files(
        tmp_path / "problems" / "_lib" / "py", {"shared.py": "LIMIT = 50\n\ndef twice(x):\n    return 2 * x\n"}
    )
    root = write_files(
        tmp_path / "problems" / "p",
        {
            "problem.yaml": (
                "title: t\nlimits: {time: 1, memory: 128}\ngenerator: gen.py\nvalidator: val.py\n"
                "libraries: [../_lib/py]\n"
                "checker: {type: kattis, program: check.py}\nsolutions: [submissions/accepted/ref.py]\n"
                "groups:\n  - {name: all, points: 10, cases: [{name: a, generate: '3'}, {name: b, generate: '21'}]}\n"
            ),
            "gen.py": "import sys\nimport shared\nprint(shared.twice(int(sys.argv[1])))\n",
            "val.py": "import sys\nimport shared\nsys.exit(42 if int(sys.stdin.read()) <= shared.LIMIT else 43)\n",
            "check.py": "import sys\nimport shared\nfrom pathlib import Path\nn = int(Path(sys.argv[1]).read_text())\n"
            "sys.exit(42 if sys.stdin.read().split() == [str(shared.twice(n))] else 43)\n",
            "submissions/accepted/ref.py": "import shared\nprint(shared.twice(int(input())))\n",
            "statement.md": "# t\n",
        },
    )
    problem = load(root)
    assert problem.files.libraries == (lib.resolve(),)
    student = write_files(
        tmp_path / "student",
        {"sol.py": "import shared\nprint(shared.twice(int(input())))\n", "plain.py": "print(2 * int(input()))\n"},
    )
    assert not added_to_build(problem, student / "sol.py").folders and added_to_build(
        problem, root / "gen.py"
    ).folders == (lib.resolve(),)
    with SlotPool(1, Isolation("none")) as pool:
        generate(problem, pool)
        assert (problem.cases_dir / "all" / "b.in").read_text() == "42\n"
        assert validate(problem, pool) == []
        plain = judge(
            problem,
            prepare_program(student / "plain.py", None, pool, 60, extra=added_to_build(problem, student / "plain.py")),
            pool,
        )
        importing = judge(
            problem,
            prepare_program(student / "sol.py", None, pool, 60, extra=added_to_build(problem, student / "sol.py")),
            pool,
        )
    assert plain.verdict is Verdict.AC and importing.verdict is Verdict.RE
    manifest = json.loads((problem.cases_dir / "manifest.json").read_text())
    assert manifest["sources"]["../_lib/py/shared.py"]  # editing the library makes the data stale


def test_the_library_folder_is_not_a_problem() -> None:
    listed = cli("list")
    assert listed.returncode == 0 and "_lib" not in listed.stdout and "eight" in listed.stdout
    assert "libraries: [../_lib/python]" in (REPO_ROOT / "problems" / "eight" / "problem.yaml").read_text()


def test_a_kattis_submission_starts_among_its_files_and_the_included_data(tmp_path: Path) -> None:
    """The spec's working directory: the submission's files and include/ (a data file read as ./offset.txt),
    read-only."""
    package = kattis(
        tmp_path / "data",
        "problem_format_version: 2025-09\nname: Sum\n",
        **{
            "include/default/offset.txt": "0\n",
            "submissions/accepted/reads_data.py": (
                "a, b = map(int, input().split())\nprint(a + b + int(open('offset.txt').read()))\n"
            ),
            "submissions/run_time_error/writes_here.py": (
                "open('new.txt', 'w').write('x')\nprint(sum(map(int, input().split())))\n"
            ),
        },
    )
    verified = cli("verify", str(package))
    assert verified.returncode == 0, verified.stdout[-3000:] + verified.stderr[-2000:]
    assert (
        "ok    accepted/reads_data.py" in verified.stdout and "ok    run_time_error/writes_here.py" in verified.stdout
    )


def test_include_and_constants_in_our_own_format(tmp_path: Path) -> None:
    """The same include/ and {{constants}} as a Kattis package has, named by our problem.yaml."""
    package = write_files(
        tmp_path / "ours",
        {
            "problem.yaml": """\
            title: Sum with a driver
            include: include
            constants: {offset: 0, limit: 1000}
            limits: {time: 1, memory: 256}
            validator: validate.py
            solutions: [ref.py]
            groups:
              - name: all
                points: 100
                cases:
                  - {name: small, file: inputs/1.in}
                  - {name: big, file: inputs/2.in}
            """,
            "validate.py": (
                "import sys\nnums = list(map(int, sys.stdin.read().split()))\n"
                "sys.exit(42 if all(abs(n) <= {{limit}} for n in nums) else 43)\n"
            ),
            "ref.py": "print(sum(map(int, input().split())))\n",
            "inputs/1.in": "1 2\n",
            "inputs/2.in": "400 600\n",
            "include/cpp/main.cpp": DRIVER_CPP,
            "include/python3/helper.py": "def add(a, b):\n    return a + b + {{offset}}\n",
            "submissions/accepted/add.cpp": "long long add(long long a, long long b) { return a + b; }\n",
            "submissions/accepted/uses_helper.py": "import helper\nprint(helper.add(*map(int, input().split())))\n",
            "submissions/wrong_answer/off.cpp": "long long add(long long a, long long b) { return a + b + 1; }\n",
        },
    )
    assert cli("generate", str(package)).returncode == 0
    verified = cli("verify", str(package))
    assert verified.returncode == 0, verified.stdout[-3000:] + verified.stderr[-2000:]
    assert "verified: 4/4 submissions as expected, 2/2 inputs valid" in verified.stdout, verified.stdout
