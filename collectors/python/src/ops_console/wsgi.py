"""Collects from a WSGI app (Flask, or any other): ``app.wsgi_app = OpsConsoleWSGI(app.wsgi_app, collector)``
or ``collect_flask(app, collector)``. Each request is measured to the end of its response body."""
from __future__ import annotations

import time
from typing import Any, Callable, Dict, Iterable, List, Optional, Tuple

from ._wsgi_common import TappedInput, client_gone, header_of, header_pairs, raw_path
from .bodies import BodyTap
from .collector import Collector
from .measure import CLIENT_CLOSED, Options, body_input, elapsed_ms_ns, epoch_ms_of, record

__all__ = ["OpsConsoleWSGI", "collect_flask", "collect_wsgi"]

_perf_ns = time.perf_counter_ns


def werkzeug_route(environ: Dict[str, Any]) -> Optional[str]:
    """The URL rule werkzeug (Flask) matched: as ``collect_flask`` noted it, else from the request werkzeug kept in the environ."""
    route = environ.get("ops_console.route")
    if route is not None:
        return route
    request = environ.get("werkzeug.request")
    rule = getattr(request, "url_rule", None) if request is not None else None
    return getattr(rule, "rule", None) if rule is not None else None


class _Watch:
    __slots__ = ("environ", "started", "status", "headers", "bytes", "tap", "in_tap", "done", "gone", "ended")

    def __init__(self, environ: Dict[str, Any]) -> None:
        self.environ = environ
        self.started = _perf_ns()
        self.status = 0
        self.headers: List[Tuple[str, str]] = []
        self.bytes = 0
        self.tap: Optional[BodyTap] = None
        self.in_tap: Optional[BodyTap] = None
        self.done = False
        self.gone = False
        self.ended = 0


class _Body:
    """The response body as the server iterates it: bytes counted, and the request recorded at close()."""

    __slots__ = ("_iterable", "_iterator", "_watch", "_middleware", "_finished")

    def __init__(self, iterable: Iterable[bytes], watch: _Watch, middleware: "OpsConsoleWSGI") -> None:
        self._iterable = iterable
        self._iterator = None
        self._watch = watch
        self._middleware = middleware
        self._finished = False

    def __iter__(self) -> "_Body":
        self._iterator = iter(self._iterable)
        return self

    def __next__(self) -> bytes:
        try:
            chunk = next(self._iterator)  # type: ignore[arg-type]
        except StopIteration:
            # The server asks for more once it has written the last chunk: the response's end.
            self._finished = True
            self._watch.ended = _perf_ns()
            raise
        except BaseException:
            w = self._watch
            if not w.done:
                w.status = 500 if not w.gone else w.status
            raise
        w = self._watch
        w.bytes += len(chunk)
        if w.tap is not None:
            w.tap.add(chunk)
        return chunk

    def close(self) -> None:
        try:
            close = getattr(self._iterable, "close", None)
            if close is not None:
                close()
        finally:
            self._middleware._finish(self._watch, not self._finished)


