"""The asyncio client: `AsyncClient`, its `games`, and a `game` handle per game and token."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Mapping
from typing import Any, Literal, TypeVar, overload

import httpx

from danger_hall_client.models import (
    CommandResult,
    Created,
    EventPage,
    Health,
    Joined,
    Lobby,
    PlayerGames,
    PlayerNotice,
    Registered,
)

from . import calls
from .calls import Call
from .retrying import Retry
from .stream import Follower, Lines, Message, NoticeFollower
from .views import View

T = TypeVar("T")


class AsyncClient:
    """One connection pool to the service at `base_url` (without `/v1`). `token` is sent where
    no other is given (a game's or a player's token), `app_key` on creates, joins and player
    registrations, where the service counts a client by its key. `retry` bounds retries on
    429 and 503; `timeout` is each request's, in seconds."""

    def __init__(
        self,
        base_url: str,
        *,
        token: str | None = None,
        app_key: str | None = None,
        retry: Retry | None = None,
        timeout: float = 10.0,
        httpx_args: Mapping[str, Any] | None = None,
    ) -> None:
        self.base_url, self.token, self.app_key = base_url.rstrip("/"), token, app_key
        self.retry = retry or Retry()
        self.http = httpx.AsyncClient(
            base_url=self.base_url,
            timeout=timeout,
            transport=self.retry.transport(),
            **(httpx_args or {}),
        )
        self.games = AsyncGames(self)

    async def __aenter__(self) -> AsyncClient:
        return self

    async def __aexit__(self, *_: object) -> None:
        await self.aclose()

    async def aclose(self) -> None:
        await self.http.aclose()

    async def send(self, call: Call[T]) -> T:
        return call.read(await self.http.request(**call.request))

    def game(self, game_id: str, *, token: str | None = None) -> AsyncGame:
        """A game, read and played with `token` (a seat's or the admin's; the client's by
        default; none: as a spectator)."""
        return AsyncGame(self, game_id, token if token is not None else self.token)

    async def health(self) -> Health:
        return await self.send(calls.health_call())

    async def notices(self) -> AsyncIterator[PlayerNotice]:
        """The notices of the registered player whose token the client holds, across all
        their games (`game_joined`, `game_started`, `your_turn`, `game_ended`), first a
        `your_turn` for each game where it is their turn now. It never ends by itself;
        after a dropped connection it connects again, and `your_turn` may come twice."""
        state = NoticeFollower(self.token, self.retry.reconnects, self.retry.backoff)
        headers = {"Authorization": f"Bearer {self.token}"}
        while True:
            try:
                async with self.http.stream(**state.request(headers)) as response:
                    if response.status_code != 200:
                        await response.aread()
                        outcome = state.refused(response)
                        if not isinstance(outcome, float):
                            raise outcome
                        await asyncio.sleep(outcome)
                        continue
                    lines = Lines()
                    async for line in response.aiter_lines():
                        message = lines.feed(line)
                        if message is not None:
                            yield state.notice(message[1])
                # Ended by the service (a restart): connected again, as after a drop.
                await asyncio.sleep(state.failed(ConnectionError("the player's stream ended")))
            except httpx.TransportError as error:
                await asyncio.sleep(state.failed(error))

    async def register(self, name: str) -> Registered:
        """A registered player (`token`, shown once, is theirs: join with it)."""
        return await self.send(calls.register(self.app_key, name))


