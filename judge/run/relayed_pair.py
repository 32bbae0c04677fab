"""Two runs talking over pipes: a sandboxed submission and a trusted peer (an interactor), a relay between them.

What a relay gives that joining the pipes directly (``direct_pair.py``) does not:
- it keeps a transcript of the first exchanges for the report;
- it counts every byte the submission writes against its output limit,
  since a pipe has no file-size limit;
and, like the direct path by other means:
- it passes the interactor's end-of-file on the moment it happens, as Kattis
  and BAPCtools do: an interactor that closes its output early (it has said
  everything, a "pseudo-interactive" problem) lets the submission read to
  end-of-file and answer, rather than wait until TLE (nobody else holds a
  copy of that pipe end: the judge and the launchers close theirs once the
  run has its own);
- it holds back the submission's end-of-file until the submission's run has
  ended, as BAPCtools does: a crashing submission's output closes before its
  exit is reported (a fresh namespace takes milliseconds to tear down), and
  an interactor seeing that end-of-file at once would exit first with WA,
  hiding the run-time error;
- an interactor that ends with a rejection while the submission runs has
  decided the case: the judge tells the relay ("x"), which closes the
  submission's output unread, so a submission still writing ends at once
  rather than at its own limit (``stop``);
- what is written to a side that is gone is read and dropped, so neither side
  is killed by SIGPIPE for the other's early exit: the side that ended first
  decides, not the one that happened to write next.
The relay is ``launcher --relay`` (``relay.c``), a poll loop in C: one in the
judge's Python cost about 100 us per exchange, enough to turn 10^5 queries
into a wall-clock timeout. It stops reading a side whose bytes the other is
not taking, so a flood costs the flooder's own time, not the judge's memory.
Its price: every message is read and written once more, and a round trip
wakes the relay twice besides the two programs (four wake-ups where bare
pipes take two); ``docs/benchmarks.md`` has it per round trip, which is why
the core takes this path only where a transcript is shown.
"""

from __future__ import annotations

import fcntl
import os
import subprocess
import threading
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace

from .launcher import DEFAULT_PATH, build_launcher
from .pair import PEER, RELAYED, SUBMISSION, Exchange, PairResult, stopped_at_a_limit
from .sandbox import Bind
from .slots import Slot
from .types import RunResult, RunSpec

PEER_PIPE_BYTES = 4096
DRAIN_SECONDS = 5.0  # after both runs ended, the most the relay may take to see both end-of-files


def run_relayed(
    slot: Slot,
    submission: RunSpec,
    binds: Sequence[Bind],
    peer: RunSpec,
    keep: int = 4096,
    stop: Callable[[RunResult], bool] | None = None,
) -> PairResult:
    """Run ``submission`` (untrusted, seeing ``binds``) and ``peer`` (trusted) at once, each one's stdout the other's
    stdin.

    Their own ``stdin``/``stdout`` fields are ignored. Each run keeps its own
    limits; a side that waits forever on the other is ended by its wall limit, the
    peer's counted from the submission's end when it was sent ``wall_held`` (``Slot.start_peer_wall``). What a
    submission stopped at a limit left unread is dropped (``stopped_at_a_limit``).
    The submission's ``output_bytes`` limit is counted by the relay, since a
    pipe has no file-size limit. Where ``stop`` says the peer's ending decided the case (a rejection), the relay
    closes the submission's output unread.
    """
    sub_out, to_peer = os.pipe2(os.O_CLOEXEC), os.pipe2(os.O_CLOEXEC)
    # the relay buffers what the interactor has not taken yet, and drops it when the submission was stopped at a limit
    # ("d"); what is already in this pipe the interactor still reads, so it holds a page, not 64 KiB of a flood
    fcntl.fcntl(to_peer[1], fcntl.F_SETPIPE_SZ, PEER_PIPE_BYTES)
    peer_out, to_sub = os.pipe2(os.O_CLOEXEC), os.pipe2(os.O_CLOEXEC)
    control = os.pipe2(os.O_CLOEXEC)
    record = slot.private / "transcript"
    record_fd = os.open(record, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_CLOEXEC, 0o600)
    relay_fds = (sub_out[0], to_peer[1], peer_out[0], to_sub[1], control[0], record_fd)
    try:
        relay = subprocess.Popen(
            [str(build_launcher()), "--relay", str(keep), *map(str, relay_fds), str(submission.limits.output_bytes)],
            pass_fds=relay_fds,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            env={"PATH": DEFAULT_PATH},
        )
    except OSError:
        for fd in (*relay_fds, sub_out[1], to_peer[0], peer_out[1], to_sub[0], control[1]):
            os.close(fd)
        raise
    for fd in relay_fds:  # the relay holds these now
        os.close(fd)

    peer_sent = threading.Event()

    def run_peer() -> RunResult:
        ended = slot.run_peer(replace(peer, stdin=to_peer[0], stdout=peer_out[1]), peer_sent)
        if stop is not None and stop(ended):
            try:  # the case is decided: what the submission still writes is not read ("x")
                os.write(control[1], b"x")
            except OSError:  # the relay is already gone
                pass
        return ended

    try:
        with ThreadPoolExecutor(max_workers=1) as executor:
            peer_run = executor.submit(run_peer)
            sub_result: RunResult | None = None
            try:
                sub_result = slot.run_untrusted(replace(submission, stdin=to_sub[0], stdout=sub_out[1]), binds)
            finally:
                dropping = sub_result is not None and stopped_at_a_limit(sub_result)
                try:  # the submission's end-of-file may pass now (after what it wrote, or with that dropped: "d")
                    os.write(control[1], b"d" if dropping else b"s")
                except OSError:  # the relay is already gone: nothing waits for the word
                    pass
                slot.start_peer_wall(peer_sent)  # the interactor's wall limit counts from here
            peer_result = peer_run.result()
    finally:
        try:
            relay.wait(DRAIN_SECONDS)
        except subprocess.TimeoutExpired:
            relay.kill()
            relay.wait()
        os.close(control[1])
    transcript, flags = _parse(record.read_bytes())
    return PairResult(sub_result, peer_result, transcript, b"t" in flags, b"o" in flags, b"g" in flags, RELAYED)


def _parse(data: bytes) -> tuple[list[Exchange], set[bytes]]:
    """The relay's records ``<s|p> <length>\\n<bytes>`` as exchanges, consecutive pieces of one side joined, and
    the flags it noted: the transcript was cut (``t``), the submission went over its output limit (``o``), the
    peer stopped reading first (``g``)."""
    exchanges: list[Exchange] = []
    flags: set[bytes] = set()
    at = 0
    while at < len(data):
        line_end = data.find(b"\n", at)
        if line_end < 0:
            break
        who, _, length = data[at:line_end].partition(b" ")
        size = int(length or 0)
        piece = data[line_end + 1 : line_end + 1 + size]
        at = line_end + 1 + size
        if who in (b"t", b"o", b"g"):
            flags.add(who)
            continue
        sender = SUBMISSION if who == b"s" else PEER
        if exchanges and exchanges[-1].sender == sender:
            exchanges[-1] = Exchange(sender, exchanges[-1].data + piece)
        else:
            exchanges.append(Exchange(sender, piece))
    return exchanges, flags
