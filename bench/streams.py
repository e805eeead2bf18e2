"""Streams at scale: thousands of SSE streams on one `danger serve` process while a load
plays recorded games, against the same load without them, in one run (under 2 minutes).

    .venv/bin/python -m bench.streams [--streams 2000] [--per-kind 4] [--rate 200]

Three sets of recorded games (bench/record.py) are created, joined and started. The load
(`--players` games at a time, `--rate` commands/s in all) plays every command of the first
set with no stream open, of the second while `--streams` streams follow it, and of the third
once they have ended (a shared machine drifts: the figures with streams are compared with
both). Half of the streams follow two games, the rest are spread over the whole set; seats
and spectators, each from the first event, read by a separate process that runs only on
idle CPU (SCHED_IDLE). On a machine of two cores or more the clients (the load and the
readers) run on a core of their own (`--clients-cpu`) and the service (API process and
Valkey) on the others, in every phase, as clients on other machines would: the figures are
then the service's, not those of the bench's own clients taking the server's core. Every
stream must receive every event of its game once and in order, and end by itself after the
last. It prints Valkey's connected clients before, during and after the streams, command
p50/p99 with and without them, how late the streams' events came (from the event's `at` to
its reader, every tenth event), the CPU of each process, how long the API process waited for
a core, and one JSON line with every figure. Loopback only.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import multiprocessing
import os
import resource
import shutil
import sys
import tempfile
import time
from dataclasses import dataclass, field
from datetime import datetime
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import httpx
from redis.asyncio import Redis

from bench import record
from bench.run import api_and_worker, cpu_of, percentile, start_serve, stop, tree, wait_healthy
from service.infra.embedded import EmbeddedValkey

JSON = {"Content-Type": "application/json"}


def open_files() -> int:
    """Raise this process's open-file limit to its hard limit (the server and the streams'
    process inherit it): each stream is a socket at both ends."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < hard:
        with contextlib.suppress(ValueError, OSError):  # a hard limit the kernel refuses
            resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    return resource.getrlimit(resource.RLIMIT_NOFILE)[0]


@dataclass
class Game:
    recorded: record.Recorded
    id: str = ""
    tokens: list[str] = field(default_factory=list)
    final_seq: int = 0


async def set_up(http: httpx.AsyncClient, games: list[Game]) -> None:
    """Create, join and start every game (not measured)."""

    async def one(game: Game) -> None:
        r = await http.post("/v1/games", content=game.recorded.create, headers=JSON)
        r.raise_for_status()
        game.id, admin = r.json()["id"], r.json()["admin_token"]
        for join in game.recorded.joins:
            r = await http.post(f"/v1/games/{game.id}/players", content=join, headers=JSON)
            r.raise_for_status()
            game.tokens.append(r.json()["token"])
        r = await http.post(
            f"/v1/games/{game.id}/start", headers={"Authorization": f"Bearer {admin}"}
        )
        r.raise_for_status()

    for start in range(0, len(games), 8):
        await asyncio.gather(*(one(g) for g in games[start : start + 8]))


async def play(http: httpx.AsyncClient, games: list[Game], players: int, rate: float) -> dict:
    """Every command of every game, `players` games at a time, paced to `rate` commands/s
    in all; each command's latency."""
    latencies: list[float] = []
    errors = 0
    began = time.perf_counter()
    slot = 0

    async def player(mine: list[Game]) -> None:
        nonlocal slot, errors
        for game in mine:
            for seat, body in game.recorded.steps:
                due = began + slot / rate
                slot += 1
                if (wait := due - time.perf_counter()) > 0:
                    await asyncio.sleep(wait)
                headers = {**JSON, "Authorization": f"Bearer {game.tokens[seat]}"}
                sent = time.perf_counter()
                r = await http.post(f"/v1/games/{game.id}/commands", content=body, headers=headers)
                latencies.append(time.perf_counter() - sent)
                if r.status_code != 200:
                    errors += 1
            r = await http.get(f"/v1/games/{game.id}")
            game.final_seq = r.json()["seq"]

    # Deal the games out so every player has about as many commands.
    shares: list[list[Game]] = [[] for _ in range(players)]
    for game in sorted(games, key=lambda g: -len(g.recorded.steps)):
        min(shares, key=lambda s: sum(len(g.recorded.steps) for g in s)).append(game)
    await asyncio.gather(*(player(share) for share in shares))
    seconds = time.perf_counter() - began
    ms = [x * 1000 for x in latencies]
    return {
        "commands": len(latencies),
        "seconds": round(seconds, 2),
        "per_s": round(len(latencies) / seconds, 1),
        "p50_ms": round(percentile(ms, 50), 2),
        "p90_ms": round(percentile(ms, 90), 2),
        "p99_ms": round(percentile(ms, 99), 2),
        "max_ms": round(max(ms), 2),
        "errors": errors,
    }


