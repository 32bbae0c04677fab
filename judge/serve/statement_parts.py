"""A statement's parts by who may read them: the setters' notes are the staff's, and whether it shows its samples.

Bundled statements (and many packages') end with a "Notes for setters"
section that says how the test data was made and which wrong solutions it
catches: help to a student looking for the cases' weak spots. Such a section
(its heading says notes for setters, or setters' notes), down to the next
heading of its level or above, is cut from what a student is shown and kept
for staff. A heading is a Markdown ATX heading (``## Notes for setters``) or a
LaTeX ``\\section``/``\\subsection`` line; fenced code is never read as one.
A statement with its own "Sample(s)" or "Example(s)" section shows the
samples already, so the page does not show them a second time.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_MD_HEADING = re.compile(r"^ {0,3}(#{1,6})\s+(.*?)\s*#*\s*$")
_TEX_HEADING = re.compile(r"^\s*\\(sub)?section\*?\{([^{}]*)\}")
_FENCE = re.compile(r"^ {0,3}(```|~~~)")
_SETTERS = re.compile(r"(?i)^(notes?\s+(for|to)\s+(the\s+)?(problem\s+)?setters?|setters?['’]?\s+notes?)\b")
_SAMPLES = re.compile(r"(?i)^(samples?|examples?)\b")


@dataclass(frozen=True)
class Parts:
    """A statement's text for everyone, its setters' notes (empty when it has none), and whether it shows samples."""

    public: str
    setters: str
    shows_samples: bool


def _heading(line: str) -> tuple[int, str] | None:
    """A heading's level and title, or None for any other line."""
    found = _MD_HEADING.match(line)
    if found:
        return len(found.group(1)), found.group(2)
    found = _TEX_HEADING.match(line)
    if found:
        return (3 if found.group(1) else 2), found.group(2)
    return None


def split(text: str) -> Parts:
    """The statement with every setters' section taken out into ``setters``."""
    public: list[str] = []
    setters: list[str] = []
    cut_level: int | None = None  # inside a setters' section of this level
    fenced = False
    samples = False
    for line in text.splitlines(keepends=True):
        heading = None if fenced else _heading(line)
        if _FENCE.match(line):
            fenced = not fenced
        if heading is not None:
            level, title = heading
            if cut_level is not None and level <= cut_level:
                cut_level = None
            if cut_level is None and _SETTERS.match(title.strip()):
                cut_level = level
            elif cut_level is None and _SAMPLES.match(title.strip()):
                samples = True
        (setters if cut_level is not None else public).append(line)
    return Parts("".join(public), "".join(setters), samples)
