"""Password guessing slowed down: failed log-ins per account and address, and per address, with exponential back-off;
and the password checks themselves bounded, since each one costs the server argon2's 64 MiB.

argon2 makes each guess cost the server tens of milliseconds, which still
lets one client try tens of thousands of passwords a day. So every log-in
that takes a password (the pages' form, ``POST /api/v1/login``, HTTP Basic)
asks here first. An account may fail ``ACCOUNT_FREE`` times from one address,
and an address (a classroom behind one NAT shares one; an IPv6 /64 counts as
one) ``ADDRESS_FREE`` times in all; past that each further attempt from there
waits 1 s, then 2, 4, … up to ``LONGEST_WAIT`` after the last failure, and an
attempt that comes sooner is refused without checking its password (429 and
``Retry-After``). An account's failures are counted per address, not across
them: a guesser elsewhere must not be able to keep the owner out, so the
owner's right password from an address with no failures is always checked.
The counts are kept for every name tried, known or not, so a refusal says
nothing of whether an account exists; a name longer than ``MAX_NAME`` (no
account has one) or a password longer than ``MAX_PASSWORD`` is wrong without
being kept or hashed, so no request makes the tables hold megabytes.

An attempt counts as failed from the moment it is let through until its
password is found right: a burst of parallel guesses cannot all pass before
the first failure is noted. A success clears its account's count from its
address and, from its address's count, that account's own failures only: an
attacker who holds one account cannot clear the failures of the others they
guessed.

At most ``CHECKS`` passwords are checked at once (``Checks``): argon2id takes
64 MiB for each, so a burst of parallel wrong log-ins from many addresses
would otherwise cost the server that much per request. An attempt that finds
no free check within ``CHECK_WAIT`` seconds is answered 429 (``busy``) and
stays counted as failed.

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
from collections.abc import Callable, Hashable
from dataclasses import dataclass, field
from typing import Any, TypeVar

from .auth import MAX_NAME, MAX_PASSWORD, login
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
T = TypeVar("T")
CHECKS = 2  # argon2 checks at once: 128 MiB at most (a 2-core machine runs no more than 2 at full speed anyway)
CHECK_WAIT = 10.0  # seconds an attempt waits for a free check before it is told to come back


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
        self._accounts: OrderedDict[Hashable, _Count] = OrderedDict()  # by (name, address): see the module
        self._addresses: OrderedDict[Hashable, _Count] = OrderedDict()

    def begin(self, name: str, address: str) -> int:
        """0 when an attempt may check its password (it counts as failed until ``succeeded``), else the whole
        seconds to wait, and nothing is counted."""
        address = place_of(address)
        with self._lock:
            now = self._clock()
            key = (name, address)
            account, place = self._get(self._accounts, key, now), self._get(self._addresses, address, now)
            ready = max(
                account.last + wait_after(account.total(), ACCOUNT_FREE) if account else now,
                place.last + wait_after(place.total(), ADDRESS_FREE) if place else now,
            )
            if ready > now:
                return max(1, math.ceil(ready - now))
            self._failed(self._accounts, key, name, now)
            self._failed(self._addresses, address, name, now)
            return 0

    def succeeded(self, name: str, address: str) -> None:
        address = place_of(address)
        with self._lock:
            self._accounts.pop((name, address), None)
            place = self._addresses.get(address)
            if place is not None:
                place.failures.pop(name, None)
                if not place.failures:
                    del self._addresses[address]

    def _get(self, table: OrderedDict[Hashable, _Count], key: Hashable, now: float) -> _Count | None:
        found = table.get(key)
        if found is not None and now - found.last > FORGET:
            del table[key]
            return None
        return found

    def _failed(self, table: OrderedDict[Hashable, _Count], key: Hashable, name: str, now: float) -> None:
        found = table.get(key)
        if found is None:
            while table and (len(table) >= MAX_KEYS or now - next(iter(table.values())).last > FORGET):
                table.popitem(last=False)  # the stalest first: the table is in the order of last failures
            found = table[key] = _Count(now)
        table.move_to_end(key)
        found.last = now
        counted = name if name in found.failures or len(found.failures) < MAX_NAMES else POOLED
        found.failures[counted] += 1


class Checks:
    """The password checks running now, at most ``CHECKS``; ``CHECK_WAIT`` seconds is the longest an attempt waits."""

    def __init__(self, most: int = CHECKS, wait: float = CHECK_WAIT) -> None:
        self._free = threading.BoundedSemaphore(most)
        self._wait = wait

    def run(self, work: Callable[..., T], *arguments: Any) -> T:
        """``work`` (an argon2 check or hash) once a check is free; a 429 (``busy``) after ``CHECK_WAIT`` s."""
        if not self._free.acquire(timeout=self._wait):
            wait = max(1, math.ceil(self._wait))
            raise ApiError(429, "busy", f"too many log-ins at once: try again in {wait} s", retry_after=wait)
        try:
            return work(*arguments)
        finally:
            self._free.release()


CHECKED = Checks()  # one per process: what it bounds is this process's memory


def checked_login(store: Store, throttle: Throttle, name: str, password: str, address: str) -> User | None:
    """``auth.login`` behind the throttle and the bound on checks at once: the account, None for a wrong name or
    password, or a 429 (the same for every name) when this account or this address must wait, or too many checks
    run. A name or password over its cap is wrong at once: nothing is kept of it and nothing is hashed."""
    if len(name) > MAX_NAME or len(password) > MAX_PASSWORD:
        return None
    wait = throttle.begin(name, address)
    if wait:
        raise ApiError(429, "throttled", f"too many failed log-ins: try again in {wait} s", retry_after=wait)
    user = CHECKED.run(login, store, name, password)
    if user is not None:
        throttle.succeeded(name, address)
    return user
