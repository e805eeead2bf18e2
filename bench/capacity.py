"""Capacity: how many concurrent human-paced games `danger serve --workers 2` holds.

    .venv/bin/python -m bench.capacity [--steps 250 500 1000 ... 10000] [--duration 40]
        [--settle 10] [--interval 3] [--redis-url URL] [--connection-per-game]
        [--profile DIR]

N games play at once, each as a person would: its next command about `--interval` seconds
(jittered by `--jitter`) after the answer to its last, and a spectator's SSE stream follows
every `--stream-every`-th game. The games are recorded games of the four kinds
(bench/record.py); one that has played its last command is replaced by a new one (created,
joined and started again), so N stays concurrent. N rises in `--steps`: the games a step
adds are set up concurrently and not measured, then after `--settle` seconds the commands
of `--duration` seconds are. A step holds when command p99 is within `--p99-ms` and no
request, set-up or stream failed; the run stops at the first step that does not, and prints
the largest N that held.

The load comes from `--generators` processes of this bench, on the same cores as the server:
each keeps raw HTTP/1.1 keep-alive connections over asyncio protocols (a pool it grows on
demand, or one connection per game with `--connection-per-game`), not a client library per
request, and runs at nice -5 so that the box's other work delays it last. Their CPU is
measured and printed with the server's. A step where they could not keep their schedule
(command lateness p99 over `--late-ms`: sent that much after it was due) is reported as the
generator's, not as a figure of the service, and ends the run.

Per step it prints commands/s, p50/p99, errors, the CPU of each process (API processes, the
worker process, Valkey, the generators) as a share of one core and what the rest of the
machine used meanwhile, Valkey's connected clients, and at the end one JSON line with every
figure (with a latency histogram and each process's CPU per command). The store is an
embedded Valkey as `danger serve` starts by default (`appendfsync always`), or `--redis-url`
(any Valkey or Redis, a cluster's nodes found by CLUSTER NODES; on loopback, its processes'
CPU is read from /proc by the pid INFO gives). Loopback only.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import multiprocessing
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time
from array import array
from collections import Counter, deque
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import msgspec
from redis import Redis

from bench import record
from bench.run import (
    cpu_times,
    machine,
    percentile,
    process_cpu,
    start_serve,
    stop,
    tree,
    wait_healthy,
)
from bench.streams import open_files
from service.infra.embedded import EmbeddedValkey

IDLE_SECONDS = 4.0  # uvicorn closes a keep-alive connection idle for 5 s
REQUEST_TIMEOUT = 10.0
GENERATOR_NICE = -5
PROFILE_RATE = 100  # py-spy's samples per second, as bench/profile.py


# The load generator's HTTP client ------------------------------------------------------


class Failed(Exception):
    """A request that got no answer (connection lost, timed out)."""


class HttpConnection(asyncio.Protocol):
    """One keep-alive HTTP/1.1 connection, one request at a time; answers carry
    Content-Length (the service's JSON answers do)."""

    def __init__(self) -> None:
        self.transport: asyncio.Transport | None = None
        self.buffer = bytearray()
        self.waiter: asyncio.Future[tuple[int, bytes]] | None = None
        self.closed = False
        self.timed_out = False
        self.status = 0
        self.head_end = -1
        self.length = 0
        self.keep = True

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = transport  # type: ignore[assignment]  # a TCP connection's: a Transport

    def data_received(self, data: bytes) -> None:
        buffer = self.buffer
        buffer += data
        if self.head_end < 0:
            end = buffer.find(b"\r\n\r\n")
            if end < 0:
                return
            head = bytes(buffer[:end]).lower()
            try:
                self.status = int(head[9:12])
                at = head.find(b"\r\ncontent-length:")
                if at >= 0:
                    to = head.find(b"\r\n", at + 2)
                    self.length = int(head[at + 17 : to if to >= 0 else len(head)])
                else:
                    self.length = 0
            except ValueError:
                self.fail(f"not an answer: {bytes(buffer[:200])!r}")
                return
            if b"\r\ntransfer-encoding:" in head:
                self.fail(f"chunked answer: {bytes(buffer[:400])!r}")
                return
            self.keep = b"\r\nconnection: close" not in head
            self.head_end = end + 4
        total = self.head_end + self.length
        if len(buffer) < total:
            return
        body = bytes(buffer[self.head_end : total])
        del buffer[:total]
        self.head_end = -1
        waiter = self.waiter
        if waiter is not None and not waiter.done():
            waiter.set_result((self.status, body))

    def fail(self, reason: str) -> None:
        self.closed = True
        if self.waiter is not None and not self.waiter.done():
            self.waiter.set_exception(Failed(reason))
        if self.transport is not None:
            self.transport.abort()

    def connection_lost(self, exc: Exception | None) -> None:
        self.closed = True
        waiter = self.waiter
        if waiter is not None and not waiter.done():
            reason = "timeout" if self.timed_out else "connection lost"
            waiter.set_exception(Failed(reason))


class Pool:
    """Keep-alive connections to one server, opened on demand, the most recently used first;
    one idle for longer than the server keeps it is closed rather than reused."""

    def __init__(self, host: str, port: int) -> None:
        self.host, self.port = host, port
        self.host_header = f"Host: {host}:{port}\r\n".encode()
        self.idle: deque[tuple[HttpConnection, float]] = deque()
        self.busy: dict[HttpConnection, float] = {}
        self.opened = 0

    async def _acquire(self, loop: asyncio.AbstractEventLoop) -> HttpConnection:
        now = loop.time()
        while self.idle:
            conn, since = self.idle.pop()
            if not conn.closed and now - since < IDLE_SECONDS:
                return conn
            if conn.transport is not None:
                conn.transport.close()
        _, conn = await loop.create_connection(HttpConnection, self.host, self.port)
        self.opened += 1
        return conn

    async def request(
        self, method: bytes, path: bytes, body: bytes = b"", token: bytes = b""
    ) -> tuple[int, bytes]:
        loop = asyncio.get_running_loop()
        conn = await self._acquire(loop)
        head = method + b" " + path + b" HTTP/1.1\r\n" + self.host_header
        if token:
            head += b"Authorization: Bearer " + token + b"\r\n"
        if body:
            head += b"Content-Type: application/json\r\n"
        head += b"Content-Length: " + str(len(body)).encode() + b"\r\n\r\n"
        conn.waiter = loop.create_future()
        self.busy[conn] = loop.time()
        assert conn.transport is not None
        conn.transport.write(head + body)
        try:
            answer = await conn.waiter
        finally:
            conn.waiter = None
            del self.busy[conn]
        if conn.keep:
            self.idle.append((conn, loop.time()))
        else:
            conn.transport.close()
        return answer

    def expire(self, now: float) -> None:
        """Abort the connections of requests waiting longer than REQUEST_TIMEOUT, and close
        those idle too long."""
        for conn, since in list(self.busy.items()):
            if now - since > REQUEST_TIMEOUT and conn.transport is not None:
                conn.timed_out = True
                conn.transport.abort()
        while self.idle and now - self.idle[0][1] >= IDLE_SECONDS:
            conn, _ = self.idle.popleft()
            if conn.transport is not None:
                conn.transport.close()


class Spectator(asyncio.Protocol):
    """A spectator's SSE stream of one game from its first event: counts the events (their
    `id:` lines) and notices the last (`seed_revealed`) and the stream's end."""

    def __init__(self, request: bytes, stats: Stats) -> None:
        self.request, self.stats = request, stats
        self.transport: asyncio.Transport | None = None
        self.status = 0
        self.tail = b""
        self.revealed = False
        self.ended = False

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = transport  # type: ignore[assignment]  # a TCP connection's: a Transport
        transport.write(self.request)  # type: ignore[attr-defined]  # the same

    def data_received(self, data: bytes) -> None:
        if not self.status:
            self.status = int(data[9:12])
            if self.status != 200:
                self.stats.streams_failed += 1
                self.stats.errors["stream " + str(self.status)] += 1
                self.ended = True
                assert self.transport is not None
                self.transport.close()
                return
            self.stats.streams_open += 1
        window = self.tail + data
        self.stats.stream_events += window.count(b"\nid: ") - self.tail.count(b"\nid: ")
        if b"event: seed_revealed" in window:
            self.revealed = True
        if self.revealed and window.endswith(b"\r\n0\r\n\r\n"):  # the stream's last chunk
            self.ended = True
            self.stats.streams_open -= 1
            self.stats.streams_complete += 1
            self.stats.totals["streams_complete"] += 1
            assert self.transport is not None
            self.transport.close()
        self.tail = window[-32:]

    def connection_lost(self, exc: Exception | None) -> None:
        if self.ended:
            return
        if self.status == 200:
            self.stats.streams_open -= 1
        if self.revealed:  # the server closed the connection after the last event
            self.stats.streams_complete += 1
            self.stats.totals["streams_complete"] += 1
        else:
            self.stats.streams_failed += 1
            self.stats.errors["stream lost"] += 1


# One generator process ------------------------------------------------------------------


@dataclass
class Stats:
    measuring: bool = False
    began: float = 0.0
    latencies: array = field(default_factory=lambda: array("d"))  # ms, commands
    setup_latencies: array = field(default_factory=lambda: array("d"))  # ms
    lateness: array = field(default_factory=lambda: array("d"))  # ms after due
    commands: int = 0
    errors: Counter = field(default_factory=Counter)
    error_samples: list[str] = field(default_factory=list)
    games_set_up: int = 0
    games_ended: int = 0
    streams_open: int = 0
    streams_failed: int = 0
    streams_complete: int = 0
    stream_events: int = 0
    totals: Counter = field(default_factory=Counter)  # since the start, never reset

    def error(self, kind: str, sample: str) -> None:
        self.errors[kind] += 1
        if len(self.error_samples) < 5:
            self.error_samples.append(sample[:300])

    def window(self, now: float) -> dict[str, Any]:
        return {
            "seconds": now - self.began,
            "latencies": self.latencies.tobytes(),
            "setup_latencies": self.setup_latencies.tobytes(),
            "lateness": self.lateness.tobytes(),
            "errors": dict(self.errors),
            "error_samples": self.error_samples,
            "games_set_up": self.games_set_up,
            "games_ended": self.games_ended,
            "streams_open": self.streams_open,
            "streams_failed": self.streams_failed,
            "streams_complete": self.streams_complete,
            "stream_events": self.stream_events,
            "totals": dict(self.totals),
        }

    def reset(self, now: float) -> None:
        self.began = now
        self.latencies, self.setup_latencies, self.lateness = array("d"), array("d"), array("d")
        self.errors, self.error_samples = Counter(), []
        self.games_set_up = self.games_ended = self.stream_events = 0
        self.streams_failed = self.streams_complete = 0


@dataclass
class Plan:
    url: str
    recordings: list[record.Recorded]
    interval: float
    jitter: float
    stream_every: int
    setup_at_once: int
    seed: int
    connection_per_game: bool = False


class Generator:
    def __init__(self, plan: Plan) -> None:
        parts = urlsplit(plan.url)
        self.host, self.port = parts.hostname or "127.0.0.1", parts.port or 80
        self.plan = plan
        self.pool = Pool(self.host, self.port)
        self.pools = [self.pool]  # and each game's own, with --connection-per-game
        self.stats = Stats()
        self.slots: list[asyncio.Task[None]] = []
        self.setup_gate = asyncio.Semaphore(plan.setup_at_once)
        self.connecting: set[asyncio.Task[None]] = set()

    async def set_up(self, recorded: record.Recorded) -> tuple[bytes, list[bytes]]:
        """Create, join every seat, start; the game's id and its seats' tokens."""
        async with self.setup_gate:
            loop = asyncio.get_running_loop()
            stats = self.stats
            began = loop.time()
            status, body = await self.pool.request(b"POST", b"/v1/games", recorded.create)
            if status != 201 and status != 200:
                raise Failed(f"create {status} {body[:200]!r}")
            created = msgspec.json.decode(body)
            game = created["id"].encode()
            tokens = []
            for join in recorded.joins:
                status, body = await self.pool.request(
                    b"POST", b"/v1/games/" + game + b"/players", join
                )
                if status != 201 and status != 200:
                    raise Failed(f"join {status} {body[:200]!r}")
                tokens.append(msgspec.json.decode(body)["token"].encode())
            status, body = await self.pool.request(
                b"POST", b"/v1/games/" + game + b"/start", token=created["admin_token"].encode()
            )
            if status != 200:
                raise Failed(f"start {status} {body[:200]!r}")
            if stats.measuring:
                stats.setup_latencies.append((loop.time() - began) * 1000)
            stats.games_set_up += 1
            stats.totals["games_set_up"] += 1
            return game, tokens

    def spectate(self, game: bytes) -> None:
        request = (
            b"GET /v1/games/"
            + game
            + b"/stream?after=0 HTTP/1.1\r\n"
            + self.pool.host_header
            + b"Accept: text/event-stream\r\n\r\n"
        )
        loop = asyncio.get_running_loop()

        async def connect() -> None:
            try:
                await loop.create_connection(
                    lambda: Spectator(request, self.stats), self.host, self.port
                )
            except OSError as exc:
                self.stats.streams_failed += 1
                self.stats.error("stream connect", repr(exc))

        task = loop.create_task(connect())
        self.connecting.add(task)  # the loop keeps only a weak reference
        task.add_done_callback(self.connecting.discard)

    async def slot(self, index: int, ready: asyncio.Future[None] | None) -> None:
        """One place at the tables: a game played to its end, then another, for ever."""
        loop = asyncio.get_running_loop()
        rng = random.Random(self.plan.seed * 1_000_003 + index)
        stats, plan, pool = self.stats, self.plan, self.pool
        if plan.connection_per_game:
            pool = Pool(self.host, self.port)
            self.pools.append(pool)
        recordings = plan.recordings
        first = True
        played = 0
        while True:
            # Each place plays the recordings in turn, places starting at different ones.
            recorded = recordings[(index + played) % len(recordings)]
            played += 1
            try:
                game, tokens = await self.set_up(recorded)
            except (Failed, OSError, msgspec.DecodeError, KeyError) as exc:
                stats.error("set-up", repr(exc))
                await asyncio.sleep(1)
                continue
            finally:
                if ready is not None and not ready.done():
                    ready.set_result(None)
            if index % plan.stream_every == plan.stream_every - 1:
                self.spectate(game)
            path = b"/v1/games/" + game + b"/commands"
            # The first game of a place starts anywhere within an interval, so that games
            # set up together do not play in step.
            spread = rng.uniform(0, plan.interval) if first else plan.interval
            due = loop.time() + spread
            first = False
            for seat, body in recorded.steps:
                wait = due - loop.time()
                if wait > 0:
                    await asyncio.sleep(wait)
                sent = loop.time()
                try:
                    status, answer = await pool.request(b"POST", path, body, tokens[seat])
                except (Failed, OSError) as exc:
                    status, answer = 0, repr(exc).encode()
                answered = loop.time()
                if stats.measuring:
                    stats.latencies.append((answered - sent) * 1000)
                    stats.lateness.append((sent - due) * 1000)
                stats.commands += 1
                if status != 200:
                    # The recording no longer fits this game: play another.
                    stats.error(f"command {status or answer.decode()[:40]}", answer.decode())
                    break
                due = answered + plan.interval + rng.uniform(-plan.jitter, plan.jitter)
            stats.games_ended += 1
            stats.totals["games_ended"] += 1

    async def grow(self, games: int) -> None:
        """Add places until there are `games`; return once each new one's first game is set
        up (or its set-up failed once)."""
        loop = asyncio.get_running_loop()
        readies = []
        for index in range(len(self.slots), games):
            ready: asyncio.Future[None] = loop.create_future()
            readies.append(ready)
            self.slots.append(loop.create_task(self.slot(index, ready)))
        await asyncio.gather(*readies)

    async def housekeeping(self) -> None:
        loop = asyncio.get_running_loop()
        while True:
            await asyncio.sleep(1)
            now = loop.time()
            for pool in self.pools:
                pool.expire(now)


def generator_process(conn: Connection, plan: Plan) -> None:
    """Serve the bench's orders over `conn`: ("games", n), ("measure",), ("report",),
    ("stop",)."""
    open_files()
    # Ahead of the server in the run queue when the box is busy, so that a late command is
    # the box's doing rather than the generator's own (its CPU is small, and measured).
    with contextlib.suppress(OSError):
        os.setpriority(os.PRIO_PROCESS, 0, GENERATOR_NICE)

    async def main() -> None:
        loop = asyncio.get_running_loop()
        gen = Generator(plan)
        keeper = loop.create_task(gen.housekeeping())
        orders: asyncio.Queue[tuple] = asyncio.Queue()
        loop.add_reader(conn.fileno(), lambda: orders.put_nowait(conn.recv()))
        while True:
            order = await orders.get()
            if order[0] == "games":
                began = loop.time()
                await gen.grow(order[1])
                conn.send(("ready", round(loop.time() - began, 2)))
            elif order[0] == "measure":
                gen.stats.reset(loop.time())
                gen.stats.measuring = True
            elif order[0] == "report":
                gen.stats.measuring = False
                window = gen.stats.window(loop.time())
                window["connections_opened"] = sum(p.opened for p in gen.pools)
                conn.send(("report", window))
            elif order[0] == "stop":
                break
        loop.remove_reader(conn.fileno())
        keeper.cancel()
        for task in gen.slots:
            task.cancel()
        await asyncio.gather(keeper, *gen.slots, return_exceptions=True)

    asyncio.run(main())


# The bench's own process ----------------------------------------------------------------


def api_roles(serve_pid: int) -> dict[str, list[int]]:
    """The processes of `danger serve` by role, each with its descendants: the API
    processes (uvicorn's workers), the worker (projections and jobs), the supervisor."""
    roles: dict[str, list[int]] = {"supervisor": [serve_pid]}
    children = [p for p in tree(serve_pid) if p != serve_pid and parent(p) == serve_pid]
    api = 0
    for pid in sorted(children):
        try:
            cmdline = Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ")
        except OSError:
            continue
        if b"service.cli worker" in cmdline:
            role = "worker"
        elif b"spawn_main" in cmdline and b"resource_tracker" not in cmdline:
            api += 1
            role = f"api{api}"
        else:
            role = "other"
        roles.setdefault(role, []).extend(tree(pid))
    return roles


def parent(pid: int) -> int:
    try:
        return int(Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[1])
    except (OSError, IndexError, ValueError):
        return 0


def cpu_seconds(groups: dict[str, list[int]]) -> dict[str, float]:
    out = {}
    for role, pids in groups.items():
        total = 0.0
        for pid in pids:
            with contextlib.suppress(OSError, IndexError, ValueError):
                total += process_cpu(pid)
        out[role] = total
    return out


class Store:
    """The store's nodes (one, or every node of a cluster): connected clients, memory, and
    their processes when they run on this machine."""

    def __init__(self, url: str) -> None:
        self.url = url
        first = Redis.from_url(url)
        self.nodes = [first]
        with contextlib.suppress(Exception):
            if int(first.info("cluster").get("cluster_enabled", 0)):
                parts = urlsplit(url)
                self.nodes = []
                for line in first.execute_command("CLUSTER NODES").decode().splitlines():
                    address = line.split()[1].split("@")[0]
                    host, _, port = address.rpartition(":")
                    netloc = parts.netloc.rsplit("@", 1)
                    auth = netloc[0] + "@" if len(netloc) == 2 else ""
                    self.nodes.append(
                        Redis.from_url(f"{parts.scheme}://{auth}{host}:{port}{parts.path}")
                    )
                first.close()

    def pids(self) -> list[int]:
        out = []
        for node in self.nodes:
            with contextlib.suppress(Exception):
                pid = int(node.info("server")["process_id"])
                if Path(f"/proc/{pid}").exists():
                    out.append(pid)
        return out

    def clients(self) -> int:
        return sum(int(node.info("clients")["connected_clients"]) for node in self.nodes)

    def processed(self) -> int:
        """Commands the store has run so far (scripts count as one)."""
        return sum(int(n.info("stats")["total_commands_processed"]) for n in self.nodes)

    def used_mb(self) -> float:
        return round(sum(int(n.info("memory")["used_memory"]) for n in self.nodes) / 2**20, 1)

    def close(self) -> None:
        for node in self.nodes:
            node.close()


BUCKETS_MS = (2, 5, 10, 20, 40, 60, 100, 200, 500, 1000)


def histogram(ms: list[float]) -> dict[str, int]:
    """How many answers took up to each bucket's bound (and beyond the last)."""
    counts = Counter(
        next((f"≤{b}" for b in BUCKETS_MS if x <= b), f">{BUCKETS_MS[-1]}") for x in ms
    )
    return {k: counts[k] for k in [f"≤{b}" for b in BUCKETS_MS] + [f">{BUCKETS_MS[-1]}"]}


def floats(raw: bytes) -> array:
    out = array("d")
    out.frombytes(raw)
    return out


class Bench:
    def __init__(self, args: argparse.Namespace, url: str, serve_pid: int, store: Store):
        self.args, self.url, self.serve_pid, self.store = args, url, serve_pid, store
        recordings = record.recordings(args.per_kind)
        ctx = multiprocessing.get_context("spawn")
        self.pipes: list[Connection] = []
        self.generators: list[multiprocessing.process.BaseProcess] = []
        for n in range(args.generators):
            ours, theirs = ctx.Pipe()
            plan = Plan(
                url=url,
                recordings=recordings,
                interval=args.interval,
                jitter=args.jitter,
                stream_every=args.stream_every,
                setup_at_once=args.setup_at_once,
                seed=n + 1,
                connection_per_game=args.connection_per_game,
            )
            process = ctx.Process(target=generator_process, args=(theirs, plan), daemon=True)
            process.start()
            self.pipes.append(ours)
            self.generators.append(process)

    def close(self) -> None:
        for pipe in self.pipes:
            with contextlib.suppress(OSError):
                pipe.send(("stop",))
        for process in self.generators:
            process.join(10)
            if process.is_alive():
                process.kill()

    def receive(self, pipe: Connection, kind: str, timeout: float) -> Any:
        if not pipe.poll(timeout):
            raise TimeoutError(f"no {kind} from a load generator within {timeout} s")
        got, value = pipe.recv()
        assert got == kind, (got, kind)
        return value

    def groups(self) -> dict[str, list[int]]:
        groups = api_roles(self.serve_pid)
        groups["valkey"] = self.store.pids()
        for n, process in enumerate(self.generators):
            groups[f"generator{n + 1}"] = [process.pid or 0]
        groups["bench"] = [os.getpid()]
        return groups

    def spy(self, games: int, groups: dict[str, list[int]]) -> list[subprocess.Popen]:
        """py-spy on every API process and the worker for the step's measured window; raw
        stacks in `--profile`/<games>-<role>.txt (bench/profile.py's `summarise` reads them)."""
        out = Path(self.args.profile)
        out.mkdir(parents=True, exist_ok=True)
        spies = []
        for role, pids in groups.items():
            if role.startswith("api") or role == "worker":
                spies.append(
                    subprocess.Popen(
                        [
                            self.args.py_spy,
                            "record",
                            "-p",
                            str(pids[0]),
                            "-d",
                            str(max(1, int(self.args.duration) - 2)),
                            "-r",
                            str(PROFILE_RATE),
                            "-f",
                            "raw",
                            "-o",
                            str(out / f"{games}-{role}.txt"),
                            "--nonblocking",
                        ],
                        stdout=subprocess.DEVNULL,
                        stderr=subprocess.DEVNULL,
                    )
                )
        return spies

    def step(self, games: int) -> dict[str, Any]:
        args = self.args
        result: dict[str, Any] = {"games": games}
        shares = [games // len(self.pipes)] * len(self.pipes)
        for n in range(games % len(self.pipes)):
            shares[n] += 1
        began = time.monotonic()
        for pipe, share in zip(self.pipes, shares, strict=True):
            pipe.send(("games", share))
        try:
            for pipe in self.pipes:
                self.receive(pipe, "ready", args.ramp_timeout)
        except TimeoutError as exc:
            result.update(held=False, verdict=f"set-up: {exc}")
            return result
        result["ramp_s"] = round(time.monotonic() - began, 1)
        time.sleep(args.settle)

        groups = self.groups()
        cpu0, machine0 = cpu_seconds(groups), cpu_times()
        processed0 = self.store.processed()
        window0 = time.monotonic()
        for pipe in self.pipes:
            pipe.send(("measure",))
        spies = self.spy(games, groups) if args.profile else []
        clients: list[int] = []
        while time.monotonic() - window0 < args.duration:
            with contextlib.suppress(Exception):
                clients.append(self.store.clients())
            time.sleep(min(2.0, max(0.0, args.duration - (time.monotonic() - window0))))
        for pipe in self.pipes:
            pipe.send(("report",))
        reports = [self.receive(pipe, "report", 60) for pipe in self.pipes]
        for spy in spies:
            spy.wait()
        wall = time.monotonic() - window0
        cpu1, machine1 = cpu_seconds(groups), cpu_times()
        processed1 = self.store.processed()

        latencies = [x for r in reports for x in floats(r["latencies"])]
        setups = [x for r in reports for x in floats(r["setup_latencies"])]
        lateness = [x for r in reports for x in floats(r["lateness"])]
        errors: Counter = Counter()
        for r in reports:
            errors.update(r["errors"])
        seconds = max(r["seconds"] for r in reports)
        cpu = {k: round(100 * (cpu1[k] - cpu0.get(k, cpu1[k])) / wall, 1) for k in cpu1}
        result.update(
            commands=len(latencies),
            commands_per_s=round(len(latencies) / seconds, 1),
            offered_per_s=round(games / args.interval, 1),
            histogram_ms=histogram(latencies),
            p50_ms=round(percentile(latencies, 50), 2),
            p99_ms=round(percentile(latencies, 99), 2),
            max_ms=round(max(latencies, default=0), 2),
            setup_p99_ms=round(percentile(setups, 99), 2),
            late_p99_ms=round(percentile(lateness, 99), 2),
            late_over_ms=sum(x > args.late_ms for x in lateness),
            errors=sum(errors.values()),
            error_kinds=dict(errors),
            error_samples=[s for r in reports for s in r["error_samples"]][:5],
            games_set_up=sum(r["games_set_up"] for r in reports),
            games_ended=sum(r["games_ended"] for r in reports),
            streams_open=sum(r["streams_open"] for r in reports),
            streams_complete=sum(r["streams_complete"] for r in reports),
            stream_events=sum(r["stream_events"] for r in reports),
            totals=dict(sum((Counter(r["totals"]) for r in reports), Counter())),
            connections=sum(r["connections_opened"] for r in reports),
            cpu_percent=cpu,
            # Every request's CPU (set-ups, streams and idle work included) per command.
            cpu_ms_per_command={
                k: round(1000 * (cpu1[k] - cpu0.get(k, cpu1[k])) / max(1, len(latencies)), 3)
                for k in cpu1
            },
            machine_busy=round((machine1[0] - machine0[0]) / max(1, machine1[1] - machine0[1]), 3),
            valkey_clients=max(clients, default=0),
            valkey_clients_samples=len(clients),
            valkey_used_mb=self.store.used_mb(),
            valkey_calls_per_command=round((processed1 - processed0) / max(1, len(latencies)), 2),
            seconds=round(seconds, 1),
        )
        # What the rest of the machine used meanwhile (other people's work on a shared box),
        # in % of one core like the processes above.
        result["others_percent"] = round(
            max(0.0, result["machine_busy"] * 100 * (os.cpu_count() or 1) - sum(cpu.values())), 1
        )
        if result["late_p99_ms"] > args.late_ms:
            result.update(
                held=False,
                verdict=f"generator behind its schedule (late p99 {result['late_p99_ms']} ms, "
                f"command p99 {result['p99_ms']} ms): not a service figure",
            )
        elif result["errors"]:
            result.update(held=False, verdict="errors")
        elif result["p99_ms"] > args.p99_ms:
            result.update(held=False, verdict=f"p99 over {args.p99_ms:g} ms")
        elif not latencies:
            result.update(held=False, verdict="no command answered")
        else:
            result.update(held=True, verdict="held")
        return result


def describe(step: dict[str, Any]) -> str:
    if "commands" not in step:
        return f"{step['games']:>6} games: {step['verdict']}"
    cpu = step["cpu_percent"]
    api = "/".join(f"{v:.0f}" for k, v in sorted(cpu.items()) if k.startswith("api"))
    gens = "/".join(f"{v:.0f}" for k, v in sorted(cpu.items()) if k.startswith("generator"))
    return (
        f"{step['games']:>6} games: {step['commands_per_s']:>7}/s of {step['offered_per_s']} "
        f"offered, p50 {step['p50_ms']} ms p99 {step['p99_ms']} ms, errors {step['errors']}, "
        f"late p99 {step['late_p99_ms']} ms | CPU % of a core: api {api}, worker "
        f"{cpu.get('worker', 0):.0f}, valkey {cpu.get('valkey', 0):.0f}, generators {gens}, "
        f"bench {cpu.get('bench', 0):.0f}, others {step['others_percent']:.0f}; machine "
        f"{step['machine_busy']:.0%} | valkey clients "
        f"{step['valkey_clients']} | streams {step['streams_open']} open, "
        f"{step['stream_events']} events | {step['verdict']}"
    )


def run(args: argparse.Namespace) -> dict[str, Any]:
    open_files()
    biggest = max(args.steps)
    streams = {
        "DANGER_STREAMS_PER_CLIENT": str(biggest // args.stream_every + 100),
        "DANGER_STREAMS_MAX": str(max(5000, biggest // args.stream_every + 100)),
    }
    data = None
    valkey = None
    redis_url = args.redis_url
    if redis_url is None:
        data = Path(tempfile.mkdtemp(prefix="danger-capacity-"))
        valkey = EmbeddedValkey(data)
        valkey.start()
        redis_url = valkey.url
    serve, url = start_serve(redis_url, args.workers, settings=streams)
    store = Store(redis_url)
    bench = None
    steps: list[dict[str, Any]] = []
    try:
        wait_healthy(f"{url}/health", serve)
        bench = Bench(args, url, serve.pid, store)
        for games in sorted(args.steps):
            step = bench.step(games)
            steps.append(step)
            print(describe(step), flush=True)
            if not step["held"]:
                break
    finally:
        if bench is not None:
            bench.close()
        stop(serve)
        store.close()
        if valkey is not None:
            valkey.stop()
        if data is not None:
            shutil.rmtree(data, ignore_errors=True)
    held = [s["games"] for s in steps if s["held"]]
    failed = next((s for s in steps if not s["held"]), None)
    return {
        "held_games": max(held, default=0),
        "first_failed": failed["games"] if failed else None,
        "failed_because": failed["verdict"] if failed else None,
        "store": "external" if args.redis_url else "embedded",
        "connection_per_game": args.connection_per_game,
        "workers": args.workers,
        "interval_s": args.interval,
        "stream_every": args.stream_every,
        "generators": args.generators,
        "machine": machine(),
        "steps": steps,
    }


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="bench.capacity",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument(
        "--steps",
        type=int,
        nargs="+",
        default=[250, 500, 1000, 1500, 2000, 3000, 4000, 6000, 8000, 10000],
    )
    p.add_argument("--duration", type=float, default=40, help="measured seconds per step")
    p.add_argument("--settle", type=float, default=10, help="seconds after a step's set-up")
    p.add_argument("--interval", type=float, default=3.0, help="s from an answer to the next")
    p.add_argument("--jitter", type=float, default=0.5, help="± s around the interval")
    p.add_argument("--stream-every", type=int, default=10, help="a spectator on every n-th game")
    p.add_argument("--p99-ms", type=float, default=100.0, help="a step holds within this p99")
    p.add_argument(
        "--late-ms",
        type=float,
        default=100.0,
        help="lateness p99 beyond which a step is the generator's",
    )
    p.add_argument("--generators", type=int, default=2, help="load generator processes")
    p.add_argument("--setup-at-once", type=int, default=32, help="games set up at once, each")
    p.add_argument("--ramp-timeout", type=float, default=300.0)
    p.add_argument("--per-kind", type=int, default=8, help="recorded games of each kind")
    p.add_argument("--workers", type=int, default=2, help="danger serve --workers")
    p.add_argument("--profile", default=None, help="a directory: py-spy the server per step")
    p.add_argument("--py-spy", default=shutil.which("py-spy") or "py-spy")
    p.add_argument(
        "--connection-per-game",
        action="store_true",
        help="each game's commands on a connection of its own (so on one API process while "
        "it lasts), not on the generator's shared pool",
    )
    p.add_argument(
        "--redis-url",
        default=None,
        help="an external store (default: an embedded Valkey of the bench's own)",
    )
    return p


def main(argv: list[str] | None = None) -> int:
    args = parser().parse_args(argv)
    result = run(args)
    print(
        f"held: {result['held_games']} concurrent games"
        + (
            f"; at {result['first_failed']}: {result['failed_because']}"
            if result["first_failed"]
            else " (every step)"
        ),
        flush=True,
    )
    print(json.dumps(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
