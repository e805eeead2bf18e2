"""`danger simulate`: self-play in this process, no Redis and no HTTP, with a summary.

Game i of a run is seeded from (`--seed`, i), so the same command prints the same games.
A game that breaks an invariant or stalls (comes back to a position, passes the step limit,
or is abandoned) is a FAILURE: the command names the game and the event, and exits 1.
"""

from __future__ import annotations

import argparse
import hashlib
import random
import statistics
import sys
import time
from collections import defaultdict
from dataclasses import dataclass

import msgspec

from domain.kernel.bots import BOT_NAMES
from domain.registry import GAMES
from domain.simulation import InvariantBroken, Played, Stalled, play


class Summary(msgspec.Struct):
    game: str
    seats: int
    games: int
    seed: str
    bots: list[str]
    rotate: bool
    elapsed_s: float
    games_per_s: float
    events_per_s: float
    mean_events: float
    mean_commands: float
    mean_simulated_s: float
    scores: dict[str, float]
    """Every seat's final score: min, p10, p50, p90, max, mean."""
    scores_by_seat: list[float]
    """Mean final score of each seat."""
    wins_by_seat: list[float]
    wins_by_bot: dict[str, float]
    """Share of that bot's seats that won (a shared win counts for each winner)."""
    fair_share: float
    """What a seat wins when every seat plays alike: 1 / seats, or 1 / 2 with teams."""


@dataclass
class Run:
    game: str
    seats: int
    games: int
    bots: list[str]
    seed: str = "0"
    rotate: bool = False
    think: float = 1.0


