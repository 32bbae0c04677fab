"""Each phase of a judging as it ends, with its wall and CPU time: what ``-v`` prints.

A judging that takes ten minutes where it took fifteen seconds the day before
must say where the time went while it goes: building the submission and the
problem's programs, the test data, inferring a time limit, each case. A phase
is reported when it ends, with its wall time and its CPU time: the judge's own
(every thread, and any child it waited for) plus that of the runs the
launchers reported meanwhile (a run's processes are a launcher's children,
never the judge's, until the judge reaps the launcher: from then on they are
in its children's time, and counted there alone). Phases that overlap (cases at ``-j 2``) each count what
ran beside them; a case's own line gives its run's figures.

Nothing is measured unless someone listens (``listening``): judging without
``-v`` pays one list lookup per phase.
"""

from __future__ import annotations

import functools
import os
import resource
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any, TypeVar

from ..text import safe_text

if TYPE_CHECKING:
    from .verdicts import CaseResult

F = TypeVar("F", bound=Callable[..., Any])

_lock = threading.Lock()
_listeners: list[Callable[[str], None]] = []


@contextmanager
def listening(listener: Callable[[str], None]) -> Iterator[None]:
    """``listener`` hears one line per phase as it ends, while the block runs."""
    with _lock:
        _listeners.append(listener)
    try:
        yield
    finally:
        with _lock:
            _listeners.remove(listener)


def _tell(line: str) -> None:
    with _lock:
        listeners = list(_listeners)
    for listener in listeners:
        listener(line)


def _cpu() -> float:
    from ..run import runs_cpu  # here: judging without -v never needs it

    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return time.process_time() + children.ru_utime + children.ru_stime + runs_cpu()


@contextmanager
def phase(name: str) -> Iterator[None]:
    """Measure the block as the phase ``name``, reported when it ends (also when it fails, marked so)."""
    if not _listeners:
        yield
        return
    wall, cpu = time.monotonic(), _cpu()
    ended = "failed: "
    try:
        yield
        ended = ""
    finally:
        _tell(f"phase {ended}{name}: {time.monotonic() - wall:.2f} s wall, {max(0.0, _cpu() - cpu):.2f} s CPU")


def measured(name: Callable[..., str]) -> Callable[[F], F]:
    """A function measured as one phase, named by ``name`` from its arguments, whenever anyone listens."""

    def wrap(func: F) -> F:
        @functools.wraps(func)
        def inner(*args: Any, **kwargs: Any) -> Any:
            if not _listeners:
                return func(*args, **kwargs)
            with phase(name(*args, **kwargs)):
                return func(*args, **kwargs)

        return inner  # type: ignore[return-value]

    return wrap


def case_ended(result: CaseResult) -> None:
    """A case's final result (after any run alone that confirmed it): its verdict, its run's wall and CPU time."""
    if _listeners:
        waited = f", {result.waited:.2f} s waiting for a CPU" if result.waited >= 0.01 else ""
        figures = f"{result.wall_time:.2f} s wall, {result.time:.2f} s CPU{waited}"
        _tell(f"case {safe_text(result.name, one_line=True)}: {result.verdict.value}, {figures}")


def hearing(on_case: Callable[[CaseResult], None] | None) -> Callable[[CaseResult], None] | None:
    """``on_case`` with each case's line told first, when anyone listens; else ``on_case`` itself."""
    if not _listeners:
        return on_case

    def both(result: CaseResult) -> None:
        case_ended(result)
        if on_case is not None:
            on_case(result)

    return both


def named(path: os.PathLike[str] | str) -> str:
    """How a phase names a file: its folder and name, enough to tell a package's submissions apart; a student's file
    name is untrusted text, shown with its control characters escaped."""
    text = os.fspath(path)
    parts = text.rstrip("/").split("/")
    return safe_text("/".join(parts[-2:]), one_line=True)
