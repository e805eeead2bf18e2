"""Live streams on the real server (uvicorn on a loopback port, the session's Valkey): one
reader of the feeds per process, caps per client and per process, the end of a stream, and
resuming without gap or duplicate."""

from __future__ import annotations

import asyncio
import contextlib
import gc
import random
import re
import resource
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from typing import Any

import httpx
import msgspec
import pytest
from prometheus_client.parser import text_string_to_metric_families

from tests.conftest import make_app, on_socket, wait_for
from tests.players import Table, new_table, play_to_end
from tests.stores import store_client

STREAMS = 1000


async def eventually(predicate: Any, seconds: float) -> bool:
    """Whether `predicate()` becomes true within `seconds`."""
    deadline = asyncio.get_running_loop().time() + seconds
    while asyncio.get_running_loop().time() < deadline:
        if predicate():
            return True
        await asyncio.sleep(0.02)
    return False


@dataclass
class Server:
    app: Any
    url: str

    @property
    def hub(self) -> Any:
        return self.app.state.hub


@contextlib.asynccontextmanager
async def serving(valkey: Any, **settings: Any) -> AsyncIterator[Server]:
    app = make_app(valkey, sandbox=True, background=False, **settings)
    app.state.keep_alive = 0.2
    async with on_socket(app) as url:
        yield Server(app, url)


def client(url: str, address: str = "127.0.0.1") -> httpx.AsyncClient:
    """A client whose connections come from `address` (any of 127.0.0.0/8): the server
    counts streams per peer address."""
    limits = httpx.Limits(max_connections=None, max_keepalive_connections=0)
    return httpx.AsyncClient(
        base_url=url,
        timeout=httpx.Timeout(30, read=None),
        transport=httpx.AsyncHTTPTransport(local_address=address, limits=limits),
    )


async def connected_clients(valkey: Any) -> int:
    redis = await store_client(valkey.url)
    try:
        return int((await redis.info("clients"))["connected_clients"])
    finally:
        await redis.aclose()


@dataclass
class Listener:
    """One stream: every event it received, in order, and whether the server ended it."""

    events: list[dict] = field(default_factory=list)
    comments: int = 0
    status: int | None = None
    body: bytes = b""
    began: asyncio.Event = field(default_factory=asyncio.Event)
    ended: bool = False

    @property
    def seqs(self) -> list[int]:
        return [e["seq"] for e in self.events]


async def listen(
    http: httpx.AsyncClient,
    game_id: str,
    listener: Listener,
    stop_after: int | None = None,
    **headers: str,
) -> Listener:
    """Read the stream until the server ends it (or, with `stop_after`, until that many
    events came, then hang up)."""
    try:
        async with http.stream("GET", f"/v1/games/{game_id}/stream", headers=headers) as r:
            listener.status = r.status_code
            listener.began.set()
            if r.status_code != 200:
                listener.body = await r.aread()
                return listener
            async for line in r.aiter_lines():
                if line.startswith("data:"):
                    listener.events.append(msgspec.json.decode(line[5:].strip()))
                    if len(listener.events) == stop_after:
                        return listener
                elif line.startswith(":"):
                    listener.comments += 1
            listener.ended = True
    finally:
        listener.began.set()
    return listener


def open_stream(
    http: httpx.AsyncClient, game_id: str, **headers: str
) -> tuple[Listener, asyncio.Task[Listener]]:
    listener = Listener()
    return listener, asyncio.create_task(listen(http, game_id, listener, None, **headers))


async def close_all(tasks: list[asyncio.Task]) -> None:
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)


async def play(table: Table, commands: int, rng: random.Random) -> int:
    """Send `commands` legal commands (each from a seat that may act); the game's seq after."""
    for _ in range(commands):
        for seat in range(len(table.tokens)):
            legal = (await table.state(seat))["legal"]
            if legal:
                r = await table.send(seat, rng.choice(legal))
                assert r.status_code == 200, r.text
                break
    return (await table.state())["seq"]


