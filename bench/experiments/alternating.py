"""What a game's commands cost when they reach two API processes in turn, as they do when
each seat's client has its own connection to `danger serve --workers N`, against one
process taking them all. Two `GameService`s on one embedded Valkey, in one process on
uvloop, play the recorded games (bench/record.py) one command at a time: seat n's commands
go to service n % 2, so the service a command reaches has usually not folded the command
before it. Each command is timed from the call to its answer, and the reads of the log it
made are counted (a fold brought current by its own read, rather than by the answer of the
append that refused it).

    .venv/bin/python -m bench.experiments.alternating [--per-kind 5] [--rounds 3]

Run it from a checkout of another revision, with this file's path, to compare the two:
`cd <tree> && .venv/bin/python /path/to/bench/experiments/alternating.py`. The last line
printed is one JSON object with every figure.
"""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import msgspec
import uvloop
from redis.asyncio import Redis

from bench import record
from domain.registry import GAMES
from events.store import EventStore
from service.infra.embedded import EmbeddedValkey
from service.play.games import GameService, SeatCommand
from service.wire.schemas import GameCommand


class Counted(EventStore):
    reads = 0

    async def read_raw(self, *args: Any, **kwargs: Any) -> list[bytes]:
        Counted.reads += 1
        return await super().read_raw(*args, **kwargs)


async def play(url: str, games: list[record.Recorded], services: int) -> dict[str, float]:
    redis = Redis.from_url(url)
    stores = [Counted(redis) for _ in range(services)]
    played = [GameService(store, True, None) for store in stores]
    decode = msgspec.json.Decoder(GameCommand).decode
    took: list[float] = []
    Counted.reads = 0
    for game in games:
        created = msgspec.json.decode(game.create)
        rules = GAMES[created["game"]]
        options = msgspec.convert(created["options"], rules.options_type)
        table, admin, _ = await played[0].create(rules.name, created["seats"], options)
        tokens = []
        for body in game.joins:
            joined = msgspec.json.decode(body)
            _, token = await played[0].join(table.id, joined["name"], joined["entropy"])
            tokens.append(token)
        await played[0].start(table.id, admin)
        for seat, body in game.steps:
            service = played[seat % services]
            began = time.perf_counter()
            await service.command(SeatCommand(table.id, tokens[seat], decode(body)))
            took.append(time.perf_counter() - began)
    await redis.aclose()
    took.sort()
    return {
        "commands": len(took),
        "p50_ms": round(took[len(took) // 2] * 1000, 3),
        "p99_ms": round(took[int(len(took) * 0.99)] * 1000, 3),
        "mean_ms": round(statistics.fmean(took) * 1000, 3),
        "reads_per_command": round(Counted.reads / len(took), 3),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="bench.experiments.alternating", description=__doc__)
    parser.add_argument("--per-kind", type=int, default=5, help="recorded games of each kind")
    parser.add_argument("--rounds", type=int, default=3, help="each arrangement, in turns")
    args = parser.parse_args(argv)
    games = record.recordings(args.per_kind)
    data = Path(tempfile.mkdtemp(prefix="danger-alternating-"))
    valkey = EmbeddedValkey(data)
    valkey.start()
    runs: dict[str, list[dict[str, float]]] = {"one": [], "two": []}
    try:
        uvloop.run(play(valkey.url, games, 2))  # a warm-up: the server's and our caches
        for turn in range(args.rounds):
            order = (("one", 1), ("two", 2))
            for name, services in order if turn % 2 == 0 else order[::-1]:
                figures = uvloop.run(play(valkey.url, games, services))
                runs[name].append(figures)
                print(f"{name} service(s): {figures}", flush=True)
    finally:
        valkey.stop()
        shutil.rmtree(data, ignore_errors=True)
    summary = {
        name: {k: statistics.median(r[k] for r in found) for k in found[0]}
        for name, found in runs.items()
    }
    print(
        f"median p50: one {summary['one']['p50_ms']} ms, two in turn {summary['two']['p50_ms']} "
        f"ms; reads a command {summary['one']['reads_per_command']} and "
        f"{summary['two']['reads_per_command']}",
        flush=True,
    )
    print(json.dumps({"runs": runs, "median": summary}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
