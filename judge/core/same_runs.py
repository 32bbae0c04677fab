"""One run for every case of a judging that holds the same data: what the run is depends on the input, the answer
and the checker's arguments, not on the group a case is listed in.

Olympiad packages list one file in several groups (a later group links the easier groups' cases, often as symbolic
links): the Swedish olympiad 2021's ``motesplats`` lists 259 case entries of far fewer files. problemtools judges
such a case once per submission and reads the one result wherever the case is listed (its reuse key: the contents of
the input and the answer, and the validator's flags). This judge ran it once per listing, and for a submission that
runs into its limit (an interactive flood: each run half a minute of wall time on a loaded machine, then run again
alone to confirm) paid the same run, and its confirmation, in every group that listed the case.

Here the first case of a key runs, and every other case of that key takes its result under its own name and group
(waiting for it when it is still running on another worker). A run confirmed alone is kept by key the same way. A
case whose files cannot be read runs on its own, as before: its run reports what is wrong with it.
"""

from __future__ import annotations

import hashlib
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path

from ..model import CaseSpec, Problem, answer_path, input_path
from .verdicts import CaseResult

_CHUNK = 1 << 20


@dataclass(frozen=True)
class RunKey:
    """What decides a case's run: the contents of its input and answer, its checker's arguments, and whether it is a
    sample (a sample's output excerpt and exchange are kept)."""

    input: bytes
    answer: bytes
    checker_args: tuple[str, ...]
    sample: bool


@dataclass
class _Shared:
    ready: threading.Event = field(default_factory=threading.Event)
    result: CaseResult | None = None


_digests: dict[tuple[int, int, int, int], bytes] = {}  # by (device, inode, size, mtime): a file hashed once a process
_digests_lock = threading.Lock()


def _digest(path: Path) -> bytes:
    status = path.stat()  # follows a symbolic link: a linked case hashes as the file it names
    mark = (status.st_dev, status.st_ino, status.st_size, status.st_mtime_ns)
    with _digests_lock:
        known = _digests.get(mark)
    if known is not None:
        return known
    sha = hashlib.sha256()
    with path.open("rb") as data:
        while chunk := data.read(_CHUNK):
            sha.update(chunk)
    with _digests_lock:
        _digests[mark] = sha.digest()
    return sha.digest()


def run_key(problem: Problem, case: CaseSpec) -> RunKey | None:
    """The case's ``RunKey``, or None when its files cannot be read (the case then runs on its own)."""
    try:
        return RunKey(
            _digest(input_path(problem, case)),
            _digest(answer_path(problem, case)),
            tuple(case.checker_args),
            case.is_sample,
        )
    except OSError:
        return None


class SameRuns:
    """The runs of one judging's cases shared among the cases with the same ``RunKey``."""

    def __init__(self, problem: Problem, cases: Sequence[CaseSpec]) -> None:
        self._problem = problem
        self._cases = cases
        self._keys: dict[int, RunKey | None] = {}
        self._first: dict[RunKey, _Shared] = {}
        self._alone: dict[RunKey, CaseResult] = {}
        self._lock = threading.Lock()

    def key(self, index: int) -> RunKey | None:
        with self._lock:
            if index in self._keys:
                return self._keys[index]
        found = run_key(self._problem, self._cases[index])
        with self._lock:
            self._keys[index] = found
        return found

    def first_run(self, index: int, run: Callable[[], CaseResult]) -> CaseResult:
        """Case ``index``'s result from ``run``, or from the run of an earlier case with its key (waited for while it
        runs on another worker); a run that failed leaves the next case of the key to run its own."""
        key = self.key(index)
        if key is None:
            return run()
        with self._lock:
            shared = self._first.get(key)
            mine = shared is None
            if shared is None:
                shared = self._first[key] = _Shared()
        if not mine:
            shared.ready.wait()
            if shared.result is not None:
                return self._as(index, shared.result)
            return run()
        try:
            shared.result = run()
            return shared.result
        finally:
            shared.ready.set()

    def ran(self, index: int) -> CaseResult | None:
        """A finished run of case ``index``'s key, under its name (None when none has finished): the one-at-a-time
        pass asks before it queues a run."""
        key = self.key(index)
        with self._lock:
            shared = self._first.get(key) if key is not None else None
        if shared is None or shared.result is None:
            return None
        return self._as(index, shared.result)

    def record(self, index: int, result: CaseResult) -> None:
        """``result`` is case ``index``'s own run (the one-at-a-time pass): the later cases of its key take it."""
        key = self.key(index)
        if key is None:
            return
        with self._lock:
            shared = self._first.setdefault(key, _Shared())
        if shared.result is None:
            shared.result = result
            shared.ready.set()

    def alone(self, index: int, run: Callable[[], CaseResult]) -> CaseResult:
        """Case ``index`` run again alone (the re-runs are made one at a time), or the re-run of a case of its key."""
        key = self.key(index)
        if key is None:
            return run()
        done = self._alone.get(key)
        if done is not None:
            return self._as(index, done)
        self._alone[key] = result = run()
        return result

    def _as(self, index: int, result: CaseResult) -> CaseResult:
        case = self._cases[index]
        return replace(result, name=case.name, group=case.group)