@pytest.fixture(autouse=True, scope="module")
def open_files() -> None:
    """Room for a thousand client sockets and the server's side of them."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < 8192 <= hard or (soft < hard and hard < 8192):
        resource.setrlimit(resource.RLIMIT_NOFILE, (min(8192, hard), hard))


async def test_a_thousand_streams_hold_no_valkey_connection_and_each_gets_every_event(valkey):
    pool = 8
    async with (
        serving(
            valkey, streams_per_client=2000, connections_per_client=0, redis_connections=pool
        ) as server,
        client(server.url) as http,
    ):
        tables = [await new_table(http, seats=2) for _ in range(4)]
        before = await connected_clients(valkey)
        # Most streams on one game, the rest spread; seats and spectators; some resume
        # from the start, most from where the game is now.
        hot = STREAMS * 7 // 10
        plan = [(0, n) for n in range(hot)] + [(1 + n % 3, n) for n in range(STREAMS - hot)]
        now = [(await table.state())["seq"] for table in tables]
        streams: list[tuple[int, int, Listener, asyncio.Task]] = []
        for game, n in plan:
            table = tables[game]
            seq = now[game] if n % 10 else 0
            headers = {"Last-Event-ID": str(seq)}
            if n % 3 < len(table.tokens):
                headers |= table.auth(n % 3)
            listener, task = open_stream(http, table.id, **headers)
            streams.append((game, seq, listener, task))
        await wait_for(lambda: server.hub.open == len(plan))
        during = await connected_clients(valkey)
        # The streams borrow from the process's pool only to read their backlog.
        assert during <= before + pool, (before, during)

        rng = random.Random(5)
        finals = [await play(table, 8, rng) for table in tables]
        await wait_for(
            lambda: all(
                listener.seqs and listener.seqs[-1] == finals[game]
                for game, _, listener, _ in streams
            )
        )
        assert await connected_clients(valkey) <= before + pool
        for game, start, listener, _ in streams:
            assert listener.status == 200
            assert listener.seqs == list(range(start + 1, finals[game] + 1))
        await close_all([task for *_, task in streams])
        await wait_for(lambda: server.hub.open == 0)  # every slot released on disconnect


async def test_streams_per_client_and_per_process_are_capped(valkey):
    async with (
        serving(valkey, streams_per_client=3, streams_max=5) as server,
        client(server.url, "127.0.0.1") as first,
        client(server.url, "127.0.0.2") as second,
        client(server.url, "127.0.0.3") as third,
    ):
        table = await new_table(first, seats=2)
        held = [open_stream(first, table.id) for _ in range(3)]
        for listener, _ in held:
            await listener.began.wait()
            assert listener.status == 200

        listener, task = open_stream(first, table.id)
        await task
        assert listener.status == 429
        problem = msgspec.json.decode(listener.body)
        assert problem["code"] == "too_many_streams" and problem["status"] == 429

        # Another client is not counted with the first one...
        others = [open_stream(second, table.id) for _ in range(2)]
        for listener, _ in others:
            await listener.began.wait()
            assert listener.status == 200
        # ...but the process holds five streams at most.
        listener, task = open_stream(third, table.id)
        await task
        assert listener.status == 503
        assert msgspec.json.decode(listener.body)["code"] == "stream_capacity"

        # A closed stream frees its place.
        await close_all([held[0][1]])
        await wait_for(lambda: server.hub.open == 4)
        listener, task = open_stream(first, table.id)
        await listener.began.wait()
        assert listener.status == 200
        await close_all([task, *(t for _, t in held[1:]), *(t for _, t in others)])
        await wait_for(lambda: server.hub.open == 0)


async def test_a_client_gone_while_a_write_waits_frees_its_place_at_once(valkey):
    """The client leaves while the server waits to write to it (a full socket): its place is
    free as soon as the answer is over, not whenever the garbage collector runs."""
    async with serving(valkey) as server, client(server.url) as http:
        table = await new_table(http, seats=2)
        writing = asyncio.Event()

        async def send(message: dict) -> None:
            if message["type"] == "http.response.body":
                writing.set()
                await asyncio.Event().wait()  # a write that never completes

        async def receive() -> dict:
            await writing.wait()
            return {"type": "http.disconnect"}

        path = f"/v1/games/{table.id}/stream"
        scope = {
            "type": "http",
            "asgi": {"version": "3.0"},
            "http_version": "1.1",
            "method": "GET",
            "scheme": "http",
            "path": path,
            "raw_path": path.encode(),
            "root_path": "",
            "query_string": b"after=0",
            "headers": [(b"host", b"test")],
            "client": ("127.0.0.9", 40000),
            "server": ("test", 80),
            "state": {},
        }
        gc.disable()  # the place must not wait for a collection
        try:
            await asyncio.wait_for(server.app(scope, receive, send), 10)
            assert writing.is_set()
            assert server.hub.open == 0
        finally:
            gc.enable()


async def test_a_stream_ends_after_the_last_event(valkey):
    async with serving(valkey) as server, client(server.url) as http:
        table = await new_table(http, seats=2, game="high-voltage")
        live, live_task = open_stream(http, table.id, **table.auth(0))
        await live.began.wait()
        await play_to_end(table, choose=random.Random(3).choice)
        await asyncio.wait_for(live_task, 30)  # it ended by itself
        events = (await http.get(f"/v1/games/{table.id}/events")).json()["events"]
        last = events[-1]
        assert last["type"] == "seed_revealed"
        assert live.ended and live.seqs == list(range(1, last["seq"] + 1))
        assert live.events[-1]["type"] == "seed_revealed"

        # Opened on a finished game: what follows `after`, then the end.
        for after in (0, last["seq"] - 3, last["seq"]):
            listener = await listen(http, table.id, Listener(), **{"Last-Event-ID": str(after)})
            assert listener.ended and listener.seqs == list(range(after + 1, last["seq"] + 1))
            # once the game is over, everyone reads the log complete
            assert listener.events == events[after:]
        assert server.hub.open == 0


async def test_a_hub_with_no_stream_reads_no_feed_and_a_later_stream_misses_nothing(
    valkey, monkeypatch
):
    """With no stream open the hub reads no feed, and the process, whose only reader of the
    feeds it is, stops listening to the bell; the first stream then gets every event, those
    appended before and while the hub took up the feeds again included, and ends."""
    from service.live import streams

    reads = 0
    read_streams = streams.read_streams

    async def counted(*args: Any, **kwargs: Any) -> Any:
        nonlocal reads
        reads += 1
        return await read_streams(*args, **kwargs)

    monkeypatch.setattr(streams, "read_streams", counted)
    rng = random.Random(11)
    async with serving(valkey) as server, client(server.url) as http:
        table = await new_table(http, seats=2, game="high-voltage")
        await play(table, 10, rng)
        await asyncio.sleep(0.3)  # their bells heard
        assert reads == 0 and server.hub.open == 0
        bell = server.app.state.bell
        assert not bell.subscribed, "an idle process is woken by every append"
        # Opened while commands keep coming: those before the hub takes up the feeds are in
        # the stream's backlog, those after are announced.
        playing = asyncio.create_task(play_to_end(table, choose=rng.choice))
        await asyncio.sleep(0.05)
        live, live_task = open_stream(http, table.id, **table.auth(0))
        await wait_for(lambda: bell.subscribed)
        await playing
        await asyncio.wait_for(live_task, 30)
        assert reads > 0
        events = (await http.get(f"/v1/games/{table.id}/events", headers=table.auth(0))).json()
        last = events["events"][-1]
        assert last["type"] == "seed_revealed"
        assert live.ended and live.seqs == list(range(1, last["seq"] + 1))
        await wait_for(lambda: server.hub.open == 0)
        before = reads
        await new_table(http, seats=2, game="high-voltage")
        await asyncio.sleep(0.3)
        assert reads == before, "idle again: no stream, no read"
        await new_table(http, seats=2, game="high-voltage")  # the bell lets go at a ring
        await asyncio.sleep(0.3)
        assert not bell.subscribed


async def test_a_stream_waits_while_the_hub_cannot_take_up_the_feeds(valkey, monkeypatch):
    """A hub that had no stream and fails to read the feeds' tails reads them again; the
    stream that woke it waits meanwhile and then gets every event."""
    rng = random.Random(12)
    async with serving(valkey) as server, client(server.url) as http:
        hub = server.hub
        tails = hub._tails
        failed: list[int] = []

        async def failing_once(feeds: list[str]) -> dict[str, str]:
            if not failed:
                failed.append(len(feeds))
                raise ConnectionError("the store went away")
            return await tails(feeds)

        monkeypatch.setattr(hub, "_tails", failing_once)
        table = await new_table(http, seats=2, game="high-voltage")
        live, live_task = open_stream(http, table.id, **table.auth(0))
        await play_to_end(table, choose=rng.choice)
        await asyncio.wait_for(live_task, 30)
        assert failed, "the hub did not read the tails"
        last = (await table.state())["seq"]
        assert live.ended and live.seqs == list(range(1, last + 1))


async def test_resuming_with_last_event_id_has_no_gap_and_no_duplicate(valkey):
    """Readers hang up after a few events and resume with Last-Event-ID while commands are
    appended; joined up, each reader's events are every event once, in order."""
    async with serving(valkey) as server, client(server.url) as http:
        table = await new_table(http, seats=2, game="high-voltage")

        async def reader(n: int) -> tuple[list[int], int]:
            seen: list[int] = []
            chooser = random.Random(n)
            for connections in range(1, 1000):
                listener = await listen(
                    http,
                    table.id,
                    Listener(),
                    stop_after=chooser.randint(1, 30),
                    **{"Last-Event-ID": str(seen[-1] if seen else 0)},
                )
                seen += listener.seqs
                if listener.ended:
                    return seen, connections
            raise AssertionError("the stream never ended")

        readers = [asyncio.create_task(reader(n)) for n in range(6)]
        await play_to_end(table, choose=random.Random(11).choice)
        last = (await table.state())["seq"]
        for seen, connections in await asyncio.gather(*readers):
            assert seen == list(range(1, last + 1))
            assert connections > 3
        await wait_for(lambda: server.hub.open == 0)


