"""A stream opened with a seat's token ends at the event that withdraws the token (the seat
given up, a new token given to it), before any later event: written by the API process or by
its stream writer, whichever process the event was appended through, live or from the store."""

from __future__ import annotations

import asyncio
import contextlib
import random
import re
from collections.abc import AsyncIterator
from typing import Any

import httpx
import pytest

from tests.conftest import wait_for
from tests.integration.test_stream_writer import writing
from tests.integration.test_streams import (
    Listener,
    Server,
    client,
    close_all,
    listen,
    open_stream,
    play,
    serving,
)
from tests.players import Table, bearer, events_of, new_table

WRITTEN_BY = pytest.mark.parametrize("writer", [False, True], ids=["api-process", "stream-writer"])


@contextlib.asynccontextmanager
async def streaming(valkey: Any, writer: bool) -> AsyncIterator[Server]:
    """The process that serves the streams: its stream writer writes them, or it does."""
    if writer:
        async with writing(valkey) as server:
            yield server
    else:
        async with serving(valkey) as server:
            yield server


async def settled(listener: Listener, seq: int) -> None:
    """Until the stream ended, or sent the event at `seq`."""
    await wait_for(lambda: listener.ended or (listener.seqs and listener.seqs[-1] >= seq))


def last_of(events: list[dict], kind: str, seat: int) -> int:
    return max(e["seq"] for e in events if e["type"] == kind and e["data"]["seat"] == seat)


async def replace_token(http: httpx.AsyncClient, table: Table, seat: int) -> httpx.Response:
    """A new token for the seat while the game is under way: the seat's own to ask for
    (docs/rulings.md, "A seat's token")."""
    return await http.post(f"/v1/games/{table.id}/players/{seat}/token", headers=table.auth(seat))


@WRITTEN_BY
async def test_a_seat_given_up_ends_its_stream_before_the_next_occupant_is_dealt(valkey, writer):
    """Seat 1 leaves, another player takes it and the game deals: the stream opened with the
    first player's token ends after `seat_left` and never shows the new occupant's hand."""
    async with (
        streaming(valkey, writer) as ours,
        serving(valkey) as other,  # the commands go through another API process
        client(ours.url) as http,
        client(other.url) as elsewhere,
    ):
        table = await new_table(elsewhere, seats=3, game="high-voltage", start=False)
        first = table.auth(1)
        old, old_task = open_stream(http, table.id, **first)
        watcher, watcher_task = open_stream(http, table.id)
        await wait_for(lambda: ours.hub.open == 2)

        r = await elsewhere.delete(f"/v1/games/{table.id}/players/1", headers=first)
        assert r.status_code == 200, r.text
        r = await elsewhere.post(f"/v1/games/{table.id}/players", json={"name": "Cy"})
        assert r.status_code == 201 and r.json()["seat"] == 1
        table.tokens[1] = r.json()["token"]
        r = await elsewhere.post(f"/v1/games/{table.id}/start", headers=bearer(table.admin))
        assert r.status_code == 200, r.text
        final = (await table.state())["seq"]
        left = last_of(await events_of(table.client, table.id), "seat_left", 1)

        await settled(old, final)
        shown = [e for e in old.events if e["type"] == "hand_dealt" and e["data"]["cards"]]
        assert shown == [], "the stream of the seat given up showed the next occupant's hand"
        assert old.ended and old.seqs == list(range(1, left + 1))
        assert old.events[-1]["type"] == "seat_left"

        # A spectator's stream beside it goes on; the old token opens none again.
        await settled(watcher, final)
        assert not watcher.ended and watcher.seqs == list(range(1, final + 1))
        again = await listen(http, table.id, Listener(), **first)
        assert again.status == 401 and b"token_invalid" in again.body
        await close_all([old_task, watcher_task])
        await wait_for(lambda: ours.hub.open == 0)


