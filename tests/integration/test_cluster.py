"""The service on a Valkey cluster (three masters on loopback, tests/cluster.py) with its job
queue on a standalone Valkey: games of every kind play through the real app, a live stream
follows one, the read models match a rebuild, and the games spread over every master. A
process refuses to start on a cluster without a queue of its own, or counting the store's
shards differently."""

from __future__ import annotations

import asyncio
import random
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from litestar.testing import AsyncTestClient
from redis.crc import key_slot

from events import keys
from events.store import EventStore
from service.assembly.app import create_app
from service.infra import shards
from service.infra.config import Settings
from service.infra.durability import Durability
from service.readmodels.rebuild import rebuild
from tests.cluster import LoopbackCluster
from tests.conftest import on_socket
from tests.players import new_table, play_to_end
from tests.processes import run_cli
from tests.projections import caught_up, read_models
from tests.stores import store_client

KINDS = [
    ("danger", 2, {}),
    ("high-voltage", 3, {}),
    ("danger-13", 2, {}),
    ("danger-danger", 2, {"round_seconds": 3600}),
]


@pytest.fixture(scope="module")
def cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LoopbackCluster]:
    server = LoopbackCluster(Path(tmp_path_factory.mktemp("cluster"))).start()
    yield server
    server.stop()


def settings(cluster: LoopbackCluster, **more: object) -> Settings:
    queue = getattr(cluster, "queue_url", None)
    base = {"rate_limits": False, "open_games_per_client": 0, "queue_url": queue}
    return Settings().replace(**{**base, **more})


async def follow(base: str, game_id: str) -> list[int]:
    """The seqs a live stream of the game sends, until it ends with the game's last event."""
    seqs = []
    async with (
        httpx.AsyncClient(base_url=base, timeout=60) as http,
        http.stream("GET", f"/v1/games/{game_id}/stream") as r,
    ):
        assert r.status_code == 200
        async for line in r.aiter_lines():
            if line.startswith("id: "):
                seqs.append(int(line[4:]))
    return seqs


async def rated_game(client: httpx.AsyncClient) -> None:
    """Two players, each from an address of their own, play a rated game (seat 1 resigns):
    their ratings are applied and the leaderboard, in its kind's slot, ranks them."""
    tokens = []
    for n, name in enumerate(["Cleo", "Dan"]):
        address = {"X-Forwarded-For": f"198.51.100.{n + 1}"}
        player = (await client.post("/v1/players", json={"name": name}, headers=address)).json()
        tokens.append({"Authorization": f"Bearer {player['token']}", **address})
    made = (await client.post("/v1/games", json={"game": "danger", "seats": 2})).json()
    seats = []
    for n in range(2):
        joined = await client.post(
            f"/v1/games/{made['id']}/players", json={"name": f"s{n}"}, headers=tokens[n]
        )
        seats.append(joined.json()["token"])
    admin = {"Authorization": f"Bearer {made['admin_token']}"}
    assert (await client.post(f"/v1/games/{made['id']}/start", headers=admin)).status_code == 200
    resign = f"/v1/games/{made['id']}/players/1/resign"
    assert (await client.post(resign, headers={"Authorization": f"Bearer {seats[1]}"})).is_success
    for _ in range(100):
        board = (await client.get("/v1/leaderboards/danger")).json()
        if board["total"] == 2:
            break
        await asyncio.sleep(0.1)
    assert [row["name"] for row in board["players"]] == ["Cleo", "Dan"]


async def test_every_kind_of_game_plays_on_a_cluster_and_a_rebuild_matches_it(cluster):
    app = create_app(settings(cluster, background=True, trusted_proxy=("*",)), cluster.url)
    async with on_socket(app) as base, httpx.AsyncClient(base_url=base, timeout=30) as client:
        tables = []
        ann = (await client.post("/v1/players", json={"name": "Ann"})).json()
        for n, (game, seats, options) in enumerate(KINDS):
            table = await new_table(
                client, seats=seats, game=game, players=[ann["token"]], **options
            )
            streamed = asyncio.create_task(follow(base, table.id)) if n == 0 else None
            await play_to_end(table, choose=random.Random(n).choice)
            tables.append((table, streamed))
        health = await caught_up(client)
        assert health["status"] == "ok", health
        for table, streamed in tables:
            state = await table.state()
            assert state["status"] == "finished"
            events = (await client.get(f"/v1/games/{table.id}/events")).json()["events"]
            assert [e["seq"] for e in events] == list(range(1, state["seq"] + 1))
            assert (await client.get(f"/v1/games/{table.id}/audit")).json()["ok"]
            if streamed is not None:  # live, through the hub: every event, once, in order
                assert await asyncio.wait_for(streamed, 30) == list(range(1, state["seq"] + 1))
        listed = (await client.get("/v1/games", params={"status": "finished"})).json()
        assert {t.id for t, _ in tables} <= {g["id"] for g in listed["games"]}
        assert (await client.get(f"/v1/players/{ann['id']}")).json()["games"] == len(KINDS)
        await rated_game(client)
    live = await read_models(cluster.url)
    redis = await store_client(cluster.url)
    try:
        await rebuild(redis, EventStore(redis))
    finally:
        await redis.aclose()
    assert await read_models(cluster.url) == live


