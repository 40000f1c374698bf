"""The collector's added CPU per request, measured as the Node collector's bench does
(server/bench/collect.ts, collect-api.ts): the API served by a real server on loopback in a
process of its own, the load sent from another process, the API process's own CPU time
(``resource.getrusage(RUSAGE_SELF)``, every thread: the collector's sending thread included)
divided by the responses it served.

    /usr/bin/python3 collectors/python/bench.py [--seconds S] [--rounds R] [--rate N] [--in-process]

One API process per framework serves three copies of the same small JSON handler
(``GET /v2/contacts/{id}``), each on its own port: ``bare``, ``control`` (bare again: the noise
floor) and ``collector`` (with the collector: ``path_prefix=True, headers=["user-agent"]``,
sending to a discard HTTP server in a third process that answers 202, with the default
``flush_interval`` of 5 s). FastAPI is served by uvicorn (asyncio loop, h11: what
``uvicorn app:app`` runs where uvloop and httptools are not installed), Flask by werkzeug's
threaded server (what ``flask run`` runs); both with their access logs off, which makes the bare
handler cheaper and the collector's share larger. The copies are loaded one at a time, in
rounds that each start one copy later; before and after each load the API process sends what
the collector holds and reads its CPU time, so a batch's CPU counts with its requests. The load:
``--connections`` keep-alive connections of ``http.client``, one thread each, at ``--rate``
requests per second in all (0: as fast as the server answers). With two CPUs or more, the API
process is pinned to CPU 1, the load and the sink to CPU 0.

Prints JSON: ``{"method", "fastapi": {"bareUs", "collectorUs", "addedUs", "addedShare",
"noiseUs", "rounds": [...]}, "flask": {...}}``: medians over rounds of each round's CPU per
response, ``addedUs`` the median of each round's collector minus bare, ``noiseUs`` the median of
each round's |control - bare|. ``--in-process`` also prints the old figures (the ASGI/WSGI app
called directly, no server, no socket), labelled as such: they leave the server out of the bare
handler's cost, so they overstate the collector's share.
"""
from __future__ import annotations

import argparse
import http.client
import http.server
import json
import os
import resource
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE / "src"))

COPIES = ("bare", "control", "collector")
PATH = "/v2/contacts/c_7"


def _pin(cpu: int) -> bool:
    try:
        if (os.cpu_count() or 1) >= 2:
            os.sched_setaffinity(0, {cpu})
            return True
    except (AttributeError, OSError):
        pass
    return False


def _cpu_us() -> int:
    r = resource.getrusage(resource.RUSAGE_SELF)
    return int((r.ru_utime + r.ru_stime) * 1_000_000)


# -- the sink: answers 202 to every batch ------------------------------------------------------
def run_sink() -> None:
    _pin(0)

    class Handler(http.server.BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, *args):
            pass

        def do_POST(self):
            self.rfile.read(int(self.headers.get("content-length") or 0))
            body = b'{"accepted":true}'
            self.send_response(202)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    print(server.server_address[1], flush=True)
    server.serve_forever()


# -- the API process ---------------------------------------------------------------------------
def _collector(sink: str):
    from ops_console import Collector

    return Collector(sink, "ik_bench", on_error=lambda p: None, close_on_sigterm=False, close_at_exit=False)


def _fastapi_app(collector):
    from fastapi import FastAPI

    app = FastAPI()

    @app.get("/v2/contacts/{id}")
    async def contact(id: str):
        return {"id": id}

    if collector is not None:
        from ops_console.asgi import OpsConsoleMiddleware

        app.add_middleware(OpsConsoleMiddleware, collector=collector, path_prefix=True, headers=["user-agent"])
    return app


def _flask_app(collector):
    from flask import Flask, jsonify

    app = Flask("bench")

    @app.get("/v2/contacts/<id>")
    def contact(id):
        return jsonify(id=id)

    if collector is not None:
        from ops_console import collect_flask

        collect_flask(app, collector, path_prefix=True, headers=["user-agent"])
    return app


