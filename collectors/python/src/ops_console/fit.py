"""Events fitted within the ingest API's limits (fit.ts): nothing measured is ever refused."""
from __future__ import annotations

import re
from typing import Any, Dict, Mapping, Optional

from . import _limits as LIMIT
from ._limits import HEADER_NAME, INGEST_METHODS, OTHER_METHOD, fit, utf16_length

_SPACE = re.compile(r"\s")
_last_fitting_route = ""


def _within(value: Any, limit: int) -> bool:
    return value is None or (isinstance(value, str) and value != "" and len(value) <= limit and utf16_length(value) <= limit)


def _fit_optional(value: Optional[str], limit: int) -> Optional[str]:
    return fit(value, limit) if value else None


def _headers_fit(headers: Mapping[str, Any]) -> bool:
    if not isinstance(headers, Mapping) or len(headers) > LIMIT.HEADERS:
        return False
    for name, value in headers.items():
        if (
            not isinstance(value, str)
            or not value
            or len(value) > LIMIT.HEADER_VALUE
            or not isinstance(name, str)
            or len(name) > LIMIT.HEADER_NAME_MAX
            or not HEADER_NAME.match(name)
            or utf16_length(value) > LIMIT.HEADER_VALUE
        ):
            return False
    return True


def fitted_headers(headers: Mapping[str, Any]) -> Optional[Dict[str, str]]:
    kept: Optional[Dict[str, str]] = None
    count = 0
    for name, value in headers.items():
        if not value or not isinstance(value, str) or not isinstance(name, str):
            continue
        if len(name) > LIMIT.HEADER_NAME_MAX or not HEADER_NAME.match(name):
            continue
        if kept is None:
            kept = {}
        kept[name] = fit(value, LIMIT.HEADER_VALUE)
        count += 1
        if count == LIMIT.HEADERS:
            break
    return kept


def _body_fits(body: Any) -> bool:
    return not body or (isinstance(body.get("content_type"), str) and len(body["content_type"]) <= LIMIT.CONTENT_TYPE)


def _bytes_ok(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= 2 ** 40


def fits(e: Mapping[str, Any]) -> bool:
    """Whether an event is within every limit as it is (the common case, checked without copying)."""
    global _last_fitting_route
    if e["method"] not in INGEST_METHODS or not isinstance(e["ts"], int):
        return False
    d = e["duration_ms"]
    if not isinstance(d, (int, float)) or not (0 <= d <= 86_400_000):
        return False
    route = e["route"]
    if route != _last_fitting_route:
        if not isinstance(route, str) or not route or len(route) > LIMIT.ROUTE or route[0] != "/" or _SPACE.search(route):
            return False
        if utf16_length(route) > LIMIT.ROUTE:
            return False
        _last_fitting_route = route
    path = e["path"]
    if not isinstance(path, str) or not path or len(path) > LIMIT.PATH or path[0] != "/" or utf16_length(path) > LIMIT.PATH:
        return False
    get = e.get
    if not (_within(get("api_version"), LIMIT.API_VERSION) and _within(get("key_id"), LIMIT.ID) and _within(get("customer_id"), LIMIT.ID)):
        return False
    actor = get("actor")
    if actor is not None:
        if not isinstance(actor, Mapping) or not actor.get("id") or not _within(actor.get("id"), LIMIT.ID):
            return False
        if not actor.get("name") or not _within(actor.get("name"), LIMIT.NAME):
            return False
    b = get("bytes")
    if b is not None and not _bytes_ok(b):
        return False
    h = get("headers")
    if h is not None and not _headers_fit(h):
        return False
    h = get("response_headers")
    if h is not None and not _headers_fit(h):
        return False
    return _body_fits(get("request_body")) and _body_fits(get("response_body"))


def _fitted_body(body: Any) -> Any:
    if not body:
        return None
    copy = dict(body)
    copy["content_type"] = fit(str(body.get("content_type") or ""), LIMIT.CONTENT_TYPE)
    return copy


def fitted(e: Dict[str, Any]) -> Dict[str, Any]:
    """The event as the ingest API accepts it: every value within its limits."""
    if fits(e):
        return e
    get = e.get
    method = str(e["method"]).upper()
    route = str(e["route"])
    route = _SPACE.sub("_", route)
    if not route.startswith("/"):
        route = "/" + route
    path = str(e["path"])
    if not path.startswith("/"):
        path = "/" + path
    d = e["duration_ms"]
    try:
        d = min(max(float(d), 0.0), 86_400_000.0) if d == d and d not in (float("inf"), float("-inf")) else 0.0
    except (TypeError, ValueError):
        d = 0.0
    actor = get("actor")
    if isinstance(actor, Mapping) and actor.get("id"):
        actor = {"id": fit(str(actor["id"]), LIMIT.ID), "name": fit(str(actor.get("name") or actor["id"]), LIMIT.NAME)}
    else:
        actor = None
    b = get("bytes")
    ts = e["ts"]
    return {
        "ts": int(round(ts)) if isinstance(ts, (int, float)) and ts == ts else ts,
        "method": method if method in INGEST_METHODS else OTHER_METHOD,
        "route": fit(route, LIMIT.ROUTE),
        "path": fit(path, LIMIT.PATH),
        "status": e["status"],
        "duration_ms": d,
        "api_version": _fit_optional(get("api_version"), LIMIT.API_VERSION),
        "key_id": _fit_optional(get("key_id"), LIMIT.ID),
        "customer_id": _fit_optional(get("customer_id"), LIMIT.ID),
        "actor": actor,
        "bytes": b if _bytes_ok(b) else None,
        "headers": fitted_headers(get("headers")) if get("headers") else None,
        "response_headers": fitted_headers(get("response_headers")) if get("response_headers") else None,
        "request_body": _fitted_body(get("request_body")),
        "response_body": _fitted_body(get("response_body")),
    }
