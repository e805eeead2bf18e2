"""`danger projections rebuild` while the service runs: the lobby readers never see fewer
games than there were, nor a game at an older seq than they saw, and what was written
meanwhile is in the models the rebuild switches to."""

from __future__ import annotations

import asyncio
import os
import sys

import httpx
import pytest

from events import keys
from events.store import EventStore
from service.assembly.app import create_app
from service.infra.config import Settings
from service.readmodels import lobby
from service.readmodels.rebuild import RebuildRunning, rebuild
from service.readmodels.rounds import rounds_key
from tests.conftest import on_socket
from tests.projections import caught_up, read_models
from tests.stores import store_client, with_queue

KINDS = ("danger", "high-voltage", "danger-13", "danger-danger")
GAMES = 300


async def create(client: httpx.AsyncClient, n: int) -> str:
    r = await client.post("/v1/games", json={"game": KINDS[n % 4], "seats": 2, "options": {}})
    assert r.status_code == 201, r.text
    game_id, admin = r.json()["id"], r.json()["admin_token"]
    if n % 3 == 0:  # a third of them active, two players in
        for name in ("ann", "bob"):
            r = await client.post(f"/v1/games/{game_id}/players", json={"name": name})
            assert r.status_code == 201, r.text
        r = await client.post(
            f"/v1/games/{game_id}/start", headers={"Authorization": f"Bearer {admin}"}
        )
        assert r.status_code == 200, r.text
    return game_id


class Reader:
    """Reads the lobby over and over: the total, and the seq of every game it sees."""

    def __init__(self, client: httpx.AsyncClient, at_least: int) -> None:
        self.client, self.at_least = client, at_least
        self.seen: dict[str, int] = {}
        self.reads = 0
        self.stop = asyncio.Event()

    async def run(self) -> None:
        while not self.stop.is_set():
            queries: tuple[dict[str, int | str], ...] = (
                {"limit": 100},
                {"limit": 100, "status": "active"},
            )
            for params in queries:
                r = await self.client.get("/v1/games", params=params)
                assert r.status_code == 200, r.text
                body = r.json()
                if "status" not in params:
                    assert body["total"] >= self.at_least, (self.reads, body["total"])
                for game in body["games"]:
                    assert game["seq"] >= self.seen.get(game["id"], 0), game
                    self.seen[game["id"]] = game["seq"]
                self.reads += 1


async def test_a_rebuild_while_the_service_answers_never_shows_fewer_games(own_server):
    settings = Settings().replace(rate_limits=False, open_games_per_client=0)
    redis = await store_client(own_server.url)
    app = create_app(with_queue(settings, own_server), own_server.url)
    async with on_socket(app) as url, httpx.AsyncClient(base_url=url, timeout=60) as client:
        created = [await create(client, n) for n in range(GAMES)]
        await caught_up(client)

        # In process, a few games per read, while games are created and started.
        reader = Reader(client, at_least=len(created))
        reading = asyncio.create_task(reader.run())

        async def more() -> None:
            while not reader.stop.is_set():
                created.append(await create(client, len(created)))

        writing = asyncio.create_task(more())
        done = await rebuild(redis, EventStore(redis), games_per_read=5)
        reader.stop.set()
        await asyncio.gather(reading, writing)
        assert done.games >= GAMES and reader.reads >= 10, (done, reader.reads)
        await caught_up(client)
        assert (await client.get("/v1/games")).json()["total"] == len(created)

        # The command, as an operator runs it against the running service.
        reader = Reader(client, at_least=len(created))
        reading = asyncio.create_task(reader.run())
        command = await asyncio.create_subprocess_exec(
            sys.executable,
            "-m",
            "service.cli",
            "projections",
            "rebuild",
            env={**os.environ, "REDIS_URL": own_server.url},
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE,
        )
        out, err = await command.communicate()
        reader.stop.set()
        await reading
        assert command.returncode == 0, err
        assert f"of {len(created)} games" in out.decode(), out
        await caught_up(client)

    # Every summary is at its game's last seq, and the models are what a rebuild makes.
    summaries = await lobby.summaries(redis, created)
    for game_id in created:
        summary = summaries[game_id]
        assert summary is not None
        assert summary.seq == await redis.xlen(keys.GameKeys(game_id).stream)
    live = await read_models(own_server.url)
    await rebuild(redis, EventStore(redis))
    assert await read_models(own_server.url) == live
    await redis.aclose()


async def test_a_second_rebuild_is_refused_while_one_runs(own_server):
    redis = await store_client(own_server.url)
    await redis.set(lobby.REBUILDING, "another", px=60_000)
    with pytest.raises(RebuildRunning, match="another rebuild is running"):
        await rebuild(redis, EventStore(redis))
    assert await redis.get(lobby.REBUILDING) == b"another"  # its marker is left alone
    assert not await redis.exists(*lobby.NEXT_KEYS)  # nothing was built beside
    await redis.aclose()


async def test_a_rebuild_replaces_models_that_claim_more_than_the_stream_holds(own_server):
    """A model ahead of its stream (a store that lost events, a bug) is not newer: the
    rebuild puts the stream's truth in its place."""
    redis = await store_client(own_server.url)
    store = EventStore(redis)
    settings = with_queue(Settings().replace(background=False, rate_limits=False), own_server)
    app = create_app(settings, own_server.url)
    async with on_socket(app) as url, httpx.AsyncClient(base_url=url, timeout=60) as client:
        game_id = await create(client, 0)  # 4 events: created, two joined, started
    await rebuild(redis, store)
    right = await read_models(own_server.url)
    wrong = lobby.LobbyGame(game_id, "danger", "finished", 2, [], "2020-01-01T00:00:00Z", 999)
    await lobby.write(redis, [wrong])
    await redis.hset(rounds_key(game_id), mapping={"_seq": 999, "7": "{}"})
    assert await read_models(own_server.url) != right
    await rebuild(redis, store)
    assert await read_models(own_server.url) == right
    await redis.aclose()
