"""Ratings and leaderboards on a store of their own: a rated game moves its players'
ratings, records and leaderboard; the games that are not rated are not; 200 random rated
games leave every rating finite and every leaderboard equal to a rebuild from the logs
(docs/rulings.md, "Ratings")."""

from __future__ import annotations

import asyncio
import math
import random
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from litestar.testing import AsyncTestClient

from domain.registry import GAMES
from events.store import EventStore
from service.readmodels import ratings
from service.readmodels.rebuild import rebuild
from tests.conftest import make_app
from tests.players import Table, bearer, play_to_end
from tests.stores import Store, store_client


class Hall:
    """The app, its store's client, and registered players, each with an address of its
    own (the app trusts X-Forwarded-For)."""

    def __init__(self, client: Any, redis: Any) -> None:
        self.client, self.redis = client, redis
        self.players: list[tuple[str, str, str]] = []  # (id, token, address)

    async def register(self, n: int) -> None:
        for _ in range(n):
            address = f"198.51.100.{len(self.players) + 1}"
            r = await self.client.post(
                "/v1/players",
                json={"name": f"Player {len(self.players)}"},
                headers={"X-Forwarded-For": address},
            )
            assert r.status_code == 201, r.text
            self.players.append((r.json()["id"], r.json()["token"], address))

    async def table(
        self,
        kind: str,
        seated: list[int | None],
        rated: bool | None = None,
        address: str | None = None,
        teams: list[str] | None = None,
    ) -> Table:
        """A started game whose seat n is taken by the registered player `seated[n]` (None:
        an anonymous seat), each from their own address unless `address` is given."""
        body: dict[str, Any] = {"game": kind, "seats": len(seated)}
        if rated is not None:
            body["rated"] = rated
        r = await self.client.post("/v1/games", json=body)
        assert r.status_code == 201, r.text
        table = Table(self.client, r.json()["id"], r.json()["admin_token"])
        for seat, who in enumerate(seated):
            headers = {"X-Forwarded-For": address or f"203.0.113.{seat + 1}"}
            join: dict[str, Any] = {"name": f"s{seat}"}
            if teams is not None:
                join["team"] = teams[seat]
            if who is not None:
                _, token, own = self.players[who]
                headers = {**bearer(token), "X-Forwarded-For": address or own}
            r = await self.client.post(f"/v1/games/{table.id}/players", json=join, headers=headers)
            assert r.status_code == 201, r.text
            table.tokens.append(r.json()["token"])
        r = await self.client.post(f"/v1/games/{table.id}/start", headers=bearer(table.admin))
        assert r.status_code == 200, r.text
        return table

    async def resign(self, table: Table, seats: list[int]) -> None:
        for seat in seats:
            r = await self.client.post(
                f"/v1/games/{table.id}/players/{seat}/resign", headers=table.auth(seat)
            )
            assert r.status_code == 200, r.text

    async def settled(self, games: int) -> None:
        """Until `games` rated games are applied and none waits."""
        for _ in range(400):
            applied = sum([await self.redis.scard(ratings.key(k, "applied")) for k in GAMES])
            waiting = sum([await self.redis.zcard(ratings.key(k, "pending")) for k in GAMES])
            if applied >= games and not waiting:
                assert applied == games
                return
            await asyncio.sleep(0.1)
        raise AssertionError(f"{applied} rated games applied, {waiting} waiting; {games} expected")

    async def record(self, player: int) -> dict[str, Any]:
        r = await self.client.get(f"/v1/players/{self.players[player][0]}")
        assert r.status_code == 200, r.text
        return r.json()


@pytest.fixture
async def hall(tmp_path: Path) -> AsyncIterator[Hall]:
    store = Store(tmp_path / "store", "--appendonly", "yes", "--appendfsync", "always").start()
    redis = await store_client(store.url)
    app = make_app(store, trusted_proxy=("*",))  # type: ignore[arg-type]
    try:
        async with AsyncTestClient(app=app) as client:
            yield Hall(client, redis)
    finally:
        await redis.aclose()
        store.kill()


