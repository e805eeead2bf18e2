"""Replay's speed alone, for comparing two builds or two checkouts side by side.

Plays the recorded games (`bench.record`, 10 of each kind) through the service in-process on
an embedded Valkey, then folds them: from memory (`fold_all` over the stored bytes, as a
cache miss does once they are read) and from Redis (`GameService.replay`: XRANGE, the
secrets, decode, fold), each the best of several passes. Prints one JSON line.

    .venv/bin/python -m bench.replay_speed [--passes 7] [--per-kind 10]

It runs the build this checkout imports, and says which: compiled (`make compiled`) or the
Python modules (`make pure`); docs/performance.md, "Compiled rules".
"""

from __future__ import annotations

import argparse
import asyncio
import json
import shutil
import tempfile
import time
from pathlib import Path

from bench import record
from bench.profile import _finished_games
from bench.replay import fold_all, load_all
from events.store import EventStore
from service.infra.embedded import EmbeddedValkey
from service.play.games import GameService


async def _from_redis(url: str, ids: list[str], passes: int) -> float:
    from redis.asyncio import Redis

    redis = Redis.from_url(url)
    service = GameService(EventStore(redis), True, None)
    best = 0.0
    for _ in range(passes):
        began = time.perf_counter()
        events = await load_all(service, ids)
        best = max(best, events / (time.perf_counter() - began))
    await redis.aclose()
    return best


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="bench.replay_speed", description=__doc__)
    parser.add_argument("--passes", type=int, default=7)
    parser.add_argument("--per-kind", type=int, default=10)
    args = parser.parse_args(argv)
    import domain.kernel.table as compiled_probe

    data = Path(tempfile.mkdtemp(prefix="danger-replay-"))
    valkey = EmbeddedValkey(data)
    valkey.start()
    try:
        logs = asyncio.run(_finished_games(valkey.url, record.recordings(args.per_kind)))
        memory, events = 0.0, 0
        for _ in range(args.passes):
            began = time.process_time()  # CPU time: the machine is shared
            events = fold_all(logs)
            memory = max(memory, events / (time.process_time() - began))
        redis = asyncio.run(_from_redis(valkey.url, list(logs), max(2, args.passes // 2)))
    finally:
        valkey.stop()
        shutil.rmtree(data, ignore_errors=True)
    print(
        json.dumps(
            {
                "games": len(logs),
                "events": events,
                "memory_events_per_s": round(memory),
                "redis_events_per_s": round(redis),
                "compiled": not compiled_probe.__file__.endswith(".py"),
            }
        )
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
