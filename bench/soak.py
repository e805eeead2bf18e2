"""Soak: a mixed load on one `danger serve` process for minutes, and its memory over time.

    .venv/bin/python -m bench.soak [--minutes 10] [--every 30] [--rate 100]

The load, all at once, on its own embedded Valkey: recorded games created, joined, started
and played to the end over and over (`--players` at a time, `--rate` commands/s in all);
all-bot games with turn clocks that the worker plays to the end; SSE streams following
some of the games; lobby pages, game views and audits of finished games read. Every
`--every` seconds it prints the API process's resident memory and Valkey's memory by kind
of key: what every played game keeps by design (`games`: its log, secrets, kept audit,
idempotency records; `read_models`: its lobby entry, rounds index, players' results) grows
with the games played; the rest (feeds, the job queue and its jobs, due sets, rate buckets,
anything else) must stay flat after warm-up, and so must the process's memory once its
cache of folded games is full: the service runs with a small cache (`--cache-mb`, 4) so
that it fills within the warm-up. The last line is JSON with every sample. Loopback only.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import re
import shutil
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
from redis.asyncio import Redis

from bench import record
from bench.run import start_serve, stop, wait_healthy
from bench.streams import Game, play, set_up
from service.infra.embedded import EmbeddedValkey

JSON = {"Content-Type": "application/json"}
KINDS = [  # (pattern of a key, kind); the first that matches names the key's kind
    (re.compile(r":(game|secrets|audit|idem):"), "games"),
    (re.compile(r"\{lobby\}|:rounds:|:players$"), "read_models"),
    (re.compile(r":feed$"), "feeds"),
    (re.compile(r"^arq:|^dg:timers"), "jobs"),
    (re.compile(r":due$"), "due"),
]


def rss_mb(pid: int) -> float:
    pages = int(Path(f"/proc/{pid}/statm").read_text().split()[1])
    return round(pages * os.sysconf("SC_PAGE_SIZE") / 2**20, 1)


async def valkey_by_kind(redis: Redis) -> dict[str, float]:
    """MiB of Valkey's memory by kind of key (MEMORY USAGE of each), and its total."""
    sizes: dict[str, int] = {}
    batch: list[bytes] = []

    async def weigh() -> None:
        pipe = redis.pipeline(transaction=False)
        for key in batch:
            pipe.memory_usage(key, samples=0)
        for key, size in zip(batch, await pipe.execute(), strict=True):
            name = key.decode()
            kind = next((k for pattern, k in KINDS if pattern.search(name)), "other")
            sizes[kind] = sizes.get(kind, 0) + (size or 0)
        batch.clear()

    async for key in redis.scan_iter(count=1000):
        batch.append(key)
        if len(batch) >= 500:
            await weigh()
    await weigh()
    info = await redis.info("memory")
    out = {kind: round(size / 2**20, 2) for kind, size in sorted(sizes.items())}
    out["used"] = round(int(info["used_memory"]) / 2**20, 2)
    return out


async def recorded_games(http: httpx.AsyncClient, args: argparse.Namespace, stats: dict) -> None:
    recordings = record.recordings(args.per_kind)
    while True:
        games = [Game(r) for r in recordings]
        await set_up(http, games)
        stats["watched"].extend(g.id for g in games[:2])
        figures = await play(http, games, args.players, args.rate)
        stats["commands"] += figures["commands"]
        stats["errors"] += figures["errors"]
        stats["finished"].extend(g.id for g in games)


async def bot_games(http: httpx.AsyncClient, stats: dict) -> None:
    """A table of bots with turn clocks every few seconds: the worker plays it to the end."""
    while True:
        r = await http.post(
            "/v1/games",
            json={"game": "danger", "seats": 3, "options": {"turn_seconds": 5}},
        )
        game_id = r.json()["id"]
        for n in range(3):
            await http.post(
                f"/v1/games/{game_id}/players",
                json={"name": f"bot{n}", "bot": "greedy", "think_ms": 20},
            )
        admin = {"Authorization": f"Bearer {r.json()['admin_token']}"}
        await http.post(f"/v1/games/{game_id}/start", headers=admin)
        stats["bot_games"] += 1
        await asyncio.sleep(3)


