"""The suite's client side (see suite.py): calling an app on loopback, going away from its slow
request, waiting until the collector recorded requests, and reading figures back."""
from __future__ import annotations

import http.client
import math
import socket
import sys
import time
from typing import Any, Dict, List, Optional, Tuple
from urllib.parse import urlsplit

from ops_console import Collector
from suite_apps import slow_arrived

#: The apps run in threads of the test's own process: a server thread may wait for the GIL up to a
#: switch interval after its last write before it reads the clock, while the client thread already has its answer.
SLACK_MS = 2 * sys.getswitchinterval() * 1000 + 1


def call(origin: str, method: str, path: str, headers: Optional[Dict[str, str]] = None, body: Optional[bytes] = None) -> Dict[str, Any]:
    parts = urlsplit(origin)
    sent_at = time.time() * 1000
    started = time.perf_counter()
    conn = http.client.HTTPConnection(parts.hostname, parts.port, timeout=30)
    try:
        conn.request(method, path, body=body, headers=headers or {})
        answer = conn.getresponse()
        data = answer.read()
    finally:
        conn.close()
    elapsed = (time.perf_counter() - started) * 1000
    return {"status": answer.status, "body": data, "elapsed": elapsed, "sent_at": sent_at, "answered_at": time.time() * 1000, "headers": dict(answer.getheaders())}


def abandon_slow(origin: str, prefix: str) -> None:
    """Asks for /slow and goes away once the app has the request."""
    parts = urlsplit(origin)
    slow_arrived.clear()
    sock = socket.create_connection((parts.hostname, parts.port))
    sock.sendall(("GET %s/slow HTTP/1.1\r\nHost: x\r\n\r\n" % prefix).encode())
    assert slow_arrived.wait(10), "the slow request never arrived"
    sock.close()


def nearest_rank(values: List[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[max(0, math.ceil(p * len(ordered)) - 1)]


def by_call(details: List[Dict[str, Any]]) -> Dict[Tuple[str, str], Dict[str, Any]]:
    return {(d["method"], d["path"]): d for d in details}


def recorded(collector: Collector, count: int, timeout: float = 5.0) -> None:
    """Waits until ``count`` requests are recorded: a server records a request once its last byte is
    written, and the client, in another thread, may have its answer a moment before."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        stats = collector.stats()
        if stats["queued"] + stats["sent"] >= count:
            return
        time.sleep(0.005)


def fresh_collector(console: Any, **kw: Any) -> Collector:
    problems: List[Any] = []
    kw.setdefault("flush_interval", 0.05)
    collector = Collector(console.url, console.ingest_key, on_error=problems.append, close_on_sigterm=False, **kw)
    collector.problems = problems  # type: ignore[attr-defined]
    return collector


def epoch_ms(iso: str) -> float:
    from datetime import datetime

    return datetime.fromisoformat(iso.replace("Z", "+00:00")).timestamp() * 1000

