"""Parts of the pages without a browser: statements (Markdown with raw HTML escaped, formulas shown as their TeX, a
LaTeX statement as its text; every bundled statement renders), a checker's attachments as a page shows them, which
cases' output a student sees, and a failed sample's output lined up with its answer."""

from __future__ import annotations

import base64
from pathlib import Path
from types import SimpleNamespace

import pytest
from conftest import REPO_ROOT

pytest.importorskip("markdown_it", reason="markdown-it-py is not installed (PyPI package markdown-it-py, [web] extra)")

from judge.model import CaseSpec, FromFile  # noqa: E402
from judge.serve.feedback import case_view, sample_cases  # noqa: E402
from judge.serve.pages_detail import attachments_view  # noqa: E402
from judge.serve.sample_diff import line_diff  # noqa: E402
from judge.serve.statement import statement_html, to_html  # noqa: E402

HOSTILE_SVG = b'<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script><rect width="1" height="1"/></svg>'


def test_raw_html_in_a_statement_is_text() -> None:
    shown = to_html('Hello <script>alert(1)</script> <img src=x onerror="alert(2)">\n\n<div>block</div>\n')
    assert "<script>" not in shown and "<img" not in shown and "<div>" not in shown
    assert "&lt;script&gt;" in shown and "&lt;div&gt;" in shown


def test_a_link_cannot_run_script() -> None:
    shown = to_html("[click](javascript:alert(1)) and [ok](https://example.org/)")
    assert 'href="javascript' not in shown
    assert 'href="https://example.org/"' in shown


def test_formulas_are_their_tex_untouched_by_emphasis() -> None:
    shown = to_html("Let $a_1 * b_2 + c_3 * d$ be small, and $$\\sum_{i=1}^{n} x_i$$ the total; `$not math$`.")
    assert '<span class="tex" title="TeX">a_1 * b_2 + c_3 * d</span>' in shown
    assert '<span class="tex tex-block" title="TeX">\\sum_{i=1}^{n} x_i</span>' in shown
    assert "<em>" not in shown
    assert "<code>$not math$</code>" in shown


def test_markup_inside_a_formula_is_escaped() -> None:
    shown = to_html("$<img src=x onerror=alert(1)>$")
    assert "<img" not in shown and "&lt;img src=x onerror=alert(1)&gt;" in shown


def test_a_price_in_dollars_is_not_a_formula() -> None:
    shown = to_html("It costs $ 5 and then $ 6.")
    assert "tex" not in shown and "$ 5" in shown


def test_a_latex_statement_is_shown_readable(tmp_path: Path) -> None:
    path = tmp_path / "problem.en.tex"
    path.write_text(
        "\\problemname{Sum <b>}\n% a comment for the author\nGiven $n \\le 10^5$ numbers, \\emph{add} them.\n"
        "\\section*{Input}\n\\begin{itemize}\n  \\item one line\n\\end{itemize}\n"
        "\\illustration{0.3}{pic.png}{A picture}\n"
    )
    shown = statement_html(path)
    assert "<h1>Sum &lt;b&gt;</h1>" in shown and "<h2>Input</h2>" in shown
    assert "<em>add</em>" in shown and "<li>one line</li>" in shown
    assert '<span class="tex" title="TeX">n \\le 10^5</span>' in shown
    assert "comment" not in shown and "pic.png" not in shown
    other = tmp_path / "problem.txt"
    other.write_text("a <b> statement")
    assert statement_html(other) == '<pre class="statement-source">a &lt;b&gt; statement</pre>'
    assert "no statement" in statement_html(tmp_path / "missing.md")


@pytest.mark.parametrize("path", sorted((REPO_ROOT / "problems").glob("*/statement.md")), ids=lambda p: p.parent.name)
def test_every_bundled_statement_renders(path: Path) -> None:
    shown = statement_html(path)
    assert shown.startswith("<") and "<script" not in shown


def test_attachments_are_images_by_data_url_or_text_and_checked_again() -> None:
    case = {
        "attachments": [
            {"name": "placement.svg", "base64": base64.b64encode(HOSTILE_SVG).decode()},
            {"name": "../log.txt", "base64": base64.b64encode(b"<b>not bold</b>").decode()},
            {"name": "broken.png", "base64": "%%% not base64"},
        ]
    }
    shown = attachments_view(case)
    assert [a["name"] for a in shown] == ["placement.svg", "_log.txt"]  # the bad one dropped, the name cleaned
    picture, log = shown
    assert picture["media_type"] == "image/svg+xml" and picture["url"].startswith("data:image/svg+xml;base64,")
    assert "text" not in picture  # an image is only ever an <img> (a data: URL cannot run script there)
    assert log["text"] == "<b>not bold</b>" and "url" not in log  # text, escaped by the template


