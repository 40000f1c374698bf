"""The bench's old in-process figures (see bench.py, ``--in-process``): the ASGI/WSGI app called
directly in one process, no server and no socket. They leave the server out of the bare
handler's cost, so they overstate the collector's share."""
from __future__ import annotations

import sys
import time

from bench_api import PATH, bench_collector, fastapi_app, flask_app


def in_process(framework: str, n: int) -> dict:
    import asyncio
    import io

    collector = bench_collector("http://127.0.0.1:9")

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

        bare_app, app = fastapi_app(None), fastapi_app(collector)
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

        bare_app, app = flask_app(None), flask_app(collector)
    bare = measure_one(runner(bare_app))
    added = measure_one(runner(app))
    collector.close(0)
    return {"bareUs": round(bare, 2), "collectorUs": round(added, 2), "addedUs": round(added - bare, 2), "addedShare": round((added - bare) / bare, 4)}