async def test_a_slow_reader_catches_up_from_the_store(valkey):
    """A subscriber whose queue overflows (bound: 1 batch) misses nothing: it reads on from
    the store by seq, and the hub never waits for it."""
    async with serving(valkey, stream_queue=1) as server, client(server.url) as http:
        table = await new_table(http, seats=2)
        start = (await table.state())["seq"]
        hub = server.hub
        subscriber = hub.subscribe(table.id, "spectator", "in-process")
        messages = hub.events(subscriber, start)
        rng = random.Random(2)
        # The reader sleeps: its one place fills. A hub that had no stream takes up the feeds
        # first: a command before that is in the reader's backlog, not offered to its queue.
        final = await play(table, 1, rng)
        while not await eventually(lambda: subscriber.batches, 1.0):
            final = await play(table, 1, rng)
        while not subscriber.behind:  # the next batch the hub offers overflows the queue
            final = await play(table, 1, rng)
            await wait_for(
                lambda seq=final: subscriber.behind or seq <= subscriber.batches[-1].last
            )
        seqs: list[int] = []
        async for message in messages:  # until the stream idles: a keep-alive comment
            frame = message.encode()
            if frame.startswith(b":"):
                break
            seqs += [int(seq) for seq in re.findall(rb"^id: (\d+)\r$", frame, re.MULTILINE)]
        assert seqs == list(range(start + 1, final + 1))
        await messages.aclose()
        assert hub.open == 0


