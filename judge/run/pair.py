"""What two runs joined by pipes did: the submission's and its peer's (an interactor's) results, with the facts
about their order that the verdict rules need.

Two paths join them and both return this: ``relayed_pair.py`` (through ``launcher --relay``, which keeps the
transcript and counts every byte the submission writes) and ``direct_pair.py`` (the submission's and the
interactor's pipes joined to each other, the judge only holding copies of them). Kept apart from both so that
neither path imports the other and the core reads one result whatever path was taken.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field

from .types import RunResult

SUBMISSION, PEER = "submission", "peer"
RELAYED, DIRECT = "relay", "direct"
CHUNK = 1 << 16


@dataclass(frozen=True)
class Exchange:
    """Bytes one side sent, as one piece of the transcript."""

    sender: str
    data: bytes


@dataclass
class PairResult:
    submission: RunResult
    peer: RunResult
    transcript: list[Exchange] = field(default_factory=list)  # the relay's alone: the direct path keeps none
    truncated: bool = False  # the exchanges went on past the transcript's size
    overflowed: bool = False  # the submission wrote more than its output limit (direct: where nobody read it)
    peer_left: bool = False  # the peer stopped reading before the submission's end-of-file was passed to it
    path: str = RELAYED  # which path joined them: RELAYED or DIRECT

    @property
    def peer_first(self) -> bool:
        """The peer decided before it could know how the submission ended: what lets its rejection stand whatever
        the submission did after (a crash on the end-of-file the peer's exit caused, above all).

        ``peer_left`` is a causal record (the relay's, or the direct path's look at who still held the peer's input
        when the submission's run ended) and so holds under any load; the clock comparison is kept for a peer whose
        input outlives it (a child of its own still holding the pipe), where neither can see it go.
        """
        return self.peer_left or self.peer.ended < self.submission.ended


def drain(fd: int, limit: int = 0) -> bool:
    """Read and drop what arrives on ``fd`` until every writer has closed it. With a ``limit`` (> 0), stop once
    more than that has arrived and say so: the caller closes ``fd``, and the writer meets a pipe with no reader,
    as a full file would stop it."""
    seen = 0
    while data := os.read(fd, CHUNK):
        seen += len(data)
        if 0 < limit < seen:
            return True
    return False


def stopped_at_a_limit(result: RunResult) -> bool:
    """The submission's run was stopped by the launcher at one of its limits: its verdict is that limit's (unless the
    interactor rejected first), so what it left unread in the interactor's input is dropped rather than answered. An
    interactor made to answer a pipe full of a stopped flood, one query at a time on a loaded machine, used to run
    past its own wall limit: a JE for what was the submission's TLE."""
    return result.killed != "none"
