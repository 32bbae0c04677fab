"""Every language of the registry, self-tested through the real judge (like DMOJ's executor self-tests).

For each language with a folder under tests/fixtures/languages, its hello
world and its A+B are compiled and judged by ``run_judge.py judge`` in the
default sandbox, and must be AC. A language whose toolchain is not installed
here is skipped with the Debian package named (.ci/setup-system installs them
all as root). Then the parts a language registry must get right beyond one
file: multi-file submissions and their entry points, JVM packages, unzip
leftovers and links in a folder, and compile messages that name the
student's files.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest
from conftest import FIXTURES, cli, language_missing

from judge.lang import LANGUAGES

LANGUAGE_PROGRAMS = FIXTURES / "languages"
MULTIFILE = LANGUAGE_PROGRAMS / "multifile"
FAST = {"c", "cpp", "python3"}  # the rest compile or start slowly (JVM, GHC, Scala): slow tests


def _languages() -> list:
    names = sorted(p.name for p in LANGUAGE_PROGRAMS.iterdir() if p.is_dir() and p.name != "multifile")
    return [pytest.param(name, id=name, marks=() if name in FAST else pytest.mark.slow) for name in names]


def judge(
    problem: str, submission: Path, tmp_path: Path, *extra: str
) -> tuple[subprocess.CompletedProcess[str], dict | None]:
    report = tmp_path / f"report-{submission.name}.json"
    report.unlink(missing_ok=True)
    run = cli(
        "judge", str(FIXTURES / "problems" / problem), str(submission), "--json", str(report), *extra, timeout=600
    )
    return run, json.loads(report.read_text()) if report.exists() else None


def needs(name: str) -> None:
    reason = language_missing(name)  # what is true of its package: setup-system installs it, or nothing can
    if reason:
        pytest.skip(reason)


def test_every_registered_language_except_the_unpackaged_has_a_self_test() -> None:
    """A language added to the registry without hello world and A+B programs would go untested."""
    tested = {p.name for p in LANGUAGE_PROGRAMS.iterdir() if p.is_dir()}
    assert set(LANGUAGES) - tested == {"exe", "python2", "checktestdata"}, (
        "python2 has no Debian 12 package, exe is tested everywhere else, and checktestdata describes inputs, "
        "it prints no answers (tests/problem/test_checktestdata.py runs it as the input validator it is)"
    )
    assert len(LANGUAGES) >= 20


@pytest.mark.parametrize("name", _languages())
@pytest.mark.parametrize("program", ["hello", "sum"])
def test_language_self_test(name: str, program: str, tmp_path: Path) -> None:
    needs(name)
    source = next((LANGUAGE_PROGRAMS / name).glob(f"{program}.*"))
    run, report = judge("hello" if program == "hello" else "sum", source, tmp_path, "--lang", name)
    assert report is not None, run.stderr
    assert report["language"] == name
    assert report["verdict"] == "AC", (
        report["compile"]["log"],
        [(c["name"], c["verdict"], c["message"]) for c in report["cases"]],
    )


def test_languages_lists_each_language_with_its_state_version_and_commands() -> None:
    run = cli("languages", timeout=300)
    assert run.returncode == 0, run.stderr
    lines = run.stdout.splitlines()
    assert any(line.startswith("c ") and "C (gnu17)" in line and "MISSING" not in line for line in lines), run.stdout
    assert any(line.startswith("python2 ") and "MISSING: python2" in line for line in lines), run.stdout
    assert "compile: gcc -O2 -std=gnu17" in run.stdout and "run:     {python} -B {main}" in run.stdout
    assert lines[-1].endswith("missing: python2") or "missing:" in lines[-1], lines[-1]


@pytest.mark.parametrize(
    "folder", ["c_with_header", "python_modules", pytest.param("java_packages", marks=pytest.mark.slow)]
)
def test_a_folder_of_sources_in_one_language_is_one_submission(folder: str, tmp_path: Path) -> None:
    """Several files (headers, modules, classes in package folders) build together; the entry point is found by the
    registry's rule."""
    run, report = judge("sum", MULTIFILE / folder, tmp_path)
    assert report is not None, run.stderr
    assert report["verdict"] == "AC", (report["compile"]["log"], [c["message"] for c in report["cases"]])


@pytest.mark.parametrize("folder", ["java_package_line", pytest.param("kotlin_package", marks=pytest.mark.slow)])
def test_a_package_line_and_a_main_class_not_named_after_the_file_work(folder: str, tmp_path: Path) -> None:
    """The IDE default 'package hw1;' in Solution.java declaring public class Main, and a Kotlin file in a package."""
    needs("kotlin" if folder.startswith("kotlin") else "java")
    source = next((MULTIFILE / folder).iterdir())
    run, report = judge("sum", source, tmp_path)
    assert report is not None, run.stderr
    assert report["verdict"] == "AC", (report["compile"]["log"], [c["message"] for c in report["cases"]])