# The streams' process ------------------------------------------------------------------


@dataclass
class Followed:
    """What one stream received: enough to check every event came once, in order."""

    game: str
    status: int = 0
    events: int = 0
    first: int = 0
    last: int = 0
    in_order: bool = True
    last_type: str = ""
    ended: bool = False
    comments: int = 0
    delays: list[float] = field(default_factory=list)  # seconds from append to read, sampled


DELAY_SAMPLE = 10  # every tenth event's delivery is timed


def delay_of(data: bytes, since: float) -> float | None:
    """Seconds from the event's `at` (the store's clock, this machine's) to now, for an
    event appended after `since` (not the backlog the stream read first)."""
    at = data.find(b'"at":"')
    if at < 0:
        return None
    stamp = datetime.fromisoformat(data[at + 6 : data.index(b'"', at + 6)].decode())
    if stamp.timestamp() < since:
        return None
    return time.time() - stamp.timestamp()


async def follow(
    host: str, port: int, game: str, token: str | None, out: Followed, opened: asyncio.Event
) -> None:
    """One SSE stream over a plain socket (HTTP/1.1, chunked): cheap enough for thousands
    in one process. `opened` is set once the answer's head has come (or the stream failed)."""
    try:
        reader, writer = await asyncio.open_connection(host, port)
    except OSError:
        opened.set()
        raise
    auth = f"Authorization: Bearer {token}\r\n" if token else ""
    writer.write(
        f"GET /v1/games/{game}/stream?after=0 HTTP/1.1\r\nHost: {host}:{port}\r\n"
        f"Accept: text/event-stream\r\n{auth}\r\n".encode()
    )
    try:
        out.status = int((await reader.readline()).split()[1])
        while (await reader.readline()) not in (b"\r\n", b""):
            pass
        opened.set()
        since = time.time()
        if out.status != 200:
            return
        buffer = b""
        while True:
            size = int((await reader.readline()).strip() or b"0", 16)
            if size == 0:
                out.ended = True
                return
            buffer += (await reader.readexactly(size + 2))[:-2]
            *frames, buffer = buffer.split(b"\r\n\r\n")
            for frame in frames:
                if frame.startswith(b":"):
                    out.comments += 1
                    continue
                seq, kind, data = 0, b"", b""
                for line in frame.split(b"\r\n"):
                    if line.startswith(b"id: "):
                        seq = int(line[4:])
                    elif line.startswith(b"event: "):
                        kind = line[7:]
                    elif line.startswith(b"data: "):
                        data = line
                if seq % DELAY_SAMPLE == 0:
                    delay = delay_of(data, since)
                    if delay is not None:
                        out.delays.append(delay)
                if out.events == 0:
                    out.first = seq
                elif seq != out.last + 1:
                    out.in_order = False
                out.events += 1
                out.last, out.last_type = seq, kind.decode()
    finally:
        opened.set()
        writer.close()


