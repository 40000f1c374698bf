"""The package builds offline into a wheel that installs into a fresh virtual environment."""
from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

from conftest import PACKAGE

PYTHON = "/usr/bin/python3" if Path("/usr/bin/python3").exists() else sys.executable


def test_wheel_builds_and_installs_in_a_fresh_venv(tmp_path):
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
