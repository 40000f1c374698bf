"""The collector's core against the real console server: masking cases, the wire form, retries
kept once, close(), exit and SIGTERM."""
from __future__ import annotations

import http.server
import json
import secrets
import os
import signal
import subprocess
import sys
import textwrap
import threading
import time
import urllib.request
from pathlib import Path

import pytest

from conftest import PACKAGE, REPO, node_binary
from ops_console import Collector, Masker
from ops_console.columns import columns_json

CASES = json.loads((REPO / "collectors" / "shared" / "masking-cases.json").read_text())


@pytest.mark.parametrize("case", CASES["cases"], ids=lambda c: "%s:%s" % (c["kind"], (c.get("text") or c.get("path") or c.get("value"))[:30]))
def test_masking_cases(case):
    mask = Masker()
    kind = case["kind"]
    if kind == "header":
        got = mask.header(case["name"].lower(), case["value"])
    elif kind == "path":
        got = mask.path(case["path"])
    elif kind == "text":
        got = mask.text(case["text"])
    else:
        got = mask.body(case["contentType"], case["text"])
    assert got == case["expected"]


def test_masking_defaults_match():
    from ops_console import mask

    assert list(mask.MASKED_HEADERS) == CASES["headers"] and mask.MASKED == CASES["masked"]
    assert {k: list(v) for k, v in mask.MASKED_FIELDS.items()} == CASES["fields"]


def _event(i, **more):
    e = {"ts": 1_700_000_000_000 + i, "method": "GET", "route": "/contacts/{id}", "path": "/contacts/c_%d" % i, "status": 200, "duration_ms": 1.25 + i, "bytes": 10 + i}
    e.update(more)
    return e


