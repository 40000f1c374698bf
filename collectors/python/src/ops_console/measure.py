"""What the framework middleware share (measure.ts): their options, and recording a measured
request without ever raising into the host."""
from __future__ import annotations

import time
from typing import Any, Callable, Dict, Iterable, List, Mapping, Optional, Sequence, Tuple, Union

from ._events import made, versioned as _versioned
from .bodies import MASK_OVERLAP, is_captured, keeps_bodies, kept_body, max_body_bytes_of
from .collector import Collector
from .mask import Masker

#: Status recorded when the client went away before the response finished (as nginx logs it).
CLIENT_CLOSED = 499

HeaderPairs = Iterable[Tuple[str, str]]


class Options:
    """A middleware's options, read once: see the README for each."""

    __slots__ = (
        "collector", "version_kind", "version_value", "identify", "headers", "masker", "capture", "sample",
        "redact", "reads_headers", "body_bytes", "tap_bytes", "fast", "wsgi_keys", "named", "named_keys",
    )

    def __init__(
        self,
        collector: Collector,
        api_version: Any = None,
        path_prefix: bool = False,
        api_version_header: Optional[str] = None,
        identify: Optional[Callable[[Any], Any]] = None,
        headers: Optional[Sequence[str]] = None,
        mask: Optional[Mapping[str, Any]] = None,
        capture: Optional[Mapping[str, Any]] = None,
        sample: Optional[Mapping[str, Any]] = None,
        redact: Optional[Callable[[Dict[str, Any]], Optional[Dict[str, Any]]]] = None,
    ) -> None:
        if not isinstance(collector, Collector):
            raise TypeError("collector must be an ops_console.Collector")
        self.collector = collector
        kind, value = None, None
        if isinstance(api_version, Mapping):
            if api_version.get("path_prefix") or api_version.get("pathPrefix"):
                kind = "prefix"
            elif api_version.get("header"):
                kind, value = "header", str(api_version["header"]).lower()
            elif api_version.get("fixed"):
                kind, value = "fixed", str(api_version["fixed"])
        elif isinstance(api_version, str):
            kind, value = "fixed", api_version
        elif callable(api_version):
            kind, value = "function", api_version
        if path_prefix:
            kind, value = "prefix", None
        if api_version_header:
            kind, value = "header", api_version_header.lower()
        self.version_kind = kind
        self.version_value = value
        self.identify = identify
        self.headers = [h.lower() for h in headers] if headers else None
        self.masker = Masker(mask if mask is not None else collector.mask)
        self.capture = dict(capture) if capture else None
        if self.capture is not None and isinstance(self.capture.get("headers"), (list, tuple)):
            self.capture["headers"] = [h.lower() for h in self.capture["headers"]]
        self.sample = dict(sample) if sample else None
        self.redact = redact
        self.reads_headers = bool(self.headers) or kind == "header"
        self.body_bytes = max_body_bytes_of(self.capture) if self.capture and self.capture.get("bodies") else 0
        # A little past the limit, so masking sees a secret the cut splits whole before the text is cut.
        self.tap_bytes = self.body_bytes + MASK_OVERLAP if self.body_bytes or (self.capture and self.capture.get("bodies")) else 0
        # Without a hook of the host's and without capture, a request is queued as a tuple of what
        # was measured, and made an event on the collector's sending thread (``event``).
        self.fast = identify is None and kind != "function" and redact is None and self.capture is None
        named = list(self.headers or ())
        if kind == "header" and value not in named:
            named.append(value)
        self.wsgi_keys = tuple((name, _environ_key(name)) for name in named)
        self.named = tuple(named)
        self.named_keys = tuple(name.encode("latin-1") for name in named)

    def made(self, item: Tuple[Any, ...], offset_ns: int, cache: Dict[Any, Any]) -> Tuple[Dict[str, Any], int]:
        """A measured tuple made a fitted event and its size, on the sending thread (_events.py)."""
        return made(self, item, offset_ns, cache)

    @property
    def needs_request(self) -> bool:
        return self.identify is not None or self.version_kind == "function"


def _environ_key(name: str) -> str:
    if name == "content-type":
        return "CONTENT_TYPE"
    if name == "content-length":
        return "CONTENT_LENGTH"
    return "HTTP_" + name.upper().replace("-", "_")


def pairs_header(pairs: Any) -> Callable[[str], Optional[str]]:
    """A header's value (repeated ones joined) from an ASGI scope's ``(bytes, bytes)`` pairs."""

    def header(name: str) -> Optional[str]:
        wanted = name.encode("latin-1")
        found = [v.decode("latin-1") for k, v in pairs if k.lower() == wanted]
        return ", ".join(found) if found else None

    return header


