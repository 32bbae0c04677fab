"""What a request carries that the service reads as data: a JSON body, and an integer from a path, query or header.

Every route reads these through here, so that no input reaches SQLite or the
JSON encoder in a form either refuses (which would be a 500): a JSON body is
UTF-8 text, nested at most ``MAX_DEPTH`` deep (deeper brackets made Python's
parser raise ``RecursionError``), with no lone surrogate in any string (one
escaped as ``\\ud800`` is valid JSON but no text: stored, it could never be
encoded again) and no ``NaN`` or ``Infinity`` (not JSON, and the answer's
encoder refuses them). An integer is a plain decimal (ASCII digits and an
optional minus; ``int()`` also takes ``"1_0"``, ``" 7 "`` and other scripts'
digits, and ``str.isdigit`` takes ``"²"``, which ``int()`` refuses) within
SQLite's 64-bit range, outside which every query binding it fails.
"""

from __future__ import annotations

import hmac
import json
import re
from typing import Any

from .http_errors import bad_request, not_found

MAX_DEPTH = 20  # the deepest a body's arrays and objects nest (a submission's is 3)
INT_MIN, INT_MAX = -(1 << 63), (1 << 63) - 1  # SQLite's INTEGER
_DECIMAL = re.compile(r"-?[0-9]{1,19}\Z", re.ASCII)
_STRING = re.compile(r'"(?:[^"\\]|\\.)*"')
_PAIR = re.compile(rb"\[\]|\{\}")  # an innermost pair: both kinds in one pass, so a pass is one level
_NOT_BRACKETS = bytes(range(256)).translate(None, b"[]{}")


def json_object(body: bytes) -> dict[str, Any]:
    """A request body that must be one JSON object, else a 400 saying which it is not: every JSON endpoint's first
    step (submissions, the ICPC API's POST, accounts)."""
    try:
        text = body.decode("utf-8-sig")  # a byte-order mark, as json.loads(bytes) took one
    except UnicodeDecodeError as exc:
        raise bad_request(f"the body is not UTF-8 text: {exc}") from None
    try:
        data = json.loads(text, parse_constant=_no_constant)
    except RecursionError:
        raise bad_request(f"the body nests deeper than {MAX_DEPTH} levels") from None
    except ValueError as exc:
        raise bad_request(f"the body is not JSON: {exc}") from None
    if not isinstance(data, dict):
        raise bad_request("the body must be a JSON object")
    if _too_deep(text):
        raise bad_request(f"the body nests deeper than {MAX_DEPTH} levels")
    try:  # the encoder, in C, finds a lone surrogate in any key or string at once
        json.dumps(data, ensure_ascii=False).encode("utf-8")
    except UnicodeEncodeError:
        raise bad_request("a string of the body holds a lone surrogate (an escape such as \\ud800): no text") from None
    return data


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON number")


def _too_deep(text: str) -> bool:
    """Whether a parsed body's brackets nest deeper than ``MAX_DEPTH``: its strings dropped, then its brackets alone,
    each pass taking away the innermost pairs, so depth d is gone in d passes (each pass one regular expression, in
    C: a 2 MiB body of brackets costs about 0.1 s, less than parsing it)."""
    if text.count("[") + text.count("{") <= MAX_DEPTH:
        return False
    shape = _STRING.sub("", text).encode("utf-8").translate(None, _NOT_BRACKETS)
    for _ in range(MAX_DEPTH):
        shape = _PAIR.sub(b"", shape)
        if not shape:
            return False
    return True


def is_integer(text: str) -> bool:
    """A plain decimal within SQLite's range."""
    return bool(_DECIMAL.match(text)) and INT_MIN <= int(text) <= INT_MAX


def integer(text: str | None, field: str, default: int | None = None) -> int | None:
    """A query parameter's or header's integer (``default`` when absent or empty); 400 naming ``field`` otherwise."""
    if text is None or text == "":
        return default
    if not is_integer(text):
        raise bad_request(f"{field} must be a whole number of at most 19 digits", field)
    return int(text)


def path_id(text: str, what: str) -> int:
    """An id in a path: 404 (as for a missing one) when it is no id a row could have."""
    if not is_integer(text):
        raise not_found(what)
    return int(text)


def same_secret(sent: str, kept: str) -> bool:
    """Whether a token, CSRF token or signature a request sent is the one kept, in constant time. ``compare_digest``
    raises ``TypeError`` on a string with a non-ASCII character (a header or cookie may hold any Latin-1 one), so both
    are compared as UTF-8 bytes."""
    return hmac.compare_digest(sent.encode("utf-8", "surrogatepass"), kept.encode("utf-8", "surrogatepass"))
