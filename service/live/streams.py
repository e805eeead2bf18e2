"""Live events for every SSE stream of a process, from one reader of the shard feeds.

Every append also adds `game, first, last` to its shard's feed and rings the feeds' bell
(events/append.lua, service/infra/bell.py). The hub follows the feeds from their tails: it reads
the feeds that rang, without blocking (one XREAD per slot group: every feed in one on a
single server, one per feed on a cluster); for each game that has a stream open here, it
reads the announced events from the game's stream once and hands the decoded envelopes to
each subscriber's queue. Each viewer's redacted form is made once per batch and shared. A
stream therefore holds no Valkey connection: only reading its backlog (and a catch-up)
borrows one from the process's pool for a moment.

A hub with no stream open reads no feed (an API process whose streams its writer writes pays
for no reader of the feeds). When a stream comes, the hub takes up the feeds from their tails
before the stream reads its backlog: what the backlog does not hold, the hub announces.

A subscriber is registered before it reads its backlog, so every event appended after that is
announced to it, and every event before it is in what it reads: it sends by seq, skipping what
it has sent and reading any gap from the store, so there is no gap and no duplicate.

A stream shows only events that survive the loss of their primary: where appends wait for
replicas (DANGER_DURABILITY), what the hub or a page reads from a feed or a game is shown
once a mark written after the read is confirmed by those replicas (EventStore.held): an
append answered 503 `not_replicated` stays unseen until its replicas hold it, and one a
failover took back is never seen (tests/faults found streams showing such events).

A slow reader never blocks the hub or grows without bound: its queue holds `queue_bound`
batches; when the hub finds it full, it empties the queue and marks the subscriber behind, and
the subscriber reads on from the store by seq (a page at a time) before taking live batches
again.

The process writes to its streams at most `writes_per_second` times a second: after a read of
the feeds that woke W subscribers, the next read comes W / writes_per_second after it (and at
least SETTLE_SECONDS after its fan-out), so that more appends gather into each write. With a
few streams nothing changes; with thousands, each stream's writes carry more events, later,
and the event loop keeps its time for commands (bench/streams.py). Within that time the
fan-out stands aside for the requests being answered (service/live/foreground.py).

A stream opened with a seat's token sends no event past the one that withdraws the token (the
seat given up, `seat_left`, given a new token, `seat_token_reissued`, or resigned,
`seat_resigned`): it sends that event
and ends, whether the event comes in a live batch or in a page read from the store. Only an
event after the seq at which the token was checked counts: a stream opened with the new token
may have the withdrawal of the old one in its backlog.

Under `danger serve` a hub also runs in each API process's stream writer, a process of its
own at a lower priority, for the streams the API process hands it (service/live/stream_writer.py);
the API process's own hub writes the rest.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import weakref
from collections import deque
from collections.abc import AsyncGenerator, Awaitable, Callable
from dataclasses import dataclass
from typing import Any

import msgspec
from litestar.response.sse import ServerSentEventMessage

from domain.kernel import Viewer
from events import keys
from events.cluster import in_slices, read_streams
from events.envelope import Envelope
from events.store import decode_envelope
from service.infra import metrics
from service.infra.bell import FALLBACK_SECONDS, Bell, Listener
from service.live import player_streams
from service.live.foreground import Aside, Foreground
from service.live.player_streams import PlayerSubscriber
from service.live.stream_slots import StreamSlots
from service.play.game_model import TOKEN_CHANGES, Game
from service.play.games import GameService
from service.play.seat_state import view_message
from service.wire.schemas import EventOut, ViewMessage

log = logging.getLogger("danger.streams")

ENTRIES_PER_READ = 1_000  # feed entries per key and call
RETRY_SECONDS = 1.0  # after a failed read of the feeds
HELD_RETRY_SECONDS = 0.1  # after events its replicas had not confirmed yet
SETTLE_SECONDS = 0.05  # after a read that found appends, before the next
KEEP_ALIVE_SECONDS = 15.0
PAGE = 200  # events per read of a game's stream when a subscriber catches up (redacted inline)
LAST_EVENT = "seed_revealed"  # every game's log ends with it (after the final or abandoning event)

_EVENT_FIELDS = EventOut.__struct_fields__


@dataclass
class Frame(ServerSentEventMessage):
    """A Server-Sent Event encoded once, sent as it is to every subscriber that may read it."""

    frame: bytes = b""

    def encode(self) -> bytes:
        return self.frame


def encode(envelope: Envelope, lines: bool = False) -> bytes:
    """The event as one Server-Sent Event (its seq as id, its type as event name), or as
    one line of NDJSON."""
    out = msgspec.json.encode(EventOut(**{name: getattr(envelope, name) for name in _EVENT_FIELDS}))
    if lines:
        return out + b"\n"
    return ServerSentEventMessage(data=out.decode(), event=envelope.type, id=envelope.seq).encode()


def encode_view(message: ViewMessage, lines: bool) -> bytes:
    """A view message: the event `view` with the seq it shows as id, or one line of NDJSON."""
    out = msgspec.json.encode(message)
    if lines:
        return out + b"\n"
    return ServerSentEventMessage(data=out.decode(), event="view", id=message.seq).encode()


KEEP_ALIVE = Frame(frame=ServerSentEventMessage(comment="keep-alive", data=None).encode())
KEEP_ALIVE_LINE = Frame(frame=b"\n")  # NDJSON readers skip empty lines (as Lichess's do)


class Run:
    """Consecutive events (seq `first` on) as one reader may read them, encoded as one piece
    of the stream: a subscriber sends a command's events in one write."""

    __slots__ = ("ends", "first", "frames", "last", "message", "withdrawals", "withdrawn")

    def __init__(
        self,
        first: int,
        frames: list[bytes],
        ends: bool,
        withdrawals: tuple[int, ...] = (),
        withdrawn: bool = False,
    ) -> None:
        self.first, self.last = first, first + len(frames) - 1
        self.frames, self.ends = frames, ends  # ends: the stream ends after its last event
        self.withdrawals = withdrawals  # seqs of its events that withdraw the reader's token
        self.withdrawn = withdrawn  # it ends with the withdrawal of the reader's token
        self.message = Frame(frame=b"".join(frames))

    @classmethod
    def of(cls, envelopes: list[Envelope], viewer: Viewer, lines: bool = False) -> Run:
        return cls(
            envelopes[0].seq,
            [encode(e, lines) for e in envelopes],
            envelopes[-1].type == LAST_EVENT,
            withdrawals(envelopes, viewer),
        )

    def since(self, seq: int) -> Run:
        """The events after `seq` (first <= seq < last)."""
        return Run(
            seq + 1,
            self.frames[seq + 1 - self.first :],
            self.ends,
            tuple(w for w in self.withdrawals if w > seq),
        )

    def within_right(self, checked: int) -> Run:
        """The run as a stream whose token was checked at seq `checked` may send it: up to
        the first later event that withdraws the token, that one included, and then the end."""
        cut = next((w for w in self.withdrawals if w > checked), None)
        if cut is None:
            return self
        return Run(self.first, self.frames[: cut + 1 - self.first], True, withdrawn=True)