def streams_process(
    conn: Connection, url: str, plan: list[tuple[str, str | None]], cpus: set[int] | None
) -> None:
    """Open every planned stream, say when all are open, and report what each received once
    all have ended (or when told to stop)."""

    # Only the CPU nobody else wants (SCHED_IDLE, below nice 19), on cores of their own
    # where there are any: the figures are the server's, not those of this bench's readers.
    os.sched_setscheduler(0, os.SCHED_IDLE, os.sched_param(0))
    if cpus:
        os.sched_setaffinity(0, cpus)

    async def main() -> None:
        parts = urlsplit(url)
        host, port = parts.hostname or "127.0.0.1", parts.port or 80
        followed = [Followed(game) for game, _ in plan]
        gate = asyncio.Semaphore(100)  # connections being opened at once

        tasks: list[asyncio.Task[None]] = []
        for (game, token), out in zip(plan, followed, strict=True):
            async with gate:
                opened = asyncio.Event()
                tasks.append(asyncio.create_task(follow(host, port, game, token, out, opened)))
                await opened.wait()
        conn.send(("open", sum(f.status == 200 for f in followed)))
        loop = asyncio.get_running_loop()
        stop = loop.create_future()
        loop.add_reader(conn.fileno(), lambda: stop.done() or stop.set_result(None))
        everything = asyncio.gather(*tasks, return_exceptions=True)
        await asyncio.wait([everything, stop], return_when=asyncio.FIRST_COMPLETED)
        loop.remove_reader(conn.fileno())
        usage = resource.getrusage(resource.RUSAGE_SELF)
        conn.send(("done", [f.__dict__ for f in followed], usage))

    asyncio.run(main())


# The run ---------------------------------------------------------------------------------


def cmdline(pid: int) -> bytes:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return b""


def writer_of(api: int) -> list[int]:
    """The API process's stream writer (service/live/stream_writer.py), counted on its own; it
    starts with the API process."""
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        found = [p for p in tree(api) if b"service.assembly.stream_process" in cmdline(p)]
        if found:
            return found
        time.sleep(0.1)
    return []


def split_cpus(clients_cpu: int | None) -> tuple[set[int] | None, set[int] | None]:
    """(the clients' cores, the service's), or (None, None) for no pinning."""
    cpus = sorted(os.sched_getaffinity(0))
    if clients_cpu == -1 or (clients_cpu is None and len(cpus) < 2):
        return None, None
    clients = cpus[-1] if clients_cpu is None else clients_cpu
    return {clients}, set(cpus) - {clients} or None


def softirq_seconds(cpus: set[int] | None) -> float:
    """Time the given cores (None: all) spent in interrupts and softirqs (/proc/stat): on
    loopback the receiving side's network path runs there too."""
    total = 0
    for line in Path("/proc/stat").read_text().splitlines():
        name, *fields = line.split()
        if name.startswith("cpu") and name != "cpu" and (cpus is None or int(name[3:]) in cpus):
            total += int(fields[5]) + int(fields[6])
    return total / os.sysconf("SC_CLK_TCK")


def run_queue_seconds(pids: list[int]) -> float:
    """Time the processes' threads spent ready to run but waiting for a core
    (/proc/PID/task/TID/schedstat): what a contended machine adds to a latency."""
    total = 0
    for pid in pids:
        with contextlib.suppress(OSError):
            for task in Path(f"/proc/{pid}/task").iterdir():
                with contextlib.suppress(OSError, IndexError, ValueError):
                    total += int((task / "schedstat").read_text().split()[1])
    return total / 1e9


async def clients(redis: Redis) -> int:
    return int((await redis.info("clients"))["connected_clients"])


