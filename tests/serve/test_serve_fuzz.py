"""Every route of the service driven with random input (hypothesis): no answer is a 5xx, and an error stores nothing.

The routes are the app's own (``judge.serve.app.routes``: the API, the ICPC
API and the pages), each with its methods, asked anonymously, as a team and
as the jury, by bearer token or by a page's session (with its CSRF token or
a wrong one), with random path parameters (ids of any size, words, existing
ids), query strings, headers (``Last-Event-ID``, ``Content-Type``,
``Authorization``, cookies, Latin-1 bytes) and bodies (JSON of any shape and
depth, with ``NaN`` and lone surrogates; forms; raw bytes; and near-valid
submissions, log-ins and accounts). Against ONE real server on loopback (a
contest, so the ICPC API is served), each answer must be under 500, the
server must log no failure, and after an answer of 400 or more the store
(every table, read-only) must hold exactly what it held before. The number
of examples is bounded and the run derandomized, so CI runs the same
examples in well under a minute.
"""

from __future__ import annotations

import base64
import json
import time
from urllib.parse import quote

import httpx
import pytest
from conftest import PROBLEMS, PROGRAMS
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from serving import Server, StoreWatch, write_site
from starlette.routing import Route

from judge.serve.app import routes

AC_PY = (PROGRAMS / "aplusb" / "ac.py").read_text()
PASSWORD = "a long password"
EXAMPLES = 8  # per route (about 45 of them): about 360 requests
SESSION_COOKIE = "tilejudge_session"


def _idle(store: StoreWatch, timeout: float = 120) -> None:
    """Until nothing is queued or judged: a submission an earlier example made (or rejudged) changes the store as it
    is judged, which is no change of the request being checked."""
    deadline = time.monotonic() + timeout
    while store.busy():
        assert time.monotonic() < deadline, "the queue did not empty"
        time.sleep(0.05)


class Account:
    def __init__(self, token: str, cookie: str, csrf: str, token_id: int) -> None:
        self.token, self.cookie, self.csrf, self.token_id = token, cookie, csrf, token_id


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory):
    start = time.strftime("%Y-%m-%d %H:%M", time.gmtime(time.time() - 3600))
    folder = write_site(
        tmp_path_factory.mktemp("fuzz"),
        f"title: Fuzzed\nkind: contest\nproblems:\n  - problem: {PROBLEMS / 'aplusb'}\n"
        f"languages: [python3]\nstart: {start}+00:00\nend: 2099-01-01 00:00+00:00\n"
        "limits: {per_minute: 10000, queue: 10000}\n",
    )
    server = Server(folder, workers=1, jobs=1).start()
    try:
        with httpx.Client(base_url=server.url, timeout=60) as http:
            admin = {"Authorization": f"Bearer {server.admin_token()}"}
            accounts = {}
            for name, role in (("team1", "team"), ("jury1", "jury")):
                made = http.post(
                    "/api/v1/users", headers=admin, json={"name": name, "role": role, "password": PASSWORD}
                )
                assert made.status_code == 201, made.text
                token = made.json()["token"]
                logged = http.post("/api/v1/login", json={"name": name, "password": PASSWORD})
                assert logged.status_code == 200, logged.text
                mine = http.get("/api/v1/tokens", headers={"Authorization": f"Bearer {token}"}).json()["tokens"]
                accounts[role] = Account(token, logged.cookies[SESSION_COOKIE], logged.json()["csrf"], mine[0]["id"])
                http.cookies.clear()
            body = {"problem": "aplusb", "language": "python3", "files": [{"name": "ac.py", "content": AC_PY}]}
            sid = http.post(
                "/api/v1/submissions", headers={"Authorization": f"Bearer {accounts['team'].token}"}, json=body
            ).json()["id"]
        watch = StoreWatch(folder)
        try:
            _idle(watch)
        finally:
            watch.close()
        yield server, accounts, sid
    finally:
        server.stop()


# what a route's path parameter, a query value or a header may be: ids of any size, words, and the odd forms
# int() or isdigit() took that SQLite or int() then refused
NUMBERS = st.integers(min_value=-(1 << 80), max_value=1 << 80).map(str) | st.integers(-3, 5).map(str)
EDGE = st.sampled_from(
    ["", "0", "-0", "²", "١٢", "1_0", " 7", "1e3", "0x10", "9" * 40, str(1 << 63), str(-(1 << 63) - 1), "nan", "∞"]
)
WORDS = st.text(st.characters(blacklist_categories=("Cs",)), max_size=12)
KNOWN = st.sampled_from(["aplusb", "python3", "csv", "json", "xml", "html", "submissions", "judgements", "runs",
                         "teams", "problems", "languages", "judgement-types", "state", "scoreboard"])  # fmt: skip
