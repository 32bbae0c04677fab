"""bt's builds kept between runs (``tests/bt_builds.py``) reach the next run's work folder as bt would have left them
there: every build folder, its links as links, and each ``meta_.yaml`` naming the new folder; never bt's runs, and
nothing from a run that failed."""

from __future__ import annotations

from pathlib import Path

import pytest
from bt_builds import kept_bt_builds

PINS = ("bapctools==0-test",)


def _built(work: Path) -> None:
    """A work folder as bt leaves it: a build whose meta_.yaml names it, a link to its source, and a run's output."""
    build = work / "submissions" / "accepted" / "ref.cpp"
    build.mkdir(parents=True)
    (build / "meta_.yaml").write_text(f"hash: abc\ncommand:\n  - g++\n  - -o\n  - {build / 'run'}\n")
    (build / "run").write_bytes(b"\x7fELF")
    (build / "ref.cpp").symlink_to("/nowhere/ref.cpp")
    (work / "runs" / "accepted").mkdir(parents=True)
    (work / "runs" / "accepted" / "out").write_text("1\n")


def test_builds_reach_the_next_work_folder_naming_it(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TILEJUDGE_TEST_CACHE", str(tmp_path / "cache"))
    first, second = tmp_path / "one" / "hdoj3600", tmp_path / "two" / "hdoj3600"
    with kept_bt_builds(PINS, "hdoj3600", first):
        _built(first)
    with kept_bt_builds(PINS, "hdoj3600", second):
        build = second / "submissions" / "accepted" / "ref.cpp"
        assert (build / "meta_.yaml").read_text() == f"hash: abc\ncommand:\n  - g++\n  - -o\n  - {build / 'run'}\n"
        assert (build / "run").read_bytes() == b"\x7fELF"
        assert (build / "ref.cpp").is_symlink() and str((build / "ref.cpp").readlink()) == "/nowhere/ref.cpp"
        assert not (second / "runs").exists()


def test_a_failed_run_keeps_nothing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TILEJUDGE_TEST_CACHE", str(tmp_path / "cache"))
    first, second = tmp_path / "one" / "hdoj3600", tmp_path / "two" / "hdoj3600"
    with pytest.raises(AssertionError), kept_bt_builds(PINS, "hdoj3600", first):
        _built(first)
        raise AssertionError("bt run failed")
    with kept_bt_builds(PINS, "hdoj3600", second):
        assert not second.exists()