async def run(args: argparse.Namespace, url: str, redis: Redis, pids: dict) -> dict[str, Any]:
    recorded = record.recordings(args.per_kind * 3)
    third = len(recorded) // 3
    quiet = [Game(r) for r in recorded[:third]]
    watched = [Game(r) for r in recorded[third : 2 * third]]
    quiet_after = [Game(r) for r in recorded[2 * third :]]
    limits = httpx.Limits(max_connections=args.players + 8)
    async with httpx.AsyncClient(base_url=url, limits=limits, timeout=30) as http:
        await set_up(http, quiet + watched + quiet_after)
        figures: dict[str, Any] = {"games_per_phase": len(quiet)}

        async def without(name: str, games: list[Game]) -> None:
            cpu0, waited0 = cpu_of(pids), run_queue_seconds(pids["api"])
            irq0 = softirq_seconds(args.service_cpus)
            figures[name] = await play(http, games, args.players, args.rate)
            cpu1, waited1 = cpu_of(pids), run_queue_seconds(pids["api"])
            irq = softirq_seconds(args.service_cpus) - irq0
            figures[name]["service_cores_irq_s"] = round(irq, 2)
            figures[name]["cpu_s"] = {k: round(cpu1[k] - cpu0.get(k, 0), 2) for k in cpu0}
            figures[name]["api_waited_s"] = round(waited1 - waited0, 2)

        await without("without", quiet)
        before = await clients(redis)

        # Half the streams on two games, the rest spread over the set; seats and spectators.
        hot = [watched[0], watched[2]]  # a Danger game and a Danger 13 game: long ones
        plan: list[tuple[str, str | None]] = []
        for n in range(args.streams):
            game = hot[n % 2] if n < args.streams // 2 else watched[n % len(watched)]
            seat = n % (len(game.tokens) + 1)
            plan.append((game.id, game.tokens[seat] if seat < len(game.tokens) else None))
        ctx = multiprocessing.get_context("spawn")
        ours, theirs = ctx.Pipe()
        streams = ctx.Process(target=streams_process, args=(theirs, url, plan, args.clients_cpus))
        began = time.perf_counter()
        streams.start()
        pids["streams"] = [streams.pid or 0]
        _, opened = await asyncio.to_thread(ours.recv)
        figures["streams_opened"] = opened
        figures["open_seconds"] = round(time.perf_counter() - began, 2)
        opened_clients = await clients(redis)

        samples: list[int] = []

        async def sample() -> None:
            while True:
                samples.append(await clients(redis))
                await asyncio.sleep(0.25)

        sampler = asyncio.create_task(sample())
        cpu2, waited2 = cpu_of(pids), run_queue_seconds(pids["api"])
        irq2 = softirq_seconds(args.service_cpus)
        figures["with"] = await play(http, watched, args.players, args.rate)
        cpu3, waited3 = cpu_of(pids), run_queue_seconds(pids["api"])
        figures["with"]["service_cores_irq_s"] = round(softirq_seconds(args.service_cpus) - irq2, 2)
        figures["with"]["cpu_s"] = {k: round(cpu3[k] - cpu2.get(k, 0), 2) for k in cpu3}
        figures["with"]["api_waited_s"] = round(waited3 - waited2, 2)
        # Every stream ends by itself after its game's last event; a stuck one is reported.
        deadline = time.monotonic() + args.grace
        while not ours.poll(0.1) and time.monotonic() < deadline:
            await asyncio.sleep(0.1)
        if not ours.poll():
            ours.send("stop")
        _, followed, usage = await asyncio.to_thread(ours.recv)
        sampler.cancel()
        streams.join(10)
        after = await clients(redis)
        # The load alone once more: a machine shared with others drifts; compare with both.
        pids.pop("streams", None)
        await without("without_after", quiet_after)

    final = {g.id: g.final_seq for g in watched}
    every_event = [
        f
        for f in followed
        if f["status"] == 200
        and f["in_order"]
        and f["first"] == 1
        and f["last"] == final[f["game"]]
        and f["events"] == final[f["game"]]
        and f["last_type"] == "seed_revealed"
    ]
    figures.update(
        streams=len(plan),
        streams_every_event=len(every_event),
        streams_complete=sum(f["ended"] for f in every_event),
        events_delivered=sum(f["events"] for f in followed),
        delivery_ms=delivery(followed),
        streams_cpu_s=round(usage.ru_utime + usage.ru_stime, 2),
        valkey_clients={
            "before": before,
            "streams_open": opened_clients,
            "during_max": max(samples, default=0),
            "after": after,
        },
    )
    return figures


def delivery(followed: list[dict]) -> dict[str, float]:
    """How late the streams' events came: p50/p99/max from append to read, over a sample."""
    ms = [d * 1000 for f in followed for d in f["delays"]]
    if not ms:
        return {}
    return {
        "p50": round(percentile(ms, 50), 1),
        "p99": round(percentile(ms, 99), 1),
        "max": round(max(ms), 1),
        "sampled": len(ms),
    }


