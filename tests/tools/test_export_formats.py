"""``export --format legacy|2023-07|2025-09`` on a package written here: names every tool accepts, Java under its
public class, and each version read back by our own loader with the same verdicts (the round trip).

The package has two groups whose names reduce to the same ``[a-z0-9]``
word, a scoring group of each aggregation,
and submissions in Python, Java and C that pass, fail one group, or fail all.
C is here for the C submissions of the bundled problems (hdoj3600's alone),
whose export test_kattis.py's round trip no longer verifies.
"""

from __future__ import annotations

import ast
import dataclasses
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from conftest import REPO_ROOT, cli, needs, write_files

from judge.errors import UsageError
from judge.model import Kind
from judge.problem.formats import load
from judge.problem.formats.kattis_export import export
from judge.problem.formats.kattis_export_layout import LAYOUTS, case_stem, group_folder

TWICE = "print(2 * int(input()))\n"
JAVA_TWICE = (
    "import java.util.*;\npublic class Main {\n  public static void main(String[] a) {\n"
    "    System.out.println(2 * new Scanner(System.in).nextLong());\n  }\n}\n"
)
C_TWICE = (
    "#include <stdio.h>\nint main(void) {\n  long long n;\n"
    '  if (scanf("%lld", &n) == 1) printf("%lld\\n", 2 * n);\n  return 0;\n}\n'
)
WRONG_ON_BIG = "n = int(input())\nprint(2 * n if n < 100 else n)\n"
PROBLEM = """\
title: Twice
limits:
  time: 2
  memory: 256
  output: 1
checker:
  type: lines
solutions:
  - solution.py
groups:
  - name: sample
    points: 0
    cases:
      - {name: sample-1, file: data/s1.in}
  - name: small-cases
    points: 40
    cases:
      - {name: one_two, file: data/a.in}
      - {name: one-two, file: data/b.in}
  - name: small_cases
    points: 60
    aggregation: sum
    cases:
      - {name: big, file: data/c.in}
      - {name: bigger, file: data/d.in}
"""