def run_api(framework: str, sink: str) -> None:
    pinned = _pin(1)
    collector = _collector(sink)
    make = _fastapi_app if framework == "fastapi" else _flask_app
    apps = {copy: make(collector if copy == "collector" else None) for copy in COPIES}
    ports = {}
    if framework == "fastapi":
        import asyncio

        import uvicorn

        servers = {}
        for copy, app in apps.items():
            config = uvicorn.Config(app, host="127.0.0.1", port=0, loop="asyncio", http="h11", lifespan="off", access_log=False, log_level="warning")
            server = uvicorn.Server(config)
            server.install_signal_handlers = lambda: None
            servers[copy] = server

        def serve() -> None:
            async def all_of_them():
                await asyncio.gather(*(s.serve() for s in servers.values()))

            asyncio.run(all_of_them())

        threading.Thread(target=serve, daemon=True).start()
        deadline = time.monotonic() + 20
        while not all(s.started for s in servers.values()) and time.monotonic() < deadline:
            time.sleep(0.01)
        for copy, s in servers.items():
            ports[copy] = s.servers[0].sockets[0].getsockname()[1]
    else:
        import logging

        from werkzeug.serving import make_server

        logging.getLogger("werkzeug").setLevel(logging.ERROR)
        for copy, app in apps.items():
            server = make_server("127.0.0.1", 0, app, threaded=True)
            threading.Thread(target=server.serve_forever, daemon=True).start()
            ports[copy] = server.server_port
    print(json.dumps({"ports": ports, "pinned": pinned}), flush=True)
    # A line in, a line out: what the collector holds is sent first, then the CPU time is read.
    for _line in sys.stdin:
        collector.flush(timeout=2.0)
        stats = collector.stats()
        failed = stats["dropped_queue_full"] + stats["dropped_failed"] + stats["rejected"]
        print(json.dumps({"cpuUs": _cpu_us(), "sent": stats["sent"], "failed": failed}), flush=True)


