"""Durability is checked, not assumed: a store that could lose an answered command is refused
at startup unless the operator opts in (DANGER_DURABILITY), /health says which durability is
in force, and with replicas every append waits until they confirm it. Real valkey-server
processes throughout (tests/stores.py)."""

from __future__ import annotations

import asyncio
import random
import signal
import subprocess
import time
from pathlib import Path

import httpx
import pytest
from litestar.testing import AsyncTestClient

from service.http import health as health_module
from service.infra.durability import Durability, Refused, refusal
from tests.conftest import make_app, on_socket
from tests.integration.test_durability import keep_playing
from tests.integration.test_restart import free_port, serve
from tests.players import Table, new_table
from tests.processes import run_cli
from tests.stores import Store, wait_for_replicas

LOSSY = [
    (("--appendonly", "no"), "appendonly no"),
    (("--appendonly", "yes", "--appendfsync", "everysec"), "appendfsync everysec"),
]


def refused_start(url: str, *command: str, **env: str) -> subprocess.CompletedProcess[str]:
    """`danger <command>` against the store at `url`, until it exits (it must, refused)."""
    return run_cli(*command, REDIS_URL=url, DANGER_PORT=str(free_port()), **env)


@pytest.fixture
def stores(tmp_path: Path):
    """Start stores in folders of tmp_path; every one is killed at the end."""
    started: list[Store] = []

    def start(name: str, *settings: str) -> Store:
        store = Store(tmp_path / name, *settings).start()
        started.append(store)
        return store

    yield start
    for store in started:
        store.kill()


@pytest.mark.parametrize(("settings", "named"), LOSSY)
def test_a_store_that_can_lose_acknowledged_commands_is_refused_at_startup(stores, settings, named):
    store = stores("lossy", *settings)
    for command in (["serve"], ["worker"]):
        done = refused_start(store.url, *command)
        assert done.returncode == 1, done.stderr
        assert named in done.stderr  # what is wrong
        assert "appendonly yes" in done.stderr and "appendfsync always" in done.stderr  # the fix
        assert "DANGER_DURABILITY=weak" in done.stderr  # and the way to opt out
        assert "Traceback" not in done.stderr
    with store.client() as r:
        assert r.dbsize() == 0  # it served nothing


async def test_weak_serves_such_a_store_says_so_and_loses_what_it_answered(stores):
    store = stores("lossy", "--appendonly", "no")
    with pytest.raises(BaseExceptionGroup) as refused:  # the default, in-process too
        async with AsyncTestClient(app=make_app(store)):
            pass
    assert refused.group_contains(Refused, match="appendonly no")
    async with AsyncTestClient(app=make_app(store, durability=Durability("weak"))) as client:
        health = (await client.get("/health")).json()
        assert health["durability"]["mode"] == "weak"
        assert health["durability"]["checked"] is False
        assert "appendonly no" in health["durability"]["store"]
        table = await new_table(client, seats=2)
    # What weak means: the store crashes, and the game it answered for is gone.
    store.kill()
    store.start()
    async with AsyncTestClient(app=make_app(store, durability=Durability("weak"))) as client:
        assert (await client.get(f"/v1/games/{table.id}")).status_code == 404


async def test_the_embedded_default_passes_the_check(tmp_path, valkey):
    async with AsyncTestClient(app=make_app(valkey)) as client:  # the session's server
        durability = (await client.get("/health")).json()["durability"]
    assert durability["mode"] == "fsync" and durability["checked"] is True
    assert durability["store"].startswith("appendonly yes, appendfsync always")
    port = free_port()
    proc = serve(tmp_path, port)  # `make run`: `danger serve`, its own embedded Valkey
    try:
        health = httpx.get(f"http://127.0.0.1:{port}/health", timeout=10).json()
        assert health["durability"] == durability
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.wait(timeout=20)


async def test_declared_skips_the_check_on_a_store_that_forbids_config(stores):
    # A managed service's ACL: everything but CONFIG. And nothing on disk, which the
    # service cannot see: the operator declares the guarantee.
    acl = ("--user", "default", "on", "nopass", "~*", "&*", "+@all", "-config")
    store = stores("managed", "--appendonly", "no", *acl)
    refused = await refusal(store.url, Durability())
    assert refused is not None
    assert "CONFIG" in refused and "DANGER_DURABILITY=declared" in refused
    async with AsyncTestClient(app=make_app(store, durability=Durability("declared"))) as client:
        health = (await client.get("/health")).json()
        assert health["durability"] == {
            "mode": "declared",
            "replicas": 0,
            "checked": False,
            "store": "not read: declared by DANGER_DURABILITY=declared",
            "alone": [],
        }
        await new_table(client, seats=2)  # and it serves


