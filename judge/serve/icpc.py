"""The ICPC Contest API (ccs-specs 2023-06) under ``/api``: what scoreboard resolvers, the CDS and submit clients read.

Served for a contest site (``kind: contest``); a class has no contest here.
Read endpoints for the contest, the caller's access (``icpc_access.py``), its
state, languages, problems, teams, organizations and groups (``team_ids.py``,
``team_roster.py``), awards (``icpc_awards.py``), judgement types,
submissions (with their files as the spec's zip), judgements, runs and the
scoreboard (clarifications: ``icpc_clarifications.py``; each collection as one account sees it:
``icpc_views.py``); ``POST`` of a submission as a team (or
by the jury for a team: the spec's proxy); the NDJSON event feed, whose
tokens are the event log's ids, so ``since_token`` resumes exactly where a
client stopped (``stream=false`` sends what there is and ends, as DOMjudge
allows). A team sees its own submissions, judgements and runs, everyone
the rest; the jury sees everything (``icpc_views.py``). Accounts log in
with a bearer token or, as these tools do, HTTP Basic with their name and
password; a 401 here challenges for Basic (``app.py``).
"""

from __future__ import annotations

import base64
import binascii
import io
import json
import time
import zipfile
from collections.abc import AsyncIterator
from typing import Any

from starlette.requests import Request
from starlette.responses import Response, StreamingResponse
from starlette.routing import Route

from . import icpc_objects as objects
from . import icpc_views as views
from . import store_submissions as stored
from .access import service_of, still_allowed, viewer
from .board import contest_board, frozen_for, ranked
from .event_stream import HEADERS as STREAM_HEADERS
from .http_errors import ApiError, api_error, bad_request, not_found
from .icpc_access import access as access_of
from .inputs import is_integer, json_object, path_id
from .intake import zip_entries
from .limits import check_files, read_body
from .names import ShownJSON as JSONResponse
from .names import disk_name
from .origin import require_json
from .refusals import Refused
from .service import Service
from .store import User
from .store_accounts import user_by_id
from .workflow import accept_submission

KEEPALIVE = 60.0  # the spec asks for a newline at least every 120 s


def _contest(request: Request) -> tuple[Service, User]:
    service, user = service_of(request), viewer(request)
    if service.site.kind != "contest" or request.path_params["cid"] != objects.contest_id(service):
        raise not_found("contest")
    return service, user


async def info(request: Request) -> Response:
    return JSONResponse(
        {"version": objects.VERSION, "version_url": objects.VERSION_URL, "provider": {"name": "tilejudge"}}
    )


async def contests(request: Request) -> Response:
    service = service_of(request)
    viewer(request)
    return JSONResponse([objects.contest(service)] if service.site.kind == "contest" else [])


async def contest(request: Request) -> Response:
    service, _ = _contest(request)
    return JSONResponse(objects.contest(service))


async def access(request: Request) -> Response:
    service, user = _contest(request)
    return JSONResponse(access_of(service, user))


async def state(request: Request) -> Response:
    service, _ = _contest(request)
    return JSONResponse(objects.state(service, time.time()))


def _listed(service: Service, user: User, kind: str) -> list[dict[str, Any]]:
    found = views.collection(service, user, kind)
    if found is None:
        raise not_found("endpoint")
    return found


async def collection(request: Request) -> Response:
    service, user = _contest(request)
    return JSONResponse(_listed(service, user, request.path_params["kind"]))


async def item(request: Request) -> Response:
    service, user = _contest(request)
    wanted = request.path_params["id"]
    for found in _listed(service, user, request.path_params["kind"]):
        if found["id"] == wanted:
            return JSONResponse(found)
    raise not_found(request.path_params["kind"].rstrip("s"))


async def files(request: Request) -> Response:
    """A submission's files as the zip the spec gives them in (its owner's and the jury's)."""
    service, user = _contest(request)
    row = stored.submission(service.store, _int(request.path_params["id"]))
    if row is None or not (user.staff or row["user_id"] == user.id):
        raise not_found("submission")
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for number, entry in enumerate(json.loads(row["files"])):  # a name an earlier version took may be no file's
            archive.writestr(disk_name(entry["name"], number), service.sources.get(entry["sha256"]))
    return Response(buffer.getvalue(), media_type="application/zip")


def _int(text: str) -> int:
    return path_id(text, "submission")


