"""The service behind a real reverse proxy (issue 50, item 6): Debian's nginx over TLS, configured from docs/serve.md.

The nginx block of ``docs/serve.md`` ("Behind nginx, under systemd", in "Operating a site") is read
from the page and run as it stands, with only its ports, certificate paths
and upstream filled in, so the page cannot drift from what works. nginx
runs as a child of this module (``nginx -p DIR -c CONF -e LOG``, not as a
daemon), with its own pid file, logs and temporary folders in a temporary
folder, in front of one ``serve --proxy 127.0.0.1``; both are always
stopped. The certificate is self-signed, made here with openssl, and the
clients trust it alone. Clients connect from 127.0.0.2 and 127.0.0.3 (the
whole of 127/8 is this machine), so the address nginx passes on is not the
one the server sees the connection come from. The page's systemd unit is
checked with ``systemd-analyze verify`` where systemd is installed.
"""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import signal
import socket
import ssl
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import httpx
import pytest
from conftest import PROBLEMS, REPO_ROOT, SYSTEM_PACKAGES
from serving import Server, free_port, write_site

pytest.importorskip("uvicorn", reason="uvicorn is not installed (the [web] extra)")

from judge.serve.throttle import ACCOUNT_FREE  # noqa: E402

pytestmark = pytest.mark.slow

DOC = REPO_ROOT / "docs" / "serve.md"
SECTION = "### Behind nginx, under systemd"  # a part of "## Operating a site"
PASSWORD = "proxied-password-1"
SUM = (PROBLEMS / "aplusb" / "solution.py").read_text()  # the fixture's accepted answer


def doc_block(language: str) -> str:
    """The first fenced block of ``language`` in the page's nginx section."""
    text = DOC.read_text()
    assert SECTION in text, f"docs/serve.md has no section {SECTION!r}"
    section = re.split(r"^##+ ", text.split(SECTION, 1)[1], maxsplit=1, flags=re.M)[0]  # to the next heading
    found = re.search(rf"^```{language}\n(.*?)^```$", section, re.S | re.M)
    assert found, f"no ```{language} block in the section {SECTION!r} of docs/serve.md"
    return found.group(1)


def filled(block: str, swaps: dict[str, str]) -> str:
    """``block`` with each example value replaced by this test's; every one must be in it (else the page changed)."""
    for example, value in swaps.items():
        assert example in block, f"the page's block no longer says {example!r}"
        block = block.replace(example, value)
    return block


def executable(tool: str) -> str:
    """A system tool's path; Debian keeps nginx in /usr/sbin, which a user's PATH may leave out. Skips if missing."""
    found = shutil.which(tool) or shutil.which(tool, path="/usr/sbin:/sbin")
    if found is None:
        package = SYSTEM_PACKAGES.get(tool, tool)
        pytest.skip(f"{tool} is not installed (Debian package {package}; .ci/setup-system installs it as root)")
    return found


def self_signed(folder: Path) -> tuple[Path, Path]:
    """A certificate for 127.0.0.1 and its key, made here with openssl (no network)."""
    cert, key = folder / "cert.pem", folder / "key.pem"
    subprocess.run(
        [executable("openssl"), "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1"]
        + ["-nodes", "-days", "2", "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1"]
        + ["-keyout", str(key), "-out", str(cert)],
        check=True,
        capture_output=True,
        timeout=60,
    )
    return cert, key


@dataclass
class Nginx:
    """nginx as a child process of the test, everything it writes under ``folder``."""

    binary: str
    folder: Path
    port: int
    proc: subprocess.Popen[bytes] | None = None

    def start(self, site_block: str) -> Nginx:
        for temp in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi"):
            (self.folder / temp).mkdir(parents=True, exist_ok=True)
        (self.folder / "tilejudge.conf").write_text(site_block)
        user = "user root root;\n" if os.geteuid() == 0 else ""  # workers read the temporary folders of tmp_path
        (self.folder / "nginx.conf").write_text(
            f"{user}worker_processes 1;\npid {self.folder / 'nginx.pid'};\n"
            f"error_log {self.folder / 'error.log'} info;\n"
            "events { worker_connections 256; }\n"
            "http {\n"
            f"    access_log {self.folder / 'access.log'};\n"
            f"    client_body_temp_path {self.folder / 'client_body'};\n"
            f"    proxy_temp_path {self.folder / 'proxy'};\n"
            f"    fastcgi_temp_path {self.folder / 'fastcgi'};\n"
            f"    uwsgi_temp_path {self.folder / 'uwsgi'};\n"
            f"    scgi_temp_path {self.folder / 'scgi'};\n"
            f"    include {self.folder / 'tilejudge.conf'};\n"
            "}\n"
        )
        argv = [self.binary, "-p", str(self.folder), "-c", str(self.folder / "nginx.conf")]
        argv += ["-e", str(self.folder / "error.log"), "-g", "daemon off;"]
        self.proc = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, start_new_session=True)
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                said = self.proc.stderr.read().decode()  # type: ignore[union-attr]
                self.stop()
                raise AssertionError(f"nginx ended at start: {said}")
            with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", self.port), timeout=1):
                return self
            time.sleep(0.05)
        self.stop()
        raise AssertionError("nginx did not listen")

    def stop(self) -> None:
        """SIGTERM (nginx's fast stop: open streams are cut, not awaited), then SIGKILL to its group if it lingers."""
        if self.proc is None:
            return
        try:
            if self.proc.poll() is None:
                self.proc.send_signal(signal.SIGTERM)
                try:
                    self.proc.wait(timeout=10)
                except subprocess.TimeoutExpired:
                    with contextlib.suppress(ProcessLookupError):
                        os.killpg(self.proc.pid, signal.SIGKILL)
                    self.proc.wait(timeout=10)
        finally:
            if self.proc.stderr is not None:
                self.proc.stderr.close()


