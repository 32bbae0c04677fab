"""A newcomer's first hour, round two (issue 46, items 4 and 6 to 9): what the judge says must hold as said.

A summary that reads the same on the second judging; a reproduce line that runs as printed; usage errors that show
the usage and guess a mistyped command; skip reasons and progress that tell the truth; words in the statements and
docs that match what the judge does.
"""

from __future__ import annotations

import importlib.util
import re
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from types import ModuleType

import pytest
from conftest import REPO_ROOT, cli, copy_problem, language_missing, write_files

# wrong, and slow, on the first secret case; right and quick on every other: with -j 4 the later cases end first.
# In C, as the accepted echo: a Python run costs several times a C one's CPU, and the language is not what is tested.
SLOW_FIRST_WRONG = (
    "#include <stdio.h>\n#include <unistd.h>\n"
    'int main(void) { int n; scanf("%d", &n); if (n == 1) { usleep(600000); n = -1; } printf("%d\\n", n); }\n'
)
ECHO = '#include <stdio.h>\nint main(void) { int n; scanf("%d", &n); printf("%d\\n", n); }\n'


def _break_package(root: Path) -> Path:
    cases = {f"data/secret/{n}.{ext}": f"{n}\n" for n in range(1, 9) for ext in ("in", "ans")}
    return write_files(
        root,
        {
            "problem.yaml": "name: Echo\n",  # legacy pass-fail: secret stops at its first rejection (on_reject: break)
            "data/sample/1.in": "5\n",
            "data/sample/1.ans": "5\n",
            **cases,
            "submissions/accepted/right.c": ECHO,
            "submissions/wrong_answer/slow_first.c": SLOW_FIRST_WRONG,
        },
    )


def _rows_and_summary(stdout: str) -> tuple[list[list[str]], str]:
    rows = [line.split()[:4] for line in stdout.splitlines() if line.split()[:1] and line.split()[0].isdigit()]
    summary = next(line for line in stdout.splitlines() if " | score " in line)
    return rows, summary


def test_the_judge_summary_and_table_do_not_depend_on_which_case_finished_first(tmp_path: Path) -> None:
    """Item 4: one at a time the later secret cases are never run; four at a time they end before the slow first one
    does. Both judgings must say the same: the verdict, "k passed, m failed, s skipped of N", the table in the cases'
    order with the same verdict on every row."""
    root = _break_package(tmp_path / "echo")
    submission = str(root / "submissions" / "wrong_answer" / "slow_first.c")
    said = []
    for jobs in ("1", "4"):
        run = cli("judge", str(root), submission, "-j", jobs)
        assert run.returncode == 1, run.stdout + run.stderr
        said.append(_rows_and_summary(run.stdout))
    (rows_one, summary_one), (rows_four, summary_four) = said
    assert [row[0] for row in rows_four] == [str(n) for n in range(1, 10)], rows_four
    assert rows_one == rows_four
    assert [row[3] for row in rows_four] == ["AC", "WA"] + ["SKIPPED"] * 7
    stable = [" | ".join(s.split(" | ")[:3]) for s in (summary_one, summary_four)]
    assert (
        stable[0] == stable[1] == "WA (wrong answer) on case secret/1 | score 0/0 | 1 passed, 1 failed, 7 skipped of 9"
    )


def test_a_mistyped_command_gets_the_closest_command() -> None:
    """Item 7: as a mistyped problem does; a word like no command gets the list of commands instead."""
    run = cli("judgee", "poj2893", "sol.cpp")
    assert run.returncode == 2
    assert run.stderr.strip() == "error: judgee: no such command; did you mean judge?", run.stderr
    unlike = cli("zzzzzz")
    assert unlike.returncode == 2 and "did you mean" not in unlike.stderr and "judge, generate" in unlike.stderr


