"""A batch of events written in the ingest API's column form (columns.ts): ``{"columns": {...}}``."""
from __future__ import annotations

import json
import math
from typing import Any, Dict, List, Mapping, Optional, Sequence

#: Bytes an event costs beyond its own texts (a margin, not a measure).
EVENT_BYTES = 64

_INDEXED = (("method", "method"), ("route", "route"), ("api_version", "apiVersion"), ("key_id", "keyId"), ("customer_id", "customerId"))


def _text_length(value: Any) -> int:
    return len(value) + 3 if isinstance(value, str) else 0


def bytes_of(e: Mapping[str, Any]) -> int:
    """About how many bytes an event adds to a batch's JSON, for the byte bounds."""
    get = e.get
    n = EVENT_BYTES + len(e["path"]) + len(e["route"]) + _text_length(get("api_version")) + _text_length(get("key_id")) + _text_length(get("customer_id"))
    actor = get("actor")
    if actor:
        n += len(actor["id"]) + len(actor["name"]) + 20
    for key in ("headers", "response_headers"):
        h = get(key)
        if h:
            for name, value in h.items():
                n += len(name) + len(value) + 6
    for key in ("request_body", "response_body"):
        body = get(key)
        if body:
            n += 64 + len(body.get("content_type") or "") + math.ceil(len(body.get("text") or "") * 1.1)
    return n


def _number(value: Any) -> str:
    """A number as JavaScript's ``join`` writes it; null for anything but a finite number."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return "null"
    if isinstance(value, int):
        return str(value)
    if value != value or value in (math.inf, -math.inf):
        return "null"
    if value.is_integer() and abs(value) < 1e21:
        return str(int(value))
    return repr(value)


def _numbers(values: Any) -> str:
    """``_number`` of each, comma-joined; ints and plain floats written without the checks."""
    out = []
    for v in values:
        t = type(v)
        if t is int:
            out.append(str(v))
        elif t is float and -1e21 < v < 1e21 and not v.is_integer():
            out.append(repr(v))
        else:
            out.append(_number(v))
    return ",".join(out)


def _body(body: Optional[Mapping[str, Any]]) -> Optional[Dict[str, Any]]:
    if not body:
        return None
    out: Dict[str, Any] = {"contentType": body.get("content_type") or "", "size": body.get("size") or 0}
    if "text" in body:
        out["text"] = body["text"]
    if "truncated" in body:
        out["truncated"] = bool(body["truncated"])
    return out


def _dumps(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def columns_json(events: Sequence[Mapping[str, Any]], ts_base: int) -> str:
    """The events as the JSON of a column-form batch, field for field as columns.ts writes it."""
    strings: List[str] = []
    index: Dict[str, int] = {}
    fields = [field for field, _ in _INDEXED]
    rows: Dict[str, List[Optional[int]]] = {field: [] for field in fields}
    some_text: Dict[str, bool] = {field: False for field in fields}
    # Texts are numbered as the events name them, event by event (as EventColumns adds them).
    for e in events:
        for field in fields:
            value = e.get(field)
            if isinstance(value, str):
                at = index.get(value)
                if at is None:
                    at = index[value] = len(strings)
                    strings.append(value)
                rows[field].append(at)
                some_text[field] = True
            else:
                rows[field].append(None)

    def ints(column: List[Optional[int]]) -> str:
        return "[" + ",".join("null" if i is None else str(i) for i in column) + "]"

    parts = [
        '{"columns":{"count":%d' % len(events),
        ',"strings":' + _dumps(strings),
        ',"tsBase":%d' % ts_base,
        ',"ts":[' + _numbers([e["ts"] - ts_base if isinstance(e["ts"], (int, float)) else None for e in events]) + "]",
        ',"method":' + ints(rows["method"]),
        ',"route":' + ints(rows["route"]),
        ',"path":' + _dumps([e["path"] for e in events]),
        ',"status":[' + _numbers([e["status"] for e in events]) + "]",
        ',"durationMs":[' + _numbers([e["duration_ms"] for e in events]) + "]",
    ]
    for field, wire in _INDEXED[2:]:
        if some_text[field]:
            parts.append(',"%s":%s' % (wire, ints(rows[field])))
    if any(e.get("bytes") is not None for e in events):
        parts.append(',"bytes":[' + _numbers([e.get("bytes") for e in events]) + "]")
    actors = [e.get("actor") for e in events]
    if any(actors):
        parts.append(',"actor":' + _dumps([{"id": a["id"], "name": a["name"]} if a else None for a in actors]))
    for field, wire in (("headers", "headers"), ("response_headers", "responseHeaders")):
        values = [e.get(field) or None for e in events]
        if any(values):
            parts.append(',"%s":%s' % (wire, _dumps(values)))
    for field, wire in (("request_body", "requestBody"), ("response_body", "responseBody")):
        values = [_body(e.get(field)) for e in events]
        if any(values):
            parts.append(',"%s":%s' % (wire, _dumps(values)))
    parts.append("}}")
    return "".join(parts)


def columns_body(events: Sequence[Mapping[str, Any]], ts_base: int) -> bytes:
    text = columns_json(events, ts_base)
    try:
        return text.encode("utf-8")
    except UnicodeEncodeError:
        # A lone surrogate (a host hook may hand one over): escaped, as JSON.stringify does.
        return text.encode("utf-8", "backslashreplace")
