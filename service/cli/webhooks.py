"""`danger keys webhook add KEY URL --events ... [--games ...] | list KEY | remove KEY ID |
rotate KEY ID | pause KEY ID | resume KEY ID`: an app key's webhooks, as its holder manages
them over the API (docs/webhooks.md), for the operator."""

from __future__ import annotations

import argparse
import sys
import time
from typing import Any

import msgspec

from service.play import webhook_deliveries, webhooks

ACTIONS = ("add", "list", "remove", "rotate", "pause", "resume")


def _words(values: list[str] | None) -> list[str]:
    return [w for value in values or [] for w in value.replace(",", " ").split()]


async def webhook(args: argparse.Namespace, redis: Any) -> int:
    """What `danger keys webhook ...` does, on the running service's store; its exit code."""
    from service.http.guards import app_keys
    from service.infra.config import Settings
    from service.jobs import webhook_targets

    action, rest = args.arg, args.rest or []
    if action not in ACTIONS or not rest:
        print(f"danger keys webhook: {' | '.join(ACTIONS)} KEY ...", file=sys.stderr)
        return 2
    key_id = rest[0]
    if key_id not in {k.id for k in await app_keys.listing(redis)}:
        print(f"danger keys webhook: no app key {key_id!r}", file=sys.stderr)
        return 1
    now_ms = int(time.time() * 1000)
    settings = Settings.from_env().webhooks
    if action == "list":
        for e in await webhooks.of_key(redis, key_id):
            state = f"paused: {e.paused}" if e.paused else "active"
            kinds = ",".join(e.games) or "every kind"
            print(f"{e.id}  {e.url}  {','.join(e.events)}  {kinds}  {state}")
        return 0
    if action == "add":
        events = _words(args.events)
        unknown = [e for e in events if e not in webhooks.EVENT_TYPES]
        if len(rest) != 2 or not events or unknown:
            print(
                "danger keys webhook add KEY URL --events TYPE,... (of "
                f"{', '.join(webhooks.EVENT_TYPES)}){f'; unknown: {unknown}' if unknown else ''}",
                file=sys.stderr,
            )
            return 2
        try:
            await webhook_targets.resolve(rest[1], settings.private)
        except webhook_targets.Refused as exc:
            print(f"danger keys webhook add: {exc}", file=sys.stderr)
            return 1
        try:
            made = await webhooks.add(
                redis, key_id, rest[1], events, _words(args.games), now_ms, settings.per_key
            )
        except webhooks.TooMany as exc:
            print(f"danger keys webhook add: {exc}", file=sys.stderr)
            return 1
        print(f"id:      {made.id}\nsecret:  {made.secrets[0].value}")
        print("Keep the secret now: receivers check each delivery's signature with it.")
        return 0
    endpoint = await webhooks.get(redis, rest[1]) if len(rest) == 2 else None
    if endpoint is None or endpoint.key != key_id:
        print(f"danger keys webhook {action}: the key has no webhook {rest[1:]!r}", file=sys.stderr)
        return 1
    if action == "remove":
        if await webhooks.remove(redis, key_id, endpoint.id):
            await webhook_deliveries.forget(redis, endpoint.id)
        print(f"removed {endpoint.id}")
    elif action == "rotate":
        rotated = await webhooks.rotate(redis, endpoint, now_ms)
        print(f"secret:  {rotated.secrets[0].value}")
        print(f"The old one signs too for {webhooks.ROTATION_HOURS} h.")
    else:
        paused = "paused by its owner" if action == "pause" else None
        changed = msgspec.structs.replace(
            endpoint, paused=paused, failing_since_ms=endpoint.failing_since_ms if paused else None
        )
        await webhooks.save(redis, changed)
        if paused is None:
            await redis.zadd(webhook_deliveries.DUE, {endpoint.id: now_ms})
        print(f"{action}d {endpoint.id}")
    return 0
