"""The real console server, started once for the session, and helpers to read it back."""
from __future__ import annotations

import json
import os
import secrets
import signal
import subprocess
import sys
import threading
import time
import urllib.request
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
PACKAGE = HERE.parent
REPO = PACKAGE.parent.parent
sys.path.insert(0, str(PACKAGE / "src"))

TOKEN = "tok_" + secrets.token_hex(16)
INGEST_KEY = "ik_" + secrets.token_hex(16)


def node_binary() -> str:
    return os.environ.get("OPS_CONSOLE_NODE") or str(REPO / "node_modules" / ".bin" / "node")


class Console:
    def __init__(self, url: str) -> None:
        self.url = url
        self.token = TOKEN
        self.ingest_key = INGEST_KEY

    def get(self, path: str):
        request = urllib.request.Request(self.url + "/console/v1" + path, headers={"Authorization": "Bearer " + self.token})
        with urllib.request.urlopen(request, timeout=30) as answer:
            return json.loads(answer.read().decode("utf-8"))

    def requests(self, limit: int = 500):
        """Every request the console keeps, newest first (one page of up to 500)."""
        return self.get("/requests?limit=%d" % limit)["items"]

    def detail(self, request_id: str):
        return self.get("/requests/" + request_id)

    def details_since(self, known: set, count: int, timeout: float = 15.0):
        """Waits until ``count`` requests not in ``known`` are kept; answers their details, oldest first."""
        deadline = time.monotonic() + timeout
        fresh = []
        while time.monotonic() < deadline:
            fresh = [r for r in self.requests() if r["id"] not in known]
            if len(fresh) >= count:
                break
            time.sleep(0.1)
        return [self.detail(r["id"]) for r in reversed(fresh)]

    def with_prefix(self, prefix: str, count: int, timeout: float = 10.0):
        """The kept requests whose path starts with ``prefix``, once there are ``count`` (or the timeout passed)."""
        deadline = time.monotonic() + timeout
        while True:
            kept = [r for r in self.requests() if r["path"].startswith(prefix)]
            if len(kept) >= count or time.monotonic() > deadline:
                return kept
            time.sleep(0.1)

    def known(self) -> set:
        return {r["id"] for r in self.requests()}


@pytest.fixture(scope="session")
def console(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("console")
    config = tmp / "config.json"
    config.write_text(
        json.dumps(
            {
                "port": 0,
                "host": "127.0.0.1",
                "store": "duckdb:%s" % (tmp / "ops.duckdb"),
                "auth": {"tokens": {TOKEN: {"accountId": "acct_1", "user": {"id": "u_ops", "name": "Operations"}}}},
                "ingestKeys": {INGEST_KEY: "acct_1"},
            }
        )
    )
    os.chmod(config, 0o600)
    process = subprocess.Popen(
        [node_binary(), str(REPO / "server" / "src" / "cli" / "main.ts"), "serve", "--config", str(config)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        cwd=str(tmp),
    )
    url = None
    lines = []
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        line = process.stdout.readline()
        if not line:
            if process.poll() is not None:
                break
            continue
        text = line.decode("utf-8", "replace")
        lines.append(text)
        try:
            entry = json.loads(text)
        except ValueError:
            continue
        if entry.get("msg") == "listening":
            url = entry["url"]
            break
    if url is None:
        process.kill()
        raise RuntimeError("the console server did not start:\n" + "".join(lines) + process.stderr.read().decode("utf-8", "replace"))
    # Keep reading its logs so a full pipe never blocks it.
    for stream in (process.stdout, process.stderr):
        threading.Thread(target=lambda s=stream: [None for _ in iter(s.readline, b"")], daemon=True).start()
    try:
        yield Console(url)
    finally:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def serve_wsgi(app):
    """Serves a WSGI app with werkzeug on loopback in a thread; answers (origin, stop)."""
    from werkzeug.serving import make_server

    server = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()

    def stop():
        server.shutdown()
        server.server_close()

    return "http://127.0.0.1:%d" % server.server_port, stop


def serve_asgi(app):
    """Serves an ASGI app with uvicorn on loopback in a thread; answers (origin, stop)."""
    import uvicorn

    config = uvicorn.Config(app, host="127.0.0.1", port=0, log_level="warning", lifespan="off", loop="asyncio", http="h11")
    server = uvicorn.Server(config)
    server.install_signal_handlers = lambda: None
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started and time.monotonic() < deadline:
        time.sleep(0.01)
    sock = server.servers[0].sockets[0]
    port = sock.getsockname()[1]

    def stop():
        server.should_exit = True
        thread.join(10)

    return "http://127.0.0.1:%d" % port, stop
