"""A compile error is shown by the line that names it, not by the compiler's first line.

Real programs that do not compile, built by the judge with the real toolchains: g++ begins with an "In function"
note, kotlinc with a JVM deprecation warning, so the first line of their output says nothing about the error. The
summary, the JSON report's ``compile.error`` and ``verify``'s finding must show the error line of each language's
``error_pattern``.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import FIXTURES, cli, write_files

from judge.errors import JudgeError
from judge.lang.registry import language, parse_entry

CASES = {
    "cpp": ("broken.cpp", "int main() {\n    return undeclared_name;\n}\n", "broken.cpp:2:12: error:"),
    "java": (
        "Broken.java",
        'public class Broken {\n    public static void main(String[] a) { int x = "s"; }\n}\n',
        "Broken.java:2: error: incompatible types",
    ),
    "kotlin": ("broken.kt", 'fun main() {\n    val x: Int = "no"\n}\n', "broken.kt:2:18: error: type mismatch"),
}


def _needs(name: str) -> None:
    missing = language(name).missing()
    if missing:
        pytest.skip(f"{name}: '{missing[0]}' is not installed (Debian package {language(name).package})")


@pytest.mark.parametrize(
    "lang", [pytest.param(name, marks=() if name == "cpp" else pytest.mark.slow) for name in CASES]
)
def test_a_compile_error_is_shown_by_the_line_naming_it(lang: str, tmp_path: Path) -> None:
    _needs(lang)
    name, source, error = CASES[lang]
    submission = tmp_path / name
    submission.write_text(source)
    report_path = tmp_path / "report.json"
    run = cli("judge", str(FIXTURES / "problems" / "sum"), str(submission), "--json", str(report_path), timeout=600)
    report = json.loads(report_path.read_text())
    assert report["verdict"] == "CE", run.stderr
    log, shown = report["compile"]["log"], report["compile"]["error"]
    first = next(line.strip() for line in log.splitlines() if line.strip())
    assert shown.startswith(error), log
    if lang != "java":  # javac starts with the error itself; the others print something else first
        assert first != shown, log
    assert f"CE (compilation error): {shown}" in run.stdout, run.stdout


def test_verify_names_the_error_line_of_a_submission_that_does_not_compile(tmp_path: Path) -> None:
    _needs("cpp")
    root = write_files(
        tmp_path / "echo",
        {
            "problem.yaml": "name: Echo\nlimits:\n  time_limit: 2\n",
            "data/secret/1.in": "1\n",
            "data/secret/1.ans": "1\n",
            "submissions/accepted/echo.py": "print(input())\n",
            "submissions/accepted/broken.cpp": CASES["cpp"][1],
        },
    )
    out = tmp_path / "verify.json"
    cli("verify", str(root), "--json", str(out), "-j", "1")
    messages = [f["message"] for f in json.loads(out.read_text())["findings"]]
    assert any("got CE: broken.cpp:2:12: error:" in m for m in messages), messages


def test_the_error_pattern_falls_back_to_the_first_line_and_is_checked_when_read(tmp_path: Path) -> None:
    kotlin = language("kotlin")
    log = "OpenJDK 64-Bit Server VM warning: deprecated\nIt went wrong\n"
    assert kotlin.compile_error(log) == "OpenJDK 64-Bit Server VM warning: deprecated"  # no line names an error
    ghc = language("haskell")
    assert ghc.compile_error("[1 of 1] Compiling Main\na.hs:1:8: error:\n    • No instance\n") == (
        "a.hs:1:8: error: • No instance"
    )
    with pytest.raises(JudgeError, match="error_pattern"):
        parse_entry("mine", {"run": ["x"], "error_pattern": "(unclosed"}, tmp_path / "languages.yaml")
