"""The job queue over several queue servers (service/jobs/queue_servers.py): real
valkey-servers on loopback, one of them killed."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

import pytest
from arq.connections import ArqRedis
from litestar.testing import AsyncTestClient
from redis.asyncio import Redis
from redis.exceptions import ConnectionError as Unreachable

from events.keys import shard_number, use_shards
from service.assembly.app import create_app
from service.infra.config import Settings
from service.infra.connections import QueueRefused, queue_urls
from service.infra.supervisor import Supervisor, TaskHealth
from service.jobs.queue_servers import QueueServer, QueueServers
from service.jobs.worker import JobQueue, job_id
from tests.cluster import Node
from tests.integration.test_timer_workers import rang
from tests.players import bot_table, new_table, seq_of
from tests.stores import Store


def queue_server(data_dir: Path) -> Store:
    """A standalone Valkey for the queue, as durable as tests/cluster.py's."""
    return Store(data_dir, "--appendonly", "yes", "--appendfsync", "always").start()


def servers_of(*stores: Store) -> QueueServers:
    clients = [Redis.from_url(s.url) for s in stores]
    return QueueServers(
        [
            QueueServer(s.url, c, ArqRedis(c.connection_pool), checked=True)
            for s, c in zip(stores, clients, strict=True)
        ]
    )


async def holds(store: Store, job: str) -> bool:
    async with Redis.from_url(store.url) as r:
        return bool(await r.exists(f"arq:job:{job}"))


async def test_a_games_jobs_go_to_its_shards_server_and_while_it_is_gone_spread_over_the_rest(
    tmp_path,
):
    use_shards(1024)
    stores = [queue_server(tmp_path / f"q{i}") for i in range(3)]
    servers = servers_of(*stores)
    queue = JobQueue(servers)
    games = [f"game{i}" for i in range(90)]
    deadline = time.time() + 3600
    try:
        for game in games:
            await queue.timer(game, "round@1", _at(deadline))
        for game in games:  # the shard's number mod 3, and on no other server
            on = [await holds(s, job_id(game, "round@1")) for s in stores]
            assert on == [i == shard_number(game) % 3 for i in range(3)], (game, on)

        stores[0].kill()
        gone = [g for g in games if shard_number(g) % 3 == 0]
        before = elsewhere()
        for game in gone:
            await queue.timer(game, "round@2", _at(deadline))
        assert elsewhere() - before == len(gone), "counted, by the server they belong to"
        landed = [[await holds(s, job_id(g, "round@2")) for g in gone] for s in stores[1:]]
        assert all(a != b for a, b in zip(*landed, strict=True)), "each queued once, elsewhere"
        assert min(sum(on) for on in landed) >= len(gone) // 4, "spread over both others"
        assert servers.servers[0].down_until > 0, "passed over, not tried for every job"

        stores[0].start()  # back, on its port, with the jobs it held
        later = time.monotonic() + 10
        while servers.servers[0].down_until:  # tried again once its pause is over
            assert time.monotonic() < later, "the server that came back was never tried"
            await asyncio.sleep(0.2)
            await queue.timer(gone[0], "round@3", _at(deadline))
        await queue.timer(gone[1], "round@3", _at(deadline))
        assert await holds(stores[0], job_id(gone[1], "round@3")), "home again"
        assert await holds(stores[0], job_id(gone[1], "round@1")), "its jobs kept"
    finally:
        await servers.close()
        for s in stores:
            s.stop()


def elsewhere() -> float:
    """danger_jobs_queued_elsewhere_total of the first queue server's games."""
    from prometheus_client import REGISTRY

    labels = {"server": "0"}
    return REGISTRY.get_sample_value("danger_jobs_queued_elsewhere_total", labels) or 0.0


def _at(epoch: float):
    from datetime import UTC, datetime

    return datetime.fromtimestamp(epoch, UTC)


