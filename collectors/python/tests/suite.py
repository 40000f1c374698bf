"""The checks every framework passes (as server/test/collect-suite.ts), on a real app served on
loopback, with figures read back from the real console server.

Each app serves, under its own version prefix ``/vN`` (so its endpoint rows are its own):
- GET /vN/contacts/{id} -> 200 JSON {"id": id}
- POST /vN/messages -> 201 "created"
- POST /vN/webhooks -> the handler raises; the framework's own 500
- GET /vN/usage/stream -> 200, "chunk-" three times 20 ms apart
- GET /vN/slow -> sets ``slow_arrived``, then 200 after SLOW_S (the client gives up before)
- GET /vN/sleep/{ms} -> 200 after sleeping ms milliseconds
- POST /vN/orders -> the JSON body read by the framework's own parser (``order_answer``)
- anything else -> the framework's 404
"""
from __future__ import annotations

import http.client
import json
import math
import socket
import sys
import threading
import time
from typing import Any, Callable, Dict, List, Optional, Tuple
from urllib.parse import urlsplit

from ops_console import Collector

SLOW_S = 2.0
#: The apps run in threads of the test's own process: a server thread may wait for the GIL up to a
#: switch interval after its last write before it reads the clock, while the client thread already has its answer.
SLACK_MS = 2 * sys.getswitchinterval() * 1000 + 1
slow_arrived = threading.Event()
CARD = "4242424242424242"


def order_answer(body: Any) -> Tuple[int, Dict[str, Any]]:
    order = body if isinstance(body, dict) else {}
    if not isinstance(order.get("items"), list):
        return 422, {"error": "items_missing", "card": order.get("card")}
    return 201, {"orderId": "ord_1", "count": len(order["items"]), "card": order.get("card")}


def identify(request: Any) -> Dict[str, Any]:
    """The key and customer from the x-key and x-customer headers of whichever request object the framework hands over."""
    headers = getattr(request, "headers", None)
    if headers is None and isinstance(request, dict):  # a WSGI environ
        return {"key_id": request.get("HTTP_X_KEY"), "customer_id": request.get("HTTP_X_CUSTOMER")}
    return {"key_id": headers.get("x-key"), "customer_id": headers.get("x-customer")}


def redact(event: Dict[str, Any]) -> Optional[Dict[str, Any]]:
    if event["path"].endswith("/hidden"):
        return None
    event["path"] = event["path"].replace("/c_7", "/c_…")
    return event


OPTIONS: Dict[str, Any] = dict(
    path_prefix=True,
    headers=["X-Request-Id", "user-agent", "Authorization", "x-note"],
    redact=redact,
)

Start = Callable[..., Tuple[str, Callable[[], None]]]


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


def check_fast(console: Any, start: Start, prefix: str, templates: Dict[str, str]) -> None:
    """Without hooks or capture (each request queued as a tuple, made an event on the sending thread):
    routes, statuses, sizes, the version, kept and masked headers, times, and a client that went away."""
    collector = fresh_collector(console)
    origin, stop = start(collector, path_prefix=True, headers=["X-Request-Id", "user-agent", "Authorization", "x-note"])
    known = console.known()
    try:
        headers = {"x-request-id": "req-78", "user-agent": "fast/1", "authorization": "Bearer secret_tok_8", "x-note": "card 4242 4242 4242 4242"}
        plan = [("GET", prefix + "/contacts/c_8?token=secret_query_8"), ("GET", prefix + "/usage/stream"), ("GET", prefix + "/nowhere")]
        calls = [call(origin, m, p, headers) for m, p in plan]
        assert [c["status"] for c in calls] == [200, 200, 404]
        abandon_slow(origin, prefix)
        recorded(collector, 4, SLOW_S + 10)
        collector.flush()
        details = console.details_since(known, 4)
        got = by_call(details)
        expected = [
            (0, templates["contacts"], prefix + "/contacts/c_8", 200),
            (1, templates["stream"], prefix + "/usage/stream", 200),
            (2, "/nowhere", prefix + "/nowhere", 404),
        ]
        for i, route, path, status in expected:
            d = got[("GET", path)]
            assert (d["route"], d["status"], d["apiVersion"], d["bytes"]) == (route, status, prefix[1:], len(calls[i]["body"])), d
            kept = {h["name"]: h["value"] for h in d["headers"]}
            assert kept == {"x-request-id": "req-78", "user-agent": "fast/1", "authorization": "[masked]", "x-note": "card [masked]"}, kept
            assert 0 < d["durationMs"] <= calls[i]["elapsed"] + SLACK_MS, (path, d["durationMs"], calls[i]["elapsed"])
            ts = _epoch_ms(d["time"])
            assert calls[i]["sent_at"] - 1000 <= ts <= calls[i]["answered_at"] + 1000, (path, ts)
        assert got[("GET", prefix + "/usage/stream")]["durationMs"] >= 40, "the stream is measured to its end"
        slow = got[("GET", prefix + "/slow")]
        assert slow["status"] == 499, slow
        stored = json.dumps(details)
        for secret in ("secret_tok_8", "secret_query_8", "4242 4242 4242 4242", "?token"):
            assert secret not in stored, secret
    finally:
        stop()
        collector.close(2)


