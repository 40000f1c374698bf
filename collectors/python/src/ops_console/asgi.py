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


def asgi_route(scope: Dict[str, Any], root: str, path: str) -> Optional[str]:
    """The route template the framework matched, read from the scope once routing is done."""
    route = scope.get("route")
    template = getattr(route, "path", None) if route is not None else None
    if isinstance(template, str):
        # A Mount before the route moved its prefix into root_path.
        mounted = scope.get("root_path", "") or ""
        if len(mounted) > len(root) and mounted.startswith(root):
            return mounted[len(root):] + template
        return template
    if "endpoint" in scope:
        return _templates.of(scope, root, path)
    return None


class _Watch:
    __slots__ = ("started", "status", "headers", "bytes", "tap", "in_tap", "done", "gone_at", "root", "path", "cycle")


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
        self.options = Options(collector, **options)
        self.route = route
        try:
            from starlette.requests import Request

            self._request_class: Any = Request
        except Exception:
            self._request_class = None

    async def __call__(self, scope: Dict[str, Any], receive: Callable[[], Awaitable[Dict[str, Any]]], send: Callable[[Dict[str, Any]], Awaitable[None]]) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        w = _Watch()
        w.started = _perf_ns()
        w.status = 0
        w.headers = None
        w.bytes = 0
        w.tap = None
        w.in_tap = None
        w.done = False
        w.gone_at = None
        # Routing rewrites the scope (a Mount moves its prefix into root_path): read both now.
        w.root = scope.get("root_path", "")
        raw = scope.get("raw_path")
        if raw:
            path = raw.decode("latin-1")
            if "?" in path:
                path = path[: path.find("?")]
            w.path = path
        else:
            w.path = (w.root or "") + scope.get("path", "/")
        o = self.options
        if o.tap_bytes:
            w.tap = BodyTap(o.tap_bytes)
            w.in_tap = BodyTap(o.tap_bytes)
        # uvicorn's request cycle (its receive is a bound method of it) flags a client gone away.
        cycle = getattr(receive, "__self__", None)
        if cycle is not None and type(getattr(cycle, "disconnected", None)) is not bool:
            cycle = None
        w.cycle = cycle

        app_receive = receive
        if cycle is None or w.in_tap is not None:
            in_tap = w.in_tap

            async def app_receive() -> Dict[str, Any]:
                message = await receive()
                kind = message.get("type")
                if kind == _DISCONNECT:
                    if w.gone_at is None and not w.done:
                        w.gone_at = _perf_ns()
                elif in_tap is not None and kind == "http.request":
                    in_tap.add(message.get("body", b""))
                return message

        async def watched_send(message: Dict[str, Any]) -> None:
            kind = message["type"]
            if kind == "http.response.body":
                body = message.get("body", b"")
                w.bytes += len(body)
                if w.tap is not None:
                    w.tap.add(body)
                if not message.get("more_body", False):
                    gone = w.gone_at is not None or (cycle is not None and cycle.disconnected)
                    try:
                        await send(message)
                    except BaseException:
                        self._finish(scope, w, True)
                        raise
                    self._finish(scope, w, gone)
                    return
            elif kind == "http.response.start":
                w.status = message["status"]
                w.headers = message.get("headers")
            await send(message)

        try:
            await self.app(scope, app_receive, watched_send)
        except BaseException:
            if not w.done:
                if not w.status:
                    w.status = 500
                    w.bytes = None  # answered outside this middleware: its size is not seen here
                self._finish(scope, w, w.gone_at is not None or (cycle is not None and cycle.disconnected))
            raise
        if not w.done:
            # Returned without finishing its response: the server answers 500, or the client went away.
            self._finish(scope, w, w.gone_at is not None or bool(w.status) or (cycle is not None and cycle.disconnected))

    def _finish(self, scope: Dict[str, Any], w: _Watch, gone: bool) -> None:
        if w.done:
            return
        w.done = True
        try:
            ended = w.gone_at if gone and w.gone_at is not None else _perf_ns()
            path = w.path
            try:
                route = (self.route(scope) if self.route is not None else asgi_route(scope, w.root or "", path)) or path
            except Exception:
                route = path
            o = self.options
            status = CLIENT_CLOSED if gone else (w.status or 500)
            if o.fast:
                # The request's whole cost here: a tuple queued; the event is made on the sending thread.
                o.collector._push((o, w.started, ended, scope.get("method", "GET"), route, path, status, w.bytes, scope.get("headers") if o.reads_headers else None))
                return
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
