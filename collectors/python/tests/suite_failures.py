"""The suite's checks of what goes wrong (see suite.py): a client that goes away, and a console
server that fails or hangs."""
from __future__ import annotations

import json
import socket
import time
from typing import Any, List

from ops_console import Collector
from suite_apps import OPTIONS, SLOW_S, Start
from suite_client import abandon_slow, call, fresh_collector


def check_abandoned(console: Any, start: Start, prefix: str, template: str) -> None:
    """A request the client abandons is recorded as 499."""
    collector = fresh_collector(console)
    origin, stop = start(collector, **OPTIONS)
    known = console.known()
    try:
        abandon_slow(origin, prefix)
        deadline = time.monotonic() + SLOW_S + 10
        while collector.stats()["queued"] + collector.stats()["sent"] < 1 and time.monotonic() < deadline:
            time.sleep(0.05)
        collector.flush()
        details = console.details_since(known, 1)
        assert [(d["route"], d["status"]) for d in details] == [(template, 499)]
    finally:
        stop()
        collector.close(2)


def check_queue_full(start: Start, prefix: str) -> None:
    """A server that fails or hangs changes none of the host's answers; the queue stays bounded and drops are counted."""
    hanging = socket.socket()
    hanging.bind(("127.0.0.1", 0))
    hanging.listen(50)  # accepts connections (in the kernel) and never answers
    closed = socket.socket()
    closed.bind(("127.0.0.1", 0))
    dead_port = closed.getsockname()[1]
    closed.close()
    try:
        for failing, port in (("hangs", hanging.getsockname()[1]), ("fails", dead_port)):
            problems: List[Any] = []
            collector = Collector(
                "http://127.0.0.1:%d" % port, "ik_whatever", max_queue=4, max_batch=2, flush_interval=0.01,
                send_timeout=5.0, on_error=problems.append, close_on_sigterm=False,
            )
            origin, stop = start(collector, **OPTIONS)
            try:
                answers = [call(origin, "GET", "%s/contacts/c_%d" % (prefix, i)) for i in range(10)]
                assert [(a["status"], json.loads(a["body"])) for a in answers] == [(200, {"id": "c_%d" % i}) for i in range(10)], failing
                stats = collector.stats()
                for _ in range(200):
                    if stats["queued"] + stats["dropped_queue_full"] + stats["dropped_failed"] >= 10:
                        break
                    time.sleep(0.01)
                    stats = collector.stats()
                assert stats["sent"] == 0
                assert stats["queued"] <= 4, stats
                assert stats["dropped_queue_full"] > 0, stats
                assert stats["queued"] + stats["dropped_queue_full"] + stats["dropped_failed"] == 10, stats
                assert any(p.kind == "queue-full" for p in problems)
            finally:
                stop()
                started = time.monotonic()
                collector.close(0.3)
                assert time.monotonic() - started < 2, "close() kept to its deadline"
                assert collector.stats()["queued"] == 0 and collector.stats()["dropped_at_close"] > 0
    finally:
        hanging.close()

