"""The JSON reports of ``judge --json`` and ``verify --json`` against their schemas in docs/schemas/.

Real reports of real runs are checked: an interactive case (``transcript``),
a Kattis validator's score file (``score_file``), a sample case's ``output``, a crash, a compile error
and a verify run with findings. The checker is a small one written here
for the keywords the schemas use (no jsonschema dependency); it is tested
too, so that a report with an undocumented or a missing field fails.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from conftest import REPO_ROOT, cli, write_files

SCHEMAS = REPO_ROOT / "docs" / "schemas"
TYPES: dict[str, Any] = {
    "object": lambda v: isinstance(v, dict),
    "array": lambda v: isinstance(v, list),
    "string": lambda v: isinstance(v, str),
    "boolean": lambda v: isinstance(v, bool),
    "null": lambda v: v is None,
    "integer": lambda v: isinstance(v, int) and not isinstance(v, bool),
    "number": lambda v: isinstance(v, (int, float)) and not isinstance(v, bool),
}
KNOWN = {
    "$schema",
    "$id",
    "title",
    "description",
    "type",
    "required",
    "additionalProperties",
    "properties",
    "items",
    "prefixItems",
    "minItems",
    "maxItems",
    "enum",
    "minimum",
}


def violations(value: Any, schema: dict[str, Any], at: str = "$") -> list[str]:
    """Every place ``value`` breaks ``schema`` (the keywords in KNOWN; any other keyword is an error in the schema)."""
    unknown = set(schema) - KNOWN
    assert not unknown, f"{at}: the test's checker does not know {unknown}"
    out = []
    if "enum" in schema and value not in schema["enum"]:
        out.append(f"{at}: {value!r} is not one of {schema['enum']}")
    types = schema.get("type")
    if types is not None and not any(TYPES[t](value) for t in ([types] if isinstance(types, str) else types)):
        return out + [f"{at}: {type(value).__name__} is not {types}"]
    if isinstance(value, dict):
        out += [f"{at}: missing {key}" for key in schema.get("required", []) if key not in value]
        properties = schema.get("properties", {})
        if schema.get("additionalProperties") is False:
            out += [f"{at}: undocumented field {key}" for key in value if key not in properties]
        for key, sub in properties.items():
            if key in value:
                out += violations(value[key], sub, f"{at}.{key}")
    if isinstance(value, list):
        if len(value) < schema.get("minItems", 0) or len(value) > schema.get("maxItems", len(value)):
            out.append(f"{at}: {len(value)} items")
        prefix = schema.get("prefixItems", [])
        for n, item in enumerate(value):
            sub = prefix[n] if n < len(prefix) else schema.get("items")
            if sub is not None:
                out += violations(item, sub, f"{at}[{n}]")
    if TYPES["number"](value) and "minimum" in schema and value < schema["minimum"]:
        out.append(f"{at}: {value} is below {schema['minimum']}")
    return out


def schema(name: str) -> dict[str, Any]:
    return json.loads((SCHEMAS / name).read_text())


def judged(root: Path, program: Path, out: Path) -> dict[str, Any]:
    run = cli("judge", str(root), str(program), "--json", str(out), "-j", "1")
    assert run.returncode in (0, 1), run.stderr
    return json.loads(out.read_text())


SCORER = """
import sys
from pathlib import Path
# Kattis protocol: input answer feedback_dir < output; half marks for an answer off by one
want = int(open(sys.argv[2]).read())
got = int(sys.stdin.read())
if abs(got - want) == 1:
    Path(sys.argv[3], "score_multiplier.txt").write_text("0.5")
sys.exit(42 if abs(got - want) <= 1 else 43)
"""
INTERACTOR = """
import sys
secret = int(open(sys.argv[1]).read())
for line in sys.stdin:
    guess = int(line)
    print("correct" if guess == secret else "higher" if guess < secret else "lower", flush=True)
    if guess == secret:
        sys.exit(42)
