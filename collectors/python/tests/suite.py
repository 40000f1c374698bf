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

The helpers are in suite_apps.py (what the apps serve and are wrapped with) and suite_client.py
(calling them, reading figures back); the checks of what goes wrong in suite_failures.py.
"""
from __future__ import annotations

import json
import time
from typing import Any, Dict

from suite_apps import CARD, OPTIONS, SLOW_S, Start, identify, order_answer, slow_arrived
from suite_client import SLACK_MS, abandon_slow, by_call, call, epoch_ms, fresh_collector, nearest_rank, recorded
from suite_failures import check_abandoned, check_queue_full

# The apps of test_*.py use SLOW_S, slow_arrived and order_answer from here, with the checks.
__all__ = [
    "SLOW_S",
    "slow_arrived",
    "order_answer",
    "check_fast",
    "check_routes",
    "check_percentiles",
    "check_capture",
    "check_abandoned",
    "check_queue_full",
    "run_all",
]


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
            ts = epoch_ms(d["time"])
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
            ts = epoch_ms(d["time"])
            assert calls[i]["sent_at"] - 1000 <= ts <= calls[i]["answered_at"] + 1000, (path, ts)
        assert got[("GET", prefix + "/usage/stream")]["durationMs"] >= 40, "the stream is measured to its end"
        stored = json.dumps(details)
        for secret in ("secret_tok_9", "secret_cookie_9", "secret_query_9", "4242 4242 4242 4242", "?token"):
            assert secret not in stored, secret
        assert collector.stats()["sent"] >= 5
    finally:
        stop()
        collector.close(2)


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


def run_all(console: Any, start: Start, prefix: str, templates: Dict[str, str]) -> None:
    check_routes(console, start, prefix, templates)