def test_two_possible_entry_points_need_main(tmp_path: Path) -> None:
    folder = MULTIFILE / "python_two_mains"
    run, report = judge("sum", folder, tmp_path)
    assert run.returncode == 2 and report is None
    assert run.stderr.strip().splitlines() == [
        f"error: {folder}: several files could be the entry point (other.py, solve.py); name one with --main"
    ], run.stderr
    run, report = judge("sum", folder, tmp_path, "--main", "solve.py")
    assert report is not None and report["verdict"] == "AC", run.stderr


def test_unzip_leftovers_hidden_files_and_links_in_a_folder_are_not_sources(tmp_path: Path) -> None:
    """__MACOSX/, ._main.cpp and .idea/ would not compile; a link could pull a file of the judge's into the build."""
    folder = tmp_path / "student"
    shutil.copytree(MULTIFILE / "cpp_unzipped", folder)
    os.symlink(FIXTURES / "hostile" / "secret.txt", folder / "secret.cpp")
    os.mkfifo(folder / "pipe.cpp")
    run, report = judge("sum", folder, tmp_path)
    assert report is not None, run.stderr
    assert report["verdict"] == "AC", report["compile"]["log"]


def test_compile_errors_name_the_students_file_not_the_judges(tmp_path: Path) -> None:
    python_bad = tmp_path / "mine.py"
    python_bad.write_text("def f(:\n    pass\n")
    run, report = judge("sum", python_bad, tmp_path)
    assert report is not None and report["verdict"] == "CE"
    assert report["compile"]["log"].startswith('File "mine.py", line 1'), report["compile"]["log"]
    assert "Traceback" not in report["compile"]["log"] and "tilejudge" not in report["compile"]["log"]
    needs("java")
    java_bad = tmp_path / "Student.java"
    java_bad.write_text('public class Main {\n    public static void main(String[] a) { int x = "s"; }\n}\n')
    run, report = judge("sum", java_bad, tmp_path)
    assert report is not None and report["verdict"] == "CE"
    assert report["compile"]["log"].startswith("Student.java:2: error"), report["compile"]["log"]
    assert "Main.java" not in report["compile"]["log"]


GARBAGE = """import sys
total = 0
for i in range(3_000_000):  # some 300 MiB of short-lived objects, a few KiB of them alive at any time
    total += len([i, i + 1, str(i)][2])
pairs = [line.split() for line in sys.stdin.read().splitlines() if line.strip()]
print("\\n".join(str(int(a) + int(b)) for a, b in pairs))
"""


@pytest.mark.parametrize(
    "how, memory, cgroups",
    [("--lang", 64, True), ("--cmd", 64, True), ("--cmd", 256, False)],
    ids=["language-64MiB", "cmd-64MiB", "cmd-256MiB-address-space"],
)
def test_pypy_keeps_the_same_nursery_whatever_cache_the_machine_reports(
    how: str, memory: int, cgroups: bool, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """PyPy makes its nursery half the last-level cache the CPU reports (150 MiB on a VM reporting 300 MiB): a PyPy
    program making garbage was MLE under a 64 MiB limit on such a machine, and where no control group limits memory
    the address-space limit of a ``--cmd`` left it unable to start under 256 MiB on one reporting 480 MiB ("cannot
    allocate nursery"). Every run gets PyPy's own default instead (``slots.MACHINE_FREE``)."""
    needs("pypy3")
    problem = tmp_path / "aplusb"
    shutil.copytree(FIXTURES / "problems" / "aplusb", problem)
    spec = problem / "problem.yaml"
    text = spec.read_text().replace("  memory: 64\n", f"  memory: {memory}\n")
    # one case: the garbage is made whatever the input, and each of aplusb's four cases cost the same PyPy run again
    spec.write_text(
        text[: text.index("groups:")] + "groups:\n  - name: all\n    points: 100\n    cases:\n"
        "      - name: sample\n        file: data/sample.in\n"
    )
    source = tmp_path / "garbage.py"
    source.write_text(GARBAGE)
    if not cgroups:
        monkeypatch.setenv("TILEJUDGE_NO_CGROUPS", "1")
    args = [
        "judge",
        str(problem),
        *([str(source), "--lang", "pypy3"] if how == "--lang" else ["--cmd", f"pypy3 {source}"]),
    ]
    args += ["--json", str(tmp_path / "r.json"), "--sandbox", "rlimits", "-j", "1"]
    run = cli(*args, timeout=600)
    assert (tmp_path / "r.json").is_file(), run.stderr
    report = json.loads((tmp_path / "r.json").read_text())
    assert report["verdict"] == "AC", [(c["verdict"], c["memory_kb"], c["message"]) for c in report["cases"]]
    assert [c["name"] for c in report["cases"]] == ["sample"]
    assert run.returncode == 0