async def test_each_queue_server_is_checked_and_one_unreachable_at_start_is_left_for_later(
    tmp_path, own_server
):
    single = queue_server(tmp_path / "single")
    node = Node(tmp_path / "node").start()  # cluster-enabled, no slots: a node all the same
    dead = "redis://:secret@127.0.0.1:1/0"
    try:
        at = await queue_urls(own_server.url, (single.url, dead))
        assert at.urls == (single.url, dead) and at.checked == {single.url}
        with pytest.raises(QueueRefused, match=r"node of a cluster \(127\.0\.0\.1:\d+\)"):
            await queue_urls(own_server.url, (single.url, node.url))
        with pytest.raises(QueueRefused, match="node of a cluster"):
            await queue_urls(own_server.url, (node.url,))
        with pytest.raises(Unreachable):  # one server, unreachable: refused, as before
            await queue_urls(own_server.url, (dead,))
        # A server left unchecked is checked when first reached, and refused then.
        client = Redis.from_url(node.url)
        server = QueueServer(node.url, client, ArqRedis(client.connection_pool))
        with pytest.raises(QueueRefused):
            await server.check()
        assert server.refused and not server.checked
        await client.aclose()
    finally:
        node.stop()
        single.stop()


async def test_the_arq_workers_give_up_together():
    supervisor = Supervisor(give_up_seconds=0.3)

    async def failing(_: TaskHealth) -> None:
        raise ConnectionError("gone")

    async def polling(health: TaskHealth) -> None:
        while True:
            health.ok()
            await asyncio.sleep(0.05)

    supervisor.start("worker:0", failing, group="workers")
    supervisor.start("worker:1", polling, group="workers")
    supervisor.start("sweep", polling)
    await asyncio.sleep(1.0)
    try:
        report = supervisor.report()
        assert report["worker:0"][0] == "failed" and report["worker:1"][0] == "running"
        assert supervisor.hopeless() == [], "one queue server gone stops no process"
    finally:
        await supervisor.stop()
    supervisor = Supervisor(give_up_seconds=0.3)
    supervisor.start("worker:0", failing, group="workers")
    supervisor.start("worker:1", failing, group="workers")
    await asyncio.sleep(1.0)
    try:
        assert sorted(supervisor.hopeless()) == ["worker:0", "worker:1"]
    finally:
        await supervisor.stop()


