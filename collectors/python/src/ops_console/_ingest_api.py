"""What the console server's ingest API asks and answers: its URL, the problems its answers
mean, the events it rejected, and how long a Retry-After asks to wait."""
from __future__ import annotations

import json
import math
import re
import time
from email.utils import parsedate_to_datetime
from typing import Optional, Tuple
from urllib.parse import urlsplit

__all__ = [
    "MAX_BACKOFF_MS",
    "MAX_FAILURES",
    "MAX_ANSWER_BYTES",
    "Problem",
    "ingest_url_of",
    "problem_of",
    "rejected_of",
    "retry_after_ms",
]

#: The longest wait between attempts, whatever a Retry-After asks.
MAX_BACKOFF_MS = 30_000
#: Server errors after which a batch is dropped.
MAX_FAILURES = 5
#: More of an answer than any ingest answer needs is not read.
MAX_ANSWER_BYTES = 1024 * 1024


class Problem:
    """Something that went wrong sending events (``CollectorProblem``)."""

    __slots__ = ("kind", "message", "status", "events")

    def __init__(self, kind: str, message: str, status: Optional[int] = None, events: Optional[int] = None) -> None:
        self.kind = kind
        self.message = message
        self.status = status
        self.events = events

    def __repr__(self) -> str:
        return "Problem(kind=%r, status=%r, events=%r, message=%r)" % (self.kind, self.status, self.events, self.message)


def ingest_url_of(base: str) -> Tuple[str, str, int, str]:
    """The ingest URL of a console server's base URL (or of the ingest URL itself): scheme, host, port, path."""
    parts = urlsplit(base)
    if parts.scheme not in ("http", "https"):
        raise ValueError("The collector's url must be an http(s) URL, not %r" % base)
    path = parts.path or ""
    if not re.search(r"/ingest/v1/requests/?$", path):
        path = path.rstrip("/") + "/ingest/v1/requests"
    port = parts.port or (443 if parts.scheme == "https" else 80)
    return parts.scheme, parts.hostname or "localhost", port, path


def problem_of(status: int, url: str, events: int) -> Problem:
    if status in (401, 403):
        return Problem("unauthorized", "The console server refused the ingest key (%d): %d event(s) dropped. Check ingest_key." % (status, events), status, events)
    if status == 404:
        return Problem("not-found", "Nothing answers at %s (404): %d event(s) dropped. The url is the console server's base URL." % (url, events), status, events)
    if status >= 500:
        return Problem("server-error", "The console server failed (%d); a batch is tried %d times before it is dropped." % (status, MAX_FAILURES), status, events)
    return Problem("refused", "The console server refused a batch (%d): %d event(s) dropped." % (status, events), status, events)


def rejected_of(body: bytes) -> Tuple[int, str]:
    try:
        answer = json.loads(body.decode("utf-8"))
        listed = answer.get("rejected")
        if not isinstance(listed, list):
            return 0, ""
        count = answer.get("rejectedCount")
        count = count if isinstance(count, int) and not isinstance(count, bool) else len(listed)
        first = listed[0].get("reason", "") if listed and isinstance(listed[0], dict) else ""
        return count, str(first)
    except Exception:
        return 0, ""


def retry_after_ms(value: Optional[str]) -> float:
    """A Retry-After value (seconds or an HTTP date) in milliseconds from now, at most the longest backoff."""
    if not value:
        return 0.0
    value = value.strip()
    try:
        if value.isdigit():
            ms = int(value) * 1000.0
        else:
            ms = parsedate_to_datetime(value).timestamp() * 1000.0 - time.time() * 1000.0
    except Exception:
        return 0.0
    if ms != ms or ms in (math.inf, -math.inf):
        return 0.0
    return min(float(MAX_BACKOFF_MS), max(0.0, ms))