@dataclass
class Proxied:
    server: Server
    nginx: Nginx
    cert: Path
    admin: str

    @property
    def url(self) -> str:
        return f"https://127.0.0.1:{self.nginx.port}"

    def client(self, source: str, **headers: str) -> httpx.Client:
        """A client of the site through nginx, connecting from ``source`` and trusting only the test's certificate."""
        transport = httpx.HTTPTransport(verify=ssl.create_default_context(cafile=str(self.cert)), local_address=source)
        return httpx.Client(base_url=self.url, transport=transport, headers=headers, timeout=60)


@pytest.fixture(scope="module")
def proxied(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Proxied]:
    binary = executable("nginx")
    root = tmp_path_factory.mktemp("nginx")
    cert, key = self_signed(root)
    site = write_site(
        root / "site",
        f"title: Proxied\nkind: contest\nstart: 2020-01-01 00:00\nend: 2099-01-01 00:00\n"
        f"problems:\n  - problem: {PROBLEMS / 'aplusb'}\nlanguages: [python3]\n",
    )
    server = Server(site, workers=1, jobs=1, extra=["--proxy", "127.0.0.1"])
    nginx = Nginx(binary, root / "nginx", free_port())
    block = filled(
        doc_block("nginx"),
        {
            "listen 443 ssl;": f"listen 127.0.0.1:{nginx.port} ssl;",
            "/etc/ssl/certs/judge.example.org.pem": str(cert),
            "/etc/ssl/private/judge.example.org.key": str(key),
            "http://127.0.0.1:8080": "http://127.0.0.1:{port}",
        },
    )
    try:
        server.start()
        nginx.start(block.replace("{port}", str(server.port)))
        yield Proxied(server, nginx, cert, server.admin_token())
    finally:
        nginx.stop()
        server.stop()


def account(proxied: Proxied, name: str) -> str:
    """A team (the site is a contest, so the ICPC API is served too) with the module's password, made through nginx
    with the admin's token; its API token."""
    with proxied.client("127.0.0.2", Authorization=f"Bearer {proxied.admin}") as http:
        made = http.post("/api/v1/users", json={"name": name, "role": "team", "password": PASSWORD})
    assert made.status_code == 201, made.text
    return made.json()["token"]


def page_login(http: httpx.Client, name: str, origin: str) -> httpx.Response:
    page = http.get("/login")
    assert page.status_code == 200
    csrf = re.search(r'name="csrf" value="([^"]+)"', page.text).group(1)  # type: ignore[union-attr]
    form = {"csrf": csrf, "next": "/", "name": name, "password": PASSWORD}
    return http.post("/login", data=form, headers={"Origin": origin})


def test_pages_log_in_with_a_secure_cookie_and_the_cross_site_check_holds(proxied: Proxied) -> None:
    account(proxied, "page1")
    with proxied.client("127.0.0.2") as http:
        form = http.get("/login")  # the log-in form's own token cookie is kept from plain HTTP too
        assert "tilejudge_login=" in form.headers["set-cookie"] and "secure" in form.headers["set-cookie"].lower()
        elsewhere = page_login(http, "page1", "https://elsewhere.example")
        assert elsewhere.status_code == 403, "another site's log-in form went through nginx"
        logged = page_login(http, "page1", proxied.url)  # the site's own page: Origin names the Host nginx passed
        assert logged.status_code == 303, logged.text[:300]
        cookie = logged.headers["set-cookie"]
        assert "tilejudge_session=" in cookie and "secure" in cookie.lower(), cookie
        assert "httponly" in cookie.lower()
        assert "Log out" in http.get("/").text or http.get("/account").status_code == 200
    with httpx.Client(base_url=proxied.server.url, timeout=60) as direct:  # the same server over plain HTTP
        answer = direct.post("/api/v1/login", json={"name": "page1", "password": PASSWORD})
        assert answer.status_code == 200
        assert "secure" not in answer.headers["set-cookie"].lower()  # Secure comes from nginx's X-Forwarded-Proto


def event_of(line: str, sid: int) -> bool:
    return line.startswith("data:") and (f'"submission_id": {sid}' in line or f'"id": {sid}' in line)


