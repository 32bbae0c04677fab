"""A readers-writer lock over the machine's runs: the reason a verdict never depends on what ran beside it.

Every run holds it shared; a near-limit case is re-run holding it
exclusively. One lock is shared by every judging that runs at the same time
(the cases of one submission, or many submissions being graded), so
"exclusive" really means nothing else of ours is running.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager


class ReadersWriterLock:
    """Many readers or one writer; waiting writers block new readers, so an exclusive re-run is never starved."""

    def __init__(self) -> None:
        self._cond = threading.Condition()
        self._readers = 0
        self._writer = False
        self._waiting = 0

    @contextmanager
    def shared(self) -> Iterator[None]:
        with self._cond:
            while self._writer or self._waiting:
                self._cond.wait()
            self._readers += 1
        try:
            yield
        finally:
            with self._cond:
                self._readers -= 1
                self._cond.notify_all()

    @contextmanager
    def exclusive(self) -> Iterator[None]:
        with self._cond:
            self._waiting += 1
            while self._writer or self._readers:
                self._cond.wait()
            self._waiting -= 1
            self._writer = True
        try:
            yield
        finally:
            with self._cond:
                self._writer = False
                self._cond.notify_all()
