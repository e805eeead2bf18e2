"""The service's command line run as an operator runs it, in processes of its own: a command
to its end, a `danger worker` left running, and whether a process still runs."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

DANGER = [sys.executable, "-m", "service.cli"]


def run_cli(*command: str, **env: str) -> subprocess.CompletedProcess[str]:
    """`danger <command>` until it exits, its output and errors as text. Its environment is
    this process's with `env` on top; the store is the one `env` names (REDIS_URL,
    DANGER_QUEUE_URL), never one this process was given."""
    environ = {k: v for k, v in os.environ.items() if k not in ("REDIS_URL", "DANGER_QUEUE_URL")}
    return subprocess.run(
        [*DANGER, *command], env={**environ, **env}, capture_output=True, text=True, timeout=60
    )


def worker(store: object, log: Path | None = None, **env: str) -> subprocess.Popen[bytes]:
    """`danger worker` on `store` (a fixture's store: its URL, and its job queue's where it has
    one of its own), its errors written to `log` where given; `env` adds settings. The URL
    carries a password: it goes in the environment, never on a command line."""
    store_env = {"REDIS_URL": store.url}  # type: ignore[attr-defined]  # every store has one
    queue = getattr(store, "queue_url", None)
    if queue is not None:
        store_env["DANGER_QUEUE_URL"] = queue
    with open(log or os.devnull, "w") as out:  # a file, not a pipe nobody reads while it runs
        return subprocess.Popen(
            [*DANGER, "worker"],
            env={**os.environ, **store_env, **env},
            stdout=subprocess.DEVNULL,
            stderr=out,
        )


def alive(pid: int) -> bool:
    """Running (a zombie waiting to be reaped is not)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except FileNotFoundError:
        return False
    return state != "Z"
