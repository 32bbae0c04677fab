"""The view of an untrusted run in rlimits mode as root: made once per set of exposed paths (fresh.c's view) and
copied for each run, with each run's own tmpfs and the exposed paths that lie in them added to the copy.

What a run must see whichever of the two a path lands in: its exposed paths, read-only unless asked writable, in
/tmp (under the run's tmpfs) as elsewhere; nothing a run before it left in /tmp; and, after the slot's next runs
expose other paths, those and not the earlier ones."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from judge.run import Bind, Isolation, RunLimits, RunSpec, SlotPool

pytestmark = pytest.mark.skipif(os.geteuid() != 0, reason="rlimits mode has a mount namespace per run as root only")

LIMITS = RunLimits(cpu=5, wall=20, memory_mib=128, output_bytes=1 << 16)


def _folder(path: Path, mode: int, content: str) -> Path:
    path.mkdir(parents=True)
    path.chmod(mode)
    (path / "f").write_text(content + "\n")
    (path / "f").chmod(0o644)
    return path


@pytest.fixture
def outside_tmp() -> Path:
    """A folder outside every place a run gets a tmpfs on, so that its exposure is the view's; closed to other users
    (like a home folder), so that a run sees what is exposed there and nothing else of it."""
    root = Path("/srv") / f"tilejudge-view-{os.getpid()}"
    root.mkdir(parents=True, exist_ok=False)
    root.chmod(0o700)
    yield root
    shutil.rmtree(root, ignore_errors=True)


def _sh(slot, script: str, binds: list[Bind]) -> list[str]:  # type: ignore[no-untyped-def]
    spec = RunSpec(["/bin/sh", "-c", script], LIMITS, slot.private / "out", slot.private / "err")
    result = slot.run_untrusted(spec, binds)
    assert result.exit_code == 0, (slot.private / "err").read_text()
    return (slot.private / "out").read_text().split()


PROBE = (
    'for d in {folders}; do if [ -r $d/f ]; then cat $d/f; else echo "$d:unseen"; fi; '
    'if (echo x > $d/new) 2>/dev/null; then echo "$d:writable"; rm -f $d/new; else echo "$d:readonly"; fi; done; '
    'echo "tmp:$(ls -A /tmp | grep -c left)"; echo left > /tmp/left'
)


def test_exposed_paths_in_and_out_of_the_runs_tmpfs(tmp_path: Path, outside_tmp: Path) -> None:
    # open to every user: only the mount's read-only flag keeps the run from writing there
    in_tmp = _folder(tmp_path / "in", 0o777, "in-tmp")
    writable = _folder(tmp_path / "w", 0o777, "writable-in-tmp")
    elsewhere = _folder(outside_tmp / "out", 0o777, "outside-tmp")
    written_elsewhere = _folder(outside_tmp / "w", 0o777, "writable-outside")
    assert str(in_tmp).startswith("/tmp/"), "pytest's tmp_path is under /tmp on this machine"
    binds = [Bind(in_tmp), Bind(writable, writable=True), Bind(elsewhere), Bind(written_elsewhere, writable=True)]
    probe = PROBE.format(folders=" ".join(str(b.path) for b in binds))
    with SlotPool(1, Isolation("rlimits")) as pool, pool.slot() as slot:
        for _ in range(3):  # the first run's holder is made on the spot, the others' ahead, from the same view
            seen = _sh(slot, probe, binds)
            assert seen == [
                "in-tmp",
                f"{in_tmp}:readonly",
                "writable-in-tmp",
                f"{writable}:writable",
                "outside-tmp",
                f"{elsewhere}:readonly",
                "writable-outside",
                f"{written_elsewhere}:writable",
                "tmp:0",
            ], seen


def test_a_slots_next_exposed_paths_replace_the_last(tmp_path: Path, outside_tmp: Path) -> None:
    first = [Bind(_folder(tmp_path / "a", 0o755, "a-in-tmp")), Bind(_folder(outside_tmp / "a", 0o755, "a-outside"))]
    second = [Bind(_folder(tmp_path / "b", 0o755, "b-in-tmp")), Bind(_folder(outside_tmp / "b", 0o755, "b-outside"))]
    every = " ".join(str(b.path) for b in (*first, *second))
    probe = f"for d in {every}; do if [ -r $d/f ]; then cat $d/f; else echo unseen; fi; done"
    with SlotPool(1, Isolation("rlimits")) as pool, pool.slot() as slot:
        for binds, expected in (
            (first, ["a-in-tmp", "a-outside", "unseen", "unseen"]),
            (second, ["unseen", "unseen", "b-in-tmp", "b-outside"]),
            (first, ["a-in-tmp", "a-outside", "unseen", "unseen"]),
        ):
            assert _sh(slot, probe, binds) == expected
