"""Programs built and run by their own ``build`` and ``run`` scripts (the 2025-09 format, BAPCtools' ``boolfind``).

A 2025-09 interactive package written here: its interactor is a C program its ``build`` script compiles with ``cc``
and its ``run`` script starts, its input validator a folder whose ``run`` starts a Python file, and one accepted
submission a folder that ``build`` compiles with ``c++``. Everything is built and judged by the real judge; a build
that fails is CE for a submission (with the line naming the error) and one line for the package's own program.
"""

from __future__ import annotations

from pathlib import Path

from conftest import cli, needs, write_files

INTERACTOR = r"""
#include <stdio.h>
int main(int argc, char **argv) {  /* input answer feedback_dir: sends x, wants 2x back */
    long x, y;
    FILE *in = fopen(argv[1], "r");
    if (!in || fscanf(in, "%ld", &x) != 1) return 1;
    printf("%ld\n", x);
    fflush(stdout);
    return scanf("%ld", &y) == 1 && y == 2 * x ? 42 : 43;
}
"""
DOUBLER = "#include <iostream>\nint main() { long x; std::cin >> x; std::cout << 2 * x << std::endl; }\n"


def _package(root: Path, **extra: str) -> Path:
    return write_files(
        root,
        {
            "problem.yaml": "problem_format_version: 2025-09\ntype: interactive\nname: Double\n"
            "limits:\n  time_limit: 2\n",
            "data/sample/1.in": "3\n",
            "data/sample/1.ans": "\n",
            "data/secret/1.in": "21\n",
            "data/secret/1.ans": "\n",
            "output_validator/interactor.c": INTERACTOR,
            "output_validator/build": "#!/bin/sh\ncc -O2 -o jury interactor.c\n",
            "output_validator/run": '#!/bin/sh\nexec ./jury "$@"\n',  # started in its own folder
            "input_validators/check/check.py": "import sys\nint(sys.stdin.read())\nsys.exit(42)\n",
            "input_validators/check/run": '#!/bin/sh\nexec python3 check.py "$@"\n',
            "submissions/accepted/scripted/doubler.cpp": DOUBLER,
            "submissions/accepted/scripted/build": "#!/bin/sh\nc++ -O2 -o doubler doubler.cpp\n",
            "submissions/accepted/scripted/run": "#!/bin/sh\nexec ./doubler\n",
            "submissions/accepted/plain.py": "print(2 * int(input()))\n",
            "submissions/wrong_answer/echo.py": "print(input())\n",
            **extra,
        },
    )


@needs("gcc")
def test_validators_interactors_and_submissions_run_by_their_scripts(tmp_path: Path) -> None:
    package = _package(tmp_path / "double")
    verified = cli("verify", str(package), "-j", "1")
    assert verified.returncode == 0, verified.stdout + verified.stderr
    for name in ("accepted/scripted", "accepted/plain.py", "wrong_answer/echo.py"):
        assert f"ok    {name}" in verified.stdout, verified.stdout
    assert "2/2 inputs valid" in verified.stdout, verified.stdout


@needs("gcc")
def test_a_build_that_fails_is_ce_for_a_submission_and_one_line_for_the_packages_program(tmp_path: Path) -> None:
    broken = {
        "submissions/wrong_answer/broken/build": "#!/bin/sh\necho building the doubler\nc++ -o doubler missing.cpp\n",
        "submissions/wrong_answer/broken/run": "#!/bin/sh\nexec ./doubler\n",
    }
    package = _package(tmp_path / "double", **broken)
    judged = cli("judge", str(package), str(package / "submissions/wrong_answer/broken"))
    summary = judged.stdout.splitlines()[0]
    assert judged.returncode == 1 and summary.startswith("CE (compilation error): "), judged.stdout
    assert "error: missing.cpp: No such file" in summary, summary  # the line naming the error, not "building"
    no_run = _package(tmp_path / "norun", **{"output_validator/build": "#!/bin/sh\ncc -O2 -o jury interactor.c\n"})
    (no_run / "output_validator" / "run").unlink()  # build makes no run file: the package's fault, said in one line
    judged = cli("judge", str(no_run), str(no_run / "submissions/accepted/plain.py"))
    lines = judged.stderr.strip().splitlines()
    assert judged.returncode == 3 and len(lines) == 1, judged.stderr
    assert "does not compile: error: no executable run file after build" in lines[0], lines


@needs("gcc")
def test_a_submissions_build_script_cannot_read_the_packages_answers(tmp_path: Path) -> None:
    """The build runs in the compile sandbox: the package's data is not there to copy into the program (which would
    then answer; without the copy it stays silent: WA)."""
    package = _package(tmp_path / "double")
    secret = package / "data" / "secret" / "1.in"  # what the interactor sends: doubling it is the right answer
    sneaky = {
        "submissions/wrong_answer/sneaky/build": f"#!/bin/sh\ncat {secret} > stolen 2>/dev/null\nexit 0\n",
        "submissions/wrong_answer/sneaky/run": "#!/bin/sh\nread x\nif [ -s stolen ]; then echo $((2 * x)); fi\n",
    }
    package = _package(tmp_path / "double", **sneaky)
    judged = cli("judge", str(package), str(package / "submissions/wrong_answer/sneaky"))
    assert judged.returncode == 1 and "WA (wrong answer)" in judged.stdout, judged.stdout


@needs("gcc")
def test_run_starts_in_a_writable_copy_of_its_folder_fresh_for_every_run(tmp_path: Path) -> None:
    """The 2025-09 spec: a program's working folder is a writable copy. A validator and a submission whose ``run``
    writes a file beside itself work, and a file one run wrote is not there in the next (each run its own copy)."""
    writing = {
        "input_validators/check/run": '#!/bin/sh\necho checking > note && exec python3 check.py "$@"\n',
        "submissions/accepted/writer/run": (
            "#!/bin/sh\n[ -e earlier ] && exit 1\ntouch earlier\nread x\necho $x > seen\necho $((2 * $(cat seen)))\n"
        ),
    }
    package = _package(tmp_path / "double", **writing)
    verified = cli("verify", str(package), "-j", "1")
    assert verified.returncode == 0, verified.stdout + verified.stderr
    assert "ok    accepted/writer" in verified.stdout and "2/2 inputs valid" in verified.stdout, verified.stdout
    assert not (package / "submissions" / "accepted" / "writer" / "seen").exists()  # the package is never written
