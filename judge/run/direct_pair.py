"""Two runs talking over pipes joined directly: a sandboxed submission and a trusted peer (an interactor).

The relay (``relayed_pair.py``) puts a third process in the path of every
byte: a round trip wakes four processes instead of two, which on a problem
with tens of thousands of tiny messages per case doubled the interaction's
wall time. Here each program's stdout is the other's stdin, and the judge
keeps the relay's guarantees by holding copies of pipe ends, not by copying
bytes:

- the interactor's end-of-file reaches the submission at once: nobody but
  the interactor holds the write end of the submission's input (the judge
  and the launcher close theirs once the run has its own);
- the submission's end-of-file reaches the interactor only once the
  submission's run has ended: the judge holds a copy of the write end of the
  interactor's input and closes it when that run is reported ended, so a
  crash is RE, not the WA of an interactor that saw the output close first;
- neither side dies of SIGPIPE for the other's early exit: the judge holds a
  read end of each pipe, and reads and drops what is written to a side that
  has gone (the interactor's bytes once the submission's run has ended, the
  submission's once the interactor's has);
- an interactor that ends with a rejection while the submission runs has
  decided the case (the format's rule, problemtools' runner): the judge
  closes its read end of the submission's output instead of draining it, so
  a submission still writing meets a pipe with no reader and ends at once,
  where it went on to its own limit before (``stop``);
- the interactor's wall limit starts when the submission's run has ended,
  after what the submission left unread was dropped if it was stopped at a
  limit: a mutual wait is the submission's, whichever clock is faster;
- whether the interactor decided first is recorded causally, as the relay
  does: when the submission's run ends, before its end-of-file is released,
  the interactor either has been reported ended, or is looked for among the
  processes that still hold its input (in ``/proc``, under the interactor's
  launcher: an exiting interactor has dropped its descriptors before its exit
  is reported).

What this path does not give, so the core takes the relay where it needs
them: no transcript, and the output limit only over what nobody reads. The
interactor reads every byte the submission writes while it runs, so a
submission that floods it is judged by what the interactor makes of it and
by its time limit, as problemtools judges it; what the submission writes
after an interactor that accepted has gone is counted against its output
limit (OLE), and after one that rejected it is not read at all (``stop``).

Nothing of the judge's reaches a run: the copies it holds are close-on-exec
and never sent to a launcher, and both drains end with the runs, whose
launchers kill every process they started.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace

from .pair import DIRECT, PairResult, drain, stopped_at_a_limit
from .sandbox import Bind
from .slots import Slot
from .types import RunResult, RunSpec


def run_direct(
    slot: Slot,
    submission: RunSpec,
    binds: Sequence[Bind],
    peer: RunSpec,
    stop: Callable[[RunResult], bool] | None = None,
) -> PairResult:
    """Run ``submission`` (untrusted, seeing ``binds``) and ``peer`` (trusted) at once, each one's stdout the other's
    stdin, with no process between them.

    Their own ``stdin``/``stdout`` fields are ignored. Each run keeps its own
    limits; a side that waits forever on the other is ended by its wall limit, the
    peer's counted from the submission's end when it was sent ``wall_held`` (``Slot.start_peer_wall``). What a
    submission stopped at a limit left unread is dropped (``stopped_at_a_limit``). Where ``stop`` says the peer's
    ending decided the case (a rejection), what the submission writes after it is not read: it meets a closed pipe.
    """
    to_peer_read, to_peer_write = os.pipe2(os.O_CLOEXEC)  # the submission's output, the interactor's input
    to_sub_read, to_sub_write = os.pipe2(os.O_CLOEXEC)  # the interactor's output, the submission's input
    peer_input = f"pipe:[{os.fstat(to_peer_read).st_ino}]"  # how /proc names it
    # os.dup's copies are close-on-exec (PEP 446): held by the judge alone, never sent to a launcher
    held_eof, spare_peer_in, spare_sub_in = os.dup(to_peer_write), os.dup(to_peer_read), os.dup(to_sub_read)
    peer_ended, peer_sent = threading.Event(), threading.Event()
    spare_peer_in_lock = threading.Lock()  # read by either thread, closed by one: never read once closed
    overflowed = [False]

    def run_peer() -> RunResult:
        nonlocal spare_peer_in
        ended: RunResult | None = None
        try:
            ended = slot.run_peer(replace(peer, stdin=to_peer_read, stdout=to_sub_write), peer_sent)
            return ended
        finally:
            peer_ended.set()
            decided = ended is not None and stop is not None and stop(ended)
            with spare_peer_in_lock:
                try:  # from here on nobody reads the submission's output but the judge, unless the peer decided
                    if not decided:
                        overflowed[0] = drain(spare_peer_in, submission.limits.output_bytes)
                finally:
                    os.close(spare_peer_in)
                    spare_peer_in = -1

    def drop_backlog() -> None:
        """What a submission stopped at a limit left unread, read off the interactor's input beside it: its writers
        are gone, so this ends at the end-of-file once the pipe is empty."""
        with spare_peer_in_lock:
            if spare_peer_in >= 0:
                drain(spare_peer_in)

    peer_left = False
    sub_result: RunResult | None = None
    try:
        with ThreadPoolExecutor(max_workers=1) as executor:
            peer_run = executor.submit(run_peer)
            try:
                sub_result = slot.run_untrusted(replace(submission, stdin=to_sub_read, stdout=to_peer_write), binds)
                peer_left = peer_ended.is_set() or not _held_elsewhere(peer_input, slot.peer_pid())
            finally:
                os.close(held_eof)  # the submission's end-of-file may pass now
                held_eof = -1
                if sub_result is not None and stopped_at_a_limit(sub_result):
                    drop_backlog()
                slot.start_peer_wall(peer_sent)  # the interactor's wall limit counts from here
                drain(spare_sub_in)  # what the interactor still writes, until its run ends
            peer_result = peer_run.result()
    finally:
        for fd in (held_eof, spare_sub_in):
            if fd >= 0:
                os.close(fd)
    assert sub_result is not None  # else its exception went up
    return PairResult(sub_result, peer_result, overflowed=overflowed[0], peer_left=peer_left, path=DIRECT)


def _held_elsewhere(pipe: str, launcher: int | None = None) -> bool:
    """Whether a process other than the judge still has ``pipe`` (``pipe:[inode]``) in its descriptor table.

    Called once the submission's run has ended, so its processes are gone and
    the launchers hold none of these pipes: a holder is the interactor, still
    reading (or one of its children). An exiting process drops its table
    before the kernel releases the files in it, so an interactor that has
    exited and not yet been reported ended is no holder. A /proc that cannot be
    listed counts as held, which never lets an interactor's word stand wrongly;
    a process whose descendants or descriptors cannot be read is gone or
    another user's, and the interactor runs as the judge's own user
    (``Slot.run_peer``).

    Where the interactor's ``launcher`` is known, only it and its descendants
    are looked at: it is the subreaper of everything its run starts, so a
    holder is among them. Every process of the machine was read before, once
    per interactive case: 20 ms of the judge's CPU time and 0.2 s of wall time
    per case beside 250 processes at load 30, most of a loaded verify's own work.
    """
    if launcher is not None:
        held = _held_below(pipe, launcher)
        if held is not None:
            return held
    me = str(os.getpid())
    try:
        pids = [p for p in os.listdir("/proc") if p.isdigit() and p != me]
    except OSError:
        return True
    return any(_holds(pid, pipe) for pid in pids)


def _held_below(pipe: str, root: int, attempts: int = 3) -> bool | None:
    """Whether ``root`` or a descendant of it holds ``pipe``; None when that cannot be told (no children lists in
    this kernel's /proc, or processes kept going away while they were walked).

    Each process's descriptors are read before its children are listed, so a child it forks and hands the pipe to
    before closing its own copy is seen either way. A process gone during the walk may have left children to the
    subreaper, already listed by then: the walk is made again."""
    for _ in range(attempts):
        seen: set[int] = set()
        todo, vanished = [root], False
        while todo:
            pid = todo.pop()
            if pid in seen:
                continue
            seen.add(pid)
            if _holds(str(pid), pipe):
                return True
            children = _children(pid)
            if children is None:
                if pid == root and not os.path.exists(f"/proc/{root}/task/{root}/children"):
                    return None  # gone, or a kernel without the lists: every process is looked at
                vanished = True
                continue
            todo.extend(children)
        if not vanished:
            return False
    return None


def _children(pid: int) -> list[int] | None:
    """The children of every thread of ``pid`` (``/proc/PID/task/TID/children``), or None if it is gone or they
    cannot be read."""
    try:
        tasks = os.listdir(f"/proc/{pid}/task")
        found = []
        for task in tasks:
            with open(f"/proc/{pid}/task/{task}/children") as listing:
                found.extend(int(child) for child in listing.read().split())
    except (OSError, ValueError):
        return None
    return found


def _holds(pid: str, pipe: str) -> bool:
    folder = f"/proc/{pid}/fd"
    try:
        names = os.listdir(folder)
    except OSError:  # gone meanwhile, or another user's
        return False
    for name in names:
        try:
            if os.readlink(f"{folder}/{name}") == pipe:
                return True
        except OSError:
            continue
    return False
