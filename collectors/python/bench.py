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

Its parts, beside this file: bench_api.py (the API process), bench_sink.py (the discard sink),
bench_driver.py (the load and the rounds) and bench_in_process.py (the old figures).
"""
from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE / "src"))

from bench_api import COPIES, pin_cpu, run_api  # noqa: E402  (after the path to ops_console)
from bench_driver import measure  # noqa: E402
from bench_in_process import in_process  # noqa: E402
from bench_sink import run_sink  # noqa: E402


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
    pin_cpu(0)
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
