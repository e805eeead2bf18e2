"""The load a fault run plays, and the history of what its clients were told.

Clients behave as the API asks a good client to: every write carries an Idempotency-Key
and is retried with the same key after a 503 or a lost answer (on the other API process,
the first one being perhaps the one paused), as long as PATIENCE_SECONDS allows; a 503 is
waited out as its Retry-After says. Games of the four kinds are played by their seats' legal
commands; some by bots, some by their turn clocks alone, Danger Danger under a short round
timer; new games are created, joined and started while the faults go on; and readers
follow some games' streams (JSON Lines, resumed with `after`), so the history also holds
what streams showed.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import random
import time
import uuid
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

import httpx
import msgspec

PATIENCE_SECONDS = 45.0  # a client gives up on one request after this long
PACE_SECONDS = 0.05  # between one seat's commands: the load is bounded by the tables
IDLE_MINUTES = 0.25  # a game no seat commands ends (abandoned) this soon: every game ends
TABLES: list[tuple[str, int, dict[str, Any]]] = [
    ("danger", 2, {}),
    ("high-voltage", 3, {}),
    ("danger-13", 2, {}),
    ("danger-danger", 2, {"round_seconds": 2}),
]
CLOCKED: list[tuple[str, int, dict[str, Any]]] = [  # played by their clocks alone
    ("danger", 2, {"turn_seconds": 1}),
    ("danger-13", 2, {"turn_seconds": 1}),
    ("high-voltage", 3, {"turn_seconds": 1}),
]


@dataclass
class History:
    """What the clients sent and were told."""

    answers: Counter[tuple[str, int, str]] = field(default_factory=Counter)  # (what, status, code)
    transport: Counter[str] = field(default_factory=Counter)  # lost answers, by what
    unanswerable: list[str] = field(default_factory=list)  # wrong answers seen at once
    acknowledged: dict[str, dict[int, str]] = field(default_factory=dict)  # game -> seq -> hash
    keys: dict[str, list[str]] = field(default_factory=dict)  # game -> Idempotency-Keys sent
    streamed: dict[str, dict[int, str]] = field(default_factory=dict)  # game -> seq -> hash
    stream_forks: list[str] = field(default_factory=list)  # a seq shown with two hashes
    games: dict[str, str] = field(default_factory=dict)  # game -> kind
    gave_up: Counter[str] = field(default_factory=Counter)  # requests out of patience

    def acknowledge(self, game: str, events: list[dict[str, Any]]) -> None:
        self.acknowledged.setdefault(game, {}).update({e["seq"]: e["hash"] for e in events})

    def operations(self) -> int:
        return sum(self.answers.values()) + sum(self.transport.values())


class Clients:
    """One HTTP client per API process; each attempt of a request goes to the next one."""

    def __init__(self, urls: list[str], history: History) -> None:
        timeout = httpx.Timeout(8.0, connect=2.0)
        limits = httpx.Limits(max_connections=200, max_keepalive_connections=50)
        self.http = [httpx.AsyncClient(base_url=u, timeout=timeout, limits=limits) for u in urls]
        self._turn = itertools.cycle(range(len(urls)))
        self.history = history

    def next(self) -> httpx.AsyncClient:
        return self.http[next(self._turn)]

    async def call(self, what: str, method: str, path: str, **kwargs: Any) -> httpx.Response | None:
        """The request's final answer, retried through 503s and lost answers (the same
        headers, hence the same Idempotency-Key, each time); None if it never had one."""
        deadline = time.monotonic() + PATIENCE_SECONDS
        pause = 0.1
        while time.monotonic() < deadline:
            try:
                r = await self.next().request(method, path, **kwargs)
            except httpx.HTTPError as exc:
                self.history.transport[f"{what}: {type(exc).__name__}"] += 1
                await asyncio.sleep(pause)
                pause = min(pause * 2, 2.0)
                continue
            code = ""
            if r.status_code >= 400:
                with contextlib.suppress(ValueError, AttributeError):
                    code = r.json().get("code", "")
            self.history.answers[(what, r.status_code, code)] += 1
            if r.status_code >= 500 and r.status_code != 503:
                self.history.unanswerable.append(f"{method} {path}: {r.status_code} {r.text[:300]}")
            if r.status_code == 503:
                retry = r.headers.get("Retry-After")
                if retry is None or not code:
                    self.history.unanswerable.append(
                        f"{method} {path}: 503 without Retry-After or code: {r.text[:200]}"
                    )
                await asyncio.sleep(min(float(retry or 1), 2.0) * random.uniform(0.5, 1.0))
                continue
            return r
        self.history.gave_up[what] += 1
        return None

    async def close(self) -> None:
        for http in self.http:
            await http.aclose()


@dataclass
class Table:
    id: str
    kind: str
    admin: str
    tokens: list[str]


class Load:
    """The run's clients: `start()` sets the tables, `play(stop)` plays until `stop`."""

    def __init__(self, urls: list[str], rng: random.Random, history: History) -> None:
        self.clients = Clients(urls, history)
        self.rng = rng
        self.history = history
        self.tasks: list[asyncio.Task[None]] = []
        self.stop = asyncio.Event()

    async def table(
        self, kind: str, seats: int, options: dict[str, Any], bots: bool = False
    ) -> Table | None:
        """A game created, every seat joined and started; None if a step was refused for
        good (the faults may outlast a client's patience)."""
        key = {"Idempotency-Key": uuid.uuid4().hex}
        body = {"game": kind, "seats": seats, "options": {"idle_minutes": IDLE_MINUTES, **options}}
        r = await self.clients.call("create", "POST", "/v1/games", json=body, headers=key)
        if r is None or r.status_code != 201:
            return None
        game = r.json()
        table = Table(game["id"], kind, game["admin_token"], [])
        self.history.games[table.id] = kind
        self.history.acknowledge(table.id, game.get("events", []))
        self._receipt(table.id, r)
        for seat in range(seats):
            join: dict[str, Any] = {"name": f"p{seat}"}
            if bots:
                join = {"name": f"bot{seat}", "bot": "random", "think_ms": 150}
            r = await self.clients.call(
                "join",
                "POST",
                f"/v1/games/{table.id}/players",
                json=join,
                headers={"Idempotency-Key": uuid.uuid4().hex},
            )
            if r is None or r.status_code != 201:
                return None
            self._receipt(table.id, r)
            table.tokens.append(r.json().get("token", ""))
        r = await self.clients.call(
            "start",
            "POST",
            f"/v1/games/{table.id}/start",
            headers={"Authorization": f"Bearer {table.admin}", "Idempotency-Key": uuid.uuid4().hex},
        )
        if r is None or r.status_code != 200:
            return None
        self._receipt(table.id, r)
        return table

    def _receipt(self, game: str, r: httpx.Response) -> None:
        """An appending answer names the event it left the game at: its seq and hash."""
        receipt = r.headers.get("Danger-Receipt")
        if receipt:
            signed = msgspec.json.decode(receipt)
            self.history.acknowledge(game, [{"seq": signed["seq"], "hash": signed["hash"]}])

    async def begin(self) -> None:
        """The tables that play from the start: each kind played by its seats, twice; the
        clocked ones; two bot tables."""
        made = await asyncio.gather(
            *(self.table(k, s, o) for k, s, o in TABLES for _ in range(2)),
            *(self.table(k, s, o) for k, s, o in CLOCKED),
            *(self.table("danger", 2, {}, bots=True) for _ in range(2)),
        )
        tables = [t for t in made if t is not None]
        assert len(tables) == len(made), "the tables were set before any fault"
        played = tables[: 2 * len(TABLES)]
        clocked = tables[2 * len(TABLES) : 2 * len(TABLES) + len(CLOCKED)]
        for table in played:
            self.tasks.append(
                asyncio.create_task(self.seats(table, random.Random(self.rng.random())))
            )
        for table in clocked:  # seat 0 plays; the clock plays the others
            self.tasks.append(
                asyncio.create_task(self.seats(table, random.Random(self.rng.random()), only=0))
            )
        for table in tables[::2]:
            self.tasks.append(asyncio.create_task(self.follow(table.id)))
        self.tasks.append(asyncio.create_task(self.newcomers()))

    async def newcomers(self) -> None:
        """A new game every few seconds, set up and played while the faults go on."""
        while not self.stop.is_set():
            with contextlib.suppress(asyncio.TimeoutError):
                await asyncio.wait_for(self.stop.wait(), self.rng.uniform(2, 5))
                return
            kind, seats, options = self.rng.choice(TABLES)
            table = await self.table(kind, seats, options)
            if table is not None:
                rng = random.Random(self.rng.random())
                self.tasks.append(asyncio.create_task(self.seats(table, rng)))

    async def seats(self, table: Table, rng: random.Random, only: int | None = None) -> None:
        """The seats send legal commands (read from each seat's view), one after another,
        until the game ends or the load stops."""
        seat = only or 0
        while not self.stop.is_set():
            r = await self.clients.call(
                "read",
                "GET",
                f"/v1/games/{table.id}",
                headers={"Authorization": f"Bearer {table.tokens[seat]}"},
            )
            if r is None or r.status_code != 200:
                await asyncio.sleep(0.5)
                continue
            state = r.json()
            if state["status"] != "active":
                return
            if not state["legal"]:
                if only is None:
                    seat = (seat + 1) % len(table.tokens)
                await asyncio.sleep(PACE_SECONDS if only is None else 0.3)
                continue
            key = uuid.uuid4().hex
            self.history.keys.setdefault(table.id, []).append(key)
            r = await self.clients.call(
                "command",
                "POST",
                f"/v1/games/{table.id}/commands",
                json=rng.choice(state["legal"]),
                headers={"Authorization": f"Bearer {table.tokens[seat]}", "Idempotency-Key": key},
            )
            if r is not None and r.status_code == 200:
                self.history.acknowledge(table.id, r.json()["events"])
                self._receipt(table.id, r)
            await asyncio.sleep(PACE_SECONDS)

    async def follow(self, game: str) -> None:
        """A spectator's stream of the game, resumed after the last seq read whenever it
        breaks, until the game's last event."""
        shown = self.history.streamed.setdefault(game, {})
        while True:
            after = max(shown, default=0)
            try:
                async with self.clients.next().stream(
                    "GET",
                    f"/v1/games/{game}/stream",
                    params={"after": after},
                    headers={"Accept": "application/x-ndjson"},
                ) as r:
                    if r.status_code != 200:
                        await asyncio.sleep(0.5)
                        continue
                    async for line in r.aiter_lines():
                        if not line.strip():
                            continue
                        event = msgspec.json.decode(line)
                        seq, digest = event.get("seq"), event.get("hash")
                        if seq is None or digest is None:
                            continue
                        if shown.get(seq, digest) != digest:
                            self.history.stream_forks.append(
                                f"{game}: seq {seq} shown as {shown[seq][:12]} and {digest[:12]}"
                            )
                        shown[seq] = digest
                        if event.get("type") == "seed_revealed":
                            return
            except httpx.HTTPError:
                await asyncio.sleep(0.2)

    async def finish(self) -> None:
        """Stop sending; the streams follow their games until they end (or a minute)."""
        self.stop.set()
        with contextlib.suppress(asyncio.TimeoutError):
            await asyncio.wait_for(asyncio.gather(*self.tasks, return_exceptions=True), 60)
        for task in self.tasks:
            task.cancel()
        await asyncio.gather(*self.tasks, return_exceptions=True)
        await self.clients.close()
