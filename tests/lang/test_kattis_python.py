"""A Kattis package's Python runs as Kattis, problemtools and BAPCtools run it: under PyPy3 where it is installed.

The submissions print the interpreter they run under, and the package's answer says which one is right, so a
submission run under the wrong one is WA: judged by the real judge, nothing timed. Where PyPy3 is missing (here:
made missing by the package's own languages file) the submission runs under CPython and one line says so.
"""

from __future__ import annotations

import json
from pathlib import Path

from conftest import FIXTURES, cli, needs, write_files

WHICH = "import sys\nprint(sys.implementation.name)\n"
GARBAGE = (  # short-lived objects only: PyPy sizes its young generation from the L3 cache unless told otherwise
    "import sys\nt = 0\nfor i in range(3_000_000):\n    x = [i, i + 1]\n    t += x[0] & 1\n"
    "print(sys.implementation.name)\n"
)
SUMS_IF_CPYTHON = (
    "import sys\nfor line in sys.stdin:\n    a, b = map(int, line.split())\n"
    "    print(a + b if sys.implementation.name == 'cpython' else 0)\n"
)


def _package(root: Path, answer: str, **extra: str) -> Path:
    return write_files(
        root,
        {
            "problem.yaml": "problem_format_version: 2025-09\nname: Which\nlimits:\n  memory: 256\n",
            "data/sample/1.in": "\n",
            "data/sample/1.ans": f"{answer}\n",
            "data/secret/1.in": "\n",
            "data/secret/1.ans": f"{answer}\n",
            "submissions/accepted/which.py": WHICH,
            "submissions/accepted/garbage.py": GARBAGE,
            **extra,
        },
    )


@needs("pypy3")
def test_a_kattis_packages_python_runs_under_pypy3_in_judging_and_in_time_limit_inference(tmp_path: Path) -> None:
    package = _package(tmp_path / "which", "pypy")
    report = tmp_path / "report.json"
    judged = cli("judge", str(package), str(package / "submissions/accepted/which.py"), "--json", str(report))
    assert judged.returncode == 0, judged.stdout + judged.stderr
    assert json.loads(report.read_text())["language"] == "pypy3"
    assert "not installed" not in judged.stderr
    verified = cli("verify", str(package), "-j", "1")  # no time limit: inferred from both accepted runs
    assert verified.returncode == 0, verified.stdout + verified.stderr
    assert "ok    accepted/garbage.py" in verified.stdout, verified.stdout  # within 256 MiB under PyPy3
    assert "time: pypy3" in verified.stdout, verified.stdout


def test_our_own_python_stays_cpython_and_a_missing_pypy3_is_said_in_one_line(tmp_path: Path) -> None:
    missing = "pypy3:\n  title: PyPy 3\n  package: pypy3\n  run: [pypy3-not-installed-here, '{main}']\n"
    # two Python submissions, one line: the second one need not make PyPy's garbage under CPython (a CPU-second)
    cheap = {"submissions/accepted/garbage.py": WHICH}
    package = _package(tmp_path / "which", "cpython", **{"languages.yaml": missing, **cheap})
    verified = cli("verify", str(package), "-j", "1")
    assert verified.returncode == 0, verified.stdout + verified.stderr
    notes = [line for line in verified.stdout.splitlines() if "is not installed" in line]
    assert len(notes) == 1 and "runs under python3, not pypy3" in notes[0], verified.stdout
    judged = cli("judge", str(package), str(package / "submissions/accepted/which.py"))
    assert judged.returncode == 0 and "runs under python3, not pypy3" in judged.stderr, judged.stderr
    sums = write_files(tmp_path, {"sums.py": SUMS_IF_CPYTHON}) / "sums.py"
    judged = cli("judge", str(FIXTURES / "problems" / "sum"), str(sums))
    assert judged.returncode == 0, judged.stdout + judged.stderr  # our problems keep CPython, whatever is installed


def test_an_explicit_language_is_used_as_given(tmp_path: Path) -> None:
    stated = "problem_format_version: 2025-09\nname: Which\nlimits:\n  time_limit: 2\n"
    package = _package(tmp_path / "which", "cpython", **{"problem.yaml": stated})
    judged = cli("judge", str(package), str(package / "submissions/accepted/which.py"), "--lang", "python3")
    assert judged.returncode == 0, judged.stdout + judged.stderr