@WRITTEN_BY
async def test_a_new_token_for_a_seat_ends_the_old_tokens_stream_before_the_next_pick(
    valkey, writer
):
    """While a High Voltage draft goes on, seat 0 is given a new token: the stream
    opened with the old one ends after `seat_token_reissued`, before the seat's next
    `cards_picked` or `cards_passed`; one opened with the new token from the start (the
    reissue in its backlog) goes on and shows them."""
    async with (
        streaming(valkey, writer) as ours,
        serving(valkey) as other,
        client(ours.url) as http,
        client(other.url) as elsewhere,
    ):
        table = await new_table(elsewhere, seats=3, game="high-voltage")
        old_token = table.auth(0)
        old, old_task = open_stream(http, table.id, **old_token)
        await wait_for(lambda: ours.hub.open == 1)
        rng = random.Random(4)
        await play(table, 1, rng)  # seat 0 picks: its own stream shows it

        r = await replace_token(elsewhere, table, 0)
        assert r.status_code == 201, r.text
        table.tokens[0], reissued = r.json()["token"], r.json()["seq"]
        renewed, renewed_task = open_stream(http, table.id, **table.auth(0))
        await settled(renewed, reissued)  # open, its backlog read
        final = await play(table, 3, rng)  # seats 1 and 2 pick, the cards pass, seat 0 picks
        events = await events_of(table.client, table.id)
        assert last_of(events, "seat_token_reissued", 0) == reissued

        await settled(old, final)
        after = [(e["seq"], e["type"]) for e in old.events if e["seq"] > reissued]
        assert after == [], "the old token's stream went on after the reissue"
        assert old.ended and old.seqs == list(range(1, reissued + 1))
        assert old.events[-1]["type"] == "seat_token_reissued"

        await settled(renewed, final)
        assert not renewed.ended and renewed.seqs == list(range(1, final + 1))
        picked = [
            e
            for e in renewed.events
            if e["seq"] > reissued and e["type"] == "cards_picked" and e["data"]["seat"] == 0
        ]
        assert picked and all(e["data"]["cards"] for e in picked)
        await close_all([old_task, renewed_task])
        await wait_for(lambda: ours.hub.open == 0)


async def test_a_withdrawal_read_from_the_store_ends_the_stream_there(valkey):
    """A stream whose token was checked before the seat was given up, and that reads the
    withdrawal from the store (its backlog, as after a fall behind), ends at it too."""
    async with serving(valkey) as server, client(server.url) as http:
        table = await new_table(http, seats=3, game="high-voltage", start=False)
        checked = (await table.state())["seq"]
        hub = server.hub
        subscriber = hub.subscribe(table.id, 1, "in-process", checked=checked)
        r = await http.delete(f"/v1/games/{table.id}/players/1", headers=table.auth(1))
        assert r.status_code == 200, r.text
        r = await http.post(f"/v1/games/{table.id}/players", json={"name": "Cy"})
        assert r.status_code == 201 and r.json()["seat"] == 1
        r = await http.post(f"/v1/games/{table.id}/start", headers=bearer(table.admin))
        assert r.status_code == 200, r.text
        left = last_of(await events_of(table.client, table.id), "seat_left", 1)

        seqs: list[int] = []
        async with asyncio.timeout(60):  # only against a hang: the stream ends by itself
            async for message in hub.events(subscriber, 0):
                frame = message.encode()
                seqs += [int(seq) for seq in re.findall(rb"^id: (\d+)\r$", frame, re.MULTILINE)]
                assert b"hand_dealt" not in frame
        assert seqs == list(range(1, left + 1))
        assert hub.open == 0


@WRITTEN_BY
async def test_a_seat_that_resigns_ends_its_stream_at_its_resignation(valkey, writer):
    """Seat 0 resigns a High Voltage draft: the service's bot holds its hand from then on,
    and the stream opened with the seat's token ends after `seat_resigned`."""
    async with (
        streaming(valkey, writer) as ours,
        serving(valkey) as other,
        client(ours.url) as http,
        client(other.url) as elsewhere,
    ):
        table = await new_table(elsewhere, seats=3, game="high-voltage")
        token = table.auth(0)
        old, old_task = open_stream(http, table.id, **token)
        await wait_for(lambda: ours.hub.open == 1)
        r = await elsewhere.post(f"/v1/games/{table.id}/players/0/resign", headers=token)
        assert r.status_code == 200, r.text
        resigned = r.json()["seq"]

        await asyncio.wait_for(old_task, 30)  # it ends by itself: the last chunk may trail
        assert old.ended and old.events[-1]["type"] == "seat_resigned"
        assert old.seqs == list(range(1, old.seqs[-1] + 1)) and old.seqs[-1] <= resigned
        again = await listen(http, table.id, Listener(), **token)
        assert again.status == 401 and b"token_invalid" in again.body
        await close_all([old_task])
        await wait_for(lambda: ours.hub.open == 0)
