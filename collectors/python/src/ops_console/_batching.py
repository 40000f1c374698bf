"""Batch building, on the sending thread: the request threads' queued items made events, fitted
within the ingest API's limits, sized, gathered into batches, and each batch written once as
the column form's JSON (split in two when it is too big).

``BatchBuilding`` is a part of ``Collector`` (collector.py), which holds the state it uses:
the locks, the deque of pending items, the open and ready batches, the counters."""
from __future__ import annotations

import time
import uuid
from typing import Any, Dict, List, Optional, Tuple

from ._ingest_api import Problem
from .columns import bytes_of, columns_body
from .fit import fitted

__all__ = ["Batch", "BatchBuilding"]


def _made(item: Any, offset_ns: int, cache: Dict[Any, Any]) -> Tuple[Dict[str, Any], int]:
    """An event the host recorded, or a middleware's measured tuple (its first member, the
    middleware's options, knows how to make it an event), fitted and sized."""
    if isinstance(item, dict):
        e = fitted(item)
        return e, bytes_of(e)
    return item[0].made(item, offset_ns, cache)


class Batch:
    __slots__ = ("count", "bytes", "key", "failures", "events", "body", "ts_base")

    def __init__(self, key: Optional[str] = None, ts_base: Optional[int] = None) -> None:
        self.count = 0
        self.bytes = 0
        self.key = key or str(uuid.uuid4())
        self.failures = 0
        self.events: Optional[List[Dict[str, Any]]] = []
        self.body: Optional[bytes] = None
        self.ts_base = ts_base if ts_base is not None else int(time.time() * 1000)


class BatchBuilding:
    """The collector's batch building (a mixin of ``Collector``)."""

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
                made.append(_made(item, offset_ns, cache))
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
                    batch = self._open = Batch()
                batch.events.append(e)  # type: ignore[union-attr]
                batch.count += 1
                batch.bytes += size
                self._queued += 1
                self._queued_bytes += size
                if batch.count >= self._batch_size:
                    self._seal()
        for problem in problems:
            self._tell(problem)

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

    def _write(self, batch: Batch) -> str:
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
        first = Batch(batch.key, batch.ts_base)
        second = Batch(None, batch.ts_base)
        first.events, first.count, first.bytes = events[:half], half, first_bytes
        second.events, second.count, second.bytes = events[half:], batch.count - half, batch.bytes - first_bytes
        with self._lock:
            if self._ready and self._ready[0] is batch:
                self._ready[0:1] = [first, second]
        return "split"
