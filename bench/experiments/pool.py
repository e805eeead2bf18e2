"""The client's CPU a command costs through redis-py's blocking pool and through the service's
(service/infra/connections.py, `BoundedPool`), in turns, in one process on uvloop: 16 tasks each
sending GETs to an embedded Valkey through one pool of 64 connections, as a busy API process
does. Valkey runs on the other core, so the client is busy throughout and its CPU is the
pool's and redis-py's, not the machine's spread between two runs.

    .venv/bin/python -m bench.experiments.pool [--rounds 6] [--tasks 16] [--commands 1500]

The last line printed is one JSON object with every figure.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

import uvloop
from redis.asyncio import BlockingConnectionPool, Redis

from service.infra.connections import POOL_WAIT_SECONDS, BoundedPool
from service.infra.embedded import EmbeddedValkey

POOLS = {"redis-py": BlockingConnectionPool, "bounded": BoundedPool}


async def per_command(pool_class: type, url: str, tasks: int, commands: int) -> float:
    """Microseconds of this process's CPU a GET, after a warm-up pass."""
    pool = pool_class.from_url(url, max_connections=64, timeout=POOL_WAIT_SECONDS)
    client = Redis(connection_pool=pool)
    await client.set("bench:pool", "x")

    async def one() -> None:
        for _ in range(commands):
            await client.get("bench:pool")

    await asyncio.gather(*(one() for _ in range(tasks)))
    began = time.process_time()
    await asyncio.gather(*(one() for _ in range(tasks)))
    used = time.process_time() - began
    await client.aclose()
    await pool.disconnect()
    return 1e6 * used / (tasks * commands)


async def measure(args: argparse.Namespace) -> dict[str, list[float]]:
    data = Path(tempfile.mkdtemp(prefix="danger-pool-"))
    valkey = EmbeddedValkey(data)
    valkey.start()
    figures: dict[str, list[float]] = {name: [] for name in POOLS}
    try:
        for _ in range(args.rounds):
            for name, pool_class in POOLS.items():
                us = await per_command(pool_class, valkey.url, args.tasks, args.commands)
                figures[name].append(round(us, 1))
                print(f"{name}: {us:.1f} µs of client CPU a GET", flush=True)
    finally:
        valkey.stop()
        shutil.rmtree(data, ignore_errors=True)
    return figures


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="bench.experiments.pool", description=__doc__)
    parser.add_argument("--rounds", type=int, default=6)
    parser.add_argument("--tasks", type=int, default=16)
    parser.add_argument("--commands", type=int, default=1500, help="GETs per task and pass")
    args = parser.parse_args(argv)
    figures = uvloop.run(measure(args))
    medians = {name: statistics.median(values) for name, values in figures.items()}
    print(", ".join(f"{name}: median {us:.1f} µs" for name, us in medians.items()))
    print(json.dumps({"us_per_get": figures, "median_us": medians}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
