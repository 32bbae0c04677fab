"""What a program printed on a sample case, kept in its result as a bounded excerpt: a page shows it beside the answer.

The judge keeps no outputs: a case's output file is the slot's, overwritten
by the next case. A sample case is the exception, because its input and
answer are the contestant's already (``CaseSpec.is_sample``), so what the
program printed on it is worth showing and gives nothing away; a secret
case's result never carries any of it, whatever the service's policy.

The excerpt is bounded (a program may print up to the output limit, and a
report holds every case) and said to be cut when it is. It is text a page
and a terminal can show: bytes that are not UTF-8 become ``\\xNN`` escapes
(not the replacement character, so a stray byte is seen for what it is),
control characters too (``judge.text.safe_text``); a UTF-8 sequence split
by the bound is left out rather than shown as escapes.
"""

from __future__ import annotations

import codecs
import os
from pathlib import Path

from ..text import safe_text
from .case_run import CaseRun
from .verdicts import OutputExcerpt

OUTPUT_BYTES = 4096
OUTPUT_LINES = 100


def excerpt(path: Path) -> OutputExcerpt:
    """The start of the file at ``path``: at most OUTPUT_BYTES, at most OUTPUT_LINES lines; empty when it is missing."""
    try:
        with path.open("rb") as f:
            size = os.fstat(f.fileno()).st_size
            data = f.read(OUTPUT_BYTES)
    except OSError:
        return OutputExcerpt("", 0, False)
    cut = size > len(data)
    text = codecs.getincrementaldecoder("utf-8")("backslashreplace").decode(data, final=not cut)
    end = -1
    for _ in range(OUTPUT_LINES):
        end = text.find("\n", end + 1)
        if end < 0:
            break
    if end >= 0 and end + 1 < len(text):
        text, cut = text[: end + 1], True
    return OutputExcerpt(safe_text(text), size, cut)


def sample_output(run: CaseRun, out: Path) -> OutputExcerpt | None:
    """The excerpt of ``out`` when ``run`` is a sample case; None for any other."""
    return excerpt(out) if run.sample else None
