"""Streams of views (streamEvents with `view=true`), in Server-Sent Events and in NDJSON:
seats that play a whole game from their streams alone, never reading the game; what each
view shows is what GET /v1/games/{id} shows at that seq; HEAD of a stream opens none."""

from __future__ import annotations

import asyncio
import random
from collections.abc import AsyncIterator
from typing import Any

import httpx
import msgspec
import pytest

from tests.integration.test_stream_writer import writing
from tests.integration.test_streams import client, serving
from tests.players import Table, new_table, play_to_end

SEATS = {"danger": 2, "high-voltage": 3, "danger-13": 3, "danger-danger": 4}
NDJSON = {"Accept": "application/x-ndjson"}


async def messages(
    http: httpx.AsyncClient, path: str, headers: dict[str, str]
) -> AsyncIterator[tuple[str, dict[str, Any]]]:
    """(SSE event name or NDJSON `type`, object) for each message, until the server ends."""
    lines = headers.get("Accept") == NDJSON["Accept"]
    async with http.stream("GET", path, headers=headers) as r:
        assert r.status_code == 200, await r.aread()
        expected = "application/x-ndjson" if lines else "text/event-stream"
        assert r.headers["content-type"].startswith(expected)
        name = ""
        async for line in r.aiter_lines():
            if lines:
                if line.strip():
                    body = msgspec.json.decode(line)
                    yield body["type"], body
            elif line.startswith("event:"):
                name = line[6:].strip()
            elif line.startswith("data:"):
                yield name, msgspec.json.decode(line[5:].strip())


async def seat_plays(
    table: Table, seat: int, rng: random.Random, headers: dict[str, str], seen: list[Any]
) -> None:
    """A seat that only follows its stream: each view at rest with legal commands gets one
    of them. Every message it received goes to `seen`."""
    path = f"/v1/games/{table.id}/stream?view=true"
    async for name, body in messages(table.client, path, {**table.auth(seat), **headers}):
        seen.append((name, body))
        if name == "view" and body["legal"]:
            r = await table.send(seat, rng.choice(body["legal"]))
            # Another seat's command (or a timer) may have come first: its view follows.
            assert r.status_code in (200, 409), r.text


# The messages are the same for every game (a view is what GET answers); the games differ in
# how they rest (simultaneous picks, a timer, bots). Danger, the longest, is played from its
# view streams by the examples (make test-examples) and the TypeScript client's tests.
@pytest.mark.parametrize(
    ("game", "form"),
    [("high-voltage", "sse"), ("danger-13", "ndjson"), ("danger-danger", "sse")],
)
async def test_seats_play_a_whole_game_from_their_view_streams_alone(valkey, game, form):
    headers = NDJSON if form == "ndjson" else {}
    async with serving(valkey) as server, client(server.url) as http:
        table = await new_table(http, seats=SEATS[game], game=game)
        rng = random.Random(f"{game}-{form}")
        seen: list[list[Any]] = [[] for _ in table.tokens]
        reads_before = await _reads(http)
        await asyncio.wait_for(
            asyncio.gather(
                *(seat_plays(table, s, rng, headers, seen[s]) for s in range(len(table.tokens)))
            ),
            120,
        )
        assert await _reads(http) == reads_before  # no seat read the game

        final = await table.state(0)
        assert final["status"] == "finished"
        for seat, received in enumerate(seen):
            events = [body for name, body in received if name != "view"]
            views = [body for name, body in received if name == "view"]
            assert [e["seq"] for e in events] == list(range(1, final["seq"] + 1))
            # Each view shows the game at the seq of the last event sent before it.
            last = 0
            for name, body in received:
                if name == "view":
                    assert body["seq"] == last and body["id"] == table.id
                else:
                    last = body["seq"]
            assert received[-1][0] == "view"  # the game's end, as the seat sees it
            now = await table.state(seat)
            assert views[-1] == {"type": "view", **{k: v for k, v in now.items()}}


async def _reads(http: httpx.AsyncClient) -> float:
    """GET /v1/games/{id} answered so far, from the service's own metrics."""
    text = (await http.get("/metrics")).text
    total = 0.0
    for line in text.splitlines():
        if line.startswith("danger_http_requests_seconds_count") and (
            'route="/v1/games/{game_id}"' in line and 'method="GET"' in line
        ):
            total += float(line.rsplit(" ", 1)[1])
    return total


