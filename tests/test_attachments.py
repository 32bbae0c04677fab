"""Files a checker attaches to a case's result: what the judge keeps, and how the reports show and save them.

A Kattis checker writes them into ``FEEDBACK_DIR/attachments/``. The judge
keeps at most a few regular files of bounded size under cleaned names, and
the reports must never let an attached SVG run as part of the page: it is
shown through ``<img src="data:...">`` only. The end-to-end path (a real
checker, ``judge --json``) is pinned by ``test_tangram_checker.py``.
"""
from __future__ import annotations

import base64
import os
import re
from pathlib import Path

from judge.check.attachments import MAX_BYTES, MAX_FILES, Attachment, clean_name, collect
from judge.check.programs import scored
from judge.core import CaseResult, JudgeReport
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
        ("a.txt", "text/plain", b"log"), ("b.svg", "image/svg+xml", b"<svg/>"), ("c.bin", "application/octet-stream", b"\x00")]
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
    assert item == {"name": "f.svg", "media_type": "image/svg+xml", "size": len(HOSTILE_SVG),
                    "base64": base64.b64encode(HOSTILE_SVG).decode()}


def grading(attachments: list[dict[str, object]]) -> Grading:
    case = CaseResult("c1", "g", Verdict.WA, message="piece L1 placed twice").to_json() | {"attachments": attachments}
    report = JudgeReport("p", "s.py", "python3", True, "", verdict=Verdict.WA, max_score=1).to_json() | {"cases": [case]}
    row = Row(Entry(Key("student one", "a", "b", "c"), "s.py"), report, "w", {})
    return Grading([row], {"problem": "p"}, [{"name": "g", "points": 1, "cases": ["c1"]}], [], {})


def stored(name: str, data: bytes, media_type: str = "image/svg+xml") -> dict[str, object]:
    return {"name": name, "media_type": media_type, "size": len(data), "base64": base64.b64encode(data).decode()}


def test_html_report_shows_an_svg_as_an_image_never_as_markup() -> None:
    page = to_html(grading([stored("figure-1.svg", HOSTILE_SVG), stored("log.txt", b"a log", "text/plain")]))
    images = re.findall(r"<img class='att' alt='figure-1.svg' title='figure-1.svg' src='data:image/svg\+xml;base64,([A-Za-z0-9+/=]+)'>", page)
    assert [base64.b64decode(i) for i in images] == [HOSTILE_SVG]
    assert "alert(1)" not in page and "<script>alert" not in page
    assert "<a download='log.txt' href='data:text/plain;base64," in page


def test_html_report_trusts_neither_the_stored_name_nor_type_nor_base64() -> None:
    page = to_html(grading([stored("x'><script>.svg", b"<svg/>", "text/html"), {"name": "bad.svg", "base64": "!!notbase64"}]))
    assert "<script>.svg" not in page and "x___script_.svg" in page and "data:image/svg+xml" in page
    assert "bad.svg" not in page and "text/html" not in page


def test_feedback_saves_the_first_failure_s_attachments_and_links_them(tmp_path: Path) -> None:
    graded = grading([stored("figure-1.svg", HOSTILE_SVG)])
    folder = write_feedback(graded, tmp_path / "feedback")
    saved = folder / files_folder("student one") / "figure-1.svg"
    assert saved.read_bytes() == HOSTILE_SVG
    assert f"![figure-1.svg]({files_folder('student one')}/figure-1.svg)" in feedback(graded.rows[0], "p")
    write_feedback(grading([]), tmp_path / "feedback")
    assert not saved.parent.exists() and len(list(folder.glob("*.md"))) == 1
