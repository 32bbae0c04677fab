"""Password guessing slowed down: failed log-ins per account and per client address, with exponential back-off.

argon2 makes each guess cost the server tens of milliseconds, which still
lets one client try tens of thousands of passwords a day. So every log-in
that takes a password (the pages' form, ``POST /api/v1/login``, HTTP Basic)
asks here first. An account may fail ``ACCOUNT_FREE`` times, an address (a
classroom behind one NAT shares one; an IPv6 /64 counts as one)
``ADDRESS_FREE`` times; past that each
further attempt waits 1 s, then 2, 4, … up to ``LONGEST_WAIT`` after the last
failure, and an attempt that comes sooner is refused without checking its
password (429 and ``Retry-After``). The counts are kept for every name tried,
known or not, so a refusal says nothing of whether an account exists.

An attempt counts as failed from the moment it is let through until its
password is found right: a burst of parallel guesses cannot all pass before
the first failure is noted. A success clears its account's count and, from
its address's count, that account's own failures only: an attacker who holds
one account cannot clear the failures of the others they guessed.

The counts live in memory, not in the store: a flood of bad log-ins must not
become a flood of writes beside the judging's transactions, and a restart
clearing them (it takes an administrator) gives a guesser a few more tries
at most. Each table keeps at most ``MAX_KEYS`` entries, the stalest dropped
first, and forgets one left alone for ``FORGET`` seconds.
"""

from __future__ import annotations

import ipaddress
import math
import threading
import time
from collections import Counter, OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field

from .auth import login
from .http_errors import ApiError
from .store import Store, User

ACCOUNT_FREE = 5
ADDRESS_FREE = 30
FIRST_WAIT = 1.0
LONGEST_WAIT = 900.0
FORGET = 3600.0
MAX_KEYS = 10_000
MAX_NAMES = 64  # names an address's count keeps apart (its back-off lets few more through in FORGET); beyond, pooled
POOLED = None


@dataclass
class _Count:
    last: float
    failures: Counter[str | None] = field(default_factory=Counter)

    def total(self) -> int:
        return sum(self.failures.values())


def wait_after(failures: int, free: int) -> float:
    """Seconds an attempt must come after the last failure, once ``failures`` attempts have failed."""
    if failures < free:
        return 0.0
    return min(LONGEST_WAIT, FIRST_WAIT * 2.0 ** min(failures - free, 32))


def place_of(address: str) -> str:
    """What an address is counted as: itself, or for IPv6 its /64, the least one machine is given (so that it
    cannot take a fresh address for each guess)."""
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return address
    if isinstance(ip, ipaddress.IPv6Address):
        mapped = ip.ipv4_mapped
        return str(mapped) if mapped else str(ipaddress.ip_network(f"{ip}/64", strict=False))
    return str(ip)


class Throttle:
    """The failure counts of one server; ``clock`` is monotonic seconds (a test moves its own)."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self._clock = clock
        self._lock = threading.Lock()
        self._accounts: OrderedDict[str, _Count] = OrderedDict()
        self._addresses: OrderedDict[str, _Count] = OrderedDict()

    def begin(self, name: str, address: str) -> int:
        """0 when an attempt may check its password (it counts as failed until ``succeeded``), else the whole
        seconds to wait, and nothing is counted."""
        address = place_of(address)
        with self._lock:
            now = self._clock()
            account, place = self._get(self._accounts, name, now), self._get(self._addresses, address, now)
            ready = max(
                account.last + wait_after(account.total(), ACCOUNT_FREE) if account else now,
                place.last + wait_after(place.total(), ADDRESS_FREE) if place else now,
            )
            if ready > now:
                return max(1, math.ceil(ready - now))
            self._failed(self._accounts, name, name, now)
            self._failed(self._addresses, address, name, now)
            return 0

    def succeeded(self, name: str, address: str) -> None:
        address = place_of(address)
        with self._lock:
            self._accounts.pop(name, None)
            place = self._addresses.get(address)
            if place is not None:
                place.failures.pop(name, None)
                if not place.failures:
                    del self._addresses[address]

    def _get(self, table: OrderedDict[str, _Count], key: str, now: float) -> _Count | None:
        found = table.get(key)
        if found is not None and now - found.last > FORGET:
            del table[key]
            return None
        return found

    def _failed(self, table: OrderedDict[str, _Count], key: str, name: str, now: float) -> None:
        found = table.get(key)
        if found is None:
            while table and (len(table) >= MAX_KEYS or now - next(iter(table.values())).last > FORGET):
                table.popitem(last=False)  # the stalest first: the table is in the order of last failures
            found = table[key] = _Count(now)
        table.move_to_end(key)
        found.last = now
        counted = name if name in found.failures or len(found.failures) < MAX_NAMES else POOLED
        found.failures[counted] += 1


def checked_login(store: Store, throttle: Throttle, name: str, password: str, address: str) -> User | None:
    """``auth.login`` behind the throttle: the account, None for a wrong name or password, or a 429 (the same for
    every name) when this account or this address must wait."""
    wait = throttle.begin(name, address)
    if wait:
        raise ApiError(429, "throttled", f"too many failed log-ins: try again in {wait} s", retry_after=wait)
    user = login(store, name, password)
    if user is not None:
        throttle.succeeded(name, address)
    return user