class AsyncGames:
    def __init__(self, client: AsyncClient) -> None:
        self._client = client

    async def create(
        self,
        game: str,
        *,
        seats: int,
        options: Mapping[str, Any] | None = None,
        visibility: Literal["public", "private"] | None = None,
        key: str | None = None,
    ) -> Created:
        """A new game of the kind `game` ("danger", "high-voltage", "danger-13",
        "danger-danger"). Its `admin_token` starts it: `client.game(id, token=...)`."""
        c = self._client
        return await c.send(calls.create(c.app_key, game, seats, options, visibility, key))

    @overload
    async def list(
        self,
        *,
        mine: Literal[False] = False,
        status: str | None = None,
        game: str | None = None,
        limit: int = 20,
        cursor: str | None = None,
    ) -> Lobby: ...

    @overload
    async def list(
        self,
        *,
        mine: Literal[True],
        status: str | None = None,
        game: str | None = None,
        limit: int = 20,
        cursor: str | None = None,
    ) -> PlayerGames: ...

    async def list(
        self,
        *,
        mine: bool = False,
        status: str | None = None,
        game: str | None = None,
        limit: int = 20,
        cursor: str | None = None,
    ) -> Lobby | PlayerGames:
        """The lobby (public games, newest first); `mine=True`: the games of the registered
        player whose token the client holds, private ones too. `cursor`: a page's `next_`."""
        c = self._client
        if mine:
            return await c.send(calls.player_games(c.token, game, limit, cursor))
        return await c.send(calls.lobby(status, game, limit, cursor))


class AsyncGame:
    """One game as one token sees it. Every write carries an Idempotency-Key of its own (or
    `key=`): sent again after a 503 or a lost answer, it is applied once."""

    def __init__(self, client: AsyncClient, game_id: str, token: str | None) -> None:
        self.client, self.id, self.token = client, game_id, token

    async def get(self) -> View:
        return await self.client.send(calls.get(self.token, self.id))

    async def join(
        self,
        name: str,
        *,
        team: str | None = None,
        invite: str | None = None,
        bot: Literal["random", "greedy"] | None = None,
        player_token: str | None = None,
        key: str | None = None,
    ) -> Joined:
        """Takes a seat; the answer's `token` is the seat's (`client.game(id, token=...)`).
        With a registered player's `player_token` the seat is theirs."""
        token = player_token or self.client.app_key
        call = calls.join(token, self.id, name, team, invite, bot, key)
        return await self.client.send(call)

    async def start(self, *, key: str | None = None) -> View:
        """Starts the game (the admin's token), once every seat is taken."""
        return await self.client.send(calls.start(self.token, self.id, key))

    async def abandon(self, *, key: str | None = None) -> View:
        return await self.client.send(calls.abandon(self.token, self.id, key))

    async def command(
        self, command: Any, *, if_match: int | None = None, key: str | None = None
    ) -> CommandResult:
        """Sends one of the view's `legal` commands (or its JSON as a mapping). `if_match`: a
        seq the game must still be at (else Conflict `stale_seq`)."""
        return await self.client.send(calls.command(self.token, self.id, command, if_match, key))

    async def events(self, *, after: int = 0, limit: int = 1000) -> EventPage:
        return await self.client.send(calls.events(self.token, self.id, after, limit))

    async def stream(self, *, view: bool = False, after: int = 0) -> AsyncIterator[Message]:
        """The game's events after seq `after` as they happen (EventOut), and with `view=True`
        the token's view of the game (View) whenever it comes to rest, until the game's last
        event (and the view after it). Reconnects with Last-Event-ID: no gap, no duplicate."""
        state = Follower(
            self.id, after, view, self.client.retry.reconnects, self.client.retry.backoff
        )
        headers = {"Authorization": f"Bearer {self.token}"} if self.token else {}
        while not state.over:
            try:
                async with self.client.http.stream(**state.request(headers)) as response:
                    if response.status_code != 200:
                        await response.aread()
                        outcome = state.refused(response)
                        if not isinstance(outcome, float):
                            raise outcome
                        await asyncio.sleep(outcome)
                        continue
                    lines = Lines()
                    async for line in response.aiter_lines():
                        message = lines.feed(line)
                        if message is not None and (out := state.message(*message)) is not None:
                            yield out
                            if state.over:
                                return
                    return  # the service ended it: the log is complete, or the token withdrawn
            except httpx.TransportError as error:
                await asyncio.sleep(state.failed(error))
