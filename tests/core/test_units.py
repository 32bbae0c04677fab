"""Unit tests of the pure pieces: safe text, comparators, classification, aggregation, spec parsing, rendering.

None of these starts a process, so the whole file runs in well under a second
and pins down rules the end-to-end tests only reach through whole judgings.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from judge.check import compare_exact, compare_floats, compare_kattis_default, compare_lines, compare_tokens
from judge.cli.render import case_table, summary
from judge.core import CaseResult, JudgeReport, ReadersWriterLock, classify, group_results, overall_verdict
from judge.core.run_limits import Role, RunBudget
from judge.errors import SpecError
from judge.grade.report_html import to_html
from judge.grade.reports import Grading, Row, terminal_summary, to_junit
from judge.grade.store import Entry, Key
from judge.lang import LANGUAGES
from judge.model import CaseSpec, Generated, Group
from judge.problem.formats import load_problem
from judge.run import RunLimits, RunResult
from judge.text import safe_text, status_text, table
from judge.tools.kattis_rules import meets_rule
from judge.verdict import Verdict

HOSTILE = b"\x1b[2J\x1b]0;pwned\x07A\x00B\rC\x7fD\xff\xfeE\nF\tG"
RAW_CONTROLS = [chr(c) for c in range(32) if chr(c) not in "\n\t"] + ["\x7f"]


def raw_controls(text: str, allowed: str = "\n") -> list[str]:
    return [c for c in text if c in RAW_CONTROLS and c not in allowed]


# ---- safe text -----------------------------------------------------------------------------------------------


def test_safe_text_escapes_controls_and_replaces_invalid_utf8() -> None:
    text = safe_text(HOSTILE)
    assert raw_controls(text) == []
    assert "\\x1b[2J" in text and "\\x00" in text and "\\x0d" in text and "\\x7f" in text and "\\x07" in text
    assert "\ufffd" in text and "\nF\tG" in text


def test_safe_text_on_one_line_escapes_newlines_too() -> None:
    assert safe_text("a\nb\tc", one_line=True) == "a\\x0ab\tc"
    assert safe_text("plain ünïcode ✓") == "plain ünïcode ✓"


def test_status_text() -> None:
    assert status_text(3, None) == "exit code 3"
    assert status_text(None, "SIGSEGV") == "killed by SIGSEGV"
    assert status_text(None, "SIGKILL", "cpu") == "cpu"


def test_table_cells_are_safe() -> None:
    out = table([["s\x1b[31m", "x\ny"]], ["id", "v"])
    assert raw_controls(out) == [] and "s\\x1b[31m" in out and "x\\x0ay" in out


# ---- rendering untrusted messages ----------------------------------------------------------------------------


def hostile_report() -> JudgeReport:
    message = HOSTILE.decode("utf-8", "replace")
    case = CaseResult("c\x1b1", "g", Verdict.WA, 0.1, 0.2, 100, 0, None, message, 0.0)
    return JudgeReport("p", "s.c", "c", True, "", cases=[case], verdict=Verdict.WA, max_score=1)


def test_case_table_and_summary_have_no_raw_control_byte() -> None:
    report = hostile_report()
    assert raw_controls(case_table(report)) == []
    assert raw_controls(summary(report)) == []
    ce = JudgeReport("p", "s.c", "c", False, "error: \x1b[1mbad\x1b[0m\r\x00", verdict=Verdict.CE)
    assert raw_controls(summary(ce)) == []


def rows(problem: str = "p") -> Grading:
    report = hostile_report().to_json()
    ce = {**JudgeReport("p", "t.c", "c", False, "log\x1b[0m\x00\x0c", verdict=Verdict.CE).to_json(), "cases": []}
    data = [
        Row(Entry(Key("stud\x1bent", "a", "b", "c"), "s.c"), report, "w", {"name": "N\x1b[2Jame"}),
        Row(Entry(Key("ce\x07", "a", "b", "c"), "t.c"), ce, "w", {}),
        Row(Entry(Key("inv\x00", "a", "b", "c"), "", "two\x1b sources"), {**ce, "verdict": "INVALID"}, "w", {}),
    ]
    pair = {
        "a": "stud\x1bent",
        "b": "ce\x07",
        "score": 0.9,
        "shares": [0.9, 0.8],
        "identical": False,
        "regions": [[{"lines": [1, 2], "text": "x\x1b"}], [{"lines": [3, 4], "text": "<script>"}]],
    }
    return Grading(
        data,
        {"problem": problem},
        [{"name": "g\x1b", "points": 1, "cases": ["c\x1b1"]}],
        [("e\x1bntry", "why\x00")],
        {"pairs": [pair], "tool": "t"},
    )


def test_junit_xml_stays_well_formed_whatever_the_bytes() -> None:
    xml = to_junit(rows("/x/p\x1b"))
    root = ET.fromstring(xml)
    assert [s.get("name") for s in root] == ["stud\\x1bent", "ce\\x07", "inv\\x00"]
    failure = root[0].find("testcase/failure")
    assert failure is not None and failure.get("type") == "WA" and "\\x1b[2J" in (failure.text or "")


def test_html_and_terminal_summary_escape_controls() -> None:
    page = to_html(rows())
    assert raw_controls(page, allowed="\n") == [] and "stud\\x1bent" in page
    assert (
        "<script>" not in page.split("<script>(function")[0]
    )  # the matched source text is escaped, the page's own script is last
    assert raw_controls(terminal_summary(rows())) == []


# ---- comparators ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("output", "verdict"),
    [(b"1 2\n", Verdict.AC), (b"1 2  \n\n", Verdict.AC), (b"1\n2\n", Verdict.PE), (b"1 3\n", Verdict.WA)],
)
def test_compare_lines(output: bytes, verdict: Verdict) -> None:
    assert compare_lines(output, b"1 2\n").verdict is verdict


def test_compare_exact_names_the_first_difference() -> None:
    outcome = compare_exact(b"ab\ncX", b"ab\ncd")
    assert outcome.verdict is Verdict.WA and outcome.message.startswith("byte 5 (line 2, column 2)")


def test_compare_tokens_case_and_length() -> None:
    assert compare_tokens(b"YES", b"yes", case_sensitive=False).verdict is Verdict.AC
    assert compare_tokens(b"YES", b"yes").verdict is Verdict.WA
    assert "output ends after 1 tokens" in compare_tokens(b"a", b"a b").message


@pytest.mark.parametrize(
    ("output", "verdict"), [(b"1.0000001", Verdict.AC), (b"1.1", Verdict.WA), (b"nan", Verdict.WA), (b"x", Verdict.WA)]
)
def test_compare_floats(output: bytes, verdict: Verdict) -> None:
    assert compare_floats(output, b"1.0", abs_tol=1e-6, rel_tol=0).verdict is verdict


def test_kattis_default_flags() -> None:
    assert compare_kattis_default(b"YES", b"yes", []).verdict is Verdict.AC
    assert compare_kattis_default(b"YES", b"yes", ["case_sensitive"]).verdict is Verdict.WA
    assert compare_kattis_default(b"1.05", b"1.0", ["float_tolerance", "0.1"]).verdict is Verdict.AC
    assert compare_kattis_default(b"1", b"1", ["bogus"]).verdict is Verdict.JE


def test_a_message_quoting_output_is_safe() -> None:
    assert raw_controls(compare_lines(b"\x1b[2J\r\n", b"1\n").message) == []


# ---- classification and aggregation --------------------------------------------------------------------------

LIMITS = RunLimits(cpu=1.0, wall=2.0, memory_mib=64, output_bytes=1000)


def result(**kw: object) -> RunResult:
    """A run that ended cleanly, with what the case changes."""
    fields: dict[str, object] = dict(exit_code=0, signal=None, cpu=0.1, wall=0.1, memory_kb=1000)
    return RunResult(**{**fields, **kw})  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("kw", "stderr", "verdict"),
    [
        ({"killed": "cpu"}, b"", Verdict.TLE),
        ({"killed": "wall"}, b"", Verdict.TLE),
        ({"exit_code": None, "signal": 9, "killed": "output", "output_over": "stdout"}, b"", Verdict.OLE),
        ({"output_over": "stderr"}, b"", Verdict.OLE),
        ({"exit_code": None, "signal": 25}, b"", Verdict.RE),
        ({"exit_code": None, "signal": 24}, b"", Verdict.RE),
        ({"exit_code": None, "signal": 9, "cgroup": 1}, b"", Verdict.RE),
        ({"memory_kb": 70 * 1024}, b"", Verdict.MLE),
        ({"exit_code": None, "signal": 9, "memory_kb": 64 * 1024, "oom_killed": True, "cgroup": 1}, b"", Verdict.MLE),
        ({"oom_killed": True, "cgroup": 2}, b"", Verdict.MLE),
        ({"exit_code": None, "signal": 9, "killed": "memory"}, b"", Verdict.MLE),
        ({"memory_kb": 70 * 1024, "cgroup": 1}, b"", None),
        ({"exit_code": 1}, b"std::bad_alloc", Verdict.MLE),
        ({"exit_code": None, "signal": 11}, b"", Verdict.RE),
        ({}, b"", None),
    ],
    ids=[
        "cpu",
        "wall",
        "output-stopped",
        "output-counted-at-the-end",
        "own-sigxfsz",
        "own-sigxcpu",
        "own-sigkill",
        "peak-without-group",
        "oom-v1",
        "oom-in-a-child-v2",
        "tick",
        "group-peak-is-not-oom",
        "bad_alloc",
        "segv",
        "clean",
    ],
)
def test_classify(kw: dict[str, object], stderr: bytes, verdict: Verdict | None) -> None:
    """With a group, only the kernel's OOM record makes MLE (a peak at the limit may be reclaimable page cache);
    without one, the peak over the limit or the launcher's tick does. OLE only from the launcher's count of the
    output; a resource signal the judge did not cause (SIGXFSZ, SIGXCPU, SIGKILL) is RE naming it."""
    got = classify(result(**kw), RunBudget(Role.SUBMISSION, LIMITS), stderr, LANGUAGES["cpp"])
    assert (got[0] if got else None) is verdict
    if verdict is Verdict.RE and kw.get("signal") in (24, 25, 9):
        assert got is not None and ("SIGXFSZ" in got[1] or "SIGXCPU" in got[1] or "SIGKILL" in got[1]), got


def cases(group: str, *verdicts: Verdict) -> tuple[Group, list[CaseResult]]:
    specs = tuple(CaseSpec(f"c{i}", group, Generated(())) for i in range(len(verdicts)))
    results = [CaseResult(s.name, group, v, score=1.0 if v is Verdict.AC else 0.0) for s, v in zip(specs, verdicts)]
    return Group(group, 10, specs), results


def test_groups_min_and_sum() -> None:
    group, results = cases("g", Verdict.AC, Verdict.WA)
    assert group_results([group], results)[0].earned == 0
    summed = Group("g", 10, group.cases, aggregation="sum")
    assert group_results([summed], results)[0].earned == 5
    assert group_results([group], results[:1])[0].earned == 0  # a case never judged earns nothing


def test_overall_verdict_is_the_first_failure() -> None:
    _, results = cases("g", Verdict.AC, Verdict.TLE, Verdict.WA)
    assert overall_verdict(results) is Verdict.TLE and overall_verdict(results[:1]) is Verdict.AC


def test_kattis_rules() -> None:
    assert meets_rule([Verdict.AC, Verdict.MLE], ({"AC", "RTE"}, {"RTE"}))
    assert not meets_rule([Verdict.AC], ({"AC", "WA"}, {"WA"}))
    assert meets_rule([Verdict.PE], ({"AC", "WA"}, {"WA"}))


def test_readers_writer_lock_allows_many_readers() -> None:
    lock = ReadersWriterLock()
    with lock.shared(), lock.shared():
        pass
    with lock.exclusive():
        pass


# ---- spec parsing --------------------------------------------------------------------------------------------

SPEC = """title: T
limits: {time: 1, memory: 64, time_factor: {python3: 2}}
checker: {type: float, abs_tol: 0.001}
solutions: [sol.py]
generator: gen.py
groups:
  - name: g
    points: 5
    aggregation: sum
    cases:
      - {name: a, generate: "--seed 1"}