@pytest.fixture(scope="module")
def twice(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = write_files(
        tmp_path_factory.mktemp("native") / "twice",
        {
            "problem.yaml": PROBLEM,
            "statement.md": "# Twice\n\nPrint $2n$ & nothing_else.\n\n```\n3\n```\n",
            "solution.py": TWICE,
            "data/s1.in": "3\n",
            "data/a.in": "1\n",
            "data/b.in": "7\n",
            "data/c.in": "100\n",
            "data/d.in": "12345\n",
            "submissions/accepted/twice.py": TWICE,
            "submissions/accepted/twice.java": JAVA_TWICE,
            "submissions/accepted/twice.c": C_TWICE,
            "submissions/wrong_answer/small_only.py": WRONG_ON_BIG,
        },
    )
    made = cli("generate", str(root))  # the answers, made by solution.py, which the in-process exports read
    assert made.returncode == 0, made.stderr
    return root


def test_group_and_case_names_are_reduced_deterministically_and_never_collide() -> None:
    groups = [
        group_folder(n, name) for n, name in enumerate(["Small Cases", "small-cases", "small_cases", "ÄÖ"], start=1)
    ]
    assert groups == ["01smallcases", "02smallcases", "03smallcases", "04"]
    assert all(re.fullmatch(r"[a-z0-9]+", g) for g in groups)
    cases = [case_stem(i, name) for i, name in enumerate(["one two", "One.Two", "-x-", "..."], start=1)]
    assert cases == ["001-one_two", "002-one_two", "003-x", "004-case"]
    assert len(set(cases)) == len(cases) and all(re.fullmatch(r"[a-z0-9][a-z0-9_-]*", c) for c in cases)


@pytest.mark.parametrize("version", sorted(LAYOUTS))
def test_every_folder_and_file_name_is_what_the_tools_accept(twice: Path, version: str, tmp_path: Path) -> None:
    out = tmp_path / "twice"
    export(load(twice), out, lambda _: None, version)
    secret = sorted(p.name for p in (out / "data" / "secret").iterdir() if p.is_dir())
    assert secret == ["01smallcases", "02smallcases"]
    for path in out.rglob("*"):
        assert re.fullmatch(r"[a-zA-Z0-9_][a-zA-Z0-9_.-]{0,254}", path.name), path
    stems = sorted(p.name for p in (out / "data" / "secret" / "01smallcases").glob("*.in"))
    assert stems == ["001-one_two.in", "002-one-two.in"]


@pytest.mark.parametrize(
    ("version", "settings", "validator"),
    [
        ("legacy", "testdata.yaml", "problem_statement/problem.en.tex"),
        ("2023-07", "testdata.yaml", "statement/problem.en.md"),
        ("2025-09", "test_group.yaml", "statement/problem.en.tex"),  # BAPCtools reads no Markdown statement
    ],
)
def test_each_version_writes_its_own_layout(
    twice: Path, version: str, settings: str, validator: str, tmp_path: Path
) -> None:
    out = tmp_path / "twice"
    notes: list[str] = []
    export(load(twice), out, notes.append, version)
    meta = yaml.safe_load((out / "problem.yaml").read_text())
    assert meta.get("problem_format_version") == LAYOUTS[version].format_key
    assert (out / validator).is_file() and (out / "data" / "secret" / settings).is_file()
    assert [p.name for p in (out / validator).parent.iterdir()] == [Path(validator).name]  # one statement per language
    if validator.endswith(".tex"):
        tex = (out / validator).read_text()
        assert (
            "\\problemname{Twice}" in tex
            and "\\& nothing\\_else" in tex
            and "\\begin{verbatim}\n3\n\\end{verbatim}" in tex
        )
    if version == "legacy":  # problemtools refuses limits.time_limit in a legacy package
        assert meta["type"] == "scoring" and meta["validation"] == "default" and "time_limit" not in meta["limits"]
        assert any("no time limit key" in n for n in notes)
        assert (
            yaml.safe_load((out / "data" / "testdata.yaml").read_text())["grader_flags"]
            == "ignore_sample sum first_error"
        )
        assert yaml.safe_load((out / "data" / "secret" / "02smallcases" / "testdata.yaml").read_text()) == {
            "on_reject": "continue",
            "grader_flags": "sum first_error",  # problemtools would report the worst verdict, not the first
            "accept_score": 30,
            "reject_score": 0,
            "range": "0 60",
            "output_validator_flags": "case_sensitive",
        }
    else:  # the spec has one limit for all languages: Python's (3 x 2 s, the registry's factor), kept back for us
        assert meta["limits"]["time_limit"] == 6.0 and any("time_limit is 6 s for every language" in n for n in notes)
        assert yaml.safe_load((out / "tilejudge.yaml").read_text())["base_time_limit"] == 2.0
        assert load(out).limits.time == 2.0


def test_pass_fail_drops_the_points_for_tools_that_judge_no_scores(twice: Path, tmp_path: Path) -> None:
    notes: list[str] = []
    export(load(twice), tmp_path / "out", notes.append, "2025-09", pass_fail=True)
    assert yaml.safe_load((tmp_path / "out" / "problem.yaml").read_text())["type"] == "pass-fail"
    assert not any("max_score" in p.read_text() for p in (tmp_path / "out" / "data").rglob("test_group.yaml"))
    assert any("100 points are dropped" in n for n in notes)
    back = load(tmp_path / "out")
    assert back.max_score == 0 and not back.kind.scoring


def test_legacy_refuses_a_kind_it_cannot_say(twice: Path, tmp_path: Path) -> None:
    multi = dataclasses.replace(load(twice), kind=Kind(passes=2))
    with pytest.raises(
        UsageError, match="the legacy format has no multi-pass problems; export it as 2023-07 or 2025-09"
    ):
        export(multi, tmp_path / "out", lambda _: None, "legacy")
    assert not (tmp_path / "out").exists()


@needs("javac")
@pytest.mark.parametrize("version", sorted(LAYOUTS))
def test_round_trip_each_version_loads_again_with_the_same_verdicts(twice: Path, version: str, tmp_path: Path) -> None:
    out = tmp_path / "twice"
    run = cli("export", str(twice), "--format", version, str(out))
    assert run.returncode == 0, run.stderr
    assert sorted(p.name for p in (out / "submissions" / "accepted").iterdir()) == ["Main.java", "twice.c", "twice.py"]
    back = load(out)
    assert [g.points for g in back.groups if g.points] == [40, 60] and back.max_score == 100
    report_file = tmp_path / "verify.json"
    verified = cli("verify", str(out), "-j", "1", "--json", str(report_file))
    assert verified.returncode == 0, verified.stdout[-3000:] + verified.stderr[-2000:]
    report = json.loads(report_file.read_text())
    outcomes = {s["name"]: (s["verdict"], s["ok"]) for s in report["submissions"]}
    assert outcomes == {
        "accepted/Main.java": ("AC", True),
        "accepted/twice.c": ("AC", True),
        "accepted/twice.py": ("AC", True),
        "wrong_answer/small_only.py": ("WA", True),
    }


def test_a_program_with_a_library_of_its_language_is_exported_as_main(tmp_path: Path) -> None:
    """slide's validator and checker import tiles.py from problems/_lib: beside it, the program must be main.py,
    or problemtools runs tiles.py (the first source by name) as the validator."""
    out = tmp_path / "slide"
    run = cli("export", "slide", "--format", "legacy", str(out))
    assert run.returncode == 0, run.stderr
    folder = out / "input_validators" / "validator"
    assert sorted(p.name for p in folder.iterdir()) == ["main.py", "tiles.py"]
    assert sorted(p.name for p in (out / "output_validators" / "checker").iterdir()) == ["main.py", "tiles.py"]
    sample = sorted((out / "data" / "sample").glob("*.in"))[0]
    checked = subprocess.run(
        [sys.executable, "main.py"], cwd=folder, stdin=sample.open("rb"), capture_output=True, timeout=60
    )
    assert checked.returncode == 42, checked.stderr
    assert list(load(out).validators) == [folder]  # built whole; main.py is the entry point for our loader too


def test_a_tool_rewriting_the_exported_data_in_place_leaves_ours_alone(twice: Path, tmp_path: Path) -> None:
    """A reference tool's run once rewrote an exported answer file in place: with the data hard-linked, that was our
    own committed answer (hdoj3600's), and every accepted submission got WA afterwards."""
    problem = load(twice)
    ours = {path: path.read_bytes() for path in problem.cases_dir.rglob("*") if path.is_file()}
    export(problem, tmp_path / "out", lambda note: None, "2025-09")
    exported = [*(tmp_path / "out" / "data").rglob("*.in"), *(tmp_path / "out" / "data").rglob("*.ans")]
    assert exported
    for path in exported:
        with path.open("r+b") as file:  # in place, as an editor or a tool rewriting a file keeps its inode
            file.truncate(0)
    assert {path: path.read_bytes() for path in ours} == ours


def _evaluated_union_annotations(source: Path) -> list[int]:
    """Lines of ``X | Y`` annotations that Python evaluates when defining the function or class."""
    tree = ast.parse(source.read_text(encoding="utf-8"))
    if any(
        isinstance(n, ast.ImportFrom) and n.module == "__future__" and any(a.name == "annotations" for a in n.names)
        for n in tree.body
    ):
        return []
    annotations = [
        a
        for n in ast.walk(tree)
        for a in (
            [n.returns, *(x.annotation for x in [*n.args.args, *n.args.kwonlyargs, *n.args.posonlyargs])]
            if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))
            else [n.annotation]
            if isinstance(n, ast.AnnAssign)
            else []
        )
        if a is not None
    ]
    return sorted({b.lineno for a in annotations for b in ast.walk(a) if isinstance(b, ast.BinOp)})


def test_exported_python_programs_define_on_python_3_9() -> None:
    """problemtools and BAPCtools run Python 3 as PyPy3, which is Python 3.9 in Debian 12: an evaluated ``X | None``
    annotation is a TypeError there (klotski's checker was a judge error on every case). Generators are not exported,
    but a setter may run one with the same interpreter (reach's failed so under PyPy3), so they are held to it too."""
    offending = {
        str(p.relative_to(REPO_ROOT)): lines
        for p in sorted((REPO_ROOT / "problems").rglob("*.py"))
        if (lines := _evaluated_union_annotations(p))
    }
    assert offending == {}
