"""Connections bounded in time and per address, where uvicorn accepts them, so that file descriptors cannot be drained.

uvicorn bounds nothing before a request's head is parsed: a connection that
sends nothing, or a head one byte at a time, stayed open for as long as its
client liked, and its keep-alive timeout only starts once a response has
ended. ``guarded`` wraps uvicorn's HTTP protocol class (the ``http`` class of
its config) with three rules, checked by one timer per connection:

- the request head must arrive within ``head_timeout`` seconds of the
  connection's start, or of the end of the response before it (a whole
  head, however slowly dribbled: the bound is on its end, not on a gap);
- while a request's body is still coming, no gap between two reads may
  last ``head_timeout`` (a body half sent and then left);
- one client address (an IPv6 /64 as one, as ``throttle.place_of`` counts)
  holds at most ``per_address`` open connections; the next one is closed
  at once, before anything of it is read.

A request whose head and body are in is the application's from then on, so a
server-sent event stream (a finished head, and long-lived) is never cut by
these rules. A reverse proxy named with ``--proxy`` is exempt from the count
(every client behind it shares its address): the proxy bounds its own
clients (``limit_conn``, ``client_header_timeout``, docs/serve.md).
"""

from __future__ import annotations

import asyncio
import ipaddress
from collections import Counter
from dataclasses import dataclass
from typing import Any

from .throttle import place_of

HEAD_TIMEOUT = 30.0
PER_ADDRESS = 128  # a classroom behind one NAT: a live page or two per student, each one long-lived stream


@dataclass(frozen=True)
class Bounds:
    """The bounds of every connection: the head's time, the longest gap in a body, connections per address, and
    the addresses (``--proxy``) whose connections are not counted."""

    head_timeout: float = HEAD_TIMEOUT
    per_address: int = PER_ADDRESS
    exempt: tuple[str, ...] = ()

    def counts(self, host: str) -> bool:
        """Whether connections from ``host`` are counted against the per-address bound (a named proxy's are not)."""
        try:
            ip = ipaddress.ip_address(host)
        except ValueError:
            return True  # not an IP (a Unix socket's peer): counted under its own name
        for proxy in self.exempt:
            if proxy == "*":
                return False
            try:
                if ip in ipaddress.ip_network(proxy, strict=False):
                    return False
            except ValueError:
                continue
        return True


def guarded(base: type[asyncio.Protocol], bounds: Bounds) -> type[asyncio.Protocol]:
    """``base`` (uvicorn's HTTP protocol) with the bounds of the module's docstring; one open count per server."""
    open_from: Counter[str] = Counter()

    class Guarded(base):  # type: ignore[valid-type,misc]
        _place: str | None = None
        _timer: asyncio.TimerHandle | None = None
        _waiting_since = 0.0  # when the wait for the next head began
        _last_read = 0.0

        def connection_made(self, transport: Any) -> None:
            super().connection_made(transport)
            peer = transport.get_extra_info("peername")
            host = str(peer[0]) if isinstance(peer, tuple) and peer else ""
            if host and bounds.counts(host):
                place = place_of(host)
                if open_from[place] >= bounds.per_address:
                    transport.close()  # nothing of it was read; the client sees the connection end
                    return
                open_from[place] += 1
                self._place = place
            self._await_head()

        def connection_lost(self, exc: Exception | None) -> None:
            self._stop_timer()
            if self._place is not None:
                open_from[self._place] -= 1
                if open_from[self._place] <= 0:
                    del open_from[self._place]
                self._place = None
            super().connection_lost(exc)

        def data_received(self, data: bytes) -> None:
            self._last_read = self.loop.time()
            super().data_received(data)

        def on_response_complete(self) -> None:
            super().on_response_complete()
            if not self.transport.is_closing():
                self._await_head()

        def _await_head(self) -> None:
            self._waiting_since = self._last_read = self.loop.time()
            self._arm(self._waiting_since + bounds.head_timeout)

        def _arm(self, when: float) -> None:
            self._stop_timer()
            self._timer = self.loop.call_at(when, self._check)

        def _stop_timer(self) -> None:
            if self._timer is not None:
                self._timer.cancel()
                self._timer = None

        def _check(self) -> None:
            """The timer's rule: no request under way, the head is late; a body under way, its last read is."""
            self._timer = None
            cycle = getattr(self, "cycle", None)
            if cycle is None or cycle.response_complete:
                deadline = self._waiting_since + bounds.head_timeout
            elif cycle.more_body:
                deadline = self._last_read + bounds.head_timeout
            else:
                return  # head and body in: the application's until its response ends (an event stream may be long)
            if self.loop.time() >= deadline:
                self.transport.abort()  # whatever is still buffered is for a client that stopped reading
            else:
                self._arm(deadline)

    Guarded.__name__ = Guarded.__qualname__ = f"Guarded{base.__name__}"
    return Guarded
