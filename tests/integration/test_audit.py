"""The audit: a finished game of each kind passes; any change to one event, or swapping two,
fails at that event."""

import random

import msgspec
import pytest

from events.audit import audit
from events.store import EventStore
from tests.players import new_table, play_to_end
from tests.processes import run_cli
from tests.stores import store_client

GAMES = [
    ("danger", 3, {}),
    ("high-voltage", 3, {}),
    ("danger-13", 3, {}),
    ("danger-danger", 2, {"round_seconds": 3600}),
]


async def finished_log(client, valkey, game: str, seats: int, **options):
    table = await new_table(client, seats=seats, game=game, **options)
    await play_to_end(table, choose=random.Random(seats).choice)
    redis = await store_client(valkey.url)
    envelopes = await EventStore(redis).read(table.id)
    await redis.aclose()
    return envelopes


@pytest.mark.parametrize(("game", "seats", "options"), GAMES)
async def test_a_finished_game_passes_every_check(client, valkey, game, seats, options):
    report = audit(await finished_log(client, valkey, game, seats, **options))
    assert report.ok, [c for c in report.checks if not c.ok]
    assert [c.name for c in report.checks] == [
        "hash_chain",
        "seed_commitment",
        "shuffles",
        "rules",
        "scores",
    ]


async def test_any_changed_event_or_swapped_pair_fails_at_that_event(client, valkey):
    log = await finished_log(client, valkey, "danger", 2)
    rng = random.Random(3)
    for _ in range(5):
        n = rng.randrange(2, len(log))
        changed = list(log)
        data = dict(changed[n - 1].data) | {"tampered": 1}
        changed[n - 1] = msgspec.structs.replace(changed[n - 1], data=data)
        report = audit(changed)
        assert not report.ok
        chain = report.checks[0]
        assert chain.name == "hash_chain" and not chain.ok and chain.seq == n
    swapped = list(log)
    swapped[9], swapped[10] = swapped[10], swapped[9]
    chain = audit(swapped).checks[0]
    assert not chain.ok and chain.seq == 10


async def test_a_rehashed_forgery_is_caught_by_the_rules(client, valkey):
    """A forger who rewrites an event and re-seals the whole chain after it passes the hash
    check, but not the replay: the rules give another event."""
    from events.envelope import digest, unsealed

    log = await finished_log(client, valkey, "danger", 2)
    n = next(e.seq for e in log if e.type == "card_drawn" and e.seq > 20)
    forged = list(log[: n - 1])
    fake = dict(log[n - 1].data) | {"card": "Y9" if log[n - 1].data["card"] != "Y9" else "Y8"}
    prev = forged[-1].hash
    for envelope in log[n - 1 :]:
        envelope = msgspec.structs.replace(
            envelope, data=fake if envelope.seq == n else envelope.data, prev=prev
        )
        envelope = msgspec.structs.replace(envelope, hash=digest(unsealed(envelope)))
        forged.append(envelope)
        prev = envelope.hash
    report = audit(forged)
    assert report.checks[0].ok  # the chain itself is intact
    assert not report.ok
    failed = next(c for c in report.checks if not c.ok)
    assert failed.seq == n and failed.expected["data"]["card"] == log[n - 1].data["card"]


async def test_export_then_audit_offline_and_a_tampered_copy_names_the_event(client, tmp_path):
    table = await new_table(client, seats=2, game="high-voltage")
    await play_to_end(table, choose=random.Random(1).choice)
    r = await client.get(f"/v1/games/{table.id}/export")
    assert r.status_code == 200 and r.headers["content-type"].startswith("application/x-ndjson")
    exported = tmp_path / "game.jsonl"
    exported.write_bytes(r.content)
    ok = run_cli("audit", str(exported))
    assert ok.returncode == 0, ok.stdout
    assert "OK" in ok.stdout
    lines = r.content.splitlines()
    event = msgspec.json.decode(lines[20])
    event["data"]["extra"] = True  # any change to an event's data
    for name, body in (
        ("changed", [*lines[:20], msgspec.json.encode(event), *lines[21:]]),
        ("broken", [*lines[:20], lines[20][:-3], *lines[21:]]),  # a few bytes short
        ("reordered", [*lines[:20], lines[21], lines[20], *lines[22:]]),
    ):
        tampered = tmp_path / f"{name}.jsonl"
        tampered.write_bytes(b"\n".join(body) + b"\n")
        bad = run_cli("audit", str(tampered))
        assert bad.returncode == 1 and "FAIL  hash_chain" in bad.stdout, (name, bad.stdout)
        assert "first at event 21" in bad.stdout, (name, bad.stdout)
    audited = (await client.get(f"/v1/games/{table.id}/audit")).json()
    assert audited["ok"] and audited["finished"]


async def test_replay_shows_the_game_at_any_event(client):
    table = await new_table(client, seats=2)
    for _ in range(3):
        seat = (await table.state())["view"]["state"]["turn"]
        await table.send(seat, (await table.state(seat))["legal"][0])
    r = await client.get(f"/v1/games/{table.id}/replay", params={"seq": 3}, headers=table.auth(0))
    assert r.status_code == 200
    assert r.json()["status"] == "open" and len(r.json()["view"]["players"]) == 2
    r = await client.get(f"/v1/games/{table.id}/replay", params={"seq": 7})
    state = r.json()["view"]["state"]
    assert r.json()["status"] == "active" and state["round"] == 1 and state["stack"] is None
    r = await client.get(f"/v1/games/{table.id}/replay", params={"seq": 10_000})
    assert r.status_code == 404 and r.json()["code"] == "no_such_event"


async def test_a_timer_rung_early_or_by_a_seat_fails_the_audit(client, valkey):
    from events.envelope import digest, unsealed

    log = await finished_log(client, valkey, "danger", 2, turn_seconds=30)
    # the players played faster than the clock: ring the first turn clock right away
    # instead, re-sealing everything after it (a forger's best effort)
    start = next(e for e in log if e.type == "round_started")
    timer = f"turn:1:0@{start.seq - 1}"
    assert audit(log).ok
    for actor, name in (("server", "early"), ("seat:1", "seat")):
        forged = list(log[: start.seq])
        prev = forged[-1].hash
        envelope = msgspec.structs.replace(
            log[start.seq],
            actor=actor,
            cause={"type": "fire_timer", "timer": timer},
            prev=prev,
        )
        envelope = msgspec.structs.replace(envelope, hash=digest(unsealed(envelope)))
        forged.append(envelope)
        revealed = msgspec.structs.replace(
            log[-1], seq=envelope.seq + 1, prev=envelope.hash, cause=None
        )
        forged.append(msgspec.structs.replace(revealed, hash=digest(unsealed(revealed))))
        report = audit(forged)
        assert not report.ok, name
        failed = next(c for c in report.checks if not c.ok)
        assert failed.name == "rules" and failed.seq == envelope.seq, (name, failed)
