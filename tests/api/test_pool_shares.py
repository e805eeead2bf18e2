"""No client starves the pool for audits, replays and exports: each holds at most
DANGER_CPU_PER_CLIENT of its places, running or waiting (429 `too_many_in_flight` beyond),
and uploads of exports to audit draw on a bucket of their own (DANGER_RATE_AUDIT).

Two clients on a real socket are two loopback addresses: 127.0.0.0/8 is all the host's."""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import AsyncIterator

import httpx
import pytest
from litestar import Litestar

from service.infra.config import Settings
from service.infra.errors import ApiError
from service.play.offload import Offload
from tests.conftest import make_app, on_socket
from tests.players import new_table, play_to_end

NDJSON = {"Content-Type": "application/x-ndjson"}
FLOOD = 40  # uploads one client keeps in flight at once
ROUNDS = 10  # uploads each of them sends at most, one after the other
REPLAYS = 20


@contextlib.asynccontextmanager
async def clients(app: Litestar, *addresses: str) -> AsyncIterator[list[httpx.AsyncClient]]:
    """The app on a loopback socket, and a client connecting from each address."""
    async with on_socket(app) as url, contextlib.AsyncExitStack() as stack:
        yield [
            await stack.enter_async_context(
                httpx.AsyncClient(
                    base_url=url,
                    timeout=60,
                    transport=httpx.AsyncHTTPTransport(local_address=address),
                    limits=httpx.Limits(max_connections=FLOOD),
                )
            )
            for address in addresses
        ]


async def finished_game(client: httpx.AsyncClient, seats: int) -> tuple[str, bytes]:
    """A game played to its end: its id and its export."""
    table = await new_table(client, seats=seats)
    await play_to_end(table)
    export = await client.get(f"/v1/games/{table.id}/export")
    assert export.status_code == 200
    return table.id, export.content


def assert_too_many_in_flight(r: httpx.Response) -> None:
    assert r.status_code == 429, r.text
    assert r.headers["content-type"].startswith("application/problem+json")
    assert r.json()["code"] == "too_many_in_flight"
    assert r.headers["retry-after"] == "1"


async def test_one_clients_flood_of_uploads_leaves_another_clients_replays_answered(valkey):
    app = make_app(valkey, cpu_workers=1)  # the default queue, and per-client share
    async with clients(app, "127.0.0.2", "127.0.0.3") as (flooder, reader):
        game_id, export = await finished_game(reader, seats=5)
        assert len(export) > 300_000  # as large as a long game's
        last = export.count(b"\n")
        replaying = True

        async def upload() -> list[httpx.Response]:
            answers: list[httpx.Response] = []
            while replaying and len(answers) < ROUNDS:
                answers.append(await flooder.post("/v1/audit", content=export, headers=NDJSON))
            return answers

        async def replays() -> list[httpx.Response]:
            nonlocal replaying
            answers = []
            await asyncio.sleep(0.05)  # the flood is under way first
            for n in range(REPLAYS):
                seq = 1 + n * (last - 1) // (REPLAYS - 1)
                answers.append(await reader.get(f"/v1/games/{game_id}/replay?seq={seq}"))
            replaying = False
            return answers

        *floods, replayed = await asyncio.gather(*(upload() for _ in range(FLOOD)), replays())
        assert [r.status_code for r in replayed] == [200] * REPLAYS, [
            r.text for r in replayed if r.status_code != 200
        ]
        flood = [r for answers in floods for r in answers]
        refused = [r for r in flood if r.status_code != 200]
        assert refused, "the flood went beyond its share"
        for r in refused:
            assert_too_many_in_flight(r)
        # Within its share, the flooding client is still answered.
        answered = [r for r in flood if r.status_code == 200]
        assert answered and all(r.json()["ok"] for r in answered)
        assert app.state.offload.clients() == 0  # nothing left held for anyone
        after = await flooder.post("/v1/audit", content=export, headers=NDJSON)
        assert after.status_code == 200


async def test_a_client_holds_at_most_its_share_of_the_pool_and_leaves_nothing_behind():
    pool = Offload(workers=1, queue=8, per_client=2)
    try:
        held = [asyncio.create_task(pool.run("a", time.sleep, 0.3)) for _ in range(2)]
        await asyncio.sleep(0)  # both have taken their places
        with pytest.raises(ApiError) as refused:
            await pool.run("a", abs, -1)
        assert refused.value.status == 429 and refused.value.code == "too_many_in_flight"
        assert refused.value.extra["headers"] == {"Retry-After": "1"}
        assert await pool.run("b", abs, -2) == 2  # another client's read waits its turn
        await asyncio.gather(*held)
        assert await pool.run("a", abs, -3) == 3  # its places are given back
        with pytest.raises(ValueError):  # and given back when the work fails too
            await pool.run("c", int, "x")
        assert pool.clients() == 0, "a client with nothing in flight is forgotten"
    finally:
        pool.close()


async def test_the_whole_pool_still_refuses_with_503_busy_past_its_queue():
    pool = Offload(workers=1, queue=1, per_client=2)
    try:
        held = [asyncio.create_task(pool.run(c, time.sleep, 0.3)) for c in ("a", "b")]
        await asyncio.sleep(0)
        with pytest.raises(ApiError) as refused:
            await pool.run("c", abs, -1)
        assert refused.value.status == 503 and refused.value.code == "busy"
        await asyncio.gather(*held)
        assert pool.clients() == 0
    finally:
        pool.close()


async def test_uploads_to_audit_draw_on_a_bucket_of_their_own(valkey):
    # A game played through reads more than a read bucket holds: it is played unlimited.
    async with clients(make_app(valkey), "127.0.0.4") as (player,):
        game_id, export = await finished_game(player, seats=2)
    app = make_app(valkey, rate_limits=True)
    async with clients(app, "127.0.0.4") as (client,):
        quota = 10  # DANGER_RATE_AUDIT's default: 10 per 60 s
        answers = [
            await client.post("/v1/audit", content=export, headers=NDJSON) for _ in range(quota + 1)
        ]
        assert [r.status_code for r in answers] == [200] * quota + [429]
        assert answers[0].headers["RateLimit-Policy"] == f'"audit";q={quota};w=60'
        refused = answers[-1]
        assert refused.json()["code"] == "rate_limited" and int(refused.headers["Retry-After"]) >= 1
        # The client's reads have their own bucket, and the game's own audit is a read.
        for path in ("/replay?seq=3", "/audit", "/export"):
            r = await client.get(f"/v1/games/{game_id}{path}")
            assert r.status_code == 200 and r.headers["RateLimit-Policy"].startswith('"read"')


def test_the_settings_are_read_from_the_environment(monkeypatch):
    monkeypatch.delenv("DANGER_CPU_PER_CLIENT", raising=False)
    monkeypatch.delenv("DANGER_RATE_AUDIT", raising=False)
    settings = Settings.from_env()
    assert settings.cpu.cpu_per_client == 2 and str(settings.rates.audit) == "10/60"
    monkeypatch.setenv("DANGER_CPU_PER_CLIENT", "5")
    monkeypatch.setenv("DANGER_RATE_AUDIT", "off")
    settings = Settings.from_env()
    assert settings.cpu.cpu_per_client == 5 and settings.rates.audit is None
    monkeypatch.setenv("DANGER_CPU_PER_CLIENT", "0")
    with pytest.raises(ValueError, match="DANGER_CPU_PER_CLIENT"):
        Settings.from_env()
