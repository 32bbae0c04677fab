"""Kattis packages whose input validator is a checktestdata script (``.ctd``), as NWERC- and BAPC-style packages have.

The scripts are written for these tests and run by the judge through the
``checktestdata`` package, in the sandbox, as every validator is.
"""

from __future__ import annotations

from pathlib import Path

from conftest import write_files
from test_kattis_course_packages import verified

FORMAT = """INT(1, 100, n) NEWLINE
REP(n, SPACE) INT(-1000, 1000) END NEWLINE
EOF
"""


def _package(root: Path, ctd: str, extra: dict[str, str] | None = None) -> Path:
    return write_files(
        root,
        {
            "problem.yaml": "name: Sums\nlimits:\n  time_limit: 1\n",
            "data/sample/1.in": "3\n1 2 3\n",
            "data/sample/1.ans": "6\n",
            "data/secret/1.in": "4\n10 -20 30 0\n",
            "data/secret/1.ans": "20\n",
            "input_validators/format.ctd": ctd,
            "submissions/accepted/sum.py": "input()\nprint(sum(map(int, input().split())))\n",
            **(extra or {}),
        },
    )


def test_a_ctd_validator_passes_the_valid_inputs_and_rejects_junk(tmp_path: Path) -> None:
    code, report, stdout = verified(_package(tmp_path / "sums", FORMAT), tmp_path)
    assert code == 0, stdout
    assert report["inputs"] == {"cases": 2, "invalid": 0, "validated": True}
    warnings = [f["message"] for f in report["findings"] if f["severity"] == "warning"]
    assert not [w for w in warnings if "validator" in w], warnings  # a grammar checks every byte: no junk gets by


def test_a_ctd_validator_names_the_invalid_case_and_where(tmp_path: Path) -> None:
    root = _package(tmp_path / "sums", FORMAT, {"data/secret/2.in": "2\n5  6\n", "data/secret/2.ans": "11\n"})
    code, report, stdout = verified(root, tmp_path)
    assert code == 1 and report["inputs"] == {"cases": 3, "invalid": 1, "validated": True}
    assert "secret/2: invalid: 2:3 expected an integer but got <SPACE>" in stdout, stdout
    assert "secret/1" not in stdout and "sample/1" not in stdout


def test_a_broken_ctd_script_is_a_failed_validator_not_an_invalid_input(tmp_path: Path) -> None:
    code, report, stdout = verified(_package(tmp_path / "sums", "INT(1, 100, n NEWLINE\n"), tmp_path)
    assert code == 1
    assert "validator failed (exit code 2, expected 0 or 1, checktestdata)" in stdout, stdout
