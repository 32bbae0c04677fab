"""Two runs talking over pipes: a sandboxed submission and a trusted peer (an interactor), the judge relaying between them.

Why a relay rather than joining the pipes directly:
- it keeps a transcript of the first exchanges for the report;
- it holds back each side's end-of-file until that side's run has ended, so
  the order in which the two ended (which decides an interactive verdict) is
  never blurred by the other side reacting to the end-of-file at once;
- what is written to a side that is gone is read and dropped, so neither side
  is killed by SIGPIPE for the other's early exit: the side that ended first
  decides, not the one that happened to write next.
The relay is one thread polling non-blocking descriptors; it never blocks on a
side, and it stops reading a side whose data the other is not taking
(``BACKLOG``), so a flood costs the flooder's own time, not the judge's memory.
"""
from __future__ import annotations

import os
import select
import threading
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field, replace
from typing import Sequence

from .sandbox import Bind
from .slots import Slot
from .types import RunResult, RunSpec

SUBMISSION, PEER = "submission", "peer"
BACKLOG = 1 << 20  # bytes read from one side and not yet taken by the other before the relay stops reading it
CHUNK = 1 << 16
POLL_MS = 20
DRAIN_SECONDS = 5.0  # after both runs ended, the most the relay may take to see both end-of-files


@dataclass(frozen=True)
class Exchange:
    """Bytes one side sent, as one piece of the transcript."""

    sender: str
    data: bytes


@dataclass
class PairResult:
    submission: RunResult
    peer: RunResult
    transcript: list[Exchange] = field(default_factory=list)
    truncated: bool = False  # the exchanges went on past the transcript's size

    @property
    def peer_first(self) -> bool:
        """The peer ended before the submission: what lets a peer's rejection stand whatever the submission did after."""
        return self.peer.ended < self.submission.ended


@dataclass
class _Link:
    """One direction: bytes read from ``source`` are written to ``target``."""

    sender: str
    source: int
    target: int
    ended: threading.Event  # the sending side's run is over: only then is its end-of-file passed on
    pending: bytearray = field(default_factory=bytearray)
    source_open: bool = True
    target_open: bool = True


class _Relay(threading.Thread):
    def __init__(self, links: list[_Link], keep: int) -> None:
        super().__init__(name="relay", daemon=True)
        self.links = links
        self.keep = keep
        self.transcript: list[Exchange] = []
        self.kept = 0
        self.truncated = False
        self.stop = threading.Event()

    def run(self) -> None:
        for link in self.links:
            os.set_blocking(link.source, False)
            os.set_blocking(link.target, False)
        try:
            while not self.stop.is_set() and any(link.source_open or link.target_open for link in self.links):
                self._step()
        finally:
            for link in self.links:
                self._close_source(link)
                self._close_target(link)

    def _step(self) -> None:
        poller = select.poll()
        watched: dict[int, tuple[_Link, str]] = {}
        for link in self.links:
            if link.source_open and len(link.pending) < BACKLOG:
                poller.register(link.source, select.POLLIN)
                watched[link.source] = (link, "read")
            if link.target_open and link.pending:
                poller.register(link.target, select.POLLOUT)
                watched[link.target] = (link, "write")
        for fd, _ in poller.poll(POLL_MS):
            link, action = watched[fd]
            if action == "read":
                self._read(link)
            else:
                self._write(link)
        for link in self.links:
            if not link.source_open and not link.pending and link.ended.is_set():
                self._close_target(link)

    def _read(self, link: _Link) -> None:
        try:
            data = os.read(link.source, CHUNK)
        except BlockingIOError:
            return
        except OSError:
            data = b""
        if not data:
            self._close_source(link)
            return
        self._record(link.sender, data)
        if link.target_open:
            link.pending += data

    def _write(self, link: _Link) -> None:
        try:
            written = os.write(link.target, link.pending)
        except BlockingIOError:
            return
        except OSError:  # the reader is gone: from now on this side's bytes are read and dropped
            link.pending.clear()
            self._close_target(link)
            return
        del link.pending[:written]

    def _record(self, sender: str, data: bytes) -> None:
        room = self.keep - self.kept
        if room <= 0:
            self.truncated = True
            return
        piece = data[:room]
        self.truncated = self.truncated or len(piece) < len(data)
        self.kept += len(piece)
        if self.transcript and self.transcript[-1].sender == sender:
            self.transcript[-1] = Exchange(sender, self.transcript[-1].data + piece)
        else:
            self.transcript.append(Exchange(sender, piece))

    @staticmethod
    def _close_source(link: _Link) -> None:
        if link.source_open:
            link.source_open = False
            os.close(link.source)

    @staticmethod
    def _close_target(link: _Link) -> None:
        if link.target_open:
            link.target_open = False
            link.pending.clear()
            os.close(link.target)


def run_pair(slot: Slot, submission: RunSpec, binds: Sequence[Bind], peer: RunSpec, keep: int = 4096) -> PairResult:
    """Run ``submission`` (untrusted, seeing ``binds``) and ``peer`` (trusted) at once, each one's stdout the other's stdin.

    Their own ``stdin``/``stdout`` fields are ignored. Each run keeps its own
    limits; a side that waits forever on the other is ended by its wall limit.
    """
    sub_out, to_peer = os.pipe2(os.O_CLOEXEC), os.pipe2(os.O_CLOEXEC)
    peer_out, to_sub = os.pipe2(os.O_CLOEXEC), os.pipe2(os.O_CLOEXEC)
    sub_done, peer_done = threading.Event(), threading.Event()
    relay = _Relay([_Link(SUBMISSION, sub_out[0], to_peer[1], sub_done), _Link(PEER, peer_out[0], to_sub[1], peer_done)], keep)
    relay.start()

    def run_peer() -> RunResult:
        try:
            return slot.run_peer(replace(peer, stdin=to_peer[0], stdout=peer_out[1]))
        finally:
            peer_done.set()

    try:
        with ThreadPoolExecutor(max_workers=1) as executor:
            peer_run = executor.submit(run_peer)
            try:
                sub_result = slot.run_untrusted(replace(submission, stdin=to_sub[0], stdout=sub_out[1]), binds)
            finally:
                sub_done.set()
            peer_result = peer_run.result()
    finally:
        relay.join(DRAIN_SECONDS)
        relay.stop.set()
        relay.join()
    return PairResult(sub_result, peer_result, relay.transcript, relay.truncated)
