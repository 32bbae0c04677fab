"""Shadowing another CCS: follow its Contest API event feed, judge each submission here, keep its judgement beside.

What the World Finals do with two contest control systems: the primary takes
the teams' submissions and judges them; the shadow (this site, its own judge and
its own copy of the problems) reads the primary's event feed
(``/api/contests/{id}/event-feed``, ccs-specs 2023-06), fetches each submission's
files (``/submissions/{id}/files``, one zip), queues them here as the same team
(``workflow.accept_shadowed``) and records the primary's judgement and runs
(``store_shadow.py``), so the jury sees every submission whose verdict differs
(``shadow_compare.py``, the staff page ``/staff/shadow``).

The primary is untrusted input: a line of its feed is read no further than
``MAX_LINE``, a zip no further than ``MAX_ZIP`` and unpacked under the limits a
submission has here (``intake.zip_entries``: no path outside itself, no link, no
bomb); what cannot be read is one warning line and the feed goes on. It is
asked through ``shadow_client.py`` (urllib, its own origin only). The feed's
token is stored after each line, so a dropped connection or a restarted
primary is resumed with ``since_token`` exactly where it stopped; a primary
that refuses the token (400, as the spec allows) is read again from the start,
which records nothing twice.
"""

from __future__ import annotations

import http.client
import json
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Callable
from typing import Any, BinaryIO

from ..errors import UsageError
from ..lang import LANGUAGES
from . import store_shadow as records
from .http_errors import ApiError
from .intake import zip_entries
from .limits import MAX_BODY, check_files
from .refusals import Full, Refused, Unavailable
from .shadow_client import Primary, Unreachable
from .site import Site
from .sources import Sources
from .store import Store
from .workflow import accept_shadowed

MAX_LINE = 1 << 20  # a feed line longer than this is skipped with a warning (a submission's event is a few hundred B)
MAX_ZIP = MAX_BODY  # what a submission's zip may be here (the API's body limit)
RETRY_FIRST, RETRY_MOST = 0.5, 10.0  # seconds between tries to reach the primary, doubling
MAX_WAITING_RUNS = 10_000  # runs held for judgements not yet seen, at most
TEXT_MAX = 200  # the longest id, name or type kept from the primary


class Stopped(Exception):
    """The shadow was asked to stop (SIGTERM, Ctrl-C)."""


def _text(value: Any) -> str | None:
    """An id or type from the primary: a string of sensible length, or None."""
    if isinstance(value, int) and not isinstance(value, bool):
        value = str(value)
    return value if isinstance(value, str) and 0 < len(value) <= TEXT_MAX else None


