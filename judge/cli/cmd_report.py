"""``report``: the reports of a results folder written again from its database."""

from __future__ import annotations

import argparse
from pathlib import Path

from ..errors import EXIT_ACCEPTED, UsageError
from .places import shown


def add(sub: argparse._SubParsersAction) -> None:
    rp = sub.add_parser("report", help="rewrite the reports of a results folder from its database")
    rp.add_argument("results", type=Path, help="a folder written by grade --out")


def run(args: argparse.Namespace) -> int:
    from ..grade import reports
    from ..grade.store import DB_NAME, Store

    if not (args.results / DB_NAME).is_file():
        raise UsageError(f"{args.results}: no {DB_NAME} here (write one with grade --out)")
    with Store(args.results) as store:
        paths = reports.write_all(store, args.results)
        print(reports.terminal_summary(reports.load(store)))
    print("reports: " + ", ".join(shown(p) for p in paths))
    return EXIT_ACCEPTED
