"""Plays a whole game of any of the four kinds against a running Danger Hall, on the Python SDK.

Each seat is an asyncio task with its own token: it reads the game as its seat sees it and
sends one of the commands of its `legal` list, at random. A spectator follows the game's
live stream, wakes the seats when something happened, and prints each round's scores.

    python examples/play.py danger                      # the API at $DANGER_API
    python examples/play.py danger-danger --api http://127.0.0.1:8000

The API's address is DANGER_API (http://127.0.0.1:8000 unset: `make run`), or --api.
Exit status 0 when the game finished, 1 on any failure (the API unreachable first of all).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import sys
import time
from collections.abc import Callable
from typing import Any, TypeVar

import httpx
from danger_hall_client import AuthenticatedClient, Client
from danger_hall_client.api.games import create_game, get_game, join_game, send_command, start_game
from danger_hall_client.api.service import health
from danger_hall_client.models import (
    CreateDanger13Game,
    CreateDangerDangerGame,
    CreateDangerGame,
    CreateHighVoltageGame,
    Danger13RoundScored,
    DangerDangerOptions,
    DangerDangerRoundScored,
    DangerRoundScored,
    EventOut,
    GameOut,
    HighVoltageRoundScored,
    JoinGame,
    Problem,
)
from danger_hall_client.types import Response
from danger_hall_extras import Retrying, StreamError, afollow, new_key

DEFAULT_API = "http://127.0.0.1:8000"  # `make run`: danger serve's default host and port
KINDS = ("danger", "high-voltage", "danger-13", "danger-danger")
SEATS = {"danger": 3, "high-voltage": 3, "danger-13": 3, "danger-danger": 4}
NAMES = ("Anton", "Bert", "Chris", "Dora", "Emil", "Frida", "Gero", "Hanna")
OVER = ("finished", "abandoned")

T = TypeVar("T")
NewGame = CreateDangerGame | CreateHighVoltageGame | CreateDanger13Game | CreateDangerDangerGame


class Failed(Exception):
    """What went wrong, said to the user as it is."""


class News:
    """The last seq seen (on the stream, or in a command's answer): a seat with nothing to do
    waits for a later one."""

    def __init__(self) -> None:
        self.seq = 0
        self._changed = asyncio.Condition()

    async def saw(self, seq: int) -> None:
        async with self._changed:
            self.seq = max(self.seq, seq)
            self._changed.notify_all()

    async def after(self, seq: int, timeout: float) -> None:
        """Returns once an event after `seq` is seen, or after `timeout` seconds at most (the
        stream may lag behind what a seat reads)."""
        async with self._changed:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._changed.wait_for(lambda: self.seq > seq), timeout)


def answer(response: Response[T | Problem], doing: str) -> T:
    """The parsed answer, or Failed with the server's problem details."""
    parsed = response.parsed
    if 200 <= response.status_code < 300 and parsed is not None and not isinstance(parsed, Problem):
        return parsed
    if isinstance(parsed, Problem):
        raise Failed(f"{doing}: {response.status_code} {parsed.code}: {parsed.detail}")
    raise Failed(f"{doing}: {response.status_code} {response.content[:200]!r}")


def new_game(kind: str, seats: int, round_seconds: float) -> NewGame:
    if kind == "danger":
        return CreateDangerGame(game="danger", seats=seats)
    if kind == "high-voltage":
        return CreateHighVoltageGame(game="high-voltage", seats=seats)
    if kind == "danger-13":
        return CreateDanger13Game(game="danger-13", seats=seats)
    options = DangerDangerOptions(round_seconds=round_seconds)
    return CreateDangerDangerGame(game="danger-danger", seats=seats, options=options)


def names(seats: list[str], numbers: list[int]) -> str:
    return ", ".join(seats[n] for n in numbers) or "nobody"


def by_seat(seats: list[str], values: list[int]) -> str:
    return ", ".join(f"{seats[n]} {v}" for n, v in enumerate(values))


def round_scores(kind: str, seats: list[str], data: dict[str, Any]) -> str:
    """A round_scored event's scores, read with the SDK's model of the kind's event (the
    model of the views' `last_round`, whose `type` an event carries in its envelope)."""
    data = {"type": "round_scored", **data}
    if kind == "danger":
        d = DangerRoundScored.from_dict(data)
        return f"round {d.round_}: {by_seat(seats, d.points)}; totals {by_seat(seats, d.totals)}"
    if kind == "high-voltage":
        h = HighVoltageRoundScored.from_dict(data)
        teams = f"; teams {h.team_totals}" if isinstance(h.team_totals, list) else ""
        totals = by_seat(seats, h.totals)
        return f"round {h.round_}: {by_seat(seats, h.points)}; totals {totals}{teams}"
    if kind == "danger-13":
        t = Danger13RoundScored.from_dict(data)
        out = f"{seats[t.seat]} reached the limit" if isinstance(t.seat, int) else "no card left"
        return f"round {t.round_}: {out}; cards won {by_seat(seats, t.won_counts)}"
    r = DangerDangerRoundScored.from_dict(data)
    winner = f"{r.winner} wins" if isinstance(r.winner, str) else "nobody wins (played again)"
    tokens = ", ".join(f"{team} {n}" for team, n in r.tokens.additional_properties.items())
    return f"round {r.round_} ({r.reason}): {winner}; tokens {tokens}"


def result(seats: list[str], data: dict[str, Any]) -> str:
    """A game_ended event: who won, and by what."""
    if "tokens" in data:
        return f"{data['winner']} wins with tokens {data['tokens']}"
    scores = f"; totals {by_seat(seats, data['totals'])}" if "totals" in data else ""
    if "plus_signs" in data:
        scores = f"; plus signs {by_seat(seats, data['plus_signs'])}"
    return f"winners {names(seats, data['winners'])}{scores}"


async def watch(
    spectator: Client,
    game_id: str,
    kind: str,
    seats: list[str],
    news: News,
    say: Callable[[str], None],
) -> None:
    """The game's live events: wakes the seats, prints rounds and the result."""
    event: EventOut
    async for event in afollow(spectator, game_id):
        await news.saw(event.seq)
        data = event.data.to_dict()
        if event.type_ == "round_started":
            say(f"round {data.get('round', '?')} starts")
        elif event.type_ == "round_scored":
            say(round_scores(kind, seats, data))
        elif event.type_ == "game_ended":
            say(f"game over: {result(seats, data)}")


async def play_seat(
    seat: AuthenticatedClient,
    name: str,
    game_id: str,
    news: News,
    rng: random.Random,
    say: Callable[[str], None],
) -> int:
    """One seat's moves until the game is over; how many were taken."""
    moves = 0
    while True:
        game: GameOut = answer(
            await get_game.asyncio_detailed(game_id, client=seat), f"{name} reads the game"
        )
        if game.status in OVER:
            return moves
        if not game.legal:
            await news.after(game.seq, timeout=1.0)
            continue
        command = rng.choice(game.legal)
        sent = await send_command.asyncio_detailed(
            game_id, client=seat, body=command, idempotency_key=new_key()
        )
        if sent.status_code == 409:  # another seat moved first, or a timer rang: read again
            await news.after(game.seq, timeout=0.05)
            continue
        done = answer(sent, f"{name} sends {command.to_dict()}")
        await news.saw(done.seq)  # the seats are all here: the next needn't wait for the stream
        moves += 1
        say(f"[{done.seq}] {name}: {json.dumps(command.to_dict())}")


async def play(args: argparse.Namespace, say: Callable[[str], None]) -> None:
    api = args.api.rstrip("/")
    options: dict[str, Any] = {
        "base_url": api,
        "timeout": httpx.Timeout(10.0),
        "httpx_args": {"transport": Retrying()},
    }
    async with Client(base_url=api, timeout=httpx.Timeout(5.0)) as probe:
        try:
            ok = await health.asyncio_detailed(client=probe)
        except httpx.TransportError as error:
            raise Failed(
                f"cannot reach the Danger Hall API at {api} ({type(error).__name__}: {error}); "
                "start it with `make run`, or point DANGER_API or --api at it"
            ) from error
        if ok.status_code not in (200, 503):
            raise Failed(f"{api} answers /health with {ok.status_code}: is it a Danger Hall API?")

    seats_count = args.seats or SEATS[args.kind]
    async with Client(**options) as anyone:
        created = answer(
            await create_game.asyncio_detailed(
                client=anyone,
                body=new_game(args.kind, seats_count, args.round_seconds),
                idempotency_key=new_key(),
            ),
            "create the game",
        )
        say(f"game {created.id}: {args.kind}, {seats_count} seats")
        tokens: list[str] = []
        seats = list(NAMES[:seats_count])
        for name in seats:
            joined = answer(
                await join_game.asyncio_detailed(
                    created.id, client=anyone, body=JoinGame(name=name), idempotency_key=new_key()
                ),
                f"{name} joins",
            )
            if not isinstance(joined.token, str):
                raise Failed(f"{name} joined seat {joined.seat} without a token")
            tokens.append(joined.token)
            say(f"{name} takes seat {joined.seat}")
    async with AuthenticatedClient(token=created.admin_token, **options) as admin:
        answer(
            await start_game.asyncio_detailed(created.id, client=admin, idempotency_key=new_key()),
            "start the game",
        )
    say("started")

    rng = random.Random(args.seed)
    news = News()
    clients = [AuthenticatedClient(token=token, **options) for token in tokens]
    async with contextlib.AsyncExitStack() as stack:
        spectator = await stack.enter_async_context(Client(**options))
        for client in clients:
            await stack.enter_async_context(client)
        try:
            async with asyncio.TaskGroup() as group:
                group.create_task(watch(spectator, created.id, args.kind, seats, news, say))
                moves = [
                    group.create_task(
                        play_seat(client, name, created.id, news, random.Random(rng.random()), say)
                    )
                    for name, client in zip(seats, clients, strict=True)
                ]
        except BaseExceptionGroup as errors:
            raise first(errors) from None
        final = answer(await get_game.asyncio_detailed(created.id, client=spectator), "read")
    if final.status != "finished":
        raise Failed(f"the game ended {final.status}")
    counts = (f"{name} {task.result()}" for name, task in zip(seats, moves, strict=True))
    say(f"moves: {', '.join(counts)}")


def first(error: BaseException) -> BaseException:
    """The first error of a task group's, the one the others were cancelled for."""
    while isinstance(error, BaseExceptionGroup):
        error = error.exceptions[0]
    return error


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("kind", choices=KINDS, help="the game to play")
    parser.add_argument(
        "--api",
        default=os.environ.get("DANGER_API") or DEFAULT_API,
        help=f"the API's base URL (default: $DANGER_API, else {DEFAULT_API})",
    )
    parser.add_argument("--seats", type=int, help="how many seats (default: 3; 4 in danger-danger)")
    parser.add_argument("--seed", type=int, help="seeds the seats' random choices")
    parser.add_argument(
        "--round-seconds",
        type=float,
        default=5.0,
        help="danger-danger's hidden round timer (the game's default is 60)",
    )
    parser.add_argument(
        "--timeout", type=float, default=300.0, help="give up after this many seconds"
    )
    args = parser.parse_args(argv)
    began = time.monotonic()

    def say(line: str) -> None:
        print(f"{time.monotonic() - began:7.2f}s  {line}", flush=True)

    try:
        asyncio.run(asyncio.wait_for(play(args, say), args.timeout))
    except (Failed, StreamError) as error:
        print(f"play.py: {error}", file=sys.stderr)
        return 1
    except TimeoutError:
        print(f"play.py: the game did not end within {args.timeout:g} s", file=sys.stderr)
        return 1
    except httpx.HTTPError as error:
        print(f"play.py: {args.api}: {type(error).__name__}: {error}", file=sys.stderr)
        return 1
    say("done")
    return 0


if __name__ == "__main__":
    sys.exit(main())