async def test_a_view_stream_opened_on_a_resting_game_begins_with_its_view(valkey):
    """A reader that resumes where it left off (nothing new) still gets the view at once;
    a spectator's shows no legal command; one opened after a finished game's last event sends
    the final view and ends."""
    async with serving(valkey) as server, client(server.url) as http:
        table = await new_table(http, seats=2)
        seq = (await table.state())["seq"]
        for headers, legal in (({**table.auth(0)}, True), ({}, False)):
            stream = messages(http, f"/v1/games/{table.id}/stream?view=true&after={seq}", headers)
            name, body = await asyncio.wait_for(anext(stream), 10)
            await stream.aclose()
            assert name == "view" and body["seq"] == seq
            assert bool(body["legal"]) == (legal and bool((await table.state(0))["legal"]))
        await play_to_end(table, choose=random.Random(1).choice)
        end = (await table.state())["seq"]
        got = [
            m
            async for m in messages(http, f"/v1/games/{table.id}/stream?view=true&after={end}", {})
        ]
        assert [name for name, _ in got] == ["view"]
        assert got[0][1]["status"] == "finished" and got[0][1]["legal"] == []


@pytest.mark.parametrize("form", ["sse", "ndjson"])
async def test_a_stream_written_by_the_stream_writer_carries_views_in_its_form(valkey, form):
    headers = NDJSON if form == "ndjson" else {}
    async with writing(valkey) as server, client(server.url) as http:
        table = await new_table(http, seats=3, game="danger-13")
        rng = random.Random(3)
        seen: list[list[Any]] = [[], [], []]
        await asyncio.wait_for(
            asyncio.gather(*(seat_plays(table, s, rng, headers, seen[s]) for s in range(3))), 120
        )
        assert server.hub.channels == {}  # written by the writer process
        assert (await table.state())["status"] == "finished"
        assert all(received[-1][0] == "view" for received in seen)


async def test_head_of_a_stream_answers_headers_only_and_holds_no_slot(valkey):
    """Over one keep-alive connection: HEAD answers at once with the GET's headers and no
    body, takes no stream place, and the connection's next request is answered."""
    async with (
        serving(valkey) as server,
        httpx.AsyncClient(base_url=server.url, timeout=10) as http,
    ):
        table = await new_table(http, seats=2)
        for headers, media in (({}, "text/event-stream"), (NDJSON, "application/x-ndjson")):
            r = await http.head(f"/v1/games/{table.id}/stream", headers=headers)
            assert r.status_code == 200 and r.content == b""
            assert r.headers["content-type"].startswith(media)
            assert server.hub.open == 0
            assert (await http.get(f"/v1/games/{table.id}")).status_code == 200
        r = await http.head("/v1/games/nosuchgame/stream")
        assert r.status_code == 404


@pytest.mark.parametrize(
    ("accept", "lines"),
    [
        (None, False),
        ("text/event-stream", False),
        ("application/x-ndjson", True),
        ("application/x-ndjson;q=0.5, text/event-stream", False),
        ("text/event-stream;q=0.2, application/x-ndjson", True),
        ("application/x-ndjson;q=0", False),
        ("*/*", False),
    ],
)
def test_the_stream_form_follows_the_accept_header(accept, lines):
    from service.http.stream_forms import wants_lines

    assert wants_lines(accept) is lines


def test_a_batch_already_sent_from_the_store_still_brings_its_view():
    """A reader whose backlog page read past the fold it was given (another process appended
    meanwhile) sent those events without a view; the live batch of the same events, queued
    meanwhile, ends where the stream is: its view is sent, alone, so that a seat waiting for
    its turn is not left without one."""
    from types import SimpleNamespace

    from service.live.streams import Frame, StreamHub, Subscriber

    view = Frame(frame=b"event: view\r\n\r\n")
    reader = Subscriber("g", 0, "c", bound=8, checked=0, views=True)
    reader.batches.append(SimpleNamespace(first=4, last=6, views={(0, False): view}))
    runs, rested = StreamHub._take(reader, 6)
    assert runs == [] and rested is view
    spectator = Subscriber("g", "spectator", "c", bound=8, checked=0, views=True)
    spectator.batches.append(SimpleNamespace(first=4, last=6, views={(0, False): view}))
    assert StreamHub._take(spectator, 6) == ([], None)  # another reader's view is not theirs