def test_judging_announces_every_case_once_in_the_cases_order_as_the_report_has_it(tmp_path: Path) -> None:
    """Item 4, below the table: what ``judge`` hears as cases end (its live table, a service's events) is every case,
    once, in the cases' order, with the result the report keeps: no later case's result that an earlier one makes
    SKIPPED, and the SKIPPED ones in their turn, so the table is not held back behind them until the end."""
    from judge.cli.common import ready
    from judge.core import JudgeOptions, judge
    from judge.core.submission import prepare_submission
    from judge.problem.formats import load
    from judge.run import SlotPool, resolve_sandbox

    root = _break_package(tmp_path / "echo")
    problem = load(root)
    isolation, _ = resolve_sandbox(None)
    heard: list[tuple[str, str]] = []
    with SlotPool(4, isolation, conceal=problem.folders) as pool:
        problem = ready(problem, pool)  # its time limit inferred from the accepted submission, as judge does
        program = prepare_submission(problem, root / "submissions" / "wrong_answer" / "slow_first.c", pool)
        report = judge(
            problem, program, pool, JudgeOptions(skip_lost=True), lambda r: heard.append((r.name, r.verdict.value))
        )
    assert heard == [(c.name, c.verdict.value) for c in report.cases]
    assert [verdict for _, verdict in heard] == ["AC", "WA"] + ["SKIPPED"] * 7


@pytest.mark.parametrize("given", [[], ["poj2893"]], ids=["nothing", "a-problem-only"])
def test_judge_without_its_arguments_shows_its_usage_and_asks_for_a_submission(given: list[str]) -> None:
    """Item 7: not only "the following arguments are required: problem": the usage line, and that a submission is
    needed as well as the problem, before any problem is loaded."""
    run = cli("judge", *given)
    assert run.returncode == 2, run.stderr
    lines = run.stderr.strip().splitlines()
    assert lines[0].startswith("usage: ") and " judge " in lines[0], run.stderr
    assert "problem [submission]" in run.stderr
    assert lines[-1].startswith("error: judge needs a ") and "SUBMISSION" in lines[-1] and "--cmd" in lines[-1]
    assert ("PROBLEM" in lines[-1]) == (not given)


def test_a_bare_command_exits_2_with_the_usage_even_before_the_requirements_are_installed(tmp_path: Path) -> None:
    """Item 7: Debian's own Python, before the set-up's ``pip install``, has no PyYAML: ``run_judge.py`` alone still
    lists the commands and exits 2 (bad usage), and a command that needs PyYAML says to install the requirements, in
    one line, instead of a judge error about a ModuleNotFoundError."""
    code = "import sys; sys.modules['yaml'] = None; from judge.cli import main; sys.exit(main(sys.argv[1:]))"

    def without_yaml(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-c", code, *args], cwd=REPO_ROOT, capture_output=True, text=True, timeout=60
        )

    bare = without_yaml()
    assert bare.returncode == 2, bare.stderr
    assert bare.stdout.startswith("usage: ") and "exit codes:" in bare.stdout and bare.stderr == ""
    package = write_files(tmp_path / "echo", {"problem.yaml": "name: Echo\n", "data/sample/1.in": "1\n"})
    needing = without_yaml("validate", str(package))
    assert needing.returncode == 3, needing.stderr
    assert needing.stderr.strip().splitlines() == [needing.stderr.strip()], needing.stderr
    assert "PyYAML is not installed" in needing.stderr and "pip install -r requirements.txt" in needing.stderr


GEN_CPP = r"""#include <cstdio>
#include <cstdlib>
#include <cstring>
int main(int argc, char** argv) {
    long count = 0, seed = 0;
    for (int i = 1; i + 1 < argc; i += 2) {
        if (!strcmp(argv[i], "--count")) count = atol(argv[i + 1]);
        if (!strcmp(argv[i], "--seed")) seed = atol(argv[i + 1]);
    }
    printf("%ld\n", count);
    for (long i = 0; i < count; i++)
        printf("%ld%c", (seed * 7919 + i * 104729) % 2001 - 1000, i + 1 < count ? ' ' : '\n');
}
"""


