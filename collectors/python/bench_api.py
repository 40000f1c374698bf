"""The bench's API process (see bench.py): three copies of the same small JSON handler, ``bare``,
``control`` and ``collector``, served by a real server on loopback, each on its own port. It
prints the ports, then answers each line it reads with its CPU time, once the collector sent
what it held."""
from __future__ import annotations

import json
import os
import resource
import sys
import threading
import time

COPIES = ("bare", "control", "collector")
PATH = "/v2/contacts/c_7"


def pin_cpu(cpu: int) -> bool:
    try:
        if (os.cpu_count() or 1) >= 2:
            os.sched_setaffinity(0, {cpu})
            return True
    except (AttributeError, OSError):
        pass
    return False


def cpu_us() -> int:
    r = resource.getrusage(resource.RUSAGE_SELF)
    return int((r.ru_utime + r.ru_stime) * 1_000_000)


# -- the API process ---------------------------------------------------------------------------
def bench_collector(sink: str):
    from ops_console import Collector

    return Collector(sink, "ik_bench", on_error=lambda p: None, close_on_sigterm=False, close_at_exit=False)


def fastapi_app(collector):
    from fastapi import FastAPI

    app = FastAPI()

    @app.get("/v2/contacts/{id}")
    async def contact(id: str):
        return {"id": id}

    if collector is not None:
        from ops_console.asgi import OpsConsoleMiddleware

        app.add_middleware(OpsConsoleMiddleware, collector=collector, path_prefix=True, headers=["user-agent"])
    return app


def flask_app(collector):
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
    pinned = pin_cpu(1)
    collector = bench_collector(sink)
    make = fastapi_app if framework == "fastapi" else flask_app
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
        print(json.dumps({"cpuUs": cpu_us(), "sent": stats["sent"], "failed": failed}), flush=True)

