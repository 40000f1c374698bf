"""The collector's core (collector.ts): a bounded queue of request events, sent in batches in
the column form to ``POST <url>/ingest/v1/requests`` by a background thread.

It never raises into the host and never delays its responses: when the queue is full or the
server fails, events are dropped and counted, ``stats()`` says so, and ``on_error`` hears it.
Each batch carries an ``Idempotency-Key``, the same on every retry, so a retry after a lost
answer is kept once.

This module is the host's side (recording, ``stats``, ``flush``, ``close``); the rest of the
collector is in its parts: batch building (_batching.py), the sending thread and its retries
(_sending.py), the HTTP connection (_transport.py), closing at exit (_exit_hooks.py), and what
the ingest API answers (_ingest_api.py).
"""
from __future__ import annotations

import http.client
import logging
import threading
import time
from collections import deque
from typing import Any, Callable, Dict, List, Mapping, Optional

from . import _limits as LIMIT
from ._batching import Batch, BatchBuilding
from ._exit_hooks import ExitHooks
from ._ingest_api import MAX_BACKOFF_MS, MAX_FAILURES, Problem, ingest_url_of
from ._ingest_api import MAX_ANSWER_BYTES, problem_of, rejected_of, retry_after_ms  # noqa: F401  (importable here, as before)
from ._sending import Sending
from ._transport import Transport

__all__ = ["Collector", "Problem", "MAX_BACKOFF_MS", "MAX_FAILURES"]

log = logging.getLogger("ops_console")


