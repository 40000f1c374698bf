"""The package builds offline into a wheel that installs into a fresh virtual environment, and a
Flask API run from that environment sends its requests to the console server, counted exactly."""
from __future__ import annotations

import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

from conftest import PACKAGE

PYTHON = "/usr/bin/python3" if Path("/usr/bin/python3").exists() else sys.executable


def test_wheel_builds_and_installs_in_a_fresh_venv(tmp_path, console):
    source = tmp_path / "source"
    # Built from a copy: the build's leftovers (build/, *.egg-info) stay out of the repository.
    shutil.copytree(PACKAGE, source, ignore=shutil.ignore_patterns("tests", "build", "dist", "*.egg-info", "__pycache__", ".pytest_cache"))
    dist = tmp_path / "dist"
    built = subprocess.run([PYTHON, "-m", "build", "--no-isolation", "--wheel", "--outdir", str(dist)], cwd=source, capture_output=True, text=True, timeout=300)
    assert built.returncode == 0, built.stdout + built.stderr
    [wheel] = list(dist.glob("ops_console_collect-*.whl"))
    venv = tmp_path / "venv"
    subprocess.run([PYTHON, "-m", "venv", "--system-site-packages", str(venv)], check=True, timeout=120)
    python = venv / "bin" / "python"
    installed = subprocess.run([str(python), "-m", "pip", "install", "--no-index", "--no-deps", str(wheel)], capture_output=True, text=True, timeout=300)
    assert installed.returncode == 0, installed.stdout + installed.stderr
    probe = (
        "import ops_console, ops_console.asgi, ops_console.wsgi, ops_console.django, ops_console.mask;"
        "print(ops_console.__file__);"
        "c = ops_console.Collector('http://127.0.0.1:9', 'ik_probe', close_on_sigterm=False);"
        "print(sorted(c.stats()));"
        "c.close(0)"
    )
    out = subprocess.run([str(python), "-c", probe], capture_output=True, text=True, timeout=60, cwd=str(tmp_path))
    assert out.returncode == 0, out.stderr
    first, second = out.stdout.splitlines()[:2]
    assert first.startswith(str(venv)), first
    assert second == str(sorted(["sent", "rejected", "dropped_queue_full", "dropped_failed", "dropped_at_close", "failed_attempts", "queued"]))

    # A Flask API in the venv, with only the installed package: its requests reach the console server.
    api = tmp_path / "api.py"
    api.write_text(textwrap.dedent("""
        import sys, threading, urllib.error, urllib.request
        from flask import Flask
        from werkzeug.serving import make_server
        import ops_console
        from ops_console import collect_flask

        collector = ops_console.Collector(sys.argv[1], sys.argv[2], flush_interval=0.2, close_on_sigterm=False)
        app = Flask("wheel_api")
        collect_flask(app, collector, api_version="wheel")

        @app.get("/wheel-contacts/<int:id>")
        def contact(id):
            return {"id": id}

        server = make_server("127.0.0.1", 0, app)
        threading.Thread(target=server.serve_forever, daemon=True).start()
        origin = "http://127.0.0.1:%d" % server.server_port
        statuses = []
        for path in ["/wheel-contacts/1", "/wheel-contacts/2", "/wheel-contacts/3", "/wheel-nowhere"]:
            try:
                statuses.append(urllib.request.urlopen(origin + path, timeout=10).status)
            except urllib.error.HTTPError as error:
                statuses.append(error.code)
        server.shutdown()
        collector.close(10)
        print(ops_console.__file__)
        print(statuses, collector.stats()["sent"])
    """))
    ran = subprocess.run([str(python), str(api), console.url, console.ingest_key], capture_output=True, text=True, timeout=120, cwd=str(tmp_path))
    assert ran.returncode == 0, ran.stderr
    where, outcome = ran.stdout.splitlines()[-2:]
    assert where.startswith(str(venv)), where
    assert outcome == "[200, 200, 200, 404] 4", outcome
    # Found by their paths' prefix, however many requests the other tests sent.
    mine = [console.detail(r["id"]) for r in console.get("/requests?path=/wheel-&limit=100")["items"]]
    assert sorted((d["route"], d["status"], d["apiVersion"]) for d in mine) == [("/wheel-contacts/<int:id>", 200, "wheel")] * 3 + [("/wheel-nowhere", 404, "wheel")]
