"""How much stronger each game's greedy bot is than the random one: one greedy seat (in
Danger Danger a greedy team) against random seats, at two seats and at the game's largest
table, over 1,000 seeded games each, the seats rotating every game. Prints a Markdown table
(docs/bots.md) and, last, the figures as JSON.

    .venv/bin/python -m bench.strength [--games 1000] [--seed strength]
"""

from __future__ import annotations

import argparse
import json
import sys

from domain.registry import GAMES
from service.cli.simulate import Run, greedy_against_random, simulate


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="bench.strength", description=__doc__)
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--seed", default="strength")
    args = parser.parse_args(argv)
    rows = []
    print("| game | seats | greedy wins | fair share | target | greedy/fair | games/s |")
    print("| --- | --- | --- | --- | --- | --- | --- |")
    for name, rules in GAMES.items():
        for seats in (2, rules.max_seats):
            summary, _ = simulate(
                Run(
                    name,
                    seats,
                    args.games,
                    greedy_against_random(name, seats),
                    seed=args.seed,
                    rotate=True,
                )
            )
            won = summary.wins_by_bot["greedy"]
            fair = 1 / (len(rules.teams) or seats)
            target = 0.65 if seats == 2 else 1.5 * fair
            rows.append(
                {
                    "game": name,
                    "seats": seats,
                    "greedy_wins": won,
                    "target": round(target, 3),
                    "fair_share": summary.fair_share,
                    "games_per_s": summary.games_per_s,
                    "met": won >= target,
                }
            )
            print(
                f"| {name} | {seats} | {won:.1%} | {summary.fair_share:.1%} | "
                f"{'≥' if won >= target else '<'} {target:.1%} | {won / fair:.2f} x "
                f"| {summary.games_per_s} |",
                flush=True,
            )
    print(json.dumps({"games": args.games, "seed": args.seed, "results": rows}))
    return 0 if all(r["met"] for r in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
