"""A small client of the REST API, as a third-party developer would write one."""

from __future__ import annotations

import asyncio
import itertools
import random
import time
from collections.abc import AsyncIterator, Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from domain.danger.cards import FULL_DECK


def bearer(token: str) -> dict[str, str]:
    """The Authorization header that presents `token`."""
    return {"Authorization": f"Bearer {token}"}


class Alternating:
    """A client whose requests go to each of several API processes in turn."""

    def __init__(self, *clients: Any) -> None:
        self._next = itertools.cycle(clients)

    async def get(self, *args: Any, **kwargs: Any) -> Any:
        return await next(self._next).get(*args, **kwargs)

    async def post(self, *args: Any, **kwargs: Any) -> Any:
        return await next(self._next).post(*args, **kwargs)


@dataclass
class Table:
    client: Any
    id: str
    admin: str
    tokens: list[str] = field(default_factory=list)

    def auth(self, seat: int) -> dict[str, str]:
        return bearer(self.tokens[seat])

    async def state(self, seat: int | None = None) -> dict[str, Any]:
        headers = self.auth(seat) if seat is not None else {}
        r = await self.client.get(f"/v1/games/{self.id}", headers=headers)
        assert r.status_code == 200, r.text
        return r.json()

    async def send(self, seat: int, body: dict[str, Any], **headers: str) -> Any:
        return await self.client.post(
            f"/v1/games/{self.id}/commands", json=body, headers={**self.auth(seat), **headers}
        )


async def new_table(
    client: Any,
    seats: int = 3,
    start: bool = True,
    game: str = "danger",
    players: Sequence[str | None] = (),
    **options: Any,
) -> Table:
    """A game with every seat joined (`p0`, `p1`, ...; seat n by the registered player whose
    token is `players[n]`, where given), started unless `start` is False."""
    r = await client.post("/v1/games", json={"game": game, "seats": seats, "options": options})
    assert r.status_code == 201, r.text
    body = r.json()
    table = Table(client, body["id"], body["admin_token"])
    for n in range(seats):
        player = players[n] if n < len(players) else None
        headers = {"Authorization": f"Bearer {player}"} if player else {}
        r = await client.post(
            f"/v1/games/{table.id}/players", json={"name": f"p{n}"}, headers=headers
        )
        assert r.status_code == 201, r.text
        table.tokens.append(r.json()["token"])
    if start:
        r = await client.post(
            f"/v1/games/{table.id}/start", headers={"Authorization": f"Bearer {table.admin}"}
        )
        assert r.status_code == 200, r.text
    return table


async def seq_of(client: Any, game_id: str) -> int:
    """The seq of the game's last event, as its public view shows it; a 503 (its store
    failing over) is waited out."""
    while True:
        r = await client.get(f"/v1/games/{game_id}")
        if r.status_code != 503:
            assert r.status_code == 200, r.text
            return int(r.json()["seq"])
        await asyncio.sleep(0.1)


async def events_of(client: Any, game_id: str) -> list[dict[str, Any]]:
    """The game's log as its public event page shows it."""
    r = await client.get(f"/v1/games/{game_id}/events")
    assert r.status_code == 200, r.text
    return r.json()["events"]


async def first_to_act(table: Table) -> tuple[int, list[dict[str, Any]]]:
    """The first seat that may act now, and its legal commands."""
    for seat in range(len(table.tokens)):
        legal = (await table.state(seat))["legal"]
        if legal:
            return seat, legal
    raise AssertionError("no seat may act")


async def bot_table(client: Any, seats: int = 2, think_ms: int = 0, bot: str = "random") -> str:
    """A started Danger game whose every seat is a bot: the workers play it. Its id."""
    r = await client.post("/v1/games", json={"game": "danger", "seats": seats})
    assert r.status_code == 201, r.text
    game_id, admin = r.json()["id"], r.json()["admin_token"]
    for seat in range(seats):
        body = {"name": f"bot{seat}", "bot": bot, "think_ms": think_ms}
        assert (await client.post(f"/v1/games/{game_id}/players", json=body)).is_success
    auth = {"Authorization": f"Bearer {admin}"}
    assert (await client.post(f"/v1/games/{game_id}/start", headers=auth)).is_success
    return game_id


def deck(*top: str) -> list[str]:
    from collections import Counter

    rest = Counter(FULL_DECK) - Counter(top)
    return [*top, *sorted(rest.elements())]


async def play_to_end(table: Table, choose: Any = None, max_commands: int = 5000) -> int:
    """Every seat that may act sends one of its `legal` commands, until the game is
    finished; returns the number of commands sent."""
    sent = 0
    while sent < max_commands:
        if (await table.state())["status"] == "finished":
            return sent
        acted = False
        for seat in range(len(table.tokens)):
            legal = (await table.state(seat))["legal"]
            if not legal:
                continue
            body = choose(legal) if choose else legal[0]
            r = await table.send(seat, body)
            assert r.status_code == 200, r.text
            sent += 1
            acted = True
            break
        assert acted, "while the game runs, some seat has a legal command"
    raise AssertionError("the game did not end")


async def commands(
    table: Table, until: list[float], rng: random.Random, answered: Callable[[Any], None]
) -> AsyncIterator[tuple[int, dict[str, Any]]]:
    """A legal command for one seat after another, chosen by `rng`, the game read before each
    (every read's answer handed to `answered`), until the time.monotonic() in `until[0]` or
    the game's end; a read answered 503 (its store failing over) is waited out briefly."""
    seat = 0
    while time.monotonic() < until[0]:
        r = await table.client.get(f"/v1/games/{table.id}", headers=table.auth(seat))
        answered(r)
        if r.status_code == 503:
            await asyncio.sleep(0.05)
            continue
        assert r.status_code == 200, r.text
        state = r.json()
        if state["status"] != "active":
            return
        if not state["legal"]:
            seat = (seat + 1) % len(table.tokens)
            continue
        yield seat, rng.choice(state["legal"])