"""


def write_spec(tmp_path: Path, text: str) -> Path:
    (tmp_path / "sol.py").write_text("")
    (tmp_path / "gen.py").write_text("")
    (tmp_path / "problem.yaml").write_text(text)
    return tmp_path


def test_spec_parses_into_the_model(tmp_path: Path) -> None:
    problem = load_problem(write_spec(tmp_path, SPEC))
    assert problem.limits.time_for("python3") == 2 and problem.limits.wall_for("c") == 2
    assert problem.checker.type == "float" and problem.checker.options == {"abs_tol": 0.001, "rel_tol": 0.0}
    assert problem.cases[0].generate == ("--seed", "1") and problem.cases[0].source == "generate: --seed 1"
    assert problem.groups[0].aggregation == "sum" and problem.max_score == 5


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (
            ("abs_tol: 0.001", "case_sensitive: true"),
            ":3: checker.case_sensitive does not apply to checker type 'float'",
        ),
        (("python3: 2", "cobol: 2"), ":2: limits.time_factor: unknown key 'cobol'"),
        (("type: float", "type: kattis"), ":3: checker.abs_tol does not apply"),
        (("aggregation: sum", "aggregation: max"), ":9: group g: aggregation must be min or sum"),
    ],
)
def test_spec_errors_name_the_line(tmp_path: Path, change: tuple[str, str], message: str) -> None:
    with pytest.raises(SpecError, match=message.replace("(", r"\(")):
        load_problem(write_spec(tmp_path, SPEC.replace(*change)))
