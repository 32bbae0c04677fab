"""Progress bars on stderr, only when a person is watching (a terminal), and safe to update from worker threads.

tqdm is imported only when a bar will really be drawn: piped and CI runs
(most of the judge's runs) do not pay for the import.
"""

from __future__ import annotations

import sys
import threading
from typing import Any, TextIO


class Progress:
    def __init__(self, total: int, desc: str, unit: str = "case") -> None:
        self._lock = threading.Lock()
        self._bar: Any = None
        if sys.stderr.isatty():
            from tqdm import tqdm

            self._bar = tqdm(total=total, desc=desc, file=sys.stderr, leave=False, unit=unit)

    def advance(self, *_: Any) -> None:
        if self._bar is not None:
            with self._lock:
                self._bar.update(1)

    def write(self, line: str, file: TextIO) -> None:
        """Print ``line`` (flushed: a pipe sees it now) above the bar, which is cleared first and redrawn below it."""
        with self._lock:
            if self._bar is not None:
                self._bar.clear()
            print(line, file=file, flush=True)
            if self._bar is not None:
                self._bar.refresh()

    def set_postfix(self, text: str) -> None:
        if self._bar is not None:
            with self._lock:
                self._bar.set_postfix_str(text, refresh=False)

    def close(self) -> None:
        if self._bar is not None:
            self._bar.close()

    def __enter__(self) -> Progress:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
