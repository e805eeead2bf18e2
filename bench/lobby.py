"""The lobby's cost as the number of games grows: GET /v1/games p50/p99 at 0, 10k and 200k
games, beside /health (the anchor: one PING and the projections' lag) in the same run.

The games are filed straight into the lobby's read model (as the projection files them), so
200k games take seconds to set up rather than an hour of creates. Each step asks the first
page of every status, a filtered page, and a deep page by cursor.

    .venv/bin/python -m bench.lobby [--sizes 0 10000 200000] [--requests 400]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import tempfile
import time
from pathlib import Path

import httpx
from redis.asyncio import Redis

from bench.run import percentile, start_serve, stop, wait_healthy
from domain.registry import GAMES
from service.infra.embedded import EmbeddedValkey
from service.readmodels import lobby


async def fill(url: str, have: int, want: int) -> None:
    """File games `have`..`want` in the lobby: kinds and statuses mixed, one a millisecond."""
    redis = Redis.from_url(url)
    kinds, statuses = list(GAMES), lobby.STATUSES
    start = 1_700_000_000_000
    for first in range(have, want, 1000):
        batch = []
        for n in range(first, min(first + 1000, want)):
            at = time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime((start + n) // 1000))
            batch.append(
                lobby.LobbyGame(
                    id=f"bench{n:07d}",
                    game=kinds[n % len(kinds)],
                    status=statuses[n % len(statuses)],  # type: ignore[arg-type]  # each a Status
                    seats=4,
                    players=["Ann", "Bob", "Cat", "Dan"],
                    created_at=f"{at}.{(start + n) % 1000:03d}Z",
                    seq=9,
                )
            )
        await lobby.write(redis, batch)
    await redis.aclose()


def timed(client: httpx.Client, path: str, params: dict, count: int) -> list[float]:
    out = []
    for _ in range(count):
        began = time.perf_counter()
        r = client.get(path, params=params)
        out.append((time.perf_counter() - began) * 1000)
        assert r.status_code == 200, r.text
    return out


def measure(base: str, requests: int) -> dict:
    with httpx.Client(base_url=base, timeout=10) as client:
        timed(client, "/v1/games", {}, 20)  # warm
        # Found afresh each time, as /health was before its snapshot: the same work to compare.
        anchor = timed(client, "/health", {"fresh": "true"}, requests)
        pages: list[float] = []
        per = max(requests // 6, 1)
        for status in (None, "open", "active", "finished"):
            pages += timed(client, "/v1/games", {"status": status} if status else {}, per)
        pages += timed(client, "/v1/games", {"status": "open", "game": "danger"}, per)
        first = client.get("/v1/games", params={"limit": 100}).json()
        deep = {"limit": 20, "cursor": first["next"]} if first["next"] else {}
        pages += timed(client, "/v1/games", deep, per)
        total = first["total"]
    return {
        "games": total,
        "lobby_p50_ms": round(percentile(pages, 50), 2),
        "lobby_p99_ms": round(percentile(pages, 99), 2),
        "health_p50_ms": round(percentile(anchor, 50), 2),
        "health_p99_ms": round(percentile(anchor, 99), 2),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--sizes", type=int, nargs="+", default=[0, 10_000, 200_000])
    parser.add_argument("--requests", type=int, default=600)
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as data:
        valkey = EmbeddedValkey(Path(data), fsync="everysec")
        valkey.start()
        # everysec fills the store fast; the service then serves it knowing it is weak
        serve, base = start_serve(valkey.url, 1, settings={"DANGER_DURABILITY": "weak"})
        rows = []
        try:
            wait_healthy(f"{base}/health", serve)
            have = 0
            for size in sorted(args.sizes):
                asyncio.run(fill(valkey.url, have, size))
                have = size
                row = measure(base, args.requests)
                rows.append(row)
                print(
                    f"{row['games']:>7} games: lobby p50 {row['lobby_p50_ms']} ms, "
                    f"p99 {row['lobby_p99_ms']} ms; /health p50 {row['health_p50_ms']} ms, "
                    f"p99 {row['health_p99_ms']} ms",
                    flush=True,
                )
        finally:
            stop(serve)
            valkey.stop()
    print(json.dumps({"lobby": rows}))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