def test_a_secret_case_named_like_a_sample_shows_a_student_neither_its_words_nor_any_output() -> None:
    cases = [CaseSpec("1", group, FromFile(Path("1.in"))) for group in ("sample", "secret")]
    samples = sample_cases(SimpleNamespace(cases=cases))  # a Kattis package: data/sample/1 and data/secret/1
    assert samples == frozenset({"sample/1"})
    output = {"text": "42\n", "size": 3, "cut": False}
    sample, secret = (
        {"name": "1", "group": g, "verdict": "WA", "message": "wanted 7", "output": output}
        for g in ("sample", "secret")
    )  # a secret case's output: no judge writes one, a report may still hold it
    assert case_view(sample, 1, "cases", samples, staff=False)["output"] == output
    exchange = {**sample, "transcript": ">5\n<higher"}  # an interactive sample: its exchange is the student's to see
    assert case_view(exchange, 1, "cases", samples, staff=False)["transcript"] == ">5\n<higher"
    assert "transcript" not in case_view({**secret, "transcript": ">5"}, 2, "cases", samples, staff=False)
    assert case_view(secret, 2, "cases", samples, staff=False) == {
        "index": 2,
        "group": "secret",
        "verdict": "WA",
        "time": None,
        "memory_kb": None,
    }
    full = case_view(secret, 2, "full", samples, staff=False)
    assert full["message"] == "wanted 7" and full["output"] is None
    assert case_view(secret, 2, "full", samples, staff=True)["output"] == output


@pytest.mark.parametrize(
    ("printed", "cut", "first", "note"),
    [
        ("3\n7 \n", False, 2, "line 2 differs in spaces only"),
        ("3\n", False, 2, "the output ends before line 2"),
        ("3\n7\n9\n", False, 3, "the output goes on after the 2 expected lines"),
        ("4\n7\n", False, 1, ""),
        ("3\n7\n", False, None, "the output is the expected answer, line for line"),
        ("3\n", True, None, "the lines shown agree; only the output's first 1 lines are kept, of 9000 bytes"),
        ("3\n7", True, None, "the lines shown agree; only the output's first 2 lines are kept, of 9000 bytes"),
    ],
)
def test_a_sample_output_is_lined_up_with_its_answer(printed: str, cut: bool, first: int | None, note: str) -> None:
    diff = line_diff("3\n7\n", {"text": printed, "size": 9000 if cut else len(printed), "cut": cut})
    assert (diff.first, diff.note) == (first, note)
    marked = [(line.number, line.missing) for side in (diff.expected, diff.output) for line in side if line.differs]
    assert marked == ([] if first is None else [(first, first > 2), (first, first > printed.count("\n"))])


def test_a_problem_page_shows_a_samples_statement_files_and_a_failed_sample_the_judged_ones(tmp_path: Path) -> None:
    """BAPCtools' ``.in.statement``/``.ans.statement``: what the statement shows of a sample, which is judged with its
    ``.in``/``.ans``; beside a failed sample the judged files are shown."""
    from types import SimpleNamespace

    from judge.problem.formats import load
    from judge.serve.pages_student import samples

    sample = tmp_path / "sum" / "data" / "sample"
    sample.mkdir(parents=True)
    (tmp_path / "sum" / "problem.yaml").write_text("problem_format_version: 2025-09\nname: Sum\n")
    (sample / "1.in").write_text("1 2\n")
    (sample / "1.ans").write_text("3\n")
    (sample / "1.in.statement").write_text("one and two\n")
    (sample / "1.ans.statement").write_text("three\n")
    problem = load(tmp_path / "sum")
    (key,) = (case.key for case in problem.cases)
    service = SimpleNamespace(problems={"sum": problem}, sample_keys=lambda name: frozenset({key}))
    shown = {"key": key, "name": "1", "input": "one and two\n", "answer": "three\n"}
    assert samples(service, "sum", statement=True) == [shown]
    assert samples(service, "sum") == [{"key": key, "name": "1", "input": "1 2\n", "answer": "3\n"}]
