"""POST /v1/audit: an export sent in the request is audited exactly as `danger audit FILE`
audits it, and nothing is stored."""

import json

from events.keys import GameKeys
from tests.players import new_table, play_to_end
from tests.processes import run_cli
from tests.stores import store_client

NDJSON = {"Content-Type": "application/x-ndjson"}


async def finished_export(client) -> tuple[str, bytes]:
    table = await new_table(client, seats=2)
    await play_to_end(table)
    r = await client.get(f"/v1/games/{table.id}/export")
    assert r.status_code == 200
    return table.id, r.content


def tampered(export: bytes, seq: int) -> bytes:
    """The export with event `seq`'s actor changed and nothing else."""
    lines = export.splitlines()
    event = json.loads(lines[seq - 1])
    event["actor"] = "admin" if event["actor"] != "admin" else "anyone"
    lines[seq - 1] = json.dumps(event, separators=(",", ":")).encode()
    return b"\n".join(lines) + b"\n"


def cli_audit(tmp_path, data: bytes) -> dict:
    path = tmp_path / "game.jsonl"
    path.write_bytes(data)
    return json.loads(run_cli("audit", str(path), "--json").stdout)


async def test_a_finished_games_export_passes_as_it_does_offline(client, tmp_path):
    game_id, export = await finished_export(client)
    r = await client.post("/v1/audit", content=export, headers=NDJSON)
    assert r.status_code == 200, r.text
    report = r.json()
    assert report["ok"] and report["game"] == game_id and report["finished"]
    assert report == cli_audit(tmp_path, export)
    assert report == (await client.get(f"/v1/games/{game_id}/audit")).json()


async def test_a_tampered_export_fails_at_the_changed_event_as_it_does_offline(client, tmp_path):
    _, export = await finished_export(client)
    bad = tampered(export, 9)
    r = await client.post("/v1/audit", content=bad, headers={"Content-Type": "text/plain"})
    assert r.status_code == 200
    report = r.json()
    chain = next(c for c in report["checks"] if c["name"] == "hash_chain")
    assert not report["ok"] and not chain["ok"] and chain["seq"] == 9
    assert report == cli_audit(tmp_path, bad)
    broken = await client.post("/v1/audit", content=export[:-40] + b"\n", headers=NDJSON)
    assert broken.json()["checks"][0]["detail"].startswith("line ")


async def test_nothing_is_stored_and_bad_uploads_get_clear_refusals(client, valkey):
    game_id, export = await finished_export(client)
    redis = await store_client(valkey.url)
    kept = GameKeys(game_id).audit  # where the game's own audit keeps its report
    assert (await client.post("/v1/audit", content=export, headers=NDJSON)).status_code == 200
    assert not await redis.exists(kept), "an uploaded export's audit is kept nowhere"
    assert (await client.get(f"/v1/games/{game_id}/audit")).status_code == 200
    assert await redis.exists(kept)  # the game's own audit, computed once, is
    await redis.aclose()

    empty = await client.post("/v1/audit", content=b"\n \n", headers=NDJSON)
    assert empty.status_code == 400 and empty.json()["code"] == "empty_export"
    as_json = await client.post("/v1/audit", content=export, headers={"Content-Type": "image/png"})
    assert as_json.status_code == 415 and as_json.json()["code"] == "unsupported_media_type"
    huge = b"x" * (8 * 2**20 + 1)
    too_big = await client.post("/v1/audit", content=huge, headers=NDJSON)
    assert too_big.status_code == 413 and too_big.json()["code"] == "body_too_large"


async def test_a_running_games_export_is_audited_as_far_as_its_reader_may_see(client, tmp_path):
    """A running game's export is redacted for its reader: the audit says so and checks
    every link and every event shown whole; a changed event is still caught."""
    table = await new_table(client, seats=2)
    for _ in range(6):
        state = await table.state(0)
        seat = 0 if state["legal"] else 1
        legal = (await table.state(seat))["legal"]
        assert (await table.send(seat, legal[0])).status_code == 200
    export = (await client.get(f"/v1/games/{table.id}/export")).content
    report = (await client.post("/v1/audit", content=export, headers=NDJSON)).json()
    chain = report["checks"][0]
    assert chain["name"] == "hash_chain" and chain["ok"], chain
    assert "redacted for this export's reader" in chain["detail"]
    assert not report["ok"] and not report["finished"]
    assert report == cli_audit(tmp_path, export)

    shown_whole = next(
        json.loads(line)["seq"]
        for line in export.splitlines()
        if json.loads(line)["type"] == "player_joined"
    )
    bad = tampered(export, shown_whole)
    chain = (await client.post("/v1/audit", content=bad, headers=NDJSON)).json()["checks"][0]
    assert not chain["ok"] and chain["seq"] == shown_whole