def now_ms() -> int:
    return int(time.time() * 1000)


def epoch_ms_of(perf_ns: int) -> int:
    """A ``time.perf_counter_ns`` reading as milliseconds since the epoch."""
    return (perf_ns + time.time_ns() - time.perf_counter_ns()) // 1_000_000


def elapsed_ms_ns(started: int, ended: int) -> float:
    """Milliseconds between two perf_counter_ns readings, to the microsecond."""
    return (ended - started + 500) // 1000 / 1000


def elapsed_ms(started: float, ended: float) -> float:
    """Milliseconds between two perf_counter readings, to the microsecond."""
    return round((ended - started) * 1_000_000) / 1000


def record(
    o: Options,
    request: Callable[[], Any],
    ts: int,
    method: str,
    route: str,
    path: str,
    status: int,
    duration_ms: float,
    nbytes: Optional[int],
    header: Optional[Callable[[str], Optional[str]]],
    payload: Optional[Callable[[bool], Dict[str, Any]]] = None,
) -> None:
    """Completes a measurement with the version, the caller and the allowed headers, passes it
    through ``redact``, and queues it. A host hook that raises leaves this request unrecorded."""
    try:
        who = None
        if o.identify is not None:
            who = o.identify(request())
        version, route = _versioned(o, path, route, header, request)
        event: Dict[str, Any] = {
            "ts": ts,
            "method": method,
            "route": route,
            "path": path,
            "status": status,
            "duration_ms": duration_ms,
            "bytes": nbytes,
            "api_version": version,
        }
        if who:
            get = who.get
            key_id = get("key_id", get("keyId"))
            customer_id = get("customer_id", get("customerId"))
            actor = get("actor")
            if key_id is not None:
                event["key_id"] = str(key_id)
            if customer_id is not None:
                event["customer_id"] = str(customer_id)
            if actor:
                if isinstance(actor, str):
                    actor = {"id": actor, "name": actor}
                event["actor"] = {"id": str(actor.get("id")), "name": str(actor.get("name") or actor.get("id"))}
        if o.headers and header is not None:
            kept = None
            masker = o.masker
            for name in o.headers:
                value = header(name)
                if value is not None:
                    if kept is None:
                        kept = {}
                    kept[name] = masker.header(name, value)
            if kept:
                event["headers"] = kept
        if o.capture is not None and payload is not None:
            _capture_into(event, o, payload)
        if o.redact is not None:
            event = o.redact(event)
            if not event:
                return
        o.collector.record(event)
    except Exception:
        pass  # nothing reaches the host


def _capture_into(event: Dict[str, Any], o: Options, payload: Callable[[bool], Dict[str, Any]]) -> None:
    capture = o.capture or {}
    bodies = bool(capture.get("bodies")) and keeps_bodies(o.sample, event["status"], event["duration_ms"])
    p = payload(bodies)
    names = capture.get("headers")
    if names:
        request = picked_headers(p.get("request_headers") or (), names, o.masker)
        if request:
            event["headers"] = dict(event.get("headers") or {}, **request)
        event["response_headers"] = picked_headers(p.get("response_headers") or (), names, o.masker)
    if not bodies:
        return
    limit = o.body_bytes
    for side in ("request_body", "response_body"):
        body = p.get(side)
        if body and is_captured(body.get("content_type"), capture):
            event[side] = kept_body(body, o.masker, limit)


def picked_headers(pairs: HeaderPairs, names: Union[Sequence[str], bool], masker: Masker) -> Optional[Dict[str, str]]:
    """The named headers (or all of them), lower-case, repeated values joined, masked."""
    wanted = None if names is True else set(names)  # type: ignore[arg-type]
    joined: Dict[str, str] = {}
    for name, value in pairs:
        lower = name.lower()
        if wanted is not None and lower not in wanted:
            continue
        joined[lower] = joined[lower] + ", " + value if lower in joined else value
    if not joined:
        return None
    return {name: masker.header(name, value) for name, value in joined.items()}


def body_input(tap: Any, content_type: Optional[str], encoding: Optional[str]) -> Optional[Dict[str, Any]]:
    """A tapped body as ``kept_body`` takes it; a compressed body keeps only its size."""
    if tap is None or not tap.size:
        return None
    content_type = content_type or ""
    if encoding and encoding.lower() != "identity":
        return {"content_type": content_type, "size": tap.size}
    return tap.body(content_type)
