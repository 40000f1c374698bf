"""The bench's driver (see bench.py): it starts the API process, loads each copy in turn from this
process, in rounds that each start one copy later, and reads the API process's CPU time before
and after each load; ``measure`` answers the medians over rounds."""
from __future__ import annotations

import argparse
import http.client
import json
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path

from bench_api import COPIES, PATH

#: The bench's entry point, which runs the API process when given ``--api``.
ENTRY = Path(__file__).resolve().parent / "bench.py"


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
            [sys.executable, str(ENTRY), "--api", framework, sink], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
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
