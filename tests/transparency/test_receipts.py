"""Every answer that appends carries the service's signed receipt of the game's head, which
anyone checks with the key GET /v1/keys lists (docs/transparency.md, "Receipts")."""

from __future__ import annotations

import asyncio
import json
import os
import stat
import uuid
from typing import Any

from litestar.testing import AsyncTestClient

from events.signatures import RECEIPT, key_id, message, valid
from tests.conftest import make_app
from tests.players import bearer, new_table

FIELDS = {"game", "seq", "hash", "at", "key", "signature"}


async def keys_of(client: Any) -> dict[str, str]:
    r = await client.get("/v1/keys")
    assert r.status_code == 200, r.text
    listed = r.json()
    for key in listed["keys"]:
        assert key["algorithm"] == "ed25519"
        assert key["id"] == key_id(bytes.fromhex(key["public_key"]))
    assert listed["current"] in {k["id"] for k in listed["keys"]}
    return {k["id"]: k["public_key"] for k in listed["keys"]}


async def hashes_of(client: Any, game_id: str, admin: str) -> dict[int, str]:
    r = await client.get(f"/v1/games/{game_id}/events", headers=bearer(admin))
    assert r.status_code == 200, r.text
    return {e["seq"]: e["hash"] for e in r.json()["events"]}


def checked(answer: Any, keys: dict[str, str], game_id: str, in_body: bool = True) -> dict:
    """The answer's receipt, checked: the header and the body agree, the signature is the
    listed key's, and it names the game."""
    header = json.loads(answer.headers["danger-receipt"])
    assert set(header) == FIELDS
    if in_body:
        assert answer.json()["receipt"] == header
    assert header["game"] == game_id
    assert valid(keys[header["key"]], header["signature"], message(RECEIPT, header))
    return header


async def test_every_answer_that_appends_carries_a_receipt_of_the_head_it_left(client):
    keys = await keys_of(client)
    created = await client.post("/v1/games", json={"game": "danger-danger", "seats": 4})
    game_id, admin = created.json()["id"], created.json()["admin_token"]
    receipts = [checked(created, keys, game_id)]
    assert receipts[0]["seq"] == 1
    tokens = []
    for n in range(4):
        joined = await client.post(f"/v1/games/{game_id}/players", json={"name": f"p{n}"})
        receipts.append(checked(joined, keys, game_id))
        tokens.append(joined.json()["token"])
    seat = f"/v1/games/{game_id}/players"
    team = await client.patch(f"{seat}/3/", json={"team": "pink"}, headers=bearer(tokens[3]))
    assert team.status_code == 200, team.text
    receipts.append(checked(team, keys, game_id))
    reissued = await client.post(f"{seat}/3/token", headers=bearer(admin))
    assert reissued.status_code == 201, reissued.text
    receipts.append(checked(reissued, keys, game_id))
    tokens[3] = reissued.json()["token"]
    left = await client.delete(f"{seat}/3/", headers=bearer(tokens[3]))
    assert left.status_code == 200, left.text
    receipts.append(checked(left, keys, game_id))
    again = await client.post(f"/v1/games/{game_id}/players", json={"name": "p3"})
    receipts.append(checked(again, keys, game_id))
    tokens[3] = again.json()["token"]
    started = await client.post(f"/v1/games/{game_id}/start", headers=bearer(admin))
    assert started.status_code == 200, started.text
    receipts.append(checked(started, keys, game_id))
    game = (await client.get(f"/v1/games/{game_id}", headers=bearer(tokens[0]))).json()
    assert "receipt" not in game and "danger-receipt" not in started.request.headers
    for n in range(4):
        legal = (await client.get(f"/v1/games/{game_id}", headers=bearer(tokens[n]))).json()
        if legal["legal"]:
            body = legal["legal"][0]
            full = await client.post(
                f"/v1/games/{game_id}/commands", json=body, headers=bearer(tokens[n])
            )
            assert full.status_code == 200, full.text
            receipts.append(checked(full, keys, game_id))
            assert receipts[-1]["seq"] == full.json()["seq"]
            break
    for n in range(4):
        legal = (await client.get(f"/v1/games/{game_id}", headers=bearer(tokens[n]))).json()
        if legal["legal"]:
            minimal = await client.post(
                f"/v1/games/{game_id}/commands",
                json=legal["legal"][0],
                headers={**bearer(tokens[n]), "Prefer": "return=minimal"},
            )
            assert minimal.status_code == 204, minimal.text
            receipts.append(checked(minimal, keys, game_id, in_body=False))
            assert minimal.headers["etag"] == f'"{receipts[-1]["seq"]}"'
            break
    # Each receipt names the hash the log has at its seq, and they follow the log.
    hashes = await hashes_of(client, game_id, admin)
    for receipt in receipts:
        assert hashes[receipt["seq"]] == receipt["hash"], receipt
    assert [r["seq"] for r in receipts] == sorted(r["seq"] for r in receipts)
    assert len(receipts) == 12


async def test_an_abandon_and_the_commands_of_the_fast_route_carry_receipts_too(client):
    keys = await keys_of(client)
    table = await new_table(client, seats=2, start=False)
    abandoned = await client.post(f"/v1/games/{table.id}/abandon", headers=bearer(table.admin))
    assert abandoned.status_code == 200, abandoned.text
    receipt = checked(abandoned, keys, table.id)
    assert receipt["hash"] == (await hashes_of(client, table.id, table.admin))[receipt["seq"]]


