"""Collects from a Django project: add ``"ops_console.django.OpsConsoleMiddleware"`` first in
``MIDDLEWARE`` and configure it, either in settings::

    OPS_CONSOLE = {"collector": collector, "path_prefix": True, "headers": ["user-agent"]}

or from code before the first request: ``ops_console.django.configure(collector, **options)``.
Routes are Django's route patterns (``/contacts/<int:pk>``, with a leading ``/``); each request
is measured to the end of its response (streamed ones too).
"""
from __future__ import annotations

import time
from typing import Any, Callable, Dict, Iterator, Optional

from ._wsgi_common import TappedInput, client_gone, header_of, header_pairs, raw_path
from .bodies import BodyTap
from .collector import Collector
from .measure import CLIENT_CLOSED, Options, body_input, elapsed_ms, now_ms, record

__all__ = ["OpsConsoleMiddleware", "configure"]

_perf = time.perf_counter
_configured: Optional[Dict[str, Any]] = None


def configure(collector: Collector, **options: Any) -> None:
    """Sets the collector and options the middleware use (read when Django loads its middleware)."""
    global _configured
    _configured = dict(options, collector=collector)


def _config() -> Optional[Dict[str, Any]]:
    if _configured is not None:
        return _configured
    try:
        from django.conf import settings

        value = getattr(settings, "OPS_CONSOLE", None)
        return dict(value) if value else None
    except Exception:
        return None


def django_route(request: Any) -> Optional[str]:
    match = getattr(request, "resolver_match", None)
    route = getattr(match, "route", None) if match is not None else None
    if route is None:
        return None
    return route if route.startswith("/") else "/" + route


class _Stamped(list):
    """A response's content that notes when it was last read to its end (by the server, sending it)."""

    def __init__(self, items: Any, state: Dict[str, Any]) -> None:
        super().__init__(items)
        self._state = state

    def __iter__(self) -> Iterator[Any]:
        yield from list.__iter__(self)
        self._state["ended"] = _perf()


class OpsConsoleMiddleware:
    sync_capable = True
    async_capable = False

    def __init__(self, get_response: Callable[[Any], Any]) -> None:
        self.get_response = get_response
        config = _config()
        if not config or not config.get("collector"):
            from django.core.exceptions import MiddlewareNotUsed

            raise MiddlewareNotUsed("ops_console: no collector configured (settings.OPS_CONSOLE or ops_console.django.configure)")
        config = dict(config)
        collector = config.pop("collector")
        self.route = config.pop("route", None) or django_route
        self.options = Options(collector, **config)

    def __call__(self, request: Any) -> Any:
        started = _perf()
        ts = now_ms()
        o = self.options
        in_tap = None
        if o.tap_bytes and getattr(request, "_stream", None) is not None:
            in_tap = BodyTap(o.tap_bytes)
            request._stream = TappedInput(request._stream, in_tap)
        response = self.get_response(request)
        try:
            self._watch(request, response, started, ts, in_tap)
        except Exception:
            pass
        return response

    def _watch(self, request: Any, response: Any, started: float, ts: int, in_tap: Optional[BodyTap]) -> None:
        o = self.options
        state: Dict[str, Any] = {"bytes": 0, "done": False, "finished": not getattr(response, "streaming", False), "ended": 0.0}
        gone = client_gone(request.META)
        tap = BodyTap(o.tap_bytes) if o.tap_bytes else None
        if getattr(response, "streaming", False):
            inner = response.streaming_content

            def counting() -> Iterator[bytes]:
                for chunk in inner:
                    state["bytes"] += len(chunk)
                    if tap is not None:
                        tap.add(chunk)
                    yield chunk
                state["finished"] = True
                state["ended"] = _perf()

            response.streaming_content = counting()
        else:
            content = response.content
            state["bytes"] = len(content)
            if tap is not None:
                tap.add(content)
            container = getattr(response, "_container", None)
            if isinstance(container, list):
                # The server iterates the response once it is out of every middleware: its end is when that ends.
                response._container = _Stamped(container, state)

        def finish() -> None:
            if state["done"]:
                return
            state["done"] = True
            try:
                ended = state["ended"] or _perf()
                path = raw_path(request.META)
                try:
                    route = self.route(request) or path
                except Exception:
                    route = path
                status = CLIENT_CLOSED if gone or not state["finished"] else response.status_code
                payload = None
                if o.capture is not None:

                    def payload(bodies: bool) -> Dict[str, Any]:
                        pairs = list(response.items())
                        return {
                            "request_headers": header_pairs(request.META),
                            "response_headers": pairs,
                            "request_body": body_input(in_tap, request.META.get("CONTENT_TYPE"), request.META.get("HTTP_CONTENT_ENCODING")) if bodies else None,
                            "response_body": body_input(tap, response.get("Content-Type"), response.get("Content-Encoding")) if bodies else None,
                        }

                record(
                    o, lambda: request, ts, request.method or "GET", route, path, status,
                    elapsed_ms(started, ended), state["bytes"],
                    header_of(request.META) if (o.reads_headers or o.capture is not None) else None, payload,
                )
            except Exception:
                pass

        closers = getattr(response, "_resource_closers", None)
        if isinstance(closers, list):
            closers.append(finish)  # called by response.close(), once the server has sent it
        else:
            finish()
