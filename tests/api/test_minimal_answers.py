"""`Prefer: return=minimal` on a command: a 204 with the game's new seq, for a client that
follows the stream; the command itself is the same command."""

from __future__ import annotations

import random
import uuid

from tests.players import first_to_act, new_table

MINIMAL = {"Prefer": "return=minimal"}


async def test_a_minimal_answer_is_a_204_naming_the_new_seq(client):
    table = await new_table(client, seats=2)
    before = (await table.state())["seq"]
    r = await table.send(0, {"type": "draw"}, **MINIMAL)
    assert r.status_code == 204, r.text
    assert r.content == b""
    assert r.headers["preference-applied"] == "return=minimal"
    after = (await table.state())["seq"]
    assert after > before and r.headers["etag"] == f'"{after}"'
    # The events are stored as a full answer would have shown them.
    events = (await client.get(f"/v1/games/{table.id}/events", headers=table.auth(0))).json()
    assert events["last_seq"] == after
    assert "card_drawn" in [e["type"] for e in events["events"][before:]]
    # The ETag goes back as If-Match.
    legal = (await table.state(0))["legal"]
    r = await table.send(0, legal[0], **MINIMAL, **{"If-Match": r.headers["etag"]})
    assert r.status_code == 204, r.text


async def test_other_preferences_are_ignored_and_the_header_is_read_as_rfc_7240_says(client):
    table = await new_table(client, seats=2)
    for prefer in ("return=representation", "respond-async", "wait=5", "return=minimalist"):
        seat, legal = await first_to_act(table)
        r = await table.send(seat, legal[0], Prefer=prefer)
        assert r.status_code == 200, (prefer, r.text)
        assert "preference-applied" not in r.headers and r.json()["view"]
    for prefer in ('respond-async, RETURN="Minimal"', "wait=5, return=minimal; x=1"):
        seat, legal = await first_to_act(table)
        r = await table.send(seat, legal[0], Prefer=prefer)
        assert r.status_code == 204, (prefer, r.text)


async def test_a_refusal_is_a_problem_whatever_the_preference(client):
    table = await new_table(client, seats=2)
    r = await table.send(1, {"type": "draw"}, **MINIMAL)  # not seat 1's turn
    assert r.status_code == 409
    assert r.headers["content-type"].startswith("application/problem+json")
    assert r.json()["code"]


async def test_a_retry_under_its_key_answers_the_first_seq_minimal_or_full(client):
    table = await new_table(client, seats=2)
    key = {"Idempotency-Key": str(uuid.uuid4())}
    first = await table.send(0, {"type": "draw"}, **MINIMAL, **key)
    assert first.status_code == 204
    seq = int(first.headers["etag"].strip('"'))
    again = await table.send(0, {"type": "draw"}, **MINIMAL, **key)
    assert again.status_code == 204 and again.headers["etag"] == first.headers["etag"]
    # The preference is how to answer, not part of the request: the full first answer.
    full = await table.send(0, {"type": "draw"}, **key)
    assert full.status_code == 200 and full.json()["seq"] == seq
    assert [e["seq"] for e in full.json()["events"]][-1] == seq
    assert (await table.state())["seq"] == seq  # applied once


async def test_a_whole_game_played_with_minimal_answers_ends_as_a_full_one(client):
    """The same seeded game and choices, played once with full answers and once with minimal
    ones, leaves the same events."""
    logs = []
    for prefer, status in (({}, 200), (MINIMAL, 204)):
        table = await new_table(client, seats=3, game="danger-13", seed="ab" * 16)
        choose = random.Random(4).choice
        while (await table.state())["status"] != "finished":
            seat, legal = await first_to_act(table)
            r = await table.send(seat, choose(legal), **prefer)
            assert r.status_code == status, r.text
        events = (await client.get(f"/v1/games/{table.id}/events")).json()["events"]
        logs.append([(e["type"], e["data"]) for e in events if e["type"] != "game_created"])
    assert logs[0] == logs[1]
