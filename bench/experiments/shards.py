"""What the number of shards costs the work that visits every shard: the worker's sweep (every
shard's due set), /health's projection lag and dead letters, a player's statistics (every
shard's players hash), a read of every feed (what a projection and the stream hub do after a
quiet spell) and a lobby page, with 16 and with 1,024 shards, on one embedded Valkey (and on a
loopback cluster of three masters with `--cluster`). 5,000 games filed, none due.

    .venv/bin/python -m bench.experiments.shards [--games 5000] [--repeat 20] [--cluster]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from events import keys
from events.cluster import read_streams
from events.store import EventStore
from service.infra.connections import open_store
from service.infra.embedded import EmbeddedValkey
from service.readmodels import dead_letters, lobby
from service.readmodels.projections import GROUPS, lag, player_results


async def timed(call: Callable[[], Awaitable[Any]], repeat: int) -> float:
    """The median of `repeat` calls, in ms."""
    spent = []
    for _ in range(repeat):
        began = time.perf_counter()
        await call()
        spent.append((time.perf_counter() - began) * 1000)
    return round(statistics.median(spent), 2)


async def measure(url: str, shards: int, games: int, repeat: int) -> dict[str, float]:
    keys.use_shards(shards)
    redis = await open_store(url, 16)
    await redis.flushall()  # every primary of a cluster
    store = EventStore(redis)
    ids = [f"g{n:06d}" for n in range(games)]
    later = int(time.time() * 1000) + 3_600_000
    pipe = redis.pipeline(transaction=False)
    for game_id in ids:
        pipe.zadd(keys.GameKeys(game_id).due, {game_id: later})
    await pipe.execute()
    summaries = [
        lobby.LobbyGame(g, "danger", "open", 2, ["a"], "2026-01-01T00:00:00.000Z", 1) for g in ids
    ]
    for first in range(0, games, 500):
        await lobby.write(redis, summaries[first : first + 500])
    feeds = [keys.feed(s) for s in keys.all_shards()]
    pipe = redis.pipeline(transaction=False)
    for feed in feeds:
        for group in GROUPS:
            pipe.xgroup_create(feed, group, id="0", mkstream=True)
    await pipe.execute()
    now = int(time.time() * 1000)
    out = {
        "sweep_due_games_ms": await timed(lambda: store.due_games(now, 500), repeat),
        "health_lag_ms": await timed(lambda: lag(redis), repeat),
        "health_dead_letters_ms": await timed(lambda: dead_letters.counts(redis, GROUPS), repeat),
        "player_statistics_ms": await timed(lambda: player_results(redis, "a"), repeat),
        "read_every_feed_ms": await timed(
            lambda: read_streams(redis, dict.fromkeys(feeds, ">"), 500, ("lobby", "c")), repeat
        ),
        "lobby_page_ms": await timed(lambda: lobby.list_games(redis, "open", None, 50), repeat),
    }
    await redis.aclose()
    return out


async def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=5000)
    parser.add_argument("--repeat", type=int, default=20)
    parser.add_argument("--cluster", action="store_true", help="also on a loopback cluster")
    args = parser.parse_args()
    results: dict[str, Any] = {}
    with tempfile.TemporaryDirectory() as data:
        server = EmbeddedValkey(Path(data), fsync="everysec")
        server.start()
        try:
            for shards in (16, 1024):
                results[f"standalone_{shards}"] = await measure(
                    server.url, shards, args.games, args.repeat
                )
        finally:
            server.stop()
    if args.cluster:
        from tests.cluster import LoopbackCluster

        with tempfile.TemporaryDirectory() as data:
            cluster = LoopbackCluster(Path(data)).start()
            try:
                for shards in (16, 1024):
                    results[f"cluster_{shards}"] = await measure(
                        cluster.url, shards, args.games, args.repeat
                    )
            finally:
                cluster.stop()
    for name, figures in results.items():
        print(name, figures)
    print(json.dumps(results))


if __name__ == "__main__":
    asyncio.run(main())
