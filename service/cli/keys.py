"""`danger keys create | list | revoke`: the app keys (DANGER_AUTH=keys); `danger keys
webhook ...`: their webhooks (service/cli/webhooks.py).

It works on the store of the running service only, never on one started for itself: a key
written to any other store (a `.data` of the directory it was run in) is one the service
refuses.
"""

from __future__ import annotations

import argparse
import sys

from service.cli.store import running_store_url


def keys(args: argparse.Namespace) -> int:
    """`danger keys create NAME [--rate KIND=N/S ...]`: a new app key, shown once; `list`:
    every key, without its secret; `revoke ID`: the key stops working at once."""
    import asyncio
    from datetime import UTC, datetime

    from service.http.guards import app_keys
    from service.infra.clock import stamp
    from service.infra.connections import open_store

    def when(ms: int | None) -> str:
        return stamp(datetime.fromtimestamp(ms / 1000, UTC)) if ms else "-"

    try:
        rates = app_keys.parse_rates(args.rate or [])
    except ValueError as exc:
        print(f"danger keys: {exc}", file=sys.stderr)
        return 2

    async def run(redis_url: str) -> int:
        redis = await open_store(redis_url, 4)
        try:
            if args.action == "webhook":
                from service.cli.webhooks import webhook

                return await webhook(args, redis)
            if args.action == "create":
                try:
                    key, token = await app_keys.create(redis, args.arg, rates)
                except ValueError as exc:
                    print(f"danger keys create: {exc}", file=sys.stderr)
                    return 2
                print(f"id:    {key.id}\nname:  {key.name}\nkey:   {token}")
                print("Keep the key now: only its hash is stored, it cannot be shown again.")
                return 0
            if args.action == "list":
                print(f"{'id':13} {'created':26} {'revoked':26} name")
                for key in await app_keys.listing(redis):
                    print(
                        f"{key.id:13} {when(key.created_ms):26} {when(key.revoked_ms):26} "
                        f"{key.name}{app_keys.rates_note(key)}"
                    )
                return 0
            if not args.arg or not await app_keys.revoke(redis, args.arg):
                print(f"danger keys revoke: no key {args.arg!r}", file=sys.stderr)
                return 1
            print(f"revoked {args.arg}: it is refused from now on")
            return 0
        finally:
            await redis.aclose()

    if args.action == "create" and not args.arg:
        print("danger keys create: give the key a NAME", file=sys.stderr)
        return 2
    redis_url = running_store_url(args, "keys")
    if redis_url is None:
        return 2
    return asyncio.run(run(redis_url))


def add_parser(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser("keys", help="manage the app keys (DANGER_AUTH=keys)")
    parser.add_argument("action", choices=["create", "list", "revoke", "webhook"])
    parser.add_argument(
        "arg",
        nargs="?",
        help="create: the key's NAME; revoke: its ID; webhook: add, list, remove, rotate, "
        "pause or resume",
    )
    parser.add_argument(
        "rest", nargs="*", help="webhook: the key's ID, then the URL (add) or the webhook's ID"
    )
    parser.add_argument("--events", action="append", help="webhook add: event types, by commas")
    parser.add_argument(
        "--games", action="append", help="webhook add: kinds of game (default: every)"
    )
    parser.add_argument(
        "--rate",
        action="append",
        metavar="KIND=N/S",
        help="create: this key's own limit on a kind of request (create, join, register), "
        "e.g. create=200/60 or join=off; repeat for more kinds (a key is read on those alone)",
    )
    parser.add_argument("--redis-url", help="REDIS_URL")
    parser.add_argument(
        "--data-dir", help="DANGER_DATA_DIR, of the running service's embedded server"
    )
    parser.set_defaults(run=keys)
