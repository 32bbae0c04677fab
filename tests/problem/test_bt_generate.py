"""A Kattis package whose data is a BAPCtools ``generators/generators.yaml``, made by ``generate`` as ``bt generate``
makes it, then verified.

The package is written here: a Python and a C generator with arguments, ``{seed}`` and ``count``, inline ``in:`` and
``ans:``, a ``copy:``, ``include:``, a ``test_group.yaml``, and answers from ``solution:``. A second ``generate``
makes nothing again; changing one generator makes only its cases again; the names are bt's (one number sequence over
the whole file, padded to the width of its count, a folder's own numbers for its sub-folders, a count taking a number
per case: what ``bt generate`` 2026.10.0 made of this very file); a dropped case's files go; keys this judge
does not make are named in one line each (the validators' folders: test_bt_validator_cases.py).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest
from conftest import cli, needs, write_files

GENERATORS = """\
solution: /submissions/accepted/sum.py
visualizer: /visualize.py
generators:
  pair: [main.py, lib.py]
data:
  sample:
    data:
      - '': {in: "1 2", ans: "3"}
      - as_files: files.py 6 7
  secret:
    test_group.yaml:
      output_validator_args: [case_sensitive]
    data:
      - small:
          data:
            - fixed: gen.py 4 5
            - seeded:
                generate: gen.py {seed} 0
                count: 3
            - by_hand: {copy: hand}
            - in_c: genc.c 40 2
      - large:
          solution: /generators/sum_of_pair.py
          data:
            - counted:
                generate: gen.py 1000 {count}
                count: 1..=2
            - named: pair 5 6
          include: [fixed]
  testing_tool_test:
    data:
      - negative: {in: "-1 2"}