def replicated(
    stores, replica_settings: tuple[str, ...] = (), primary_fsyncs: bool = False
) -> tuple[Store, Store]:
    """A primary that keeps nothing on disk (or, with `primary_fsyncs`, an fsynced append-only
    file too), and one replica with an fsynced append-only file: what an acknowledged append
    survives is the replica's copy."""
    on_disk = ("--appendonly", "yes", "--appendfsync", "always")
    primary = stores("primary", *(on_disk if primary_fsyncs else ("--appendonly", "no")))
    replica = stores(
        "replica",
        "--appendonly", "yes",
        "--appendfsync", "always",
        "--replicaof", "127.0.0.1", str(primary.port),
        *replica_settings,
    )  # fmt: skip
    wait_for_replicas(primary, 1)
    return primary, replica


def replica_seq(replica: Store, game_id: str) -> int:
    with replica.client() as r:
        stream = next(iter(r.scan_iter(match=f"dg:*:game:{game_id}")))
        last = r.xrevrange(stream, count=1)
    return int(last[0][0].split(b"-")[1]) if last else 0


async def test_with_replicas_an_append_is_answered_once_the_replica_has_it_else_503(stores):
    primary, replica = replicated(stores)
    durability = Durability("replicas", 1, wait_ms=300)
    app = make_app(primary, durability=durability, background=False)
    async with AsyncTestClient(app=app) as client:
        health = (await client.get("/health")).json()["durability"]
        assert health["mode"] == "replicas" and health["replicas"] == 1
        assert health["checked"] is True
        assert "WAIT+WAITAOF confirmed a write on 1" in health["store"]

        table = await new_table(client, seats=2)
        for _ in range(4):  # every answered command is on the replica when it is answered
            seat, legal = await to_move(table)
            r = await table.send(seat, legal[0])
            assert r.status_code == 200, r.text
            assert replica_seq(replica, table.id) == r.json()["seq"]

        replica.kill()
        seq = (await table.state())["seq"]
        seat, legal = await to_move(table)
        r = await table.send(seat, legal[0], **{"Idempotency-Key": "k1"})
        assert r.status_code == 503, r.text
        assert r.headers["content-type"].startswith("application/problem+json")
        assert r.json()["code"] == "not_replicated" and r.headers["retry-after"] == "1"
        # Nothing half-done: the command's events are all there or none, the chain holds,
        # and the game reads and audits as ever.
        events = (await client.get(f"/v1/games/{table.id}/events")).json()["events"]
        kept = [e for e in events if e["seq"] > seq]
        assert [e["seq"] for e in events] == list(range(1, len(events) + 1))
        audit = (await client.get(f"/v1/games/{table.id}/audit")).json()
        assert audit["checks"][0]["ok"], audit
        # A retry with the key is refused as long as no replica confirms...
        r = await table.send(seat, legal[0], **{"Idempotency-Key": "k1"})
        assert r.status_code == 503 and r.json()["code"] == "not_replicated"
        r = await client.post("/v1/games", json={"game": "danger", "seats": 2})  # any write
        assert r.status_code == 503 and r.json()["code"] == "not_replicated"

        replica.start()  # its append-only file again, then what it missed
        deadline = time.monotonic() + 30
        while True:  # ...and answered with the first answer once the replica is back
            r = await table.send(seat, legal[0], **{"Idempotency-Key": "k1"})
            if r.status_code == 200 or time.monotonic() > deadline:
                break
            await asyncio.sleep(0.1)
        assert r.status_code == 200, r.text
        assert [e["hash"] for e in r.json()["events"]] == [e["hash"] for e in kept]
        assert replica_seq(replica, table.id) == (await table.state())["seq"] == seq + len(kept)


