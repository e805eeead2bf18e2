"""Exports of whole games played by bots in-process (domain/simulation.py), as
`GET /v1/games/{id}/export` gives a finished game's: every recorded command decided again
through the table, sealed into envelopes with its cause, salts and times, and written as
the service writes an export (service/play/offload.py, `export_lines`). No store, no server:
a game of each kind takes a fraction of a second.

Times: each command a second after the last, and a timer's ringing no sooner than its
deadline, so the audit finds every timer rung by the server in time."""

from __future__ import annotations

import hashlib
import random
from datetime import UTC, datetime, timedelta
from typing import Any, cast

import msgspec

from domain.kernel import Command, Shuffler, builtins, commitment
from domain.kernel import table as tables
from domain.registry import GAMES
from domain.simulation import play
from events.envelope import GENESIS, Envelope, canonical, salt_for, seal
from service.play.offload import export_lines

KINDS: list[tuple[str, int]] = [
    ("danger", 3),
    ("high-voltage", 3),
    ("danger-13", 3),
    ("danger-danger", 4),
]
"""Every kind of game, with a table of seats it takes."""

START = datetime(2026, 12, 6, 16, 0, tzinfo=UTC)


def stamp(moment: datetime) -> str:
    """RFC 3339 UTC with milliseconds, as the store's clock writes `at`."""
    return moment.strftime("%Y-%m-%dT%H:%M:%S.") + f"{moment.microsecond // 1000:03d}Z"


def simulated_log(
    game: str, seats: int, index: int = 0, options: dict[str, Any] | None = None
) -> tuple[str, list[Envelope]]:
    """A finished game of `game` between random bots, with `options` (the game's own
    defaults for the rest): its id and its envelopes."""
    rules = GAMES[game]
    seed = hashlib.sha256(f"exports:{game}:{seats}:{index}".encode()).digest()
    game_id = "s" + hashlib.sha256(seed).hexdigest()[:11]
    record: list[tuple[int | str, Command]] = []
    chosen = msgspec.convert(options or {}, rules.options_type)
    play(rules, ["random"] * seats, seed, random.Random(f"{game}:{index}"), chosen, record=record)

    created = tables.create(rules, seats, chosen, False, commitment(seed))[0]
    table = tables.from_created(rules, created)
    envelopes = [seal(game_id, 1, created, stamp(START), "admin", None, GENESIS)]
    started: dict[str, datetime] = {}  # running timer id -> when it began
    now = START
    for number, (actor, command) in enumerate(record):
        now += timedelta(seconds=1)
        if isinstance(command, tables.FireTimer):
            timers = dict(tables.running_timers(table, rules))
            if command.timer in timers and command.timer in started:
                due = started[command.timer] + timedelta(seconds=timers[command.timer].seconds)
                now = max(now, due)
        shuffler = Shuffler(seed, [p.entropy for p in table.players])
        events = tables.decide(table, rules, command, cast(tables.Actor, actor), shuffler)
        label = f"seat:{actor}" if isinstance(actor, int) else actor
        key = None if isinstance(command, tables.Join) else f"key-{number}"
        for offset, event in enumerate(events, start=1):
            seq = len(envelopes) + 1
            secret = type(event).secret is not None
            envelope = seal(
                game_id,
                seq,
                event,
                stamp(now),
                label,
                key,
                envelopes[-1].hash,
                builtins(command) if offset == 1 else None,
                salt_for(seed, game_id, seq) if secret else None,
            )
            envelopes.append(envelope)
            tables.evolve(table, rules, event)
            running = table.timer_ids()
            for timer_id in running.keys() - started.keys():
                started[timer_id] = now
            for timer_id in started.keys() - running.keys():
                del started[timer_id]
    assert table.status == "finished" and envelopes[-1].type == "seed_revealed"
    return game_id, envelopes


def simulated_export(
    game: str, seats: int, index: int = 0, options: dict[str, Any] | None = None
) -> bytes:
    """A finished game's export (JSON Lines), as the service writes it."""
    _, envelopes = simulated_log(game, seats, index, options)
    stored = [canonical(msgspec.structs.asdict(e)) for e in envelopes]
    return export_lines(game, True, stored, "auditor")