async def submit(request: Request) -> Response:
    """POST as a team (``team_id`` its own or absent) or, for the jury, on behalf of a team; ``time`` and ``id`` are
    the server's to set."""
    service, user = _contest(request)
    body = await read_body(request.stream(), request.headers.get("content-length"))
    require_json(request)
    data = json_object(body)
    for key in ("id", "time", "contest_time"):
        if key in data:
            raise bad_request(f"{key} is the server's to set", key)
    team = _team(service, user, data.get("team_id"))
    files = data.get("files")
    if not isinstance(files, list) or len(files) != 1 or not isinstance(files[0], dict):
        raise bad_request('files must hold exactly one zip: [{"data": BASE64}]', "files")
    if files[0].get("mime", "application/zip") != "application/zip":
        raise bad_request("the only mime type allowed is application/zip", "files")
    try:
        archive = base64.b64decode(str(files[0].get("data", "")), validate=True)
    except (binascii.Error, ValueError):
        raise bad_request("files[0].data is not base64", "files") from None
    entries = zip_entries(archive, "files")
    check_files(entries)
    for key in ("problem_id", "language_id"):
        if not isinstance(data.get(key), str):
            raise bad_request(f"{key} must be a string", key)
    try:
        sid = accept_submission(service, team, data["problem_id"], data["language_id"], entries)
    except Refused as exc:
        raise _refusal(exc) from None
    row = stored.submission(service.store, sid)
    where = f"/api/contests/{objects.contest_id(service)}/submissions/{sid}"
    return JSONResponse(objects.submission(service, row), status_code=201, headers={"Location": where})


def _refusal(refused: Refused) -> ApiError:
    """The ICPC API's answer to a workflow's refusal, its one mapping: the status and JSON error ``/api/v1`` gives
    (the spec asks a refused submission for a 4xx, and clients read our error shape the same on both)."""
    return api_error(refused)


def _team(service: Service, user: User, team_id: Any) -> User:
    if team_id is None or team_id == objects.team_ids(service).get(user.id):
        return user
    if not user.staff:
        raise ApiError(403, "forbidden", "a team submits as itself", "team_id")
    found = objects.user_of_team(service, str(team_id)) if isinstance(team_id, (str, int)) else None
    team = user_by_id(service.store, found) if found is not None else None
    if team is None:
        raise ApiError(422, "unprocessable", "no such team", "team_id")
    return team


async def scoreboard(request: Request) -> Response:
    """The frozen board (results of submissions made since the freeze pending) for all but the jury, who see it live,
    as the spec asks of the ``public`` role and DOMjudge does for teams."""
    service, user = _contest(request)
    now = time.time()
    board = contest_board(service, frozen_for(service, user, now))
    group = request.query_params.get("group_id")
    if group is not None:  # the spec's group scoreboard: its teams alone, ranked among themselves
        if group not in {found["id"] for found in objects.groups(service)}:
            raise bad_request("group_id names no group of this contest", "group_id")
        members = objects.group_members(service)
        board = ranked([row for row in board if group in members.get(row["user_id"], ())])
    return JSONResponse(objects.scoreboard(service, board, now))


async def event_feed(request: Request) -> Response:
    service, user = _contest(request)
    if "since_id" in request.query_params:  # the 2020 spec's resume point: the spec's check-api.sh wants it refused
        raise bad_request("since_id is not supported: resume with since_token", "since_id")
    token = request.query_params.get("since_token")
    last = service.store.last_event_id()
    if token is not None and (not is_integer(token) or not 0 <= int(token) <= last):
        raise bad_request("since_token is not a token of this feed", "since_token")
    stream = request.query_params.get("stream", "true").lower() != "false"
    types = _types(request.query_params.get("types"))
    return StreamingResponse(  # unbuffered by a proxy (X-Accel-Buffering: no), as the service's other streams
        _feed(request, service, user, int(token) if token else None, stream, types),
        media_type="application/x-ndjson",
        headers=STREAM_HEADERS,
    )


FEED_TYPES = frozenset(
    (
        *("contest", "judgement-types", "languages", "problems", "groups", "organizations", "state", "teams"),
        *("submissions", "judgements", "runs", "awards", "clarifications"),
    )
)
AWARDS_MOVE = frozenset(("state", "submissions", "judgements", "accounts", "groups"))  # log events that may move one
FEED_TYPE_OF = {"accounts": "teams"}  # a log event's type as the feed names it, where the two differ


def _types(text: str | None) -> frozenset[str]:
    """The spec's ``types`` filter (``submissions,judgements``): the feed's types it keeps; all when absent."""
    if text is None:
        return FEED_TYPES
    wanted = frozenset(part.strip() for part in text.split(","))
    if not wanted <= FEED_TYPES:
        raise bad_request(f"types names no type this feed has: {', '.join(sorted(wanted - FEED_TYPES))}", "types")
    return wanted


def _line(kind: str, ident: str | None, data: Any, token: int | None) -> str:
    event = {"type": kind, "id": ident, "data": data}
    if token is not None:
        event["token"] = str(token)
    return json.dumps(event) + "\n"