async def readers(http: httpx.AsyncClient, stats: dict) -> None:
    """Lobby pages, views, audits of finished games, and a stream on a watched game."""
    turn = 0
    while True:
        turn += 1
        await http.get("/v1/games", params={"status": "active"})
        if stats["finished"]:
            game_id = stats["finished"][turn % len(stats["finished"])]
            await http.get(f"/v1/games/{game_id}")
            if turn % 5 == 0:
                await http.get(f"/v1/games/{game_id}/audit")
        if stats["watched"] and turn % 10 == 0:
            game_id = stats["watched"].pop(0)
            stats["streams"].append(asyncio.create_task(follow(http, game_id)))
        await asyncio.sleep(0.2)


async def follow(http: httpx.AsyncClient, game_id: str) -> None:
    with contextlib.suppress(httpx.HTTPError):
        async with http.stream("GET", f"/v1/games/{game_id}/stream", timeout=None) as r:
            async for _ in r.aiter_raw():
                pass


async def run(args: argparse.Namespace, url: str, redis: Redis, api_pid: int) -> dict:
    stats: dict[str, Any] = {
        "commands": 0,
        "errors": 0,
        "bot_games": 0,
        "finished": [],
        "watched": [],
        "streams": [],
    }
    samples: list[dict[str, Any]] = []
    limits = httpx.Limits(max_connections=args.players + 40)
    async with httpx.AsyncClient(base_url=url, limits=limits, timeout=60) as http:
        load = [
            asyncio.create_task(recorded_games(http, args, stats)),
            asyncio.create_task(bot_games(http, stats)),
            asyncio.create_task(readers(http, stats)),
        ]
        began = time.monotonic()
        try:
            while True:
                elapsed = time.monotonic() - began
                keys = int((await redis.info("keyspace")).get("db0", {}).get("keys", 0))
                valkey = await valkey_by_kind(redis)
                sample = {
                    "s": round(elapsed),
                    "commands": stats["commands"],
                    "games_finished": len(stats["finished"]),
                    "bot_games": stats["bot_games"],
                    "keys": keys,
                    "api_rss_mb": rss_mb(api_pid),
                    "valkey_mb": valkey,
                }
                samples.append(sample)
                print(json.dumps(sample), flush=True)
                if elapsed >= args.minutes * 60:
                    break
                await asyncio.sleep(args.every)
        finally:
            for task in load + stats["streams"]:
                task.cancel()
            await asyncio.gather(*load, *stats["streams"], return_exceptions=True)
    return {"errors": stats["errors"], "samples": samples}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="bench.soak", description=__doc__)
    parser.add_argument("--minutes", type=float, default=10)
    parser.add_argument("--every", type=float, default=30, help="seconds between samples")
    parser.add_argument("--rate", type=float, default=100, help="commands/s of recorded games")
    parser.add_argument("--players", type=int, default=8, help="recorded games played at once")
    parser.add_argument("--per-kind", type=int, default=2, help="recorded games of each kind")
    parser.add_argument("--cache-mb", type=int, default=4, help="the service's DANGER_CACHE_MB")
    args = parser.parse_args(argv)

    data = Path(tempfile.mkdtemp(prefix="danger-soak-"))
    valkey = EmbeddedValkey(data)
    valkey.start()
    serve, url = start_serve(valkey.url, 1, settings={"DANGER_CACHE_MB": str(args.cache_mb)})
    redis = Redis.from_url(valkey.url)
    try:
        wait_healthy(f"{url}/health", serve)
        figures = asyncio.run(run(args, url, redis, serve.pid))
    finally:
        stop(serve)
        valkey.stop()
        shutil.rmtree(data, ignore_errors=True)
    samples = figures["samples"]
    first, last = samples[1 if len(samples) > 2 else 0], samples[-1]
    print(
        f"after warm-up ({first['s']} s) and at the end ({last['s']} s): API RSS "
        f"{first['api_rss_mb']} / {last['api_rss_mb']} MiB; Valkey used "
        f"{first['valkey_mb']['used']} / {last['valkey_mb']['used']} MiB; games finished "
        f"{first['games_finished']} / {last['games_finished']}; errors {figures['errors']}"
    )
    print(json.dumps(figures))
    return 0 if not figures["errors"] else 1


if __name__ == "__main__":
    sys.exit(main())