async def test_seats_reading_one_live_batch_each_see_only_their_own_hand(valkey):
    """The hub decodes a batch once and redacts it per reader: High Voltage hands dealt
    live reach each seat with its own cards only, and a spectator with none."""
    async with serving(valkey) as server, client(server.url) as http:
        table = await new_table(http, seats=3, game="high-voltage", start=False)
        readers = {seat: open_stream(http, table.id, **table.auth(seat)) for seat in range(3)}
        readers[None] = open_stream(http, table.id)
        await wait_for(lambda: server.hub.open == 4)
        r = await http.post(
            f"/v1/games/{table.id}/start", headers={"Authorization": f"Bearer {table.admin}"}
        )
        assert r.status_code == 200
        for listener, _ in readers.values():
            await wait_for(
                lambda listener=listener: (
                    sum(e["type"] == "hand_dealt" for e in listener.events) == 3
                )
            )
        for seat, (listener, _) in readers.items():
            for event in (e for e in listener.events if e["type"] == "hand_dealt"):
                mine = event["data"]["seat"] == seat
                assert (event["data"]["cards"] is not None) == mine
                assert (event["salt"] is not None) == mine
        await close_all([task for _, task in readers.values()])


async def test_an_idle_stream_sends_keep_alive_comments(valkey):
    async with serving(valkey) as server, client(server.url) as http:
        table = await new_table(http, seats=2)
        listener, task = open_stream(http, table.id)
        await wait_for(lambda: listener.comments >= 2)
        await close_all([task])
        await wait_for(lambda: server.hub.open == 0)