async def _feed(
    request: Request, service: Service, user: User, since: int | None, stream: bool, types: frozenset[str]
) -> AsyncIterator[str]:
    """The feed's lines for ``user``, of ``types``: what a filter leaves out is skipped, never shown otherwise."""
    if since is None:  # a new client gets every object first, then every change
        if "contest" in types:
            yield _line("contest", None, objects.contest(service), None)
        for kind in ("judgement-types", "languages", "problems", "groups", "organizations"):
            for found in _listed(service, user, kind) if kind in types else ():
                yield _line(kind, found["id"], found, None)
        for found in objects.teams_not_logged(service) if "teams" in types else ():  # made before the log kept them
            yield _line("teams", found["id"], found, None)
        if "state" in types:
            yield _line("state", None, objects.state(service, time.time()), None)
    after, quiet_since = since or 0, time.monotonic()
    awards_sent: dict[str, Any] = {}
    # computed, not logged: sent once caught up (every team they name is known by then) to a new client, or to one that
    # resumes when an event since its token may have moved them
    awards_due = since is None and "awards" in types
    while True:
        ticket = service.bell.ticket()
        if not still_allowed(request) or service.bell.closed:  # the session that opened it ended, or the server stops
            return
        events = service.store.events_after(after)
        for event in events:
            after = event["id"]
            line = _mapped(service, user, event) if FEED_TYPE_OF.get(event["type"], event["type"]) in types else None
            if line is not None:
                quiet_since = time.monotonic()
                yield line
            awards_due = awards_due or ("awards" in types and event["type"] in AWARDS_MOVE)
        if events:
            continue
        if awards_due:  # only the awards that changed since this client's last ones
            for found in _listed(service, user, "awards"):
                if awards_sent.get(found["id"]) != found:
                    awards_sent[found["id"]] = found
                    quiet_since = time.monotonic()
                    yield _line("awards", found["id"], found, None)
            awards_due = False
        if not stream or await request.is_disconnected():
            return
        if time.monotonic() - quiet_since >= KEEPALIVE:
            yield "\n"
            quiet_since = time.monotonic()
        await service.bell.wait(KEEPALIVE, ticket)


def _mapped(service: Service, user: User, event: Any) -> str | None:
    """A log event as a feed line for ``user``, or None (not theirs to see, or nothing the spec has)."""
    data = json.loads(event["data"])
    if event["type"] == "accounts":
        team = objects.team_of(service, data["id"])
        return _line("teams", team["id"], team, event["id"]) if team else None
    if event["type"] in ("organizations", "groups"):  # made by a roster import (team_roster.py)
        kind = event["type"]
        found = next((o for o in _listed(service, user, kind) if o["id"] == data["id"]), None)
        return _line(kind, data["id"], found, event["id"]) if found else None
    if event["type"] == "clarifications":  # to whom it is addressed (icpc_clarifications.py)
        found = objects.clarification(service, user, data["id"])
        return _line("clarifications", found["id"], found, event["id"]) if found else None
    if event["type"] == "state":  # the contest's clock (contest_clock.py): the state as of that moment
        return _line("state", None, objects.state(service, data["time"]), event["id"])
    sid = event["submission_id"]
    row = stored.submission(service.store, sid) if sid else None
    if row is None or not (user.staff or row["user_id"] == user.id):
        return None
    if event["type"] == "submissions":
        return _line("submissions", str(sid), objects.submission(service, row), event["id"])
    if event["type"] == "runs":
        found = views.run_seen(service, user, row, event)
        return _line("runs", found["id"], found, event["id"]) if found else None
    if data.get("state") == "compiling":
        judgement = views.judgement_seen(service, user, row, data["attempt"], event["time"], None)
    elif data.get("state") in ("done", "error"):
        result = stored.result_of_attempt(service.store, sid, data["attempt"])
        if result is None:
            return None
        judgement = views.judgement_seen(service, user, row, data["attempt"], result["started"], result)
    else:
        return None
    return _line("judgements", judgement["id"], judgement, event["id"])


ROUTES = [
    Route("/api", info),
    Route("/api/", info),  # the spec's check-api.sh asks for the base URL with its slash, and follows no redirect
    Route("/api/contests", contests),
    Route("/api/contests/{cid}", contest),
    Route("/api/contests/{cid}/state", state),
    Route("/api/contests/{cid}/access", access),
    Route("/api/contests/{cid}/scoreboard", scoreboard),
    Route("/api/contests/{cid}/event-feed", event_feed),
    Route("/api/contests/{cid}/submissions", submit, methods=["POST"]),
    Route("/api/contests/{cid}/submissions/{id}/files", files),
    Route("/api/contests/{cid}/{kind}", collection),
    Route("/api/contests/{cid}/{kind}/{id}", item),
]
