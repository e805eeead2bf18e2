"""The SDK's client (clients/python/danger_hall) against a real server: a rate limit waited
out by its Retry-After, a refusal raised with its code, a command sent again under its key
and applied once, and a game's stream followed across dropped connections."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator

import httpx
import pytest
from danger_hall import (
    AsyncClient,
    Client,
    Conflict,
    EventOut,
    Message,
    NotFound,
    RateLimited,
    Retry,
    View,
)

from service.infra.config import Rate, Rates
from tests.conftest import make_app, on_socket, wait_for
from tests.players import new_table, play_to_end
from tests.test_sdk import Relay

# Only reads are limited, one a second: other kinds draw on buckets other tests share.
ONE_READ_A_SECOND = Rates(
    create=None,
    join=None,
    register=None,
    command=None,
    read=Rate(1, 1),
    stream=None,
    site=None,
    audit=None,
)


@pytest.fixture(scope="module")
async def api(valkey) -> AsyncIterator[str]:
    app = make_app(valkey, background=False)
    app.state.keep_alive = 0.2
    async with on_socket(app) as url:
        yield url


@pytest.fixture(scope="module")
async def limited(valkey) -> AsyncIterator[str]:
    """A server that answers one read a second per client, the next 429 with Retry-After."""
    app = make_app(valkey, background=False, rate_limits=True, rates=ONE_READ_A_SECOND)
    async with on_socket(app) as url:
        yield url


async def seated(client: AsyncClient, seats: int = 2, game: str = "danger") -> list[str]:
    """A started game's id, then its seats' tokens."""
    created = await client.games.create(game, seats=seats)
    tokens = []
    for n in range(seats):
        joined = await client.game(created.id).join(f"p{n}")
        assert joined.token is not None
        tokens.append(joined.token)
    await client.game(created.id, token=created.admin_token).start()
    return [created.id, *tokens]


async def test_a_read_refused_429_is_sent_again_after_its_retry_after(limited: str) -> None:
    retries: list[tuple[int | None, float]] = []
    retry = Retry(on_retry=lambda status, pause: retries.append((status, pause)))
    async with AsyncClient(limited, retry=retry) as client:
        created = await client.games.create("danger", seats=3)
        game = client.game(created.id)
        began = time.monotonic()
        views = [await game.get() for _ in range(3)]
        took = time.monotonic() - began
    assert [v.status for v in views] == ["open"] * 3
    assert retries and all(status == 429 and pause >= 1 for status, pause in retries)
    assert took >= sum(pause for _, pause in retries), "each Retry-After was waited out"


async def test_a_429_beyond_the_retry_bound_raises_rate_limited(limited: str) -> None:
    async with AsyncClient(limited, retry=Retry(max_wait=0.5)) as client:
        created = await client.games.create("danger", seats=3)
        game = client.game(created.id)
        with pytest.raises(RateLimited) as refused:
            for _ in range(3):
                await game.get()
    assert refused.value.status == 429 and refused.value.code == "rate_limited"
    assert refused.value.retry_after is not None and refused.value.retry_after >= 1


async def test_a_refusal_raises_its_typed_error_and_changes_nothing(api: str) -> None:
    async with AsyncClient(api) as client:
        game_id, first, second = await seated(client)
        before = await client.game(game_id).get()
        waiting = second if before.turn == 0 else first
        with pytest.raises(Conflict) as refused:
            await client.game(game_id, token=waiting).command({"type": "draw"})
        after = await client.game(game_id).get()
        with pytest.raises(NotFound) as missing:
            await client.game("nosuchgame00").get()
    assert refused.value.status == 409 and refused.value.code == "not_your_turn"
    assert refused.value.detail and after.seq == before.seq
    assert missing.value.status == 404 and missing.value.code == "unknown_game"


async def test_a_view_reads_the_same_fields_in_every_game(api: str) -> None:
    async with AsyncClient(api) as client:
        kinds = (("danger", 3), ("high-voltage", 3), ("danger-13", 3), ("danger-danger", 4))
        for kind, seats in kinds:
            game_id, *tokens = await seated(client, seats=seats, game=kind)
            view = await client.game(game_id, token=tokens[0]).get()
            assert view.round == 1 and view.you == 0, kind
            assert view.to_act and set(view.to_act) <= set(range(seats)), kind
            assert view.winners is None and view.status == "active", kind
            if view.turn is not None:
                assert view.to_act == [view.turn], kind


async def test_the_lobby_and_a_players_own_games_are_listed(valkey) -> None:
    # The lobby and a player's games are read models: the projections run beside this app.
    async with on_socket(make_app(valkey)) as url, AsyncClient(url) as client:
        ann = await client.register("Ann")
        created = await client.games.create("danger-13", seats=3)
        await client.game(created.id).join("Ann", player_token=ann.token)
        async with AsyncClient(url, token=ann.token) as hers:

            async def listed() -> bool:
                mine = await hers.games.list(mine=True)
                lobby = await client.games.list(game="danger-13", status="open", limit=100)
                return created.id in {g.id for g in mine.games} and created.id in {
                    g.id for g in lobby.games
                }

            await wait_for(listed)
            with pytest.raises(ValueError, match="player's token"):
                await client.games.list(mine=True)


async def test_a_command_whose_answer_was_lost_is_applied_once(api: str) -> None:
    async with AsyncClient(api) as client:
        game_id, *tokens = await seated(client)
        before = await client.game(game_id, token=tokens[0]).get()
        seat = before.to_act[0]
    relay = Relay(api, lose=1)
    async with relay as relay_url, AsyncClient(relay_url, retry=Retry(backoff=0.05)) as lossy:
        game = lossy.game(game_id, token=tokens[seat])
        legal = (await game.get()).legal
        relay.lose = 1  # the command reaches the server; its first answer does not come back
        done = await game.command(legal[0])
    async with AsyncClient(api) as client:
        after = await client.game(game_id).get()
        page = await client.game(game_id).events(after=before.seq)
    commands = {e.command for e in page.events if e.command}
    assert done.seq == after.seq and len(commands) == 1, "sent twice, applied once"


async def test_a_stream_resumes_with_no_gap_and_no_duplicate(api: str) -> None:
    seen: list[EventOut] = []
    views: list[View] = []
    relay = Relay(api, cuts=(3000, 5000))
    async with httpx.AsyncClient(base_url=api, timeout=30) as http, relay as relay_url:
        table = await new_table(http, seats=2, game="danger-13")

        async def listen() -> None:
            async with AsyncClient(relay_url, retry=Retry(backoff=0.05)) as client:
                game = client.game(table.id, token=table.tokens[0])
                async for message in game.stream(view=True):
                    if isinstance(message, View):
                        views.append(message)
                    else:
                        seen.append(message)

        listening = asyncio.create_task(listen())
        await play_to_end(table)
        await asyncio.wait_for(listening, 30)
        last = (await http.get(f"/v1/games/{table.id}")).json()["seq"]
    assert relay.connections >= 3, "the stream was cut twice, and resumed"
    assert [e.seq for e in seen] == list(range(1, last + 1))
    assert seen[-1].type_ == "seed_revealed"
    # The views came as the game came to rest, each once, the last one of the finished game.
    seqs = [v.seq for v in views]
    assert seqs == sorted(set(seqs)) and len(views) > 2
    assert views[-1].seq == last and views[-1].status == "finished" and views[-1].winners


async def test_the_blocking_client_follows_a_finished_games_stream(api: str) -> None:
    def follow() -> list[Message]:
        with Client(api) as client:
            created = client.games.create("danger", seats=2)
            client.game(created.id).join("Ann")
            client.game(created.id, token=created.admin_token).abandon()
            return list(client.game(created.id).stream(after=1))

    # In a thread of its own: this loop serves the API.
    events = await asyncio.to_thread(follow)
    assert [e.seq for e in events] == list(range(2, 2 + len(events)))
    assert isinstance(events[-1], EventOut) and events[-1].type_ == "seed_revealed"


async def test_a_player_hears_of_their_games_on_their_own_stream(valkey) -> None:
    async with on_socket(make_app(valkey)) as url, AsyncClient(url) as client:
        ann = await client.register("Ann")
        created = await client.games.create("danger", seats=2)
        await client.game(created.id).join("Ann", player_token=ann.token)
        heard: list[tuple[str, str]] = []
        connected = asyncio.Event()

        async def listen() -> None:
            async with AsyncClient(url, token=ann.token) as hers:
                async for notice in hers.notices():
                    heard.append((notice.type_, notice.game))
                    connected.set()  # it begins with the games she sits in
                    if notice.type_ == "game_started":
                        return

        listening = asyncio.create_task(listen())
        await asyncio.wait_for(connected.wait(), 30)
        await client.game(created.id).join("Bob")
        await client.game(created.id, token=created.admin_token).start()
        await asyncio.wait_for(listening, 30)
    assert heard[0][1] == created.id and heard[-1] == ("game_started", created.id)