def test_wire_form_matches_the_node_collector(tmp_path):
    """The same events written by columns.ts (EventColumns) and by this collector are the same JSON."""
    events = [
        _event(0, api_version="v2", key_id="key_1"),
        _event(1, customer_id="cus_1", actor={"id": "u_1", "name": "Ana"}, headers={"user-agent": "x"}, bytes=None),
        _event(2, method="POST", route="/messages", status=201, duration_ms=3,
               request_body={"content_type": "application/json", "size": 9, "text": '{"a":"é"}', "truncated": False}),
    ]
    camel = [
        {k2: v for k, v in e.items() if v is not None for k2 in [{"duration_ms": "durationMs", "api_version": "apiVersion", "key_id": "keyId", "customer_id": "customerId", "request_body": "requestBody"}.get(k, k)]}
        for e in events
    ]
    for e in camel:
        if "requestBody" in e:
            b = e["requestBody"]
            e["requestBody"] = {"contentType": b["content_type"], "size": b["size"], "text": b["text"], "truncated": b["truncated"]}
    found = [p for p in (REPO / "collect" / "src" / "columns.ts", REPO / "server" / "src" / "collect" / "columns.ts") if p.exists()]
    if not found:
        pytest.skip("the Node collector's columns.ts is not where it was")
    script = tmp_path / "columns.ts"
    script.write_text(
        "import { EventColumns } from %s;\n" % json.dumps(str(found[0]))
        + "const events = JSON.parse(process.argv[2]);\nconst c = new EventColumns();\nfor (const e of events) c.add(e);\n"
        + "const parsed = JSON.parse(c.json());\nprocess.stdout.write(JSON.stringify(parsed));\n"
    )
    out = subprocess.run([node_binary(), str(script), json.dumps(camel)], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    node = json.loads(out.stdout)["columns"]
    mine = json.loads(columns_json(events, node["tsBase"]))["columns"]
    assert list(mine.keys()) == list(node.keys())
    assert mine == node


class _Stub:
    """A proxy to the console's ingest API that answers 503 to the first batch (after forwarding it: a lost answer)."""

    def __init__(self, target):
        self.target = target
        self.keys = []
        self.bodies = []
        stub = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def log_message(self, *args):
                pass

            def do_POST(self):
                body = self.rfile.read(int(self.headers["content-length"]))
                stub.keys.append(self.headers.get("idempotency-key"))
                stub.bodies.append(body)
                request = urllib.request.Request(stub.target + self.path, data=body, method="POST", headers={
                    "Authorization": self.headers["authorization"], "Content-Type": "application/json",
                    "Idempotency-Key": self.headers["idempotency-key"]})
                with urllib.request.urlopen(request, timeout=30) as answer:
                    status, data = answer.status, answer.read()
                if len(stub.keys) == 1:
                    status, data = 503, b'{"title":"away"}'
                self.send_response(status)
                if status == 503:
                    self.send_header("Retry-After", "0")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        self.url = "http://127.0.0.1:%d" % self.server.server_address[1]

    def stop(self):
        self.server.shutdown()
        self.server.server_close()


def test_a_retry_after_a_503_is_kept_once(console):
    stub = _Stub(console.url)
    collector = Collector(stub.url, console.ingest_key, flush_interval=0.05, close_on_sigterm=False)
    known = console.known()
    try:
        marker = "/retry-" + secrets.token_hex(6)
        for i in range(3):
            collector.record(_event(i, path=marker + "/%d" % i, route="/retry/{n}", ts=int(time.time() * 1000)))
        deadline = time.monotonic() + 10
        while collector.stats()["sent"] < 3 and time.monotonic() < deadline:
            time.sleep(0.05)
        stats = collector.stats()
        assert stats["sent"] == 3 and stats["failed_attempts"] == 1, stats
        assert len(stub.keys) == 2 and stub.keys[0] == stub.keys[1] and stub.keys[0], stub.keys
        assert stub.bodies[0] == stub.bodies[1], "the same bytes on every attempt"
        kept = console.with_prefix(marker, 3)
        time.sleep(0.5)
        kept = console.with_prefix(marker, 4, timeout=0)
        assert len(kept) == 3, "kept once: %d" % len(kept)
    finally:
        collector.close(1)
        stub.stop()


def test_close_sends_what_is_queued(console):
    collector = Collector(console.url, console.ingest_key, flush_interval=60, close_on_sigterm=False)
    marker = "/close-" + secrets.token_hex(6)
    for i in range(7):
        collector.record(_event(i, path=marker + "/%d" % i, ts=int(time.time() * 1000)))
    assert collector.stats()["queued"] == 7
    collector.close(5)
    assert collector.stats() == {"sent": 7, "rejected": 0, "dropped_queue_full": 0, "dropped_failed": 0, "dropped_at_close": 0, "failed_attempts": 0, "queued": 0}
    collector.record(_event(99))  # after close: left out, never raised
    assert collector.stats()["queued"] == 0
    kept = console.with_prefix(marker, 7)
    assert len(kept) == 7


def test_a_wrong_key_and_a_hook_that_raises_never_reach_the_host(console):
    problems = []
    collector = Collector(console.url, "ik_wrong_key_1234", flush_interval=60, on_error=problems.append, close_on_sigterm=False)
    collector.record(_event(1))
    collector.record({"nonsense": True})  # not an event: left out
    collector.flush()
    assert [p.kind for p in problems] == ["unauthorized"] and problems[0].status == 401
    assert collector.stats()["dropped_failed"] == 1
    bad = Collector(console.url, console.ingest_key, on_error=lambda p: 1 / 0, close_on_sigterm=False, max_queue=0)
    bad.record(_event(1))  # queue full, and the hook raises: nothing reaches the host
    assert bad.stats()["dropped_queue_full"] == 1
    bad.close(0.1)
    collector.close(0.5)
    with pytest.raises(ValueError):
        Collector(console.url, "")


def test_events_are_fitted_to_the_limits(console):
    collector = Collector(console.url, console.ingest_key, flush_interval=60, close_on_sigterm=False)
    marker = "/fit-" + secrets.token_hex(6)
    collector.record(_event(1, method="PROPFIND", route="no slash " + "r" * 600, path=marker, key_id="k" * 300, ts=int(time.time() * 1000)))
    collector.flush()
    assert collector.stats()["sent"] == 1, collector.stats()
    collector.close(1)
    [row] = console.with_prefix(marker, 1)
    d = console.detail(row["id"])
    assert d["method"] == "OTHER" and d["route"].startswith("/no_slash_") and len(d["route"]) == 512 and d["route"].endswith("…")
    assert len(d["keyId"]) == 128


_CHILD = textwrap.dedent(
    """
    import sys, time
    sys.path.insert(0, %r)
    from ops_console import Collector
    c = Collector(%r, %r, flush_interval=60, on_error=lambda p: print(p, file=sys.stderr))
    for i in range(4):
        c.record({"ts": int(time.time() * 1000), "method": "GET", "route": "/exit", "path": %r + "/" + str(i), "status": 200, "duration_ms": 1.5})
    if sys.argv[1] == "sigterm":
        print("ready", flush=True)
        time.sleep(30)
    """
)


@pytest.mark.parametrize("how", ["exit", "sigterm"])
def test_close_at_exit_and_on_sigterm(console, how):
    marker = "/%s-%s" % (how, secrets.token_hex(6))
    code = _CHILD % (str(PACKAGE / "src"), console.url, console.ingest_key, marker)
    child = subprocess.Popen([sys.executable, "-c", code, how], stdout=subprocess.PIPE, text=True)
    if how == "sigterm":
        assert child.stdout.readline().strip() == "ready"
        started = time.monotonic()
        child.send_signal(signal.SIGTERM)
    assert child.wait(20) == (-signal.SIGTERM if how == "sigterm" else 0)
    if how == "sigterm":
        assert time.monotonic() - started < 10, "the signal still ends the process"
    kept = console.with_prefix(marker, 4)
    assert len(kept) == 4