def withdrawals(envelopes: list[Envelope], viewer: Viewer) -> tuple[int, ...]:
    """The seqs of the events that withdraw the token of `viewer`, a seat (a spectator's
    stream holds no token to withdraw: an admin token stays)."""
    if not isinstance(viewer, int):
        return ()
    return tuple(
        e.seq for e in envelopes if e.type in TOKEN_CHANGES and e.data.get("seat") == viewer
    )


def log_ended(game: Game) -> bool:
    """True once `seed_revealed` is in the log: nothing follows it."""
    return game.table.seed is not None


class Batch:
    """A run of one game's events, read once and shared by all of its subscribers here.

    `views`: where the game rested after the batch (its fold was at the batch's last seq when
    the batch was made), the view messages of the viewers whose streams carry views, each
    encoded once per form. A batch after which the game moved on at once has none: the
    batch of the later events will."""

    __slots__ = ("envelopes", "events", "first", "game", "last", "shown", "views")

    def __init__(self, game: Game, envelopes: list[Envelope]) -> None:
        self.game = game
        self.envelopes = envelopes
        self.events = [game.codec.event(e) for e in envelopes]
        self.first, self.last = envelopes[0].seq, envelopes[-1].seq
        self.shown: dict[tuple[Viewer, bool], Run] = {}
        self.views: dict[tuple[Viewer, bool], Frame] = {}

    def run(self, viewer: Viewer, lines: bool = False) -> Run:
        """The batch as `viewer` may read it, made once per viewer and form."""
        shown = self.shown.get((viewer, lines))
        if shown is None:
            shown = self.shown[viewer, lines] = Run.of(
                [
                    self.game.readable(e, viewer, event)
                    for e, event in zip(self.envelopes, self.events, strict=True)
                ],
                viewer,
                lines,
            )
        return shown


