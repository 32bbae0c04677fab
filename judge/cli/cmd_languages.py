"""``languages``: every language of the registry, whether it is installed here, its version and its commands.

``--markdown`` prints the same as the table in docs/languages.md, which is
generated with it, so the documentation is the registry's and this machine's.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from ..errors import EXIT_ACCEPTED
from ..lang import LANGUAGES, registry_for
from ..lang.probe import Installed, survey


def add(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("languages", help="list the languages, whether each is installed here, its version and commands")
    p.add_argument("--problem", type=Path, help="include this problem folder's own languages.yaml")
    p.add_argument("--markdown", action="store_true", help="print the Markdown table of docs/languages.md")


def _command(words: tuple[str, ...]) -> str:
    return " ".join(words)


def _text(found: list[Installed]) -> str:
    """A row per language, its commands indented below it. Each column is as wide as its widest cell, so a long name
    or title (``checktestdata``, the build-and-run ``scripts``) moves the column for every row instead of pushing its
    own row's cells out of line."""
    rows = []
    for item in found:
        lang = item.language
        state = (
            item.version or "installed"
            if item.ok
            else f"MISSING: {', '.join(item.missing)} (Debian package {lang.package or '?'})"
        )
        rows.append((lang.name, lang.title, " ".join(lang.extensions) or "-", state))
    widths = [max((len(row[n]) for row in rows), default=0) for n in range(3)]
    lines = []
    for item, row in zip(found, rows):
        lang = item.language
        lines.append("  ".join(cell.ljust(width) for cell, width in zip(row, widths)) + "  " + row[3])
        for step in lang.compile:
            lines.append(f"{'':<{widths[0]}}  compile: {_command(step)}")
        lines.append(f"{'':<{widths[0]}}  run:     {_command(lang.run)}")
    missing = [i.language.name for i in found if not i.ok]
    lines.append(
        f"{len(found) - len(missing)} of {len(found)} languages installed"
        + (f"; missing: {', '.join(missing)}" if missing else "")
    )
    return "\n".join(lines)


def _markdown(found: list[Installed]) -> str:
    def cell(text: str) -> str:
        return text.replace("|", "\\|") or "—"

    rows = [
        "| name | language | aliases | extensions | Debian package | version here | time factor | compile | run |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for item in found:
        lang = item.language
        compile_text = "<br>".join(f"`{cell(_command(step))}`" for step in lang.compile) or "—"
        rows.append(
            "| "
            + " | ".join(
                [
                    f"`{lang.name}`",
                    cell(lang.title),
                    cell(", ".join(lang.aliases)),
                    cell(" ".join(lang.extensions)),
                    cell(lang.package),
                    cell(item.version if item.ok else "not installed"),
                    f"{lang.time_factor:g}",
                    compile_text,
                    f"`{cell(_command(lang.run))}`",
                ]
            )
            + " |"
        )
    return "\n".join(rows)


def run(args: argparse.Namespace) -> int:
    registry = registry_for(args.problem) if args.problem else LANGUAGES
    found = survey(registry.values())
    print(_markdown(found) if args.markdown else _text(found))
    return EXIT_ACCEPTED
