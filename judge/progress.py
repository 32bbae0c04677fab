"""Progress bars on stderr, only when a person is watching (a terminal), and safe to update from worker threads."""
from __future__ import annotations

import sys
import threading
from typing import Any

from tqdm import tqdm


class Progress:
    def __init__(self, total: int, desc: str, unit: str = "case") -> None:
        self._lock = threading.Lock()
        self._bar = tqdm(total=total, desc=desc, file=sys.stderr, disable=not sys.stderr.isatty(), leave=False, unit=unit)

    def advance(self, *_: Any) -> None:
        with self._lock:
            self._bar.update(1)

    def set_postfix(self, text: str) -> None:
        with self._lock:
            self._bar.set_postfix_str(text, refresh=False)

    def close(self) -> None:
        self._bar.close()

    def __enter__(self) -> "Progress":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
