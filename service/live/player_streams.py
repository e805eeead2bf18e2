"""A registered player's stream across all of their games (GET /v1/players/{id}/stream), as
Lichess's /api/stream/event is: the moments a player acts on — a seat taken, a game started,
their turn, a game over, a seat lost — without a stream per game.

A player's stream sits in the hub (service/live/streams.py) beside the games' streams: it is
in the channel of each game it watches, so the hub's one reader of the feeds announces that
game's appends to it as to any stream. It does not follow events one by one: an announced
batch marks the game to look at again, and the stream compares the game's fold as it is then
with what it last told (status, the player's seat, whether the player may act), and says
what changed. So a notice is never about a moment that has already passed (a turn that came
and went in one batch is not announced), and a reader that falls behind loses nothing but
those moments.

Which games: at the start, the player's open and running games as the player_games read
model lists them (the newest `DANGER_PLAYER_STREAM_GAMES`), each told as it stands
(`game_joined` or `game_started`, then `your_turn` where it is). After that, a seat taken
by the player is published on `dg:seats` by the API process that seated them
(service/play/players.py `announce_seat`) and heard through the process's bell; and every
keep-alive period the read model is read again, so a lost message delays a new game's
notices, never loses them.
"""

from __future__ import annotations

import asyncio
from collections import deque
from collections.abc import AsyncGenerator, Awaitable, Callable
from dataclasses import dataclass
from typing import Any

import msgspec
from litestar.response.sse import ServerSentEventMessage

from service.infra.errors import ApiError
from service.play.game_model import Game
from service.play.games import GameService
from service.wire.schemas import NoticeType, PlayerNotice

OVER = frozenset({"finished", "abandoned"})
QUEUE_BOUND = 256  # notices waiting for a slow reader before it is marked behind


@dataclass
class Told:
    """What a player's stream last said of one game."""

    seat: int
    status: str
    acting: bool


class PlayerSubscriber:
    """One player's stream: the games it watches, what it told of each, and what waits to be
    sent. It stands in each watched game's channel of the hub, as a game's stream does."""

    views = False  # the hub's view messages are for the games' own streams

    def __init__(
        self,
        player: str,
        client: str,
        lines: bool,
        watch_bound: int,
        playing: Callable[[], Awaitable[list[str]]],
    ) -> None:
        self.player, self.client, self.lines = player, client, lines
        self.playing = playing  # the player's open and running games, newest first
        self.channel = f"player:{player}"  # keeps the hub reading the feeds while it is open
        self.watch_bound = watch_bound
        self.told: dict[str, Told] = {}
        self.watching: set[str] = set()  # the games in whose channels it stands
        self.dirty: set[str] = set()  # games to look at again (their folds are current)
        self.stale: set[str] = set()  # games to read from the store first
        self.seated: deque[str] = deque()  # games the player was seated in, heard of
        self.out: deque[bytes] = deque()
        self.quiet = True
        self.ping = False
        self.open = True
        self.ready = asyncio.Event()

    # What the hub calls, as on a game's stream --------------------------------------

    def offer(self, batch: Any) -> None:
        self.dirty.add(batch.game.id)
        self.ready.set()

    def fall_behind(self) -> None:
        self.stale.update(self.told)
        self.ready.set()

    def tick(self) -> bool:
        woken = self.quiet
        if woken:
            self.ping = True
            self.ready.set()
        self.quiet = True
        return woken

    def heard_seat(self, game_id: str) -> None:
        if game_id not in self.watching:
            self.seated.append(game_id)
            self.ready.set()

    # Its own --------------------------------------------------------------------------

    def notice(self, kind: NoticeType, game: Game, seat: int) -> None:
        body = msgspec.json.encode(
            PlayerNotice(kind, game.id, game.rules.name, seat, game.table.status, game.seq)
        )
        if self.lines:
            frame = body + b"\n"
        else:
            frame = ServerSentEventMessage(data=body.decode(), event=kind).encode()
        self.out.append(frame)
        if len(self.out) > QUEUE_BOUND:
            self.out.popleft()  # the oldest moments go first: the latest state still shows

    def look(self, game: Game, service: GameService) -> bool:
        """Compare the game's fold with what was told of it; say what changed. False once
        the stream has nothing more to say of it (over, or the seat no longer the player's)."""
        seat = seat_of(game, self.player)
        before = self.told.get(game.id)
        status = game.table.status
        if seat is None:
            if before is not None:
                self.notice("game_left", game, before.seat)
            return False
        acting = status == "active" and bool(service.legal(game, seat))
        if before is None and status in OVER:
            return False  # over before the stream heard of it: not a moment to act on
        if before is None:
            self.notice("game_started" if status == "active" else "game_joined", game, seat)
        elif before.status != status and status == "active":
            self.notice("game_started", game, seat)
        if acting and not (before is not None and before.acting):
            self.notice("your_turn", game, seat)
        if status in OVER:
            self.notice("game_ended", game, seat)
            return False
        self.told[game.id] = Told(seat, status, acting)
        return True


def seat_of(game: Game, player: str) -> int | None:
    for seated in game.table.players:
        if seated.player == player:
            return int(seated.seat)
    return None


KEEP_ALIVE = ServerSentEventMessage(comment="keep-alive", data=None).encode()


async def notices(hub: Any, subscriber: PlayerSubscriber) -> AsyncGenerator[bytes, None]:
    """The stream's body: what is now, then what changes, until the client leaves."""
    service: GameService = hub.service
    try:
        await hub.following()
        for game_id in reversed(await subscriber.playing()):
            subscriber.heard_seat(game_id)
        while True:
            while subscriber.seated:
                game_id = subscriber.seated.popleft()
                watching = subscriber.watching
                if game_id not in watching and len(watching) < subscriber.watch_bound:
                    hub.watch(subscriber, game_id)
                    subscriber.stale.add(game_id)
            for game_id in sorted(subscriber.dirty | subscriber.stale):
                current = game_id in subscriber.stale
                subscriber.dirty.discard(game_id)
                subscriber.stale.discard(game_id)
                try:
                    game = await service.get(game_id, current=current)
                except ApiError:  # a game gone from the store (expired): nothing to tell
                    hub.unwatch(subscriber, game_id)
                    subscriber.told.pop(game_id, None)
                    continue
                if not subscriber.look(game, service):
                    hub.unwatch(subscriber, game_id)
                    subscriber.told.pop(game_id, None)
            if subscriber.out:
                subscriber.quiet = False
                frames = b"".join(subscriber.out)
                subscriber.out.clear()
                yield frames
                continue
            if subscriber.ping:
                subscriber.ping = False
                for game_id in await subscriber.playing():
                    subscriber.heard_seat(game_id)
                if not subscriber.seated:
                    yield b"\n" if subscriber.lines else KEEP_ALIVE
                continue
            if not (subscriber.seated or subscriber.dirty or subscriber.stale):
                subscriber.ready.clear()
                await subscriber.ready.wait()
    finally:
        hub.release_player(subscriber)
