"""The build cache: read-only to every run, checked before it is trusted, and remembering only lasting outcomes.

Same harness and `hsum` problem as test_hostile.py. A build folder is shared
by every later judging of the same source, in every mode, so:

- a program that tries to change its own build folder (write or move its
  binary, write build.json or its source, plant a file, chmod the folder) is
  refused every time (exit 5 on c1), and a later judging of the same source
  from the same cache, in the same mode and in the other one, runs the
  original program (c2 and c3 AC, c1 refused again: nothing was replaced);
- a build changed behind the judge's back (its binary replaced by a script
  printing 666, a file planted beside it) is not trusted: the next judging
  builds again and is AC;
- a compile stopped by the compile time limit is CE, but not remembered: the
  same source under a larger compile limit is AC; a genuine compiler error is
  remembered (its sealed build says so) and stays CE.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from test_hostile import (  # noqa: F401  (fixtures are found by pytest by name)
    CASES,
    HSUM,
    HSUM_ANSWERS,
    PROGRAMS,
    Hostile,
    _expect_accepted,
    _expect_refused,
    _modes,
    build_caches,
    hostile,
    hostile_references,
)

pytestmark = pytest.mark.slow

ELF = b"\x7fELF"


def _later_modes(mode: str) -> list[str]:
    """The same mode, and the other sandbox (bwrap where it is installed), both judging from `mode`'s cache."""
    other = "rlimits" if mode == "bwrap" else "bwrap" if shutil.which("bwrap") else None
    return [mode, *([other] if other else [])]


@pytest.mark.parametrize("mode", _modes(without_cgroups=True))
def test_run_cannot_change_its_build(hostile: Hostile, mode: str) -> None:
    """Every change to the build folder is refused, and later judgings of the same source run the original."""
    first = hostile.run(HSUM, PROGRAMS / "hx_replace_build.c", mode, "hxrebuild", jobs=1)
    _expect_refused(first, "c1", 5)
    _expect_accepted(first, ["c2", "c3"])
    for later_mode in _later_modes(mode):
        later = hostile.run(HSUM, PROGRAMS / "hx_replace_build.c", later_mode, "hxrebuild", jobs=1, cache=mode)
        _expect_refused(later, "c1", 5)
        _expect_accepted(later, ["c2", "c3"])


def _builds_of(cache: Path, source: Path) -> list[Path]:
    """The cached build folders holding `source` (the cache is shared by the session's tests of one mode)."""
    data = source.read_bytes()
    return sorted(p for p in (cache / "build").glob("*/src/*") if p.is_file() and p.read_bytes() == data)


def _unique_copy(source: Path, folder: Path) -> Path:
    """`source` with a comment of this test's own, so its build is found in the shared cache by its bytes."""
    copy = folder / source.name
    copy.write_text(source.read_text() + f"\n/* {folder.name} */\n")
    return copy


@pytest.mark.parametrize("mode", _modes())
def test_changed_build_is_built_again(hostile: Hostile, tmp_path: Path, mode: str) -> None:
    """A cached binary replaced (and a file planted beside it) behind the judge's back is never run: built again, AC."""
    source = _unique_copy(PROGRAMS / "eof_reader.c", tmp_path)
    _expect_accepted(hostile.run(HSUM, source, mode, "hxeof"), CASES[HSUM])
    folders = [src.parents[1] for src in _builds_of(hostile.cache(mode), source)]
    assert len(folders) == 1, folders
    prog = folders[0] / "prog"
    assert prog.read_bytes().startswith(ELF)
    prog.unlink()
    prog.write_text("#!/bin/sh\necho 666\n")
    prog.chmod(0o755)
    (folders[0] / "planted").write_text("x")
    again = hostile.run(HSUM, source, mode, "hxeof")
    _expect_accepted(again, CASES[HSUM])
    assert prog.read_bytes().startswith(ELF) and not (folders[0] / "planted").exists()


def _hsum_copy(root: Path, compile_time: str) -> Path:
    """hsum with its answers under `root`, with another compile time limit."""
    problem = root / "problems" / "hsum"
    if not problem.exists():
        shutil.copytree(HSUM, problem)
        shutil.copytree(HSUM_ANSWERS.parent, root / "cases" / "hsum")
    spec = problem / "problem.yaml"
    spec.write_text(
        "\n".join(
            f"  compile_time: {compile_time}" if line.strip().startswith("compile_time:") else line
            for line in spec.read_text().splitlines()
        )
        + "\n"
    )
    return problem


@pytest.mark.parametrize("mode", _modes())
def test_compile_stopped_by_its_limit_is_not_remembered(hostile: Hostile, tmp_path: Path, mode: str) -> None:
    """CE under a 0.05 s compile limit (g++ needs over ten times that CPU for <iostream> alone, whatever the load;
    every standard header, as this program had, made the build that follows cost 6 s of CPU for nothing more),
    then AC from the same cache once the limit is 60 s: the timed-out compile was not remembered."""
    source = _unique_copy(PROGRAMS / "hx_sum_iostream.cpp", tmp_path)
    root = tmp_path / "tiny"
    tiny = hostile.run(_hsum_copy(root, "0.05"), source, mode, "hx_sum_iostream")
    assert tiny.verdict == "CE" and "exceeded the 0.05 s limit" in tiny.report["compile"]["log"], tiny.describe()
    assert not _builds_of(hostile.cache(mode), source), "the timed-out compile was cached"
    normal = hostile.run(_hsum_copy(root, "60"), source, mode, "hx_sum_iostream")
    _expect_accepted(normal, CASES[HSUM])


@pytest.mark.parametrize("mode", _modes())
def test_compiler_error_is_remembered(hostile: Hostile, tmp_path: Path, mode: str) -> None:
    """A genuine compiler error is CE, sealed in the cache as a failed build, and CE again from the cache."""
    source = tmp_path / "broken.c"
    source.write_text(f"int main(void) {{ return undeclared_name; }} /* {tmp_path.name} */\n")
    for _ in range(2):
        run = hostile.run(HSUM, source, mode, "broken")
        assert run.verdict == "CE" and "undeclared_name" in run.report["compile"]["log"], run.describe()
    failed = [src.parents[1] for src in _builds_of(hostile.cache(mode), source)]
    assert len(failed) == 1 and not json.loads((failed[0] / "build.json").read_text())["ok"], failed
    assert Path(f"{failed[0]}.seal").is_file(), failed