async def test_a_retry_under_its_key_is_given_a_receipt_of_the_first_answers_seq(client):
    keys = await keys_of(client)
    table = await new_table(client, seats=2)
    key = {"Idempotency-Key": str(uuid.uuid4())}
    first = await table.send(0, {"type": "draw"}, **key)
    second_command = (await table.state(0))["legal"][0]
    assert (await table.send(0, second_command)).status_code == 200  # the game moves on
    for prefer in ({}, {"Prefer": "return=minimal"}):
        again = await table.send(0, {"type": "draw"}, **key, **prefer)
        assert again.status_code in (200, 204), again.text
        receipt = checked(again, keys, table.id, in_body=not prefer)
        assert receipt["seq"] == first.json()["seq"]
        assert receipt["hash"] == first.json()["receipt"]["hash"]


async def test_a_created_game_retried_under_its_key_answers_the_first_receipt(client):
    keys = await keys_of(client)
    key = {"Idempotency-Key": str(uuid.uuid4())}
    body = {"game": "danger", "seats": 2}
    first = await client.post("/v1/games", json=body, headers=key)
    again = await client.post("/v1/games", json=body, headers=key)
    assert again.status_code == 201
    assert checked(again, keys, first.json()["id"]) == first.json()["receipt"]


async def test_the_key_is_made_once_private_and_kept_listed_after_a_rotation(valkey, tmp_path):
    from service.infra import signing

    async with AsyncTestClient(app=make_app(valkey, data_dir=tmp_path)) as one:
        path = tmp_path / "signing" / "current.pem"
        assert stat.S_IMODE(os.stat(path).st_mode) == 0o600
        first = (await one.get("/v1/keys")).json()["current"]
        created = await one.post("/v1/games", json={"game": "danger", "seats": 2})
        old = created.json()["receipt"]
        assert old["key"] == first
    async with AsyncTestClient(app=make_app(valkey, data_dir=tmp_path)) as same:
        assert (await same.get("/v1/keys")).json()["current"] == first  # the key is kept
    retired, new = signing.rotate(tmp_path)
    assert retired == first and new.key_id != first
    assert (tmp_path / "signing" / f"retired-{first}.pem").exists()
    async with AsyncTestClient(app=make_app(valkey, data_dir=tmp_path)) as rotated:
        keys = await keys_of(rotated)
        assert (await rotated.get("/v1/keys")).json()["current"] == new.key_id
        # The old receipt still checks against the list, as the new ones do.
        assert valid(keys[old["key"]], old["signature"], message(RECEIPT, old))
        created = await rotated.post("/v1/games", json={"game": "danger", "seats": 2})
        assert checked(created, keys, created.json()["id"])["key"] == new.key_id


async def test_a_key_named_by_the_setting_is_the_one_used(valkey, tmp_path):
    from service.infra import signing

    _, made = signing.rotate(tmp_path / "elsewhere")
    named = tmp_path / "elsewhere" / "signing" / "current.pem"
    app = make_app(valkey, data_dir=tmp_path / "data", signing_key=named)
    async with AsyncTestClient(app=app) as c:
        assert (await c.get("/v1/keys")).json()["current"] == made.key_id
        assert not (tmp_path / "data" / "signing").exists()


async def test_a_receipt_does_not_pass_for_another_head(client):
    """The signature covers every field: a receipt changed in any of them fails."""
    keys = await keys_of(client)
    created = await client.post("/v1/games", json={"game": "danger", "seats": 2})
    receipt = checked(created, keys, created.json()["id"])
    for name, other in (("seq", 2), ("hash", "0" * 64), ("game", "x" * 12), ("at", "2020")):
        changed = {**receipt, name: other}
        assert not valid(keys[receipt["key"]], receipt["signature"], message(RECEIPT, changed))


async def test_every_process_of_danger_serve_signs_with_the_data_directorys_key(tmp_path):
    """`danger serve --workers 2 --data-dir D`: both API processes and the worker sign with
    the one key made in D, whatever DANGER_DATA_DIR the shell had."""
    import httpx

    from service.infra import signing
    from tests.integration.test_restart import free_port, serve

    port, chosen = free_port(), tmp_path / "chosen"
    proc = serve(
        tmp_path / "elsewhere",
        port,
        "--workers",
        "2",
        "--data-dir",
        str(chosen),
        settings={"DANGER_LOG_SECONDS": "0.2", "DANGER_LOG_CHECKPOINT_SECONDS": "0"},
    )
    try:
        async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{port}", timeout=10) as c:
            made = signing.load(chosen).key_id
            for _ in range(8):  # the connections spread over both API processes
                async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{port}") as fresh:
                    listed = (await fresh.get("/v1/keys")).json()
                assert listed["current"] == made
                assert [k["id"] for k in listed["keys"]] == [made]
            created = await c.post("/v1/games", json={"game": "danger", "seats": 2})
            assert created.json()["receipt"]["key"] == made
            for _ in range(100):
                head = (await c.get("/v1/log/head")).json()
                if head["size"]:
                    break
                await asyncio.sleep(0.1)
            assert head["size"] and head["key"] == made  # the worker's, with the same key
        assert not (tmp_path / "elsewhere" / "signing").exists()
    finally:
        proc.terminate()
        proc.wait(30)