def fresh_collector(console: Any, **kw: Any) -> Collector:
    problems: List[Any] = []
    kw.setdefault("flush_interval", 0.05)
    collector = Collector(console.url, console.ingest_key, on_error=problems.append, close_on_sigterm=False, **kw)
    collector.problems = problems  # type: ignore[attr-defined]
    return collector


def check_routes(console: Any, start: Start, prefix: str, templates: Dict[str, str]) -> None:
    """Route templates, a raised error, a stream to its end, a 404, kept headers, redaction,
    identify, the version, within the client's measurement."""
    collector = fresh_collector(console)
    origin, stop = start(collector, identify=identify, **OPTIONS)
    known = console.known()
    try:
        headers = {
            "x-key": "key_1",
            "x-customer": "cus_acme",
            "x-request-id": "req-77",
            "user-agent": "suite/1",
            "authorization": "Bearer secret_tok_9",
            "cookie": "session=secret_cookie_9",
            "x-note": "card 4242 4242 4242 4242",
        }
        plan = [
            ("GET", prefix + "/contacts/c_7?token=secret_query_9"),
            ("POST", prefix + "/messages"),
            ("POST", prefix + "/webhooks"),
            ("GET", prefix + "/usage/stream"),
            ("GET", prefix + "/nowhere"),
            ("GET", prefix + "/contacts/hidden"),
        ]
        calls = [call(origin, m, p, headers, b"hello" if m == "POST" else None) for m, p in plan]
        assert [c["status"] for c in calls] == [200, 201, 500, 200, 404, 200]
        assert calls[3]["body"] == b"chunk-chunk-chunk-"
        collector.flush()
        details = console.details_since(known, 5)
        assert len(details) == 5, "the redacted request is left out: %r" % [d["path"] for d in details]
        got = by_call(details)
        expected = [
            (0, "GET", templates["contacts"], prefix + "/contacts/c_…", 200, len(calls[0]["body"])),
            (1, "POST", templates["messages"], prefix + "/messages", 201, 7),
            (2, "POST", templates["webhooks"], prefix + "/webhooks", 500, None),
            (3, "GET", templates["stream"], prefix + "/usage/stream", 200, 18),
            (4, "GET", "/nowhere", prefix + "/nowhere", 404, len(calls[4]["body"])),
        ]
        for i, method, route, path, status, size in expected:
            d = got[(method, path)]
            assert (d["route"], d["status"], d["apiVersion"], d["keyId"], (d.get("customer") or {}).get("id")) == (route, status, prefix[1:], "key_1", "cus_acme"), d
            if size is not None:
                assert d["bytes"] == size, (path, d["bytes"], size)
            elif d.get("bytes") is not None:  # a 500 answered outside the middleware has no size it could see
                assert d["bytes"] == len(calls[i]["body"]), (path, d["bytes"])
            kept = {h["name"]: h["value"] for h in d["headers"]}
            assert kept == {"x-request-id": "req-77", "user-agent": "suite/1", "authorization": "[masked]", "x-note": "card [masked]"}, kept
            assert 0 < d["durationMs"] <= calls[i]["elapsed"] + SLACK_MS, (path, d["durationMs"], calls[i]["elapsed"])
            ts = _epoch_ms(d["time"])
            assert calls[i]["sent_at"] - 1000 <= ts <= calls[i]["answered_at"] + 1000, (path, ts)
        assert got[("GET", prefix + "/usage/stream")]["durationMs"] >= 40, "the stream is measured to its end"
        stored = json.dumps(details)
        for secret in ("secret_tok_9", "secret_cookie_9", "secret_query_9", "4242 4242 4242 4242", "?token"):
            assert secret not in stored, secret
        assert collector.stats()["sent"] >= 5
    finally:
        stop()
        collector.close(2)


