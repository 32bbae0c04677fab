#!/usr/bin/env python3
"""Start-up cost of the judge as a ratio to a bare interpreter: ``run_judge.py --version`` and ``list`` vs ``-c pass``.

A ratio rather than milliseconds, so figures from a loaded or a slow machine
still compare; the best of several runs, so a busy neighbour does not count.
"""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
RUNS = 15


def best_of(argv: list[str]) -> float:
    """Shortest wall time of ``RUNS`` runs of ``argv`` from the repository, in seconds."""
    times = []
    for _ in range(RUNS):
        start = time.perf_counter()
        subprocess.run(argv, cwd=REPO, stdout=subprocess.DEVNULL, check=True)
        times.append(time.perf_counter() - start)
    return min(times)


def main() -> None:
    bare = best_of([sys.executable, "-c", "pass"])
    print(f"python -c pass: {bare * 1000:.0f} ms")
    for args in (["--version"], ["list"]):
        took = best_of([sys.executable, "run_judge.py", *args])
        print(f"run_judge.py {' '.join(args)}: {took * 1000:.0f} ms, {took / bare:.1f}x")


if __name__ == "__main__":
    main()