class Subscriber:
    """One open stream: who reads which game (and the game's seq when its token was checked),
    and the batches waiting for it."""

    __slots__ = (
        "batches",
        "behind",
        "bound",
        "checked",
        "client",
        "game_id",
        "lines",
        "open",
        "ping",
        "quiet",
        "ready",
        "viewer",
        "views",
    )

    def __init__(
        self,
        game_id: str,
        viewer: Viewer,
        client: str,
        bound: int,
        checked: int,
        lines: bool = False,
        views: bool = False,
    ) -> None:
        self.game_id, self.viewer, self.client, self.bound = game_id, viewer, client, bound
        self.checked = checked
        self.lines = lines  # NDJSON, else Server-Sent Events
        self.views = views  # the reader's view follows each run after which the game rests
        self.batches: deque[Batch] = deque()
        self.behind = False  # batches were dropped: read on from the store
        self.quiet = True  # nothing sent since the last keep-alive tick
        self.ping = False  # send a keep-alive comment
        self.ready = asyncio.Event()
        self.open = True

    def offer(self, batch: Batch) -> None:
        if len(self.batches) >= self.bound:
            self.fall_behind()
            return
        self.batches.append(batch)
        self.ready.set()

    def fall_behind(self) -> None:
        self.batches.clear()
        self.behind = True
        self.ready.set()

    def tick(self) -> bool:
        """A keep-alive tick: a stream that sent nothing since the last one sends a comment.
        True if it was woken for it."""
        woken = self.quiet
        if woken:
            self.ping = True
            self.ready.set()
        self.quiet = True
        return woken

    async def wait(self) -> None:
        """Until there is something to send. No timer per stream: the hub's tick wakes
        quiet streams for their keep-alive."""
        if not (self.batches or self.behind or self.ping):
            self.ready.clear()
            await self.ready.wait()