@pytest.mark.parametrize("generator", ["gen.py", "gen.cpp"])
def test_the_stress_reproduce_line_runs_as_printed(generator: str, tmp_path: Path) -> None:
    """Item 6: "reproduce: problems/poj2893/generator.py …" failed with "Permission denied" (the file is no
    executable). The printed line, run in a shell where the judge ran, must print the saved input: for a Python
    generator (not executable) and a compiled one, in a folder whose name needs quoting."""
    root = copy_problem("gensum", tmp_path / "my problems")
    (root / "gen.py").chmod(0o644)
    if generator == "gen.cpp":
        (root / "gen.cpp").write_text(GEN_CPP)
        spec = root / "problem.yaml"
        spec.write_text(spec.read_text().replace("generator: gen.py", "generator: gen.cpp"))
    wrong = tmp_path / "wrong.py"
    wrong.write_text("print(0)\n")
    run = cli("stress", str(root), str(wrong), "--gen-args", "--count {size} --seed {seed}", "--seconds", "3")
    assert run.returncode == 1, run.stdout + run.stderr
    line = next(line for line in run.stdout.splitlines() if line.startswith("reproduce: "))[len("reproduce: ") :]
    name = re.search(r"promote (.+) (stress-\d+)$", run.stdout, re.MULTILINE).group(2)
    saved = (tmp_path / "my problems" / "cases" / "gensum" / "stress" / f"{name}.in").read_bytes()
    again = subprocess.run(["sh", "-c", line], capture_output=True, timeout=60)
    assert again.returncode == 0, (line, again.stderr)
    assert again.stdout == saved, line
    assert line.endswith((tmp_path / "my problems" / "cases" / "gensum" / "stress" / f"{name}.gen").read_text().strip())


def test_the_statements_call_the_memory_limit_what_the_judge_limits() -> None:
    """Item 9: three statements called the memory limit "an address-space limit" and four problem.yaml files
    "address space", while docs/judging.md says no address-space rlimit is set where there are control groups. The
    judge limits the memory of the whole process tree through its control group; both say so."""
    # a statement's reason for its limit, or problem.yaml's comment on it (a program's own address space is a fact)
    said_wrong = re.compile(r"limit is (an )?(address-space|on address space)|memory: \d+ +# MiB,? (of )?address space")
    explaining = []
    for path in sorted((REPO_ROOT / "problems").glob("*/*")):
        if path.name.startswith("statement") or path.name == "problem.yaml":
            text = path.read_text() if path.name == "problem.yaml" else " ".join(path.read_text().split())
            assert not said_wrong.search(text), f"{path}: {said_wrong.search(text).group(0)}"
            if "Why 256 MiB" in text or "Memory is raised" in text:
                explaining.append(path.parent.name)
                assert "control group" in text and "whole process tree" in text, path
    assert sorted(explaining) == ["hdoj3600", "poj2893", "reach"]
    judging = " ".join((REPO_ROOT / "docs" / "judging.md").read_text().split())
    assert "No address-space rlimit is set" in judging and "a limit is on memory used, not on address space" in judging


def test_the_languages_table_keeps_its_columns_in_line_whatever_a_cell_holds() -> None:
    """Item 9: ``checktestdata`` (a name of 13 characters) and ``scripts`` (a title of 49) pushed their rows' cells
    past the fixed widths, so two rows' columns broke. Every language's title, extensions and state start at the same
    column."""
    from judge.lang import LANGUAGES

    run = cli("languages", timeout=300)
    assert run.returncode == 0, run.stderr
    rows = {line.split()[0]: line for line in run.stdout.splitlines()[:-1] if line and not line[0].isspace()}
    assert set(rows) == set(LANGUAGES)
    starts = set()
    for name, line in rows.items():
        language = LANGUAGES[name]
        title = line.index(language.title, len(name))
        extensions = line.index(" ".join(language.extensions) or "-", title + len(language.title))
        starts.add((title, extensions))
    assert len(starts) == 1, {name: line for name, line in rows.items()}
    ((title, extensions),) = starts
    assert all(line[title - 2 : title] == "  " and line[extensions - 2 : extensions] == "  " for line in rows.values())


def test_the_readme_tour_says_serve_needs_the_web_requirements() -> None:
    """Item 9: the first command installs requirements.txt only; the tour's ``serve`` line must say what it needs."""
    readme = (REPO_ROOT / "README.md").read_text()
    tour = readme[readme.index("## A tour of the commands") : readme.index("## Read more")]
    serve = next(line for line in tour.splitlines() if line.startswith("python run_judge.py serve "))
    assert "requirements-web.txt" in serve, serve