def greedy_against_random(game: str, seats: int) -> list[str]:
    """One greedy seat, the rest random; in a team game a greedy team (every other seat,
    as the teams alternate by default) against a random one."""
    if GAMES[game].teams:
        return ["greedy", "random"] * (seats // 2)
    return ["greedy"]


def seating(run: Run, index: int) -> list[str]:
    """The bot of each seat in game `index`: `--bots` in order, random for the rest."""
    bots = (run.bots + ["random"] * run.seats)[: run.seats]
    if run.rotate:
        shift = index % run.seats
        bots = bots[-shift:] + bots[:-shift] if shift else bots
    return bots


def simulate(run: Run) -> tuple[Summary, list[Played]]:
    rules = GAMES[run.game]
    played: list[Played] = []
    began = time.perf_counter()
    for index in range(run.games):
        seed = hashlib.sha256(f"{run.seed}:{index}".encode()).digest()
        dice = random.Random(f"{run.seed}:{index}:dice")
        try:
            played.append(play(rules, seating(run, index), seed, dice, think=run.think))
        except InvariantBroken as failure:
            failure.add_note(f"game {index} of the run, --seed {run.seed!r}")
            raise
    elapsed = time.perf_counter() - began
    return summarise(run, played, elapsed), played


def summarise(run: Run, played: list[Played], elapsed: float) -> Summary:
    scores = sorted(s for p in played for s in p.scores)
    deciles = statistics.quantiles(scores, n=10) if len(scores) > 1 else scores * 9
    by_bot: dict[str, list[bool]] = defaultdict(list)
    for p in played:
        for bot, won in zip(p.bots, p.won, strict=True):
            by_bot[bot].append(won)
    teams = GAMES[run.game].teams
    n = len(played)
    return Summary(
        game=run.game,
        seats=run.seats,
        games=n,
        seed=run.seed,
        bots=seating(run, 0),
        rotate=run.rotate,
        elapsed_s=round(elapsed, 3),
        games_per_s=round(n / elapsed, 1),
        events_per_s=round(sum(p.events for p in played) / elapsed),
        mean_events=round(statistics.fmean(p.events for p in played), 1),
        mean_commands=round(statistics.fmean(p.commands for p in played), 1),
        mean_simulated_s=round(statistics.fmean(p.seconds for p in played), 1),
        scores={
            "min": scores[0],
            "p10": deciles[0],
            "p50": deciles[4],
            "p90": deciles[8],
            "max": scores[-1],
            "mean": round(statistics.fmean(scores), 2),
        },
        scores_by_seat=[
            round(statistics.fmean(p.scores[s] for p in played), 2) for s in range(run.seats)
        ],
        wins_by_seat=[round(sum(p.won[s] for p in played) / n, 3) for s in range(run.seats)],
        wins_by_bot={bot: round(sum(w) / len(w), 3) for bot, w in sorted(by_bot.items())},
        fair_share=round(1 / (len(teams) if teams else run.seats), 3),
    )


def render(summary: Summary) -> str:
    s = summary
    lines = [
        f"{s.game}, {s.seats} seats, {s.games} games, seed {s.seed!r}, "
        f"bots {','.join(s.bots)}{' (rotated each game)' if s.rotate else ''}",
        f"  speed        {s.games_per_s} games/s, {s.events_per_s:,} events/s "
        f"({s.elapsed_s} s, every invariant checked after every event)",
        f"  game length  {s.mean_events} events, {s.mean_commands} commands, "
        f"{s.mean_simulated_s} simulated s (mean)",
        "  scores       " + ", ".join(f"{k} {v}" for k, v in s.scores.items()),
        "  mean score   " + ", ".join(f"seat {i}: {v}" for i, v in enumerate(s.scores_by_seat)),
        "  wins by seat " + ", ".join(f"seat {i}: {v:.1%}" for i, v in enumerate(s.wins_by_seat)),
        "  wins by bot  "
        + ", ".join(f"{bot}: {v:.1%}" for bot, v in s.wins_by_bot.items())
        + f" (fair share {s.fair_share:.1%})",
    ]
    return "\n".join(lines)


def main(args: argparse.Namespace) -> int:
    rules = GAMES.get(args.game)
    if rules is None:
        print(f"danger simulate: no game {args.game!r}; one of {', '.join(GAMES)}", file=sys.stderr)
        return 2
    seats = args.seats or rules.min_seats
    if not rules.min_seats <= seats <= rules.max_seats:
        print(
            f"danger simulate: {rules.name} seats {rules.min_seats}-{rules.max_seats}",
            file=sys.stderr,
        )
        return 2
    if args.games < 1:
        print("danger simulate: --games must be at least 1", file=sys.stderr)
        return 2
    bots = [b.strip() for b in args.bots.split(",") if b.strip()] if args.bots else []
    if len(bots) > seats:
        print(f"danger simulate: {len(bots)} bots for {seats} seats", file=sys.stderr)
        return 2
    if unknown := [b for b in bots if b not in BOT_NAMES]:
        print(f"danger simulate: unknown bots {unknown}; use {BOT_NAMES}", file=sys.stderr)
        return 2
    run = Run(rules.name, seats, args.games, bots, args.seed, args.rotate, args.think)
    try:
        summary, _ = simulate(run)
    except InvariantBroken as failure:
        what = "stalled" if isinstance(failure, Stalled) else "invariant broken"
        where = "; ".join(getattr(failure, "__notes__", []))
        print(f"danger simulate: FAILURE, {what}: {failure} ({where})", file=sys.stderr)
        return 1
    print(msgspec.json.encode(summary).decode() if args.json else render(summary))
    return 0


def add_parser(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser("simulate", help="bots play each other in-process; print the figures")
    parser.add_argument("--game", required=True, help=", ".join(GAMES))
    parser.add_argument("--seats", type=int, help="default: the game's fewest")
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument(
        "--bots", help="a bot per seat, in seat order, e.g. greedy,random (default: random)"
    )
    parser.add_argument("--seed", default="0", help="the same seed plays the same games")
    parser.add_argument(
        "--rotate", action="store_true", help="move every bot one seat on each game"
    )
    parser.add_argument(
        "--think", type=float, default=1.0, help="simulated seconds a bot takes per move"
    )
    parser.add_argument("--json", action="store_true", help="print the summary as JSON")
    parser.set_defaults(run=main)
