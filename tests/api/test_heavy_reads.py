"""Audits, replays and exports run off the event loop, in a bounded pool: a flood of them is
refused at once (503 busy), and a game that is over is audited once."""

import asyncio
import contextlib
import subprocess
import sys
import time
from collections.abc import AsyncIterator
from pathlib import Path

import httpx

from events.keys import GameKeys
from tests.conftest import make_app, on_socket
from tests.players import new_table, play_to_end
from tests.processes import alive
from tests.stores import store_client

ROOT = Path(__file__).resolve().parents[2]


@contextlib.asynccontextmanager
async def served(app) -> AsyncIterator[httpx.AsyncClient]:
    """A client of the app on a real socket: concurrent requests really are concurrent."""
    async with on_socket(app) as url, httpx.AsyncClient(base_url=url, timeout=30) as http:
        yield http


async def test_a_flood_of_exports_is_refused_beyond_the_queue_and_the_rest_answered(valkey):
    # One client may take every place here: the pool's own bound is what is under test.
    app = make_app(valkey, cpu_workers=1, cpu_queue=1, cpu_per_client=24)
    async with served(app) as client:
        table = await new_table(client, seats=4)
        await play_to_end(table)
        url = f"/v1/games/{table.id}/export"
        answers = await asyncio.gather(*(client.get(url) for _ in range(24)))
        codes = [r.status_code for r in answers]
        assert 200 in codes and 503 in codes, codes
        busy = next(r for r in answers if r.status_code == 503)
        assert busy.json()["code"] == "busy" and busy.headers["retry-after"] == "1"
        assert busy.headers["content-type"].startswith("application/problem+json")
        # Once the flood has passed, every read is answered again.
        assert (await client.get(url)).status_code == 200


async def test_a_game_that_is_over_is_audited_once_and_the_report_kept(client, valkey):
    table = await new_table(client, seats=2)
    running = await client.get(f"/v1/games/{table.id}/audit")
    assert running.status_code == 200 and not running.json()["finished"]
    redis = await store_client(valkey.url)
    kept = GameKeys(table.id).audit
    assert await redis.get(kept) is None, "a running game's log still grows: nothing kept"
    await play_to_end(table)
    first = await client.get(f"/v1/games/{table.id}/audit")
    assert first.json()["ok"] and first.json()["finished"]
    assert await redis.get(kept) == first.content
    assert (await client.get(f"/v1/games/{table.id}/audit")).content == first.content
    await redis.aclose()


async def test_the_export_and_the_event_pages_agree(client):
    table = await new_table(client, seats=3)
    await play_to_end(table)
    export = (await client.get(f"/v1/games/{table.id}/export")).text.splitlines()
    page = (await client.get(f"/v1/games/{table.id}/events", params={"limit": 5000})).json()
    assert len(page["events"]) == len(export) == page["last_seq"] > 200
    short = (await client.get(f"/v1/games/{table.id}/events", params={"limit": 50})).json()
    assert short["events"] == page["events"][:50]


WORKER_THEN_DIE = """
import asyncio, os, time
from service.play.offload import Offload

async def main():
    pool = Offload(1, 1, 1)
    await pool.run("one", time.sleep, 0)
    print(*pool._pool._processes, flush=True)
    os._exit(0)  # as a SIGKILL would: no shutdown runs

if __name__ == "__main__":
    asyncio.run(main())
"""


def test_the_pool_workers_die_with_the_service(tmp_path):
    script = tmp_path / "die.py"
    script.write_text(WORKER_THEN_DIE)
    out = subprocess.run(
        [sys.executable, str(script)], capture_output=True, text=True, timeout=60, cwd=ROOT
    )
    workers = [int(pid) for pid in out.stdout.split()]
    assert workers, out.stderr
    deadline = time.monotonic() + 10
    while any(alive(pid) for pid in workers):
        assert time.monotonic() < deadline, "a worker outlived the service"
        time.sleep(0.05)
