"""BAPCtools' builds of a package's programs, kept between runs of ``tests/tools/test_export_reference_tools.py``.

``bt run`` builds every submission and its default output validator (its own C++ source; ``<regex>`` and
``<filesystem>`` at ``-O2``, about 5 CPU-seconds of g++) in its work folder under ``TMPDIR``, and builds a program
again only when the hash of its sources or its compile command differs from the ``meta_.yaml`` beside the last build.
The test gives bt a fresh ``TMPDIR`` (its own temporary folder), so every run compiled everything again: about
10 CPU-seconds of every suite run for builds already made from the very same sources by the very same commands.

Here those builds are kept (``kept.py``) and put into the fresh work folder before bt runs; bt's own check then
decides, program by program, whether a build is up to date, and compiles what is not (a changed submission, a
changed compile command). The compile commands name the work folder's absolute
path, so it is written anew in each copied ``meta_.yaml``: exactly what bt would have written had it built there.
bt still links every source, checks every program, runs every submission on every case and checks every output:
only the compiler's repeated work is left out. Builds are kept only from a test that passed, so what their compiles
printed (bt exits 1 on a warning) was already accepted for these very sources and commands. The kept folder is
named by the tool pins and by the compilers' files (path, size and time), so an upgraded g++, gcc or javac builds
again, which bt's own check would not notice.
Where bt lays out its work folder differently, nothing is found to reuse and it simply builds everything.
"""

from __future__ import annotations

import hashlib
import os
import shutil
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from kept import kept_folder, locked

BUILT = ("output_validator", "submissions")  # bt's build folders in its work folder; never "runs" (its outputs)
ROOT = "root.txt"  # the work folder the kept builds were made in, as their meta_.yaml files name it
COMPILERS = ("gcc", "g++", "javac")


def bt_work_folder(tmp: Path, package: Path) -> Path:
    """bt's (2026.10) work folder for ``package`` run from its own folder with ``TMPDIR=tmp``: one folder per
    contest, named by the last six hex digits of the SHA-256 of its working directory (a problem's parent folder: bt
    moves there), and in it one per problem."""
    digest = hashlib.sha256(bytes(package.resolve().parent)).hexdigest()[-6:]
    return tmp.resolve() / f"bapctools_{digest}" / package.name


def _compilers() -> str:
    """What names the installed compilers: a change of any makes other builds."""
    found = []
    for name in COMPILERS:
        path = shutil.which(name)
        real = os.path.realpath(path) if path else ""
        stat = os.stat(real) if real else None
        found.append(f"{name}={real}:{stat.st_size if stat else 0}:{stat.st_mtime_ns if stat else 0}")
    return ";".join(found)


@contextmanager
def kept_bt_builds(pins: tuple[str, ...], problem: str, work: Path) -> Iterator[None]:
    """bt's work folder ``work`` given the builds kept for ``problem``; its builds are kept for the next run when the
    block ends without an exception (a failed run keeps nothing)."""
    key = hashlib.sha256(repr((pins, _compilers())).encode()).hexdigest()[:16]
    folder = kept_folder(f"bt-builds-{key}")
    stored = folder / problem
    with locked(folder):
        if (stored / ROOT).is_file():
            _copy(stored, work, (stored / ROOT).read_text(), str(work))
    yield
    with locked(folder):
        shutil.rmtree(stored, ignore_errors=True)
        stored.mkdir()
        _copy(work, stored, str(work), str(work))
        (stored / ROOT).write_text(str(work))


def _copy(source: Path, target: Path, old_root: str, new_root: str) -> None:
    """The build folders of ``source`` into ``target`` (symbolic links as links), each ``meta_.yaml`` naming
    ``new_root`` where it named ``old_root``."""
    for name in BUILT:
        if not (source / name).is_dir():
            continue
        shutil.copytree(source / name, target / name, symlinks=True, dirs_exist_ok=True)
        for meta in (target / name).rglob("meta_.yaml"):
            meta.write_text(meta.read_text().replace(old_root, new_root))