async def test_a_command_written_but_answered_503_is_answered_once_when_sent_again(stores):
    """No Idempotency-Key: the same seat sending the same body again after a 503 whose events
    were written gets the first result, never a second move; once answered, the same body
    is a move of its own again."""
    primary, replica = replicated(stores)
    app = make_app(primary, durability=Durability("replicas", 1, wait_ms=300), background=False)
    async with AsyncTestClient(app=app) as client:
        table = await new_table(client, seats=2, game="danger-13")
        replica.kill()
        seq = (await table.state())["seq"]
        seat, legal = await to_move(table)
        r = await table.send(seat, legal[0])
        assert r.status_code == 503 and r.json()["code"] == "not_replicated", r.text
        events = (await client.get(f"/v1/games/{table.id}/events")).json()["events"]
        kept = [e for e in events if e["seq"] > seq]
        assert kept, "the command's events are on the primary"
        r = await table.send(seat, legal[0])  # again: still not confirmed, still not applied
        assert r.status_code == 503 and r.json()["code"] == "not_replicated", r.text
        assert (await table.state())["seq"] == kept[-1]["seq"]

        replica.start()
        deadline = time.monotonic() + 30
        while True:
            r = await table.send(seat, legal[0])
            if r.status_code != 503 or time.monotonic() > deadline:
                break
            await asyncio.sleep(0.1)
        assert r.status_code == 200, r.text
        assert [e["hash"] for e in r.json()["events"]] == [e["hash"] for e in kept]
        assert (await table.state())["seq"] == kept[-1]["seq"]  # applied once
        # Answered, the record is spent: the same body now is decided as a new command.
        r = await table.send(seat, legal[0])
        assert r.status_code != 200 or r.json()["events"][0]["seq"] == kept[-1]["seq"] + 1


async def to_move(table: Table) -> tuple[int, list]:
    for seat in range(len(table.tokens)):
        legal = (await table.state(seat))["legal"]
        if legal:
            return seat, legal
    raise AssertionError("nobody may move")


async def test_with_replicas_a_store_without_them_confirming_is_refused(stores):
    primary, _ = replicated(stores, ("--appendonly", "no"))  # a replica with nothing on disk
    refused = await refusal(primary.url, Durability("replicas", 2, wait_ms=200))
    assert refused is not None and "needs 2 replicas" in refused and "it has 1" in refused
    refused = await refusal(primary.url, Durability("replicas", 1, wait_ms=200))
    assert refused is not None and "only 0 of the 1 replicas" in refused
    assert "appendonly yes" in refused  # WAITAOF counts a replica once its AOF holds it
    done = refused_start(primary.url, "worker", DANGER_DURABILITY="replicas:1")
    assert done.returncode == 1 and "only 0 of the 1 replicas" in done.stderr


async def test_an_answered_command_survives_sigkill_of_the_store(stores):
    """The default durability, checked, on a store of its own (not the embedded one): each
    client plays until the store dies under it; every event answered 200 is there after."""
    settings = ("--appendonly", "yes", "--appendfsync", "always")
    store = stores("store", *settings)
    rng = random.Random(3)
    answered: list[tuple[str, int, str]] = []
    app = make_app(store, background=False)
    async with on_socket(app) as url, httpx.AsyncClient(base_url=url, timeout=10) as http:
        assert (await http.get("/health")).json()["durability"]["checked"] is True
        tables = [await new_table(http, seats=2, game=g) for g in ("danger", "danger-13") * 2]
        players = [asyncio.create_task(keep_playing(t, answered, rng)) for t in tables]
        await asyncio.sleep(rng.uniform(0.5, 1.5))
        store.kill()
        await asyncio.gather(*players)
    assert answered, "the clients got answers before the kill"
    store.start()
    async with AsyncTestClient(app=make_app(store, background=False)) as client:
        logs = {}
        for table in tables:
            events = (await client.get(f"/v1/games/{table.id}/events?limit=5000")).json()
            logs[table.id] = {e["seq"]: e["hash"] for e in events["events"]}
        for game_id, seq, digest in answered:
            assert logs[game_id].get(seq) == digest, (game_id, seq)


