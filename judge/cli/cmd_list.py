"""``list``: the bundled problems with title, limits and case count (rows cached by ``listing.py``)."""

from __future__ import annotations

import argparse
import os

from ..errors import EXIT_ACCEPTED
from ..text import table
from .listing import HEADERS, SPEC, rows
from .places import PROBLEMS, shown


def add(sub: argparse._SubParsersAction) -> None:
    sub.add_parser("list", help="bundled problems with title, limits and case count")


def _names(folder: str) -> list[str]:
    try:
        return os.listdir(folder)
    except OSError:  # no problems/ here: nothing to list
        return []


def run(_: argparse.Namespace) -> int:
    roots = sorted(
        os.path.join(PROBLEMS, name) for name in _names(PROBLEMS) if os.path.isfile(os.path.join(PROBLEMS, name, SPEC))
    )
    found = rows([(root, shown(root)) for root in roots])
    print(table(found, HEADERS) if found else "no problems under problems/")
    return EXIT_ACCEPTED
