"""`danger serve` as `make run` starts it (its own embedded Valkey in a data directory), for
the browser tests and the screenshots, with the per-client limits off: every browser here is
one client at 127.0.0.1."""

from __future__ import annotations

import contextlib
import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

from bench.run import free_port, stop, wait_healthy

CHROMIUM = os.environ.get("DANGER_TEST_CHROMIUM") or shutil.which("chromium") or ""
# As root and on a machine without a network, Chromium needs these (no sandbox of its own,
# and no attempts to reach Google's services at every start).
FLAGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


@contextlib.contextmanager
def serving(data: Path) -> Iterator[str]:
    port = free_port()
    env = {
        **os.environ,
        "DANGER_DATA_DIR": str(data),
        "DANGER_PORT": str(port),
        "DANGER_RATE_LIMITS": "off",
        "DANGER_OPEN_GAMES_PER_CLIENT": "0",
        # A browser context may say which client it is (tests/browser/conftest.py): without
        # X-Forwarded-For, every one is 127.0.0.1, as under `make run`.
        "DANGER_TRUSTED_PROXY": "127.0.0.1",
    }
    env.pop("REDIS_URL", None)
    proc = subprocess.Popen(
        [sys.executable, "-m", "service.cli", "serve"],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    url = f"http://127.0.0.1:{port}"
    try:
        wait_healthy(f"{url}/health", proc, timeout=60)
        yield url
    finally:
        stop(proc)
