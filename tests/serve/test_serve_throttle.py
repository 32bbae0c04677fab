"""Failed log-ins are throttled per account and per address, on a clock the tests move (no sleeping).

The service's real application runs in this process (``in_process``,
no judging: a site without problems), its throttle given a clock
the test sets, so a wait is passed by moving the clock, not by waiting.
Every way in that takes a password is driven: the log-in page, ``POST
/api/v1/login`` and HTTP Basic. Each client is its own address.
"""

from __future__ import annotations

import asyncio
import re
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("argon2", reason="argon2-cffi is not installed (the [web] extra)")
pytest.importorskip("jinja2", reason="jinja2 is not installed (the [web] extra)")

from argon2 import PasswordHasher  # noqa: E402
from in_process import InProcessClient  # noqa: E402

from judge.serve import auth  # noqa: E402
from judge.serve import throttle as throttling  # noqa: E402
from judge.serve.app import make_app  # noqa: E402
from judge.serve.auth import Sessions, add_user  # noqa: E402
from judge.serve.service import Service  # noqa: E402
from judge.serve.site import Site, SiteLimits  # noqa: E402
from judge.serve.store import Store  # noqa: E402
from judge.serve.throttle import ACCOUNT_FREE, ADDRESS_FREE, FORGET, LONGEST_WAIT, Throttle  # noqa: E402

