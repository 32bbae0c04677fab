"""``list``: the bundled problems with title, limits and case count (rows cached by ``listing.py``)."""
from __future__ import annotations

import argparse

from ..errors import EXIT_ACCEPTED
from ..text import table
from .listing import HEADERS, SPEC, rows
from .places import PROBLEMS, shown


def add(sub: argparse._SubParsersAction) -> None:
    sub.add_parser("list", help="bundled problems with title, limits and case count")

def run(_: argparse.Namespace) -> int:
    found = rows([(root, shown(root)) for root in sorted(p.parent for p in PROBLEMS.glob(f"*/{SPEC}"))])
    print(table(found, HEADERS) if found else "no problems under problems/")
    return EXIT_ACCEPTED
