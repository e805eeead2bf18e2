"""The transparency log (docs/transparency.md): every finished game's final head and
checkpoints of running games' heads are leaves of an RFC 9162 Merkle tree whose signed heads,
inclusion proofs and consistency proofs anyone checks, here with the standalone verifier's
checks (clients/verifier), written from the RFC, not the service's code."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest
from danger_verify import merkle
from litestar.testing import AsyncTestClient

from events.signatures import TREE_HEAD, message, valid
from tests.conftest import make_app, wait_for
from tests.players import new_table, play_to_end

FAST = {"log_seconds": 0.1, "log_checkpoint_seconds": 0.0}


def leaf_hash(leaf: dict[str, Any]) -> bytes:
    raw = json.dumps(leaf, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()
    return merkle.leaf_hash(raw)


def included(index: int, size: int, leaf: bytes, path: list[str], root: str) -> bool:
    """RFC 9162, 2.1.3.2, as the standalone verifier checks it."""
    hashes = [bytes.fromhex(h) for h in path]
    return merkle.verify_inclusion(index, size, leaf, hashes, bytes.fromhex(root))


def consistent(first: int, second: int, old: bytes, new: bytes, path: list[str]) -> bool:
    """RFC 9162, 2.1.4.2, as the standalone verifier checks it."""
    return merkle.verify_consistency(first, second, old, new, [bytes.fromhex(h) for h in path])


async def signed_head(client: Any, keys: dict[str, str]) -> dict[str, Any]:
    r = await client.get("/v1/log/head")
    assert r.status_code == 200, r.text
    head = r.json()
    assert valid(keys[head["key"]], head["signature"], message(TREE_HEAD, head))
    return head


async def test_finished_games_are_in_the_log_and_its_heads_stay_consistent(valkey):
    async with AsyncTestClient(app=make_app(valkey, sandbox=True, **FAST)) as c:
        keys = {k["id"]: k["public_key"] for k in (await c.get("/v1/keys")).json()["keys"]}
        first = await wait_for(lambda: _head_if_any(c))
        tables = [await new_table(c, seats=2, game=g) for g in ("danger", "high-voltage")]
        for table in tables:
            await play_to_end(table)

        async def logged() -> list[dict[str, Any]] | None:
            proofs = [await c.get(f"/v1/log/proof/{t.id}") for t in tables]
            if any(p.status_code != 200 or not p.json()["leaf"]["final"] for p in proofs):
                return None
            return [p.json() for p in proofs]

        proofs = await wait_for(logged)
        for table, proof in zip(tables, proofs, strict=True):
            head = proof["head"]
            assert valid(keys[head["key"]], head["signature"], message(TREE_HEAD, head))
            events = (await c.get(f"/v1/games/{table.id}/events")).json()["events"]
            assert proof["leaf"] == {
                "final": True,
                "game": table.id,
                "hash": events[-1]["hash"],
                "seq": events[-1]["seq"],
            }
            assert events[-1]["type"] == "seed_revealed"
            leaf = leaf_hash(proof["leaf"])
            assert included(proof["index"], proof["size"], leaf, proof["path"], head["root"])
            assert proof["size"] == head["size"]
            # Asked at a size of its own, the proof leads to the same leaf.
            again = (await c.get(f"/v1/log/proof/{table.id}?size={head['size']}")).json()
            assert again["path"] == proof["path"] and "head" not in again
        last = await signed_head(c, keys)
        assert last["size"] > first["size"]
        if first["size"]:
            r = await c.get(f"/v1/log/consistency?first={first['size']}&second={last['size']}")
            assert r.status_code == 200, r.text
            assert consistent(
                first["size"],
                last["size"],
                bytes.fromhex(first["root"]),
                bytes.fromhex(last["root"]),
                r.json()["path"],
            )
        # A monitor's fetch of the leaves holds both final heads.
        start = max(0, last["size"] - 1000)
        entries = (await c.get(f"/v1/log/entries?start={start}&end={last['size']}")).json()
        finals = {e["leaf"]["game"] for e in entries["entries"] if e["leaf"]["final"]}
        assert {t.id for t in tables} <= finals


async def test_every_consistency_proof_between_two_sizes_checks(valkey):
    """Leaves appended in batches of several sizes; every pair of sizes proves consistent,
    and every leaf's inclusion in every tree holding it proves."""
    async with AsyncTestClient(app=make_app(valkey, sandbox=True, **FAST)) as c:
        keys = {k["id"]: k["public_key"] for k in (await c.get("/v1/keys")).json()["keys"]}
        heads = [await wait_for(lambda: _head_if_any(c))]
        for _ in range(3):
            table = await new_table(c, seats=2)
            await play_to_end(table)
            before = heads[-1]["size"]
            heads.append(await wait_for(lambda before=before: _head_if_any(c, before)))
        for head in heads:
            assert valid(keys[head["key"]], head["signature"], message(TREE_HEAD, head))
        sizes = sorted({h["size"] for h in heads if h["size"]})
        roots = {h["size"]: bytes.fromhex(h["root"]) for h in heads}
        for i, m in enumerate(sizes):
            for n in sizes[i:]:
                r = await c.get(f"/v1/log/consistency?first={m}&second={n}")
                assert consistent(m, n, roots[m], roots[n], r.json()["path"]), (m, n)
        n = sizes[-1]
        entries = (await c.get(f"/v1/log/entries?start={max(0, n - 60)}&end={n}")).json()
        for entry in entries["entries"]:
            game = entry["leaf"]["game"]
            proof = (await c.get(f"/v1/log/proof/{game}?size={n}")).json()
            if proof["index"] == entry["index"]:  # the game's latest leaf in that tree
                leaf = leaf_hash(proof["leaf"])
                assert included(proof["index"], n, leaf, proof["path"], roots[n].hex())


