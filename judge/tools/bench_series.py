"""Measurement primitives every benchmark row shares: a series of samples, interleaved rounds, a timer.

Machines here are shared and noisy, so contenders are compared in one run,
interleaved (A B C A B C …), never one after the other.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any


@dataclass
class Series:
    samples: list[float] = field(default_factory=list)

    @property
    def median(self) -> float:
        return statistics.median(self.samples) if self.samples else float("nan")

    def to_json(self) -> dict[str, Any]:
        return {
            "median": self.median,
            "min": min(self.samples, default=None),
            "max": max(self.samples, default=None),
            "samples": self.samples,
        }


def interleave(contenders: dict[str, Callable[[], float]], rounds: int) -> dict[str, Series]:
    """Each round runs every contender once, in turn, so drifting machine load hits all of them alike."""
    results = {name: Series() for name in contenders}
    for _ in range(rounds):
        for name, measure in contenders.items():
            results[name].samples.append(measure())
    return results


def timed(action: Callable[[], object]) -> float:
    start = time.perf_counter()
    action()
    return time.perf_counter() - start
