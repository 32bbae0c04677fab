"""Files the judge rewrites (reports, manifests, --json) are whole for every reader, with several writers at once."""

from __future__ import annotations

import threading
from pathlib import Path

from judge.atomic import atomic_write

WRITERS = 4
ROUNDS = 300


def test_writers_of_one_file_at_once_each_leave_it_whole(tmp_path: Path) -> None:
    """Two judges (or a ``report`` beside a ``grade``) rewriting one file: no writer fails, a reader never sees a
    mixture, and no half-made sibling is left."""
    target = tmp_path / "grades.json"
    contents = [(f"writer {n} " * 2000 + "\n").encode() for n in range(WRITERS)]
    errors: list[BaseException] = []
    seen: list[bytes] = []

    def write(data: bytes) -> None:
        try:
            for _ in range(ROUNDS):
                atomic_write(target, data)
                seen.append(target.read_bytes())
        except BaseException as exc:
            errors.append(exc)

    threads = [threading.Thread(target=write, args=(data,)) for data in contents]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert not errors, errors[:3]
    assert set(seen) <= set(contents), "a reader saw a file no writer wrote whole"
    assert target.read_bytes() in contents
    assert [p.name for p in tmp_path.iterdir()] == ["grades.json"]
