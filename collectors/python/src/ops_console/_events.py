"""A middleware's measured tuple made an event, on the sending thread (``Options.made``).

What many requests share (the path decoded, the route, the API version, the kept headers masked,
whether they fit the ingest API's limits, their size) is worked out once per batch for each
distinct request and reused; only the times, status and size are the request's own."""
from __future__ import annotations

import re
from typing import Any, Dict, Optional, Tuple

from .columns import bytes_of
from .fit import fits, fitted

_VERSION_PREFIX = re.compile(r"^/(v[0-9]+)(?:/|$)")
_MAX_DURATION_MS = 86_400_000
_MAX_BYTES = 2 ** 40


def versioned(o: Any, path: str, route: str, header: Any, request: Any) -> Tuple[Optional[str], str]:
    """The request's API version, and its route without a version prefix taken from the path."""
    kind = o.version_kind
    version = None
    if kind is not None:
        if kind == "fixed":
            version = o.version_value
        elif kind == "prefix":
            found = _VERSION_PREFIX.match(path)
            if found:
                version = found.group(1)
                prefix = "/" + version
                if route == prefix:
                    route = "/"
                elif route.startswith(prefix + "/"):
                    route = route[len(prefix):]
        elif kind == "header":
            version = header(o.version_value) if header is not None else None
        else:
            version = o.version_value(request())
            if version is not None and not isinstance(version, str):
                version = str(version)
    return version, route


def _pair_values(pairs: Any, keys: Tuple[bytes, ...]) -> Tuple[Optional[str], ...]:
    """The named headers' values (repeated ones joined) from an ASGI scope's ``(bytes, bytes)`` pairs."""
    found: Dict[bytes, bytes] = {}
    for k, v in pairs:
        k = k.lower()
        if k in keys:
            found[k] = found[k] + b", " + v if k in found else v
    return tuple(found[k].decode("latin-1") if k in found else None for k in keys)


def _shared(o: Any, method: str, route: Optional[str], path: Any, values: Any, cache: Dict[Any, Any]) -> Tuple[Any, ...]:
    if type(path) is bytes:  # an ASGI raw_path, query and all
        path = path.decode("latin-1")
        at = path.find("?")
        if at >= 0:
            path = path[:at]
    route = route or path
    header = dict(zip(o.named, values)).get if values is not None else None
    version, route = versioned(o, path, route, header, None)
    kept = None
    if o.headers and header is not None:
        for name in o.headers:
            value = header(name)
            if value is not None:
                key = (name, value)
                masked = cache.get(key)
                if masked is None:
                    masked = cache[key] = o.masker.header(name, value)
                if kept is None:
                    kept = {}
                kept[name] = masked
    probe: Dict[str, Any] = {"ts": 0, "method": method, "route": route, "path": path, "status": 200, "duration_ms": 0, "bytes": None, "api_version": version}
    if kept:
        probe["headers"] = kept
    return route, path, version, kept, fits(probe), bytes_of(probe)


def made(o: Any, item: Tuple[Any, ...], offset_ns: int, cache: Dict[Any, Any]) -> Tuple[Dict[str, Any], int]:
    """A measured tuple (``_o, started_ns, ended_ns, method, route, path, status, bytes, headers``)
    made an event fitted within the ingest limits, and its size. ``route`` None: the path's;
    ``path``: text, or an ASGI ``raw_path``; ``headers``: the ASGI scope's pairs, or the named
    headers' values (WSGI), or None; ``offset_ns`` takes a perf_counter_ns reading to the epoch."""
    _o, started, ended, method, route, path, status, nbytes, hdr = item
    if hdr is None or not o.named:
        values = None
    elif type(hdr) is dict:
        values = tuple(hdr.get(name) for name in o.named)
    else:
        values = _pair_values(hdr, o.named_keys)
    key = (o, method, route, path, values)
    shared = cache.get(key)
    if shared is None:
        shared = cache[key] = _shared(o, method, route, path, values, cache)
    route, path, version, kept, ok, size = shared
    duration = (ended - started + 500) // 1000 / 1000
    event: Dict[str, Any] = {
        "ts": (started + offset_ns) // 1_000_000,
        "method": method,
        "route": route,
        "path": path,
        "status": status,
        "duration_ms": duration,
        "bytes": nbytes,
        "api_version": version,
    }
    if kept:
        event["headers"] = kept
    if ok and 0 <= duration <= _MAX_DURATION_MS and (nbytes is None or (type(nbytes) is int and 0 <= nbytes <= _MAX_BYTES)):
        return event, size
    event = fitted(event)
    return event, bytes_of(event)
