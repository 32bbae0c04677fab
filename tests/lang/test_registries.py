"""Adding a checker type or a language is one registry entry and nothing else, judged end to end in process.

Each test registers its entry with ``monkeypatch`` (so the registry is
restored afterwards), loads a real problem through the normal format reader
and judges real programs with the normal judging code in ``none`` sandbox mode.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from conftest import FIXTURES, PROGRAMS, REPO_ROOT, write_printer

from judge.check import CHECKER_TYPES, BuiltinChecker, CheckerType, CheckOutcome, Option, option
from judge.core import judge
from judge.core.testdata import ensure
from judge.errors import SpecError, UsageError
from judge.lang import detect, is_source, prepare_program, registry_for
from judge.problem.formats import load
from judge.problem.formats.kattis_export import export
from judge.run import Isolation, SlotPool
from judge.verdict import Verdict


@pytest.fixture(scope="module")
def aplusb_data(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """aplusb's cases, generated once for this module from the fixture package into a folder of its own: no test
    relies on data another test happened to generate."""
    root = tmp_path_factory.mktemp("aplusb")
    problem = root / "problems" / "aplusb"
    shutil.copytree(FIXTURES / "problems" / "aplusb", problem)
    with SlotPool(1, Isolation("none")) as pool:
        ensure(load(problem), pool)
    return root / "cases" / "aplusb"


@pytest.fixture
def aplusb(tmp_path: Path, aplusb_data: Path) -> Callable[[str], Path]:
    """Makes a private aplusb with its generated cases and ``checker`` as the checker section of problem.yaml."""

    def make(checker: str) -> Path:
        problem = tmp_path / "problems" / "aplusb"
        shutil.copytree(FIXTURES / "problems" / "aplusb", problem)
        shutil.copytree(aplusb_data, tmp_path / "cases" / "aplusb")
        spec = problem / "problem.yaml"
        spec.write_text(spec.read_text().replace("checker:\n  type: lines\n", checker))
        return problem

    return make


def compare_numbers(output: bytes, answer: bytes, base: int) -> CheckOutcome:
    """A new comparison: integers equal as numbers in ``base`` (so "+7" and "007" both match "7")."""
    try:
        same = [int(t, base) for t in output.split()] == [int(t, base) for t in answer.split()]
    except ValueError:
        return CheckOutcome(Verdict.WA, "not a number")
    return CheckOutcome(Verdict.AC if same else Verdict.WA, "" if same else "numbers differ")


@pytest.fixture
def numbers_type(monkeypatch: pytest.MonkeyPatch) -> None:
    entry = CheckerType(
        "numbers",
        lambda spec, program, time_limit: BuiltinChecker(
            lambda o, a, args: compare_numbers(o, a, int(option(spec, "base")))
        ),
        options={"base": Option(float, 10.0)},
        kattis_flags=lambda spec: [],
    )
    monkeypatch.setitem(CHECKER_TYPES, "numbers", entry)


def test_a_new_checker_type_is_one_registry_entry(
    numbers_type: None, aplusb: Callable[[str], Path], tmp_path: Path
) -> None:
    problem = load(aplusb("checker:\n  type: numbers\n  base: 10\n"))
    assert problem.checker.type == "numbers" and problem.checker.options == {"base": 10.0}
    padded = tmp_path / "padded.py"
    padded.write_text(
        "import sys\nfor line in sys.stdin:\n    a, b = map(int, line.split())\n"
        "    print('+%03d' % (a + b) if a + b >= 0 else a + b)\n"
    )
    with SlotPool(1, Isolation("none")) as pool:
        accepted = judge(problem, prepare_program(padded, None, pool, 60), pool)
        wrong = judge(problem, prepare_program(write_printer(tmp_path, b"1\n"), None, pool, 60), pool)
    assert accepted.verdict is Verdict.AC, [(c.name, c.verdict, c.message) for c in accepted.cases]
    assert wrong.verdict is Verdict.WA and wrong.cases[0].message == "numbers differ"
    export(problem, tmp_path / "exported", lambda line: None)
    assert (tmp_path / "exported" / "data" / "secret").is_dir()


def test_the_spec_validator_reads_options_from_the_registry(numbers_type: None, aplusb: Callable[[str], Path]) -> None:
    with pytest.raises(SpecError, match="checker.abs_tol does not apply to checker type 'numbers'"):
        load(aplusb("checker:\n  type: numbers\n  abs_tol: 1\n"))


def test_an_unknown_checker_type_is_an_error(aplusb: Callable[[str], Path]) -> None:
    with pytest.raises(SpecError, match="checker.type must be one of"):
        load(aplusb("checker:\n  type: numbers\n"))


SH_ENTRY = (
    "sh:\n  title: POSIX shell\n  extensions: [.sh]\n  package: dash\n"
    '  version: [sh, -c, echo dash]\n  run: [sh, "{main}"]\n'
)


def test_a_new_language_is_one_entry_in_a_problems_languages_yaml(
    aplusb: Callable[[str], Path], tmp_path: Path
) -> None:
    problem_root = aplusb("checker:\n  type: lines\n")
    (problem_root / "languages.yaml").write_text(SH_ENTRY)
    source = tmp_path / "sum.sh"
    source.write_text("while read a b; do echo $((a + b)); done\n")
    registry = registry_for(problem_root)
    assert registry.detect(source).name == "sh" and registry.is_source(source)
    assert not is_source(source), "a problem's languages must not leak into the judge's registry"
    problem = load(problem_root)
    with SlotPool(1, Isolation("none")) as pool:
        report = judge(problem, prepare_program(source, None, pool, 60, registry=registry), pool)
    assert report.language == "sh"
    assert report.verdict is Verdict.AC, [(c.name, c.verdict, c.message) for c in report.cases]


def test_a_users_languages_file_adds_a_language_for_every_command(
    aplusb: Callable[[str], Path], tmp_path: Path
) -> None:
    problem_root = aplusb("checker:\n  type: lines\n")
    user_file = tmp_path / "my-languages.yaml"
    user_file.write_text(SH_ENTRY)
    source = tmp_path / "sum.sh"
    source.write_text("while read a b; do echo $((a + b)); done\n")
    env = {**os.environ, "TILEJUDGE_LANGUAGES": str(user_file)}
    judged = subprocess.run(
        [sys.executable, "run_judge.py", "judge", str(problem_root), str(source), "--sandbox", "none"],
        cwd=REPO_ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert judged.returncode == 0, judged.stdout + judged.stderr
    listed = subprocess.run(
        [sys.executable, "run_judge.py", "languages"],
        cwd=REPO_ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert "POSIX shell" in listed.stdout and "dash" in listed.stdout, listed.stdout


def test_a_broken_languages_file_is_one_line_naming_it(aplusb: Callable[[str], Path]) -> None:
    problem_root = aplusb("checker:\n  type: lines\n")
    (problem_root / "languages.yaml").write_text("sh:\n  extensions: [.sh]\n  entry: magic\n  run: [sh]\n")
    with pytest.raises(SpecError, match=r"languages.yaml:1: language 'sh': entry must be one of all, file, class"):
        load(problem_root)


def test_an_unregistered_extension_is_a_usage_error(tmp_path: Path) -> None:
    source = tmp_path / "sum.sh"
    source.write_text("echo 3\n")
    with pytest.raises(UsageError, match="cannot tell the language"):
        detect(source)
    assert not is_source(PROGRAMS / "aplusb")
