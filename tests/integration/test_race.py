"""Two clients racing on one game, and two service processes on one Redis."""

import asyncio
import itertools

from litestar.testing import AsyncTestClient

from tests.conftest import make_app
from tests.players import new_table


async def test_two_clients_racing_one_wins_the_other_is_told(client):
    table = await new_table(client, seats=2)
    a, b = await asyncio.gather(table.send(0, {"type": "draw"}), table.send(0, {"type": "draw"}))
    codes = sorted([a.status_code, b.status_code])
    assert codes == [200, 409]
    loser = a if a.status_code == 409 else b
    assert loser.json()["code"] == "already_drawn"
    r = await client.get(f"/v1/games/{table.id}/events")
    seqs = [e["seq"] for e in r.json()["events"]]
    assert seqs == list(range(1, len(seqs) + 1))


async def test_two_service_processes_on_one_redis_never_fork_a_game(client, valkey):
    table = await new_table(client, seats=2)
    async with AsyncTestClient(app=make_app(valkey, sandbox=True, background=False)) as other:
        table_b = type(table)(other, table.id, table.admin, table.tokens)
        await table_b.state()  # the second process caches the game too
        for _ in range(15):
            tasks = []
            for t in (table, table_b):
                s = await t.state()
                seat = s["view"]["state"]["turn"]
                legal = (await t.state(seat))["legal"]
                tasks.append(t.send(seat, legal[0]))
            answers = await asyncio.gather(*tasks)
            assert any(r.status_code == 200 for r in answers)
            assert all(r.status_code in (200, 409) for r in answers), [r.text for r in answers]
        r = await other.get(f"/v1/games/{table.id}/events")
    events = r.json()["events"]
    assert [e["seq"] for e in events] == list(range(1, len(events) + 1))
    for before, after in itertools.pairwise(events):
        assert after["prev"] == before["hash"]


async def test_a_process_behind_the_log_catches_up_from_its_refused_append_alone(
    client, valkey, monkeypatch
):
    """A game's commands reach the API processes in turn. The one whose fold is behind finds
    out by the append that refuses it, which brings the events it missed, or by its own
    decision refusing the command, which a read of the log then checks: either way one
    round trip more than a current fold's, never two."""
    table = await new_table(client, seats=2)
    async with AsyncTestClient(app=make_app(valkey, sandbox=True, background=False)) as other:
        table_b = type(table)(other, table.id, table.admin, table.tokens)
        await table_b.state()  # the second process caches the game
        reads = reads_of(other.app.state.service.store, monkeypatch)
        for _ in range(6):
            for t in (table, table_b):
                s = await table.state()  # the first process: its reads are not counted
                seat = s["view"]["state"]["turn"]
                legal = (await table.state(seat))["legal"]
                seq = s["seq"]
                before = len(reads)
                r = await t.send(seat, legal[0])
                assert r.status_code == 200, r.text
                assert r.json()["seq"] > seq
                assert len(reads) - before <= 1
    events = (await client.get(f"/v1/games/{table.id}/events")).json()["events"]
    assert [e["seq"] for e in events] == list(range(1, len(events) + 1))
    for before, after in itertools.pairwise(events):
        assert after["prev"] == before["hash"]


async def test_a_choice_made_at_once_by_every_seat_stands_on_a_fold_the_refusal_brought(
    client, valkey, monkeypatch
):
    """High Voltage's seats pick their cards at the same time, so a pick decided on a fold
    one pick behind is still legal: the append refuses it, with the pick it missed, and the
    process decides again on that fold and appends, reading nothing."""
    table = await new_table(client, seats=3, game="high-voltage")
    async with AsyncTestClient(app=make_app(valkey, sandbox=True, background=False)) as other:
        table_b = type(table)(other, table.id, table.admin, table.tokens)
        await table_b.state()
        reads = reads_of(other.app.state.service.store, monkeypatch)
        picks = [(await table.state(seat))["legal"][0] for seat in range(3)]
        assert {p["type"] for p in picks} == {"pick"}
        assert (await table.send(0, picks[0])).status_code == 200
        r = await table_b.send(1, picks[1])
        assert r.status_code == 200, r.text
        assert reads == []
        assert (await table_b.state())["seq"] == r.json()["seq"]


def reads_of(store, monkeypatch) -> list:
    """The reads of a game's log the store makes from now on, one entry each."""
    reads = []
    real = store.read_raw

    async def counted(*args, **kwargs):
        reads.append(args)
        return await real(*args, **kwargs)

    monkeypatch.setattr(store, "read_raw", counted)
    return reads
