"""The ICPC Contest API spec (ccs-specs 2023-06) as the tests check our answers against it.

With ``CCS_SPECS`` naming a checkout of the spec (``git clone -b 2023-06 https://github.com/icpc/ccs-specs``, or a
clone of a local mirror: nothing is fetched here) every answer is validated against the spec's own JSON schemas,
read from that checkout and never copied into the project; ``strict`` adds ``additionalProperties: false`` where
the schemas mark it (``ANCHOR_TO_INSERT_REQUIRE_STRICT_PROPERTIES``), as the spec's ``check-api.sh`` does unless
told ``-p``. Without a checkout the shapes are checked: each object's required properties and time formats.

``check_api`` makes the requests ``check-api.sh`` makes (the API information, the contests, each endpoint of each
contest, the event feed, and with ``-e`` the requests that must fail) and also every endpoint we serve that the
script does not name, so an endpoint added to our routes is validated the day it is served, or the check fails
because no schema covers it.
"""

from __future__ import annotations

import io
import json
import os
import re
import zipfile
from collections.abc import Callable
from dataclasses import dataclass, field
from decimal import Decimal
from pathlib import Path
from typing import Any

import httpx

ABSTIME = (
    r"^[12][0-9]{3}-[01][0-9]-[0-3][0-9]T[0-2][0-9]:[0-6][0-9]:[0-6][0-9](\.[0-9]{3})?([+-][0-1][0-9](:[0-5][0-9])?|Z)$"
)
ABSTIME_KEYS = {"time", "start_time", "end_time", "started", "ended", "frozen", "thawed", "finalized", "end_of_updates"}
RELTIME = r"^-?([1-9][0-9]*)?[0-9]:[0-5][0-9]:[0-5][0-9](\.[0-9]{3})?$"

# check-api.sh's request list (2023-06), in its order: every endpoint of a contest ("contests": the contest itself),
# those it lets be absent, and the requests that must fail with the status each expects.
CHECK_API_ENDPOINTS = (
    "contests",
    "access",
    "judgement-types",
    "languages",
    "problems",
    "groups",
    "organizations",
    "persons",
    "accounts",
    "teams",
    "state",
    "submissions",
    "judgements",
    "runs",
    "clarifications",
    "awards",
    "commentary",
    "scoreboard",
)
CHECK_API_OPTIONAL = frozenset({"persons", "accounts", "awards", "commentary"})
CHECK_API_TO_FAIL = (
    (404, "doesnt-exist"),
    (404, "doesnt-exist/42"),
    (404, "submissions/999999"),
    (404, "submissions/xyz9999"),
    (404, "submissions/XYZ_999"),
    (404, "submissions/XYZ-999"),
    (400, "event-feed?since_id=999999"),
    (400, "event-feed?since_id=xY-99_"),
)
# Required by the script and not served yet, with what will serve it; once served it is validated like the rest.
NOT_SERVED_YET: dict[str, str] = {}  # clarifications were the last (issue 49 item 2)


@dataclass(frozen=True)
class Endpoint:
    """How one endpoint of a contest is checked: the schema of its answer, the schema of one of its objects (a
    collection, also served by id), and the properties the spec requires of an object (checked without a schema)."""

    schema: str
    item: str | None
    required: frozenset[str]


def _endpoint(schema: str, item: str | None, *required: str) -> Endpoint:
    return Endpoint(schema, item, frozenset(required))