def test_the_shards_land_in_evenly_spaced_slots_for_any_number_of_masters():
    slots = [key_slot(keys.feed(shard).encode()) for shard in keys.all_shards()]
    assert slots == list(range(0, keys.SLOTS, 16))
    for masters in (2, 3, 5, 10, 30, 100, 300):
        # each master a range of slots, their sizes as even as they can be
        held = Counter(slot * masters // keys.SLOTS for slot in slots)
        assert max(held.values()) - min(held.values()) <= 1, (masters, held)


async def test_the_shards_spread_evenly_over_the_masters(cluster):
    redis = await store_client(cluster.url)
    try:
        assert int(await redis.get(keys.SHARDS_KEY) or keys.DEFAULT_SHARDS) == 1024
        per_master = Counter(
            redis.get_node_from_key(keys.feed(shard)).name for shard in keys.all_shards()
        )
    finally:
        await redis.aclose()
    assert len(per_master) == 3
    # 1,024 tags in every 16th slot; each master holds a third of the slots, to one.
    assert sorted(per_master.values()) == [341, 341, 342], per_master


def test_a_cluster_without_a_queue_of_its_own_is_refused(cluster):
    for queue in ({}, {"DANGER_QUEUE_URL": cluster.url}):
        for command in (["serve"], ["worker"]):
            done = run_cli(*command, REDIS_URL=cluster.url, **queue)
            assert done.returncode == 1, done.stderr
            assert "DANGER_QUEUE_URL" in done.stderr and "Traceback" not in done.stderr
            assert len(done.stderr.strip().splitlines()) == 1, done.stderr


def test_a_process_counting_the_shards_differently_refuses_to_start(cluster):
    both = {"REDIS_URL": cluster.url, "DANGER_QUEUE_URL": cluster.queue_url}
    for command in (["serve"], ["worker"], ["projections", "rebuild"]):
        done = run_cli(*command, DANGER_SHARDS="16", **both)
        assert done.returncode == 1, done.stderr
        assert "1024 shards" in done.stderr and "DANGER_SHARDS=16" in done.stderr
        assert len(done.stderr.strip().splitlines()) == 1, done.stderr


async def test_a_store_written_before_the_shards_were_recorded_keeps_its_sixteen(own_server):
    redis = await store_client(own_server.url)
    try:
        await redis.xadd(keys.feed("s07"), {"game": "old", "first": 1, "last": 1})
        assert await shards.establish(redis, None) == 16
        assert keys.all_shards() == [f"s{i:02d}" for i in range(16)]
        with pytest.raises(shards.ShardsRefused):
            await shards.establish(redis, 1024)
    finally:
        keys.use_shards(keys.DEFAULT_SHARDS)
        await redis.aclose()


async def test_a_new_store_records_its_shards_and_keeps_them(own_server):
    redis = await store_client(own_server.url)
    try:
        assert await shards.establish(redis, None) == 1024
        assert await redis.get(keys.SHARDS_KEY) == b"1024"
        async with AsyncTestClient(app=create_app(settings(own_server), own_server.url)):
            pass  # a process configured with nothing uses the store's number
        assert await shards.establish(redis, 1024) == 1024
    finally:
        keys.use_shards(keys.DEFAULT_SHARDS)
        await redis.aclose()


async def test_with_replicas_every_primary_is_checked_and_every_append_waits_for_its_copy(
    tmp_path,
):
    """`DANGER_DURABILITY=replicas:1` on a cluster: each primary's replica confirms a probe at
    startup, and each append is answered after its replica has it (its script and the WAIT
    on one connection to the game's node)."""
    replicated = LoopbackCluster(tmp_path, replicas=1).start()
    try:
        durability = Durability("replicas", 1, wait_ms=1000)
        app = create_app(settings(replicated, durability=durability), replicated.url)
        async with AsyncTestClient(app=app) as client:
            health = (await client.get("/health")).json()["durability"]
            assert health["mode"] == "replicas" and health["checked"], health
            assert health["store"].startswith("3 primaries"), health
            answered = {}
            for _ in range(2):
                table = await new_table(client, seats=2)
                await play_to_end(table, choose=random.Random(1).choice)
                answered[table.id] = (await table.state())["seq"]
        # every answered event is on the game's replica too
        redis = await store_client(replicated.url)
        try:
            for game_id, seq in answered.items():
                stream = keys.GameKeys(game_id).stream
                node = redis.get_node_from_key(stream)
                replica = next(n for n in replicated.replicas if master_port(n) == node.port)
                with replica.client() as r:
                    assert r.info("replication")["role"] == "slave"
                    r.execute_command("READONLY")
                    assert r.xlen(stream) == seq
        finally:
            await redis.aclose()
    finally:
        replicated.stop()


def master_port(replica) -> int:
    with replica.client() as r:
        return int(r.info("replication")["master_port"])
