"""Plays a whole game of any of the four kinds against a running Danger Hall, on the Python SDK.

Each seat is an asyncio task with its own token that follows the game's stream with its view
(`game.stream(view=True)`): whenever the game comes to rest the stream brings the seat's view,
and the seat sends one of the commands of its `legal` list, at random. Nobody polls. A
spectator follows the same stream without views and prints each round's scores.

    python examples/play.py danger                      # the API at $DANGER_API
    python examples/play.py danger-danger --api http://127.0.0.1:8000

The API's address is DANGER_API (http://127.0.0.1:8000 unset: `make run`), or --api.
Exit status 0 when the game finished, 1 on any failure (the API unreachable first of all).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import sys
import time
from collections.abc import Callable
from typing import Any

import httpx
from danger_hall import AsyncClient, AsyncGame, Conflict, DangerError, EventOut, Retry, View

DEFAULT_API = "http://127.0.0.1:8000"  # `make run`: danger serve's default host and port
KINDS = ("danger", "high-voltage", "danger-13", "danger-danger")
SEATS = {"danger": 3, "high-voltage": 3, "danger-13": 3, "danger-danger": 4}
NAMES = ("Anton", "Bert", "Chris", "Dora", "Emil", "Frida", "Gero", "Hanna")

Say = Callable[[str], None]


class Failed(Exception):
    """What went wrong, said to the user as it is."""


def names(seats: list[str], numbers: list[int]) -> str:
    return ", ".join(seats[n] for n in numbers) or "nobody"


def by_seat(seats: list[str], values: list[int]) -> str:
    return ", ".join(f"{seats[n]} {v}" for n, v in enumerate(values))


def round_scores(seats: list[str], data: dict[str, Any]) -> str:
    """A round_scored event's scores, as each kind of game counts them."""
    n = data["round"]
    if "tokens" in data:  # Danger Danger: a team wins the round's token
        winner = f"{data['winner']} wins" if data.get("winner") else "nobody wins (played again)"
        tokens = ", ".join(f"{team} {count}" for team, count in data["tokens"].items())
        return f"round {n} ({data['reason']}): {winner}; tokens {tokens}"
    if "won_counts" in data:  # Danger 13: cards won, until a seat reaches the limit
        seat = data.get("seat")
        out = f"{seats[seat]} reached the limit" if isinstance(seat, int) else "no card left"
        return f"round {n}: {out}; cards won {by_seat(seats, data['won_counts'])}"
    teams = data.get("team_totals")
    teams_text = f"; teams {teams}" if isinstance(teams, list) else ""
    points, totals = by_seat(seats, data["points"]), by_seat(seats, data["totals"])
    return f"round {n}: {points}; totals {totals}{teams_text}"


def result(seats: list[str], data: dict[str, Any]) -> str:
    """A game_ended event: who won, and by what."""
    if "tokens" in data:
        return f"{data['winner']} wins with tokens {data['tokens']}"
    scores = f"; totals {by_seat(seats, data['totals'])}" if "totals" in data else ""
    if "plus_signs" in data:
        scores = f"; plus signs {by_seat(seats, data['plus_signs'])}"
    return f"winners {names(seats, data['winners'])}{scores}"


async def watch(game: AsyncGame, seats: list[str], say: Say) -> None:
    """The game's live events, as a spectator: prints rounds and the result."""
    async for event in game.stream():
        if not isinstance(event, EventOut):
            continue
        data = event.data.to_dict()
        if event.type_ == "round_started":
            say(f"round {data.get('round', '?')} starts")
        elif event.type_ == "round_scored":
            say(round_scores(seats, data))
        elif event.type_ == "game_ended":
            say(f"game over: {result(seats, data)}")


async def play_seat(game: AsyncGame, name: str, rng: random.Random, say: Say) -> int:
    """One seat's moves, each on the view its stream brings, until the game is over; how many
    were taken."""
    moves = 0
    async for message in game.stream(view=True):
        if not isinstance(message, View):
            continue
        if message.over:
            break
        if not message.legal:
            continue  # another seat's move, or a timer's: the next view will say
        command = rng.choice(message.legal)
        try:
            done = await game.command(command)
        except Conflict:
            continue  # a timer rang first: the view after it is on its way
        moves += 1
        say(f"[{done.seq}] {name}: {json.dumps(command.to_dict())}")
    return moves


async def reachable(api: str) -> None:
    async with AsyncClient(api, timeout=5.0, retry=Retry(attempts=1)) as probe:
        try:
            await probe.health()
        except httpx.TransportError as error:
            raise Failed(
                f"cannot reach the Danger Hall API at {api} ({type(error).__name__}: {error}); "
                "start it with `make run`, or point DANGER_API or --api at it"
            ) from error
        except DangerError as error:
            if error.status != 503:  # a 503 health: up, but its store is away for now
                raise Failed(
                    f"{api} answers /health with {error}: is it a Danger Hall API?"
                ) from None


async def play(args: argparse.Namespace, say: Say) -> None:
    api = args.api.rstrip("/")
    await reachable(api)
    count = args.seats or SEATS[args.kind]
    seats = list(NAMES[:count])
    rng = random.Random(args.seed)
    async with AsyncClient(api) as client:
        options = {"round_seconds": args.round_seconds} if args.kind == "danger-danger" else None
        created = await client.games.create(args.kind, seats=count, options=options)
        say(f"game {created.id}: {args.kind}, {count} seats")
        tokens: list[str] = []
        for name in seats:
            joined = await client.game(created.id).join(name)
            if joined.token is None:
                raise Failed(f"{name} joined seat {joined.seat} without a token")
            tokens.append(joined.token)
            say(f"{name} takes seat {joined.seat}")
        await client.game(created.id, token=created.admin_token).start()
        say("started")
        try:
            async with asyncio.TaskGroup() as group:
                group.create_task(watch(client.game(created.id), seats, say))
                moves = [
                    group.create_task(
                        play_seat(
                            client.game(created.id, token=token),
                            name,
                            random.Random(rng.random()),
                            say,
                        )
                    )
                    for name, token in zip(seats, tokens, strict=True)
                ]
        except BaseExceptionGroup as errors:
            raise first(errors) from None
        final = await client.game(created.id).get()
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
    except (Failed, DangerError) as error:
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
