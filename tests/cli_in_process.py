"""Running a ``run_judge.py`` command inside the test process, as the process would run it.

A command's start-up (a Python interpreter, the judge's imports) costs a
third of a second, and most tests that drive the CLI check what a command
decides and says, not the process it runs in: a verdict, a report, a message,
an exit code. Those call ``main`` here. What a process would give a command
it gets here too: the repository as its working folder, ``run_judge.py`` as
its name, an empty stdin, stdout and stderr as files at the descriptor level
(so what a child writes to an inherited descriptor is captured as well, and
nothing looks like a terminal), the exit code of ``sys.exit`` and a traceback
on stderr for an exception that escapes ``main``. Everything it touched is put
back afterwards, and a command that leaves a thread or a child process behind
fails the test: such a leak would outlive the command in a real process too,
and here it would reach the next test.

Tests about the process itself (start-up, signals, killing, the interpreter a
fresh venv has, the README's commands) keep running it as a subprocess.
"""

from __future__ import annotations

import io
import os
import signal
import sys
import tempfile
import threading
import time
import traceback
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path
from types import FrameType

import pytest

REPO_ROOT = Path(__file__).resolve().parents[1]
ENTRY = REPO_ROOT / "run_judge.py"
LEAK_GRACE_S = 5.0  # how long a thread or child may take to finish after the command returned


class _Timeout(BaseException):
    """Raised in the main thread when a command outlives its bound: not an ``Exception``, so ``main`` does not turn
    it into a judge error, and every ``with`` on the way out (the slot pools) still closes."""


def run_in_process(args: list[str], timeout: float) -> tuple[int, str, str]:
    """Run ``run_judge.py *args`` by calling ``main``; its exit code, stdout and stderr."""
    from judge.cli.app import main

    assert Path(sys.modules["judge"].__file__ or "").resolve().is_relative_to(REPO_ROOT), (
        "the judge imported here is not this checkout's: run pytest from the repository root"
    )
    threads, children = set(threading.enumerate()), _children()
    with ExitStack() as stack:
        out, err = stack.enter_context(_captured(1)), stack.enter_context(_captured(2))
        stack.enter_context(_process_state(args))
        stack.enter_context(_bounded(timeout, args))
        code = _exit_code(main, args)
    _assert_nothing_left(threads, children, args)
    return code, out.read(), err.read()


def _exit_code(main: object, args: list[str]) -> int:
    """What the interpreter would exit with after ``sys.exit(main(args))``: ``SystemExit``'s code, 1 and a
    traceback on stderr for any other exception."""
    try:
        code = main(args)  # type: ignore[operator]
    except SystemExit as exc:
        code = exc.code
    except Exception:
        traceback.print_exc()
        return 1
    finally:
        sys.stdout.flush()
        sys.stderr.flush()
    if code is None or isinstance(code, int):
        return code or 0
    print(code, file=sys.stderr)
    return 1


class _Capture:
    """One stream's text once the command is done."""

    def __init__(self, file: io.BufferedRandom) -> None:
        self._file = file

    def read(self) -> str:
        """The text, read once: the file is closed then."""
        with self._file:
            self._file.seek(0)
            return self._file.read().decode("utf-8", "surrogateescape")


@contextmanager
def _captured(fd: int) -> Iterator[_Capture]:
    """Descriptor ``fd`` (1 or 2) and its ``sys`` stream go to a file, as into a pipe: same encoding and error
    handler as a subprocess of this interpreter, not a terminal. Both are restored afterwards."""
    name = "stdout" if fd == 1 else "stderr"
    saved_fd, saved_stream, saved_original = os.dup(fd), getattr(sys, name), getattr(sys, f"__{name}__")
    file = tempfile.TemporaryFile()
    os.dup2(file.fileno(), fd)
    errors = "surrogateescape" if fd == 1 else "backslashreplace"
    stream = io.TextIOWrapper(io.FileIO(fd, "w", closefd=False), encoding="utf-8", errors=errors)
    setattr(sys, name, stream)
    setattr(sys, f"__{name}__", stream)
    try:
        yield _Capture(file)  # type: ignore[arg-type]
    finally:
        stream.flush()
        setattr(sys, name, saved_stream)
        setattr(sys, f"__{name}__", saved_original)
        os.dup2(saved_fd, fd)
        os.close(saved_fd)


@contextmanager
def _process_state(args: list[str]) -> Iterator[None]:
    """The working folder, argv and stdin a subprocess started from the repository root would have."""
    cwd, argv, stdin, saved_fd = os.getcwd(), sys.argv, sys.stdin, os.dup(0)
    null = os.open(os.devnull, os.O_RDONLY)
    os.dup2(null, 0)
    os.close(null)
    os.chdir(REPO_ROOT)
    sys.argv = [str(ENTRY), *args]
    sys.stdin = io.TextIOWrapper(io.FileIO(0, "r", closefd=False), encoding="utf-8")
    try:
        yield
    finally:
        os.chdir(cwd)
        sys.argv, sys.stdin = argv, stdin
        os.dup2(saved_fd, 0)
        os.close(saved_fd)


@contextmanager
def _bounded(timeout: float, args: list[str]) -> Iterator[None]:
    """Fail the test when the command hangs: an alarm interrupts the main thread after ``timeout`` seconds."""

    def expire(signum: int, frame: FrameType | None) -> None:
        raise _Timeout

    previous = signal.signal(signal.SIGALRM, expire)
    signal.setitimer(signal.ITIMER_REAL, timeout)
    try:
        yield
    except _Timeout:
        pytest.fail(f"judge did not finish within {timeout} s: run_judge.py {' '.join(args)}")
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def _children() -> set[int]:
    """This process's child processes, from every thread's entry in /proc."""
    found: set[int] = set()
    for task in Path("/proc/self/task").iterdir():
        try:
            found.update(int(pid) for pid in (task / "children").read_text().split())
        except OSError:
            continue
    return found


def _assert_nothing_left(threads: set[threading.Thread], children: set[int], args: list[str]) -> None:
    """No thread and no child process the command started is still there (after a short grace to finish)."""
    deadline = time.monotonic() + LEAK_GRACE_S
    while True:
        new_threads = [t for t in threading.enumerate() if t not in threads and t.is_alive()]
        new_children = _children() - children
        if not (new_threads or new_children) or time.monotonic() > deadline:
            break
        time.sleep(0.01)
    assert not new_threads and not new_children, (
        f"run_judge.py {' '.join(args)} left threads {[t.name for t in new_threads]} "
        f"and child processes {sorted(new_children)} behind"
    )