async def _head_if_any(c: Any, above: int = -1) -> dict[str, Any] | None:
    r = await c.get("/v1/log/head")
    if r.status_code != 200 or r.json()["size"] <= above:
        return None
    return r.json()


async def test_a_running_game_is_checkpointed(valkey):
    async with AsyncTestClient(app=make_app(valkey, sandbox=True, **FAST)) as c:
        table = await new_table(c, seats=3)

        async def checkpoint() -> dict[str, Any] | None:
            r = await c.get(f"/v1/log/proof/{table.id}")
            return r.json() if r.status_code == 200 else None

        proof = await wait_for(checkpoint)
        assert proof["leaf"]["final"] is False
        events = (await c.get(f"/v1/games/{table.id}/events")).json()["events"]
        assert proof["leaf"]["hash"] == events[proof["leaf"]["seq"] - 1]["hash"]


async def test_bad_requests_to_the_log_are_refused_with_their_codes(client):
    size = (await wait_for(lambda: _head_if_any(client)))["size"]
    for path, status, code in (
        ("/v1/log/consistency?first=0&second=1", 400, "invalid_parameter"),
        ("/v1/log/consistency?first=3&second=2", 422, "invalid_range"),
        (f"/v1/log/consistency?first=1&second={size + 10**6}", 409, "beyond_log"),
        ("/v1/log/entries?start=5&end=5", 422, "invalid_range"),
        ("/v1/log/entries?start=0&end=1001", 422, "invalid_range"),
        (f"/v1/log/entries?start={size + 10**6}&end={size + 10**6 + 1}", 409, "beyond_log"),
        (f"/v1/log/proof/abcdefghijkl?size={size + 10**6}", 409, "beyond_log"),
        ("/v1/log/consistency?first=1&second=1000000000001", 400, "invalid_parameter"),
        ("/v1/log/proof/abcdefghijkl", 404, "not_logged"),
        ("/v1/log/entries?start=-1&end=2", 400, "invalid_parameter"),
    ):
        r = await client.get(path)
        assert (r.status_code, r.json()["code"]) == (status, code), (path, r.text)


@pytest.mark.parametrize("restarts", [1])
async def test_the_log_goes_on_after_a_restart_of_its_writer(valkey, restarts):
    """A new writer continues the same tree: the heads before and after are consistent."""
    async with AsyncTestClient(app=make_app(valkey, sandbox=True, **FAST)) as c:
        table = await new_table(c, seats=2)
        await play_to_end(table)
        before = await wait_for(lambda: _logged_final(c, table.id))
    for _ in range(restarts):
        async with AsyncTestClient(app=make_app(valkey, sandbox=True, **FAST)) as c:
            table = await new_table(c, seats=2)
            await play_to_end(table)
            after = await wait_for(lambda table=table: _logged_final(c, table.id))
            m, n = before["size"], after["size"]
            r = await c.get(f"/v1/log/consistency?first={m}&second={n}")
            assert consistent(
                m,
                n,
                bytes.fromhex(before["root"]),
                bytes.fromhex(after["root"]),
                r.json()["path"],
            )
            await asyncio.sleep(0)


async def _logged_final(c: Any, game_id: str) -> dict[str, Any] | None:
    r = await c.get(f"/v1/log/proof/{game_id}")
    if r.status_code != 200 or not r.json()["leaf"]["final"]:
        return None
    return r.json()["head"]


async def test_a_rebuild_logs_the_games_that_ended_before_the_log_took_them(tmp_path):
    """A store whose games finished with no log running (as before the log existed):
    `danger projections rebuild` notes their heads, and the next batch takes them, once."""
    from events.store import EventStore
    from service.assembly.background import log_writer
    from service.infra.clock import StoreClock
    from service.infra.config import Settings
    from service.infra.embedded import EmbeddedValkey
    from service.readmodels.rebuild import rebuild
    from tests.stores import store_client

    server = EmbeddedValkey(tmp_path / "store")
    server.start()
    try:
        async with AsyncTestClient(app=make_app(server, background=False)) as c:
            table = await new_table(c, seats=2)
            await play_to_end(table)
            assert (await c.get(f"/v1/log/proof/{table.id}")).status_code == 404
            redis = await store_client(server.url)
            try:
                store = EventStore(redis)
                writer = log_writer(
                    store,
                    StoreClock(redis),
                    Settings().replace(log_checkpoint_seconds=0.0, data_dir=tmp_path),
                )
                await rebuild(redis, store)
                await writer.batch()
                await rebuild(redis, store)  # noted again: logged already, taken no more
                await writer.batch()
            finally:
                await redis.aclose()
            proof = (await c.get(f"/v1/log/proof/{table.id}")).json()
            assert proof["leaf"]["final"] and proof["size"] == 1
            assert (await c.get("/v1/log/head")).json()["size"] == 1
    finally:
        server.stop()