# item 8: skip reasons that tell the truth, and bench saying how long it takes


def _fresh(module: str, monkeypatch: pytest.MonkeyPatch) -> ModuleType:
    """A test module loaded anew, without TILEJUDGE_BAPCTOOLS_GIT set, as on a newcomer's machine."""
    monkeypatch.delenv("TILEJUDGE_BAPCTOOLS_GIT", raising=False)
    path = next((REPO_ROOT / "tests").glob(f"*/{module}.py"))  # in its layer's folder
    spec = importlib.util.spec_from_file_location(f"fresh_{module}", path)
    assert spec is not None and spec.loader is not None
    loaded = importlib.util.module_from_spec(spec)
    monkeypatch.setitem(sys.modules, spec.name, loaded)  # a dataclass in it looks its module up there
    spec.loader.exec_module(loaded)
    return loaded


def _skip_reason(call: Callable[[], object]) -> str:
    with pytest.raises(pytest.skip.Exception) as skipped:
        call()
    return str(skipped.value)


def test_skip_reasons_say_what_is_true(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """Item 8: python2's skip said .ci/setup-system installs it (Debian 12 has no python2 package: nothing can), and
    the BAPCtools tests named one machine's private folder. The reasons are those the tests themselves give."""
    bt = _fresh("test_bt_generate", monkeypatch)
    reason = _skip_reason(lambda: bt.test_bapctools_own_generator_packages_verify_after_generate("testseed", tmp_path))
    assert "/work/" not in reason and "TILEJUDGE_BAPCTOOLS_GIT" in reason, reason
    if language_missing("python2") is None:
        return  # a machine with python2 (Debian 11) skips nothing of it
    for module, helper in (("test_planted_toolchain", "_skip_if_missing"), ("test_languages", "needs")):
        check = getattr(_fresh(module, monkeypatch), helper)
        reason = _skip_reason(lambda check=check: check("python2"))
        assert "Debian 12 has no python2 package" in reason and "setup-system installs" not in reason, reason


def test_bench_quick_announces_each_section_with_an_estimate_as_it_starts(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Item 8: ``bench --quick`` ran ten minutes with no word of how long it takes. The measurements themselves are
    replaced here by markers (they take minutes): before each one runs, its section is announced with an estimate,
    and the run starts by saying how many sections there are and about how long they take."""
    from judge.tools import bench

    def work(name: str) -> Callable[..., None]:
        return lambda *args, **kwargs: print(f"<{name}>")

    monkeypatch.setattr(bench.Bench, "derived_problem", lambda self, *args: None)
    monkeypatch.setattr(bench, "prepare_program", lambda *args, **kwargs: None)
    monkeypatch.setattr(bench.Bench, "compare_on", lambda self, label, *args: print(f"<{label}>"))
    monkeypatch.setattr(bench.Bench, "startup", work("start-up"))
    monkeypatch.setattr(bench.Bench, "test_data", work("test-data work"))
    for name in ("tle_latency", "relay_cost", "memory_accuracy", "grading_throughput", "failing_class"):
        monkeypatch.setattr(bench, name, work(name))
    monkeypatch.setattr(bench, "grading_scale", work("grading_scale"))
    bench.run(REPO_ROOT / "problems" / "poj2893", 1, True, False, None, None)
    lines = [line for line in capsys.readouterr().out.splitlines() if line and ": took " not in line]
    assert re.fullmatch(r"bench --quick: (\d+) sections, about \d+ (s|min) .*", lines[1]), lines
    count = int(lines[1].split()[2])
    markers = [n for n, line in enumerate(lines) if line.startswith("<")]
    assert len(markers) == count - 1  # the first section makes the comparisons' data: no marker of its own
    for n in markers:
        assert re.fullmatch(r"\[\d+/\d+\] .+: about \d+ (s|min) \(the bench: about \d+ (s|min) left\)", lines[n - 1])
