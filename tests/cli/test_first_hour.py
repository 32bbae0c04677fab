"""What a newcomer meets in the first hour: the wrong file, a mistyped name, a bare command, the suite's own summary.

Each wrong file here is the user's mistake, so it is a usage error (exit 2)
naming the user's own file, never a judge error about the judge's build folder
nor a compile log of escaped binary.
"""

from __future__ import annotations

import csv
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import PROGRAMS, REPO_ROOT, cli

APLUSB = "tests/fixtures/problems/aplusb"


def _executable(path: Path, data: bytes) -> Path:
    path.write_bytes(data)
    path.chmod(0o755)
    return path


@pytest.mark.parametrize(
    "data, said",
    [
        (bytes(range(256)) * 8, "not a program this machine can run"),
        (b"4 + 4\n", "not a program this machine can run"),
        (b"#!/usr/bin/no-such-interpreter\nprint(1)\n", "its #! line names /usr/bin/no-such-interpreter"),
        (b"#!/usr/bin/env no-such-interpreter\nprint(1)\n", "its #! line names no-such-interpreter"),
    ],
    ids=["random-bytes", "text-without-shebang", "missing-interpreter", "missing-env-interpreter"],
)
def test_a_file_with_the_execute_bit_that_cannot_run_is_the_users_mistake(
    data: bytes, said: str, tmp_path: Path
) -> None:
    garbage = _executable(tmp_path / "garbage", data)
    run = cli("judge", APLUSB, str(garbage))
    assert run.returncode == 2, run.stderr
    assert run.stderr.strip().splitlines() == [f"error: {garbage}: {run.stderr.split(': ', 2)[2].strip()}"]
    assert said in run.stderr and ".cache" not in run.stderr and "Exec format error" not in run.stderr


def test_a_ready_executable_and_a_script_with_its_interpreter_are_still_judged(tmp_path: Path) -> None:
    script = _executable(tmp_path / "sol", b"#!/usr/bin/env python3\n" + (PROGRAMS / "aplusb" / "ac.py").read_bytes())
    assert cli("judge", APLUSB, str(script)).returncode == 0
    binary = tmp_path / "a.out"
    built = subprocess.run(
        ["gcc", "-O2", "-o", str(binary), "-x", "c", "-"],
        input='#include <stdio.h>\nint main(){long long a,b;while(scanf("%lld %lld",&a,&b)==2)printf("%lld\\n",a+b);}',
        text=True,
        capture_output=True,
    )
    assert built.returncode == 0, built.stderr
    assert cli("judge", APLUSB, str(binary)).returncode == 0


def test_a_binary_renamed_as_a_source_is_not_compiled(tmp_path: Path) -> None:
    renamed = tmp_path / "sol.cpp"
    shutil.copyfile("/bin/true", renamed)
    run = cli("judge", APLUSB, str(renamed))
    assert run.returncode == 2, run.stderr
    assert run.stderr.strip() == f"error: {renamed}: a compiled program or binary file, not a C++17 source file"


def test_grade_takes_a_binary_renamed_as_a_source_as_no_submission(tmp_path: Path) -> None:
    """The same check as ``judge``'s: the student is INVALID with the reason, not CE with a log of escapes."""
    submissions = tmp_path / "class"
    submissions.mkdir()
    shutil.copy(PROGRAMS / "aplusb" / "ac.py", submissions / "ann.py")
    shutil.copyfile("/bin/true", submissions / "bob.cpp")
    out = tmp_path / "results"
    run = cli("grade", APLUSB, str(submissions), "--out", str(out), "-j", "1")
    assert run.returncode == 0, run.stderr
    with (out / "grades.csv").open(newline="") as handle:
        rows = {row["id"]: row for row in csv.DictReader(handle)}
    assert rows["ann"]["verdict"] == "AC"
    assert rows["bob"]["verdict"] == "INVALID"
    assert rows["bob"]["error"].startswith("bob.cpp is a compiled program or binary file, not a source file")


@pytest.mark.parametrize("typed, meant", [("poj2839", "poj2893"), ("klotsky", "klotski"), ("POJ2893", "poj2893")])
def test_a_mistyped_problem_name_gets_the_closest_names(typed: str, meant: str) -> None:
    run = cli("judge", typed, "sol.cpp")
    assert run.returncode == 2
    line = run.stderr.strip()
    assert line.startswith(f"error: {typed}: no such problem") and line.endswith(f"did you mean {meant}?"), line


def test_a_name_like_no_problem_gets_no_guess() -> None:
    run = cli("judge", "zzzzzz", "sol.cpp")
    assert run.returncode == 2 and "did you mean" not in run.stderr


def test_a_bare_command_lists_the_commands() -> None:
    from judge.cli.parsing import COMMANDS

    run = cli()
    assert run.returncode == 2
    listed = [line.split()[0] for line in run.stdout.splitlines() if line.startswith("    ") and line.split()]
    assert [name for name in listed if name in COMMANDS] == list(COMMANDS), run.stdout
    assert "exit codes:" in run.stdout and run.stderr == ""


def test_the_suite_summary_names_failures_and_errors_as_well_as_skips(tmp_path: Path) -> None:
    """pyproject's addopts: ``-rs`` alone replaced pytest's default ``-rfE``, so a red run did not say what failed."""
    (tmp_path / "test_sample.py").write_text(
        "import pytest\n\n"
        "def test_red():\n    assert 1 == 2\n\n"
        "def test_skipped():\n    pytest.skip('a reason')\n\n"
        "@pytest.fixture\ndef broken():\n    raise RuntimeError('set-up')\n\n"
        "def test_erroring(broken):\n    pass\n"
    )
    run = subprocess.run(
        [sys.executable, "-m", "pytest", "-c", str(REPO_ROOT / "pyproject.toml"), "--rootdir", str(tmp_path)]
        + ["-p", "no:cacheprovider", "-p", "no:xdist", "-q", str(tmp_path / "test_sample.py")],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        timeout=120,
        # the summary is pytest's own and pyproject's addopts: the venv's plugins (hypothesis, anyio) only cost time
        env={**os.environ, "PYTEST_DISABLE_PLUGIN_AUTOLOAD": "1"},
    )
    summary = run.stdout[run.stdout.index("short test summary info") :]
    assert "FAILED test_sample.py::test_red" in summary, run.stdout
    assert "ERROR test_sample.py::test_erroring" in summary, run.stdout
    assert "SKIPPED" in summary and "a reason" in summary, run.stdout


@pytest.mark.parametrize("module", ["argon2", "markdown_it"])
def test_serve_without_the_web_stack_says_how_to_install_it(tmp_path: Path, module: str) -> None:
    """Judging alone installs no web stack (requirements.txt): ``serve`` on such a machine is one line naming the
    extra, not a ModuleNotFoundError from inside the service. Here a module of it is made unimportable, as if not
    installed: argon2, imported at the start, and markdown-it, imported only at the first statement page shown."""
    (tmp_path / "site.yaml").write_text("problems: [poj2893]\n")
    code = f"import sys; sys.modules[{module!r}] = None; from judge.cli import main; sys.exit(main(sys.argv[1:]))"
    done = subprocess.run(
        [sys.executable, "-c", code, "serve", str(tmp_path)], cwd=REPO_ROOT, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 3, done.stderr
    assert done.stderr.strip().splitlines() == [
        f"error: serve needs the web stack ({module} is not installed): "
        "pip install 'tilejudge[web]' (or -r requirements-web.txt)"
    ]
    assert not (tmp_path / "site.sqlite").exists()  # nothing made before the stack is there
