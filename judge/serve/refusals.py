"""The workflow's refusals: what went wrong in the service's own words, with no HTTP status in them.

Each channel maps them to its answer in one function: the API in ``http_errors.api_error``, the pages in
``pages.page_error``, the ICPC Contest API in ``icpc``'s ``_refusal``. A new refusal is a new subclass here and a
line in each of those.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass
class Refused(Exception):
    """The request cannot be done as asked; ``field`` names the value at fault, when one is."""

    message: str
    field: str | None = None

    def __str__(self) -> str:
        return self.message


class NotFound(Refused):
    """No such thing, or one the asker may not see: the two read the same, so existence is not told."""


class Forbidden(Refused):
    """The asker may not do this (their role), though the thing exists and they may know it does."""


class Invalid(Refused):
    """A value the request gave is not acceptable (``field`` says which)."""


@dataclass
class Conflict(Refused):
    """The request is well formed but the service's state refuses it now; ``reason`` is a short word for it
    (``closed``: the contest is not open)."""

    reason: str = "conflict"


@dataclass
class TooMany(Refused):
    """The asker's own rate is spent; ``retry_after`` seconds until it is not."""

    retry_after: int = 60


@dataclass
class Full(Refused):
    """The service's shared capacity (the judging queue) is spent, for everyone; try again in ``retry_after``."""

    retry_after: int = 30


@dataclass
class Unavailable(Refused):
    """The service cannot store now (a full disk, a store that cannot write); nothing was taken."""

    retry_after: int = 60