# -- the load ----------------------------------------------------------------------------------
def load(port: int, seconds: float, rate: float, connections: int) -> dict:
    counts = [[0, 0] for _ in range(connections)]
    started = time.perf_counter() + 0.01
    stop_at = started + seconds
    interval = connections / rate if rate else 0.0

    def worker(i: int) -> None:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        headers = {"User-Agent": "bench/1", "Accept": "application/json"}
        next_at = started + (interval * i / connections)
        c = counts[i]
        while True:
            now = time.perf_counter()
            if now >= stop_at:
                break
            if interval:
                if next_at > now:
                    time.sleep(next_at - now)
                next_at += interval
            try:
                conn.request("GET", PATH, headers=headers)
                answer = conn.getresponse()
                answer.read()
                c[0 if answer.status == 200 else 1] += 1
            except Exception:
                c[1] += 1
                conn.close()
                conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        conn.close()

    threads = [threading.Thread(target=worker, args=(i,)) for i in range(connections)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return {"responses": sum(c[0] for c in counts), "errors": sum(c[1] for c in counts)}


class _Api:
    def __init__(self, framework: str, sink: str) -> None:
        self.process = subprocess.Popen(
            [sys.executable, str(Path(__file__).resolve()), "--api", framework, sink], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
        )
        first = json.loads(self.process.stdout.readline())  # type: ignore[union-attr]
        self.ports = first["ports"]
        self.pinned = first["pinned"]

    def read(self) -> dict:
        self.process.stdin.write("\n")  # type: ignore[union-attr]
        self.process.stdin.flush()  # type: ignore[union-attr]
        return json.loads(self.process.stdout.readline())  # type: ignore[union-attr]

    def stop(self) -> None:
        self.process.stdin.close()  # type: ignore[union-attr]
        try:
            self.process.wait(10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


def measure(framework: str, sink: str, args: argparse.Namespace) -> dict:
    api = _Api(framework, sink)
    try:
        for copy in COPIES:  # warm-up
            load(api.ports[copy], 1.0, args.rate, args.connections)
        api.read()
        rounds = []
        for r in range(args.rounds):
            row = {}
            for i in range(len(COPIES)):
                copy = COPIES[(r + i) % len(COPIES)]
                before = api.read()
                done = load(api.ports[copy], args.seconds, args.rate, args.connections)
                time.sleep(0.2)
                after = api.read()
                cpu = after["cpuUs"] - before["cpuUs"]
                row[copy] = {
                    "cpuUsPerResponse": round(cpu / max(1, done["responses"]), 2),
                    "responses": done["responses"],
                    "errors": done["errors"],
                    "sent": after["sent"] - before["sent"],
                    "failed": after["failed"] - before["failed"],
                }
            rounds.append(row)
    finally:
        api.stop()
    per = {copy: [row[copy]["cpuUsPerResponse"] for row in rounds] for copy in COPIES}
    bare = statistics.median(per["bare"])
    with_collector = statistics.median(per["collector"])
    added = statistics.median([c - b for c, b in zip(per["collector"], per["bare"])])
    noise = statistics.median([abs(c - b) for c, b in zip(per["control"], per["bare"])])
    responses = sum(row["collector"]["responses"] for row in rounds)
    sent = sum(row["collector"]["sent"] for row in rounds)
    return {
        "bareUs": round(bare, 2),
        "collectorUs": round(with_collector, 2),
        "addedUs": round(added, 2),
        "addedShare": round(added / bare, 4),
        "noiseUs": round(noise, 2),
        "errors": sum(row[c]["errors"] for row in rounds for c in COPIES),
        "collectorSentShare": round(sent / max(1, responses), 4),
        "pinned": api.pinned,
        "rounds": rounds,
    }


# -- the old in-process figures (no server: they understate the bare handler's cost) -----------
def in_process(framework: str, n: int) -> dict:
    import asyncio
    import io

    collector = _collector("http://127.0.0.1:9")

    def measure_one(run) -> float:
        run(max(200, n // 10))
        best = float("inf")
        for _ in range(3):
            started = time.process_time()
            run(n)
            best = min(best, (time.process_time() - started) / n * 1e6)
        return best

    if framework == "fastapi":

        def runner(app):
            loop = asyncio.new_event_loop()
            scope_base = {
                "type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1", "method": "GET", "scheme": "http",
                "path": PATH, "raw_path": PATH.encode(), "query_string": b"", "root_path": "",
                "headers": [(b"host", b"bench"), (b"user-agent", b"bench/1")], "client": ("127.0.0.1", 1), "server": ("127.0.0.1", 80),
            }

            async def receive():
                return {"type": "http.request", "body": b"", "more_body": False}

            async def send(message):
                pass

            async def many(count: int):
                for _ in range(count):
                    await app(dict(scope_base), receive, send)

            return lambda count: loop.run_until_complete(many(count))

        bare_app, app = _fastapi_app(None), _fastapi_app(collector)
    else:

        def runner(app):
            environ_base = {
                "REQUEST_METHOD": "GET", "PATH_INFO": PATH, "QUERY_STRING": "", "SERVER_NAME": "bench", "SERVER_PORT": "80",
                "SERVER_PROTOCOL": "HTTP/1.1", "wsgi.url_scheme": "http", "wsgi.version": (1, 0), "wsgi.errors": sys.stderr,
                "wsgi.multithread": True, "wsgi.multiprocess": False, "wsgi.run_once": False, "HTTP_USER_AGENT": "bench/1",
            }

            def start_response(status, headers, exc_info=None):
                return lambda data: None

            def run(count: int) -> None:
                for _ in range(count):
                    environ = dict(environ_base)
                    environ["wsgi.input"] = io.BytesIO(b"")
                    body = app(environ, start_response)
                    for _chunk in body:
                        pass
                    close = getattr(body, "close", None)
                    if close:
                        close()

            return run

        bare_app, app = _flask_app(None), _flask_app(collector)
    bare = measure_one(runner(bare_app))
    added = measure_one(runner(app))
    collector.close(0)
    return {"bareUs": round(bare, 2), "collectorUs": round(added, 2), "addedUs": round(added - bare, 2), "addedShare": round((added - bare) / bare, 4)}


def main() -> None:
    if len(sys.argv) > 1 and sys.argv[1] == "--sink":
        run_sink()
        return
    if len(sys.argv) > 1 and sys.argv[1] == "--api":
        run_api(sys.argv[2], sys.argv[3])
        return
    parser = argparse.ArgumentParser()
    parser.add_argument("--seconds", type=float, default=2.0, help="seconds of load per copy per round")
    parser.add_argument("--rounds", type=int, default=9)
    parser.add_argument("--rate", type=float, default=1000.0, help="requests per second in all (0: as fast as answered)")
    parser.add_argument("--connections", type=int, default=4)
    parser.add_argument("--only", choices=("fastapi", "flask"))
    parser.add_argument("--in-process", action="store_true", help="also the old figures: the app called directly, no server")
    parser.add_argument("--full-rounds", action="store_true", help="print every round")
    args = parser.parse_args()
    _pin(0)
    sink = subprocess.Popen([sys.executable, str(Path(__file__).resolve()), "--sink"], stdout=subprocess.PIPE, text=True)
    try:
        sink_url = "http://127.0.0.1:%s" % sink.stdout.readline().strip()  # type: ignore[union-attr]
        out: dict = {
            "method": (
                "API in its own process on a real server on loopback (FastAPI: uvicorn, asyncio + h11; Flask: werkzeug threaded, "
                "as `flask run`; access logs off), three copies in that process (bare, control, collector) loaded in turn; "
                "load from another process: %d keep-alive http.client connections, %s, %.1f s per copy, %d rounds; CPU = the API "
                "process's getrusage(RUSAGE_SELF) user+sys (the collector's sender thread included) over the responses, read after "
                "the collector sent what it held to a discard HTTP sink (202) in a third process; medians over rounds"
                % (args.connections, ("%d req/s" % args.rate) if args.rate else "as fast as answered", args.seconds, args.rounds)
            ),
            "budget": 0.10,
        }
        for framework in ("fastapi", "flask"):
            if args.only and framework != args.only:
                continue
            result = measure(framework, sink_url, args)
            if not args.full_rounds:
                result["rounds"] = [{c: row[c]["cpuUsPerResponse"] for c in COPIES} for row in result["rounds"]]
            out[framework] = result
        if args.in_process:
            out["inProcess"] = {
                "label": "NOT the budget's figure: the ASGI/WSGI app called directly in one process, no server and no socket, "
                "so the bare handler's cost leaves out the server's and the collector's share is overstated",
                **{f: in_process(f, 5000) for f in ("fastapi", "flask") if not args.only or f == args.only},
            }
        print(json.dumps(out, indent=1))
    finally:
        sink.terminate()
        sink.wait()


if __name__ == "__main__":
    main()
