"""Durability: eight clients play games of all four kinds against `danger serve`; the whole
tree (the embedded Valkey included) is killed with SIGKILL at a random moment; after a
restart every command answered 200 is in the log, every chain is intact, and every game
plays on. Repeated on the same data. On an external store (`make test-cluster`) the service
alone is killed: the store is not the test's to kill."""

import asyncio
import itertools
import random
import signal
import time

import httpx

from tests.integration.test_restart import free_port, serve, valkey_children
from tests.players import Table, new_table
from tests.stores import EXTERNAL

KINDS = [
    ("danger", 2, {}),
    ("high-voltage", 2, {}),
    ("danger-13", 2, {}),
    ("danger-danger", 2, {"round_seconds": 3600}),
]


async def keep_playing(table: Table, answered: list, rng: random.Random) -> None:
    """Send legal commands until the connection dies; note every (seq, hash) answered 200."""
    try:
        while True:
            for seat in range(len(table.tokens)):
                legal = (await table.state(seat))["legal"]
                if legal:
                    r = await table.send(seat, rng.choice(legal))
                    if r.status_code == 200:
                        answered += [(table.id, e["seq"], e["hash"]) for e in r.json()["events"]]
    except (httpx.HTTPError, AssertionError, ValueError):
        return


async def test_answered_commands_survive_sigkill_of_the_whole_tree(tmp_path):
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    rng = random.Random(11)
    tables: list[Table] = []
    answered: list[tuple[str, int, str]] = []
    store = (
        {"REDIS_URL": EXTERNAL.url, "DANGER_QUEUE_URL": EXTERNAL.queue_url} if EXTERNAL else None
    )
    for _ in range(3):
        proc = serve(tmp_path, port, store=store)
        async with httpx.AsyncClient(base_url=base, timeout=5) as http:
            if not tables:
                for game, seats, options in itertools.islice(itertools.cycle(KINDS), 8):
                    tables.append(await new_table(http, seats=seats, game=game, **options))
            for table in tables:
                table.client = http
            players = [asyncio.create_task(keep_playing(t, answered, rng)) for t in tables]
            await asyncio.sleep(rng.uniform(0.5, 2.0))
            proc.send_signal(signal.SIGKILL)  # the service; its server dies with it
            proc.wait()
            await asyncio.gather(*players)
        deadline = time.monotonic() + 10
        while valkey_children(tmp_path) and time.monotonic() < deadline:
            await asyncio.sleep(0.05)
        assert valkey_children(tmp_path) == [], "the embedded server outlived the kill"
        assert answered, "the clients got answers before the kill"

        proc = serve(tmp_path, port, store=store)
        try:
            async with httpx.AsyncClient(base_url=base, timeout=10) as http:
                logs = {}
                for table in tables:
                    events = (await http.get(f"/v1/games/{table.id}/events?limit=5000")).json()
                    logs[table.id] = {e["seq"]: e for e in events["events"]}
                    seqs = sorted(logs[table.id])
                    assert seqs == list(range(1, len(seqs) + 1))
                    audit = (await http.get(f"/v1/games/{table.id}/audit")).json()
                    assert audit["checks"][0]["ok"], audit  # the chain is intact
                for game_id, seq, digest in answered:
                    assert logs[game_id][seq]["hash"] == digest, (game_id, seq)
                for table in tables:  # and every game plays on
                    table.client = http
                    game = await table.state()
                    if game["status"] == "active":
                        moved = False
                        for seat in range(len(table.tokens)):
                            legal = (await table.state(seat))["legal"]
                            if legal:
                                assert (await table.send(seat, legal[0])).status_code == 200
                                moved = True
                                break
                        assert moved or game["view"]["state"] is None
        finally:
            proc.send_signal(signal.SIGTERM)
            proc.wait(timeout=20)
