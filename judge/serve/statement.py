"""A problem's statement as HTML for its page: Markdown rendered safely, formulas shown as TeX in a styled span.

``statement.md`` is Markdown (CommonMark, with tables), rendered by
markdown-it-py with raw HTML off: a package's author writes text, and the
page must not run what a statement (or a package fetched from elsewhere)
embeds. Formulas (``$...$`` and ``$$...$$``) are taken out before the
Markdown pass, so their ``_`` and ``*`` are not read as emphasis, and put
back as the TeX itself, escaped, in a ``tex`` span the stylesheet sets in a
math face: readable without MathJax, which the page could only load from
elsewhere. A Kattis package's LaTeX statement (``problem.en.tex``) has its
common commands (name, sections, emphasis, lists) turned into Markdown first
and the rest left as written; any other file is shown as its text. Its setters' notes are kept apart for staff
(``statement_parts.py``).
"""

from __future__ import annotations

import html
import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING

from .statement_parts import split

if TYPE_CHECKING:
    from markdown_it import MarkdownIt

MAX_STATEMENT = 256 << 10  # a statement bigger than this is cut: the page is for reading, not for storage
_MATH = re.compile(r"\$\$(.+?)\$\$|(?<![\\$])\$(?!\s)([^$\n]+?)(?<!\s)\$", re.DOTALL)
_CODE = re.compile(r"(```.*?```|`[^`\n]*`)", re.DOTALL)
_MARK = "TJMATH{}Z"
_MARKED = re.compile(r"TJMATH(\d+)Z")


@lru_cache(maxsize=1)
def _markdown() -> MarkdownIt:
    """The renderer, imported and made at the first statement shown: markdown-it and its rules' regular expressions
    were a tenth of the service's imports (35 ms of CPU), paid by every start, also by a server that never shows a
    statement page (``serve --workers 0``, an API-only contest) and by each CLI command that loads the service's
    code. ``web_stack`` still tells at the start that it is missing."""
    from markdown_it import MarkdownIt

    return MarkdownIt("commonmark", {"html": False, "linkify": False}).enable("table")


def to_html(text: str) -> str:
    """Markdown to HTML: raw HTML escaped, formulas kept out of the Markdown pass and shown as TeX."""
    formulas: list[tuple[str, bool]] = []

    def hide(match: re.Match[str]) -> str:
        block = match.group(1) is not None
        formulas.append(((match.group(1) if block else match.group(2)).strip(), block))
        return _MARK.format(len(formulas) - 1)

    pieces = _CODE.split(text)  # code spans and blocks keep their dollars
    hidden = "".join(piece if n % 2 else _MATH.sub(hide, piece) for n, piece in enumerate(pieces))
    rendered = _markdown().render(hidden)

    def show(match: re.Match[str]) -> str:
        tex, block = formulas[int(match.group(1))]
        kind = "tex tex-block" if block else "tex"
        return f'<span class="{kind}" title="TeX">{html.escape(tex)}</span>'

    return _MARKED.sub(show, rendered)


def statement_html(path: Path) -> str:
    """The statement file as HTML; a missing or unreadable one is a note, never an error page."""
    shown = statement_view(path)
    return shown.public + shown.setters


@dataclass(frozen=True)
class StatementView:
    """A statement as its page shows it: the part for everyone, the setters' notes (staff only), and whether the
    statement shows the samples itself (``statement_parts``)."""

    public: str
    setters: str = ""
    shows_samples: bool = False


def statement_view(path: Path) -> StatementView:
    """The statement file as HTML, its setters' notes apart; a missing or unreadable one is a note, never an error."""
    try:
        with path.open("rb") as f:
            text = f.read(MAX_STATEMENT).decode("utf-8", errors="replace")
    except OSError:
        return StatementView('<p class="muted">This problem has no statement file.</p>')
    suffix = path.suffix.lower()
    if suffix not in (".md", ".tex"):
        return StatementView(f'<pre class="statement-source">{html.escape(text)}</pre>')
    parts = split(latex_to_markdown(text) if suffix == ".tex" else text)
    return StatementView(to_html(parts.public), to_html(parts.setters) if parts.setters else "", parts.shows_samples)


_LATEX = [
    (re.compile(r"(?<!\\)%.*"), ""),  # comments
    (re.compile(r"\\problemname\{([^{}]*)\}"), r"# \1"),
    (re.compile(r"\\(?:sub)?section\*?\{([^{}]*)\}"), r"\n## \1\n"),
    (re.compile(r"\\textbf\{([^{}]*)\}"), r"**\1**"),
    (re.compile(r"\\(?:emph|textit)\{([^{}]*)\}"), r"*\1*"),
    (re.compile(r"\\texttt\{([^{}]*)\}"), r"`\1`"),
    (re.compile(r"\\begin\{(?:itemize|enumerate)\}|\\end\{(?:itemize|enumerate)\}"), "\n"),
    (re.compile(r"^\s*\\item\s*", re.MULTILINE), "- "),
    (re.compile(r"\\(?:illustration|includegraphics)(?:\[[^]]*\])?(?:\{[^{}]*\})+"), ""),  # no image to show
    (re.compile(r"\\\\\s*$", re.MULTILINE), ""),  # forced line breaks
]


def latex_to_markdown(text: str) -> str:
    """A problemtools LaTeX statement (``problem.en.tex``) as Markdown: its name, sections, emphasis and lists
    become Markdown, formulas stay as they are (``to_html`` shows them as TeX), and any other command is left as
    written: readable, if not typeset."""
    for pattern, replacement in _LATEX:
        text = pattern.sub(replacement, text)
    return text
