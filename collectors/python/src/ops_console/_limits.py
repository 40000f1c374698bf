"""The ingest API's limits (contract/src/ingest-limits.ts), read by the collector to fit what it sends."""
from __future__ import annotations

import re

ROUTE = 512
PATH = 2048
API_VERSION = 64
ID = 128
NAME = 200
HEADER_NAME_MAX = 64
HEADER_VALUE = 1024
HEADERS = 32
BODY_TEXT = 64 * 1024
BODY_TEXT_MAX = 1024 * 1024
CONTENT_TYPE = 256
MAX_BODY_BYTES = 10 * 1024 * 1024
MAX_BATCH = 10_000

INGEST_METHODS = frozenset(["GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS", "OTHER"])
OTHER_METHOD = "OTHER"
TRUNCATED = "\u2026"
HEADER_NAME = re.compile(r"^[a-z0-9!#$%&'*+.^_`|~-]+$")
TEXT_BODY = re.compile(
    r"^(?:text/|application/(?:[\w.+-]*\+)?(?:json|xml|x-www-form-urlencoded|graphql|x-ndjson|javascript|yaml|x-yaml)\b)",
    re.IGNORECASE | re.ASCII,
)

#: JavaScript's white space (``\s`` in a JS regular expression), which differs from Python's.
JS_SPACE = "\t\n\v\f\r \u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff"
JS_SPACE_CHARS = "\t\n\v\f\r \u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000\ufeff"


def utf16_length(text: str) -> int:
    """The length of ``text`` in UTF-16 code units, as the server (JavaScript) counts it."""
    if text.isascii():
        return len(text)
    return len(text) + sum(1 for c in text if ord(c) > 0xFFFF)


def fit(value: str, limit: int) -> str:
    """``value`` cut to ``limit`` UTF-16 units, ending in an ellipsis when cut (as fit.ts does)."""
    if not isinstance(value, str):
        raise TypeError("expected text, not %s" % type(value).__name__)
    if len(value) <= limit and utf16_length(value) <= limit:
        return value
    units = 0
    out = []
    for c in value:
        units += 2 if ord(c) > 0xFFFF else 1
        if units > limit - 1:
            break
        out.append(c)
    return "".join(out) + TRUNCATED