async def test_a_rated_game_moves_its_players_ratings_records_and_leaderboard(hall: Hall):
    await hall.register(2)
    table = await hall.table("danger", [0, 1])
    await hall.resign(table, [1])
    await hall.settled(1)

    winner, loser = await hall.record(0), await hall.record(1)
    won, lost = winner["ratings"]["danger"], loser["ratings"]["danger"]
    assert won["rating"] > 1500 > lost["rating"]
    assert won["games"] == lost["games"] == 1
    assert won["provisional"] and lost["provisional"]
    assert won["deviation"] < 350 and won["rank"] == 1 and lost["rank"] == 2
    assert [p["game"] for p in won["history"]] == [table.id]
    assert won["history"][0]["rating"] == won["rating"]

    board = (await hall.client.get(f"/v1/leaderboards/danger?player={hall.players[1][0]}")).json()
    assert [row["player"] for row in board["players"]] == [hall.players[0][0], hall.players[1][0]]
    assert board["players"][0]["name"] == "Player 0" and board["total"] == 2
    assert board["you"]["rank"] == 2 and board["you"]["rating"] == lost["rating"]
    assert board["next"] is None
    empty = (await hall.client.get("/v1/leaderboards/danger-13")).json()
    assert empty["players"] == [] and empty["total"] == 0


async def test_games_that_are_not_rated_move_no_rating(hall: Hall):
    await hall.register(4)
    one_place = await hall.table("danger", [0, 1], address="192.0.2.7")  # one client, two seats
    await hall.resign(one_place, [1])
    anonymous = await hall.table("danger", [0, None])  # not every seat registered, not marked
    await hall.resign(anonymous, [1])
    refused = await hall.table("danger", [0, 1], rated=False)
    await hall.resign(refused, [1])
    marked = await hall.table("danger", [2, None, 3], rated=True)  # rated among the registered
    await hall.resign(marked, [1, 2])
    await hall.settled(1)

    assert (await hall.record(0))["ratings"] == {}
    assert (await hall.record(1))["ratings"] == {}
    assert (await hall.record(2))["ratings"]["danger"]["games"] == 1
    assert (await hall.record(3))["ratings"]["danger"]["games"] == 1
    assert await hall.redis.smembers(ratings.key("danger", "applied")) == {marked.id.encode()}


async def test_the_leaderboard_pages_by_cursor(hall: Hall):
    await hall.register(6)
    for loser in range(1, 6):
        await hall.resign(await hall.table("danger", [0, loser]), [1])
    await hall.settled(5)
    seen: list[str] = []
    cursor = None
    while True:
        query = "?limit=2" + (f"&cursor={cursor}" if cursor else "")
        page = (await hall.client.get(f"/v1/leaderboards/danger{query}")).json()
        seen += [row["player"] for row in page["players"]]
        assert [row["rank"] for row in page["players"]] == list(
            range(len(seen) - len(page["players"]) + 1, len(seen) + 1)
        )
        cursor = page.get("next")
        if cursor is None:
            break
    assert len(seen) == len(set(seen)) == 6 and seen[0] == hall.players[0][0]
    bad = await hall.client.get("/v1/leaderboards/danger?cursor=1500~Nope")
    assert bad.status_code == 400 and bad.json()["code"] == "invalid_parameter"


async def _model(redis: Any) -> dict[str, Any]:
    out = {}
    for kind in GAMES:
        out[kind] = {
            "board": await redis.zrange(ratings.key(kind, "board"), 0, -1, withscores=True),
            "players": await redis.hgetall(ratings.key(kind, "players")),
            "history": await redis.hgetall(ratings.key(kind, "history")),
        }
    return out


async def test_200_random_rated_games_stay_finite_and_equal_a_rebuild(hall: Hall):
    rng = random.Random(41)
    await hall.register(12)
    played = 0
    for n in range(200):
        kind = rng.choice(["danger", "danger", "high-voltage", "danger-13", "danger-danger"])
        rules = GAMES[kind]
        seats = 4 if kind == "danger-danger" else rng.randint(2, min(4, rules.max_seats))
        seated: list[int | None] = list(rng.sample(range(12), seats))
        if n % 10 == 9 and kind == "danger" and seats == 2:
            table = await hall.table(kind, seated)
            await play_to_end(table, choose=rng.choice)  # a game's own placings, some ties
        elif kind == "danger-danger":
            teams = ["pink", "yellow", "pink", "yellow"]
            table = await hall.table(kind, seated, teams=teams)
            losers = rng.choice([[0, 2], [1, 3]])
            await hall.resign(table, rng.sample(losers, 2))
        else:
            table = await hall.table(kind, seated)
            order = rng.sample(range(seats), seats)
            await hall.resign(table, order[:-1])
        played += 1
    await hall.settled(played)

    live = await _model(hall.redis)
    for kind in GAMES:
        for raw in live[kind]["players"].values():
            rating = ratings._player_rating(raw)
            assert math.isfinite(rating.rating) and math.isfinite(rating.volatility)
            assert 0 < rating.deviation <= 350
    assert sum(len(m["board"]) for m in live.values()) >= 12
    await rebuild(hall.redis, EventStore(hall.redis))
    assert await _model(hall.redis) == live