def _epoch_ms(iso: str) -> float:
    from datetime import datetime

    return datetime.fromisoformat(iso.replace("Z", "+00:00")).timestamp() * 1000


def check_percentiles(console: Any, start: Start, prefix: str, template: str) -> None:
    """Exact counts and statuses per route; p50 and p95 between bounds the test proves."""
    collector = fresh_collector(console)
    origin, stop = start(collector, **OPTIONS)
    try:
        sleeps = [(i * 7) % 40 for i in range(20)]
        calls = [call(origin, "GET", "%s/sleep/%d" % (prefix, ms)) for ms in sleeps]
        assert all(c["status"] == 200 for c in calls)
        recorded(collector, 20)
        collector.flush()
        assert collector.stats()["sent"] >= 20
        row = None
        for _ in range(50):
            rows = [r for r in console.get("/endpoints?limit=500")["items"] if r["method"] == "GET" and r["path"] == template and r.get("apiVersion") == prefix[1:]]
            row = rows[0] if rows else None
            if row and row["requests"] == 20:
                break
            time.sleep(0.1)
        assert row is not None, "no endpoint row for GET %s" % template
        assert row["requests"] == 20 and row["errorPct"] == 0, row
        lower = [float(ms) for ms in sleeps]
        upper = [c["elapsed"] for c in calls]
        for p, name in ((0.5, "p50Ms"), (0.95, "p95Ms")):
            assert nearest_rank(lower, p) - 0.001 <= row[name] <= nearest_rank(upper, p) + SLACK_MS, (name, row[name], nearest_rank(lower, p), nearest_rank(upper, p))
    finally:
        stop()
        collector.close(2)


def check_capture(console: Any, start: Start, prefix: str) -> None:
    """Capture keeps both sides' headers and bodies, masked before sending, sampled, while the app still reads its body."""
    collector = fresh_collector(console)
    origin, stop = start(
        collector,
        capture={"headers": True, "bodies": True, "max_body_bytes": 120},
        sample={"rate": 0, "always": {"status": "4xx"}},
        **OPTIONS,
    )
    known = console.known()
    try:
        headers = {"content-type": "application/json", "authorization": "Bearer sk_live_capture", "x-request-id": "req-9"}
        good = call(origin, "POST", prefix + "/orders", headers, json.dumps({"items": [1, 2, 3], "card": CARD}).encode())
        sent = json.dumps({"password": "pw_capture_1", "card": CARD, "note": "x" * 300}, separators=(",", ":"))
        bad = call(origin, "POST", prefix + "/orders", headers, sent.encode())
        assert (good["status"], json.loads(good["body"])) == (201, {"orderId": "ord_1", "count": 3, "card": CARD}), "the app read its body whole"
        assert bad["status"] == 422
        collector.flush()
        ok, failed = console.details_since(known, 2)
        assert ok["status"] == 201 and failed["status"] == 422
        # A success is sampled out at rate 0: its headers stay, its bodies go; it is still counted.
        assert ok.get("requestBody") is None and ok.get("responseBody") is None
        ok_headers = {h["name"]: h["value"] for h in ok["headers"]}
        assert ok_headers["authorization"] == "[masked]" and ok_headers["x-request-id"] == "req-9"
        response_headers = {h["name"]: h["value"] for h in ok["responseHeaders"]}
        assert response_headers["content-type"].startswith("application/json"), response_headers
        # A 4xx always keeps them: masked, cut at 120 bytes with its whole size.
        request = failed["requestBody"]
        assert (request["contentType"], request["size"], request["truncated"]) == ("application/json", len(sent), True), request
        # The collector sends the masked text cut at 120 bytes, marked truncated; the server, seeing a
        # text cut by its sender, keeps it less its last 64 characters (a secret the cut split may end there).
        sent_text = ('{"password":"[masked]","card":"[masked]","note":"%s"}' % ("x" * 300))[:120]
        assert sent_text.startswith(request["text"]) and len(request["text"]) >= 120 - 64, request["text"]
        assert json.loads(failed["responseBody"]["text"]) == {"error": "items_missing", "card": "[masked]"}
        stored = json.dumps([ok, failed])
        for secret in ("sk_live_capture", "pw_capture_1", CARD):
            assert secret not in stored, secret
    finally:
        stop()
        collector.close(2)


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


def run_all(console: Any, start: Start, prefix: str, templates: Dict[str, str]) -> None:
    check_routes(console, start, prefix, templates)
