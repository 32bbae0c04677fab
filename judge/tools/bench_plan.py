"""The benchmark's sections, each announced as it starts with an estimate of its time, and the whole run's.

``bench --quick`` ran for ten minutes on a loaded machine with nothing printed between one table and the next, and
no word of how long it would take. Each section now says, as it starts, its number, its name and about how long it
takes (``ESTIMATES``, measured on this project's shared 2-core machine), and what is left of the whole run at the pace
this machine has shown so far; as it ends, how long it took.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager

# seconds each section takes: (with --quick, without). The --quick figures are one run's on this project's 2-core
# machine with other work beside it (load 12 to 26, 2026-12-06: 13.4 min in all); the full run's are those scaled by
# its larger counts (5 rounds for 3, 5 large cases for 2, every bundled problem's data, two copies of the class,
# classes up to 5,000), not measured. The time left is re-estimated from this machine's pace as each section ends.
ESTIMATES: dict[str, tuple[float, float]] = {
    "test data for the comparisons": (40, 60),
    "tiny cases": (85, 140),
    "large cases": (45, 190),
    "start-up": (10, 15),
    "TLE latency": (11, 20),
    "interactive relay": (6, 25),
    "memory accuracy": (2, 5),
    "test-data work": (52, 300),
    "grading throughput": (360, 720),
    "a failing class": (15, 15),
    "grading at scale": (180, 1000),
}
PEERS_S = 60.0  # installing online-judge-tools in a throw-away venv, and its runs beside ours


def _duration(seconds: float) -> str:
    return f"{seconds:.0f} s" if seconds < 90 else f"{seconds / 60:.0f} min"


class Plan:
    """The sections of one benchmark run, in order; ``section`` announces one as it starts and times it."""

    def __init__(self, names: Sequence[str], quick: bool, peers: bool, log: Callable[[str], None]) -> None:
        self._names = list(names)
        self._quick = quick
        self._peers = peers
        self._log = log
        self._estimated_done = 0.0
        self._taken = 0.0
        self._started = 0
        total = sum(self._estimate(name) for name in self._names)
        log(
            f"bench{' --quick' if quick else ''}: {len(self._names)} sections, about {_duration(total)} on a shared "
            "2-core machine; each is announced as it starts, with what is left at this machine's pace"
        )

    def _estimate(self, name: str) -> float:
        quick, full = ESTIMATES.get(name, (30.0, 60.0))
        comparison = name in ("tiny cases", "large cases")
        return (quick if self._quick else full) + (PEERS_S if self._peers and comparison else 0.0)

    @contextmanager
    def section(self, name: str) -> Iterator[None]:
        """Announce ``name`` with its estimate and the time left at this machine's pace; say what it took."""
        self._started += 1
        estimate = self._estimate(name)
        pace = self._taken / self._estimated_done if self._estimated_done else 1.0
        left = pace * sum(self._estimate(n) for n in self._names[self._names.index(name) :])
        self._log(
            f"\n[{self._started}/{len(self._names)}] {name}: about {_duration(pace * estimate)}"
            f" (the bench: about {_duration(left)} left)"
        )
        start = time.perf_counter()
        yield
        taken = time.perf_counter() - start
        self._taken += taken
        self._estimated_done += estimate
        self._log(f"[{self._started}/{len(self._names)}] {name}: took {_duration(taken)}")
