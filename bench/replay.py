"""Replay and audit speed over the finished games a load left in Redis, and the memory a
cached live game costs.

- from memory: the raw envelopes of every finished game are read once; then they are
  decoded and folded into the table and game state, as a cache miss does;
- from Redis: the same games loaded by the service (XRANGE, the secrets, decode, fold);
- audit: `events.audit.audit` over each finished game, by kind;
- memory: `bench.memory` in a fresh process loads N live games into the service's cache.
"""

from __future__ import annotations

import asyncio
import json
import statistics
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

import msgspec
from redis.asyncio import Redis

from events.audit import audit
from events.envelope import Envelope, canonical
from events.keys import GameKeys
from events.store import EventStore
from service.play.game_model import fold_log
from service.play.games import GameService
from service.readmodels.lobby import cursor_of, list_games, parse_cursor

ENVELOPE = msgspec.json.Decoder(Envelope)


Log = tuple[list[bytes], dict[str, str]]


async def finished_games(redis: Redis, store: EventStore) -> dict[str, Log]:
    """Every finished game's raw envelopes, as the stream holds them, and its secrets."""
    ids, cursor = [], None
    while True:
        page, _ = await list_games(redis, "finished", None, limit=100, cursor=cursor)
        ids += [entry.id for entry in page]
        if len(page) < 100:
            break
        cursor = parse_cursor(cursor_of(page[-1]))
    return {g: (await store.read_raw(g), await store.secrets(g)) for g in ids}


def fold_all(games: dict[str, Log]) -> int:
    """Fold every game from its raw envelopes as a load does; the number of events."""
    events = 0
    for game_id, (raw, secret) in games.items():
        events += fold_log(game_id, raw, secret).seq
    return events


async def load_all(service: GameService, ids: list[str]) -> int:
    events = 0
    for game_id in ids:
        game = await service.replay(game_id, upto=2**62)
        events += game.seq
    return events


async def copy_live(redis: Redis, games: dict[str, list[bytes]], count: int) -> list[str]:
    """`count` live games: the first half of finished games, copied under new ids."""
    templates = [(source, raw) for source, (raw, _) in games.items()]
    secrets = {source: secret for source, (_, secret) in games.items()}
    ids = []
    pipe = redis.pipeline(transaction=False)
    for n in range(count):
        source, raw = templates[n % len(templates)]
        game_id = f"bench{n:06d}x{source[:4]}"
        keys = GameKeys(game_id)
        half = raw[: max(len(raw) // 2, 8)]
        for line in half:
            envelope = msgspec.structs.replace(ENVELOPE.decode(line), game=game_id)
            pipe.xadd(keys.stream, {"e": canonical(envelope)}, id=f"0-{envelope.seq}")
        pipe.hset(keys.secrets, mapping=secrets[source])
        ids.append(game_id)
        if len(pipe) > 2000:
            await pipe.execute()
    await pipe.execute()
    return ids


def memory(redis_url: str, ids: list[str]) -> dict[str, Any]:
    with tempfile.NamedTemporaryFile("w", suffix=".ids", delete=False) as handle:
        handle.write("\n".join(ids))
    done = subprocess.run(
        [sys.executable, "-m", "bench.memory", redis_url, handle.name],
        capture_output=True,
        text=True,
        check=True,
    )
    Path(handle.name).unlink()
    return json.loads(done.stdout.strip().splitlines()[-1])


async def _measure(redis_url: str, cached: int) -> dict[str, Any]:
    redis = Redis.from_url(redis_url)
    store = EventStore(redis)
    games = await finished_games(redis, store)
    if not games:
        raise RuntimeError("no finished games to replay")

    service = GameService(store, True, None)
    began = time.perf_counter()
    events = fold_all(games)
    from_memory = events / (time.perf_counter() - began)

    began = time.perf_counter()
    events_redis = await load_all(service, list(games))
    from_redis = events_redis / (time.perf_counter() - began)

    audits: dict[str, list[float]] = defaultdict(list)
    for game_id in games:
        envelopes = await store.read(game_id)
        began = time.perf_counter()
        report = audit(envelopes)
        audits[envelopes[0].data["game"]].append((time.perf_counter() - began) * 1000)
        if not report.ok:
            raise RuntimeError(f"audit failed for {game_id}: {report}")

    ids = await copy_live(redis, games, cached)
    await redis.aclose()
    held = memory(redis_url, ids)
    return {
        "replay_games": len(games),
        "replay_events": events,
        "replay_events_per_s_memory": round(from_memory),
        "replay_events_per_s_redis": round(from_redis),
        "audit_ms": {kind: round(statistics.fmean(ms), 2) for kind, ms in sorted(audits.items())},
        "audit_events_per_s": round(
            sum(len(raw) for raw, _ in games.values()) / (sum(map(sum, audits.values())) / 1000)
        ),
        "cached_games": held["games"],
        "bytes_per_cached_game": held["bytes_per_cached_game"],
    }


def measure_replay(redis_url: str, cached: int) -> dict[str, Any]:
    return asyncio.run(_measure(redis_url, cached))