def test_the_setting_reads_its_values_and_names_what_it_expects(stores):
    assert Durability.parse(None) == Durability.parse("") == Durability("fsync", 0, 1000)
    assert Durability.parse(" Replicas:2 ", "250") == Durability("replicas", 2, 250)
    assert str(Durability.parse("declared")) == "declared"
    assert str(Durability("replicas", 3)) == "replicas:3"
    for bad in ("replicas", "replicas:0", "replicas:x", "fsync:1", "always"):
        with pytest.raises(ValueError, match="fsync, replicas:N"):
            Durability.parse(bad)
    for bad_wait in ("0", "-1", "1.5", "60001"):
        with pytest.raises(ValueError, match="DANGER_DURABILITY_WAIT_MS"):
            Durability.parse("replicas:1", bad_wait)
    store = stores("any", "--appendonly", "yes", "--appendfsync", "always")
    done = refused_start(store.url, "serve", DANGER_DURABILITY="sometimes")
    assert done.returncode == 2 and "DANGER_DURABILITY: expected fsync" in done.stderr


async def test_by_default_a_primary_that_could_lose_writes_keeps_refusing_and_says_so_once(
    stores, caplog
):
    """No DANGER_DURABILITY, the replica gone, and a primary whose fsync was turned down
    since the start: it may not serve alone, so its appends keep answering 503
    `not_replicated`, and the log says why once, not at every append."""
    primary, replica = replicated(stores, primary_fsyncs=True)
    app = make_app(primary, durability=Durability.parse(None, "300"), background=False)
    async with AsyncTestClient(app=app) as client:
        table = await new_table(client, seats=2)
        with primary.client() as r:
            r.config_set("appendfsync", "everysec")
        replica.kill()
        seat, legal = await to_move(table)
        answers = [(await table.send(seat, legal[0])).status_code for _ in range(5)]
        assert set(answers) == {503}, answers
        said = [m for m in caplog.messages if "could lose what it answers" in m]
        assert len(said) == 1, said
        health = (await client.get("/health", params={"fresh": "true"})).json()["durability"]
        assert health["alone"] == [], health


async def test_by_default_with_a_replica_online_each_append_waits_for_its_copy(stores, caplog):
    """No DANGER_DURABILITY and a replica online: the store's fsync is checked, and each
    append is answered once the replica has it too, as replicas:1 would. Once the replica is
    gone, the primary serves on with its own fsync and says so; once it is back, appends wait
    for it again."""
    primary, replica = replicated(stores, primary_fsyncs=True)
    app = make_app(primary, durability=Durability.parse(None, "300"), background=False)
    async with AsyncTestClient(app=app) as client:
        health = (await client.get("/health")).json()["durability"]
        assert health["mode"] == "replicas" and health["replicas"] == 1, health
        assert "(the default)" in health["store"] and health["alone"] == []
        table = await new_table(client, seats=2)
        seat, legal = await to_move(table)
        r = await table.send(seat, legal[0])
        assert r.status_code == 200 and replica_seq(replica, table.id) == r.json()["seq"]
        replica.kill()
        for _ in range(3):  # the games go on, each command kept on the primary's disk
            seat, legal = await to_move(table)
            r = await table.send(seat, legal[0])
            assert r.status_code == 200, r.text
        await asyncio.sleep(health_module.FRESH_SECONDS)  # /health's snapshot is taken anew
        health = (await client.get("/health")).json()["durability"]
        assert health["alone"] == [f"127.0.0.1:{primary.port}"], health
        assert "danger_store_primaries_alone 1.0" in (await client.get("/metrics")).text
        said = [m for m in caplog.messages if "has no replica online" in m]
        assert len(said) == 1 and "as a single server" in said[0], said  # once, not per append

        replica.start()
        wait_for_replicas(primary, 1)
        deadline = time.monotonic() + 10
        while (await client.get("/health")).json()["durability"]["alone"]:
            assert time.monotonic() < deadline, "the replica back was never waited for"
            seat, legal = await to_move(table)
            assert (await table.send(seat, legal[0])).status_code == 200
            await asyncio.sleep(0.2)
        for _ in range(3):  # every answer is on the replica again when it is given
            seat, legal = await to_move(table)
            r = await table.send(seat, legal[0])
            assert r.status_code == 200 and replica_seq(replica, table.id) == r.json()["seq"]
        assert "danger_store_primaries_alone 0.0" in (await client.get("/metrics")).text
    # Named, the mode is what it says: fsync alone does not wait for the replica.
    app = make_app(primary, durability=Durability.parse("fsync"), background=False)
    async with AsyncTestClient(app=app) as client:
        assert (await client.get("/health")).json()["durability"]["mode"] == "fsync"