def test_the_api_and_the_event_streams_through_nginx_arrive_as_they_happen(proxied: Proxied) -> None:
    token = account(proxied, "api1")
    with proxied.client("127.0.0.2") as page, proxied.client("127.0.0.2", Authorization=f"Bearer {token}") as api:
        assert page_login(page, "api1", proxied.url).status_code == 303
        with page.stream("GET", "/live") as live:  # the pages' stream: it never ends while its page is open
            assert live.headers["content-type"].startswith("text/event-stream")
            lines = live.iter_lines()
            assert next(lines).startswith("retry:")  # its first frame, sent at once
            body = {"problem": "aplusb", "files": [{"name": "s.py", "content": SUM}]}
            made = api.post("/api/v1/submissions", json=body)
            assert made.status_code in (200, 202), made.text
            sid = made.json()["id"]
            # The stream is still open, so an event of this submission reaches us only if nginx passes each frame
            # on as it comes (the client's read timeout, 60 s, fails the test otherwise).
            assert any(event_of(line, sid) for line in lines)
        frames: list[str] = []
        with api.stream("GET", f"/api/v1/submissions/{sid}/events") as stream:  # the API's: ends after the verdict
            assert stream.headers["content-type"].startswith("text/event-stream")
            frames.extend(stream.iter_lines())
        assert any(line.startswith("event: judgements") for line in frames), frames
        view = api.get(f"/api/v1/submissions/{sid}").json()
        assert view["state"] == "done" and view["verdict"] == "AC", view
        shown = page.get(f"/submissions/{sid}")  # the submission's page, with the session cookie nginx carried
        assert shown.status_code == 200 and "aplusb" in shown.text


def test_the_icpc_event_feed_through_nginx_arrives_as_it_happens(proxied: Proxied) -> None:
    token = account(proxied, "feed1")
    with proxied.client("127.0.0.2", Authorization=f"Bearer {proxied.admin}") as jury:
        cid = jury.get("/api/contests").json()[0]["id"]
        with (
            jury.stream("GET", f"/api/contests/{cid}/event-feed") as feed,
            proxied.client("127.0.0.2", Authorization=f"Bearer {token}") as team,
        ):
            lines = feed.iter_lines()
            assert '"type": "contest"' in next(lines).replace('":"', '": "')  # the objects come first, at once
            body = {"problem": "aplusb", "files": [{"name": "s.py", "content": SUM}]}
            made = team.post("/api/v1/submissions", json=body)
            assert made.status_code in (200, 202), made.text
            sid = str(made.json()["id"])
            # The feed never ends: a line of this submission reaches us only if nginx passes each one on at once.
            for line in lines:
                if line.strip() and '"submissions"' in line and f'"id": "{sid}"' in line.replace('":"', '": "'):
                    break


def login(http: httpx.Client, name: str, password: str) -> httpx.Response:
    return http.post("/api/v1/login", json={"name": name, "password": password})


def test_the_throttle_counts_the_address_nginx_passed(proxied: Proxied) -> None:
    account(proxied, "guessed")
    failures = 0
    with proxied.client("127.0.0.2") as guesser:
        # Guess until the wait after the last failure is 4 s (7 failures: 5 free, then 1 s and 2 s waits, taken as
        # Retry-After says): the checks below then fall well inside it, however loaded the machine.
        for _ in range(20):
            answer = login(guesser, "guessed", "wrong")
            if answer.status_code == 401:
                failures += 1
                continue
            assert answer.status_code == 429 and answer.json()["error"]["code"] == "throttled", answer.text
            if failures >= ACCOUNT_FREE + 2:
                break
            time.sleep(int(answer.headers["retry-after"]))  # the server's own clock: nothing to await but it
        assert failures == ACCOUNT_FREE + 2
    # The guesser, naming another address in its own X-Forwarded-For: nginx replaces it with the one it saw.
    with proxied.client("127.0.0.2", **{"X-Forwarded-For": "10.66.0.1"}) as spoofing:
        refused = login(spoofing, "guessed", PASSWORD)
        assert refused.status_code == 429, "a client chose the address its guesses count against"
    # Another address (the account's owner elsewhere): the right password is checked at once.
    with proxied.client("127.0.0.3") as owner:
        answer = login(owner, "guessed", PASSWORD)
        assert answer.status_code == 200, answer.text


def test_the_systemd_unit_of_the_page_verifies(tmp_path: Path) -> None:
    analyze = shutil.which("systemd-analyze")
    if analyze is None:
        pytest.skip("systemd-analyze is not installed (Debian package systemd)")
    program = Path(sys.executable).with_name("tilejudge")
    if not program.exists():
        pytest.skip(f"{program} is not installed (pip install -e . in this venv)")
    unit = tmp_path / "tilejudge.service"
    unit.write_text(
        filled(doc_block("ini"), {"/srv/tilejudge/.venv/bin/tilejudge": str(program), "/srv/tilejudge": str(REPO_ROOT)})
    )
    done = subprocess.run([analyze, "verify", str(unit)], capture_output=True, text=True, timeout=120)
    about = [line for line in (done.stdout + done.stderr).splitlines() if unit.name in line]
    assert done.returncode == 0 and not about, done.stdout + done.stderr
