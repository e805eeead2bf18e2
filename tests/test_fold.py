"""A load's fold of a stored log (`fold_log`, `Game.fold_stored`) gives the game the command
path's fold of one event at a time gives: the table and the game's state, the head, who
acted last and when, and each running timer's deadline. Whole games of every kind are
played by bots, sealed and stored as bytes, and folded both ways, whole and as a cached
game catching up on the tail it had not read."""

from __future__ import annotations

import random

import msgspec
import pytest

from domain.kernel import Command, Event, Shuffler, commitment
from domain.kernel import table as tables
from domain.kernel.bots import Dice
from domain.registry import GAMES
from events.envelope import GENESIS, canonical, read_folded, seal
from service.play.game_model import Game, fold_log

KINDS = [
    ("danger", 3, {"turn_seconds": 30}),
    ("high-voltage", 3, {"turn_seconds": 30}),
    ("danger-13", 3, {"turn_seconds": 30}),
    ("danger-danger", 4, {"round_seconds": 60}),
]


def _at(n: int) -> str:
    return f"2026-12-06T10:{n // 60 % 60:02d}:{n % 60:02d}.{n // 3600:03d}Z"


def _stored(game: str, seats: int, options: dict, seed: int) -> tuple[list[bytes], dict]:
    """A whole game between random bots, as the stream holds it, and its secrets."""
    rules = GAMES[game]
    opts = msgspec.convert(options, rules.options_type)
    server_seed = bytes([seed]) * 32
    created = tables.create(rules, seats, opts, False, commitment(server_seed))
    table = tables.from_created(rules, created[0])
    table.options = opts
    dice: Dice = random.Random(seed)
    bot = rules.bot("random")
    log: list[bytes] = []
    prev = GENESIS

    def append(events: list[Event], actor: str, command: Command | None) -> None:
        nonlocal prev
        for n, event in enumerate(events):
            if log:  # game_created made the table
                tables.evolve(table, rules, event)
            cause = msgspec.to_builtins(command) if command is not None and n == 0 else None
            seq = len(log) + 1
            envelope = seal("g1", seq, event, _at(seq), actor, None, prev, cause=cause)
            prev = envelope.hash
            log.append(canonical(envelope))

    append(created, "admin", None)  # type: ignore[arg-type]  # a list of one GameCreated
    shuffler = Shuffler(server_seed)
    for seat in range(seats):
        join = tables.Join(name=f"p{seat}", entropy=str(seat))
        append(tables.decide(table, rules, join, "anyone", shuffler), f"seat:{seat}", join)
    shuffler = Shuffler(server_seed, [p.entropy for p in table.players])
    append(tables.decide(table, rules, tables.Start(), "admin", shuffler), "admin", None)
    for step in range(3000):
        if tables.is_over(table.status):
            break
        acting = [s for s in range(seats) if tables.legal(table, rules, s)]
        running = tables.running_timers(table, rules)
        if running and (not acting or step % 7 == 0):
            fire = tables.FireTimer(timer=running[0][0])
            events = tables.decide(table, rules, fire, "server", shuffler)
            append(events, "server", None)
            continue
        if not acting:
            break
        seat = dice.choice(acting)
        command = bot(rules.view(table.state, seat), seat, tables.legal(table, rules, seat), dice)
        append(tables.decide(table, rules, command, seat, shuffler), f"seat:{seat}", command)
    secret = {
        "seed": server_seed.hex(),
        "options": canonical(msgspec.to_builtins(opts)).decode(),
        "admin": "a" * 64,
        **{f"seat:{s}": f"{s}" * 64 for s in range(seats)},
    }
    return log, secret


def _one_by_one(log: list[bytes], secret: dict, upto: int) -> Game:
    game = fold_log("g1", log[:1], secret)
    for raw in log[1:upto]:
        game.fold(read_folded(raw))
    return game


def _seen(game: Game) -> tuple:
    """What a fold is read for: every field but the process's own bookkeeping."""
    return (
        msgspec.json.encode(game.table),
        game.seq,
        game.head,
        game.last_at,
        game.last_actor,
        game.active_at,
        game.acted,
        game.hashes,
        game.clocks(),
    )


@pytest.mark.parametrize(("kind", "seats", "options"), KINDS)
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_load_folds_as_the_command_path_does(
    kind: str, seats: int, options: dict, seed: int
) -> None:
    log, secret = _stored(kind, seats, options, seed)
    assert len(log) > 20
    started = next(n for n, raw in enumerate(log, 1) if read_folded(raw).type == "game_started")
    # Not right after game_started: the start's append carries the deal with it, and only
    # then does a game's timer run.
    cuts = {2, 5, len(log) // 3, len(log) // 2, len(log) - 1, len(log)} - {started}
    for upto in sorted(cuts):
        expected = _seen(_one_by_one(log, secret, upto))
        assert _seen(fold_log("g1", log[:upto], secret)) == expected
    # A cached game reads its tail from its own head on (service/play/repository.py).
    for cut in sorted({2, len(log) // 4, len(log) // 2} - {started}):
        game = fold_log("g1", log[:cut], secret)
        game.fold_stored(log[cut - 1 :])
        assert _seen(game) == _seen(_one_by_one(log, secret, len(log)))


def test_a_stream_with_a_gap_folds_up_to_the_gap() -> None:
    log, secret = _stored("danger-danger", 4, {"round_seconds": 60}, 4)
    gapped = log[:30] + log[31:]
    assert _seen(fold_log("g1", gapped, secret)) == _seen(_one_by_one(log, secret, 30))
