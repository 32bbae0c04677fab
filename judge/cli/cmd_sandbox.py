"""``sandbox``: what isolation this machine gives submissions, and why anything is weaker than the full sandbox.

The probe the judge makes before every judging, shown on its own, so a new
machine can be checked before a contest instead of finding out from a warning.
"""

from __future__ import annotations

import argparse

from ..errors import EXIT_ACCEPTED
from ..run import ENV_MODE, MODES, describe_sandbox, resolve_sandbox


def add(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("sandbox", help="show the sandbox mode and control groups judging would use here")
    p.add_argument("--sandbox", choices=MODES, help=f"mode to check (default: ${ENV_MODE} or auto)")


def run(args: argparse.Namespace) -> int:
    isolation, warnings = resolve_sandbox(args.sandbox)
    print(describe_sandbox(isolation))
    for warning in warnings:
        print(warning)
    return EXIT_ACCEPTED
