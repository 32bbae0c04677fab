"""Files a checker attaches to a case's result: what the judge keeps, and how the reports show and save them.

A Kattis checker writes them into ``FEEDBACK_DIR/attachments/``. The judge
keeps at most a few regular files of bounded size under cleaned names, and
the reports must never let an attached SVG run as part of the page: it is
shown through ``<img src="data:...">`` only. The end-to-end path (a real
checker, ``judge --json``) is pinned by ``test_tangram_checker.py``.
"""

from __future__ import annotations

import base64
import json
import os
import re
from pathlib import Path
from typing import Any

import pytest

from judge.check.attachments import MAX_BYTES, MAX_FILES, Attachment, clean_name, collect
from judge.check.programs import scored
from judge.core import CaseResult, JudgeReport
from judge.grade import report_matrix
from judge.grade.feedback import feedback, files_folder, write_feedback
from judge.grade.report_html import to_html
from judge.grade.reports import Grading, Row
from judge.grade.store import Entry, Key
from judge.verdict import Verdict

HOSTILE_SVG = b'<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script><rect width="1" height="1"/></svg>'


def feedback_dir(tmp_path: Path, files: dict[str, bytes]) -> Path:
    folder = tmp_path / "feedback"
    (folder / "attachments").mkdir(parents=True)
    for name, data in files.items():
        (folder / "attachments" / name).write_bytes(data)
    return folder


def test_collect_keeps_regular_files_in_name_order_with_their_media_types(tmp_path: Path) -> None:
    folder = feedback_dir(tmp_path, {"b.svg": b"<svg/>", "a.txt": b"log", "c.bin": b"\x00"})
    attached, note = collect(folder)
    assert [(a.name, a.media_type, a.data) for a in attached] == [
        ("a.txt", "text/plain", b"log"),
        ("b.svg", "image/svg+xml", b"<svg/>"),
        ("c.bin", "application/octet-stream", b"\x00"),
    ]
    assert note == ""


def test_collect_bounds_count_and_size_and_says_what_it_left_out(tmp_path: Path) -> None:
    files = {f"{i}.txt": b"x" for i in range(MAX_FILES + 2)} | {"0-big.svg": b"x" * (MAX_BYTES + 1)}
    attached, note = collect(feedback_dir(tmp_path, files))
    assert len(attached) == MAX_FILES and all(len(a.data) == 1 for a in attached)
    assert "0-big.svg" in note and f"{MAX_FILES}.txt" in note and f"{MAX_FILES + 1}.txt" in note


def test_collect_passes_over_links_folders_and_fifos(tmp_path: Path) -> None:
    secret = tmp_path / "secret.ans"
    secret.write_text("the expected answer")
    folder = feedback_dir(tmp_path, {"ok.txt": b"fine"})
    (folder / "attachments" / "link.txt").symlink_to(secret)
    (folder / "attachments" / "sub").mkdir()
    os.mkfifo(folder / "attachments" / "pipe.txt")
    attached, _ = collect(folder)
    assert [a.name for a in attached] == ["ok.txt"]


def test_no_attachment_folder_means_no_attachments(tmp_path: Path) -> None:
    assert collect(tmp_path) == ((), "")


def test_names_are_cleaned_for_paths_urls_and_html() -> None:
    assert clean_name("../../etc/pass wd'\"<x>.svg") == "_.._etc_pass_wd___x_.svg"
    assert clean_name("...") == "attachment"
    assert len(clean_name("a" * 300)) == 64


def test_a_kattis_verdict_carries_its_attachments_and_the_note(tmp_path: Path) -> None:
    folder = feedback_dir(tmp_path, {"pic.svg": b"<svg/>", "huge.txt": b"x" * (MAX_BYTES + 1)})
    outcome = scored(False, folder, "piece P sticks out")
    assert outcome.verdict is Verdict.WA and [a.name for a in outcome.attachments] == ["pic.svg"]
    assert outcome.message.startswith("piece P sticks out (attachments left out") and "huge.txt" in outcome.message


def test_case_json_holds_each_attachment_as_base64() -> None:
    case = CaseResult("c", "g", Verdict.WA, attachments=(Attachment("f.svg", "image/svg+xml", HOSTILE_SVG),))
    item = case.to_json()["attachments"][0]
    assert item == {
        "name": "f.svg",
        "media_type": "image/svg+xml",
        "size": len(HOSTILE_SVG),
        "base64": base64.b64encode(HOSTILE_SVG).decode(),
    }