BEYOND = st.sampled_from(["9" * 40, str(1 << 63), "-" + "9" * 30, "²"])  # what SQLite or int() refused on main
VALUES = st.one_of(EDGE, NUMBERS, WORDS, KNOWN)
LATIN1 = st.binary(max_size=24).map(lambda b: bytes(c for c in b if c >= 0x20 and c != 0x7F).strip(b" "))
QUERY_KEYS = ["limit", "cursor", "before", "since", "since_token", "wait", "problem", "verdict", "state", "user",
              "language", "late", "role", "stream", "new", "next", "id"]  # fmt: skip


def _json_values() -> st.SearchStrategy:
    leaves = (
        st.none()
        | st.booleans()
        | st.integers(min_value=-(1 << 200), max_value=1 << 200)
        | st.floats(allow_nan=True, allow_infinity=True)
        | st.text(max_size=20)  # lone surrogates included: json.dumps escapes them as \ud800
        | VALUES
    )
    return st.recursive(leaves, lambda inner: st.lists(inner, max_size=4) | st.dictionaries(VALUES, inner, max_size=4),
                        max_leaves=12)  # fmt: skip


JSON = _json_values()


def _near_valid() -> st.SearchStrategy:
    """Bodies the routes expect, with each field drawn from good and bad values, so the checks past the parser run."""
    name = st.sampled_from(["ac.py", "a.zip", "Main.java", ".", "", "a/b.py", "x" * 300 + ".py"]) | WORDS
    content = st.sampled_from([AC_PY, ""]) | st.text(max_size=30)
    b64 = st.sampled_from(["", "!!", "UEsFBgAAAAAAAAAAAAAAAAAAAAAAAA=="])  # nothing, no base64, an empty zip
    file = st.fixed_dictionaries({"name": name}, optional={"content": content, "content_b64": b64})
    submission = st.fixed_dictionaries(
        {"problem": st.sampled_from(["aplusb", "nope"]) | WORDS, "files": st.lists(file, max_size=3) | JSON},
        optional={"language": st.sampled_from(["python3", "cpp", "nope"]) | JSON},
    )
    icpc = st.fixed_dictionaries(
        {"problem_id": st.sampled_from(["aplusb"]) | JSON, "language_id": st.just("python3") | JSON,
         "files": st.lists(st.fixed_dictionaries({"data": st.text(max_size=12) | JSON}), max_size=2)},
        optional={"team_id": NUMBERS | JSON, "id": st.just("1"), "time": st.just("x")},
    )  # fmt: skip
    account = st.fixed_dictionaries(
        {"name": VALUES | JSON},
        optional={"role": st.sampled_from(["team", "student", "jury", "admin", "x"]), "password": VALUES,
                  "display": JSON, "label": VALUES | JSON},
    )  # fmt: skip
    return submission | icpc | account


def _bodies() -> st.SearchStrategy:
    deep = (st.sampled_from([100_000, 21]) | st.integers(1, 60_000)).map(
        lambda n: b'{"a": ' + b"[" * n + b"]" * n + b"}"
    )
    as_json = (_near_valid() | JSON).map(lambda v: json.dumps(v).encode())
    form = st.dictionaries(st.sampled_from(["csrf", "code", "filename", "language", "label", "name", "password",
                                            "next", "role", "csv", "verdict"]), VALUES, max_size=5)  # fmt: skip
    return st.one_of(  # the first option first: hostile input where the route reads it
        as_json.map(lambda b: ("json", b)),
        deep.map(lambda b: ("json", b)),
        st.none().map(lambda _: ("none", None)),
        st.binary(max_size=64).map(lambda b: ("raw", b)),
        form.map(lambda f: ("form", f)),
        st.tuples(form, name_strategy(), st.binary(max_size=64)).map(lambda t: ("multipart", t)),
    )


def name_strategy() -> st.SearchStrategy:
    return st.sampled_from(["ac.py", "x" * 300 + ".py", "a.zip", "a\x1b.py"]) | WORDS


BODIES = _bodies()  # built once: a recursive strategy is costly to make


def _route_table() -> list[tuple[str, str]]:
    """(method, path template) of every route the app serves."""
    table = []
    for route in routes():
        if isinstance(route, Route):
            for method in sorted(route.methods or {"GET"}):
                table.append((method, route.path))
        else:  # the static files' mount
            table.append(("GET", route.path + "/{path}"))
    return table


ROUTES = _route_table()