sys.exit(43)
"""
GUESS = (
    "lo, hi = 1, 100\nwhile True:\n    mid = (lo + hi) // 2\n    print(mid, flush=True)\n    r = input()\n"
    "    if r == 'correct':\n        break\n    lo, hi = (mid + 1, hi) if r == 'higher' else (lo, mid - 1)\n"
)


@pytest.fixture(scope="module")
def reports(tmp_path_factory: pytest.TempPathFactory) -> list[dict[str, Any]]:
    """Four judgings whose reports hold every kind of field, made once for the module: its tests only read them."""
    tmp_path = tmp_path_factory.mktemp("reports")
    scoring = write_files(
        tmp_path / "near",
        {
            "problem.yaml": "problem_format_version: 2025-09\nname: Near\ntype: scoring\nlimits:\n  time_limit: 2\n",
            "data/sample/1.in": "1\n",
            "data/sample/1.ans": "1\n",
            "data/secret/test_group.yaml": "max_score: 10\n",
            "data/secret/1.in": "5\n",
            "data/secret/1.ans": "5\n",
            "output_validator/near.py": SCORER,
            "off.py": "print(int(input()) + 1)\n",
            "crash.py": "import os\nos.abort()\n",
            "broken.c": "int main( {\n",
        },
    )
    interactive = write_files(
        tmp_path / "guess",
        {
            "problem.yaml": (
                "problem_format_version: 2025-09\nname: Guess\ntype: interactive\nlimits:\n  time_limit: 2\n"
            ),
            "data/secret/1.in": "37\n",
            "data/secret/1.ans": "\n",
            "output_validator/guess.py": INTERACTOR,
            "guess.py": GUESS,
        },
    )
    out = tmp_path / "out"
    out.mkdir()
    return [judged(scoring, scoring / name, out / f"{name}.json") for name in ("off.py", "crash.py", "broken.c")] + [
        judged(interactive, interactive / "guess.py", out / "guess.json")
    ]


def test_judge_reports_match_their_schema(reports: list[dict[str, Any]]) -> None:
    off, crash, broken, guess = reports
    # the runs really have the fields the schema documents: not an empty pass
    assert off["cases"][-1]["score_file"] == ["score_multiplier.txt", 0.5] and off["score"] == 5
    assert off["cases"][0]["output"] == {"text": "2\n", "size": 2, "cut": False} and off["cases"][-1]["output"] is None
    assert (
        crash["verdict"] == "RE" and crash["cases"][0]["signal"] == "SIGABRT" and crash["cases"][0]["exit_code"] is None
    )
    assert broken["verdict"] == "CE" and broken["compile"]["ok"] is False
    assert guess["verdict"] == "AC" and guess["cases"][0]["transcript"].startswith(">")
    for report in reports:
        assert violations(report, schema("judge-report.schema.json")) == []


def test_verify_report_matches_its_schema(tmp_path: Path) -> None:
    root = write_files(
        tmp_path / "echo",
        {
            "problem.yaml": "name: Echo\nlimits:\n  time_limit: 2\n",
            "data/secret/1.in": "1\n",
            "data/secret/1.ans": "1\n",
            "submissions/accepted/echo.py": "print(input())\n",
            "submissions/wrong_answer/echo.py": "print(input())\n",
            "submissions/accepted/old.py.disabled": "",
        },
    )
    out = tmp_path / "verify.json"
    run = cli("verify", str(root), "--json", str(out), "-j", "1")
    report = json.loads(out.read_text())
    assert run.returncode == 1 and {f["severity"] for f in report["findings"]} == {"error", "warning"}
    assert violations(report, schema("verify-report.schema.json")) == []


def test_the_checker_finds_undocumented_missing_and_mistyped_fields(reports: list[dict[str, Any]]) -> None:
    judge_schema = schema("judge-report.schema.json")
    report = json.loads(json.dumps(reports[0]))
    report["cases"][0]["debug"] = 1
    del report["compile"]["log"]
    report["score"] = "5"
    report["cases"][0]["score_file"] = ["score.txt"]
    assert set(violations(report, judge_schema)) == {
        "$.cases[0]: undocumented field debug",
        "$.cases[0].score_file: 1 items",
        "$.compile: missing log",
        "$.score: str is not number",
    }