# Every endpoint the spec defines for a contest. An endpoint we serve that is not here fails the check: no schema
# covers it. An event feed line's type is one of these (or "contest").
ENDPOINTS = {
    "contests": _endpoint("contest", None, "id", "name", "duration", "scoreboard_type", "penalty_time"),
    "access": _endpoint("access", None, "capabilities", "endpoints"),
    "state": _endpoint("state", None, "started", "ended", "finalized", "end_of_updates"),
    "scoreboard": _endpoint("scoreboard", None, "time", "contest_time", "state", "rows"),
    "judgement-types": _endpoint("judgement-types", "judgement-type", "id", "name", "solved"),
    "languages": _endpoint("languages", "language", "id", "name", "entry_point_required", "extensions"),
    "problems": _endpoint("problems", "problem", "id", "label", "name", "ordinal", "test_data_count"),
    "groups": _endpoint("groups", "group", "id", "name"),
    "organizations": _endpoint("organizations", "organization", "id", "name"),
    "persons": _endpoint("persons", "person", "id", "name", "role"),
    "accounts": _endpoint("accounts", "account", "id", "username", "type"),
    "teams": _endpoint("teams", "team", "id", "name", "label"),
    "submissions": _endpoint(
        "submissions", "submission", "id", "language_id", "problem_id", "team_id", "time", "contest_time", "files"
    ),
    "judgements": _endpoint("judgements", "judgement", "id", "submission_id", "start_time", "start_contest_time"),
    "runs": _endpoint("runs", "run", "id", "judgement_id", "ordinal", "judgement_type_id", "time", "contest_time"),
    "clarifications": _endpoint("clarifications", "clarification", "id", "text", "time", "contest_time"),
    "awards": _endpoint("awards", "award", "id", "citation"),
    "commentary": _endpoint("commentaries", "commentary", "id", "time", "contest_time", "message", "tags"),
}
FEED_TYPE = {"contest": "contests"}  # an event feed line's type where it differs from its endpoint's name


def spec_root() -> Path | None:
    """The spec's checkout named by ``CCS_SPECS``; None when unset. A name that is no checkout is an error: a
    run that meant to validate must not pass having validated nothing."""
    root = os.environ.get("CCS_SPECS")
    if not root:
        return None
    if not (Path(root) / "json-schema" / "contest.json").is_file():
        raise RuntimeError(f"CCS_SPECS={root} is no checkout of icpc/ccs-specs (no json-schema/contest.json)")
    return Path(root)


def _tightened(schema: Any, strict: bool) -> Any:
    """The schema with ``additionalProperties: false`` where it marks strictness, as check-api.sh makes it."""
    if isinstance(schema, dict):
        found = {key: _tightened(value, strict) for key, value in schema.items()}
        if strict and found.get("$comment") == "ANCHOR_TO_INSERT_REQUIRE_STRICT_PROPERTIES":
            found["additionalProperties"] = False
        return found
    if isinstance(schema, list):
        return [_tightened(value, strict) for value in schema]
    return schema


Validate = Callable[[str, Any], None]


def validator(strict: bool = False) -> Validate | None:
    """A function validating data against a schema of the spec by its name (``team``, ``event-feed``); None
    without ``CCS_SPECS``."""
    root = spec_root()
    if root is None:
        return None
    import jsonschema
    from referencing import Registry, Resource

    schemas = {
        p.stem: _tightened(json.loads(p.read_text(), parse_float=Decimal), strict)
        for p in (root / "json-schema").glob("*.json")
    }
    registry = Registry().with_resources((s["$id"], Resource.from_contents(s)) for s in schemas.values())

    def validate(name: str, data: Any) -> None:
        # numbers as decimals on both sides: multipleOf 0.001 holds for 0.043, which binary floating point cannot tell
        exact = json.loads(json.dumps(data), parse_float=Decimal)
        jsonschema.Draft202012Validator(schemas[name], registry=registry).validate(exact)

    return validate


def shape_problems(endpoint: str, data: Any) -> list[str]:
    """What the spec requires of an answer of ``endpoint`` (a collection: of each object) that ``data`` lacks."""
    rule = ENDPOINTS[endpoint]
    objects = data if rule.item is not None else [data]
    if not isinstance(objects, list):
        return [f"{endpoint}: not a list"]
    wrong = []
    for found in objects:
        if not isinstance(found, dict):
            wrong.append(f"{endpoint}: {found!r} is not an object")
            continue
        if missing := rule.required - set(found):
            wrong.append(f"{endpoint}: {sorted(missing)} missing in {found}")
        for key, value in found.items():
            if key in ABSTIME_KEYS and value is not None and not re.match(ABSTIME, value):
                wrong.append(f"{endpoint}: {key} {value!r} is no time")
            if key.endswith("contest_time") or key == "duration":
                if value is not None and not re.match(RELTIME, value):
                    wrong.append(f"{endpoint}: {key} {value!r} is no relative time")
    return wrong


