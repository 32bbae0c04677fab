"""How one round of a judging runs its cases: on worker threads, or at ``-j 1`` each run queued behind the one before.

Kept apart from ``judging.py``, which decides which cases a round runs, what is
run again alone and how results add up: this is only the order of the runs and
who waits for whom, and what Ctrl-C (or a run whose result can no longer count) kills.
"""

from __future__ import annotations

import threading
from collections import deque
from collections.abc import Callable, Iterator
from contextlib import contextmanager

from ..run import Slot, SlotPool
from .verdicts import CaseResult


def each(task: Callable[[int], None], indices: list[int], workers: int, abort: Callable[[], None]) -> None:
    """``task`` on every index, on ``workers`` threads; one worker runs them here, without a thread pool to start
    (nor to import: concurrent.futures brings logging, about 9 ms of a quick judge's start-up). On Ctrl-C, ``abort``
    kills the runs in flight, so the threads running them end now rather than at their limits."""
    if workers <= 1:
        try:
            for index in indices:
                task(index)
        except KeyboardInterrupt:
            abort()
            raise
        return
    from concurrent.futures import ThreadPoolExecutor

    executor = ThreadPoolExecutor(max_workers=workers)
    try:
        list(executor.map(task, indices))
    except KeyboardInterrupt:
        abort()
        raise
    finally:
        executor.shutdown(wait=True, cancel_futures=True)  # no queued case starts (a with-block would run them all)


def queued_pass(
    indices: list[int],
    wanted: Callable[[int], bool],
    queue: Callable[[int, Slot, int], Callable[[], CaseResult]],
    done: Callable[[int, CaseResult], None],
    pool: SlotPool,
) -> None:
    """The wanted ``indices`` in order, one run at a time in one slot, each run handed to the slot's launcher while
    the one before it still runs (``Slot.queue_untrusted``): the launcher starts it the moment the first ends, and
    the judge's own work on a case (reading the answer, checking the output, the verdict) is done while the next case
    runs, instead of between the two runs. Two lanes of output files take turns, so a run never writes over the
    output being checked. A queued run that the case before it made unwanted (its group decided, ``--first-fail``)
    is killed and its result never taken, so never reported: the next wanted case is queued then. On Ctrl-C every run
    is killed (``SlotPool.abort``), as ``each`` does."""
    rest = iter(indices)
    try:
        with pool.slot() as slot:
            queued: deque[tuple[int, Callable[[], CaseResult]]] = deque()
            lane = 0
            try:
                while True:
                    while len(queued) < 2:  # the one running (or about to) and the next
                        index = next((i for i in rest if wanted(i)), None)
                        if index is None:
                            break
                        queued.append((index, queue(index, slot, lane)))
                        lane ^= 1
                    if not queued:
                        return
                    index, checked = queued.popleft()
                    done(index, checked())
                    if queued and not wanted(queued[0][0]):
                        slot.drop_queued()
                        queued.clear()
            except BaseException:
                slot.drop_queued()  # the slot goes back to the pool with nothing queued in it
                raise
    except KeyboardInterrupt:
        pool.abort()
        raise


class InFlight:
    """The cases whose runs are in flight on worker threads, each with its slot: a run that an earlier case's result
    made unwanted (a first failure, a decided group) is killed then, rather than left to run to its limit beside the
    case that decided it (for a TLE, seconds). Its thread gets ``Cancelled`` and records nothing, so the killed run
    is never a verdict; should a run alone win that earlier case back, the case is run in the next round."""

    def __init__(self) -> None:
        self._slots: dict[int, Slot] = {}
        self._cancelled: set[int] = set()
        self._lock = threading.Lock()

    @contextmanager
    def running(self, index: int, slot: Slot) -> Iterator[None]:
        """Case ``index``'s run (and its checking) in ``slot``, while the block runs."""
        with self._lock:
            self._slots[index] = slot
            self._cancelled.discard(index)  # run again in a later round: wanted again
        try:
            yield
        finally:
            with self._lock:
                del self._slots[index]

    def cancel_unwanted(self, wanted: Callable[[int], bool]) -> None:
        """Kill the runs in flight of the cases no longer ``wanted``, each once."""
        with self._lock:
            for index, slot in self._slots.items():
                if index not in self._cancelled and not wanted(index):
                    self._cancelled.add(index)
                    slot.cancel()
