"""The sending thread: it wakes when a batch is full or every ``flush_interval``, sends the ready
batches in order, and retries with exponential backoff and jitter (honouring Retry-After, at
most ``MAX_BACKOFF_MS``); a batch that keeps failing with a server error is dropped after
``MAX_FAILURES`` attempts.

``Sending`` is a part of ``Collector`` (collector.py), which holds the state it uses."""
from __future__ import annotations

import random
import time
from typing import Optional, Tuple

from ._batching import Batch
from ._ingest_api import MAX_BACKOFF_MS, MAX_FAILURES, Problem, problem_of, rejected_of, retry_after_ms

__all__ = ["Sending"]


class Sending:
    """The collector's sending thread and its retries (a mixin of ``Collector``)."""

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

    def _send(self, batch: Batch, deadline: Optional[float]) -> Tuple[str, int]:
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