@dataclass
class Report:
    """What a run of ``check_api`` found: each request made with its status, and everything wrong."""

    requests: list[tuple[str, int]] = field(default_factory=list)
    wrong: list[str] = field(default_factory=list)
    served: set[str] = field(default_factory=set)
    empty: set[str] = field(default_factory=set)  # collections served with nothing in them for this caller
    feed_types: set[str] = field(default_factory=set)
    answers: dict[str, Any] = field(default_factory=dict)  # each endpoint's answer, for the consistency check


def _feed(client: httpx.Client, url: str, quiet: float) -> tuple[int, list[str]]:
    """The event feed as ``curl -N --max-time`` reads it: the lines sent until it falls quiet for ``quiet`` s."""
    lines: list[str] = []
    timeout = httpx.Timeout(60.0, read=quiet)
    try:
        with client.stream("GET", url, timeout=timeout) as answer:
            status = answer.status_code
            for line in answer.iter_lines():
                lines.append(line)
    except httpx.ReadTimeout:
        pass
    return status, [line for line in lines if line.strip()]


def check_api(client: httpx.Client, validate: Validate | None, quiet: float = 2.0) -> Report:
    """check-api.sh's requests (``-e`` included) against ``client`` (its base URL: the server's ``/api``), and a
    request of every endpoint the spec defines, so that each one we serve is checked; the schema's verdict on each
    answer where ``validate`` is given, the required properties always."""
    report = Report()

    def get(path: str) -> httpx.Response:
        answer = client.get(path)
        report.requests.append((path, answer.status_code))
        return answer

    def valid(schema: str, data: Any, where: str) -> None:
        if validate is not None:
            try:
                validate(schema, data)
            except Exception as error:  # jsonschema's ValidationError: say where, keep checking the rest
                report.wrong.append(f"{where} ({schema}.json): {str(error).splitlines()[0]}")

    info = get("/")  # check-api.sh asks for the API's base URL with its slash
    if info.status_code != 200:
        report.wrong.append(f"api_information: {info.status_code}")
    else:
        valid("api_information", info.json(), "/")
    contests = get("/contests")
    if contests.status_code != 200:
        report.wrong.append(f"contests: {contests.status_code}")
        return report
    valid("contests", contests.json(), "/contests")
    for contest in contests.json():
        base = f"/contests/{contest['id']}"
        for endpoint in (*CHECK_API_ENDPOINTS, *(e for e in ENDPOINTS if e not in CHECK_API_ENDPOINTS)):
            answer = get(base if endpoint == "contests" else f"{base}/{endpoint}")
            if answer.status_code != 200 or not answer.content:
                if endpoint in CHECK_API_ENDPOINTS and endpoint not in CHECK_API_OPTIONAL | set(NOT_SERVED_YET):
                    report.wrong.append(f"{endpoint}: {answer.status_code}, and check-api.sh requires it")
                continue
            report.served.add(endpoint)
            report.answers[endpoint] = answer.json()
            rule = ENDPOINTS[endpoint]
            if answer.json() == [] and rule.item is not None:
                report.empty.add(endpoint)
            report.wrong.extend(shape_problems(endpoint, answer.json()))
            valid(rule.schema, answer.json(), endpoint)
            if rule.item is not None:
                for found in answer.json()[:3]:  # by id: the same object, valid alone
                    one = get(f"{base}/{endpoint}/{found['id']}")
                    if one.status_code != 200 or one.json() != found:
                        report.wrong.append(f"{endpoint}/{found['id']}: {one.status_code}, not the listed object")
                    else:
                        valid(rule.item, found, f"{endpoint}/{found['id']}")
        _check_access(get(f"{base}/access"), report)
        _check_files(get, base, report)
        status, lines = _feed(client, f"{base}/event-feed", quiet)
        report.requests.append((f"{base}/event-feed", status))
        _check_feed(status, lines, validate, report)
        if status == 200:
            _check_consistency([json.loads(line) for line in lines], report)
        for expected, path in CHECK_API_TO_FAIL:
            if (status := get(f"{base}/{path}").status_code) != expected:
                report.wrong.append(f"{path}: {status}, check-api.sh expects {expected}")
    return report


