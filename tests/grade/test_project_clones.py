"""Grading clones of student projects (issue #26, item 8): the sources are judged, what tools made is skipped and named.

A class folder as a teacher gets it from cloning each student's repository,
graded with real programs compiled and run by the judge:

- nina: main.c beside a node_modules of 2,500 files (many .js), a .venv and a
  virtualenv under a name of her own (told by its pyvenv.cfg) full of .py
  files, a CMake build folder, a Rust target/ (CACHEDIR.TAG), __pycache__, a
  .git and an .idea: AC, and each tool folder listed as ignored with what it is;
- omar: his solution in a folder he called build/ (a source at its top, so not
  build output): AC, nothing skipped;
- pia: main.c and a node_modules that is a symbolic link to /: the link is not
  followed (listed in her folder, never walked); AC;
- quin: 2,500 files of his own data beside main.c: still INVALID, the walk
  stays bounded.
"""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest
from conftest import PROGRAMS, REPO_ROOT, cli

pytestmark = pytest.mark.slow

PROBLEM = REPO_ROOT / "tests" / "fixtures" / "problems" / "aplusb"
AC_C = PROGRAMS / "aplusb" / "ac.c"
AC_PY = PROGRAMS / "aplusb" / "ac.py"


def _many(folder: Path, count: int, name: str) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    for i in range(count):
        (folder / name.format(i)).write_text("x\n")


def make_clones(folder: Path) -> Path:
    nina = folder / "nina"
    nina.mkdir(parents=True)
    shutil.copy(AC_C, nina / "main.c")
    _many(nina / "node_modules" / "left-pad", 2500, "part{}.js")
    (nina / "node_modules" / ".package-lock.json").write_text("{}\n")
    for env in (".venv", "tools-env"):
        (nina / env).mkdir()
        (nina / env / "pyvenv.cfg").write_text("home = /usr/bin\n")
        _many(nina / env / "lib" / "python3" / "site-packages" / "pkg", 300, "mod{}.py")
    (nina / "cmake-out").mkdir()
    (nina / "cmake-out" / "CMakeCache.txt").write_text("# cache\n")
    shutil.copy(AC_C, nina / "cmake-out" / "generated.c")
    (nina / "target").mkdir()
    (nina / "target" / "CACHEDIR.TAG").write_bytes(b"Signature: 8a477f597d28d172789f06886806bc55\n# cargo\n")
    shutil.copy(AC_C, nina / "target" / "copy.c")
    (nina / "__pycache__").mkdir()
    (nina / "__pycache__" / "x.cpython-311.pyc").write_bytes(b"\x00" * 16)
    _many(nina / ".git" / "objects", 50, "obj{}")
    (nina / ".idea").mkdir()
    (nina / ".idea" / "workspace.xml").write_text("<x/>\n")
    omar = folder / "omar"
    (omar / "build").mkdir(parents=True)
    shutil.copy(AC_PY, omar / "build" / "solution.py")
    pia = folder / "pia"
    pia.mkdir()
    shutil.copy(AC_C, pia / "main.c")
    os.symlink("/", pia / "node_modules")
    quin = folder / "quin"
    quin.mkdir()
    shutil.copy(AC_C, quin / "main.c")
    _many(quin / "data", 2500, "sample{}.txt")
    return folder


def test_clone_of_a_project_is_judged_and_tool_folders_are_named(tmp_path: Path) -> None:
    submissions = make_clones(tmp_path / "class")
    out = tmp_path / "results"
    run = cli("grade", str(PROBLEM), str(submissions), "--out", str(out), "-j", "2")
    assert run.returncode == 0, run.stdout + run.stderr
    data = json.loads((out / "grades.json").read_text())
    students = {s["id"]: s for s in data["students"]}
    ignored = {i["entry"]: i["why"] for i in data["ignored"]}
    assert students["nina"]["verdict"] == "AC" and students["nina"]["source"].endswith("nina/main.c"), students["nina"]
    assert students["omar"]["verdict"] == "AC" and students["omar"]["source"].endswith("omar/build/solution.py"), (
        students["omar"]
    )
    assert students["pia"]["verdict"] == "AC", students["pia"]
    assert students["quin"]["verdict"] == "INVALID" and "more than 2000 files" in students["quin"]["error"], students[
        "quin"
    ]
    expected = {
        "nina/node_modules": "Node packages",
        "nina/.venv": "virtual environment",
        "nina/tools-env": "virtual environment",
        "nina/cmake-out": "CMake",
        "nina/target": "CACHEDIR.TAG",
        "nina/__pycache__": "bytecode",
        "nina/.git": "version control",
        "nina/.idea": "IDE",
    }
    for entry, what in expected.items():
        assert entry in ignored and what in ignored[entry] and "not judged" in ignored[entry], (entry, ignored)
    assert not any(e.startswith(("omar/", "pia/")) for e in ignored), ignored
    assert "nina/node_modules" in run.stdout or "entries ignored" in run.stdout, run.stdout
