"""A problem program's headers are part of its build's cache key at any depth of its folder: a changed
``lib/verdict.h`` beside a single-file output validator rebuilds it (before, only headers directly beside the source
were keyed, and the old validator kept judging)."""

from __future__ import annotations

from pathlib import Path

from conftest import cli, needs, write_files


@needs("g++")
def test_a_changed_header_in_a_subfolder_of_a_validator_rebuilds_it(tmp_path: Path) -> None:
    package = write_files(
        tmp_path / "seven",
        {
            "problem.yaml": "problem_format_version: 2025-09\nname: Seven\nlimits:\n  time_limit: 2\n",
            "data/sample/1.in": "1\n",
            "data/sample/1.ans": "7\n",
            "data/secret/1.in": "2\n",
            "data/secret/1.ans": "7\n",
            "output_validator/check.cpp": '#include "lib/verdict.h"\nint main() { return VERDICT; }\n',
            "output_validator/lib/verdict.h": "#define VERDICT 42\n",
        },
    )
    submission = write_files(tmp_path, {"seven.py": "print(7)\n"}) / "seven.py"
    first = cli("judge", str(package), str(submission))
    assert first.returncode == 0 and "AC (accepted)" in first.stdout, first.stdout + first.stderr
    (package / "output_validator" / "lib" / "verdict.h").write_text("#define VERDICT 43\n")
    again = cli("judge", str(package), str(submission))
    assert again.returncode == 1 and "WA (wrong answer)" in again.stdout, again.stdout + again.stderr