def grading(attachments: list[dict[str, object]]) -> Grading:
    case = CaseResult("c1", "g", Verdict.WA, message="piece L1 placed twice").to_json() | {"attachments": attachments}
    report = JudgeReport("p", "s.py", "python3", True, "", verdict=Verdict.WA, max_score=1).to_json() | {
        "cases": [case]
    }
    row = Row(Entry(Key("student one", "a", "b", "c"), "s.py"), report, "w", {})
    return Grading([row], {"problem": "p"}, [{"name": "g", "points": 1, "cases": ["c1"]}], [], {})


def stored(name: str, data: bytes, media_type: str = "image/svg+xml") -> dict[str, object]:
    return {"name": name, "media_type": media_type, "size": len(data), "base64": base64.b64encode(data).decode()}


def page_data(page: str) -> dict[str, Any]:
    """The JSON blob report.html draws its matrix and details from."""
    blob = re.search(r"<script type='application/json' id='grades-data'>(.*?)</script>", page, re.S)
    assert blob is not None
    return json.loads(blob[1])


def failed_attachments(page: str) -> list[list[Any]]:
    """[name, media type, data URL, is a picture] of each file attached to the one student's failed case."""
    (row,) = page_data(page)["rows"]
    (failed,) = row[8]["f"]
    return failed[5]


def test_html_report_shows_an_svg_as_an_image_never_as_markup() -> None:
    page = to_html(grading([stored("figure-1.svg", HOSTILE_SVG), stored("log.txt", b"a log", "text/plain")]))
    shown = failed_attachments(page)
    assert [(name, kind, picture) for name, kind, _, picture in shown] == [
        ("figure-1.svg", "image/svg+xml", True),
        ("log.txt", "text/plain", False),
    ]
    prefix = "data:image/svg+xml;base64,"
    assert shown[0][2].startswith(prefix) and base64.b64decode(shown[0][2][len(prefix) :]) == HOSTILE_SVG
    assert shown[1][2] == "data:text/plain;base64," + base64.b64encode(b"a log").decode()
    assert "alert(1)" not in page and "<script>alert" not in page
    assert '\'<img class="att" alt="\'+e(a[0])' in page  # drawn as an <img>, every string escaped by the script


def test_html_report_trusts_neither_the_stored_name_nor_type_nor_base64() -> None:
    page = to_html(
        grading([stored("x'><script>.svg", b"<svg/>", "text/html"), {"name": "bad.svg", "base64": "!!notbase64"}])
    )
    assert [a[:2] for a in failed_attachments(page)] == [["x___script_.svg", "image/svg+xml"]]
    assert "<script>.svg" not in page and "bad.svg" not in page and "text/html" not in page


def test_html_report_embeds_attachments_up_to_a_page_budget(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(report_matrix, "MAX_ATTACHED_BYTES", len(HOSTILE_SVG) + 3)
    page = to_html(grading([stored("one.svg", HOSTILE_SVG), stored("two.svg", HOSTILE_SVG)]))
    first, second = failed_attachments(page)
    assert first[2].startswith("data:image/svg+xml;base64,") and second[:3] == ["two.svg", "image/svg+xml", ""]


def test_feedback_saves_the_first_failure_s_attachments_and_links_them(tmp_path: Path) -> None:
    graded = grading([stored("figure-1.svg", HOSTILE_SVG)])
    folder = write_feedback(graded, tmp_path / "feedback")
    saved = folder / files_folder("student one") / "figure-1.svg"
    assert saved.read_bytes() == HOSTILE_SVG
    assert f"![figure-1.svg]({files_folder('student one')}/figure-1.svg)" in feedback(graded.rows[0], "p")
    write_feedback(grading([]), tmp_path / "feedback")
    assert not saved.parent.exists() and len(list(folder.glob("*.md"))) == 1


def test_html_report_shows_a_failed_samples_output_as_text() -> None:
    printed = {"text": "<img src=x onerror=alert(1)></script>\n", "size": 39, "cut": False}
    page = to_html(_with_output(printed))
    (row,) = page_data(page)["rows"]
    (failed,) = row[8]["f"]
    assert failed[6] == printed["text"]  # drawn by the page's script through e(), its escape
    assert "<img src=x" not in page  # the blob cannot end its script element nor hold markup
    (secret,) = page_data(to_html(grading([])))["rows"][0][8]["f"]
    assert len(secret) == 6  # a case with no output (every secret one) carries none


def _with_output(output: dict[str, object]) -> Grading:
    made = grading([])
    made.rows[0].report["cases"][0]["output"] = output
    return made
