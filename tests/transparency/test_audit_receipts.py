"""A rewrite with every hash recomputed passes every check of the log itself: only what the
service signed while the game was played (a receipt) catches it, in `POST /v1/audit` (the
web client's audit page sends receipts so) and in `danger audit --receipts`."""

from __future__ import annotations

import json
from typing import Any

from events.audit import audit_export
from service.cli.main import main as danger
from tests.players import bearer
from tests.transparency.rewrite import renamed


async def finished_with_receipts(client: Any) -> tuple[str, bytes, list[dict[str, Any]]]:
    """A finished game played through the API, its export and every receipt its answers
    carried."""
    r = await client.post("/v1/games", json={"game": "danger", "seats": 2})
    game_id, admin = r.json()["id"], r.json()["admin_token"]
    receipts = [r.json()["receipt"]]
    tokens = []
    for n in range(2):
        r = await client.post(f"/v1/games/{game_id}/players", json={"name": f"p{n}"})
        receipts.append(r.json()["receipt"])
        tokens.append(r.json()["token"])
    r = await client.post(f"/v1/games/{game_id}/start", headers=bearer(admin))
    receipts.append(r.json()["receipt"])
    while (await client.get(f"/v1/games/{game_id}")).json()["status"] != "finished":
        for token in tokens:
            legal = (await client.get(f"/v1/games/{game_id}", headers=bearer(token))).json()
            if legal["legal"]:
                r = await client.post(
                    f"/v1/games/{game_id}/commands", json=legal["legal"][0], headers=bearer(token)
                )
                assert r.status_code == 200, r.text
                receipts.append(r.json()["receipt"])
                break
    export = (await client.get(f"/v1/games/{game_id}/export")).content
    return game_id, export, receipts


async def audited(client: Any, export: bytes, receipts: list[dict[str, Any]]) -> dict[str, Any]:
    body = {"export": export.decode(), "receipts": receipts}
    r = await client.post("/v1/audit", json=body)
    assert r.status_code == 200, r.text
    return r.json()


def check(report: dict[str, Any], name: str) -> dict[str, Any]:
    return next(c for c in report["checks"] if c["name"] == name)


async def test_a_rewrite_with_recomputed_hashes_is_caught_by_a_receipt_alone(client):
    _, export, receipts = await finished_with_receipts(client)
    honest = await audited(client, export, receipts)
    assert honest["ok"] and check(honest, "receipts")["ok"], honest
    rewritten = renamed(export)
    # The log's own checks pass the rewrite...
    alone = (
        await client.post(
            "/v1/audit", content=rewritten, headers={"content-type": "application/x-ndjson"}
        )
    ).json()
    assert alone["ok"], [c for c in alone["checks"] if not c["ok"]]
    assert audit_export(rewritten).ok
    # ...and the receipts do not: the first one after the change names it.
    caught = await audited(client, rewritten, receipts)
    assert not caught["ok"]
    failed = check(caught, "receipts")
    assert not failed["ok"] and "rewritten" in failed["detail"]
    assert failed["seq"] == receipts[1]["seq"]  # the first join's receipt


async def test_a_forged_or_foreign_receipt_is_refused_by_the_audit(client):
    _, export, receipts = await finished_with_receipts(client)
    forged = {**receipts[-1], "hash": "0" * 64}
    report = await audited(client, export, [forged])
    assert not check(report, "receipts")["ok"]
    assert "valid signature" in check(report, "receipts")["detail"]
    unlisted = {**receipts[-1], "key": "0123456789abcdef"}
    assert "not listed" in check(await audited(client, export, [unlisted]), "receipts")["detail"]
    bad = await client.post("/v1/audit", json={"export": export.decode(), "receipts": [{}]})
    assert bad.status_code == 400 and bad.json()["code"] == "invalid_body"


async def test_danger_audit_checks_receipts_offline(client, tmp_path, capsys):
    _, export, receipts = await finished_with_receipts(client)
    keys = (await client.get("/v1/keys")).json()
    (tmp_path / "keys.json").write_text(json.dumps(keys))
    (tmp_path / "receipts.jsonl").write_text("\n".join(json.dumps(r) for r in receipts))
    (tmp_path / "game.jsonl").write_bytes(export)
    (tmp_path / "rewritten.jsonl").write_bytes(renamed(export))
    extra = ["--receipts", str(tmp_path / "receipts.jsonl"), "--keys", str(tmp_path / "keys.json")]
    assert danger(["audit", str(tmp_path / "game.jsonl"), *extra]) == 0
    assert danger(["audit", str(tmp_path / "rewritten.jsonl")]) == 0
    capsys.readouterr()
    assert danger(["audit", str(tmp_path / "rewritten.jsonl"), *extra]) == 1
    assert "FAIL  receipts" in capsys.readouterr().out
    assert danger(["audit", str(tmp_path / "game.jsonl"), "--receipts", "x"]) == 2
