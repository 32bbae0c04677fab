"""Runs at the same time share nothing: two hostile programs judged side by side try to talk, and a run tries to
reach a socket of the machine's.

Same harness and problem as test_containment.py (`Hostile.run` on `hsum`: time 1 s, wall 2 s, cases c1, c2, c3;
a stray process, a judge error or a changed file outside the scratch fails every test), judged with two slots
(-j 2), so c1 and c2 run at the same time in two slots, as in `judge -j 2`, `grade -j 2` or two workers of the
service.

- between runs (hx_between.c): c1 sends on every channel at once for 1.2 s and c2 listens on each: a POSIX, an
  OFD and a flock lock on the program file both runs execute (F_GETLK would report the offset), reads of that
  file watched by inotify, fanotify and dnotify, the other slot's control-group memory counter, an abstract
  local socket, a System V segment, a file in /dev/shm and in /tmp, the sender's entry in /proc, a signal to
  the receiver. Contained (bwrap, rlimits as root with and without control groups): c2 finds nothing, AC on
  every case. With no sandbox (`--sandbox none`, the judge's own trusted programs) every channel carries: the
  receiver is shown to hear each one where it is open, so a contained mode's silence is not a deaf receiver.
  test_as_another_user.py runs the same pair as another user, where only the seccomp and Landlock channels
  are closed.
- sockets of the machine (hx_host_socket.c): the test listens on a stream and a datagram socket file in a
  folder every uid can cross (under /run, which rlimits mode shows: its /tmp is the run's own) and on an
  abstract name. c1 tries to connect or send to each by every call (a local socket, 32-bit calls, datagram
  and stream socket pairs): every attempt fails (exit 63 would be one that got through), socket pairs still
  work (exit 62 if not), and the test's server sees no connection and no datagram. With no sandbox the
  attempts get through and the server sees them.

Safety: the sender signals only processes named hxbetweenrecv (SIGUSR2, which the receiver handles), holds
40 MiB, and removes the System V segment and the files it made; the test removes them too, and closes and
removes its sockets.
"""

from __future__ import annotations

import os
import re
import socket
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from conftest import JudgeRun
from test_containment import _remove_sysv, _tag
from test_hostile import (  # noqa: F401  (fixtures are found by pytest by name)
    CASES,
    HSUM,
    Hostile,
    _expect_accepted,
    _expect_contained,
    _from_template,
    _modes,
    build_caches,
    hostile,
    hostile_references,
)

pytestmark = pytest.mark.slow

CHANNELS = (
    "posix_lock",
    "ofd_lock",
    "flock",
    "inotify",
    "fanotify",
    "dnotify",
    "cgroup",
    "abstract",
    "sysv",
    "posix_shm",
    "tmp",
    "proc",
    "signal",
)  # hx_between.c's NAMES, in its order
WINDOW_MS = 1200  # how long the sender sends and the receiver listens: well inside hsum's 2 s wall limit
FOUND_EXIT, REACHED_EXIT, PAIRS_REFUSED_EXIT = 42, 63, 62


def _with_control(modes: list[Any]) -> list[Any]:
    """The contained modes, and `none` as the control: no sandbox, where every channel is open."""
    return [*modes, pytest.param("none", id="none-control")]


def _found_in(receiver: dict[str, Any]) -> set[str]:
    """The channels the receiver heard the sender on, from its case in the report."""
    seen = re.search(r"found=([a-z_,]*);", receiver["message"] or "")
    return set(seen.group(1).split(",")) - {""} if seen else set()


def _found(run: JudgeRun) -> set[str]:
    """The channels the receiver (c2) heard the sender on."""
    return _found_in(run.case("c2"))


