"""The one cache rule (``judge.filecache``): remembered values and file digests are used while every file they came
from keeps its signature, never from a folder someone else could write; a remembered package is the package as it is
now."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from conftest import copy_problem, write_files

from judge import filecache
from judge.problem.formats import load


@pytest.fixture(autouse=True)
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "cache"
    monkeypatch.setenv("TILEJUDGE_CACHE", str(folder))
    return folder


def test_a_value_is_recalled_until_a_file_it_came_from_changes(tmp_path: Path) -> None:
    source = tmp_path / "source.txt"
    source.write_text("one")
    filecache.remember("unit", "k", ["ctx"], {"value": 1}, filecache.signatures([str(source)]))
    assert filecache.recall("unit", "k", ["ctx"]) == {"value": 1}
    assert filecache.recall("unit", "k", ["other code"]) is None  # remembered by other code: not trusted
    assert filecache.recall("unit", "other key", ["ctx"]) is None
    source.write_text("two, longer")
    assert filecache.recall("unit", "k", ["ctx"]) is None
    filecache.remember("unit", "k", ["ctx"], "absent", filecache.signatures([str(tmp_path / "nothing")]))
    assert filecache.recall("unit", "k", ["ctx"]) == "absent"
    (tmp_path / "nothing").write_text("")  # a file that appears where none was also changes the result
    assert filecache.recall("unit", "k", ["ctx"]) is None


def test_a_folder_others_can_write_is_neither_read_nor_written(cache: Path) -> None:
    filecache.remember("unit", "k", [], 42, {})
    assert filecache.recall("unit", "k", []) == 42
    folder = cache / "remembered"
    folder.chmod(0o777)  # anyone could have put a pickle there: unpickling it would run their code
    assert filecache.recall("unit", "k", []) is None
    filecache.remember("unit", "k2", [], 43, {})
    assert len(list(folder.iterdir())) == 1  # only the first entry
    folder.chmod(0o700)
    assert filecache.recall("unit", "k", []) == 42


def test_a_torn_entry_is_a_miss(cache: Path) -> None:
    filecache.remember("unit", "k", [], 42, {})
    (entry,) = (cache / "remembered").iterdir()
    entry.write_bytes(entry.read_bytes()[:10])
    assert filecache.recall("unit", "k", []) is None


def test_a_digest_is_hashed_again_only_when_its_files_signature_changes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The digests follow the same rule as remembered values: a file replaced by another of the same size and times (a
    new inode, as ``cp`` over a rename or ``git checkout`` makes it) is hashed again, an untouched one never."""
    case = tmp_path / "1.in"
    case.write_text("first\n")
    hashed: list[str] = []
    real = filecache.sha256_file
    monkeypatch.setattr(filecache, "sha256_file", lambda path: hashed.append(os.fspath(path)) or real(path))
    digests = filecache.FileDigests("cases/a")
    first = digests.sha256(case)
    digests.save({"generator.py": "abc"})
    again = filecache.FileDigests("cases/a")
    assert again.sha256(case) == first and again.baseline == {"generator.py": "abc"} and len(hashed) == 1

    info = case.stat()
    replacement = tmp_path / "replacement"
    replacement.write_text("other\n")  # same size
    os.utime(replacement, ns=(info.st_atime_ns, info.st_mtime_ns))
    replacement.rename(case)
    assert case.stat().st_size == info.st_size and case.stat().st_mtime_ns == info.st_mtime_ns
    assert again.sha256(case) == real(case) != first and len(hashed) == 2
    assert again.sha256(tmp_path / "absent") is None


def test_an_unchanged_digest_record_is_not_written_again(tmp_path: Path) -> None:
    """Each command that looks at test data saves its digests; when nothing changed the file stays as it was (no
    write), and a change is still written."""
    case = tmp_path / "1.in"
    case.write_text("data\n")
    digests = filecache.FileDigests("cases/a")
    digests.sha256(case)
    digests.save({"ref.cpp": "1"})
    record = Path(digests.path)
    before = record.stat()
    again = filecache.FileDigests("cases/a")
    again.sha256(case)
    again.save({"ref.cpp": "1"})
    assert (record.stat().st_ino, record.stat().st_mtime_ns) == (before.st_ino, before.st_mtime_ns)
    again.save({"ref.cpp": "2"})
    assert record.stat().st_ino != before.st_ino
    assert filecache.FileDigests("cases/a").baseline == {"ref.cpp": "2"}


