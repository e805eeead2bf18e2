"""Record whole seeded games of each kind, played by bots in-process, as the requests a
client sends: the load the command-path benchmark replays over HTTP.

A game created with the sandbox `seed` and joined with the same entropy deals the same
cards on the server as in the simulation, so the recorded commands are all legal there.
"""

from __future__ import annotations

import hashlib
import random
from dataclasses import dataclass
from pathlib import Path

import msgspec

from domain.kernel import Command
from domain.kernel import table as tables
from domain.registry import GAMES
from domain.simulation import play

# (game, seats, options): a round timer that cannot ring during a benchmark, so the server
# follows the recording exactly.
KINDS: list[tuple[str, int, dict]] = [
    ("danger", 3, {}),
    ("high-voltage", 3, {}),
    ("danger-13", 3, {}),
    ("danger-danger", 4, {"round_seconds": 3600}),
]


@dataclass
class Recorded:
    game: str
    create: bytes
    joins: list[bytes]
    steps: list[tuple[int, bytes]]


def record(game: str, seats: int, options: dict, index: int, bot: str = "random") -> Recorded:
    rules = GAMES[game]
    seed = hashlib.sha256(f"bench:{game}:{index}".encode()).digest()
    log: list[tuple[int | str, Command]] = []
    play(
        rules,
        [bot] * seats,
        seed,
        random.Random(f"bench:{game}:{index}"),
        options=msgspec.convert(options, rules.options_type),
        record=log,
    )
    joins = [c for _, c in log if isinstance(c, tables.Join)]
    steps = [(a, c) for a, c in log if isinstance(a, int)]
    if any(isinstance(c, tables.FireTimer) for _, c in log):
        raise ValueError("a timer rang: the server would not follow this recording")
    create = {"game": game, "seats": seats, "options": {**options, "seed": seed.hex()}}
    return Recorded(
        game=game,
        create=msgspec.json.encode(create),
        # The simulation names bot seats after their bot; here they are plain players.
        joins=[
            msgspec.json.encode({"name": f"p{i}", "entropy": j.entropy})
            for i, j in enumerate(joins)
        ],
        steps=[(seat, msgspec.json.encode(c)) for seat, c in steps],
    )


def recordings(per_kind: int) -> list[Recorded]:
    """Games of every kind, interleaved so each connection plays all four."""
    out: list[Recorded] = []
    for index in range(per_kind):
        for game, seats, options in KINDS:
            out.append(record(game, seats, options, index))
    return out


def lua(games: list[Recorded]) -> str:
    def s(raw: bytes) -> str:
        return "[==[" + raw.decode() + "]==]"

    parts = ["return {"]
    for g in games:
        steps = ",".join(f"{{{seat},{s(body)}}}" for seat, body in g.steps)
        joins = ",".join(s(j) for j in g.joins)
        parts.append(
            f"{{game={s(g.game.encode())},create={s(g.create)},joins={{{joins}}},"
            f"steps={{{steps}}}}},"
        )
    parts.append("}")
    return "\n".join(parts)


def write(path: Path, per_kind: int) -> list[Recorded]:
    games = recordings(per_kind)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(lua(games))
    return games
