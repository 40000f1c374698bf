"""The collector's core (collector.ts): a bounded queue of request events, sent in batches in
the column form to ``POST <url>/ingest/v1/requests`` by a background thread.

It never raises into the host and never delays its responses: when the queue is full or the
server fails, events are dropped and counted, ``stats()`` says so, and ``on_error`` hears it.
Each batch carries an ``Idempotency-Key``, the same on every retry, so a retry after a lost
answer is kept once.
"""
from __future__ import annotations

import atexit
import http.client
import json
import logging
import math
import os
import random
import re
import signal
import socket
import threading
import time
import uuid
from collections import deque
from email.utils import parsedate_to_datetime
from typing import Any, Callable, Dict, List, Mapping, Optional, Tuple
from urllib.parse import urlsplit

from . import _limits as LIMIT
from .columns import bytes_of, columns_body
from .fit import fitted

__all__ = ["Collector", "Problem", "MAX_BACKOFF_MS", "MAX_FAILURES"]

#: The longest wait between attempts, whatever a Retry-After asks.
MAX_BACKOFF_MS = 30_000
#: Server errors after which a batch is dropped.
MAX_FAILURES = 5
#: More of an answer than any ingest answer needs is not read.
MAX_ANSWER_BYTES = 1024 * 1024

log = logging.getLogger("ops_console")


class Problem:
    """Something that went wrong sending events (``CollectorProblem``)."""

    __slots__ = ("kind", "message", "status", "events")

    def __init__(self, kind: str, message: str, status: Optional[int] = None, events: Optional[int] = None) -> None:
        self.kind = kind
        self.message = message
        self.status = status
        self.events = events

    def __repr__(self) -> str:
        return "Problem(kind=%r, status=%r, events=%r, message=%r)" % (self.kind, self.status, self.events, self.message)


def ingest_url_of(base: str) -> Tuple[str, str, int, str]:
    """The ingest URL of a console server's base URL (or of the ingest URL itself): scheme, host, port, path."""
    parts = urlsplit(base)
    if parts.scheme not in ("http", "https"):
        raise ValueError("The collector's url must be an http(s) URL, not %r" % base)
    path = parts.path or ""
    if not re.search(r"/ingest/v1/requests/?$", path):
        path = path.rstrip("/") + "/ingest/v1/requests"
    port = parts.port or (443 if parts.scheme == "https" else 80)
    return parts.scheme, parts.hostname or "localhost", port, path


def problem_of(status: int, url: str, events: int) -> Problem:
    if status in (401, 403):
        return Problem("unauthorized", "The console server refused the ingest key (%d): %d event(s) dropped. Check ingest_key." % (status, events), status, events)
    if status == 404:
        return Problem("not-found", "Nothing answers at %s (404): %d event(s) dropped. The url is the console server's base URL." % (url, events), status, events)
    if status >= 500:
        return Problem("server-error", "The console server failed (%d); a batch is tried %d times before it is dropped." % (status, MAX_FAILURES), status, events)
    return Problem("refused", "The console server refused a batch (%d): %d event(s) dropped." % (status, events), status, events)


def rejected_of(body: bytes) -> Tuple[int, str]:
    try:
        answer = json.loads(body.decode("utf-8"))
        listed = answer.get("rejected")
        if not isinstance(listed, list):
            return 0, ""
        count = answer.get("rejectedCount")
        count = count if isinstance(count, int) and not isinstance(count, bool) else len(listed)
        first = listed[0].get("reason", "") if listed and isinstance(listed[0], dict) else ""
        return count, str(first)
    except Exception:
        return 0, ""


def retry_after_ms(value: Optional[str]) -> float:
    """A Retry-After value (seconds or an HTTP date) in milliseconds from now, at most the longest backoff."""
    if not value:
        return 0.0
    value = value.strip()
    try:
        if value.isdigit():
            ms = int(value) * 1000.0
        else:
            ms = parsedate_to_datetime(value).timestamp() * 1000.0 - time.time() * 1000.0
    except Exception:
        return 0.0
    if ms != ms or ms in (math.inf, -math.inf):
        return 0.0
    return min(float(MAX_BACKOFF_MS), max(0.0, ms))


