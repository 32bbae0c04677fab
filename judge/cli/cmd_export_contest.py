"""``export-contest``: a contest site written as a contest package, for the tools that read one (docs/serve.md)."""

from __future__ import annotations

import argparse
from pathlib import Path

from ..errors import SetupError
from .usage import EPILOG


def add(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "export-contest",
        help="write a contest site as a contest package (contest, problems, teams, submissions, results, event feed)",
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("site", help="the contest site folder (its site.yaml and store); a server may be running on it")
    p.add_argument("out", type=Path, help="a new or empty folder the package is written into")


def run(args: argparse.Namespace) -> int:
    from .cmd_serve import web_stack

    # the export asks the site's own Contest API, in process, through httpx's ASGI transport
    web_stack("export-contest")
    try:
        import httpx  # noqa: F401
    except ImportError:
        raise SetupError(
            "export-contest needs httpx: pip install 'tilejudge[web]' (or -r requirements-web.txt)"
        ) from None
    from ..errors import UsageError
    from ..serve.package_export import export_contest
    from .places import PROBLEMS

    site = Path(args.site)
    if not (site / "site.yaml").is_file():
        raise UsageError(f"{args.site}: no site.yaml (a site is a folder with a site.yaml)")
    made = export_contest(site.resolve(), args.out, Path(PROBLEMS))
    print(f"exported {site} as a contest package into {args.out}: {made}")
    return 0
