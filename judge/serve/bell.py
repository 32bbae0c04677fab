"""Waking the requests that wait for news (``?wait=``, server-sent events) when a judging thread commits an event.

The store rings from whatever thread committed; the waiters are coroutines on
the server's event loop, so the ring crosses over with
``call_soon_threadsafe``. A waiter re-reads the store when woken: the bell
says only that something changed, never what.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable

ELSEWHERE_EVERY = 1.0  # seconds between looks for another process's writes to the store


class Bell:
    def __init__(self) -> None:
        self._loop: asyncio.AbstractEventLoop | None = None
        self._waiters: set[asyncio.Future[None]] = set()
        self._rings = 0  # counted on the loop's thread: a waiter that read the store after ticket() misses nothing
        self.closed = False  # the server is stopping: no wait waits, and the loops that wait end (``close``)

    def bind(self, loop: asyncio.AbstractEventLoop) -> None:
        self._loop = loop

    def ring(self) -> None:
        loop = self._loop
        if loop is not None and not loop.is_closed():
            loop.call_soon_threadsafe(self._wake)

    def close(self) -> None:
        """The server stops (SIGTERM, Ctrl-C): every waiter is woken, and each loop that waits on the bell (an event
        stream, an ICPC feed, a ``?wait=``) sees ``closed`` and ends now. Left open, a client's stream held the stop
        for uvicorn's whole graceful timeout and was then cut mid-body; ended here, it ends as a finished answer."""
        self.closed = True
        self.ring()

    def ticket(self) -> int:
        """Taken before reading the store; ``wait(…, ticket)`` then returns at once if a ring came in between."""
        return self._rings

    def _wake(self) -> None:
        self._rings += 1
        waiters, self._waiters = self._waiters, set()
        for waiter in waiters:
            if not waiter.done():
                waiter.set_result(None)

    async def wait(self, timeout: float, ticket: int | None = None) -> None:
        """Until the next ring (or one since ``ticket``) or ``timeout`` seconds, whichever comes first."""
        if self.closed or (ticket is not None and ticket != self._rings):
            return
        waiter = asyncio.get_running_loop().create_future()
        self._waiters.add(waiter)
        try:
            await asyncio.wait_for(waiter, max(0.0, timeout))
        except asyncio.TimeoutError:
            pass
        finally:
            self._waiters.discard(waiter)


async def ring_on(changed: Callable[[], bool], bell: Bell, every: float = ELSEWHERE_EVERY) -> None:
    """Ring ``bell`` whenever ``changed()`` says the store was written by another process (``Store
    .written_elsewhere``): the shadow's records and an account made from the command line reach open streams within
    ``every`` seconds instead of at their next keep-alive. Runs until cancelled."""
    while True:
        await asyncio.sleep(every)
        if await asyncio.to_thread(changed):
            bell.ring()
