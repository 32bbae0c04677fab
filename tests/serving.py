"""A real ``tilejudge serve`` process for the service's tests: started on a free loopback port, always stopped.

The server runs as ``python run_judge.py serve SITE`` in a session (and so a
process group) of its own; ``stop`` ends the group, SIGTERM first, and
``kill`` is the SIGKILL a crashed machine would deliver. Its stdout goes to
a file the tests read (the first start prints the admin's token there).
"""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import sqlite3
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import httpx
from harness import REPO_ROOT

from judge.serve.queue import PENDING, sql_in

START_TIMEOUT = 240.0  # generous: a first start may generate a bundled problem's cases


def _one_tls_context_for_every_client() -> None:
    """Every httpx client (and each ``httpx.get``) made a TLS context of its own, loading certifi's bundle of some
    150 certificates: 35 ms of CPU each, over 200 times in the fast subset, for servers these tests speak plain HTTP
    to on loopback. The default context (``verify=True``, no client certificate) is made once per process and shared,
    as httpx's documentation advises for many clients; a client asking for anything else gets its own as before.
    Where httpx no longer has the function (a later release), nothing changes but the cost."""
    import httpx._transports.default as transports

    made = getattr(transports, "create_ssl_context", None)
    if made is None or getattr(made, "shared_default", False):
        return
    shared: list[object] = []

    def create_ssl_context(verify: object = True, cert: object = None, trust_env: bool = True) -> object:
        if verify is not True or cert is not None or not trust_env:
            return made(verify=verify, cert=cert, trust_env=trust_env)
        if not shared:
            shared.append(made(verify=verify, cert=cert, trust_env=trust_env))
        return shared[0]

    create_ssl_context.shared_default = True  # type: ignore[attr-defined]
    transports.create_ssl_context = create_ssl_context


_one_tls_context_for_every_client()


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def write_site(folder: Path, text: str) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "site.yaml").write_text(text)
    return folder


def add_user(site: Path, name: str, role: str) -> str:
    """``serve SITE --add-user`` run in this process (``harness.cli``): the token is the last line it prints. The
    command's process (a Python start and the judge's imports, about 0.6 s of CPU for each of some twenty-five
    accounts) is not what these tests check; test_serve_rejudge_grades makes its teacher with the command as a
    process of its own. For a site whose server is not started yet or runs beside it."""
    from harness import cli

    done = cli("serve", str(site), "--add-user", name, "--role", role, timeout=60)
    assert done.returncode == 0, done.stderr
    return done.stdout.strip().splitlines()[-1]


class Server:
    def __init__(
        self,
        site: Path,
        workers: int = 2,
        jobs: int = 2,
        extra: list[str] | None = None,
        wrap: list[str] | None = None,
        cwd: Path | None = None,
        admin_password: bool = True,
        real_passwords: bool = False,
    ) -> None:
        """``admin_password=False``: the site's admin is made before the first start (``serve --add-user admin``,
        in this process) with a token and no password, so the start, finding an admin, makes none of its own: no
        argon2 hash of a printed password (a fifth of a CPU-second and more on a loaded machine) for a module that
        never logs in as the admin. ``admin_token`` gives that token. The first start's own admin stays the
        default: test_serve_api and the tests reading its password keep it.

        ``real_passwords=False``: the server hashes and checks passwords with argon2 at its cheapest
        (``serve_cheap_passwords``: a fifth of a CPU-second less per log-in); ``True`` for a test of what the real
        cost does."""
        self.site = site
        self.admin_password = admin_password
        self.real_passwords = real_passwords
        self._made_token: str | None = None
        self.cwd = cwd or REPO_ROOT  # where the server starts (``cd SITE && tilejudge serve .``: the site)
        self.extra = extra or []
        self.wrap = wrap or []  # a command the server runs under (``unshare --pid --fork``: a judge in a container)
        self.workers, self.jobs = workers, jobs
        self.port = 0
        self.proc: subprocess.Popen[bytes] | None = None
        self.log = site / "server.out"

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> Server:
        return self.spawn().ready()

    def spawn(self) -> Server:
        """The process started, not yet answering (``ready`` waits for that): two servers a test needs at once start
        side by side, each start's seconds of imports and preparing spent while the other's are."""
        self.port = self.port or free_port()  # a restart listens where its clients know it
        self._admin_before_first_start()
        entry = "run_judge.py" if self.real_passwords else "tests/serve_cheap_passwords.py"
        argv = [*self.wrap, sys.executable, str(REPO_ROOT / entry), "serve", str(self.site)]
        argv += ["--port", str(self.port)]
        argv += ["--workers", str(self.workers), "-j", str(self.jobs), *self.extra]
        with self.log.open("ab") as out:
            self.proc = subprocess.Popen(
                argv, stdout=out, stderr=subprocess.STDOUT, cwd=self.cwd, start_new_session=True
            )
        return self

    def ready(self) -> Server:
        """Once the spawned server's API answers 200."""
        return self._until(lambda http: http.get(self.url + "/api/v1").status_code == 200, START_TIMEOUT, "answer")

    def launch(self, timeout: float = START_TIMEOUT) -> Server:
        """Start it and return once it listens, whatever it answers (``start`` waits for the API's 200, which a server
        still preparing its problems does not give)."""
        return self.spawn()._until(lambda http: http.get(self.url + "/healthz") is not None, timeout, "listen")

    def _until(self, answered: Callable[[httpx.Client], bool], timeout: float, what: str) -> Server:
        """Once ``answered`` holds for the spawned server, asked every 0.1 s by one client (a refused connection costs
        it well under a millisecond): every 0.2 s, a start's answer waited 0.1 s on average for nothing. Not more
        often: a server preparing its problems listens already and answers each ask (503) with CPU the start needs."""
        assert self.proc is not None
        deadline = time.monotonic() + timeout
        with httpx.Client(timeout=2) as http:
            while time.monotonic() < deadline:
                if self.proc.poll() is not None:
                    raise AssertionError(f"the server ended at start: {self.log.read_text()}")
                with contextlib.suppress(httpx.HTTPError):
                    if answered(http):
                        return self
                time.sleep(0.1)
        self.stop()
        raise AssertionError(f"the server did not {what}: {self.log.read_text()}")

    def _admin_before_first_start(self) -> None:
        if not self.admin_password and self._made_token is None and not (self.site / "site.sqlite").exists():
            self._made_token = add_user(self.site, "admin", "admin")

    def admin_token(self) -> str:
        if self._made_token is not None:
            return self._made_token
        for line in self.log.read_text().splitlines():
            if "its API token" in line:
                return line.rsplit(" ", 1)[-1]
        raise AssertionError("no admin token printed")

    def kill(self) -> None:
        """SIGKILL, as a crash would: nothing of the server runs its clean-up."""
        if self.proc is not None and self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait(timeout=30)

    def stop(self) -> None:
        if self.proc is None or self.proc.poll() is not None:
            return
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.proc.pid, signal.SIGTERM)
        try:
            self.proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            self.kill()