class Shadow:
    """Follows one primary's feed into one site's store; ``say`` gets each warning and notice as one line."""

    def __init__(
        self,
        site: Site,
        store: Store,
        primary: Primary,
        cases: Callable[[str], int],
        say: Callable[[str], None],
    ) -> None:
        self.site, self.store, self.primary = site, store, primary
        self.sources = Sources(site.root)
        self.cases, self.say = cases, say
        self.waiting_runs: dict[str, list[tuple[int, str]]] = {}
        self.lines = 0
        self.down = ""  # why the primary could not be read, while it cannot
        self.pause = RETRY_FIRST  # seconds before the next try, doubling while it stays down
        kept = records.followed(store)
        here = primary.url("")
        if kept is not None and kept[0] != here:
            raise UsageError(f"this site shadows {kept[0]}: a site follows one primary (make another site for {here})")
        records.follow(store, here)

    def run(self, once: bool = False) -> None:
        """Follow the feed: for ever (reconnecting as long as it takes), or with ``once`` until it has been read."""
        while True:
            try:
                self._read(once)
                if once:
                    return
                time.sleep(RETRY_FIRST)  # the primary ended the feed: ask again, but never in a busy loop
            except Unreachable as exc:
                if once:
                    raise UsageError(f"cannot read the primary's feed: {exc}") from None
                if not self.down:
                    self.say(f"warning: the primary is unreachable ({exc}): trying again from the last token")
                self.down = str(exc)
                time.sleep(self.pause)
                self.pause = min(self.pause * 2, RETRY_MOST)

    def _read(self, once: bool) -> None:
        kept = records.followed(self.store)
        token = kept[1] if kept else None
        query = {"stream": "false"} if once else {}
        if token is not None:
            query["since_token"] = token
        try:
            answer = self.primary.open(self.primary.url("/event-feed", query))
        except urllib.error.HTTPError as exc:
            if exc.code == 400 and token is not None:
                self.say(f"warning: the primary refused the token {token}: reading its feed from the start")
                records.keep_token(self.store, None)
                return self._read(once)
            raise UsageError(f"the primary refused its event feed (HTTP {exc.code})") from None
        self.pause = RETRY_FIRST  # it answered: a later drop starts waiting short again
        if self.down:
            self.say(f"the primary answers again: its feed resumed from the token {token}")
            self.down = ""
        with answer:
            self._lines(answer)
        return None

    def _lines(self, answer: BinaryIO) -> None:
        while True:
            try:
                line = answer.readline(MAX_LINE + 1)
            except (OSError, http.client.HTTPException) as exc:
                raise Unreachable(f"the feed broke off: {exc}") from None
            if not line:
                return
            self.lines += 1
            if len(line) > MAX_LINE and not line.endswith(b"\n"):
                self.say(f"warning: feed line {self.lines} is over {MAX_LINE >> 10} KiB: skipped")
                while line and not line.endswith(b"\n"):  # the rest of it, thrown away a piece at a time
                    try:
                        line = answer.readline(MAX_LINE)
                    except (OSError, http.client.HTTPException) as exc:
                        raise Unreachable(f"the feed broke off: {exc}") from None
                continue
            self.line(line)

    def line(self, raw: bytes) -> None:
        """One line of the feed: an event handled and its token kept, or a warning; a blank keep-alive, nothing."""
        if not raw.strip():
            return
        try:
            event = json.loads(raw)
        except (ValueError, UnicodeDecodeError) as exc:
            self.say(f"warning: feed line {self.lines} is not JSON ({exc}): skipped")
            return
        if not isinstance(event, dict) or not isinstance(event.get("type"), str):
            self.say(f"warning: feed line {self.lines} is not an event (no type): skipped")
            return
        data = event.get("data")
        if isinstance(data, list):  # a whole collection at once (id null): each object as its own event
            for found in data:
                if isinstance(found, dict):
                    self._event(event["type"], found)
        elif isinstance(data, dict):
            self._event(event["type"], data)
        token = _text(event.get("token"))
        if token is not None:
            records.keep_token(self.store, token)

    def _event(self, kind: str, data: dict[str, Any]) -> None:
        if kind == "submissions":
            self._submission(data)
        elif kind == "judgements":
            self._judgement(data)
        elif kind == "runs":
            self._run(data)

    def _submission(self, data: dict[str, Any]) -> None:
        ident = _text(data.get("id"))
        if ident is None:
            self.say(f"warning: feed line {self.lines}: a submission without an id: skipped")
            return
        seen = records.known(self.store, ident)
        if seen is not None and (seen["submission_id"] is not None or seen["unmapped"]):
            return  # already copied (a feed read again, or an update of it): judged once here
        described = {key: _text(data.get(key)) or "" for key in ("team_id", "problem_id", "language_id", "time")}
        reason = self._unmapped(described)
        user = records.user_of_team(self.store, described["team_id"]) if not reason else None
        files: list[tuple[str, bytes]] = []
        if not reason:
            try:
                files = self._files(ident, data.get("files"))
            except ValueError as exc:
                reason = f"its files: {exc}"
        if reason or user is None:
            self.say(f"warning: submission {ident} is not judged here: {reason}")
            records.record_submission(self.store, ident, described, None, reason)
            return
        self._submit(ident, described, user, files)

    def _unmapped(self, described: dict[str, str]) -> str:
        """Why the primary's team, problem or language has nothing here ('' when all three are mapped)."""
        team, problem, language = described["team_id"], described["problem_id"], described["language_id"]
        if records.user_of_team(self.store, team) is None:
            return f"no team {team!r} here"
        if problem not in self.site.problems:
            return f"no problem {problem!r} here"
        if language not in LANGUAGES or LANGUAGES[language].name not in self.site.languages:
            return f"no language {language!r} here"
        return ""

    def _files(self, ident: str, files: Any) -> list[tuple[str, bytes]]:
        """The submission's zip, fetched from the primary and unpacked as a submitted zip is; ``ValueError`` says
        why it cannot be (``Unreachable`` when the primary is down: the event is read again once it is back)."""
        entry = files[0] if isinstance(files, list) and len(files) == 1 and isinstance(files[0], dict) else None
        href = _text(entry.get("href")) if entry else None
        if href is None:
            raise ValueError("no files href")
        url = urllib.parse.urljoin(self.primary.api + "/", href)
        try:
            answer = self.primary.open(url, 60)
        except urllib.error.HTTPError as exc:
            raise ValueError(f"the primary answered {exc.code}") from None
        try:
            with answer:
                data = answer.read(MAX_ZIP + 1)
        except (OSError, http.client.HTTPException) as exc:
            raise Unreachable(f"{url}: {exc}") from None
        if len(data) > MAX_ZIP:
            raise ValueError(f"the zip is over {MAX_ZIP >> 20} MiB")
        try:
            entries = zip_entries(data, "files")
            check_files(entries)
        except ApiError as exc:
            raise ValueError(exc.message) from None
        return entries

    def _submit(self, ident: str, described: dict[str, str], user: int, files: list[tuple[str, bytes]]) -> None:
        problem, language = described["problem_id"], described["language_id"]

        def record(db: Any, sid: int) -> None:
            records.record_submission(self.store, ident, described, sid, "", db)

        told = False
        while True:
            try:
                accept_shadowed(
                    self.store, self.sources, self.site, user, problem, language, files, self.cases(problem), record
                )
                return
            except (Full, Unavailable) as exc:  # the feed waits for the queue or the disk (the primary keeps it all)
                if not told:
                    self.say(f"warning: submission {ident} waits: {exc}")
                    told = True
                time.sleep(1.0)
            except Refused as exc:
                self.say(f"warning: submission {ident} is not judged here: {exc}")
                records.record_submission(self.store, ident, described, None, str(exc))
                return

    def _judgement(self, data: dict[str, Any]) -> None:
        ident, submission = _text(data.get("id")), _text(data.get("submission_id"))
        if ident is None or submission is None or data.get("valid") is False:
            return  # no judgement to speak of, or one the primary itself has set aside (DOMjudge's valid: false)
        verdict = _text(data.get("judgement_type_id"))
        records.record_judgement(self.store, submission, ident, verdict)
        for ordinal, kind in self.waiting_runs.pop(ident, []):
            records.record_run(self.store, ident, ordinal, kind)

    def _run(self, data: dict[str, Any]) -> None:
        judgement, kind, ordinal = (
            _text(data.get("judgement_id")),
            _text(data.get("judgement_type_id")),
            data.get("ordinal"),
        )
        if judgement is None or kind is None or not isinstance(ordinal, int) or isinstance(ordinal, bool):
            self.say(f"warning: feed line {self.lines}: a run without a judgement, type or ordinal: skipped")
            return
        if not records.record_run(self.store, judgement, ordinal, kind):  # its judgement has not come yet
            if sum(map(len, self.waiting_runs.values())) < MAX_WAITING_RUNS:
                self.waiting_runs.setdefault(judgement, []).append((ordinal, kind))