async def test_the_process_writes_to_its_streams_within_its_budget(valkey):
    """Ten readers of a game played fast: each still gets every event once and in order,
    but the process writes at most `stream_writes` times a second in all (events of several
    commands gather into one write), where it would write to each reader every 50 ms."""
    budget, readers = 20, 10
    async with serving(valkey, stream_writes=budget) as server, client(server.url) as http:
        table = await new_table(http, seats=2)
        start = (await table.state())["seq"]
        hub = server.hub
        writes, final, played = 0, 0, asyncio.Event()

        async def read(messages: Any) -> list[int]:
            nonlocal writes
            seqs: list[int] = []
            async for message in messages:  # keep-alive comments come every 0.2 s
                frame = message.encode()
                if not frame.startswith(b":"):
                    writes += 1
                    seqs += [int(s) for s in re.findall(rb"^id: (\d+)\r$", frame, re.M)]
                if played.is_set() and seqs and seqs[-1] == final:
                    await messages.aclose()
                    break
            return seqs

        subscribers = [hub.subscribe(table.id, "spectator", f"reader-{n}") for n in range(readers)]
        tasks = [asyncio.create_task(read(hub.events(s, start))) for s in subscribers]
        began = asyncio.get_running_loop().time()
        rng = random.Random(4)
        for _ in range(30):
            final = await play(table, 1, rng)
            await asyncio.sleep(0.02)
        seconds = asyncio.get_running_loop().time() - began
        played.set()
        for seqs in await asyncio.wait_for(asyncio.gather(*tasks), 30):
            assert seqs == list(range(start + 1, final + 1))
        # The first read after a quiet spell goes out at once; after it, the budget.
        assert writes <= readers + budget * (seconds + 1), (writes, seconds)
        assert hub.open == 0


async def test_streams_keep_up_while_a_request_is_always_being_answered(valkey):
    """The fan-out stands aside for requests, but a process never without one still feeds
    its streams: every reader gets every event, in order."""
    readers = 10
    async with serving(valkey) as server, client(server.url) as http:
        table = await new_table(http, seats=2)
        start = (await table.state())["seq"]
        hub, foreground = server.hub, server.app.foreground
        stood_aside = await stood_aside_seconds(http)
        foreground.enter()  # as if one request were always in flight
        try:
            subscribers = [hub.subscribe(table.id, "spectator", f"r{n}") for n in range(readers)]
            final = 0

            async def read(messages: Any) -> list[int]:
                seqs: list[int] = []
                async for message in messages:
                    frame = message.encode()
                    seqs += [int(s) for s in re.findall(rb"^id: (\d+)\r$", frame, re.M)]
                    if final and seqs and seqs[-1] == final:
                        await messages.aclose()
                        break
                return seqs

            tasks = [asyncio.create_task(read(hub.events(s, start))) for s in subscribers]
            final = await play(table, 20, random.Random(7))
            for seqs in await asyncio.wait_for(asyncio.gather(*tasks), 30):
                assert seqs == list(range(start + 1, final + 1))
            assert foreground.busy == 1  # the commands came and went; ours stays
        finally:
            foreground.leave()
        assert hub.open == 0
        # The operator sees that the fan-out waited.
        assert await stood_aside_seconds(http) > stood_aside


async def stood_aside_seconds(http: httpx.AsyncClient) -> float:
    r = await http.get("/metrics")
    assert r.status_code == 200
    for family in text_string_to_metric_families(r.text):
        for sample in family.samples:
            if sample.name == "danger_stream_stood_aside_seconds_total":
                return sample.value
    return 0.0


async def test_keep_alives_of_quiet_streams_stand_aside_for_requests(valkey):
    """The keep-alive tick wakes the quiet streams one at a time while a request is being
    answered (hundreds woken in one turn would hold every command arriving then), and
    still wakes them all within a tenth of its period."""
    period, readers = 3.0, 20
    app = make_app(valkey, sandbox=True, background=False, stream_stand_aside_ms=10_000)
    app.state.keep_alive = period
    async with on_socket(app) as url, client(url) as http:
        hub, foreground = app.state.hub, app.foreground
        table = await new_table(http, seats=2)
        start = (await table.state())["seq"]
        comments = [0] * readers

        async def read(n: int, messages: Any) -> None:
            async for message in messages:
                comments[n] += message.encode().startswith(b":")

        subscribers = [hub.subscribe(table.id, "spectator", f"q{n}") for n in range(readers)]
        tasks = [
            asyncio.create_task(read(n, hub.events(s, start))) for n, s in enumerate(subscribers)
        ]
        stood_aside = await stood_aside_seconds(http)
        foreground.enter()  # as if a request were in flight through the tick
        try:
            await wait_for(lambda: any(comments), timeout=3 * period)
            woke = asyncio.get_running_loop().time()
            await asyncio.sleep(period / 40)
            assert sum(map(bool, comments)) == 1  # the rest wait for the request
            await wait_for(lambda: all(comments), timeout=period)
            assert asyncio.get_running_loop().time() - woke < period / 2
        finally:
            foreground.leave()
        assert await stood_aside_seconds(http) > stood_aside
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        await wait_for(lambda: hub.open == 0)