class Client:
    """httpx with a token, and the waits the tests need."""

    def __init__(self, server: Server, token: str | None) -> None:
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        self.http = httpx.Client(base_url=server.url + "/api/v1", headers=headers, timeout=60)

    def submit(self, problem: str, name: str, content: str, language: str | None = None, wait: float = 0) -> dict:
        body = {"problem": problem, "files": [{"name": name, "content": content}]}
        if language:
            body["language"] = language
        answer = self.http.post("/submissions", params={"wait": wait} if wait else None, json=body)
        assert answer.status_code in (200, 202), answer.text
        return answer.json()

    def done(self, sid: int, timeout: float = 120) -> dict:
        """The submission once judged (polled: the tests of events follow them instead)."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            view = self.http.get(f"/submissions/{sid}").json()
            if view["state"] in ("done", "error"):
                return view
            time.sleep(0.2)
        raise AssertionError(f"submission {sid} not judged in {timeout} s: {view}")


def store_rows(site: Path) -> dict[str, list[tuple]]:
    """Every table's rows of a site's store, read-only (the server's store is not touched), to compare before and
    after a request that must change nothing; a token's ``last_used`` is left out: any request showing a token may
    write it, at most once a minute, even one refused later."""
    db = _read_only(site)
    try:
        return _rows(db)
    finally:
        db.close()


def _read_only(site: Path) -> sqlite3.Connection:
    return sqlite3.connect(f"file:{site / 'site.sqlite'}?mode=ro", uri=True, timeout=30)


def _rows(db: sqlite3.Connection) -> dict[str, list[tuple]]:
    tables = [row[0] for row in db.execute("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")]
    dump = {}
    for table in tables:
        columns = [row[1] for row in db.execute(f"PRAGMA table_info({table})") if row[1] != "last_used"]
        dump[table] = db.execute(f"SELECT {', '.join(columns)} FROM {table} ORDER BY rowid").fetchall()
    return dump


class StoreWatch:
    """``store_rows`` of one site, many times over (the fuzzing's before and after of each of its ~1000 requests),
    through one read-only connection that reads the tables again only once another connection has committed since
    (SQLite's ``data_version``): a request that changed nothing costs no reading of every table for the next one."""

    def __init__(self, site: Path) -> None:
        self.db = _read_only(site)
        self._seen: tuple[int, dict[str, list[tuple]]] | None = None

    def rows(self) -> dict[str, list[tuple]]:
        version = int(self.db.execute("PRAGMA data_version").fetchone()[0])  # read first: a commit after it reads again
        if self._seen is None or self._seen[0] != version:
            self._seen = (version, _rows(self.db))
        return self._seen[1]

    def busy(self) -> int:
        """Submissions queued or being judged (the service's own ``PENDING`` states)."""
        found = self.db.execute(f"SELECT COUNT(*) FROM submissions WHERE state IN {sql_in(PENDING)}")
        return int(found.fetchone()[0])

    def close(self) -> None:
        self.db.close()


def session_of(site: Path, name: str) -> tuple[str, str]:
    """A session of the account ``name``, as a log-in makes one: its cookie and its CSRF token. Made by the store's
    own ``Sessions`` with the site's key, beside the running server (its store is a file any process may write; a
    session is read from it on each request), without a password: for tests of what a session opens or ends, not
    of log-ins, which would pay argon2's real cost (64 MiB, most of a second on a loaded machine) for each one."""
    from judge.serve.auth import Sessions, site_key
    from judge.serve.store import Store

    store = Store(site)
    try:
        row = store.one("SELECT id FROM users WHERE name = ?", (name,))
        assert row is not None, f"no account '{name}'"
        cookie, session = Sessions(site_key(site)).make(store, int(row["id"]))
        return cookie, session.csrf
    finally:
        store.close()
