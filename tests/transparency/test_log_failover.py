"""The master holding the transparency log killed while games finish, its replica promoted:
every tree head signed before, during and after is consistent with the last one, and every
finished game's final head is provably in the log. A head is signed only once its leaves
are on the replica, so a failover cannot take back a signed tree."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path
from typing import Any

import httpx

from service.assembly.app import create_app
from service.infra.config import Settings
from service.infra.durability import Durability
from service.play.transparency_log import LEAVES
from tests.cluster import LoopbackCluster, master_holding
from tests.conftest import on_socket
from tests.players import new_table as table_of
from tests.players import play_to_end
from tests.transparency.test_log import consistent, included, leaf_hash


async def test_a_failover_of_the_logs_master_takes_back_no_signed_head(tmp_path: Path):
    cluster = LoopbackCluster(tmp_path, masters=3, replicas=1).start()
    try:
        settings = Settings().replace(
            rate_limits=False,
            open_games_per_client=0,
            queue_url=cluster.queue_url,
            durability=Durability.parse("replicas:1", None),
            log_seconds=0.1,
            log_checkpoint_seconds=0.0,
        )
        app = create_app(settings, cluster.url)
        async with on_socket(app) as base, httpx.AsyncClient(base_url=base, timeout=60) as client:
            await check(cluster, client)
    finally:
        cluster.stop()


async def check(cluster: LoopbackCluster, client: httpx.AsyncClient) -> None:
    heads: list[dict[str, Any]] = []
    finished: list[str] = []
    stop = asyncio.Event()

    async def watch() -> None:
        while not stop.is_set():
            r = await client.get("/v1/log/head")
            if r.status_code == 200 and (not heads or r.json() != heads[-1]):
                heads.append(r.json())
            await asyncio.sleep(0.05)

    async def games() -> None:
        while not stop.is_set():
            try:
                table = await table_of(client, seats=2)
                await play_to_end(table)
            except AssertionError:  # a 503 while the switch lasts: another game
                await asyncio.sleep(0.1)
                continue
            finished.append(table.id)

    watching = asyncio.create_task(watch())
    playing = [asyncio.create_task(games()) for _ in range(2)]
    await asyncio.sleep(3)
    victim = master_holding(LEAVES.encode(), len(cluster.masters))
    cluster.masters[victim].kill()
    deadline = time.monotonic() + 60
    await cluster.promoted(victim, deadline)
    cluster.masters[victim].start()
    await asyncio.sleep(4)
    stop.set()
    await asyncio.gather(watching, *playing)

    # Every game that finished is in the log, once the writer has caught up.
    async def all_logged() -> dict[str, dict[str, Any]] | None:
        proofs = {}
        for game_id in finished:
            r = await client.get(f"/v1/log/proof/{game_id}")
            if r.status_code != 200 or not r.json()["leaf"]["final"]:
                return None
            proofs[game_id] = r.json()
        return proofs

    proofs = None
    while proofs is None:
        assert time.monotonic() < deadline + 30, "finished games never logged"
        proofs = await all_logged()
        await asyncio.sleep(0.2)
    last = (await client.get("/v1/log/head")).json()
    assert len(finished) >= 2 and len(heads) >= 3
    for proof in proofs.values():
        index, size = proof["index"], proof["size"]
        leaf = leaf_hash(proof["leaf"])
        assert included(index, size, leaf, proof["path"], proof["head"]["root"])
    for head in heads:
        if head["size"] == 0:
            continue
        r = await client.get(
            "/v1/log/consistency", params={"first": head["size"], "second": last["size"]}
        )
        assert r.status_code == 200, r.text
        assert consistent(
            head["size"],
            last["size"],
            bytes.fromhex(head["root"]),
            bytes.fromhex(last["root"]),
            r.json()["path"],
        ), (head, last)
