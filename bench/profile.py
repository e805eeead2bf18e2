"""Where the time goes, for docs/performance.md.

- the command path: py-spy samples the processes of `danger serve` (its API processes and
  their worker) while wrk replays the recorded games, and each sample of an API process is
  put under the innermost part of the path it is in; each process's share follows;
  bench/out/profile.txt keeps py-spy's raw stacks;
- `--replay`: cProfile over folding finished games from their stored envelopes in memory,
  the functions that take the time.

    .venv/bin/python -m bench.profile [--duration 15] [--replay]
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tempfile
from collections import Counter
from pathlib import Path

from bench import record
from bench.run import OUT, start_serve, stop, wait_healthy, wrk
from service.infra.embedded import EmbeddedValkey

RATE = 100  # samples per second

# (part, a frame name that marks it), innermost first: a sample counts for the first part
# whose frame it is in, looking from its innermost frame out.
PARTS = [
    ("decide (the game's rules)", "decide"),
    ("seal (canonical JSON, SHA-256, salts)", "seal_all"),
    ("fold the new events", "Game.fold"),
    ("view for the caller", "view (service/play/write_path.py"),
    ("append: redis-py and the Lua call", "EventStore.append"),
    ("authenticate", "Access.role"),
    ("rest of the command path", "WritePath.execute"),
    ("rest of the command path", "GameService.command"),
    ("projections", "Projection."),
    ("arq worker (timers, bots)", "Worker."),
    ("the request's log line and metrics", "_record (service/http/observe.py"),
    # The answer's write, and Litestar's route (creates, joins, starts), inside the route.
    ("Litestar and uvicorn: parse, route, encode, send", "RequestResponseCycle.send"),
    ("Litestar and uvicorn: parse, route, encode, send", "Litestar.__call__"),
    ("the command route: headers, body, limit, answer", "CommandRoute."),
    ("Litestar and uvicorn: parse, route, encode, send", "RequestResponseCycle.run_asgi"),
    ("Litestar and uvicorn: parse, route, encode, send", "HttpToolsProtocol"),
]


def part_of(stack: list[str]) -> str:
    for frame in reversed(stack):
        for part, marker in PARTS:
            if marker in frame:
                return part
    return "event loop, Redis replies, other"


def _queue_wait() -> str:
    """The frame of the log writer's thread waiting for records (service/infra/logs.py)."""
    source = (Path(__file__).resolve().parent.parent / "service" / "infra" / "logs.py").read_text()
    line = next(n for n, text in enumerate(source.splitlines(), 1) if "self.records.get()]" in text)
    return f"Writer._run (service/infra/logs.py:{line})"


QUEUE_WAIT = _queue_wait()


def _waiting(frames: list[str]) -> bool:
    """The log writer's thread blocked on its queue: py-spy takes that wait (a lock acquired
    in C) for running, though it uses no CPU."""
    return frames[-1] == QUEUE_WAIT


def _process(frames: list[str]) -> str:
    return next((f for f in reversed(frames) if f.startswith("process ")), "?")


def roles_of(raw: Path) -> dict[str, str]:
    """What each sampled process runs: the requests, or the projections and jobs."""
    roles: dict[str, str] = {}
    for line in raw.read_text().splitlines():
        frames = line.rpartition(" ")[0].split(";")
        process = _process(frames)
        if any("RequestResponseCycle" in f or "HttpToolsProtocol" in f for f in frames):
            roles[process] = "API"
        elif process not in roles and any("Projection." in f or "Worker." in f for f in frames):
            roles[process] = "projections and worker"
    return roles


def by_process(raw: Path, requests: int) -> list[tuple[str, str, float, float]]:
    """With --subprocesses py-spy roots each stack at its process: (process, whether it
    serves requests or runs the worker, share of samples, CPU ms per request)."""
    counts: Counter[str] = Counter()
    for line in raw.read_text().splitlines():
        stack, _, n = line.rpartition(" ")
        frames = stack.split(";")
        if not _waiting(frames):
            counts[_process(frames)] += int(n)
    roles = roles_of(raw)
    total, requests = sum(counts.values()), max(1, requests)
    return [
        (name.split(" (")[0], roles.get(name, "other"), n / total, n / RATE * 1000 / requests)
        for name, n in counts.most_common()
    ]


def summarise(raw: Path, requests: int) -> list[tuple[str, float, float]]:
    """(part, share of the API processes' samples, CPU ms per request)."""
    api = {p for p, role in roles_of(raw).items() if role == "API"}
    counts: Counter[str] = Counter()
    for line in raw.read_text().splitlines():
        stack, _, n = line.rpartition(" ")
        frames = stack.split(";")
        if not _waiting(frames) and _process(frames) in api:
            counts[part_of(frames)] += int(n)
    total = sum(counts.values())
    return [
        (part, n / total, n / RATE * 1000 / max(1, requests)) for part, n in counts.most_common()
    ]


