"""Test data handling: generation is reproducible, tampering is caught, missing cases come back bit for bit.

These guard the promise that large cases need not be committed: whatever the
judge regenerates on demand must be exactly what the manifest recorded, and
anything else must stop the run loudly rather than judge on different data.
"""

from __future__ import annotations

import hashlib
import json
import subprocess
import sys
import time
from pathlib import Path

import pytest
from conftest import REPO_ROOT, cli, write_files


def cases_of(problem: Path) -> Path:
    return problem.parent.parent / "cases" / problem.name


def test_check_accepts_committed_data(gensum: Path) -> None:
    run = cli("generate", str(gensum), "--check")
    assert run.returncode == 0, run.stderr
    assert "3/3 cases reproduce bit for bit" in run.stdout


def test_check_names_a_tampered_input(gensum: Path) -> None:
    ten = cases_of(gensum) / "small" / "ten.in"
    ten.write_bytes(ten.read_bytes().replace(b" ", b"  ", 1))
    run = cli("generate", str(gensum), "--check")
    assert run.returncode == 1
    assert "small/ten input" in run.stdout
    assert "small/three" not in run.stdout


def test_large_case_is_not_committed_and_comes_back_identical(gensum: Path) -> None:
    cases = cases_of(gensum)
    assert (cases / ".gitignore").read_text().splitlines()[1:] == ["/big/big.in"]
    tracked = subprocess.run(
        ["git", "ls-files", "tests/fixtures/cases/gensum"], capture_output=True, text=True, cwd=REPO_ROOT
    ).stdout
    assert "big/big.in" not in tracked and "big/big.ans" in tracked
    recorded = json.loads((cases / "manifest.json").read_text())["cases"]["big/big"]["input"]["sha256"]
    (cases / "big" / "big.in").unlink(missing_ok=True)
    run = cli("judge", str(gensum), str(gensum / "sum.py"))
    assert run.returncode == 0, run.stdout + run.stderr
    assert hashlib.sha256((cases / "big" / "big.in").read_bytes()).hexdigest() == recorded


def test_regenerated_case_that_differs_from_manifest_stops_the_judge(gensum: Path) -> None:
    cases = cases_of(gensum)
    manifest = json.loads((cases / "manifest.json").read_text())
    manifest["cases"]["big/big"]["input"]["sha256"] = "0" * 64
    (cases / "manifest.json").write_text(json.dumps(manifest))
    (cases / "big" / "big.in").unlink(missing_ok=True)
    run = cli("judge", str(gensum), str(gensum / "sum.py"))
    assert run.returncode == 3
    assert "big/big" in run.stderr and "differs from manifest" in run.stderr
    assert "Traceback" not in run.stderr


def test_changed_generator_arguments_regenerate_that_case(gensum: Path) -> None:
    spec = gensum / "problem.yaml"
    spec.write_text(spec.read_text().replace("--count 3 --seed 1", "--count 4 --seed 1"))
    run = cli("judge", str(gensum), str(gensum / "sum.py"))
    assert run.returncode == 0, run.stdout + run.stderr
    assert (cases_of(gensum) / "small" / "three.in").read_text().startswith("4\n")
    manifest = json.loads((cases_of(gensum) / "manifest.json").read_text())["cases"]
    assert manifest["small/three"]["source"] == "generate: --count 4 --seed 1"


def test_validate_names_the_invalid_case_and_line(gensum: Path) -> None:
    three = cases_of(gensum) / "small" / "three.in"
    three.write_text("3\n1 2 99999\n")
    run = cli("validate", str(gensum))
    assert run.returncode == 1
    assert "small/three: invalid: line 2" in run.stdout
    assert "2/3 inputs valid" in run.stdout


def test_failing_generator_is_a_judge_error_naming_the_case(gensum: Path) -> None:
    spec = gensum / "problem.yaml"
    spec.write_text(spec.read_text().replace("--count 10 --seed 2", "--count ten --seed 2"))
    (cases_of(gensum) / "small" / "ten.in").unlink()
    run = cli("judge", str(gensum), str(gensum / "sum.py"))
    assert run.returncode == 3
    assert "generator for case small/ten failed" in run.stderr
    assert "Traceback" not in run.stderr


@pytest.mark.parametrize("name", sorted(p.parent.name for p in (REPO_ROOT / "problems").glob("*/problem.yaml")))
def test_each_bundled_manifest_records_the_sources_as_committed(name: str) -> None:
    """A change to a generator, reference or library (a reformatting too) must come with the manifest made again:
    otherwise a fresh clone calls every case stale and makes them all again on its first command."""
    from judge.core.testdata import stale_cases
    from judge.problem.formats import load_problem

    assert stale_cases(load_problem(REPO_ROOT / "problems" / name)) == {}


SLOW_GENERATOR = """import sys, time
count = int(sys.argv[1])
sys.stdout.write(f"{count}\\n"); sys.stdout.flush()
time.sleep(0.6)
sys.stdout.write(" ".join(str(i) for i in range(1, count + 1)) + "\\n"); sys.stdout.flush()
time.sleep(0.6)
"""


def test_two_judges_at_once_make_the_cases_once(tmp_path: Path) -> None:
    """Two judges started together on a package without its cases: the second waits for the first's data instead of
    writing the same files beside it (its generator would truncate the input the first's reference is reading), and
    both judge on right answers."""
    problem = write_files(
        tmp_path / "problems" / "slowgen",
        {
            "problem.yaml": "title: Slow generator\nlimits: {time: 1, memory: 128, output: 1}\ngenerator: gen.py\n"
            "solutions: [sum.py]\ngroups:\n  - name: main\n    points: 100\n    cases:\n"
            "      - {name: five, generate: '5'}\n      - {name: nine, generate: '9'}\n",
            "statement.md": "Sum the numbers.\n",
            "gen.py": SLOW_GENERATOR,
            "sum.py": "import sys\nprint(sum(map(int, sys.stdin.read().split()[1:])))\n",
        },
    )
    argv = [sys.executable, str(REPO_ROOT / "run_judge.py"), "judge", str(problem), str(problem / "sum.py"), "-j", "2"]
    judges = [subprocess.Popen(argv, cwd=REPO_ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)]
    time.sleep(0.3)  # the first has begun writing a case when the second starts
    judges.append(subprocess.Popen(argv, cwd=REPO_ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True))
    outcomes = [judge.communicate(timeout=120) for judge in judges]
    for judge, (stdout, stderr) in zip(judges, outcomes):
        assert judge.returncode == 0, stdout + stderr
    answers = {path.stem: path.read_text() for path in cases_of(problem).glob("main/*.ans")}
    assert answers == {"five": "15\n", "nine": "45\n"}
    assert sum("generating" in stderr for _, stderr in outcomes) == 1, [stderr for _, stderr in outcomes]