class StreamHub:
    def __init__(
        self,
        service: GameService,
        slots: StreamSlots,
        queue_bound: int,
        writes_per_second: float,
        keep_alive: float = KEEP_ALIVE_SECONDS,
        foreground: Foreground | None = None,
        stand_aside: float = 0.0,
    ) -> None:
        self.service = service
        # The requests in flight here, and how long the fan-out waits for them at a time.
        self.foreground, self.stand_aside = foreground, stand_aside
        self.store = service.store
        self.slots, self.queue_bound = slots, queue_bound
        self.keep_alive = keep_alive
        self.writes_per_second = writes_per_second
        self._free_at = 0.0  # loop time from which the write budget allows the next publish
        self.channels: dict[str, set[Subscriber]] = {}
        self._bell: Bell | None = None
        self._own_bell: Bell | None = None
        self._heard: Listener | None = None
        self._tasks: list[asyncio.Task[None]] = []
        # Set while the hub reads the feeds: a stream reads its backlog only then, so that
        # what it does not read from the store, the hub announces. `_wake`: a stream came.
        self._following = asyncio.Event()
        self._following.set()  # from the tails `start` takes
        self._wake = asyncio.Event()

    @property
    def open(self) -> int:
        """Streams open here, whoever writes them."""
        return self.slots.open

    # Lifecycle ----------------------------------------------------------------------

    async def start(self, bell: Bell | None = None) -> None:
        """Follow the feeds, woken by `bell` (the process's; None: one of its own)."""
        feeds = [keys.feed(shard) for shard in keys.all_shards()]
        if bell is None:
            bell = self._own_bell = Bell(self.store.redis)
            await bell.start()
        self._bell = bell
        self._heard = bell.listener()
        bell.on_seat(self._seated)
        tails = await self._tails(feeds)
        self._tasks = [asyncio.create_task(self._follow(tails))]
        self._tasks.append(asyncio.create_task(self._tick()))

    async def stop(self) -> None:
        for task in self._tasks:
            task.cancel()
        for task in self._tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        if self._bell is not None and self._heard is not None:
            self._bell.forget(self._heard)
        if self._own_bell is not None:
            await self._own_bell.stop()

    # Subscribers --------------------------------------------------------------------

    def subscribe(
        self,
        game_id: str,
        viewer: Viewer,
        client: str,
        checked: int = 0,
        lines: bool = False,
        views: bool = False,
    ) -> Subscriber:
        """Register a stream before its backlog is read; refused beyond the caps. `checked`:
        the game's seq when the reader's token was checked (a withdrawal of the token after it
        ends the stream); `lines`: NDJSON; `views`: with the reader's view messages."""
        self.slots.take(client)
        subscriber = Subscriber(game_id, viewer, client, self.queue_bound, checked, lines, views)
        self.channels.setdefault(game_id, set()).add(subscriber)
        self._wake.set()
        return subscriber

    def release(self, subscriber: Subscriber) -> None:
        if not subscriber.open:
            return
        subscriber.open = False
        channel = self.channels.get(subscriber.game_id)
        if channel is not None:
            channel.discard(subscriber)
            if not channel:
                del self.channels[subscriber.game_id]
        self.slots.give(subscriber.client)

    # Players' streams (service/live/player_streams.py) -------------------------------------

    def subscribe_player(
        self,
        player: str,
        client: str,
        lines: bool,
        watch_bound: int,
        playing: Callable[[], Awaitable[list[str]]],
    ) -> PlayerSubscriber:
        """Register a player's stream; refused beyond the caps (it counts as one stream).
        `playing`: the player's open and running games, newest first, at most `watch_bound`."""
        self.slots.take(client)
        subscriber = PlayerSubscriber(player, client, lines, watch_bound, playing)
        self.channels.setdefault(subscriber.channel, set()).add(subscriber)  # type: ignore[arg-type]
        self._wake.set()
        return subscriber

    async def following(self) -> None:
        """Until the hub reads the feeds: what is appended from then on is announced."""
        await self._following.wait()

    def watch(self, subscriber: PlayerSubscriber, game_id: str) -> None:
        if subscriber.open:
            subscriber.watching.add(game_id)
            self.channels.setdefault(game_id, set()).add(subscriber)  # type: ignore[arg-type]

    def unwatch(self, subscriber: PlayerSubscriber, game_id: str) -> None:
        subscriber.watching.discard(game_id)
        channel = self.channels.get(game_id)
        if channel is not None:
            channel.discard(subscriber)
            if not channel:
                del self.channels[game_id]

    def release_player(self, subscriber: PlayerSubscriber) -> None:
        if not subscriber.open:
            return
        subscriber.open = False
        for game_id in [subscriber.channel, *subscriber.watching]:
            self.unwatch(subscriber, game_id)
        self.slots.give(subscriber.client)

    def player_notices(self, subscriber: PlayerSubscriber) -> AsyncGenerator[bytes, None]:
        messages = player_streams.notices(self, subscriber)
        weakref.finalize(messages, self.release_player, subscriber)
        return messages

    def _seated(self, message: str) -> None:
        """A `dg:seats` message: a player took a seat; their streams here watch the game."""
        player, _, game_id = message.partition(" ")
        for subscriber in list(self.channels.get(f"player:{player}", ())):
            subscriber.heard_seat(game_id)  # type: ignore[attr-defined]

    def events(self, subscriber: Subscriber, after: int) -> AsyncGenerator[Frame, None]:
        """The stream's messages; the subscriber is released when it ends, when the client
        goes away, or when the response is dropped before it began."""
        messages = self._events(subscriber, after)
        weakref.finalize(messages, self.release, subscriber)
        return messages

    async def close(self, subscriber: Subscriber, messages: AsyncGenerator[Frame, None]) -> None:
        """After the answer, however it ended. A client that leaves while a write waits
        cancels the write and leaves `messages` suspended at its yield, so its `finally`
        would run only when the garbage collector finds it: the place is freed here."""
        await messages.aclose()
        self.release(subscriber)

    async def _events(self, subscriber: Subscriber, after: int) -> AsyncGenerator[Frame, None]:
        try:
            last = after
            viewed = -1  # the seq of the last view sent
            await self._following.wait()  # the hub reads the feeds: what follows is announced
            subscriber.behind = True  # first the backlog, from the store
            while True:
                if subscriber.behind:
                    subscriber.behind = False  # set again if batches are dropped meanwhile
                    while True:
                        game, run, more = await self._page(subscriber, last)
                        if run is not None:
                            subscriber.quiet = False
                            last = run.last
                            view = None if run.withdrawn else self._view_now(subscriber, game, last)
                            if view is not None:
                                viewed = last
                                yield Frame(frame=run.message.frame + view)
                            else:
                                yield run.message
                            if run.ends:
                                return
                        if not more:
                            break
                    if subscriber.views and viewed < last:
                        # A backlog that ended where the game rests (or was empty): the view
                        # as it stands, so that a reader has it before anything happens.
                        view = self._view_now(subscriber, game, last)
                        if view is not None:
                            viewed = last
                            subscriber.quiet = False
                            yield Frame(frame=view)
                    if log_ended(game) and last >= game.seq:
                        return  # opened after the last event
                    continue
                if subscriber.batches:
                    runs, rested = self._take(subscriber, last)
                    frames = [run.message.frame for run in runs]
                    if runs:
                        last = runs[-1].last
                    if rested is not None and last > viewed:
                        viewed = last
                        frames.append(rested.frame)
                    if frames:
                        subscriber.quiet = False
                        yield (
                            Frame(frame=b"".join(frames))
                            if len(frames) > 1
                            else (runs[0].message if runs else Frame(frame=frames[0]))
                        )
                    if runs and runs[-1].ends:
                        return
                    continue
                if subscriber.ping:
                    subscriber.ping = False
                    yield KEEP_ALIVE_LINE if subscriber.lines else KEEP_ALIVE
                    continue
                await subscriber.wait()
        finally:
            self.release(subscriber)

    def _view_now(self, subscriber: Subscriber, game: Game, seq: int) -> bytes | None:
        """The reader's view message if its stream carries views and the game's fold is at
        `seq` now (not moved on: a later batch then brings the view)."""
        if not subscriber.views or game.seq != seq:
            return None
        message = view_message(self.service, game, subscriber.viewer)
        return encode_view(message, subscriber.lines)

    @staticmethod
    def _take(subscriber: Subscriber, last: int) -> tuple[list[Run], Frame | None]:
        """The queued events after seq `last`, as runs to send in one write (a reader that
        fell behind a few batches catches up in one), and the reader's view after the last
        of them if the game rested there; a gap marks it behind."""
        runs: list[Run] = []
        view: Frame | None = None
        while subscriber.batches:
            batch = subscriber.batches[0]
            if batch.first > last + 1:  # events the hub did not announce here
                if not runs:
                    subscriber.behind = True
                break
            subscriber.batches.popleft()
            if batch.last <= last:
                # Sent already, from the store: where it ends where the stream is, its view
                # is the one the reader still lacks (the backlog's fold had moved on).
                if batch.last == last and subscriber.views:
                    view = batch.views.get((subscriber.viewer, subscriber.lines))
                continue
            run = batch.run(subscriber.viewer, subscriber.lines)
            if run.first <= last:
                run = run.since(last)
            run = run.within_right(subscriber.checked)
            runs.append(run)
            last = run.last
            view = None
            if subscriber.views and run.last == batch.last and not run.withdrawn:
                view = batch.views.get((subscriber.viewer, subscriber.lines))
            if run.ends:
                break
        return runs, view

    async def _page(self, subscriber: Subscriber, after: int) -> tuple[Game, Run | None, bool]:
        """The game, up to PAGE stored events after `after` as the subscriber may read them,
        and whether there may be more."""
        game = await self.service.get(subscriber.game_id)
        envelopes = await self.store.read(subscriber.game_id, after=after, upto=after + PAGE)
        if envelopes and not await self.store.held([keys.shard_of(subscriber.game_id)]):
            # Not yet confirmed by its replicas: the page is read again shortly.
            await asyncio.sleep(HELD_RETRY_SECONDS)
            subscriber.behind = True
            return game, None, False
        shown = self.service.readable(game, envelopes, subscriber.viewer)
        if not shown:
            return game, None, len(envelopes) == PAGE
        run = Run.of(shown, subscriber.viewer, subscriber.lines).within_right(subscriber.checked)
        return game, run, len(envelopes) == PAGE

    async def _tick(self) -> None:
        """A stream quiet for a whole period sends a comment (so within about two periods
        of its last message), which keeps proxies from closing an idle line.

        The quiet streams are woken one per turn of the event loop, standing aside for the
        requests being answered as the fan-out does, for a tenth of a period at most in
        all: woken together, the hundreds of streams of games not yet begun would write
        their comments in one turn (about 40 µs each), and every command arriving then
        would wait for all of them."""
        loop = asyncio.get_running_loop()
        while True:
            began = loop.time()
            aside = Aside(self.foreground, self.stand_aside, self.keep_alive / 10)
            for subscriber in [s for channel in self.channels.values() for s in channel]:
                if subscriber.tick():
                    await aside.turn()
            if aside.waited:
                metrics.STOOD_ASIDE.inc(aside.waited)
            await asyncio.sleep(max(0.0, began + self.keep_alive - loop.time()))

    # The feeds ----------------------------------------------------------------------

    async def _tails(self, feeds: list[str]) -> dict[str, str]:
        """Each feed's last entry id now ('0-0' for a feed not yet written)."""
        replies = await in_slices(
            self.store.redis, feeds, lambda pipe, feed: pipe.xrevrange(feed, "+", "-", count=1)
        )
        return {
            feed: _text(rows[0][0]) if rows else "0-0"
            for feed, rows in zip(feeds, replies, strict=True)
        }

    async def _bell_wanted(self, wanted: bool) -> None:
        if self._bell is not None and self._heard is not None:
            await self._bell.want(self._heard, wanted)

    async def _follow(self, cursors: dict[str, str]) -> None:
        """Read the feeds that rang (every feed now and then) forever, and publish what
        concerns a subscriber here."""
        assert self._heard is not None
        heard = self._heard
        wanted: set[str] | None = None  # None: every feed
        while True:
            if not self.channels or not self._following.is_set():
                # No stream here (an API process hands its streams to its writer): the feeds'
                # entries would serve nobody. Read none until a stream comes, then take up
                # the feeds from their tails before it reads its backlog.
                if not self.channels:
                    self._following.clear()
                    self._wake.clear()
                    await self._bell_wanted(False)
                    await self._wake.wait()
                # Subscribed before the tails are read: whatever is appended after them rings.
                await self._bell_wanted(True)
                heard.take()  # what rang meanwhile is in the store, below the tails
                try:
                    cursors.update(await self._tails(list(cursors)))
                except asyncio.CancelledError:
                    raise
                except Exception:  # the streams wait: the tails are read again
                    log.exception("reading the feeds' tails failed; retrying")
                    await asyncio.sleep(RETRY_SECONDS)
                    continue
                self._following.set()
                wanted = None
            try:
                names = list(cursors) if wanted is None else [f for f in wanted if f in cursors]
                reply = await read_streams(
                    self.store.redis, {name: cursors[name] for name in names}, ENTRIES_PER_READ
                )
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("reading the feeds failed; retrying")
                wanted = None
                await asyncio.sleep(RETRY_SECONDS)
                continue
            announced: dict[str, tuple[int, int]] = {}
            full: set[str] = set()
            fed = {_text(name): _shard(_text(name)) for name, entries in reply if entries}
            held = await self.store.held(fed.values())
            for name, entries in reply:
                if not entries:
                    continue
                if fed[_text(name)] not in held:
                    # Not yet confirmed by its replicas: read again, not shown yet.
                    full.add(_text(name))
                    continue
                cursors[_text(name)] = _text(entries[-1][0])
                if len(entries) >= ENTRIES_PER_READ:
                    full.add(_text(name))
                for _, fields in entries:
                    game_id = _text(fields[b"game"])
                    if game_id not in self.channels:
                        continue
                    first, last = int(fields[b"first"]), int(fields[b"last"])
                    if game_id in announced:
                        first = min(first, announced[game_id][0])
                        last = max(last, announced[game_id][1])
                    announced[game_id] = (first, last)
            began = asyncio.get_running_loop().time()
            woken = await self._publish(announced, began) if announced else 0
            if reply:
                # Under load, let the next appends gather: a stream then writes several
                # commands' events at once (a write costs more than the bytes in it), and
                # a lone append after a quiet spell still goes out at once.
                await asyncio.sleep(self._pause(began, woken))
            rung = heard.take()
            if rung is None or rung or full:
                wanted = None if rung is None else rung | full
                continue
            wanted = await heard.wait(FALLBACK_SECONDS)

    def _free_after(self, began: float, woken: int) -> float:
        """When the write budget lets the next read of the feeds go, after one that began at
        `began` (loop time) and woke `woken` streams: the budget is the process's, shared
        by every group of feeds."""
        return max(self._free_at, began) + woken / self.writes_per_second

    def _pause(self, began: float, woken: int) -> float:
        """How long to gather before the next read (the fan-out's own time counts)."""
        self._free_at = self._free_after(began, woken)
        return max(SETTLE_SECONDS, self._free_at - asyncio.get_running_loop().time())

    async def _publish(self, announced: dict[str, tuple[int, int]], began: float) -> int:
        """Read each announced range once (one round trip for all of them) and offer it to
        the game's subscribers; on any failure they read on from the store themselves. The
        number of subscribers woken.

        The offers stand aside for the requests being answered here for no longer in all
        than the write budget would have the next read wait anyway: streams are then no
        later than the budget makes them, whatever the load."""
        try:
            stored = await self.store.read_many_raw(
                {game_id: (first - 1, last) for game_id, (first, last) in announced.items()}
            )
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("reading announced events failed")
            return sum(self._fall_behind(game_id) for game_id in announced)
        woken = 0
        waking = sum(len(self.channels.get(game_id, ())) for game_id in stored)
        allowance = self._free_after(began, waking) - asyncio.get_running_loop().time()
        aside = Aside(self.foreground, self.stand_aside, allowance)
        for game_id, raw in stored.items():
            if not raw or game_id not in self.channels:
                continue
            try:
                envelopes = [decode_envelope(r) for r in raw]
                # Redaction asks whether the game is over: fold it at least this far.
                game = await self.service.get(game_id, current=False)
                if game.seq < envelopes[-1].seq:
                    game = await self.service.get(game_id)
                batch = Batch(game, envelopes)
                if game.seq == batch.last:  # at rest: no await since the fold was taken
                    self._add_views(batch, self.channels.get(game_id, ()))
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("publishing events of game %s failed", game_id)
                woken += self._fall_behind(game_id)
                continue
            woken += await self._offer(game_id, batch, aside)
        if aside.waited:
            metrics.STOOD_ASIDE.inc(aside.waited)
        return woken

    def _add_views(self, batch: Batch, subscribers: Any) -> None:
        """The view messages of the batch's readers whose streams carry views: one view per
        viewer, encoded once per form."""
        made: dict[Viewer, ViewMessage] = {}
        for subscriber in subscribers:
            if not subscriber.views:
                continue
            form = (subscriber.viewer, subscriber.lines)
            if form in batch.views:
                continue
            message = made.get(subscriber.viewer)
            if message is None:
                message = made[subscriber.viewer] = view_message(
                    self.service, batch.game, subscriber.viewer
                )
            batch.views[form] = Frame(frame=encode_view(message, subscriber.lines))

    async def _offer(self, game_id: str, batch: Batch, aside: Aside) -> int:
        """Wake the game's subscribers one per turn of the event loop, standing aside while
        requests are answered: a request that arrives meanwhile runs between two of them,
        and its round trips to Valkey find the core free (service/live/foreground.py), so a game
        with hundreds of readers does not hold a command up for all of their writes."""
        subscribers = list(self.channels.get(game_id, ()))
        for subscriber in subscribers:
            subscriber.offer(batch)
            await aside.turn()
        return len(subscribers)

    def _fall_behind(self, game_id: str) -> int:
        subscribers = self.channels.get(game_id, ())
        for subscriber in subscribers:
            subscriber.fall_behind()
        return len(subscribers)


def _shard(feed: str) -> str:
    """The shard whose feed is `feed` (`dg:{shard}:feed`)."""
    return feed.split("{", 1)[1].split("}", 1)[0]


def _text(value: Any) -> str:
    return value.decode() if isinstance(value, bytes) else str(value)