def test_digests_are_kept_per_folder_and_never_read_from_a_folder_others_can_write(cache: Path, tmp_path: Path) -> None:
    case = tmp_path / "1.in"
    case.write_text("data\n")
    digests = filecache.FileDigests("cases/a")
    digests.sha256(case)
    digests.save({"ref.cpp": "1"})
    assert filecache.FileDigests("cases/b").baseline == {}  # another cases folder starts afresh
    (cache / "testdata").chmod(0o777)  # a forged digest there would hide an edited case
    assert filecache.FileDigests("cases/a").baseline == {} and filecache.FileDigests("cases/a").files == {}
    (cache / "testdata").chmod(0o700)
    assert filecache.FileDigests("cases/a").baseline == {"ref.cpp": "1"}


def test_a_remembered_native_package_follows_its_files(tmp_path: Path) -> None:
    root = copy_problem("aplusb", tmp_path)
    first = load(root)
    assert load(root) == first
    (root / "data" / "sample.in").write_text("1 2\n")  # a case's input: the case origin's file changed
    spec = root / "problem.yaml"
    spec.write_text(spec.read_text().replace("time: 0.5", "time: 0.75"))
    assert load(root).limits.time == 0.75


def test_another_language_file_named_by_the_environment_is_not_answered_from_memory(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The remembered package was read with the language files of its time; a TILEJUDGE_LANGUAGES naming another file
    (whose factors the package's limits hold) means reading it again."""
    from judge.problem.formats import native

    root = copy_problem("aplusb", tmp_path)
    reads: list[Path] = []
    real = native.load_problem
    monkeypatch.setattr(native, "load_problem", lambda where, shown=None: reads.append(where) or real(where, shown))
    load(root)
    load(root)
    assert len(reads) == 1
    languages = write_files(
        tmp_path / "conf", {"languages.yaml": "lua:\n  run: [lua, '{main}']\n  extensions: [.lua]\n"}
    )
    monkeypatch.setenv("TILEJUDGE_LANGUAGES", str(languages / "languages.yaml"))
    # the process-wide registry reads the files once: what it reads under this file must not outlive the test, since
    # judge commands run in this process later (cli_in_process) would see the test's lua
    from judge.lang.registry import LANGUAGES

    monkeypatch.setattr(LANGUAGES, "_entries", None)
    load(root)
    assert len(reads) == 2


def test_a_remembered_kattis_package_sees_a_new_test_file(tmp_path: Path) -> None:
    """A Kattis package's data/ is the package itself, not generated cases: a file added there is a new case."""
    root = write_files(
        tmp_path / "pkg",
        {
            "problem.yaml": "problem_format_version: 2025-09\nname: sums\n",
            "data/sample/1.in": "1 2\n",
            "data/sample/1.ans": "3\n",
            "data/secret/1.in": "20 22\n",
            "data/secret/1.ans": "42\n",
        },
    )
    assert len(load(root).cases) == 2
    write_files(root, {"data/secret/2.in": "1 1\n", "data/secret/2.ans": "2\n"})
    assert len(load(root).cases) == 3


def test_list_rows_and_packages_share_one_idea_of_what_a_package_was_read_from(tmp_path: Path) -> None:
    root = copy_problem("aplusb", tmp_path)
    from judge.problem.formats import read_from

    deps = read_from(load(root))
    assert str(root / "problem.yaml") in deps and str(root / "solution.py") in deps
    assert not any(path.startswith(str(tmp_path / "cases")) for path in deps)  # generated cases are not the package
    assert os.path.join(str(root), "languages.yaml") in deps  # absent, but its appearance would change the languages


def test_a_tool_version_is_probed_again_once_the_tool_changes(tmp_path: Path) -> None:
    """``languages`` remembers versions (JVM probes take a second each); an upgraded tool is a new file."""
    from judge.lang.language import Language
    from judge.lang.probe import version

    tool = tmp_path / "tool"
    tool.write_text("#!/bin/sh\necho 'tool 1.0'\n")
    tool.chmod(0o755)
    lang = Language(name="toy", run=(str(tool),), version=(str(tool), "--version"))
    assert version(lang) == "tool 1.0"
    tool.write_text("#!/bin/sh\necho 'tool 2.0'\nexit 0\n")
    assert version(lang) == "tool 2.0"
    tool.write_text("#!/bin/sh\nexit 1\n")  # a probe that gives nothing is not remembered in place of the last answer
    assert version(lang) == ""


def test_a_language_registered_by_the_process_is_seen_by_the_next_load(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """register() adds a language no file names: a package loaded after it must carry its time factor."""
    from judge.lang import LANGUAGES
    from judge.lang.language import Language
    from judge.lang.registry import register

    root = copy_problem("aplusb", tmp_path)
    assert load(root).limits.factor("toylang") == 1.0  # remembered without it
    monkeypatch.setattr(LANGUAGES, "changed_here", LANGUAGES.changed_here)
    register(Language(name="toylang", run=("toy", "{main}"), extensions=(".toy",), time_factor=7))
    try:
        assert load(root).limits.factor("toylang") == 7
    finally:
        del LANGUAGES["toylang"]
