"""How the suite's tests are ordered and handed to pytest-xdist's workers: the longest work first, a piece at a time.

xdist's default (``--dist load``) sends each worker a first chunk of a quarter of its share (some 190 tests on 2
cores) and never takes a test back, so which worker ran the long tests was decided before any ran: one worker
could still be judging hostile programs for minutes after the other had finished everything else. Grouping tests by
module (``loadgroup``, ``loadscope``) was tried and reverted (f559d28): xdist orders those units by their number of
tests, not their time, so a module of many quick tests went ahead of the minute-long ones.

Here the order is decided where the marks are known, in the workers' collection (conftest.py calls ``order``):
the slow tests first, as before, and within the slow and the fast part the heaviest module first by the times in
``durations.txt``, each module's tests together. The scheduler (``LongestFirstScheduling``) keeps that order and
xdist's loadscope mechanics (a worker is given one more unit when it is down to two pending tests), with units
chosen by ``plan``:

- a stretch of one module's tests that takes ``SPLIT_S`` or more besides its longest setup is cut into one unit per
  test, so its tests spread over every worker; its module-scoped fixtures (a server, judged submissions) are then
  made at most once per worker, because units go out in order and a worker meets the module's tests in one stretch;
- a quicker stretch, or one whose longest setup (its module fixture), times the workers beyond the first (each makes
  it again), is a quarter of the rest or more, is one unit, so its fixtures are made once: a fast-subset run that cut
  every such module made its servers twice.

A test missing from the file (new since it was measured) counts ``UNKNOWN_S``, or ``UNKNOWN_SLOW_S`` if it is
marked slow; a stale file only costs balance, never a test. ``durations.txt`` is pytest's own ``--durations=0``
output (its ``setup``/``call``/``teardown`` lines, read by the test's file name and id, whatever its folder), so
refreshing it is one run of the whole suite; its header says how.
"""

from __future__ import annotations

import re
from collections import defaultdict
from pathlib import Path

import pytest

try:
    from xdist.scheduler import LoadScopeScheduling
except ImportError:  # no pytest-xdist: ``order`` still serves a run in one process, the scheduler is never asked for
    LoadScopeScheduling = object  # type: ignore[assignment,misc]

DURATIONS = Path(__file__).resolve().parent / "durations.txt"
SPLIT_S = 20.0  # a module taking this long (all its tests) is spread over the workers test by test
UNKNOWN_S = 0.5  # a test the file does not name: a little more than the median fast test
UNKNOWN_SLOW_S = 10.0  # a slow test the file does not name: enough to keep it ahead of quick modules
_LINE = re.compile(r"^\s*(\d+(?:\.\d+)?)s\s+(setup|call|teardown)\s+(\S.*?)\s*$")


def duration_key(nodeid: str) -> str:
    """A test's name in ``durations.txt``: its id without the folders, so moving a file between folders keeps it."""
    path, sep, rest = nodeid.partition("::")
    return path.rsplit("/", 1)[-1] + sep + rest


def read_durations(path: Path = DURATIONS, phase: str | None = None) -> dict[str, float]:
    """Seconds per test (setup, call and teardown added up, or ``phase``'s alone) from pytest's ``--durations``
    lines; other lines are ignored, so the file may keep a header."""
    seconds: dict[str, float] = defaultdict(float)
    if path.is_file():
        for line in path.read_text().splitlines():
            found = _LINE.match(line)
            if found and phase in (None, found.group(2)):
                seconds[duration_key(found.group(3))] += float(found.group(1))
    return dict(seconds)


def order(tests: list[tuple[str, bool]], seconds: dict[str, float]) -> list[int]:
    """The order to run ``tests`` (test id, marked slow) in, as indices: the slow tests first, as the suite always
    ran them; within each part the heaviest module first, a module's tests together and in their own order. A test
    the file does not name counts ``UNKNOWN_SLOW_S`` or ``UNKNOWN_S``. Pure, so the suite tests it without xdist."""
    weight: dict[tuple[bool, str], float] = defaultdict(float)
    first: dict[tuple[bool, str], int] = {}
    for index, (nodeid, slow) in enumerate(tests):
        stretch = (slow, nodeid.partition("::")[0])
        weight[stretch] += seconds.get(duration_key(nodeid), UNKNOWN_SLOW_S if slow else UNKNOWN_S)
        first.setdefault(stretch, index)

    def key(index: int) -> tuple[bool, float, int, int]:
        nodeid, slow = tests[index]
        stretch = (slow, nodeid.partition("::")[0])
        return (not slow, -weight[stretch], first[stretch], index)

    return sorted(range(len(tests)), key=key)


def plan(
    collection: list[str], seconds: dict[str, float], setups: dict[str, float] | None = None, workers: int = 2
) -> list[tuple[str, list[str]]]:
    """The work units, as (name, test ids), in the collection's order (``order`` made it): each stretch of one
    module's tests is one unit, or one unit per test if its tests take ``SPLIT_S`` or more besides its longest
    setup (a module fixture: a server, judged submissions) and that setup, paid again on each of the other
    ``workers``, is under a quarter of them. With 3 workers, test_serve_pages' module setup (a server, judged
    submissions, chromium; 11-16 s) was made three times in one run. Pure, as ``order``."""
    setups = setups or {}
    stretches: list[tuple[str, list[str]]] = []
    for nodeid in collection:
        module = nodeid.partition("::")[0]
        if stretches and stretches[-1][0] == module:
            stretches[-1][1].append(nodeid)
        else:
            stretches.append((module, [nodeid]))
    units: list[tuple[str, list[str]]] = []
    for number, (module, nodeids) in enumerate(stretches):
        shared = max(setups.get(duration_key(nodeid), 0.0) for nodeid in nodeids)
        own = sum(seconds.get(duration_key(nodeid), UNKNOWN_S) for nodeid in nodeids) - shared
        if own >= SPLIT_S and shared * max(workers - 1, 1) < own / 4:
            units.extend((nodeid, [nodeid]) for nodeid in nodeids)
        else:
            units.append((f"{module} ({number})", nodeids))  # a module may have two stretches: slow, then fast
    return units


class LongestFirstScheduling(LoadScopeScheduling):
    """xdist's loadscope scheduling over the units of ``plan``, in the collection's order (see the module)."""

    def __init__(self, config: pytest.Config, log: object | None = None) -> None:
        super().__init__(config, log)  # type: ignore[arg-type]
        self.unit_of: dict[str, str] = {}

    def _split_scope(self, nodeid: str) -> str:
        return self.unit_of.get(nodeid, nodeid)

    def schedule(self) -> None:
        """Fill the work queue with ``plan``'s units (loadscope would sort them by size), then start the nodes."""
        if self.collection is None and self._check_nodes_have_same_collection():
            collection = list(next(iter(self.registered_collections.values())))
            units = plan(collection, read_durations(), read_durations(phase="setup"), len(self.nodes))
            self.unit_of = {nodeid: name for name, nodeids in units for nodeid in nodeids}
            self.collection = collection
            for name, nodeids in units:
                self.workqueue[name] = dict.fromkeys(nodeids, False)
            for node in self.nodes:
                if self.workqueue:
                    self._assign_work_unit(node)
            for node in self.nodes:
                self._reschedule(node)
            if not self.workqueue:
                for node in self.nodes:
                    node.shutdown()
            return
        super().schedule()
