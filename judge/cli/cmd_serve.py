"""``serve``: the judge as an HTTP service for the class or contest a site folder describes (docs/serve.md)."""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TextIO

from ..errors import SetupError, UsageError
from ..run import ENV_MODE, MODES
from .usage import EPILOG

ROLES = ("student", "team", "teacher", "jury", "admin")
SITE_SEEN = (
    "submitted programs run as this server's user and see the machine's files: they can read the site "
    "(site.yaml, the store, every source, the session key) and the problems' answers"
)


def add(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "serve",
        help="serve a class or contest over HTTP (SITE/site.yaml names its problems)",
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("site", help="the site folder: site.yaml, and the store the server keeps there")
    p.add_argument("--host", default="127.0.0.1", help="address to listen on (default: 127.0.0.1, this machine only)")
    p.add_argument("--port", type=int, default=8080, help="port to listen on (default: 8080)")
    p.add_argument(
        "--workers",
        type=int,
        default=2,
        help="submissions judged at once (default: 2; 0 takes and stores submissions but judges none until a server "
        "with workers starts)",
    )
    p.add_argument(
        "-j", "--jobs", type=int, default=os.cpu_count() or 1, help="parallel runs in all (default: number of CPUs)"
    )
    p.add_argument("--sandbox", choices=MODES, help=f"isolation of submissions (default: ${ENV_MODE} or auto)")
    p.add_argument(
        "--cluster",
        metavar="ADDR",
        help="judge on the Dask scheduler at ADDR (tcp://host:8786), as grade --cluster does; needs the cluster extra",
    )
    p.add_argument(
        "--proxy",
        metavar="ADDR",
        action="append",
        default=[],
        help="a reverse proxy's address whose X-Forwarded-For names the client (repeatable; default: none is trusted)",
    )
    p.add_argument(
        "--head-timeout",
        metavar="S",
        type=float,
        help="seconds a connection has to send a request's head, and the longest gap in its body (default: 30)",
    )
    p.add_argument(
        "--connections-per-address",
        metavar="N",
        type=int,
        help="open connections one client address may hold; more are closed at once (default: 128; a --proxy's "
        "are not counted)",
    )
    p.add_argument(
        "--backup",
        metavar="FILE",
        help="write a consistent backup of the site (store, sources, site.yaml, session key) to FILE, a .tar.gz, "
        "while its server runs, and exit",
    )
    p.add_argument(
        "--restore",
        metavar="FILE",
        help="unpack the backup FILE into SITE, a new or empty folder, checked whole, and exit (then serve SITE)",
    )
    p.add_argument(
        "--import",
        dest="package",
        metavar="PACKAGE",
        help="make SITE, a new or empty folder, from the contest package PACKAGE (a folder or .zip: contest.yaml, "
        "problems.yaml, the problems as Kattis packages, teams, accounts, submissions), and exit (then serve SITE)",
    )
    p.add_argument(
        "--log",
        metavar="FILE",
        help="write the log (a line per request and per judging) to FILE, appended (default: stderr)",
    )
    p.add_argument("--log-json", action="store_true", help="log lines as JSON objects, one a line, for a collector")
    p.add_argument(
        "--stop-grace",
        metavar="S",
        type=float,
        default=10.0,
        help="on SIGTERM, seconds a judging in flight may take to finish before it is queued again (default: 10)",
    )
    p.add_argument("--add-user", metavar="NAME", help="make an account, print its API token as the last line, and exit")
    p.add_argument("--role", choices=ROLES, default="student", help="the role of --add-user's account")
    p.add_argument("--password", help="--add-user's password, for logging in on pages (default: none, token only)")


def run(args: argparse.Namespace) -> int:
    site_root = Path(args.site)
    if sum(bool(chosen) for chosen in (args.backup, args.restore, args.add_user, args.package)) > 1:
        raise UsageError("--backup, --restore, --import and --add-user are one at a time")
    if args.restore:
        from ..serve.backup import restore

        print(f"restored {args.restore} into {site_root}: {restore(Path(args.restore), site_root)}")
        return 0
    if args.package:
        web_stack()
        from ..serve.package_import import import_package
        from .places import PROBLEMS

        made = import_package(Path(args.package), site_root, Path(PROBLEMS))
        print(f"made the contest site {site_root} from {args.package}: {made}")
        return 0
    if not site_root.is_dir():
        raise UsageError(f"{args.site}: no such folder (a site is a folder with a site.yaml)")
    if not 0 <= args.port <= 65535 or args.workers < 0 or args.jobs < 1:
        raise UsageError("--port must be 0-65535, --workers at least 0 and --jobs at least 1")
    timeout, most = args.head_timeout, args.connections_per_address
    if (timeout is not None and not 0 < timeout <= 3600) or (most is not None and most < 1):
        raise UsageError("--head-timeout must be over 0 and at most 3600 s, --connections-per-address at least 1")
    if not 0 <= args.stop_grace <= 3600:
        raise UsageError("--stop-grace must be 0-3600 s")
    if args.backup:
        from ..serve.backup import backup

        print(f"backed up {site_root} to {args.backup}: {backup(site_root, Path(args.backup))}")
        return 0
    web_stack()
    from ..serve.server import make_account
    from ..serve.store import Store

    site_root = site_root.resolve()
    if args.add_user:
        store = Store(site_root)
        if store.migrated:
            print(store.migrated, file=sys.stderr)
        try:
            token = make_account(store, args.add_user, args.role, args.password)
        except ValueError as exc:  # a name taken (auth.Duplicate), too long, or a password too short or too long
            raise UsageError(str(exc)) from None
        print(f"made the {args.role} account {args.add_user}; its API token:")
        print(token)
        return 0
    return _serve(args, site_root, Store)


def web_stack(command: str = "serve") -> None:
    """``serve`` and ``shadow`` (which writes a site's store) are the commands that need the ``[web]`` extra, which
    judging alone does without: where it is missing, say how to install it in one line rather than fail on the first
    import deep in the service."""
    from importlib.util import find_spec

    try:
        import argon2  # noqa: F401
        import jinja2  # noqa: F401
        import starlette  # noqa: F401
        import uvicorn  # noqa: F401
    except ImportError as exc:
        missing: str | None = exc.name
    else:  # the statement pages' renderer, imported at the first one shown: only looked for here
        missing = None if find_spec("markdown_it") is not None else "markdown_it"
    if missing is not None:
        raise SetupError(
            f"{command} needs the web stack ({missing} is not installed): "
            "pip install 'tilejudge[web]' (or -r requirements-web.txt)"
        )


def _serve(args: argparse.Namespace, site_root: Path, store_type: type) -> int:
    from ..problem.formats import load
    from ..run import SlotPool, resolve_sandbox
    from ..serve.connections import HEAD_TIMEOUT, PER_ADDRESS, Bounds
    from ..serve.server import first_admin, lock_site, serve, tighten_site
    from ..serve.site import judged_as, load_site
    from ..serve.telemetry import Log
    from .common import ready
    from .places import PROBLEMS, shown

    lock_site(site_root)  # held until this process ends, however it ends
    tighten_site(site_root)
    site = load_site(site_root, Path(PROBLEMS))
    isolation, warnings = resolve_sandbox(args.sandbox)
    for warning in warnings:
        print(warning, file=sys.stderr)
    if not (isolation.sandboxed or isolation.private_mounts):
        print(
            f"warning: {SITE_SEEN} ({isolation.mode} mode{'' if isolation.mode == 'none' else ' without root'})",
            file=sys.stderr,
        )
    loaded = {name: judged_as(load(entry.path, shown(entry.path)), entry) for name, entry in site.problems.items()}
    # the site's folder (its settings, store, sources and key) is hidden from every run, as the problems' are
    conceal = [site_root, *(folder for problem in loaded.values() for folder in problem.folders)]
    with SlotPool(args.jobs, isolation, conceal=conceal) as pool, _log_stream(args.log) as stream:
        store = store_type(site_root)
        if store.migrated:
            print(store.migrated, file=sys.stderr)
        made = first_admin(store)
        if made is not None:
            password, token = made
            print(f"made the admin account: name admin, password {password}")
            print(f"its API token (send it as Authorization: Bearer TOKEN): {token}", flush=True)
        try:
            bounds = Bounds(
                args.head_timeout or HEAD_TIMEOUT, args.connections_per_address or PER_ADDRESS, tuple(args.proxy)
            )
            serve(
                site,
                store,
                lambda: {name: ready(problem, pool) for name, problem in loaded.items()},  # while it listens
                pool,
                args.host,
                args.port,
                args.workers,
                args.cluster,
                tuple(args.proxy),
                bounds,
                Log(stream, args.log_json),
                args.stop_grace,
            )
        finally:
            store.close()
    return 0


@contextmanager
def _log_stream(path: str | None) -> Iterator[TextIO]:
    """stderr, or ``--log FILE`` opened for appending (the server's user alone reads it: it names clients'
    addresses); a file that cannot be opened is one line before anything starts."""
    if path is None:
        yield sys.stderr
        return
    try:
        fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT | os.O_CLOEXEC, 0o600)
    except OSError as exc:
        raise UsageError(f"--log {path}: {exc.strerror}") from None
    with os.fdopen(fd, "a", encoding="utf-8") as stream:
        yield stream
