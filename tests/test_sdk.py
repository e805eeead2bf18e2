"""The Python SDK on a real server: the README's snippet plays a game, a game's stream is
followed across a dropped connection and a full server, and a write whose answer was lost
is retried under its Idempotency-Key and applied once. Connections are lost by a relay on
loopback between the client and the server, nothing else stands in for anything."""

from __future__ import annotations

import asyncio
import os
import re
import sys
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from danger_hall_client import Client
from danger_hall_client.api.games import join_game
from danger_hall_client.models import EventOut, JoinGame
from danger_hall_extras import Retrying, afollow, follow, new_key

from tests.conftest import make_app, on_socket
from tests.players import new_table, play_to_end

README = Path(__file__).parents[1] / "README.md"


class Relay:
    """A TCP relay on loopback to the server at `target`, which loses what it is told to:
    the answer on each of the first `lose` connections (the request reaches the server, and
    the connection closes when the answer starts), and, on each of the first connections
    in turn, what comes back past the bytes of `cuts` (the connection closes there)."""

    def __init__(self, target: str, lose: int = 0, cuts: tuple[int, ...] = ()) -> None:
        host, port = target.removeprefix("http://").split(":")
        self.host, self.port = host, int(port)
        self.lose, self.cuts = lose, list(cuts)
        self.connections = 0

    async def __aenter__(self) -> str:
        self.server = await asyncio.start_server(self._relay, "127.0.0.1", 0)
        return f"http://127.0.0.1:{self.server.sockets[0].getsockname()[1]}"

    async def __aexit__(self, *_: object) -> None:
        self.server.close()
        await self.server.wait_closed()

    async def _relay(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.connections += 1
        lose = self.lose > 0
        self.lose -= lose
        cut = self.cuts.pop(0) if self.cuts else None
        up_reader, up_writer = await asyncio.open_connection(self.host, self.port)

        async def upstream() -> None:
            while data := await reader.read(65536):
                up_writer.write(data)
                await up_writer.drain()

        sending = asyncio.create_task(upstream())
        sent = 0
        try:
            while data := await up_reader.read(65536):
                if lose:
                    break
                if cut is not None and sent + len(data) >= cut:
                    writer.write(data[: cut - sent])
                    break
                writer.write(data)
                await writer.drain()
                sent += len(data)
        finally:
            sending.cancel()
            writer.transport.abort()
            up_writer.close()


@pytest.fixture(scope="module")
async def api(valkey) -> AsyncIterator[str]:
    app = make_app(valkey, background=False)
    app.state.keep_alive = 0.2
    async with on_socket(app) as url:
        yield url


async def ended_game(url: str) -> str:
    """A game whose log is complete: two seats joined, then abandoned before the start."""
    async with httpx.AsyncClient(base_url=url, timeout=30) as http:
        table = await new_table(http, seats=2, start=False)
        auth = {"Authorization": f"Bearer {table.admin}"}
        r = await http.post(f"/v1/games/{table.id}/abandon", headers=auth)
        assert r.status_code == 200, r.text
        return table.id


def readme_snippet() -> str:
    """The Python block of the README's "Python SDK" section."""
    section = README.read_text().split("\n## Python SDK\n", 1)[1].split("\n## ", 1)[0]
    blocks = re.findall(r"```python\n(.*?)```", section, re.DOTALL)
    assert len(blocks) == 1, "one Python snippet in the README's Python SDK section"
    return str(blocks[0])


async def test_the_readmes_snippet_plays_a_game_to_the_end(api: str, tmp_path: Path) -> None:
    script = tmp_path / "snippet.py"
    script.write_text(readme_snippet())
    assert len(script.read_text().strip().splitlines()) <= 16
    process = await asyncio.create_subprocess_exec(
        sys.executable,
        str(script),
        env={**os.environ, "DANGER_API": api},
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    out, err = await asyncio.wait_for(process.communicate(), 120)
    assert process.returncode == 0, err.decode()
    assert re.fullmatch(r"totals \[\d+, \d+\] winners \[[01](, 1)?\]\n", out.decode()), out


def seqs(events: list[EventOut]) -> list[int]:
    return [e.seq for e in events]


async def test_afollow_resumes_a_dropped_stream_with_no_gap_and_no_duplicate(api: str) -> None:
    async with httpx.AsyncClient(base_url=api, timeout=30) as http:
        table = await new_table(http, seats=2, game="danger-13")
        relay = Relay(api, cuts=(3000, 5000))
        async with relay as relay_url:
            seen: list[EventOut] = []

            async def listen() -> None:
                async for event in afollow(Client(relay_url), table.id, backoff=0.05):
                    seen.append(event)

            listening = asyncio.create_task(listen())
            await play_to_end(table)
            await asyncio.wait_for(listening, 30)
            connections = relay.connections
        last = (await http.get(f"/v1/games/{table.id}")).json()["seq"]
    assert connections >= 3, "the stream was cut twice, and resumed"
    assert seqs(seen) == list(range(1, last + 1))
    assert seen[-1].type_ == "seed_revealed"


async def test_follow_reads_from_after_and_ends_with_the_log(api: str) -> None:
    game = await ended_game(api)
    with Client(api) as client:
        events = await asyncio.to_thread(lambda: list(follow(client, game, after=2)))
    assert seqs(events)[0] == 3 and seqs(events) == list(range(3, 3 + len(events)))
    assert events[-1].type_ == "seed_revealed"


async def test_afollow_waits_out_a_full_server(valkey) -> None:
    app = make_app(valkey, background=False, streams_max=1)
    async with on_socket(app) as url:
        game = await ended_game(url)
        async with httpx.AsyncClient(base_url=url, timeout=30) as http:
            table = await new_table(http, seats=2)
            async with http.stream("GET", f"/v1/games/{table.id}/stream") as held:
                assert held.status_code == 200
                following = asyncio.create_task(
                    collect(afollow(Client(url), game, backoff=0.05, reconnects=100))
                )
                await asyncio.sleep(0.5)
                assert not following.done(), "the only stream the server holds is taken"
            events = await asyncio.wait_for(following, 30)
    assert seqs(events) == list(range(1, len(events) + 1))
    assert events[-1].type_ == "seed_revealed"


async def collect(events: AsyncIterator[EventOut]) -> list[EventOut]:
    return [event async for event in events]


async def players(url: str, game_id: str) -> list[dict[str, Any]]:
    async with httpx.AsyncClient(base_url=url) as http:
        view = (await http.get(f"/v1/games/{game_id}")).json()["view"]
    return [p for p in view["players"] if p.get("name")]


async def test_a_write_whose_answer_was_lost_is_sent_again_under_its_key_once(api: str) -> None:
    async with httpx.AsyncClient(base_url=api) as http:
        game_id = (await http.post("/v1/games", json={"game": "danger", "seats": 3})).json()["id"]
    relay = Relay(api, lose=2)
    async with relay as relay_url:
        retrying = Client(relay_url, httpx_args={"transport": Retrying(backoff=0.05)})
        async with retrying:
            joined = await join_game.asyncio_detailed(
                game_id, client=retrying, body=JoinGame(name="Ann"), idempotency_key=new_key()
            )
        assert relay.connections == 3
    assert joined.status_code == 201 and joined.parsed is not None
    assert [p["name"] for p in await players(api, game_id)] == ["Ann"]


async def test_a_write_without_a_key_is_not_sent_again(api: str) -> None:
    async with httpx.AsyncClient(base_url=api) as http:
        game_id = (await http.post("/v1/games", json={"game": "danger", "seats": 3})).json()["id"]
    relay = Relay(api, lose=1)
    async with relay as relay_url:
        async with Client(relay_url, httpx_args={"transport": Retrying(backoff=0.05)}) as client:
            with pytest.raises(httpx.RemoteProtocolError):
                await join_game.asyncio_detailed(game_id, client=client, body=JoinGame(name="Bo"))
        assert relay.connections == 1
    # It was applied: only a read tells.
    assert [p["name"] for p in await players(api, game_id)] == ["Bo"]