def describe(delivery: dict[str, float]) -> str:
    if not delivery:
        return "not timed"
    return f"p50 {delivery['p50']} ms, p99 {delivery['p99']} ms, max {delivery['max']} ms"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="bench.streams", description=__doc__)
    parser.add_argument("--streams", type=int, default=2000)
    parser.add_argument("--per-kind", type=int, default=4, help="games of each kind per phase")
    parser.add_argument("--rate", type=float, default=200, help="commands/s the load sends")
    parser.add_argument("--players", type=int, default=8, help="games played at once")
    parser.add_argument("--grace", type=float, default=20, help="s for streams to end")
    parser.add_argument(
        "--clients-cpu",
        type=int,
        default=None,
        help="the core the load and the streams' readers run on, the service on the others "
        "(default: the last core when there are two or more; -1: no pinning)",
    )
    args = parser.parse_args(argv)
    args.clients_cpus, service_cpus = split_cpus(args.clients_cpu)
    args.service_cpus = service_cpus
    if args.clients_cpus:
        os.sched_setaffinity(0, args.clients_cpus)
    limit = open_files()
    if limit < 2 * args.streams + 256:
        print(f"bench.streams: the open-file limit is {limit}; raise it", file=sys.stderr)
        return 2

    data = Path(tempfile.mkdtemp(prefix="danger-streams-"))
    valkey = EmbeddedValkey(data)
    valkey.start()
    streams = {
        "DANGER_STREAMS_PER_CLIENT": str(args.streams),
        "DANGER_STREAMS_MAX": str(max(args.streams, 5000)),
    }
    serve, url = start_serve(valkey.url, 1, settings=streams)
    redis = Redis.from_url(valkey.url)
    try:
        wait_healthy(f"{url}/health", serve)
        pids = {"valkey": [valkey.pid], "writer": writer_of(serve.pid)}
        groups = api_and_worker(serve.pid)  # the worker (projections, jobs) is left out
        pids["api"] = [p for p in groups["api"] if p not in pids["writer"]]
        if service_cpus:
            for pid in [*pids["api"], *pids["valkey"], *pids["writer"]]:
                os.sched_setaffinity(pid, service_cpus)
        figures = asyncio.run(run(args, url, redis, pids))
    finally:
        stop(serve)
        valkey.stop()
        shutil.rmtree(data, ignore_errors=True)

    without, with_, again = figures["without"], figures["with"], figures["without_after"]
    baseline_p99 = (without["p99_ms"] + again["p99_ms"]) / 2
    clients_ = figures["valkey_clients"]
    print(
        f"valkey connected_clients: before {clients_['before']}, streams open "
        f"{clients_['streams_open']}, during the load (max) {clients_['during_max']}, "
        f"after {clients_['after']}"
    )
    print(
        f"commands without streams: {without['per_s']}/s p50 {without['p50_ms']} ms "
        f"p99 {without['p99_ms']} ms | with {figures['streams']} streams: {with_['per_s']}/s "
        f"p50 {with_['p50_ms']} ms p99 {with_['p99_ms']} ms | without again: p50 "
        f"{again['p50_ms']} ms p99 {again['p99_ms']} ms | p99 with / without "
        f"{with_['p99_ms'] / baseline_p99:.2f}"
    )
    print(
        f"streams: {figures['streams_opened']} opened in {figures['open_seconds']} s; "
        f"{figures['streams_every_event']} of {figures['streams']} received every event of "
        f"their game once, in order, {figures['streams_complete']} of them then ended "
        f"(after seed_revealed); {figures['events_delivered']:,} events delivered, "
        f"from append to reader (sampled) {describe(figures['delivery_ms'])}"
    )
    print(
        f"CPU s without / with: api {without['cpu_s'].get('api')} / {with_['cpu_s'].get('api')}, "
        f"its stream writer {with_['cpu_s'].get('writer', 0)}, "
        f"valkey {without['cpu_s'].get('valkey')} / {with_['cpu_s'].get('valkey')}, "
        f"stream clients {figures['streams_cpu_s']}; the API waited for a core "
        f"{without['api_waited_s']} / {with_['api_waited_s']} / {again['api_waited_s']} s, "
        f"the service's cores were in interrupts {without['service_cores_irq_s']} / "
        f"{with_['service_cores_irq_s']} / {again['service_cores_irq_s']} s; "
        f"clients on cores {sorted(args.clients_cpus) if args.clients_cpus else 'shared'}"
    )
    figures["p99_ratio"] = round(with_["p99_ms"] / baseline_p99, 3)
    print(json.dumps(figures))
    ok = figures["streams_complete"] == figures["streams"] and not with_["errors"]
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
