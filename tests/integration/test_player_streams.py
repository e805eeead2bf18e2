"""A registered player's stream across their games (GET /v1/players/{id}/stream): what it
tells, in both forms, of games joined before and after it opened; who may open it; and that
a seat taken without the message on `dg:seats` is found by the periodic read."""

from __future__ import annotations

import asyncio
import contextlib
import random
from collections.abc import AsyncIterator
from typing import Any

import httpx
import msgspec
import pytest

from tests.conftest import make_app, on_socket, wait_for
from tests.integration.test_streams import client
from tests.players import bearer, new_table, play_to_end
from tests.projections import caught_up


@contextlib.asynccontextmanager
async def served(valkey: Any, **settings: Any) -> AsyncIterator[tuple[Any, str]]:
    """The app with its projections (the player's games are read from their read model)."""
    app = make_app(valkey, sandbox=True, **settings)
    app.state.keep_alive = 0.2
    async with on_socket(app) as url:
        yield app, url


async def register(http: httpx.AsyncClient, name: str) -> tuple[str, str]:
    r = await http.post("/v1/players", json={"name": name})
    assert r.status_code == 201, r.text
    return r.json()["id"], r.json()["token"]


class Notices:
    """A player's stream read in the background: every notice, in order."""

    def __init__(self, http: httpx.AsyncClient, player: str, token: str, lines: bool) -> None:
        self.received: list[dict[str, Any]] = []
        self.status: int | None = None
        headers = {**bearer(token), **({"Accept": "application/x-ndjson"} if lines else {})}
        self.task = asyncio.create_task(self._read(http, player, headers, lines))

    async def _read(
        self, http: httpx.AsyncClient, player: str, headers: dict[str, str], lines: bool
    ) -> None:
        async with http.stream("GET", f"/v1/players/{player}/stream", headers=headers) as r:
            self.status = r.status_code
            media = "application/x-ndjson" if lines else "text/event-stream"
            assert r.headers["content-type"].startswith(media)
            name = None
            async for line in r.aiter_lines():
                if lines and line.strip():
                    self.received.append(msgspec.json.decode(line))
                elif line.startswith("event:"):
                    name = line[6:].strip()
                elif line.startswith("data:"):
                    notice = msgspec.json.decode(line[5:].strip())
                    assert notice["type"] == name
                    self.received.append(notice)

    def of(self, game: str) -> list[str]:
        return [n["type"] for n in self.received if n["game"] == game]

    async def close(self) -> None:
        self.task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await self.task


@pytest.mark.parametrize("lines", [False, True])
async def test_a_player_hears_of_each_game_joined_started_their_turn_and_ended(valkey, lines):
    async with served(valkey) as (app, url), client(url) as http:
        player, token = await register(http, "Pia")
        before = await new_table(http, seats=2, start=False, players=[token])
        await caught_up(http)
        notices = Notices(http, player, token, lines)
        # What is now: the game joined before the stream opened.
        await wait_for(lambda: notices.of(before.id) == ["game_joined"], 10)

        later = await new_table(http, seats=2, start=False, players=[None, token])
        await wait_for(lambda: notices.of(later.id) == ["game_joined"], 10)
        r = await http.post(f"/v1/games/{later.id}/start", headers=bearer(later.admin))
        assert r.status_code == 200, r.text
        await wait_for(lambda: "game_started" in notices.of(later.id), 10)
        await play_to_end(later, choose=random.Random(5).choice)
        await wait_for(lambda: "game_ended" in notices.of(later.id), 10)
        told = notices.of(later.id)
        assert told[:2] == ["game_joined", "game_started"] and told[-1] == "game_ended"
        assert "your_turn" in told  # two seats: the player's turn came
        seats = {n["seat"] for n in notices.received if n["game"] == later.id}
        assert seats == {1}
        assert notices.received[-1]["status"] == "finished"
        await notices.close()
        await wait_for(lambda: app.state.hub.open == 0, 10)


async def test_only_the_player_opens_their_stream(valkey):
    async with served(valkey) as (_, url), client(url) as http:
        player, token = await register(http, "Pia")
        _, other = await register(http, "Olaf")
        r = await http.get(f"/v1/players/{player}/stream")
        assert (r.status_code, r.json()["code"]) == (401, "player_token_required")
        r = await http.get(f"/v1/players/{player}/stream", headers=bearer(other))
        assert (r.status_code, r.json()["code"]) == (403, "not_this_player")
        r = await http.get("/v1/players/0000000000000000/stream", headers=bearer(token))
        assert r.status_code == 404
        r = await http.head(f"/v1/players/{player}/stream", headers=bearer(token))
        assert r.status_code == 200 and r.content == b""


async def test_a_seat_taken_without_its_message_is_found_by_the_periodic_read(valkey):
    """A seat whose `dg:seats` message was lost (here: a join with no message at all, made
    through the service itself) shows within a keep-alive period of the read model."""
    async with served(valkey) as (app, url), client(url) as http:
        player, token = await register(http, "Pia")
        notices = Notices(http, player, token, False)
        await wait_for(lambda: notices.status == 200, 10)
        r = await http.post("/v1/games", json={"game": "danger", "seats": 2})
        game = r.json()["id"]
        await app.state.service.join(game, "Pia", "", player=player)
        await wait_for(lambda: notices.of(game) == ["game_joined"], 15)
        await notices.close()


async def test_a_players_stream_watches_at_most_its_bound_of_games_the_newest(valkey):
    async with served(valkey, player_stream_games=1) as (app, url), client(url) as http:
        player, token = await register(http, "Pia")
        older = await new_table(http, seats=2, start=False, players=[token])
        newer = await new_table(http, seats=2, start=False, players=[token])
        await caught_up(http)
        notices = Notices(http, player, token, False)
        await wait_for(lambda: notices.of(newer.id) == ["game_joined"], 10)
        await asyncio.sleep(1)  # several keep-alive periods: the older one stays unwatched
        assert notices.of(older.id) == []
        assert len(app.state.hub.channels) == 2  # the player's own and the newer game's
        await notices.close()
