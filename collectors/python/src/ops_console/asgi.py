"""Collects from an ASGI app (FastAPI, Starlette, or any other):
``app.add_middleware(OpsConsoleMiddleware, collector=collector)`` or ``app = OpsConsoleASGI(app, collector)``.

Each request is measured to its last body chunk; a client that went away first is recorded as 499.
The route template is the one the framework matched: FastAPI's ``scope["route"].path``, or
Starlette's route found by the endpoint it called (with the path of any ``Mount`` before it).
"""
from __future__ import annotations

import time
from typing import Any, Awaitable, Callable, Dict, List, Optional, Tuple

from .bodies import BodyTap
from .collector import Collector
from .measure import CLIENT_CLOSED, Options, body_input, elapsed_ms_ns, epoch_ms_of, pairs_header, record

__all__ = ["OpsConsoleASGI", "OpsConsoleMiddleware"]

_perf_ns = time.perf_counter_ns
_DISCONNECT = "http.disconnect"


def _decode(value: bytes) -> str:
    return value.decode("latin-1")


class _Templates:
    """Route templates of a Starlette app by the endpoint each route calls (mount paths included)."""

    def __init__(self) -> None:
        self._by_app: Dict[int, Tuple[int, Dict[Any, List[Tuple[str, Any]]]]] = {}

    def of(self, scope: Dict[str, Any], root: str, path: str) -> Optional[str]:
        app = scope.get("app")
        endpoint = scope.get("endpoint")
        router = getattr(app, "router", None)
        if router is None or endpoint is None:
            return None
        routes = getattr(router, "routes", None) or []
        known = self._by_app.get(id(router))
        if known is None or known[0] != len(routes):
            table: Dict[Any, List[Tuple[str, Any]]] = {}
            self._walk(routes, "", table)
            known = (len(routes), table)
            self._by_app[id(router)] = known
        try:
            candidates = known[1].get(endpoint)
        except TypeError:  # an endpoint that cannot be hashed (a Router a Mount handed on to): no route matched
            return None
        if not candidates:
            return None
        if len(candidates) == 1:
            return candidates[0][0]
        relative = path[len(root):] if root and path.startswith(root) else path
        for template, regex in candidates:
            if regex is not None and regex.match(relative):
                return template
        return candidates[0][0]

    def _walk(self, routes: List[Any], prefix: str, table: Dict[Any, List[Tuple[str, Any]]]) -> None:
        for route in routes:
            path = getattr(route, "path", None)
            if not isinstance(path, str):
                continue
            children = getattr(route, "routes", None)
            if children and not hasattr(route, "endpoint"):
                self._walk(list(children), prefix + path, table)
                continue
            endpoint = getattr(route, "endpoint", None)
            if endpoint is None:
                continue
            template = prefix + path
            try:
                from starlette.routing import compile_path

                regex = compile_path(template)[0]
            except Exception:
                regex = None
            try:
                table.setdefault(endpoint, []).append((template, regex))
            except TypeError:
                pass


_templates = _Templates()


def _path_of(w: "_Send") -> str:
    """The request's path as the client sent it (without its query), read when first needed."""
    raw = w.raw
    if type(raw) is bytes:
        path = raw.decode("latin-1")
        at = path.find("?")
        return path if at < 0 else path[:at]
    return raw


class _Send:
    """A request's measurement, and the ``send`` the app is given (no closure made per request)."""

    __slots__ = ("mw", "scope", "send", "started", "status", "headers", "bytes", "tap", "in_tap", "done", "gone_at", "root", "raw", "cycle")

    def __init__(self, mw: "OpsConsoleASGI", scope: Dict[str, Any], send: Callable[[Dict[str, Any]], Awaitable[None]], cycle: Any) -> None:
        self.started = _perf_ns()
        self.mw = mw
        self.scope = scope
        self.send = send
        self.cycle = cycle
        self.status = 0
        self.headers = None
        self.bytes = 0
        self.tap = self.in_tap = self.gone_at = None
        self.done = False
        # Routing rewrites the scope (a Mount moves its prefix into root_path): read both now.
        self.root = root = scope.get("root_path", "")
        # raw_path is decoded (and its query cut) only when the path is needed: on the sending thread.
        raw = scope.get("raw_path")
        self.raw = raw if raw else (root or "") + scope.get("path", "/")

    async def __call__(self, message: Dict[str, Any]) -> None:
        kind = message["type"]
        if kind == "http.response.body":
            body = message.get("body", b"")
            self.bytes += len(body)
            if self.tap is not None:
                self.tap.add(body)
            if not message.get("more_body", False):
                cycle = self.cycle
                gone = self.gone_at is not None or (cycle is not None and cycle.disconnected)
                try:
                    await self.send(message)
                except BaseException:
                    self.mw._finish(self.scope, self, True)
                    raise
                self.mw._finish(self.scope, self, gone)
                return
        elif kind == "http.response.start":
            self.status = message["status"]
            self.headers = message.get("headers")
        await self.send(message)

    def gone(self) -> bool:
        cycle = self.cycle
        return self.gone_at is not None or (cycle is not None and cycle.disconnected)