class Collector(BatchBuilding, Sending, Transport, ExitHooks):
    """Measures nothing itself: the middleware hand it events; it queues and sends them.

    ``url`` is the console server's base URL (``http://console:8787``) or its ingest URL;
    ``ingest_key`` the key the server gave this API. Times are in seconds (``flush_interval``,
    ``send_timeout``); ``mask`` (``{"headers": [...], "fields": [...], "patterns": [...]}``) is
    what the middleware mask besides the defaults, unless they are given their own.
    """

    def __init__(
        self,
        url: str,
        ingest_key: Optional[str],
        *,
        flush_interval: float = 5.0,
        max_queue: int = 10_000,
        max_queue_bytes: int = 32 * 1024 * 1024,
        max_batch: int = 5_000,
        max_batch_bytes: int = 4 * 1024 * 1024,
        send_timeout: float = 10.0,
        close_timeout: float = 5.0,
        on_error: Optional[Callable[[Problem], Any]] = None,
        mask: Optional[Mapping[str, Any]] = None,
        close_at_exit: bool = True,
        close_on_sigterm: bool = True,
    ) -> None:
        if not isinstance(ingest_key, str) or not ingest_key.strip():
            raise ValueError(
                "The collector's ingest_key is missing (it is %r): pass the key the console server gave this API." % (ingest_key,)
            )
        self._scheme, self._host, self._port, self._path = ingest_url_of(url)
        self.url = "%s://%s:%d%s" % (self._scheme, self._host, self._port, self._path)
        self._key = ingest_key
        self.mask = mask
        self._interval = max(0.001, float(flush_interval))
        self._max_queue = int(max_queue)
        self._max_queue_bytes = int(max_queue_bytes)
        self._batch_size = max(1, min(int(max_batch), LIMIT.MAX_BATCH))
        self._max_batch_bytes = min(int(max_batch_bytes), LIMIT.MAX_BODY_BYTES)
        self._send_timeout = float(send_timeout)
        self._close_timeout = float(close_timeout)
        self._on_error = on_error
        self._warned: set = set()

        self._lock = threading.Lock()
        self._send_lock = threading.Lock()
        self._ready: List[Batch] = []
        self._pending: "deque[Any]" = deque()
        self._woken = False
        self._open: Optional[Batch] = None
        self._queued = 0
        self._queued_bytes = 0
        self._stats = {"sent": 0, "rejected": 0, "dropped_queue_full": 0, "dropped_failed": 0, "dropped_at_close": 0, "failed_attempts": 0}
        self._retry_at = 0.0
        self._backoff = 0.0
        self._server_asked = 0.0
        self._closed = False
        self._full = False
        self._conn: Optional[http.client.HTTPConnection] = None
        self._conn_used = False

        self._wake = threading.Event()
        self._stopping = False
        self._thread = threading.Thread(target=self._run, name="ops-console-collector", daemon=True)
        self._thread.start()

        self._install_exit_hooks(close_at_exit, close_on_sigterm)

    # -- the host's side ----------------------------------------------------------------------
    def record(self, event: Dict[str, Any]) -> None:
        """Queues one measured request (a dict with ``ts``, ``method``, ``route``, ``path``,
        ``status``, ``duration_ms`` and optional fields); never raises, never blocks on the network.
        It is fitted to the ingest API's limits by the sending thread (one that cannot be read is left out)."""
        self._push(event)

    def _push(self, item: Any) -> None:
        """The request thread's whole share: a bound check and an append (``deque.append`` is atomic).
        ``item`` is an event dict or a middleware's measured tuple, made an event by the sending thread."""
        try:
            pending = self._pending
            if self._closed:
                return
            if len(pending) + self._queued >= self._max_queue:
                self._push_dropped()
                return
            pending.append(item)
            if self._full:
                self._full = False
            if len(pending) >= self._batch_size and not self._woken:
                self._woken = True
                self._wake.set()
        except Exception:
            pass

    def _push_dropped(self) -> None:
        with self._lock:
            problem = self._drop_full()
        if problem is not None:
            self._tell(problem)

    def stats(self) -> Dict[str, int]:
        with self._lock:
            out = dict(self._stats)
            out["queued"] = self._queued + len(self._pending)
        return out

    def flush(self, timeout: Optional[float] = None) -> None:
        """Sends everything queued now; returns when done (or given up, or after ``timeout`` seconds)."""
        try:
            self._retry_at = 0.0
            deadline = None if timeout is None else time.monotonic() + timeout
            if not self._send_lock.acquire(timeout=-1 if timeout is None else max(0.0, timeout)):
                return
            try:
                self._drain(True, deadline)
            finally:
                self._send_lock.release()
        except Exception:
            pass

    def close(self, timeout: Optional[float] = None) -> None:
        """Stops recording, sends what waits (retrying while the server is away) and returns
        within ``timeout`` seconds (default ``close_timeout``, 5) at the latest."""
        try:
            self._close(self._close_timeout if timeout is None else float(timeout))
        except Exception:
            pass

    # -- internals -----------------------------------------------------------------------------
    def _close(self, timeout: float) -> None:
        with self._lock:
            already = self._closed
            self._closed = True
        self._stopping = True
        self._wake.set()
        self._uninstall()
        if already and self._queued + len(self._pending) == 0:
            return
        self._retry_at = 0.0
        deadline = time.monotonic() + timeout
        while self._queued + len(self._pending) > 0:
            now = time.monotonic()
            if now >= deadline:
                break
            if now < self._retry_at:
                time.sleep(min(self._retry_at, deadline) - now)
                continue
            if not self._send_lock.acquire(timeout=max(0.0, deadline - now)):
                break
            try:
                self._drain(True, deadline)
            finally:
                self._send_lock.release()
        problem = None
        with self._lock:
            queued = self._queued + len(self._pending)
            if queued > 0:
                self._pending.clear()
                self._stats["dropped_at_close"] += queued
                problem = Problem("dropped-at-close", "Closed with %d event(s) not yet sent: the console server did not take them in time." % queued, events=queued)
                self._ready = []
                self._open = None
                self._queued = 0
                self._queued_bytes = 0
        if problem is not None:
            self._abort()
            self._tell(problem)
        if self._send_lock.acquire(blocking=False):
            try:
                self._drop_connection()
            finally:
                self._send_lock.release()

    def _tell(self, problem: Problem) -> None:
        try:
            if self._on_error is not None:
                self._on_error(problem)
            elif problem.kind not in self._warned:
                self._warned.add(problem.kind)
                log.warning("[ops-console collector] %s (said once; pass on_error to hear each time)", problem.message)
        except Exception:
            pass