class OpsConsoleWSGI:
    """WSGI middleware: ``OpsConsoleWSGI(app, collector, route=None, **options)``.

    ``route(environ)`` names the route template of a request; by default the URL rule werkzeug
    (Flask) matched, else the path. Options: ``api_version``, ``path_prefix``,
    ``api_version_header``, ``identify``, ``headers``, ``mask``, ``capture``, ``sample``, ``redact``.
    """

    def __init__(self, app: Callable[..., Any], collector: Collector, route: Optional[Callable[[Dict[str, Any]], Optional[str]]] = None, **options: Any) -> None:
        self.app = app
        self.options = Options(collector, **options)
        self.route = route or werkzeug_route

    def __call__(self, environ: Dict[str, Any], start_response: Callable[..., Any]) -> Iterable[bytes]:
        w = _Watch(environ)
        o = self.options
        if o.tap_bytes:
            stream = environ.get("wsgi.input")
            if stream is not None:
                w.in_tap = BodyTap(o.tap_bytes)
                environ["wsgi.input"] = TappedInput(stream, w.in_tap)
            w.tap = BodyTap(o.tap_bytes)

        def watched_start_response(status: str, headers: List[Tuple[str, str]], exc_info: Any = None) -> Callable[[bytes], Any]:
            try:
                w.status = int(status[:3])
            except ValueError:
                w.status = 0
            w.headers = headers
            write = start_response(status, headers, exc_info) if exc_info is not None else start_response(status, headers)

            def counting_write(data: bytes) -> Any:
                w.bytes += len(data)
                if w.tap is not None:
                    w.tap.add(data)
                return write(data)

            return counting_write

        try:
            result = self.app(environ, watched_start_response)
        except BaseException:
            # The server answers 500 for an app that raised.
            w.status = 500
            self._finish(w, False)
            raise
        # The client went away while the app worked (seen where the server shows its socket).
        w.gone = client_gone(environ)
        return _Body(result, w, self)

    def _finish(self, w: _Watch, aborted: bool) -> None:
        if w.done:
            return
        w.done = True
        try:
            ended = w.ended or _perf_ns()
            environ = w.environ
            path = raw_path(environ)
            try:
                route = self.route(environ) or path
            except Exception:
                route = path
            status = CLIENT_CLOSED if (aborted or w.gone) else (w.status or 500)
            o = self.options
            if o.fast:
                # The request's whole cost here: a tuple queued; the event is made on the sending thread.
                named = None
                if o.wsgi_keys:
                    named = {}
                    for name, key in o.wsgi_keys:
                        value = environ.get(key)
                        if value:
                            named[name] = str(value)
                o.collector._push((o, w.started, ended, environ.get("REQUEST_METHOD", "GET"), route, path, status, w.bytes, named))
                return
            payload = None
            if o.capture is not None:

                def payload(bodies: bool) -> Dict[str, Any]:
                    content_type = None
                    encoding = None
                    for name, value in w.headers:
                        lower = name.lower()
                        if lower == "content-type":
                            content_type = value
                        elif lower == "content-encoding":
                            encoding = value
                    return {
                        "request_headers": header_pairs(environ),
                        "response_headers": w.headers,
                        "request_body": body_input(w.in_tap, environ.get("CONTENT_TYPE"), environ.get("HTTP_CONTENT_ENCODING")) if bodies else None,
                        "response_body": body_input(w.tap, content_type, encoding) if bodies else None,
                    }

            record(
                o,
                lambda: environ.get("ops_console.request") or environ.get("werkzeug.request") or environ,
                epoch_ms_of(w.started),
                environ.get("REQUEST_METHOD", "GET"),
                route,
                path,
                status,
                elapsed_ms_ns(w.started, ended),
                w.bytes,
                header_of(environ) if (o.reads_headers or o.capture is not None) else None,
                payload,
            )
        except Exception:
            pass


def collect_wsgi(app: Callable[..., Any], collector: Collector, **options: Any) -> OpsConsoleWSGI:
    return OpsConsoleWSGI(app, collector, **options)


def collect_flask(app: Any, collector: Collector, **options: Any) -> Any:
    """Installs the collector on a Flask app (wrapping ``app.wsgi_app``); returns the app.
    Hooks get Flask's request object; routes are Flask's URL rules (``/contacts/<int:id>``)."""
    from flask import request

    preprocess = app.preprocess_request

    def noting_preprocess_request() -> Any:
        # Runs in the request's context before any before_request hook: the matched rule is known
        # (Flask forgets its request once the response is out).
        try:
            environ = request.environ
            environ["ops_console.request"] = request._get_current_object()
            rule = request.url_rule
            if rule is not None:
                environ["ops_console.route"] = rule.rule
        except Exception:
            pass
        return preprocess()

    app.preprocess_request = noting_preprocess_request
    app.wsgi_app = OpsConsoleWSGI(app.wsgi_app, collector, **options)
    return app
