"""`danger projections rebuild | dead-letters | clear-dead-letters`: the read models'
maintenance."""

from __future__ import annotations

import argparse
import sys

from service.cli.store import store_url
from service.infra.config import Settings


def projections(args: argparse.Namespace) -> int:
    """`danger projections rebuild`: build the read models again from the game streams, beside
    the live ones, and switch to them (safe while the service runs); `dead-letters`: list
    the feed entries the projections set aside, as JSON lines; `clear-dead-letters`: drop
    them."""
    with store_url(args, "projections") as redis_url:
        if redis_url is None:
            return 1
        return _run_projections(args, redis_url)


def _run_projections(args: argparse.Namespace, redis_url: str) -> int:
    import asyncio

    import msgspec

    from events.store import EventStore
    from service.infra import shards
    from service.infra.connections import open_store
    from service.infra.shards import ShardsRefused
    from service.readmodels import dead_letters
    from service.readmodels.projections import GROUPS
    from service.readmodels.rebuild import RebuildFailed, RebuildRunning, rebuild

    settings = Settings.from_env()

    async def run() -> str:
        redis = await open_store(redis_url, 8)
        try:
            await shards.establish(redis, settings.store.shards)
            if args.action == "rebuild":
                done = await rebuild(redis, EventStore(redis))
                return (
                    f"danger projections: rebuilt lobby, rounds and players from the streams "
                    f"of {done.games} games ({done.finished} over)"
                )
            if args.action == "dead-letters":
                for letter in await dead_letters.listing(redis, GROUPS):
                    print(msgspec.json.encode(letter).decode())
                return ""
            dropped = await dead_letters.clear(redis, GROUPS)
            return f"danger projections: dropped {dropped} dead letters"
        finally:
            await redis.aclose()

    try:
        said = asyncio.run(run())
    except (RebuildRunning, RebuildFailed) as exc:
        print(f"danger projections: {exc}; nothing was switched", file=sys.stderr)
        return 1
    except ShardsRefused as exc:
        print(f"danger projections: {exc}", file=sys.stderr)
        return 1
    if said:
        print(said)
    return 0


def add_parser(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser("projections", help="manage the read models")
    parser.add_argument(
        "action",
        choices=["rebuild", "dead-letters", "clear-dead-letters"],
        help="rebuild: the read models from the game streams, while the service runs; "
        "dead-letters: list the feed entries set aside (JSON lines); clear-dead-letters",
    )
    parser.add_argument("--redis-url", help="REDIS_URL")
    parser.add_argument("--data-dir", help="DANGER_DATA_DIR, for the embedded server")
    parser.set_defaults(run=projections)