PASSWORD = "correct horse battery"


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def served(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    """The application over a site of no problems, with accounts ann and ben; its clock; a client per address.
    Passwords are argon2 at its cheapest (a hash costs a second on a loaded machine at the real cost, and these
    tests check dozens): what is tested is when a password is checked, not the hash."""
    cheap = PasswordHasher(time_cost=1, memory_cost=8, parallelism=1)
    monkeypatch.setattr(auth, "_hasher", cheap)
    monkeypatch.setattr(auth, "_DUMMY", cheap.hash("not anyone's"))
    clock = Clock()
    site = Site(tmp_path, "Throttled", "class", {}, (), None, None, None, SiteLimits())
    store = Store(tmp_path)
    with store.tx() as db:
        for name in ("ann", "ben"):
            add_user(db, name, "student", password=PASSWORD)
    service = Service(site, store, {}, None, Sessions(b"k" * 32), throttle=Throttle(clock))  # type: ignore[arg-type]
    app = make_app(service)

    def client(address: str) -> InProcessClient:
        return InProcessClient(app, address)

    yield clock, client
    store.close()


def api_login(http: InProcessClient, name: str, password: str):
    return http.post("/api/v1/login", json={"name": name, "password": password})


def test_an_account_waits_longer_after_each_failure_and_a_success_clears_it(served) -> None:
    clock, client = served
    http = client("10.0.0.1")
    assert [api_login(http, "ann", "wrong").status_code for _ in range(ACCOUNT_FREE)] == [401] * ACCOUNT_FREE
    waits = []
    for _ in range(4):
        refused = api_login(http, "ann", PASSWORD)  # the right password is not even checked while throttled
        assert refused.status_code == 429 and refused.json()["error"]["code"] == "throttled"
        waits.append(int(refused.headers["Retry-After"]))
        clock.now += waits[-1]
        assert api_login(http, "ann", "wrong").status_code == 401
    assert waits == [1, 2, 4, 8]
    elsewhere = client("10.0.0.2")  # per account and address: a guesser there does not lock the owner out here
    assert api_login(elsewhere, "ann", "wrong").status_code == 401
    assert api_login(elsewhere, "ann", PASSWORD).status_code == 200
    clock.now += 16
    assert api_login(http, "ann", PASSWORD).status_code == 200
    again = [api_login(http, "ann", "wrong").status_code for _ in range(ACCOUNT_FREE)]
    assert again == [401] * ACCOUNT_FREE  # the success cleared the count: the free failures again
    assert api_login(http, "ann", "wrong").status_code == 429


def test_a_throttled_answer_does_not_tell_whether_the_account_exists(served) -> None:
    clock, client = served
    answers = {}
    for name, address in (("ben", "10.0.1.1"), ("nobody-here", "10.0.1.2")):
        http = client(address)
        codes = [api_login(http, name, "wrong").status_code for _ in range(ACCOUNT_FREE + 1)]
        answer = api_login(http, name, "wrong")
        answers[name] = (codes, answer.status_code, answer.headers["Retry-After"], answer.json())
    assert answers["ben"] == answers["nobody-here"]
    assert answers["ben"][0] == [401] * ACCOUNT_FREE + [429]


def test_an_address_guessing_many_accounts_waits_and_others_do_not(served) -> None:
    clock, client = served
    guesser, elsewhere = client("10.0.2.1"), client("10.0.2.2")
    codes = [api_login(guesser, f"user{n}", "wrong").status_code for n in range(ADDRESS_FREE)]
    assert codes == [401] * ADDRESS_FREE  # one failure per name: no account's count is near its limit
    assert api_login(guesser, "ann", PASSWORD).status_code == 429
    assert api_login(elsewhere, "ann", PASSWORD).status_code == 200
    clock.now += FORGET + 1  # a count left alone long enough is forgotten
    assert api_login(guesser, "ann", PASSWORD).status_code == 200


def test_the_addresses_of_one_ipv6_network_count_as_one(served) -> None:
    clock, client = served
    for n in range(ADDRESS_FREE):
        assert api_login(client(f"2001:db8:0:1::{n + 1:x}"), f"user{n}", "wrong").status_code == 401
    assert api_login(client("2001:db8:0:1:ffff::9"), "ann", PASSWORD).status_code == 429  # the same /64
    assert api_login(client("2001:db8:0:2::1"), "ann", PASSWORD).status_code == 200  # another /64


def test_a_success_clears_only_its_own_accounts_failures_from_its_address(served) -> None:
    clock, client = served
    http = client("10.0.3.1")
    assert api_login(http, "ann", "wrong").status_code == 401
    for n in range(ADDRESS_FREE - 1):
        assert api_login(http, f"victim{n}", "wrong").status_code == 401
    assert api_login(http, "ben", PASSWORD).status_code == 429
    clock.now += 1
    assert api_login(http, "ann", PASSWORD).status_code == 200  # ann's own failure forgiven: 29 left, under 30
    assert api_login(http, "ben", PASSWORD).status_code == 200
    assert api_login(http, "victim0", "wrong").status_code == 401  # 30 again: ben's success cleared no victim's
    assert api_login(http, "ann", PASSWORD).status_code == 429


def test_http_basic_is_throttled_too(served) -> None:
    clock, client = served
    http = client("10.0.4.1")
    for _ in range(ACCOUNT_FREE):
        assert http.get("/api/v1/me", auth=("ann", "wrong")).status_code == 401
    refused = http.get("/api/v1/me", auth=("ann", PASSWORD))
    assert refused.status_code == 429 and refused.headers["Retry-After"] == "1"
    clock.now += 1
    assert http.get("/api/v1/me", auth=("ann", PASSWORD)).json()["user"]["name"] == "ann"


def test_http_basic_checks_the_password_off_the_event_loop(served, monkeypatch: pytest.MonkeyPatch) -> None:
    """A password check holds its thread for argon2's whole cost: on the event loop's thread it would stall every
    other client. Each check records whether its thread runs an event loop."""
    clock, client = served
    on_a_loop: list[bool] = []
    real_login = throttling.login

    def login(*arguments: Any) -> Any:
        try:
            asyncio.get_running_loop()
            on_a_loop.append(True)
        except RuntimeError:
            on_a_loop.append(False)
        return real_login(*arguments)

    monkeypatch.setattr(throttling, "login", login)
    http = client("10.0.4.2")
    assert http.get("/api/v1/me", auth=("ben", "wrong")).status_code == 401
    assert http.get("/api/v1/me", auth=("ben", PASSWORD)).json()["user"]["name"] == "ben"
    assert on_a_loop == [False, False]  # ben's right password is checked, not remembered from another test


def test_the_log_in_page_says_so_on_the_form(served) -> None:
    clock, client = served
    http = client("10.0.5.1")

    def post(password: str):
        form = http.get("/login")
        token = re.search(r'name="csrf" value="([^"]+)"', form.text).group(1)
        return http.post("/login", data={"csrf": token, "next": "/", "name": "ben", "password": password})

    for _ in range(ACCOUNT_FREE):
        assert "Wrong name or password." in post("wrong").text
    refused = post(PASSWORD)
    assert refused.status_code == 429 and refused.headers["Retry-After"] == "1"
    assert "Too many failed log-ins: try again in 1 s." in refused.text and 'role="alert"' in refused.text
    clock.now += 1
    done = post(PASSWORD)
    assert done.status_code == 303 and "tilejudge_session" in done.headers["set-cookie"]


def test_the_wait_grows_to_its_cap_and_the_tables_stay_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    clock = Clock()
    throttle = Throttle(clock)
    longest = 0
    for _ in range(ACCOUNT_FREE + 30):
        wait = throttle.begin("ann", "10.0.6.1")
        longest = max(longest, wait)
        clock.now += wait
    assert longest == LONGEST_WAIT
    monkeypatch.setattr(throttling, "MAX_KEYS", 3)
    bounded = Throttle(clock)
    for _ in range(ACCOUNT_FREE):
        bounded.begin("ann", "10.0.6.2")
    assert bounded.begin("ann", "10.0.6.2") > 0
    for n in range(3):  # three newer names fill the table: ann's count, the stalest, is dropped
        bounded.begin(f"other{n}", f"10.0.7.{n}")
    assert bounded.begin("ann", "10.0.6.2") == 0


@pytest.mark.parametrize("proxies, seen", [((), "127.0.0.1"), (("127.0.0.1",), "10.9.8.7")])
def test_a_forwarded_address_is_believed_only_from_a_named_proxy(proxies: tuple[str, ...], seen: str) -> None:
    """The address the throttle counts, as the real server's settings give it to the application: a client on this
    machine cannot choose it with ``X-Forwarded-For`` unless ``--proxy`` names this machine as the proxy."""
    import threading

    import httpx
    import uvicorn
    from serving import free_port

    from judge.serve.access import client_address
    from judge.serve.server import uvicorn_config

    async def echo(scope: Any, receive: Any, send: Any) -> None:  # the address as access.client_address reads it
        if scope["type"] == "lifespan":
            while (await receive())["type"] != "lifespan.shutdown":
                await send({"type": "lifespan.startup.complete"})
            await send({"type": "lifespan.shutdown.complete"})
            return
        from starlette.requests import Request

        body = client_address(Request(scope)).encode()
        await send({"type": "http.response.start", "status": 200, "headers": [(b"content-length", b"%d" % len(body))]})
        await send({"type": "http.response.body", "body": body})

    port = free_port()
    server = uvicorn.Server(uvicorn_config(echo, "127.0.0.1", port, proxies))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    try:
        for _ in range(200):
            if server.started:
                break
            thread.join(0.05)
        answer = httpx.get(f"http://127.0.0.1:{port}/", headers={"X-Forwarded-For": "10.9.8.7"}, timeout=30)
        assert answer.text == seen
    finally:
        server.should_exit = True
        thread.join(30)
    assert not thread.is_alive()
