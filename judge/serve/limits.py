"""The limits a submission must keep (sizes, counts, a zip's contents) and the per-user rate, before anything is stored.

Sizes are the issue's: a file up to 256 KiB, at most 20 files, a body up to
2 MiB (a page's form over it is read up to 8 MiB, and thrown away, to answer
it), a zip up to 4 MiB unpacked (its declared sizes are not trusted: what is
read is counted). A user may make ``per_minute`` submissions in any 60
seconds, counted in the store so a restart does not reset it; the answer
beyond that says when the oldest one leaves the window (``Retry-After``).
"""

from __future__ import annotations

import math
import time
from collections.abc import AsyncIterator

from .http_errors import ApiError, too_large
from .store import Transaction
from .store_submissions import submitted_since

MAX_BODY = 2 << 20
DRAIN_MAX = 4 * MAX_BODY  # the most of an oversized page form read (and thrown away) to answer it
MAX_FILE = 256 << 10
MAX_FILES = 20
MAX_UNZIPPED = 4 << 20
WINDOW = 60.0


async def read_body(stream: AsyncIterator[bytes], declared: str | None, drain: bool = False) -> bytes:
    """The request's body, refused (413) once it is known to pass ``MAX_BODY``.

    The API refuses at once, by the Content-Length before reading, else while
    reading, and its connection ends with the answer. A page's form
    (``drain``) is read to its end first and thrown away, when it ends within
    ``DRAIN_MAX`` bytes: a browser shows no answer before it has sent its
    whole upload (a connection error instead), and the page's message is the
    point of the answer. A longer one is refused at once too, so no client
    makes the server read without end.
    """
    most = DRAIN_MAX if drain else MAX_BODY
    if declared is not None and declared.isascii() and declared.isdigit() and int(declared) > most:
        raise _over(close=True)
    chunks, size = [], 0
    async for chunk in stream:
        size += len(chunk)
        if size > most:
            raise _over(close=True)
        if size <= MAX_BODY:
            chunks.append(chunk)
    if size > MAX_BODY:
        raise _over(close=False)  # read to its end: the connection may carry the next request
    return b"".join(chunks)


def _over(close: bool) -> ApiError:
    return too_large(f"the request body is over {MAX_BODY >> 20} MiB", close=close)


def check_files(files: list[tuple[str, bytes]]) -> None:
    if len(files) > MAX_FILES:
        raise too_large(f"{len(files)} files: at most {MAX_FILES} may be submitted", "files")
    for number, (_, data) in enumerate(files):
        if len(data) > MAX_FILE:
            raise too_large(f"a file is over {MAX_FILE >> 10} KiB", f"files[{number}]")


def rate_wait(db: Transaction, user: int, per_minute: int) -> int | None:
    """The seconds until ``user`` may submit again when they made ``per_minute`` submissions in the last minute;
    None when they may now. The workflow refuses with it (``workflow.TooMany``), each channel says it its way."""
    since = time.time() - WINDOW
    times = submitted_since(db, user, since, per_minute)
    if len(times) >= per_minute:
        return max(1, math.ceil(times[-1] - since))
    return None