class _Receive:
    """The app's ``receive`` where the server has no disconnected flag, or request bodies are tapped."""

    __slots__ = ("w", "receive")

    def __init__(self, w: _Send, receive: Callable[[], Awaitable[Dict[str, Any]]]) -> None:
        self.w = w
        self.receive = receive

    async def __call__(self) -> Dict[str, Any]:
        message = await self.receive()
        kind = message.get("type")
        w = self.w
        if kind == _DISCONNECT:
            if w.gone_at is None and not w.done:
                w.gone_at = _perf_ns()
        elif w.in_tap is not None and kind == "http.request":
            w.in_tap.add(message.get("body", b""))
        return message


class OpsConsoleASGI:
    """ASGI middleware: ``OpsConsoleASGI(app, collector, route=None, **options)``.

    ``route(scope)`` names the route template of a request; by default the one FastAPI or
    Starlette matched, else the path. Options: ``api_version``, ``path_prefix``,
    ``api_version_header``, ``identify``, ``headers``, ``mask``, ``capture``, ``sample``, ``redact``.
    Hooks get a ``starlette.requests.Request`` when Starlette is installed, else the scope.

    A client that went away before the response ended is seen (and recorded as 499) from the
    server's own flag where it has one (uvicorn's ``disconnected``), else when the app's own
    ``receive`` answers ``http.disconnect``: no task of the collector's waits on each request.
    """

    def __init__(self, app: Callable[..., Awaitable[None]], collector: Collector, route: Optional[Callable[[Dict[str, Any]], Optional[str]]] = None, **options: Any) -> None:
        self.app = app
        self.options = o = Options(collector, **options)
        self.route = route
        self._tap_bytes = o.tap_bytes
        try:
            from starlette.requests import Request

            self._request_class: Any = Request
        except Exception:
            self._request_class = None

    async def __call__(self, scope: Dict[str, Any], receive: Callable[[], Awaitable[Dict[str, Any]]], send: Callable[[Dict[str, Any]], Awaitable[None]]) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        # uvicorn's request cycle (its receive is a bound method of it) flags a client gone away.
        cycle = getattr(receive, "__self__", None)
        if cycle is not None and type(getattr(cycle, "disconnected", None)) is not bool:
            cycle = None
        w = _Send(self, scope, send, cycle)
        if self._tap_bytes:
            w.tap = BodyTap(self._tap_bytes)
            w.in_tap = BodyTap(self._tap_bytes)
        app_receive = receive if cycle is not None and w.in_tap is None else _Receive(w, receive)
        try:
            await self.app(scope, app_receive, w)
        except BaseException:
            if not w.done:
                if not w.status:
                    w.status = 500
                    w.bytes = None  # answered outside this middleware: its size is not seen here
                self._finish(scope, w, w.gone())
            raise
        if not w.done:
            # Returned without finishing its response: the server answers 500, or the client went away.
            self._finish(scope, w, bool(w.status) or w.gone())

    def _finish(self, scope: Dict[str, Any], w: _Send, gone: bool) -> None:
        if w.done:
            return
        w.done = True
        try:
            ended = w.gone_at if gone and w.gone_at is not None else _perf_ns()
            o = self.options
            status = CLIENT_CLOSED if gone else (w.status or 500)
            route: Optional[str] = None
            try:
                if self.route is not None:
                    route = self.route(scope)
                else:
                    template = getattr(scope.get("route"), "path", None)
                    if type(template) is str:
                        # A Mount before the route moved its prefix into root_path.
                        mounted = scope.get("root_path", "")
                        root = w.root
                        if mounted and len(mounted) > len(root or "") and mounted.startswith(root or ""):
                            template = mounted[len(root or ""):] + template
                        route = template
                    elif "endpoint" in scope:
                        route = _templates.of(scope, w.root or "", _path_of(w))
            except Exception:
                route = None
            if o.fast:
                # The request's whole cost here: a tuple queued; the event (its path decoded, the path
                # for a route not found) is made on the sending thread.
                o.collector._push((o, w.started, ended, scope.get("method", "GET"), route, w.raw, status, w.bytes, scope.get("headers") if o.reads_headers else None))
                return
            path = _path_of(w)
            route = route or path
            headers = scope.get("headers") or []
            header = pairs_header(headers) if (o.reads_headers or o.capture is not None) else None

            payload = None
            if o.capture is not None:

                def payload(bodies: bool) -> Dict[str, Any]:
                    response_headers = [(_decode(k), _decode(v)) for k, v in (w.headers or [])]
                    content_type = encoding = None
                    for k, v in response_headers:
                        lower = k.lower()
                        if lower == "content-type":
                            content_type = v
                        elif lower == "content-encoding":
                            encoding = v
                    return {
                        "request_headers": [(_decode(k), _decode(v)) for k, v in headers],
                        "response_headers": response_headers,
                        "request_body": body_input(w.in_tap, header("content-type"), header("content-encoding")) if bodies else None,  # type: ignore[misc]
                        "response_body": body_input(w.tap, content_type, encoding) if bodies else None,
                    }

            request_class = self._request_class

            def request() -> Any:
                return request_class(scope) if request_class is not None else scope

            record(
                o, request, epoch_ms_of(w.started), scope.get("method", "GET"), route, path,
                status, elapsed_ms_ns(w.started, ended), w.bytes, header, payload,
            )
        except Exception:
            pass


class OpsConsoleMiddleware(OpsConsoleASGI):
    """The same middleware, named for ``app.add_middleware(OpsConsoleMiddleware, collector=collector, ...)``."""

    def __init__(self, app: Callable[..., Awaitable[None]], collector: Collector, **options: Any) -> None:
        super().__init__(app, collector, **options)
