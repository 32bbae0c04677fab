"""A submission's file named like a part of the toolchain is never run as that part.

A compile command runs in the folder of the sources (judge/lang/build.py), so a toolchain that looks for its own
modules there first would run a file of the submission's as the compiler: with the compiler's limits, write access
to the build folder, and its say on whether the program compiles. `python -m py_compile` did (the folder comes
first on sys.path under -m): a submitted py_compile.py ran instead of the real one, and a syntax error came out as
RE, not CE.

For each language whose compile step could import a module by name, a folder submission holds the main file and
planted files named like the modules its compiler loads; each planted file prints PLANTED and exits 0, which
would pass any source. Where a folder cannot be judged in the language (PyPy has no file extension of its own),
the submission is one file named like the module, which prints PLANTED on stderr before it sums. Judged on the
`sum` fixture (two cases):

- the main file with a syntax error: CE, with the compiler's own message, and no PLANTED in the log;
- a correct main file: AC, and no PLANTED in the compile log.

The other languages of judge/lang/languages.yaml compile without loading anything by name from the sources'
folder: C and C++ look up <headers> on their include path only, javac is given -proc:none (no annotation
processor from its class path "."), ghc, ocamlopt, fpc, rustc, go, mcs, kotlinc and scalac take the folder's
sources as the program's own modules but run none of them while compiling, node --check, ruby -c, php -l and
luac -p only parse, and SBCL has no compile step. A language whose toolchain is missing is skipped with its
Debian package named.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

import pytest
from conftest import FIXTURES, cli, language_missing

LANGUAGE_PROGRAMS = FIXTURES / "languages"
PLANTED = "PLANTED"
_PYTHON_PLANT = f'import sys\nsys.stderr.write("{PLANTED}: the submission\'s module ran\\n")\nsys.exit(0)\n'
_RUBY_PLANT = f'$stderr.puts "{PLANTED}: the submission\'s file ran"\nexit 0\n'


@dataclass(frozen=True)
class Planted:
    """A language's main file name, a syntax error in it, the files planted beside it, and what the main file
    starts with (the planting, when the main file itself is named like a module of the toolchain)."""

    name: str
    main: str
    broken: str
    plants: dict[str, str]
    prefix: str = ""

    @property
    def id(self) -> str:
        return f"{self.name}-{'folder' if self.plants else self.main}"


CASES = [
    Planted("python3", "main.py", "print(\n", {"py_compile.py": _PYTHON_PLANT}),
    Planted("python3", "py_compile.py", "print(\n", {}, f'import sys\nsys.stderr.write("{PLANTED}\\n")\n'),
    Planted("pypy3", "py_compile.py", "print(\n", {}, f'import sys\nsys.stderr.write("{PLANTED}\\n")\n'),
    Planted("python2", "main.py", "print(\n", {"py_compile.py": _PYTHON_PLANT}),
    Planted(
        "ruby",
        "main.rb",
        "puts(\n",
        {name: _RUBY_PLANT for name in ("rubygems.rb", "did_you_mean.rb", "error_highlight.rb", "syntax_suggest.rb")},
    ),
]


def _skip_if_missing(name: str) -> None:
    reason = language_missing(name)  # what is true of its package: setup-system installs it, or nothing can
    if reason:
        pytest.skip(reason)


def _judge(case: Planted, main_source: str, tmp_path: Path) -> dict:
    """Judge a folder of the main file and the planted ones on `sum`; the JSON report."""
    folder = tmp_path / "student"
    folder.mkdir()
    submission = folder if case.plants else folder / case.main
    (folder / case.main).write_text(case.prefix + main_source)
    for name, text in case.plants.items():
        (folder / name).write_text(text)
    report = tmp_path / "report.json"
    run = cli("judge", str(FIXTURES / "problems" / "sum"), str(submission), "--lang", case.name, "--json", str(report))
    assert report.exists(), run.stderr
    return json.loads(report.read_text())


@pytest.mark.parametrize(
    "case", [pytest.param(c, id=c.id, marks=() if c.name == "python3" else pytest.mark.slow) for c in CASES]
)
def test_a_syntax_error_is_ce_whatever_is_planted(case: Planted, tmp_path: Path) -> None:
    _skip_if_missing(case.name)
    report = _judge(case, case.broken, tmp_path)
    log = report["compile"]["log"]
    assert report["verdict"] == "CE", (report["verdict"], log, [c["message"] for c in report["cases"]])
    assert PLANTED not in log, log


@pytest.mark.parametrize(
    "case", [pytest.param(c, id=c.id, marks=() if c.name == "python3" else pytest.mark.slow) for c in CASES]
)
def test_a_correct_program_compiles_with_the_real_toolchain(case: Planted, tmp_path: Path) -> None:
    _skip_if_missing(case.name)
    fixture = "python3" if case.name == "python2" else case.name  # python2 has no self-test: the same program runs
    source = next((LANGUAGE_PROGRAMS / fixture).glob("sum.*")).read_text()
    report = _judge(case, source, tmp_path)
    log = report["compile"]["log"]
    assert PLANTED not in log, log
    assert report["verdict"] == "AC", (log, [c["message"] for c in report["cases"]])