@st.composite
def requests(draw: st.DrawFn, method: str, template: str, sid: int, cid: str) -> dict:
    # hypothesis begins with each choice's first (simplest) option: that is the route as it is meant to be asked, by a
    # signed-in account, with a value that broke main where one is read
    if draw(st.integers(0, 9)) == 9:  # now and then a method the route does not take
        method = draw(st.sampled_from(["GET", "POST", "PUT", "DELETE", "PATCH", "OPTIONS"]))
    path = template
    for param in ("sid", "tid", "name", "cid", "kind", "id", "fmt", "path"):
        if "{" + param + "}" in path:
            value = draw(st.one_of(BEYOND, st.sampled_from([str(sid), cid, "aplusb"]), VALUES))
            path = path.replace("{" + param + "}", quote(value, safe=""))
    query = draw(st.dictionaries(st.sampled_from(QUERY_KEYS), BEYOND | VALUES, max_size=3))
    headers: dict[str, bytes] = {}
    for header, strategy in (
        ("Last-Event-ID", (BEYOND | VALUES).map(lambda v: v.encode("utf-8")) | LATIN1),
        (
            "Content-Type",
            st.sampled_from(
                [
                    b"application/json",
                    b"multipart/form-data; boundary=zz",
                    b"text/plain",
                    b"application/x-www-form-urlencoded",
                ]
            )
            | LATIN1,
        ),  # fmt: skip
        ("X-CSRF-Token", LATIN1),
        (
            "Authorization",
            st.sampled_from(
                [b"Bearer nope", b"Basic " + base64.b64encode(b"jury1:wrong"), b"Basic !", b"Bearer", b"Digest x"]
            )
            | LATIN1,
        ),  # fmt: skip
    ):
        if draw(st.integers(0, 3)) == 3:
            headers[header] = draw(strategy)
    return {
        "method": method,
        "path": path,
        "query": query,
        "headers": headers,
        "who": draw(st.sampled_from(["team", "jury", "anonymous", "team", "jury"])),
        "by": draw(st.sampled_from(["token", "token", "session+csrf", "session+csrf", "session"])),
        "body": draw(BODIES),
        "junk_cookie": draw(st.none() | LATIN1),
    }


def _send(http: httpx.Client, accounts: dict[str, Account], req: dict) -> httpx.Response:
    headers = dict(req["headers"])
    cookies: list[bytes] = []
    account = accounts.get(req["who"])
    if account is not None and req["by"] == "token":
        headers.setdefault("Authorization", f"Bearer {account.token}".encode())
    elif account is not None:
        cookies.append(f"{SESSION_COOKIE}={account.cookie}".encode())
        if req["by"] == "session+csrf":
            headers.setdefault("X-CSRF-Token", account.csrf.encode())
    if req["junk_cookie"] is not None:  # a forged session, or a stray cookie beside the real one
        cookies.append((b"x=" if cookies else SESSION_COOKIE.encode() + b"=") + req["junk_cookie"])
    if cookies:
        headers["Cookie"] = b"; ".join(cookies)
    kind, body = req["body"]
    content, data, files = None, None, None
    if kind in ("json", "raw"):
        content = body
    elif kind == "form":
        data = dict(body)
        if account is not None and req["by"] == "session+csrf":
            data.setdefault("csrf", account.csrf)
    elif kind == "multipart":
        fields, filename, blob = body
        data = dict(fields)
        files = {"files": (filename, blob), "file": (filename, blob)}
        headers.pop("Content-Type", None)
    request = http.build_request(
        req["method"], req["path"], params=req["query"], headers=headers, content=content, data=data, files=files
    )
    response = http.send(request, stream=True)
    try:
        if "text/event-stream" in response.headers.get("content-type", "") or "ndjson" in response.headers.get(
            "content-type", ""
        ):
            return response  # a stream that stays open: its status is the answer
        response.read()
        return response
    finally:
        response.close()


@pytest.fixture(scope="module")
def driving(served):
    """The served site, one HTTP client for every example, how far its log was read, and its store's rows."""
    server, accounts, sid = served
    watch = StoreWatch(server.site)
    try:
        with httpx.Client(base_url=server.url, timeout=30) as http:
            yield server, accounts, sid, http, [server.log.stat().st_size], watch
    finally:
        watch.close()


@pytest.mark.slow
@pytest.mark.parametrize(("method", "template"), ROUTES, ids=[f"{m} {t}" for m, t in ROUTES])
def test_a_route_with_random_input_answers_below_500_and_an_error_stores_nothing(driving, method, template) -> None:
    server, accounts, sid, http, log_seen, store = driving
    ids = [account.token_id for account in accounts.values()]
    protected = {f"/api/v1/tokens/{t}" for t in ids} | {f"/account/tokens/{t}/delete" for t in ids}

    @settings(
        max_examples=EXAMPLES,
        deadline=None,
        derandomize=True,
        database=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.filter_too_much],
    )
    @given(requests(method, template, sid, server.site.name))
    def check(req: dict) -> None:
        if req["path"] in protected:
            return  # the fuzzing's own tokens are kept (API or page), or the rest of the run would be anonymous
        _idle(store)
        before = store.rows()
        answer = _send(http, accounts, req)
        http.cookies.clear()
        assert answer.status_code < 500, (req, answer.status_code, answer.content if answer.is_stream_consumed else "")
        if answer.status_code >= 400:
            assert store.rows() == before, (req, answer.status_code)
        with server.log.open("rb") as log:  # what the server printed meanwhile: a handler's failure is logged there
            log.seek(log_seen[0])
            new = log.read().decode("utf-8", "replace")
            log_seen[0] = log.tell()
        assert "Traceback" not in new and "serve: " not in new, (req, new)

    check()
