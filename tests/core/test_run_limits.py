"""The limits of one run are one value, built in one module (issue 48, item 2).

A run's limits used to be derived where each run was made: the time limit
from ``Problem`` in four modules, a longer limit by rebuilding the problem
(``replace(problem, limits=…)``), an interactor's command line given the
problem's memory while its run had the checker's, the TLE and OLE messages
written two and three times, and the problem's kind tested in three modules.
``judge/core/run_limits.py`` now builds every role's limits and writes the
messages, ``judge/core/kinds.py`` alone reads the kind. The first tests read
the source for the old patterns (as ``test_architecture.py`` does for
imports); the last judges an interactor written in PHP, whose command line
carries a memory figure (``memory_limit={mem}M``), and checks that figure
against the limit its run is given.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
from conftest import write_files

from judge.core import judge, pass_by_pass
from judge.core.submission import prepare_submission
from judge.core.testdata import ensure
from judge.problem.formats import load
from judge.run import Isolation, RunSpec, SlotPool
from judge.verdict import Verdict

JUDGE = Path(__file__).resolve().parents[2] / "judge"
BUILDER = "core/run_limits.py"

# where a pattern may still appear, and why; everything else under judge/ is held to the one builder
ALLOWED: dict[str, dict[str, str]] = {
    # the language factor applied to the problem's time: the model's arithmetic, the builder, and the export that
    # writes one limit for every language into a Kattis package (a format, below the core)
    r"\.(time_for|wall_for)\(": {
        "model/problem.py": "the arithmetic itself",
        BUILDER: "the builder",
        "problem/formats/kattis_export.py": "the exported package's single limit, not a run's",
    },
    # a different limit made by rebuilding the problem
    r"replace\(\s*problem\s*,\s*limits\s*=": {"core/timelimit.py": "with_limit: the package's own inferred limit"},
    # run limits made from numbers rather than built for a role
    r"\bRunLimits\(": {
        BUILDER: "the builder",
        "run/types.py": "the type",
        "lang/compiling.py": "a compile, not a program's run",
        "tools/bt_generate.py": "BAPCtools' solution limits, handed to trusted_limits",
        "tools/bench.py": "a benchmark driving the run layer directly",
        "tools/bench_limits.py": "a benchmark driving the run layer directly",
        "tools/bench_interactive.py": "a benchmark driving the run layer directly",
    },
    # a command line's memory figure taken from anything but the run's own limits
    r"\.command\((?!.*command_memory)": {
        "lang/build.py": "the definition",
        "lang/language.py": "the definition",
        "tools/bench.py": "a benchmark driving the run layer directly",
    },
    # the messages that say a limit was reached
    r"over the \{|MiB limit|s limit after": {
        BUILDER: "the messages, written once",
        "lang/compiling.py": "a compile's limit, not a program's run",
        "grade/discovery.py": "a source file's size, not a run's",
    },
    # the model's kind read outside the one module that chooses a strategy from it
    r"\.kind\.(interactive|multi_pass|submit_answer|passes)\b": {
        "core/kinds.py": "kind_of and the strategies",
        "problem/formats/kattis.py": "reading a package",
        "problem/formats/kattis_submissions.py": "reading a package",
        "problem/formats/kattis_export.py": "writing a package",
    },
}


def _sources() -> list[tuple[str, str]]:
    return [(p.relative_to(JUDGE).as_posix(), p.read_text()) for p in sorted(JUDGE.rglob("*.py"))]


@pytest.mark.parametrize("pattern", list(ALLOWED))
def test_a_limit_is_derived_in_one_module(pattern: str) -> None:
    found = {
        f"{name}:{text.count(chr(10), 0, m.start()) + 1}"
        for name, text in _sources()
        for m in re.finditer(pattern, text)
        if name not in ALLOWED[pattern] and not _checked_command(pattern, text, m.start())
    }
    assert not found, f"{pattern} outside {BUILDER} (build the run's limits there and pass them down): {sorted(found)}"


def _checked_command(pattern: str, text: str, at: int) -> bool:
    """A ``.command(`` call given the run's own figure (``command_memory``) on the same line, or a definition."""
    if not pattern.startswith(r"\.command"):
        return False
    line = text[text.rfind("\n", 0, at) + 1 : text.find("\n", at)]
    return "command_memory" in line or line.lstrip().startswith("def ")


INTERACTOR = r"""<?php
// Kattis protocol: read the submission's line, say what memory figure this interpreter was given, accept.
$line = fgets(STDIN);
file_put_contents($argv[3] . "judgemessage.txt", "memory_limit " . ini_get("memory_limit"));
exit(trim($line) === "hello" ? 42 : 43);
"""


@pytest.mark.skipif(shutil.which("php") is None, reason="needs PHP, whose command line carries {mem}")
def test_an_interactors_command_line_and_its_run_get_the_same_memory_limit(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = write_files(
        tmp_path / "hello",
        {
            "problem.yaml": "\n".join(
                [
                    "title: Hello to a PHP interactor",
                    "type: interactive",
                    "interactor:",
                    "  program: interactor.php",
                    "limits:",
                    "  time: 1",
                    "  memory: 64",
                    "solutions:",
                    "  - hello.py",
                    "groups:",
                    "  - name: all",
                    "    points: 100",
                    "    cases:",
                    "      - name: one",
                    "        file: inputs/1.in",
                    "",
                ]
            ),
            "interactor.php": INTERACTOR,
            "hello.py": "print('hello', flush=True)\n",
            "inputs/1.in": "1\n",
        },
    )
    sides: list[RunSpec] = []
    for name in ("run_direct", "run_relayed"):
        real = getattr(pass_by_pass, name)

        def seen(slot, spec, binds, side, *rest, real=real, **named):  # type: ignore[no-untyped-def]
            sides.append(side)
            return real(slot, spec, binds, side, *rest, **named)

        monkeypatch.setattr(pass_by_pass, name, seen)
    problem = load(root)
    with SlotPool(1, Isolation("none")) as pool:
        ensure(problem, pool)
        report = judge(problem, prepare_submission(problem, root / "hello.py", pool), pool)
    (case,) = report.cases
    assert case.verdict is Verdict.AC, (case.verdict, case.message)
    (side,) = sides
    limit = side.limits.memory_mib
    assert limit is not None and limit != problem.limits.memory_mib  # the interactor runs under its own limit
    assert f"memory_limit={limit}M" in side.argv, f"its run has {limit} MiB, its command line says {side.argv}"