async def _finished_games(redis_url: str, games: list[record.Recorded]) -> dict:
    """Play the recorded games through the service in-process; their logs and secrets."""
    import msgspec
    from redis.asyncio import Redis

    from bench.replay import finished_games
    from domain.registry import GAMES
    from events.store import EventStore
    from service.play.games import GameService, SeatCommand
    from service.readmodels.lobby import LobbyProjection
    from service.wire.schemas import GameCommand

    redis = Redis.from_url(redis_url)
    store = EventStore(redis)
    service = GameService(store, True, None)
    command = msgspec.json.Decoder(GameCommand).decode
    for game in games:
        created = msgspec.json.decode(game.create)
        rules = GAMES[created["game"]]
        options = msgspec.convert(created["options"], rules.options_type)
        table, admin, _ = await service.create(rules.name, created["seats"], options)
        tokens = []
        for body in game.joins:
            joined = msgspec.json.decode(body)
            _, token = await service.join(table.id, joined["name"], joined["entropy"])
            tokens.append(token)
        await service.start(table.id, admin)
        for seat, body in game.steps:
            await service.command(SeatCommand(table.id, tokens[seat], command(body)))
    await LobbyProjection(redis, store).catch_up()
    logs = await finished_games(redis, store)
    await redis.aclose()
    return logs


def profile_replay(per_kind: int) -> int:
    import asyncio
    import cProfile
    import pstats

    from bench.replay import fold_all

    data = Path(tempfile.mkdtemp(prefix="danger-profile-"))
    valkey = EmbeddedValkey(data)
    valkey.start()
    try:
        logs = asyncio.run(_finished_games(valkey.url, record.recordings(per_kind)))
    finally:
        valkey.stop()
        shutil.rmtree(data, ignore_errors=True)
    profiler = cProfile.Profile()
    profiler.enable()
    events = fold_all(logs)
    profiler.disable()
    print(f"{len(logs)} games, {events} events folded under cProfile")
    stats = pstats.Stats(profiler)
    stats.sort_stats("tottime").print_stats(12)
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="bench.profile", description=__doc__)
    parser.add_argument("--duration", type=int, default=15)
    parser.add_argument("--connections", type=int, default=16)
    parser.add_argument("--replay", action="store_true", help="profile replay instead")
    parser.add_argument(
        "--processes",
        type=int,
        default=1,
        help="API processes (with more than one, every process of `danger serve` is sampled "
        "and each one's share printed)",
    )
    args = parser.parse_args(argv)
    if args.replay:
        return profile_replay(10)
    spy = shutil.which("py-spy") or str(Path(sys.executable).parent / "py-spy")
    if not Path(spy).exists():
        print("bench.profile: py-spy is missing (pip install py-spy)", file=sys.stderr)
        return 2
    record.write(OUT / "games.lua", 10)
    data = Path(tempfile.mkdtemp(prefix="danger-profile-"))
    valkey = EmbeddedValkey(data)
    valkey.start()
    serve, url = start_serve(valkey.url, args.processes)
    raw = OUT / "profile.txt"
    env = {"BENCH_GAMES": str(OUT / "games.lua")}
    try:
        wait_healthy(f"{url}/health", serve)
        wrk("game.lua", url, args.connections, 3, env)
        spying = subprocess.Popen(
            [
                spy,
                "record",
                "--pid",
                str(serve.pid),
                "--rate",
                str(RATE),
                "--duration",
                str(args.duration),
                "--format",
                "raw",
                "--subprocesses",  # the API processes are children of `danger serve`
                "--output",
                str(raw),
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        figures = wrk("game.lua", url, args.connections, args.duration, env)
        spying.wait(timeout=60)
    finally:
        stop(serve)
        valkey.stop()
        shutil.rmtree(data, ignore_errors=True)
    print(f"{figures['per_s']} commands/s, p50 {figures['p50_ms']} ms, p99 {figures['p99_ms']} ms")
    print("| part | share of the API process's samples | CPU ms per command |")
    print("| --- | --- | --- |")
    for part, share, ms in summarise(raw, figures["requests"]):
        print(f"| {part} | {share:.1%} | {ms:.3f} |")
    print("| process | what it runs | share of all samples | CPU ms per command |")
    print("| --- | --- | --- | --- |")
    for process, role, share, ms in by_process(raw, figures["requests"]):
        print(f"| {process} | {role} | {share:.1%} | {ms:.3f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
