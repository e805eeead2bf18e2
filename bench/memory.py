"""Run in a fresh process: the resident memory the service's cache takes per game.

python -m bench.memory REDIS_URL FILE_OF_GAME_IDS
"""

from __future__ import annotations

import asyncio
import gc
import json
import os
import sys
from pathlib import Path

from redis.asyncio import Redis

from events.store import EventStore
from service.play.games import GameService

GAMES = 10_000  # games folded at most


def rss() -> int:
    pages = int(Path("/proc/self/statm").read_text().split()[1])
    return pages * os.sysconf("SC_PAGE_SIZE")


async def main(redis_url: str, ids: list[str]) -> None:
    redis = Redis.from_url(redis_url)
    service = GameService(EventStore(redis), True, None, cache_bytes=2**40)
    await service.get(ids[0])  # codecs, imports and connections are not the games' cost
    service.repository.cache.clear()
    gc.collect()
    before = rss()
    for game_id in ids[:GAMES]:
        await service.get(game_id)
    gc.collect()
    after = rss()
    held = len(service.repository.cache)
    print(
        json.dumps(
            {
                "games": held,
                "bytes_per_cached_game": round((after - before) / held),
                # What the cache's own measure (DANGER_CACHE_MB) counts, beside the RSS.
                "measured_bytes_per_game": round(service.repository.cache.bytes / held),
            }
        )
    )
    await redis.aclose()


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], Path(sys.argv[2]).read_text().split()))