def _event_of(item: Tuple[Any, ...], offset_ns: int, cache: Dict[Any, Any]) -> Dict[str, Any]:
    """A middleware's measured tuple made an event: its first member, the middleware's options, knows how."""
    return item[0].event(item, offset_ns, cache)


class _Batch:
    __slots__ = ("count", "bytes", "key", "failures", "events", "body", "ts_base")

    def __init__(self, key: Optional[str] = None, ts_base: Optional[int] = None) -> None:
        self.count = 0
        self.bytes = 0
        self.key = key or str(uuid.uuid4())
        self.failures = 0
        self.events: Optional[List[Dict[str, Any]]] = []
        self.body: Optional[bytes] = None
        self.ts_base = ts_base if ts_base is not None else int(time.time() * 1000)


class Collector:
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
        self._ready: List[_Batch] = []
        self._pending: "deque[Any]" = deque()
        self._woken = False
        self._open: Optional[_Batch] = None
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

        self._previous_sigterm: Any = None
        self._sigterm_installed = False
        self._atexit_installed = False
        if close_at_exit:
            atexit.register(self._close_at_exit)
            self._atexit_installed = True
        if close_on_sigterm and threading.current_thread() is threading.main_thread() and hasattr(signal, "SIGTERM"):
            try:
                self._previous_sigterm = signal.getsignal(signal.SIGTERM)
                signal.signal(signal.SIGTERM, self._on_sigterm)
                self._sigterm_installed = True
            except (ValueError, OSError):
                pass

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

    def _absorb(self) -> None:
        """Moves what the request threads queued into batches: each made an event, fitted within the
        ingest API's limits and sized, here on the sending thread. The caller holds the send lock."""
        self._woken = False
        pending = self._pending
        count = len(pending)
        if not count:
            return
        with self._lock:
            self._queued += count  # counted before they leave the deque: the bound never under-counts
        offset_ns = time.time_ns() - time.perf_counter_ns()
        popleft = pending.popleft
        cache: Dict[Any, Any] = {}
        made = []
        for _ in range(count):
            item = popleft()
            try:
                e = fitted(item if isinstance(item, dict) else _event_of(item, offset_ns, cache))
                made.append((e, bytes_of(e)))
            except Exception:
                made.append(None)  # a request the collector cannot read is left out; the host never sees it
        problems = []
        with self._lock:
            self._queued -= count
            for one in made:
                if one is None:
                    continue
                e, size = one
                if self._queued + 1 > self._max_queue or self._queued_bytes + size > self._max_queue_bytes:
                    problem = self._drop_full()
                    if problem is not None:
                        problems.append(problem)
                    continue
                batch = self._open
                if batch is not None and batch.bytes + size > self._max_batch_bytes:
                    self._seal()
                    batch = None
                if batch is None:
                    batch = self._open = _Batch()
                batch.events.append(e)  # type: ignore[union-attr]
                batch.count += 1
                batch.bytes += size
                self._queued += 1
                self._queued_bytes += size
                if batch.count >= self._batch_size:
                    self._seal()
        for problem in problems:
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

    def _close_at_exit(self) -> None:
        self._atexit_installed = False
        self.close()

    def _on_sigterm(self, signum: int, frame: Any) -> None:
        previous = self._previous_sigterm
        try:
            signal.signal(signal.SIGTERM, previous if previous is not None else signal.SIG_DFL)
        except Exception:
            pass
        self._sigterm_installed = False
        # Closed from a thread: the signal may have come while this thread held the queue's lock.
        closer = threading.Thread(target=self.close, name="ops-console-close", daemon=True)
        closer.start()
        closer.join(self._close_timeout + 1.0)
        if callable(previous):
            previous(signum, frame)
        elif previous in (signal.SIG_DFL, None):
            os.kill(os.getpid(), signum)

    def _uninstall(self) -> None:
        if self._atexit_installed:
            self._atexit_installed = False
            try:
                atexit.unregister(self._close_at_exit)
            except Exception:
                pass
        if self._sigterm_installed and threading.current_thread() is threading.main_thread():
            try:
                if signal.getsignal(signal.SIGTERM) == self._on_sigterm:
                    signal.signal(signal.SIGTERM, self._previous_sigterm if self._previous_sigterm is not None else signal.SIG_DFL)
                    self._sigterm_installed = False
            except Exception:
                pass

    def _drop_full(self) -> Optional[Problem]:
        self._stats["dropped_queue_full"] += 1
        problem = None
        if not self._full:
            problem = Problem("queue-full", "The queue is full (the console server is slow or away): new requests are not recorded.", events=1)
        self._full = True
        return problem

    def _seal(self) -> None:
        self._ready.append(self._open)  # type: ignore[arg-type]
        self._open = None
        self._wake.set()

    def _tell(self, problem: Problem) -> None:
        try:
            if self._on_error is not None:
                self._on_error(problem)
            elif problem.kind not in self._warned:
                self._warned.add(problem.kind)
                log.warning("[ops-console collector] %s (said once; pass on_error to hear each time)", problem.message)
        except Exception:
            pass

    def _run(self) -> None:
        next_tick = time.monotonic() + self._interval
        while not self._stopping:
            woke = self._wake.wait(max(0.0, next_tick - time.monotonic()))
            if self._stopping:
                return
            self._wake.clear()
            everything = time.monotonic() >= next_tick
            if everything:
                next_tick = time.monotonic() + self._interval
            elif not woke:
                continue
            if self._send_lock.acquire(blocking=False):
                try:
                    self._drain(everything, None)
                except Exception:
                    pass
                finally:
                    self._send_lock.release()

    def _drain(self, everything: bool, deadline: Optional[float]) -> None:
        """Sends ready batches (with the open one when ``everything``); the caller holds the send lock."""
        self._absorb()
        with self._lock:
            if everything and self._open is not None and time.monotonic() >= self._retry_at:
                self._ready.append(self._open)
                self._open = None
        while True:
            with self._lock:
                if not self._ready or time.monotonic() < self._retry_at:
                    return
                batch = self._ready[0]
            if batch.body is None and self._write(batch) != "written":
                continue
            outcome, rejected = self._send(batch, deadline)
            problem = None
            with self._lock:
                if not self._ready or self._ready[0] is not batch:
                    return  # close() gave up on it meanwhile: counted there
                if outcome == "retry":
                    self._stats["failed_attempts"] += 1
                    self._backoff = min(float(MAX_BACKOFF_MS), self._backoff * 2) if self._backoff else 500.0
                    wait = max(self._backoff * (0.5 + random.random() / 2), self._server_asked)
                    self._retry_at = time.monotonic() + wait / 1000.0
                    self._server_asked = 0.0
                    return
                self._ready.pop(0)
                self._queued -= batch.count
                self._queued_bytes -= batch.bytes
                if outcome == "sent":
                    self._stats["sent"] += batch.count - rejected
                    self._stats["rejected"] += rejected
                    self._backoff = 0.0
                else:
                    self._stats["failed_attempts"] += 1
                    self._stats["dropped_failed"] += batch.count

    def _write(self, batch: _Batch) -> str:
        """Writes the front batch's body once (the same bytes at every retry); splits one too big."""
        try:
            body = columns_body(batch.events or [], batch.ts_base)
        except Exception as error:
            with self._lock:
                if self._ready and self._ready[0] is batch:
                    self._ready.pop(0)
                    self._queued -= batch.count
                    self._queued_bytes -= batch.bytes
                    self._stats["dropped_failed"] += batch.count
            self._tell(Problem("refused", "A batch could not be written as JSON (%s): %d event(s) dropped." % (error, batch.count), events=batch.count))
            return "dropped"
        if len(body) <= self._max_batch_bytes or batch.count == 1:
            batch.body = body
            batch.events = None
            return "written"
        events = batch.events or []
        half = (batch.count + 1) // 2
        first_bytes = round(batch.bytes * half / batch.count)
        first = _Batch(batch.key, batch.ts_base)
        second = _Batch(None, batch.ts_base)
        first.events, first.count, first.bytes = events[:half], half, first_bytes
        second.events, second.count, second.bytes = events[half:], batch.count - half, batch.bytes - first_bytes
        with self._lock:
            if self._ready and self._ready[0] is batch:
                self._ready[0:1] = [first, second]
        return "split"

    def _send(self, batch: _Batch, deadline: Optional[float]) -> Tuple[str, int]:
        timeout = self._send_timeout
        if deadline is not None:
            timeout = max(0.05, min(timeout, deadline - time.monotonic()))
        try:
            status, retry_after, answer = self._post(batch.body or b"", batch.key, timeout)
        except Exception as error:
            with self._lock:
                given_up = self._closed and batch not in self._ready
            if given_up:
                return "drop", 0
            self._tell(Problem("unreachable", "Could not send events to %s://%s:%d: %s; retrying." % (self._scheme, self._host, self._port, error or type(error).__name__)))
            return "retry", 0
        if status == 202:
            count, first = rejected_of(answer)
            if count:
                self._tell(Problem("rejected-events", "The console server refused %d event(s): %s" % (count, first), 202, count))
            return "sent", count
        if status in (429, 503):
            self._server_asked = retry_after_ms(retry_after)
            return "retry", 0
        self._tell(problem_of(status, self.url, batch.count))
        if status >= 500:
            batch.failures += 1
            if batch.failures < MAX_FAILURES:
                return "retry", 0
        return "drop", 0

    def _connection(self, timeout: float) -> http.client.HTTPConnection:
        conn = self._conn
        if conn is None:
            if self._scheme == "https":
                conn = http.client.HTTPSConnection(self._host, self._port, timeout=timeout)
            else:
                conn = http.client.HTTPConnection(self._host, self._port, timeout=timeout)
            self._conn = conn
            self._conn_used = False
        else:
            conn.timeout = timeout
            if conn.sock is not None:
                conn.sock.settimeout(timeout)
        return conn

    def _post(self, body: bytes, key: str, timeout: float) -> Tuple[int, Optional[str], bytes]:
        headers = {
            "Authorization": "Bearer " + self._key,
            "Content-Type": "application/json",
            "Idempotency-Key": key,
            "Content-Length": str(len(body)),
        }
        for attempt in (0, 1):
            conn = self._connection(timeout)
            reused = self._conn_used
            try:
                conn.request("POST", self._path, body=body, headers=headers)
                response = conn.getresponse()
            except (http.client.RemoteDisconnected, BrokenPipeError, ConnectionResetError, http.client.CannotSendRequest, http.client.BadStatusLine):
                self._drop_connection()
                if reused and attempt == 0:
                    continue  # a kept-alive connection the server had closed: once more on a new one
                raise
            except Exception:
                self._drop_connection()
                raise
            try:
                answer = response.read(MAX_ANSWER_BYTES)
                if not response.isclosed():
                    self._drop_connection()
                else:
                    self._conn_used = True
                if response.getheader("connection", "").lower() == "close":
                    self._drop_connection()
            except Exception:
                self._drop_connection()
                raise
            return response.status, response.getheader("retry-after"), answer
        raise ConnectionError("no answer")

    def _drop_connection(self) -> None:
        conn = self._conn
        self._conn = None
        self._conn_used = False
        if conn is not None:
            try:
                conn.close()
            except Exception:
                pass

    def _abort(self) -> None:
        """Ends a send under way (at close's deadline)."""
        conn = self._conn
        sock = getattr(conn, "sock", None) if conn is not None else None
        if sock is not None:
            try:
                sock.shutdown(socket.SHUT_RDWR)
            except Exception:
                pass
