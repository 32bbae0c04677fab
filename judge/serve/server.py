"""Starting a site: its store opened and recovered, the first admin made, the workers and the HTTP server started."""

from __future__ import annotations

import fcntl
import os
import secrets
import signal
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from ..errors import UsageError
from ..model import Problem
from ..run import SlotPool
from .auth import Sessions, add_user, new_token, site_key
from .connections import Bounds, guarded
from .names import text_fault
from .queue import recover
from .service import Service
from .site import Site
from .sources import Sources, owner_only
from .startup import Startup
from .store import STORE_FILE, Store
from .store_accounts import has_admin
from .telemetry import Log, Telemetry
from .workers import Workers

ADMIN = "admin"
STOP_GRACE = 10.0  # seconds a SIGTERM lets a judging in flight finish before it is queued again


def lock_site(site: Path) -> int:
    """Hold the site for this server's life (an ``flock`` the kernel drops when it dies): two servers on one store
    would judge each submission twice. The descriptor is kept open until the process ends."""
    fd = os.open(site / ".server.lock", os.O_WRONLY | os.O_CREAT | os.O_CLOEXEC, 0o600)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        os.close(fd)
        raise UsageError(f"{site}: another server is serving this site") from None
    return fd


def tighten_site(site: Path) -> int:
    """What the server keeps in a site, its user's alone: the submitted sources (0600 in 0700 folders), the store
    with its write-ahead log (password and token hashes, every result), the session key and the lock. A site an
    older version wrote has them 0644 in 0755 folders, so a program running as another uid could read them wherever
    the site's folder is visible to it; returns how many modes were changed."""
    changed = Sources(site).tighten()
    for name in (STORE_FILE, f"{STORE_FILE}-wal", f"{STORE_FILE}-shm", "secret.key", ".server.lock"):
        changed += owner_only(site / name)
    return changed


def make_account(store: Store, name: str, role: str, password: str | None = None) -> str:
    """A new account and its first API token, which is returned (and never stored). The name is checked as the API
    checks one (``--add-user`` takes it from the command line, where any bytes may come)."""
    fault = "it is empty" if not name.strip() else text_fault(name)
    if fault is not None:
        raise UsageError(f"the account name {name!r} is no name: {fault}")
    with store.tx() as db:
        user = add_user(db, name, role, password=password)
        return new_token(db, user.id, "made with the account")[1]


def first_admin(store: Store) -> tuple[str, str] | None:
    """On a site without an admin (its first start, whatever --add-user made before it), an admin with a random
    password: (password, token) to print once; else None."""
    if has_admin(store):
        return None
    password = secrets.token_urlsafe(12)
    return password, make_account(store, ADMIN, "admin", password)


def serve(
    site: Site,
    store: Store,
    prepare: Callable[[], dict[str, Problem]],
    pool: SlotPool,
    host: str,
    port: int,
    workers: int,
    cluster: str | None = None,
    proxies: tuple[str, ...] = (),
    bounds: Bounds | None = None,
    log: Log | None = None,
    grace: float = STOP_GRACE,
) -> None:
    """Listen at once and serve until SIGINT or SIGTERM, while ``prepare`` makes the problems ready (their missing
    cases generated) on a thread: until then every page and the API say so (``startup.py``). On SIGTERM no more
    work is taken, a judging in flight has ``grace`` seconds to finish, and what is still running then is queued
    again; a server killed outright leaves it to the next start (``queue.recover``)."""

    from .app import make_app

    again = recover(store)
    if again:
        print(f"{again} submission(s) the last server was judging are queued again", file=sys.stderr)
    telemetry = Telemetry(log)

    def build() -> Service:
        problems = prepare()
        remote = None
        if cluster:
            from .remote import Remote

            remote = Remote(cluster, problems, pool.isolation.mode)
            print(f"judging on the Dask cluster at {cluster}", file=sys.stderr)
        team = Workers(store, problems, pool, workers, remote, telemetry)
        return Service(site, store, problems, team, Sessions(site_key(site.root)))

    if workers == 0:
        print("--workers 0: submissions are taken and queued, none is judged by this server", file=sys.stderr)
    startup = Startup(site.title, store, build, abort=pool.abort)
    config = uvicorn_config(make_app(startup=startup, telemetry=telemetry, grace=grace), host, port, proxies, bounds)
    server = _server(config, startup)
    startup.on_failure = lambda: setattr(server, "should_exit", True)
    where = f"http://{f'[{host}]' if ':' in host else host}:{port}"
    print(
        f"serving {site.title} ({len(site.problems)} problem(s)): pages at {where}/login, API at {where}/api/v1",
        flush=True,
    )
    previous = signal.signal(signal.SIGTERM, _stopped)
    try:
        server.run()
    finally:
        signal.signal(signal.SIGTERM, previous)
    if startup.error is not None and not server.signalled:
        raise startup.error


def _server(config: Any, startup: Startup) -> Any:
    """uvicorn's server, told one more thing: a signal stops the workers' taking work and ends the open event streams
    at once, not only once the open connections have closed (``signalled`` tells a stop asked for from a failed
    start)."""
    import uvicorn

    class Server(uvicorn.Server):
        signalled = False

        def handle_exit(self, sig: int, frame: Any) -> None:
            self.signalled = True
            if startup.service is not None:
                startup.service.workers.close()
                startup.service.bell.close()  # the open event streams end now, not at the graceful timeout
            super().handle_exit(sig, frame)

    return Server(config)


def _stopped(signum: int, frame: object) -> None:
    """SIGTERM, once uvicorn has shut down gracefully: it raises the signal again with the handler it found, and
    the default one would end the process on the spot, leaving the slots' control groups and private folders and
    the store open. Exiting here unwinds the callers, which close all three."""
    raise SystemExit(0)


def uvicorn_config(app: Any, host: str, port: int, proxies: tuple[str, ...], bounds: Bounds | None = None) -> Any:
    """The server's settings. A client's address (what the log-in throttle counts) is the connection's own unless
    it comes from one of ``proxies``, whose ``X-Forwarded-For`` is then believed: uvicorn's default believes it from
    127.0.0.1, which would let anyone with a shell on this machine pick the address each guess is counted against.
    Its HTTP protocol is uvicorn's own within ``bounds`` (``connections.py``: a head's time, connections per
    address), which uvicorn does not bound by itself."""
    import uvicorn
    from uvicorn.protocols.http.auto import AutoHTTPProtocol

    return uvicorn.Config(
        app,
        host=host,
        port=port,
        log_level="warning",
        access_log=False,
        lifespan="on",
        proxy_headers=bool(proxies),
        forwarded_allow_ips=list(proxies),
        timeout_graceful_shutdown=5,  # an open event stream must not hold a stopping server
        http=guarded(AutoHTTPProtocol, bounds or Bounds(exempt=proxies)),
    )