def _check_access(answer: httpx.Response, report: Report) -> None:
    """Every endpoint ``access`` lists has a schema check here and is served; every one served is listed, but for a
    collection with nothing in it for this caller (a team's ``runs`` where no problem shows it its cases)."""
    listed = {FEED_TYPE.get(e["type"], e["type"]) for e in answer.json().get("endpoints", [])} - {"event-feed"}
    for endpoint in sorted(listed - set(ENDPOINTS)):
        report.wrong.append(f"access lists {endpoint!r}: no schema check covers it (add it to icpc_spec.ENDPOINTS)")
    for endpoint in sorted((listed & set(ENDPOINTS)) - report.served):
        report.wrong.append(f"access lists {endpoint!r}, which is not served")
    for endpoint in sorted(report.served - report.empty - listed - {"access"}):
        report.wrong.append(f"{endpoint!r} is served and access does not list it")


def _check_files(get: Callable[[str], httpx.Response], base: str, report: Report) -> None:
    """Each listed submission's files: the zip the spec gives them in."""
    for submission in get(f"{base}/submissions").json()[:2]:
        answer = get(f"{base}/submissions/{submission['id']}/files")
        try:
            zipfile.ZipFile(io.BytesIO(answer.content)).testzip()
        except zipfile.BadZipFile:
            report.wrong.append(f"submissions/{submission['id']}/files: {answer.status_code}, not a zip")


def _check_feed(status: int, lines: list[str], validate: Validate | None, report: Report) -> None:
    """The feed's lines as check-api.sh reads them (an array of events, not empty), each line's data by its type."""
    if status != 200 or not lines:
        report.wrong.append(f"event-feed: {status}, {len(lines)} lines")
        return
    events = [json.loads(line) for line in lines]
    if validate is not None:
        try:
            validate("event-feed-array", events)
        except Exception as error:
            report.wrong.append(f"event-feed-array: {str(error).splitlines()[0]}")
    for event in events:
        endpoint = FEED_TYPE.get(event["type"], event["type"])
        report.feed_types.add(endpoint)
        if endpoint not in ENDPOINTS:
            report.wrong.append(f"event-feed: no schema check covers the type {event['type']!r}")
        elif event.get("data") is not None:
            rule = ENDPOINTS[endpoint]
            data = [event["data"]] if rule.item is not None else event["data"]
            report.wrong.extend(f"event-feed {problem}" for problem in shape_problems(endpoint, data))


def _check_consistency(events: list[dict[str, Any]], report: Report) -> None:
    """check-api.sh ``-C`` in strict mode: every object of a REST endpoint is in the feed, and the feed's last data
    of every object is the endpoint's object (the scoreboard, ``access`` and absent optional endpoints aside)."""
    last: dict[tuple[str, str], Any] = {}
    for event in events:
        endpoint = FEED_TYPE.get(event["type"], event["type"])
        data = event.get("data")
        ident = data["id"] if isinstance(data, dict) and "id" in data and endpoint != "contests" else ""
        last[(endpoint, ident)] = data
    for endpoint, answer in sorted(report.answers.items()):
        if endpoint in ("access", "scoreboard"):
            continue
        single = ENDPOINTS[endpoint].item is None
        for found in [answer] if single else answer:
            key = (endpoint, "" if single else found["id"])
            where = endpoint if single else f"{endpoint}/{found['id']}"
            if key not in last:
                report.wrong.append(f"{where}: not found in the event feed")
            elif last[key] != found:
                differ = sorted(
                    k for k in set(found) | set(last[key] or {}) if (last[key] or {}).get(k) != found.get(k)
                )
                report.wrong.append(f"{where}: the feed's last data differs from the endpoint's in {differ}")
    for (endpoint, ident), data in sorted(last.items()):
        if data is not None and endpoint in report.answers and endpoint not in ("access", "scoreboard"):
            single = ENDPOINTS[endpoint].item is None
            if not single and ident not in {found["id"] for found in report.answers[endpoint]}:
                report.wrong.append(f"{endpoint}/{ident}: in the event feed, not in its endpoint")
