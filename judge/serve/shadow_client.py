"""The primary's Contest API as a client sees it (``shadow.py``): who we are, where its contest is, one GET at a time.

The standard library's ``urllib`` is the client: the feed is one long GET read
line by line and the files a GET each, which it does well enough, and it keeps
``shadow`` free of any package the judge does not already need (httpx is only a
development dependency here). The credentials (HTTP Basic, as the spec's
clients log in) come from a file or the environment, never the command line,
where every user of the machine can read them; they are sent to the primary's
own address alone: a URL on another host is refused before it is asked, and
redirects are not followed (``urllib`` would carry the Authorization header
along to wherever one points).
"""

from __future__ import annotations

import base64
import http.client
import json
import os
import urllib.error
import urllib.parse
import urllib.request
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..errors import UsageError

READ_TIMEOUT = 150.0  # seconds without a byte before the feed is taken for dead (the spec keeps it alive every 120 s)
CREDENTIALS_ENV = "TILEJUDGE_SHADOW_CREDENTIALS"
LIST_MAX = 1 << 20  # the most of the primary's list of contests read


class Unreachable(Exception):
    """The primary cannot be read now (down, restarting, the connection dropped): try again from the last token."""

    def __init__(self, message: str, status: int | None = None) -> None:
        super().__init__(message)
        self.status = status  # the HTTP status it answered with, if it answered


def credentials(file: Path | None) -> str:
    """The ``Authorization`` header: ``NAME:PASSWORD`` from the file's first line, else from the environment, never
    from the command line (where every user of the machine can read it)."""
    if file is not None:
        try:
            text = file.read_text(encoding="utf-8").splitlines()[0:1]
        except (OSError, UnicodeDecodeError) as exc:
            raise UsageError(f"{file}: cannot read the credentials: {exc}") from None
        pair = text[0].strip() if text else ""
        where = str(file)
    else:
        pair, where = os.environ.get(CREDENTIALS_ENV, "").strip(), f"${CREDENTIALS_ENV}"
        if not pair:
            raise UsageError(f"no credentials: give --credentials FILE or set {CREDENTIALS_ENV} (NAME:PASSWORD)")
    if ":" not in pair or not pair.split(":", 1)[0]:
        raise UsageError(f"{where}: the credentials must be NAME:PASSWORD")
    return "Basic " + base64.b64encode(pair.encode()).decode()


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args: Any, **kwargs: Any) -> None:  # a 3xx is answered as the error it is here
        return None


_OPENER = urllib.request.build_opener(_NoRedirect)


@dataclass(frozen=True)
class Primary:
    """The primary's Contest API: its base (``http://host/api``), the contest followed, the header that logs in."""

    api: str
    contest: str
    authorization: str

    def url(self, path: str, query: dict[str, str] | None = None) -> str:
        where = f"{self.api}/contests/{urllib.parse.quote(self.contest, safe='')}{path}"
        return where + ("?" + urllib.parse.urlencode(query) if query else "")

    def open(self, url: str, timeout: float = READ_TIMEOUT) -> http.client.HTTPResponse:
        """A GET of ``url`` (on the primary's own origin only), its answer open; ``Unreachable`` when it cannot be
        had now, ``UsageError`` when the primary refuses who we are."""
        if _origin(url) != _origin(self.api):
            raise ValueError(f"{url} is not on the primary ({_origin(self.api)})")
        request = urllib.request.Request(url, headers={"Authorization": self.authorization, "Accept": "*/*"})
        try:
            return _OPENER.open(request, timeout=timeout)  # type: ignore[no-any-return]
        except urllib.error.HTTPError as exc:
            exc.close()
            if exc.code in (401, 403):
                raise UsageError(f"the primary refused the credentials ({exc.code}) at {url}") from None
            if exc.code >= 500 or exc.code in (404, 408, 429):  # a primary restarting may not know the contest yet
                raise Unreachable(f"{url}: HTTP {exc.code}", exc.code) from None
            raise
        except (urllib.error.URLError, OSError, http.client.HTTPException) as exc:
            raise Unreachable(f"{url}: {getattr(exc, 'reason', exc)}") from None


def _origin(url: str) -> tuple[str, str]:
    parts = urllib.parse.urlsplit(url)
    return parts.scheme.lower(), parts.netloc.lower()


def locate(url: str, authorization: str) -> Primary:
    """The contest ``url`` names: ``http://host/api/contests/ID``, or the API's base (``http://host/api``) of a
    primary that holds exactly one contest."""
    parts = urllib.parse.urlsplit(url.rstrip("/"))
    if parts.scheme not in ("http", "https") or not parts.netloc:
        raise UsageError(f"{url}: not an http(s) URL of a Contest API")
    path = parts.path
    base = urllib.parse.urlunsplit((parts.scheme, parts.netloc, "", "", ""))
    if "/contests/" in path:
        api, _, contest = path.rpartition("/contests/")
        if not contest or "/" in contest:
            raise UsageError(f"{url}: name the contest as .../contests/ID")
        primary = Primary(base + api, urllib.parse.unquote(contest), authorization)
        try:
            primary.open(primary.url(""), 30).close()
        except Unreachable as exc:  # down now: the follower says so and keeps trying; a contest it lacks is an error
            if exc.status == 404:
                raise UsageError(f"{url}: the primary has no such contest") from None
        except urllib.error.HTTPError as exc:
            raise UsageError(f"{url}: the primary answered {exc.code}") from None
        return primary
    probe = Primary(base + path, "", authorization)
    try:
        with probe.open(probe.api + "/contests", 30) as answer:
            found = json.loads(answer.read(LIST_MAX))
    except Unreachable as exc:
        raise UsageError(f"cannot reach the primary: {exc}") from None
    except (urllib.error.HTTPError, ValueError) as exc:
        raise UsageError(f"{url}/contests is not a Contest API's list of contests: {exc}") from None
    ids = [c.get("id") for c in found if isinstance(c, dict)] if isinstance(found, list) else []
    if len(ids) != 1 or not isinstance(ids[0], str):
        raise UsageError(f"{url} holds {len(ids)} contests ({', '.join(map(str, ids))}): name one as .../contests/ID")
    return Primary(probe.api, ids[0], authorization)
