"""Test strength: which cases reject which wrong submissions, and how few cases would still reject them all.

``verify`` proves that each wrong submission is rejected somewhere; it does
not say whether that rests on one lucky case, which cases reject nothing,
or how much of the test set is redundant. This module answers that from
the verdict grid alone (verify does the judging), so the rules can be read
and tested on hand-made grids.

"Rejects" is strict: a case rejects a wrong submission only when it gives
the verdict the submission is wrong for (``Row.catches``, decided by the
caller from the submission's folder). A time-limit submission is rejected
where it gets TLE, not where it happens to print a wrong answer, and a
wrong-answer submission that crashes on a case is not rejected there: a
test set that relies on such accidents would stop rejecting the bug it was
written for as soon as the accident is fixed.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from ..verdict import Verdict

# Nodes the exact cover search may visit (a few seconds) before it settles for what it found; the bundled problems
# need a few.
SEARCH_BUDGET = 50_000


@dataclass(frozen=True)
class Row:
    """One test submission: what it promises, and per case its verdict and whether that verdict rejects it.

    ``verdicts`` is None when nothing ran (the program did not compile).
    """

    name: str
    expected: str
    wrong: bool
    verdicts: tuple[Verdict, ...] | None
    catches: tuple[bool, ...]

    @property
    def judged(self) -> bool:
        return self.verdicts is not None


@dataclass(frozen=True)
class Cover:
    """A set of case indices rejecting every wrong submission any case rejects; ``optimal`` when proven smallest."""

    cases: tuple[int, ...]
    optimal: bool
    method: str


@dataclass(frozen=True)
class Matrix:
    """The analysis of one grid. Every index refers to ``cases`` or ``rows``."""

    cases: tuple[str, ...]
    rows: tuple[Row, ...]
    caught_by: tuple[tuple[int, ...], ...]  # per row: the cases rejecting it (empty for accepted or unjudged rows)
    sole: tuple[tuple[int, ...], ...]  # per case: the wrong rows no other case rejects
    idle: tuple[int, ...]  # cases rejecting no wrong submission
    single: tuple[int, ...]  # wrong rows rejected by exactly one case
    uncaught: tuple[int, ...]  # wrong judged rows no case rejects: verify fails on them
    unjudged: tuple[int, ...]  # rows that did not compile: no case can say anything about them
    cover: Cover

    @property
    def wrong(self) -> tuple[int, ...]:
        return tuple(i for i, row in enumerate(self.rows) if row.wrong and row.judged)

    def catches(self, case: int) -> tuple[int, ...]:
        """The wrong rows ``case`` rejects."""
        return tuple(i for i in self.wrong if self.rows[i].catches[case])


def analyse(cases: Sequence[str], rows: Sequence[Row], budget: int = SEARCH_BUDGET) -> Matrix:
    """The matrix of ``rows`` over ``cases``: who rejects whom, the idle cases, the single catches, a smallest cover."""
    for row in rows:
        if len(row.catches) != len(cases) or (row.verdicts is not None and len(row.verdicts) != len(cases)):
            raise ValueError(f"{row.name}: {len(row.catches)} cells for {len(cases)} cases")
    caught_by = tuple(
        tuple(j for j, hit in enumerate(row.catches) if hit) if row.wrong and row.judged else () for row in rows
    )
    wrong = [i for i, row in enumerate(rows) if row.wrong and row.judged]
    sole = tuple(tuple(i for i in wrong if caught_by[i] == (j,)) for j in range(len(cases)))
    idle = tuple(j for j in range(len(cases)) if not any(rows[i].catches[j] for i in wrong))
    masks = [sum(1 << n for n, i in enumerate(wrong) if rows[i].catches[j]) for j in range(len(cases))]
    return Matrix(
        cases=tuple(cases),
        rows=tuple(rows),
        caught_by=caught_by,
        sole=sole,
        idle=idle,
        single=tuple(i for i in wrong if len(caught_by[i]) == 1),
        uncaught=tuple(i for i in wrong if not caught_by[i]),
        unjudged=tuple(i for i, row in enumerate(rows) if not row.judged),
        cover=smallest_cover(masks, budget),
    )


def smallest_cover(masks: Sequence[int], budget: int = SEARCH_BUDGET) -> Cover:
    """Fewest indices of ``masks`` (bit sets of rejected submissions) whose union is the union of them all.

    Set cover is NP-hard, but test sets are small: after dropping cases whose
    rejections another case already includes, a depth-first search branches
    on the submission fewest cases reject (one of them must be chosen) and
    prunes any branch that cannot beat the best set so far. Greedy gives the
    first best set; if the search exceeds ``budget`` nodes the best found is
    returned, not proven smallest. The same grid always gives the same set;
    of cases rejecting the same submissions the earliest is the one offered.
    """
    target = 0
    for mask in masks:
        target |= mask
    if not target:
        return Cover((), True, "exact: nothing to reject")
    candidates = _undominated(masks)
    best = _greedy(candidates, masks, target)
    found = list(best)
    nodes = 0

    def search(chosen: list[int], covered: int) -> bool:
        """False once the budget is spent."""
        nonlocal found, nodes
        nodes += 1
        if nodes > budget:
            return False
        left = target & ~covered
        if not left:
            if len(chosen) < len(found):
                found = sorted(chosen)
            return True
        gain = max((masks[j] & left).bit_count() for j in candidates)
        if len(chosen) + math.ceil(left.bit_count() / gain) >= len(found):
            return True
        bits = [1 << b for b in range(left.bit_length()) if left >> b & 1]
        rarest = min(bits, key=lambda bit: sum(1 for j in candidates if masks[j] & bit))
        options = sorted((j for j in candidates if masks[j] & rarest), key=lambda j: -(masks[j] & left).bit_count())
        return all(search(chosen + [j], covered | masks[j]) for j in options)

    if search([], 0):
        return Cover(tuple(found), True, f"exact: search visited {nodes} node{'' if nodes == 1 else 's'}")
    better = f", search improved it to {len(found)}" if len(found) < len(best) else ""
    return Cover(
        tuple(found),
        False,
        f"greedy ({len(best)} cases{better}); not proven smallest: the exact search stopped after {budget} nodes",
    )


def _undominated(masks: Sequence[int]) -> list[int]:
    """Indices worth choosing: non-empty, not rejecting a strict subset of another's, the first of equal ones."""
    keep = []
    for j, mask in enumerate(masks):
        if not mask or mask in (masks[k] for k in range(j)):
            continue
        if any(mask | other == other and mask != other for other in masks):
            continue
        keep.append(j)
    return keep


def _greedy(candidates: list[int], masks: Sequence[int], target: int) -> list[int]:
    """Repeatedly the case rejecting most of what is still unrejected: a quick first answer for the search to beat."""
    chosen: list[int] = []
    covered = 0
    while covered != target:
        j = max(candidates, key=lambda k: ((masks[k] & ~covered).bit_count(), -k))
        chosen.append(j)
        covered |= masks[j]
    return sorted(chosen)
