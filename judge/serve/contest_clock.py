"""A contest's clock in the event log: its start, its board's freeze and its end logged as ``state`` events.

Why in the log rather than made up by each feed: the ICPC event feed must
send a ``state`` event when the contest starts, freezes and ends, and a
reader that was away at that moment and comes back with ``since_token`` must
still get it, which only an event with a token of its own gives. A moment
that passed while the server was down is logged when it starts again (once:
the log is read for what it already has), in the order of the moments.
"""

from __future__ import annotations

import asyncio
import json
import time

from .icpc_objects import moments
from .service import Service

LONGEST_SLEEP = 3600.0  # a moment far ahead is checked again at least this often (the system clock may be set)


def logged_moments(service: Service) -> set[str]:
    rows = service.store.events_of_type("state")
    return {str(json.loads(row["data"]).get("moment")) for row in rows}


def log_due(service: Service, now: float) -> list[str]:
    """Log every moment of the contest at or before ``now`` that the log does not have yet; the ones logged."""
    due = sorted((at, name) for name, at in moments(service).items() if at <= now)
    done = logged_moments(service)
    fresh = [(at, name) for at, name in due if name not in done]
    if fresh:
        with service.store.tx() as db:
            for at, name in fresh:
                service.store.event(db, "state", "update", {"moment": name, "time": at}, None, None)
    return [name for _, name in fresh]


async def keep(service: Service) -> None:
    """Log each moment as it comes, for as long as the server runs (cancelled when it stops)."""
    while True:
        now = time.time()
        log_due(service, now)
        ahead = [at for at in moments(service).values() if at > now]
        if not ahead:
            return
        await asyncio.sleep(min(min(ahead) - now, LONGEST_SLEEP))
