"""``shadow``: follow another CCS's Contest API event feed and judge its submissions here too (docs/serve.md)."""

from __future__ import annotations

import argparse
import signal
import sys
from pathlib import Path
from types import FrameType

from ..errors import UsageError


def add(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "shadow",
        help="judge another CCS's submissions here too and show the jury where the verdicts differ",
    )
    p.add_argument("url", help="the primary's contest, http://HOST/api/contests/ID (or its API's base: one contest)")
    p.add_argument("--site", required=True, help="the site folder whose judge shadows (its server runs beside)")
    p.add_argument(
        "--credentials",
        metavar="FILE",
        type=Path,
        help="a file whose first line is NAME:PASSWORD for the primary (default: $TILEJUDGE_SHADOW_CREDENTIALS)",
    )
    p.add_argument("--report", metavar="FILE", type=Path, help="keep a report of every submission here (.csv or JSON)")
    p.add_argument("--once", action="store_true", help="read the feed as it is now and exit (default: follow it)")


def _stop(signum: int, frame: FrameType | None) -> None:
    from ..serve.shadow import Stopped

    raise Stopped


def run(args: argparse.Namespace) -> int:
    from .cmd_serve import web_stack

    web_stack(
        "shadow"
    )  # the site's store and workflow are the service's: a missing [web] extra is one line, not a traceback
    from ..problem.formats import load
    from ..serve.shadow import Shadow, Stopped
    from ..serve.shadow_client import credentials, locate
    from ..serve.shadow_compare import Watcher, summary
    from ..serve.site import load_site
    from ..serve.store import Store
    from .places import PROBLEMS

    root = Path(args.site)
    if not root.is_dir():
        raise UsageError(f"{args.site}: no such folder (a site is a folder with a site.yaml)")
    site = load_site(root.resolve(), Path(PROBLEMS))
    if site.kind != "contest":
        raise UsageError(f"{args.site}: a {site.kind} site: only a contest shadows another CCS")
    if args.report is not None and not args.report.parent.is_dir():
        raise UsageError(f"--report {args.report}: no folder {args.report.parent} to write it in")
    primary = locate(args.url, credentials(args.credentials))
    counts: dict[str, int] = {}

    def cases(problem: str) -> int:  # the local copy's cases, for its progress (0 where it cannot be read here)
        if problem not in counts:
            try:
                counts[problem] = len(load(site.problems[problem].path).cases)
            except Exception:  # noqa: BLE001 - the server reads the problem itself; a count is only shown
                counts[problem] = 0
        return counts[problem]

    def say(line: str) -> None:
        print(line, file=sys.stderr, flush=True)

    store = Store(site.root)
    if store.migrated:
        print(store.migrated, file=sys.stderr)
    signal.signal(signal.SIGTERM, _stop)
    signal.signal(signal.SIGINT, _stop)
    try:
        with Watcher(store, args.report, say) as watcher:
            say(f"shadowing {primary.url('')} into {args.site}")
            try:
                Shadow(site, store, primary, cases, say).run(args.once)
            except Stopped:
                pass
        totals = summary(watcher.check())
        print(", ".join(f"{n} {status}" for status, n in totals.items()))
    finally:
        store.close()
    return 0