@pytest.mark.parametrize("mode", _with_control(_modes(without_cgroups=True)))
def test_runs_side_by_side_pass_nothing(hostile: Hostile, tmp_path: Path, mode: str) -> None:
    """No bit passes from c1 to c2 running beside it, on any channel; with no sandbox every channel carries."""
    tag = _tag()
    key = 0x49000000 | int(tag[:6], 16)
    program = _from_template(
        "hx_between.c", tmp_path, TAG=tag, KEY=hex(key), WINDOW_MS=str(WINDOW_MS), OFFSET=str(4096 + key % 4096)
    )
    try:
        run = hostile.run(HSUM, program, mode, "hxbetween", jobs=2)
    finally:
        _remove_sysv(key)
        for leftover in (Path("/dev/shm") / f"hxbetween-{tag}", Path("/tmp") / f"hxbetween-{tag}"):
            leftover.unlink(missing_ok=True)
    found = _found(run)
    if mode == "none":
        assert run.case("c2")["exit_code"] == FOUND_EXIT and found == set(CHANNELS), (
            f"with no sandbox the receiver should hear every channel, heard {sorted(found)}\n{run.describe()}"
        )
        return
    _expect_contained(not found, f"channels between runs side by side: {sorted(found)}", run)
    _expect_accepted(run, CASES[HSUM])


@dataclass
class HostSockets:
    """Sockets of the machine's a run must not reach: paths and the abstract name, and what each received."""

    stream: Path
    dgram: Path
    abstract: str
    _listeners: tuple[socket.socket, socket.socket, socket.socket]

    def contacts(self) -> list[str]:
        """Which of the sockets saw a connection or a datagram."""
        seen = []
        stream, dgram, abstract = self._listeners
        for name, listener in (("stream socket file", stream), ("abstract name", abstract)):
            try:
                listener.accept()[0].close()
                seen.append(name)
            except BlockingIOError:
                pass
        try:
            dgram.recv(64)
            seen.append("datagram socket file")
        except BlockingIOError:
            pass
        return seen


@pytest.fixture
def host_sockets() -> Iterator[HostSockets]:
    """A stream and a datagram socket file, writable by all, in a folder under /run every uid can cross (rlimits
    mode shows /run; its /tmp is a fresh one per run), and an abstract name, all listening in this process."""
    if not os.access("/run", os.W_OK):
        pytest.skip("needs a writable /run for a socket every mode's runs could see (run the hostile tests as root)")
    folder = Path(tempfile.mkdtemp(prefix="tilejudge-sockets-", dir="/run"))
    folder.chmod(0o755)
    tag = _tag()
    stream, dgram = folder / "stream", folder / "dgram"
    listeners = (
        socket.socket(socket.AF_UNIX, socket.SOCK_STREAM),
        socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM),
        socket.socket(socket.AF_UNIX, socket.SOCK_STREAM),
    )
    try:
        listeners[0].bind(str(stream))
        listeners[1].bind(str(dgram))
        listeners[2].bind(f"\0hxhostsock-{tag}")
        for listener in (listeners[0], listeners[2]):
            listener.listen(16)
        for path in (stream, dgram):
            path.chmod(0o777)
        for listener in listeners:
            listener.setblocking(False)
        yield HostSockets(stream, dgram, f"hxhostsock-{tag}", listeners)
    finally:
        for listener in listeners:
            listener.close()
        for path in (stream, dgram):
            path.unlink(missing_ok=True)
        folder.rmdir()


@pytest.mark.parametrize("mode", _with_control(_modes(without_cgroups=True)))
def test_no_socket_of_the_machine_is_reached(
    hostile: Hostile, tmp_path: Path, host_sockets: HostSockets, mode: str
) -> None:
    """Connecting or sending to the machine's socket files and abstract names fails by every call, and nothing
    arrives; socket pairs work. With no sandbox the attempts arrive."""
    program = _from_template(
        "hx_host_socket.c",
        tmp_path,
        STREAM=str(host_sockets.stream),
        DGRAM=str(host_sockets.dgram),
        ABSTRACT=host_sockets.abstract,
    )
    run = hostile.run(HSUM, program, mode, "hxhostsock", jobs=1)
    contacts = host_sockets.contacts()
    c1 = run.case("c1")
    if mode == "none":
        assert c1["exit_code"] == REACHED_EXIT and len(contacts) == 3, (
            f"with no sandbox every socket should be reached, got {contacts}\n{run.describe()}"
        )
        return
    _expect_contained(not contacts, f"the machine's sockets saw the run: {contacts}", run)
    _expect_contained(c1["exit_code"] != REACHED_EXIT, "the run reached a socket it did not make", run)
    assert c1["exit_code"] != PAIRS_REFUSED_EXIT, f"socket pairs were refused\n{run.describe()}"
    _expect_accepted(run, CASES[HSUM])