async def test_with_two_queue_servers_and_one_killed_every_games_timers_ring_and_bots_move(
    tmp_path, own_server
):
    """Each queue server serves its games' turn clocks and bot moves, a worker on each; one
    is killed (SIGKILL) while it holds jobs: the timers and bots of its games go on from the
    other (the sweep queues their lost jobs there), those of the other's games as before,
    /health says which is gone; back, it serves its games again, and each timer rang once."""
    stores = [queue_server(tmp_path / f"q{i}") for i in range(2)]
    settings = Settings().replace(
        rate_limits=False,
        open_games_per_client=0,
        stream_process=False,
        sweep_seconds=0.5,
        queue_url=",".join(s.url for s in stores),
    )
    app = create_app(settings, own_server.url)
    try:
        async with AsyncTestClient(app=app) as client:

            async def tables() -> tuple[dict[int, list[str]], dict[int, list[str]]]:
                """Timer games (round clocks, nobody plays) and bot games, by queue server:
                at least two timer games and one bot game on each."""
                timers: dict[int, list[str]] = {0: [], 1: []}
                bots: dict[int, list[str]] = {0: [], 1: []}
                for _ in range(40):
                    if min(map(len, timers.values())) >= 2 and min(map(len, bots.values())):
                        break
                    table = await new_table(
                        client, seats=2, game="danger-danger", round_seconds=2.0
                    )
                    timers[shard_number(table.id) % 2].append(table.id)
                    game = await bot_table(client, think_ms=150)
                    bots[shard_number(game) % 2].append(game)
                assert min(map(len, timers.values())) >= 2 and min(map(len, bots.values()))
                return timers, bots

            timers, bots = await tables()
            # Every game's first clock rings, each by its own server's worker.
            await _until(lambda: _all_rang(client, timers, 1), 20, "a first ring")
            seqs = {g: await seq_of(client, g) for games in bots.values() for g in games}
            health = (await client.get("/health", params={"fresh": "true"})).json()
            assert [q["state"] for q in health["queues"]] == ["ok", "ok"], health

            stores[0].kill()  # with the next rounds' clocks and the bots' moves queued on it
            after_kill = await tables()  # new games too, begun while it is gone
            health = await _until(lambda: _health(client, "unreachable"), 15, "/health")
            assert health["status"] == "degraded"
            names = [q["server"] for q in health["queues"]]
            assert names == [f"127.0.0.1:{s.port}" for s in stores], names
            assert health["queues"][1]["state"] == "ok" and health["queues"][1]["worker"]
            assert health["tasks"]["worker:0"]["state"] == "retrying", health["tasks"]
            assert health["tasks"]["worker:1"]["state"] == "running", health["tasks"]

            # Every clock rings its three rounds and ends its game, on both servers' games.
            every = {s: timers[s] + after_kill[0][s] for s in (0, 1)}
            await _until(lambda: _all_rang(client, every, 3), 60, "three rings each")
            for games in every.values():
                for game in games:
                    assert await rang(client, game) == [(1, 1), (1, 2), (1, 3)], game
            # Every bot game goes on: its bots moved since the kill.
            for games in bots.values():
                for game in games:
                    await _until(
                        lambda g=game: _moved(client, g, seqs[g] + 3), 30, f"bot moves in {game}"
                    )

            stores[0].start()  # back with the jobs it held: stale by now, they change nothing
            await _until(lambda: _health(client, "ok"), 20, "/health with both servers")
            fresh = await bot_table(client, think_ms=0)
            await _until(lambda: _moved(client, fresh, 8), 30, "a bot game after the return")
            await asyncio.sleep(1.0)  # for the old jobs to run
            for games in every.values():
                for game in games:
                    assert await rang(client, game) == [(1, 1), (1, 2), (1, 3)], game
    finally:
        for s in stores:
            s.stop()


async def _until(check, seconds: float, what: str):
    deadline = time.monotonic() + seconds
    while True:
        found = await check()
        if found:
            return found
        assert time.monotonic() < deadline, f"no {what} within {seconds} s"
        await asyncio.sleep(0.2)


async def _all_rang(client, games: dict[int, list[str]], times: int) -> bool:
    for ids in games.values():
        for game in ids:
            if len(await rang(client, game)) < times:
                return False
    return True


async def _moved(client, game: str, seq: int) -> bool:
    state = (await client.get(f"/v1/games/{game}")).json()
    return state["seq"] >= seq or state["status"] != "active"


async def _health(client, first: str) -> dict | None:
    health = (await client.get("/health", params={"fresh": "true"})).json()
    states = [q["state"] for q in health["queues"]]
    return health if states == [first, "ok"] else None


async def test_a_queue_server_found_to_be_a_node_of_a_cluster_is_never_used(tmp_path):
    use_shards(1024)
    single, node = queue_server(tmp_path / "single"), Node(tmp_path / "node").start()
    clients = [Redis.from_url(single.url), Redis.from_url(node.url)]
    servers = QueueServers(
        [
            QueueServer(single.url, clients[0], ArqRedis(clients[0].connection_pool)),
            QueueServer(node.url, clients[1], ArqRedis(clients[1].connection_pool)),
        ]
    )
    queue = JobQueue(servers)
    try:
        games = [f"game{i}" for i in range(8)]
        for game in games:
            await queue.timer(game, "round@1", _at(time.time() + 3600))
        assert all([await holds(single, job_id(g, "round@1")) for g in games])
        assert servers.servers[1].refused and servers.servers[0].checked
        alone = QueueServers([servers.servers[1]])
        with pytest.raises(QueueRefused):  # no server left to take them: said, not lost
            await JobQueue(alone).timer(games[0], "round@2", _at(time.time() + 3600))
    finally:
        await servers.close()
        node.stop()
        single.stop()
