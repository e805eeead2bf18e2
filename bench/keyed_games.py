"""Games that belong to an app key, for `bench.run --keyed-games N [--webhook]`: the key, N
games of it created, joined and started before the load (left in play), and, with
`--webhook`, an endpoint of the key hearing every event type, delivered by the service's
worker to a receiver in this process (bench/webhooks.py's, answering 204 at once). The load's
own games are created with the key too (game.lua's BENCH_KEY), so every command of the load
is a command of a subscribed game."""

from __future__ import annotations

import asyncio
import threading
import time
from dataclasses import dataclass, field

import httpx

from bench.webhooks import Receiver
from service.http.guards import app_keys
from service.infra.connections import open_store
from service.play import webhooks


@dataclass
class Keyed:
    token: str
    receiver: Receiver | None = None
    loop: asyncio.AbstractEventLoop | None = field(default=None, repr=False)

    @property
    def delivered(self) -> int:
        return self.receiver.count if self.receiver is not None else 0

    def close(self) -> None:
        if self.loop is not None:
            self.loop.call_soon_threadsafe(self.loop.stop)


def _receiving() -> tuple[Receiver, asyncio.AbstractEventLoop]:
    """The receiver, on an event loop in a thread of its own."""
    loop = asyncio.new_event_loop()
    receiver = Receiver()
    ready = threading.Event()

    def serve() -> None:
        asyncio.set_event_loop(loop)
        loop.run_until_complete(receiver.start())
        ready.set()
        loop.run_forever()

    threading.Thread(target=serve, daemon=True).start()
    ready.wait(10)
    return receiver, loop


async def _key(redis_url: str, hook_url: str | None) -> str:
    redis = await open_store(redis_url, 2)
    try:
        key, token = await app_keys.create(redis, f"bench-{time.time_ns()}", {})
        if hook_url is not None:
            events = list(webhooks.EVENT_TYPES)
            await webhooks.add(redis, key.id, hook_url, events, [], int(time.time() * 1000), 10)
        return token
    finally:
        await redis.aclose()


def prepare(url: str, redis_url: str, games: int, webhook: bool) -> Keyed:
    receiver, loop = _receiving() if webhook else (None, None)
    hook_url = f"http://127.0.0.1:{receiver.port}/hooks" if receiver is not None else None
    token = asyncio.run(_key(redis_url, hook_url))
    with httpx.Client(base_url=url, timeout=10) as http:
        for _ in range(games):
            made = http.post(
                "/v1/games",
                json={"game": "danger", "seats": 2},
                headers={"Authorization": f"Bearer {token}"},
            )
            made.raise_for_status()
            game, admin = made.json()["id"], made.json()["admin_token"]
            for seat in range(2):
                http.post(f"/v1/games/{game}/players", json={"name": f"p{seat}"}).raise_for_status()
            started = http.post(
                f"/v1/games/{game}/start", headers={"Authorization": f"Bearer {admin}"}
            )
            started.raise_for_status()
    return Keyed(token, receiver, loop)
