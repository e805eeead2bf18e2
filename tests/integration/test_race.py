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
