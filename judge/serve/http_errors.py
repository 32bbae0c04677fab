"""Every error the API answers, one JSON shape: ``{"error": {"code", "message", "field"}}`` with its HTTP status."""

from __future__ import annotations

from dataclasses import dataclass

from .refusals import Conflict, Forbidden, Full, Invalid, NotFound, Refused, TooMany, Unavailable


@dataclass
class ApiError(Exception):
    status: int
    code: str
    message: str
    field: str | None = None
    retry_after: int | None = None  # seconds, sent as Retry-After (429, 503)
    close: bool = False  # the request's body was left unread: the connection ends with this answer

    def body(self) -> dict[str, object]:
        return {"error": {"code": self.code, "message": self.message, "field": self.field}}

    def headers(self) -> dict[str, str]:
        """The headers the answer carries, a JSON error's or a page's: when to try again, and that the connection
        ends (the server will not read the rest of a body it refused)."""
        headers = {}
        if self.retry_after is not None:
            headers["Retry-After"] = str(self.retry_after)
        if self.close:
            headers["Connection"] = "close"
        return headers


def not_found(what: str) -> ApiError:
    """The same answer whether the thing does not exist or belongs to someone else: its existence is not told."""
    return ApiError(404, "not_found", f"no such {what}")


def bad_request(message: str, field: str | None = None) -> ApiError:
    return ApiError(400, "bad_request", message, field)


def unprocessable(message: str, field: str | None = None) -> ApiError:
    return ApiError(422, "unprocessable", message, field)


def too_large(message: str, field: str | None = None, close: bool = False) -> ApiError:
    return ApiError(413, "too_large", message, field, close=close)


def api_error(refused: Refused) -> ApiError:
    """The API's answer to a workflow's refusal, the one place that chooses its status and code (the pages and the
    ICPC API each have their own: ``pages.page_error``, ``icpc._refusal``)."""
    match refused:
        case NotFound():
            return ApiError(404, "not_found", refused.message, refused.field)
        case Forbidden():
            return ApiError(403, "forbidden", refused.message, refused.field)
        case Invalid():
            return ApiError(422, "unprocessable", refused.message, refused.field)
        case Conflict():
            return ApiError(409, refused.reason, refused.message, refused.field)
        case TooMany():
            return ApiError(429, "rate_limited", refused.message, refused.field, retry_after=refused.retry_after)
        case Full():
            return ApiError(503, "queue_full", refused.message, refused.field, retry_after=refused.retry_after)
        case Unavailable():
            return ApiError(503, "storage", refused.message, refused.field, retry_after=refused.retry_after)
    return ApiError(400, "refused", refused.message, refused.field)  # a refusal added without its line here
