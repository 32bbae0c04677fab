"""The service's workflow, with no HTTP in it: accepting a submission, rejudging, accounts and the roster's import,
clarifications.

It owns what the service does, apart from how a request asks for it: each function takes the service (or its
store), the user who asks and plain values, and refuses with the domain errors of ``refusals.py`` (a leaf module,
so ``http_errors`` may import it), never an HTTP status. The API (``api_*.py``), the pages (``pages_*.py``) and the
ICPC Contest API (``icpc.py``) parse their requests, call these, and map a refusal to their answer in one function
each (``http_errors.api_error``, ``pages.page_error``, ``icpc._refusal``). It may import the store's modules
(``store``, ``queue``, ``auth``, ``limits``, ``sources``), the service, and grade and below; never a handler
module, starlette or ``http_errors`` (``tests/serve/test_serve_layers.py`` checks it).
"""

from ..refusals import Conflict, Forbidden, Full, Invalid, NotFound, Refused, TooMany, Unavailable
from .accounts import NAME_MAX, STAFF_MAKES, check_name, import_roster, may_change, may_make, password_fits
from .clarifications import MAX_TEXT, Clarification, announce, answer, ask, ask_for, listed, recipient, seen, unanswered
from .rejudge import rejudge_problem, rejudge_submission
from .submissions import accept_shadowed, accept_submission, open_problems

__all__ = [
    "MAX_TEXT",
    "Clarification",
    "announce",
    "answer",
    "ask",
    "ask_for",
    "listed",
    "recipient",
    "seen",
    "unanswered",
    "NAME_MAX",
    "STAFF_MAKES",
    "Conflict",
    "Forbidden",
    "Full",
    "Invalid",
    "NotFound",
    "Refused",
    "TooMany",
    "Unavailable",
    "accept_shadowed",
    "accept_submission",
    "check_name",
    "import_roster",
    "may_change",
    "may_make",
    "open_problems",
    "password_fits",
    "rejudge_problem",
    "rejudge_submission",
]