"""
GEN = "import sys\na, b = map(int, sys.argv[1:3])\nprint(a % 1000, b)\n"
FILES = (  # writes the case as files in its folder; its answer's trailing space tells it from the solution's
    "import sys\nopen('testcase.in', 'w').write(' '.join(sys.argv[1:]) + '\\n')\n"
    "open('testcase.ans', 'w').write('13 \\n')\n"
)
GEN_C = '#include <stdio.h>\nint main(int argc, char **argv) { printf("%s %s\\n", argv[1], argv[2]); }\n'


def _package(root: Path) -> Path:
    return write_files(
        root,
        {
            "problem.yaml": "problem_format_version: 2025-09\nname: Sum\nlimits:\n  time_limit: 2\n",
            "generators/generators.yaml": GENERATORS,
            "generators/gen.py": GEN,
            "generators/genc.c": GEN_C,
            "generators/files.py": FILES,
            "generators/main.py": "import sys\nfrom lib import line\nprint(line(sys.argv[1:]))\n",
            "generators/lib.py": "def line(words):\n    return ' '.join(words)\n",
            "generators/sum_of_pair.py": "a, b = map(int, input().split())\nprint(a + b, end=' \\n')\n",
            "generators/hand.in": "7 8\n",
            "generators/hand.ans": "15\n",
            "submissions/accepted/sum.py": "print(sum(map(int, input().split())))\n",
            "submissions/wrong_answer/first.py": "print(input().split()[0])\n",
        },
    )


@needs("gcc")
def test_generate_makes_the_data_as_bt_generate_and_verify_judges_it(tmp_path: Path) -> None:
    package = _package(tmp_path / "sum")
    made = cli("generate", str(package))
    assert made.returncode == 0, made.stdout + made.stderr
    assert "sum: 12 cases made, 0 unchanged, 0 removed" in made.stdout, made.stdout
    assert "data/testing_tool_test is not made" in made.stderr and "'visualizer' is not used" in made.stderr
    data = package / "data"
    small = data / "secret" / "1-small"
    assert (small / "03-fixed.in").read_text() == "4 5\n" and (small / "03-fixed.ans").read_text() == "9\n"
    seeded = [(small / f"0{3 + n}-seeded-{n}.in").read_text() for n in (1, 2, 3)]  # a number each
    assert len(set(seeded)) == 3, seeded  # the same line three times: one seed each, three different cases
    assert (small / "07-by_hand.ans").read_text() == "15\n" and (small / "08-in_c.in").read_text() == "40 2\n"
    assert (data / "secret" / "2-large" / "03-fixed.ans").read_text() == "9\n"  # include: the case as made
    assert (data / "secret" / "2-large" / "10-counted-2.in").read_text() == "0 2\n"
    named = data / "secret" / "2-large" / "11-named"  # a generator of two files named under generators:
    assert named.with_suffix(".in").read_text() == "5 6\n"
    assert named.with_suffix(".ans").read_text() == "11 \n"  # the folder's own solution: (its trailing space)
    assert "case_sensitive" in (data / "secret" / "test_group.yaml").read_text()
    assert (data / "sample" / "01.ans").read_text() == "3\n"
    assert (data / "sample" / "02-as_files.in").read_text() == "6 7\n"
    assert (data / "sample" / "02-as_files.ans").read_text() == "13 \n"  # the generator's, not the solution's
    verified = cli("verify", str(package), "-j", "1")
    assert verified.returncode == 0, verified.stdout + verified.stderr
    assert "12 cases" in verified.stdout.splitlines()[0] and "not made from it" not in verified.stdout

    again = cli("generate", str(package))
    assert "sum: 0 cases made, 12 unchanged, 0 removed" in again.stdout, again.stdout
    (package / "generators" / "genc.c").write_text(GEN_C.replace('"%s %s', '"%s  %s'))
    (package / "generators" / "generators.yaml").write_text(GENERATORS.replace("          include: [fixed]\n", ""))
    changed = cli("generate", str(package))
    assert "sum: 1 cases made, 10 unchanged, 1 removed" in changed.stdout, changed.stdout
    assert (small / "08-in_c.in").read_text() == "40  2\n" and not (
        data / "secret" / "2-large" / "03-fixed.in"
    ).exists()
    assert set(json.loads((data / ".generated.json").read_text())) == {
        p.relative_to(data).with_suffix("").as_posix() for p in data.rglob("*.in")
    }


# a git directory of BAPCtools (https://github.com/RagnarGrootKoerkamp/BAPCtools), named by the one who runs the tests:
# no default, as no folder of one machine is where another keeps it
BAPCTOOLS_GIT = os.environ.get("TILEJUDGE_BAPCTOOLS_GIT", "")


@pytest.mark.slow
@pytest.mark.parametrize("name", ["testseed", "divsort", "generatorincludes", "generatorcount"])
def test_bapctools_own_generator_packages_verify_after_generate(name: str, tmp_path: Path) -> None:
    """BAPCtools' test problems, read from a git checkout of BAPCtools when there is one ($TILEJUDGE_BAPCTOOLS_GIT):
    their data made by ``generate`` verifies (``testseed``'s validator checks every ``{seed}`` is bt's)."""
    if not BAPCTOOLS_GIT:
        pytest.skip(
            "BAPCtools' test problems are read from a git clone of BAPCtools: set TILEJUDGE_BAPCTOOLS_GIT to one "
            "(git clone --bare https://github.com/RagnarGrootKoerkamp/BAPCtools)"
        )
    if shutil.which("git") is None:
        pytest.skip("git is not installed (Debian package git)")
    archive = subprocess.run(
        ["git", f"--git-dir={BAPCTOOLS_GIT}", "archive", "HEAD", f"test/problems/{name}"], capture_output=True
    )
    if archive.returncode != 0:
        pytest.skip(f"TILEJUDGE_BAPCTOOLS_GIT={BAPCTOOLS_GIT}: no test/problems/{name} at its HEAD")
    subprocess.run(["tar", "-x", "-C", str(tmp_path)], input=archive.stdout, check=True)
    package = tmp_path / "test" / "problems" / name
    shutil.rmtree(package / "data", ignore_errors=True)  # made here, not taken from the checkout
    made = cli("generate", str(package))
    assert made.returncode == 0, made.stdout + made.stderr
    verified = cli("verify", str(package))
    assert verified.returncode == 0 and "inputs valid" in verified.stdout, verified.stdout + verified.stderr


@pytest.mark.parametrize(
    ("line", "error"),
    [
        ("      - ../../escape: {in: '1 2'}", "'../../escape' is not a case or folder name"),
        ("      - ok: {copy: ../../problem}", "copy: '../../problem' is not a path inside generators/"),
        ("      - ok: /../outside.py 1 2", "/../outside.py is outside the package"),
    ],
)
def test_a_generators_file_writing_or_reading_outside_its_place_is_one_line(
    line: str, error: str, tmp_path: Path
) -> None:
    package = _package(tmp_path / "sum")
    (tmp_path / "outside.py").write_text("print(1, 2)\n")
    text = "solution: /submissions/accepted/sum.py\ndata:\n  secret:\n    data:\n" + line + "\n"
    (package / "generators" / "generators.yaml").write_text(text)
    made = cli("generate", str(package))
    lines = made.stderr.strip().splitlines()
    assert made.returncode == 2 and len(lines) == 1 and error in lines[0], made.stderr
    assert not (tmp_path / "escape.in").exists() and not any(tmp_path.glob("*.in"))


def test_an_interactive_problems_answers_are_written_empty_whatever_form_its_type_takes(tmp_path: Path) -> None:
    """``type: [interactive, multi-pass]`` (a list, as BAPCtools' interactivemultipass has it) is interactive as much
    as the string is: the answers are empty, and the solution (here a program that fails) is never started."""
    generators = "solution: /submissions/accepted/fails.py\ndata:\n  sample:\n    data:\n      - '': {in: '5'}\n"
    for name, kind in (("listed", "[interactive, multi-pass]"), ("spaced", "interactive multi-pass")):
        package = write_files(
            tmp_path / name,
            {
                "problem.yaml": f"problem_format_version: 2025-09\nname: X\ntype: {kind}\n",
                "generators/generators.yaml": generators,
                "submissions/accepted/fails.py": "raise SystemExit(1)\n",
            },
        )
        made = cli("generate", str(package))
        assert made.returncode == 0, made.stdout + made.stderr
        assert (package / "data" / "sample" / "1.ans").read_text() == "", name
