"""Ops Console collector for Python APIs: measures each request (ASGI, WSGI/Flask, Django) and
sends batches to the console server's ingest API. Standard library only."""
from __future__ import annotations

from .collector import MAX_BACKOFF_MS, MAX_FAILURES, Collector, Problem
from .mask import MASKED, Masker, create_masker
from .measure import CLIENT_CLOSED

__version__ = "0.1.0"

__all__ = [
    "Collector",
    "Problem",
    "Masker",
    "create_masker",
    "MASKED",
    "CLIENT_CLOSED",
    "MAX_BACKOFF_MS",
    "MAX_FAILURES",
    "OpsConsoleWSGI",
    "OpsConsoleASGI",
    "collect_flask",
]


def __getattr__(name: str):  # the middleware are imported when first asked for
    if name in ("OpsConsoleWSGI", "collect_flask", "collect_wsgi"):
        from . import wsgi

        return getattr(wsgi, name)
    if name in ("OpsConsoleASGI", "OpsConsoleMiddleware"):
        from . import asgi

        return getattr(asgi, name)
    raise AttributeError(name)
