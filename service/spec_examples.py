"""The spec's examples: for every request body, parameter and response of every operation,
by operationId (applied by service/openapi_spec.py).

The success bodies cannot drift from what the service answers: each is the service's own
response struct (service/schemas.py), filled from games played here, in this process, by
the same rules, folds, envelopes, redaction and projection folds the service uses, only
without a store: at fixed times, with fixed seeds and ids, so that every build writes the
same spec. The problem answers are one example per code an operation answers with each
status (`ERRORS`), each made by service/problems.py as every real problem is. tests/api
validates every example against its schema, and checks every problem answer the API suite
meets against the codes listed here.
"""

from __future__ import annotations

import base64
import contextvars
import functools
import hashlib
import random
import string
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any, TypeVar

import msgspec

from domain.kernel import AUDITOR, SPECTATOR, Command, Event, Viewer, commitment
from domain.kernel import table as tables
from domain.registry import GAMES
from events.audit import audit_export
from events.envelope import GENESIS, Envelope, canonical, read_folded, seal

from . import bodies as bodies_module
from . import offload, players, request_context, streams
from .api import _envelope, _game_out, _result
from .clock import StoreClock, stamp
from .config import Rates
from .errors import TITLES
from .games import Game, GameService, Outcome, _seal_all, fold_log
from .lobby import LobbyGame, cursor_of
from .problems import body as problem_body
from .projections import fold_rounds, fold_summary, player_results_of
from .ratelimit import kind_of
from .schemas import (
    CacheUse,
    CommandResult,
    Created,
    CreateGame,
    DurabilityInForce,
    EventPage,
    GameCommand,
    GameOut,
    GameStats,
    Health,
    Joined,
    JoinGame,
    Lag,
    Lobby,
    LobbyEntry,
    NewSeatToken,
    PlayerStats,
    Registered,
    RegisterPlayer,
    Replayed,
    RoundSummary,
    TaskStatus,
    TeamChange,
)

T = TypeVar("T")
JSON = "application/json"
EXPORT = "application/x-ndjson"


@dataclass(frozen=True)
class Example:
    """One named example: what the spec shows as its summary, and its value."""

    summary: str
    value: Any


# Ids and secrets ---------------------------------------------------------------------------
# Each has the shape the service gives it (service/games.py, tokens.py, players.py), but is
# derived from a label instead of drawn, so that the spec is the same on every build.


def _digest(label: str) -> bytes:
    return hashlib.sha256(f"danger-hall/spec-examples/{label}".encode()).digest()


def _urlsafe(label: str, size: int) -> str:
    """What `secrets.token_urlsafe(size)` gives, fixed by `label`."""
    raw = (_digest(label) * 2)[:size]
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()


def _game_id(label: str) -> str:
    return _urlsafe(label, 9).replace("-", "x").replace("_", "y")


def _player_id(label: str) -> str:
    alphabet = string.ascii_lowercase + string.digits
    return "".join(alphabet[b % len(alphabet)] for b in _digest(label)[: players.ID_LENGTH])


def _token(game_id: str, role: str, issued: int = 1) -> str:
    """The `issued`th token of a role ("admin", or a seat's number)."""
    label = "admin" if role == "admin" else f"s{role}"
    return f"{game_id}.{label}.{_urlsafe(f'{game_id}/{role}/{issued}', 32)}"


PLAYER_ID = _player_id("anton")
PLAYER_TOKEN = f"{players.PREFIX}{PLAYER_ID}_{_urlsafe('anton/token', 32)}"
IDEMPOTENCY_KEY = "7c0e4a4e-5b8f-4d0c-9a51-3f1f2b6c8d93"
REQUEST_ID = "b7e2c9d4-5f1a-4e3b-9c8d-2a6f0e1b3c57"
"""A client's own X-Request-ID (a UUID is typical); without one, the service makes its own."""
MADE_REQUEST_ID = "req_" + _digest("request").hex()[:20]


# Games played here -------------------------------------------------------------------------


# The service's own views of a game; they read no store.
_VIEWS = GameService(None, False, clock=StoreClock(None))  # type: ignore[arg-type]


def _request_id(label: str) -> str:
    """An id as the service makes one for a request that sent none."""
    return "req_" + _digest(f"request/{label}").hex()[:20]


def _in_request(label: str | None, act: Callable[[], T]) -> T:
    """`act` as a request with its id does it (its events record the id), or, without a
    label, as the service's own timers and bots do (none)."""
    if label is None:
        return act()

    def requested() -> T:
        request_context.begin(_request_id(label).encode())
        return act()

    return contextvars.copy_context().run(requested)


class _Table:
    """A game played in this process exactly as the command path plays it (decide, seal,
    fold), with its log kept as the store keeps it."""

    def __init__(
        self,
        label: str,
        name: str,
        seats: int,
        start: datetime,
        options: dict[str, Any] | None = None,
        private: bool = False,
    ) -> None:
        self.label = label
        self.rules = GAMES[name]
        self.id = _game_id(label)
        self.at = start
        self.seed = _digest(f"{label}/seed")
        self.options = msgspec.convert(options or {}, self.rules.options_type)
        created = tables.create(
            self.rules, seats, self.options, False, commitment(self.seed), private
        )
        first = _in_request(
            f"{label}/create",
            lambda: seal(
                self.id,
                1,
                created[0],
                stamp(start),
                "admin",
                None,
                GENESIS,
                meta=request_context.meta(),
            ),
        )
        self.secret = {
            "seed": self.seed.hex(),
            "options": canonical(msgspec.to_builtins(self.options)).decode(),
        }
        self.game: Game = fold_log(self.id, [canonical(first)], self.secret)
        self.log: list[Envelope] = [first]
        self.events: list[Event] = [self.game.codec.event(first)]

    def act(
        self, actor: int | str, command: Command, seconds: float = 2.2, requested: bool = True
    ) -> list[tuple[Envelope, Event]]:
        """The command decided and its events appended, `seconds` after the last; sent by a
        client (`requested`), or by the service itself (a bot's move, a timer)."""
        self.at += timedelta(seconds=seconds)
        game = self.game
        events = tables.decide(
            game.table,
            game.rules,
            command,
            actor,  # type: ignore[arg-type]
            game.shuffler(),
            game.setup_options,
        )
        label = f"seat:{actor}" if isinstance(actor, int) else actor
        request = f"{self.label}/{game.seq}" if requested else None
        sealed = _in_request(
            request, lambda: _seal_all(game, events, stamp(self.at), label, None, command)
        )
        for envelope, event in zip(sealed, events, strict=True):
            game.fold(envelope, event)
        self.log += sealed
        self.events += events
        return list(zip(sealed, events, strict=True))

    def raw(self, upto: int | None = None) -> list[bytes]:
        return [canonical(e) for e in self.log[:upto]]

    def readable(self, viewer: Viewer, first: int = 1, last: int | None = None) -> list[Any]:
        """Events first..last (seqs) as `viewer` reads them now."""
        pairs = list(zip(self.log, self.events, strict=True))[first - 1 : last]
        return [_envelope(self.game.readable(e, viewer, event)) for e, event in pairs]

    def out(self, viewer: Viewer) -> GameOut:
        """The game as GET /v1/games/{id} answers `viewer`."""
        return _game_out(_VIEWS, self.game, viewer)

    def result(self, appended: list[tuple[Envelope, Event]], viewer: Viewer) -> CommandResult:
        """A command's answer to `viewer`."""
        shown = [self.game.readable(e, viewer, event) for e, event in appended]
        return _result(Outcome(self.game, shown, viewer, _VIEWS.view(self.game, viewer)))

    def created(self, invite: str | None = None) -> Created:
        view = _VIEWS.view(self.game, SPECTATOR)
        return Created(
            id=self.id,
            game=self.rules.name,
            status="open",
            seats=self.game.table.seats,
            seq=1,
            sandbox=view.sandbox,
            seed_commitment=view.seed_commitment,
            admin_token=_token(self.id, "admin"),
            invite=invite,
        )

    def summary(self) -> LobbyGame:
        """The game as the lobby's projection folds it."""
        summary = fold_summary(self.id, None, [read_folded(raw) for raw in self.raw()])
        assert summary is not None
        return summary

    def lobby_entry(self) -> LobbyEntry:
        summary = self.summary()
        return LobbyEntry(**{f: getattr(summary, f) for f in LobbyEntry.__struct_fields__})

    def to_move(self) -> int:
        return next(
            s for s in range(self.game.table.seats) if tables.legal(self.game.table, self.rules, s)
        )

    def play(self, dice: random.Random, commands: int | None = None) -> None:
        """Greedy moves, a seat at a time, until `commands` were played or the game ends;
        a bot's seat is played by the service, the others by their clients."""
        played = 0
        while not self.game.finished and (commands is None or played < commands):
            seat = self.to_move()
            moves = tables.legal(self.game.table, self.rules, seat)
            view = self.rules.view(self.game.table.state, seat)
            command = self.rules.bot("greedy")(view, seat, moves, dice)
            bot = self.game.table.players[seat].bot is not None
            self.act(seat, command, seconds=1.0 if bot else 2.2, requested=not bot)
            played += 1


def _encode(value: Any) -> Any:
    """A response struct as the JSON the client reads."""
    return msgspec.json.decode(msgspec.json.encode(value))


NAMES = ("Anton", "Berta", "Carla", "Dora")
STARTED = datetime(2026, 12, 1, 20, 15, 3, 412000, tzinfo=UTC)


@dataclass
class _Played:
    """What the examples are read from."""

    main: _Table  # Danger, 3 seats: Anton (a registered player), Berta, and a bot
    created: Created
    joined: Joined
    bot_joined: Joined
    started: GameOut
    command: CommandResult
    if_match: int
    snapshot: dict[str, Any]  # the main game a few commands after its start
    finished: dict[str, Any]  # and at its end
    teams: _Table  # Danger Danger, open: seats managed
    team_changed: GameOut
    seat_left: GameOut
    reissued: NewSeatToken
    abandoned: _Table  # Danger, abandoned by its admin before the start
    abandoned_out: GameOut
    private: Created


INVITE = _urlsafe("private/invite", 16)


@functools.cache
def played() -> _Played:
    """The games every example is read from, played once per process."""
    dice = random.Random(2026)
    main = _Table("main", "danger", 3, STARTED, options={"turn_seconds": 90})
    created = main.created()
    main.act("anyone", tables.Join(name="Anton", entropy="a2f9c4e1", player=PLAYER_ID), 41.3)
    joined = Joined(seat=0, token=_token(main.id, "0"), seq=main.game.seq)
    main.act("anyone", tables.Join(name="Berta"), 17.8)
    main.act("anyone", tables.Join(name="Carla", bot="greedy"), 9.1)
    bot_joined = Joined(seat=2, token=None, seq=main.game.seq)
    main.act("admin", tables.Start(), 12.5)
    started = main.out(SPECTATOR)
    seat = main.to_move()
    if_match = main.game.seq
    moves = tables.legal(main.game.table, main.rules, seat)
    first = main.act(
        seat,
        main.rules.bot("greedy")(main.rules.view(main.game.table.state, seat), seat, moves, dice),
    )
    command = main.result(first, seat)
    main.play(dice, commands=3)
    snapshot = _snapshot(main)
    main.play(dice)
    finished = _finished(main)

    teams = _Table("teams", "danger-danger", 4, STARTED + timedelta(minutes=26, seconds=14))
    for name in NAMES[:3]:
        teams.act("anyone", tables.Join(name=name), 20.4)
    teams.act(2, tables.ChangeTeam(seat=2, team="yellow"), 6.0)
    team_changed = teams.out(2)
    teams.act("admin", tables.ReissueToken(seat=0), 31.7)
    reissued = NewSeatToken(seat=0, token=_token(teams.id, "0", issued=2), seq=teams.game.seq)
    teams.act("admin", tables.Leave(seat=1), 8.2)
    seat_left = teams.out(SPECTATOR)

    abandoned = _Table("abandoned", "danger", 3, STARTED - timedelta(hours=1, minutes=12))
    abandoned.act("anyone", tables.Join(name="Anton"), 33.0)
    abandoned.act("admin", tables.Abandon(reason="admin"), 95.4)
    abandoned_out = abandoned.out(SPECTATOR)

    private = _Table("private", "danger", 4, STARTED + timedelta(minutes=3), private=True)
    return _Played(
        main=main,
        created=created,
        joined=joined,
        bot_joined=bot_joined,
        started=started,
        command=command,
        if_match=if_match,
        snapshot=snapshot,
        finished=finished,
        teams=teams,
        team_changed=team_changed,
        seat_left=seat_left,
        reissued=reissued,
        abandoned=abandoned,
        abandoned_out=abandoned_out,
        private=private.created(invite=INVITE),
    )


def _snapshot(main: _Table) -> dict[str, Any]:
    """The reads of a running game."""
    seq = main.game.seq
    cause = next(i for i in range(len(main.log) - 1, -1, -1) if main.log[i].cause is not None)
    _, current = fold_rounds(None, [read_folded(raw) for raw in main.raw()])
    assert current is not None
    frames = b"".join(
        streams.encode(main.game.readable(e, SPECTATOR, event))
        for e, event in zip(main.log[cause:], main.events[cause:], strict=True)
    )
    return {
        "as_seat": main.out(0),
        "as_spectator": main.out(SPECTATOR),
        "events": EventPage(events=main.readable(SPECTATOR), last_seq=seq),
        "stream_after": cause,
        "stream": frames.decode(),
        "export": offload.export_lines(main.rules.name, False, main.raw(), SPECTATOR).decode(),
        "audit": msgspec.json.decode(offload.audit_report(main.raw())),
        "round": RoundSummary(
            round=current.round,
            first_seq=current.first_seq,
            last_seq=current.last_seq,
            complete=current.scored,
            events=main.readable(SPECTATOR, current.first_seq, current.last_seq),
        ),
        "lobby": main.lobby_entry(),
    }


REPLAY_SEQ = 12


def _finished(main: _Table) -> dict[str, Any]:
    status, view = offload.replay_view(main.id, main.raw(REPLAY_SEQ), main.secret, AUDITOR)
    results = player_results_of(main.id, [read_folded(raw) for raw in main.raw()])
    result = msgspec.json.decode(results[PLAYER_ID])
    return {
        "audit": msgspec.json.decode(offload.audit_report(main.raw())),
        "replay": Replayed(id=main.id, seq=REPLAY_SEQ, status=status, view=view),
        "record": PlayerStats(
            id=PLAYER_ID,
            name="Anton",
            games=1,
            wins=int(result["won"]),
            by_game={
                result["game"]: GameStats(
                    games=1, wins=int(result["won"]), average_score=float(result["score"])
                )
            },
        ),
    }


# Request bodies ----------------------------------------------------------------------------


def _create_bodies() -> dict[str, Example]:
    deck = msgspec.to_builtins(GAMES["danger-13"].options_type().deck)  # type: ignore[attr-defined]
    deck.update({"arrow": 3, "hand": 4, "+": 8})
    bodies = {
        "danger": Example("Danger for three", {"game": "danger", "seats": 3}),
        "danger_german_rule": Example(
            "Danger for four, the German fourth-row rule",
            {"game": "danger", "seats": 4, "options": {"fourth_row_needs": "total"}},
        ),
        "turn_clock": Example(
            "Danger with a 90-second turn clock",
            {"game": "danger", "seats": 3, "options": {"turn_seconds": 90}},
        ),
        "high_voltage_teams": Example(
            "High Voltage, two teams of two",
            {"game": "high-voltage", "seats": 4, "options": {"teams": True}},
        ),
        "danger_13_deck": Example(
            "Danger 13 with a deck of its own (no sandbox needed)",
            {"game": "danger-13", "seats": 3, "options": {"deck": deck}},
        ),
        "danger_danger": Example(
            "Danger Danger, a 90-second round timer",
            {"game": "danger-danger", "seats": 4, "options": {"round_seconds": 90}},
        ),
        "private": Example(
            "A private game: not in the lobby, joined with its invite",
            {"game": "danger", "seats": 3, "visibility": "private"},
        ),
        "sandbox_seed": Example(
            "Sandbox only (DANGER_SANDBOX=1): a fixed seed deals the same cards every time",
            {"game": "danger", "seats": 3, "options": {"seed": _digest("sandbox").hex()}},
        ),
    }
    for example in bodies.values():  # each is a body the service takes, and a game it makes
        decoded = bodies_module.decode(msgspec.json.encode(example.value), CreateGame)
        rules = GAMES[example.value["game"]]
        tables.create(rules, decoded.seats, decoded.options, False, "0" * 64)
    return bodies


def _command_bodies() -> dict[str, Example]:
    """A body of every game command, named `<game>:<type>`."""
    out = {}
    for rules in GAMES.values():
        for command in rules.commands:
            tag = command.__struct_config__.tag
            value = getattr(command, "example", None) or _sample(command)
            bodies_module.decode(msgspec.json.encode(value), GameCommand)
            doc = " ".join((command.__doc__ or "").split())
            out[f"{rules.name}:{tag}"] = Example(f"{rules.name}: {doc}".strip(), value)
    return out


def _sample(command: type[Command]) -> dict[str, Any]:
    """A command's body with the first value each of its literal fields admits."""
    fields = {}
    for f in msgspec.structs.fields(command):
        literal = getattr(f.type, "__args__", None)
        fields[f.encode_name] = literal[0] if literal else ""
    return {"type": command.__struct_config__.tag, **fields}


def _join_bodies() -> dict[str, Example]:
    bodies = {
        "player": Example("A player takes the lowest free seat", {"name": "Anton"}),
        "entropy": Example(
            "With entropy of the player's own, mixed into every shuffle",
            {"name": "Berta", "entropy": "d41e8c07b2"},
        ),
        "bot": Example(
            "A seat the service plays (no token is issued)",
            {"name": "Carla", "bot": "greedy", "think_ms": 1500},
        ),
        "team": Example(
            "Danger Danger: a seat on the yellow team", {"name": "Dora", "team": "yellow"}
        ),
        "private": Example(
            "A private game's seat, with its invite", {"name": "Emil", "invite": INVITE}
        ),
    }
    for example in bodies.values():
        bodies_module.decode(msgspec.json.encode(example.value), JoinGame)
    return bodies


def _export_body() -> str:
    abandoned = played().abandoned
    return offload.export_lines(abandoned.rules.name, True, abandoned.raw(), SPECTATOR).decode()


def audit_upload() -> dict[str, Example]:
    """POST /v1/audit's body, for every media type it takes (service/audit_api.py)."""
    return {
        "abandoned": Example(
            "The export of a game abandoned before its start: its whole log", _export_body()
        )
    }


def request_bodies() -> dict[str, dict[str, dict[str, Example]]]:
    """operationId -> media type -> examples of its body."""
    return {
        "createGame": {JSON: _create_bodies()},
        "joinGame": {JSON: _join_bodies()},
        "sendCommand": {JSON: _command_bodies()},
        "changeTeam": {
            JSON: {
                "yellow": Example(
                    "Move to the yellow team", msgspec.to_builtins(TeamChange("yellow"))
                )
            }
        },
        "registerPlayer": {
            JSON: {
                "player": Example(
                    "A player named Anton", msgspec.to_builtins(RegisterPlayer("Anton"))
                )
            }
        },
    }


# Parameters --------------------------------------------------------------------------------


def parameters() -> dict[str, dict[str, dict[str, Example]]]:
    """operationId ('*': any) -> parameter name -> its examples."""
    p = played()
    snap = p.snapshot
    cursor = cursor_of(p.teams.summary())
    game = {"game": Example("A game's id, as createGame answers it", p.main.id)}
    teams = {"game": Example("An open Danger Danger game", p.teams.id)}
    return {
        "*": {
            "game_id": game,
            "Idempotency-Key": {"uuid": Example("A random key per request", IDEMPOTENCY_KEY)},
            "X-Request-ID": {"uuid": Example("The client's own id for this request", REQUEST_ID)},
            "player_id": {"player": Example("A registered player's id", PLAYER_ID)},
            "n": {"first": Example("The first round", 1)},
        },
        "listGames": {
            "status": {"open": Example("Games waiting for players", "open")},
            "game": {"danger": Example("Danger only", "danger")},
            "limit": {"page": Example("20 a page (the default)", 20)},
            "offset": {"first": Example("From the newest", 0)},
            "cursor": {"next": Example("The `next` of the previous page", cursor)},
        },
        "sendCommand": {
            "If-Match": {
                "etag": Example("The game's ETag, as getGame sends it", f'"{p.if_match}"'),
                "seq": Example("Or the seq alone", str(p.if_match)),
            },
        },
        "listEvents": {
            "after": {"start": Example("From the first event", 0)},
            "limit": {"page": Example("At most 100 events", 100)},
        },
        "streamEvents": {
            "after": {"resume": Example("The events after this seq", snap["stream_after"])},
            "Last-Event-ID": {
                "resume": Example(
                    "A reconnect resumes after the last event it had", str(snap["stream_after"])
                )
            },
        },
        "replayGame": {"seq": {"deal": Example("The game just after the deal", REPLAY_SEQ)}},
        "leaveSeat": {"game_id": teams, "seat": {"second": Example("The second seat", 1)}},
        "changeTeam": {"game_id": teams, "seat": {"third": Example("The third seat", 2)}},
        "reissueSeatToken": {"game_id": teams, "seat": {"first": Example("The first seat", 0)}},
    }


# Success answers ---------------------------------------------------------------------------


def responses() -> dict[str, dict[str, dict[str, dict[str, Example]]]]:
    """operationId -> status -> media type -> examples of the answer."""
    p = played()
    snap, end = p.snapshot, p.finished
    teams_entry = p.teams.lobby_entry()
    lobby_page = Lobby(games=[teams_entry, snap["lobby"]], total=2, limit=20, offset=0)
    first_page = Lobby(
        games=[teams_entry], total=2, limit=1, offset=0, next=cursor_of(p.teams.summary())
    )
    audit_ok = audit_export(_export_body().encode())
    tampered = _export_body().replace('"name":"Anton"', '"name":"Anna"', 1)
    audit_bad = audit_export(tampered.encode())
    return {
        "createGame": {
            "201": {
                JSON: {
                    "public": Example("A public game, open for its seats", _encode(p.created)),
                    "private": Example(
                        "A private game: give its invite to the players", _encode(p.private)
                    ),
                }
            }
        },
        "listGames": {
            "200": {
                JSON: {
                    "games": Example("Every game, newest first", _encode(lobby_page)),
                    "cursor": Example(
                        "A page of one, with the cursor of the next", _encode(first_page)
                    ),
                }
            }
        },
        "joinGame": {
            "201": {
                JSON: {
                    "player": Example("A player's seat and its token", _encode(p.joined)),
                    "bot": Example("A bot's seat: no token", _encode(p.bot_joined)),
                }
            }
        },
        "startGame": {
            "200": {JSON: {"started": Example("Dealt: the first seat may act", _encode(p.started))}}
        },
        "abandonGame": {
            "200": {
                JSON: {"abandoned": Example("Over: the seed is revealed", _encode(p.abandoned_out))}
            }
        },
        "getGame": {
            "200": {
                JSON: {
                    "seat": Example(
                        "As seat 0 sees it: its own hand, its legal commands",
                        _encode(snap["as_seat"]),
                    ),
                    "spectator": Example(
                        "As a spectator sees it (no token)", _encode(snap["as_spectator"])
                    ),
                }
            }
        },
        "sendCommand": {
            "200": {
                JSON: {
                    "played": Example(
                        "The events the command made, and the view after them", _encode(p.command)
                    )
                }
            }
        },
        "listEvents": {
            "200": {
                JSON: {
                    "page": Example(
                        "A running game's events, as a spectator reads them",
                        _encode(snap["events"]),
                    )
                }
            }
        },
        "streamEvents": {
            "200": {
                "text/event-stream": {
                    "events": Example("A command's events as they are appended", snap["stream"])
                }
            }
        },
        "replayGame": {
            "200": {
                JSON: {
                    "finished": Example(
                        f"A finished game as it stood after event {REPLAY_SEQ}: every hand",
                        _encode(end["replay"]),
                    )
                }
            }
        },
        "exportGame": {
            "200": {
                EXPORT: {
                    "running": Example("A running game, as a spectator reads it", snap["export"]),
                    "over": Example(
                        "A game that is over (here abandoned before its start): all of it, for "
                        "anyone",
                        _export_body(),
                    ),
                }
            }
        },
        "auditGame": {
            "200": {
                JSON: {
                    "finished": Example("A finished game: every check passes", end["audit"]),
                    "running": Example(
                        "A running game: the checks that need the seed wait for its end",
                        snap["audit"],
                    ),
                }
            }
        },
        "getRound": {
            "200": {
                JSON: {
                    "in_play": Example(
                        "The round in play, as a spectator reads it", _encode(snap["round"])
                    )
                }
            }
        },
        "leaveSeat": {
            "200": {
                JSON: {
                    "removed": Example(
                        "The admin removed seat 1: the game as the admin sees it",
                        _encode(p.seat_left),
                    )
                }
            }
        },
        "changeTeam": {
            "200": {
                JSON: {
                    "moved": Example(
                        "Seat 2 moved to the yellow team, as seat 2 sees it",
                        _encode(p.team_changed),
                    )
                }
            }
        },
        "reissueSeatToken": {
            "201": {JSON: {"reissued": Example("Seat 0's new token", _encode(p.reissued))}}
        },
        "registerPlayer": {
            "201": {
                JSON: {
                    "registered": Example(
                        "The player's id and token",
                        _encode(Registered(id=PLAYER_ID, name="Anton", token=PLAYER_TOKEN)),
                    )
                }
            }
        },
        "getPlayer": {
            "200": {
                JSON: {"record": Example("A player with one finished game", _encode(end["record"]))}
            }
        },
        "auditExport": {
            "200": {
                JSON: {
                    "passing": Example("The export as it was given", _encode(audit_ok)),
                    "tampered": Example("The same export with a name changed", _encode(audit_bad)),
                }
            }
        },
        "health": {
            "200": {JSON: {"ok": Example("All is well", _encode(_health(True)))}},
            "503": {
                JSON: {
                    "degraded": Example("No worker polls the job queue", _encode(_health(False)))
                }
            },
        },
    }


def _health(well: bool) -> Health:
    idle = Lag(entries=0, ms=0, dead_letters=0, errors=0)
    running = TaskStatus(
        state="running", restarts=0, errors=0, last_error=None, failing_seconds=None
    )
    tasks = {f"projection:{group}": running for group in ("lobby", "rounds", "players")}
    tasks["worker"] = running
    tasks["sweep"] = running
    if not well:
        tasks["worker"] = TaskStatus(
            state="retrying",
            restarts=3,
            errors=3,
            last_error="ConnectionError: Error 111 connecting to 127.0.0.1:6380.",
            failing_seconds=12.4,
        )
    return Health(
        status="ok" if well else "degraded",
        redis="ok",
        projections={group: idle for group in ("lobby", "rounds", "players")},
        tasks=tasks,
        worker="Dec-01 21:35:54 j_complete=412 j_failed=0 j_retried=2 j_ongoing=0 queued=0"
        if well
        else None,
        cache=CacheUse(games=3, bytes=1_843_200, max_bytes=256 * 2**20),
        history_breaks=0,
        durability=DurabilityInForce(
            mode="fsync",
            replicas=0,
            checked=True,
            store="appendonly yes, appendfsync always; 0 replicas online",
        ),
    )


# Problem answers ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Code:
    meaning: str
    """What the code says, in the description of each status it is listed under."""
    detail: str
    """The example answer's `detail`, as the service words it."""
    seq: int | None = None


CODES: dict[str, Code] = {
    # 400
    "invalid_body": Code(
        "The body is not JSON, or not this operation's body: a value of the wrong type "
        '(`"3"` is not a number), an unknown field, a missing one.',
        "Expected `int`, got `str` - at `$.seats`",
    ),
    "invalid_parameter": Code(
        "A path, query or header parameter outside its schema (its type, its bounds, its "
        "pattern), or a required one missing.",
        "Validation failed for GET /v1/games?limit=0: limit: Expected `int` >= 1",
    ),
    "invalid_name": Code(
        "The name holds a refused character (control, format, private-use or unassigned), "
        "or nothing but spaces.",
        "A name may not hold format characters; U+200B is one.",
    ),
    "invalid_idempotency_key": Code(
        "Idempotency-Key is not 1 to 128 printable ASCII characters.",
        "Idempotency-Key: 1-128 printable chars.",
    ),
    "invalid_if_match": Code(
        "If-Match is not a seq.", "If-Match takes the game's seq, e.g. If-Match: 12."
    ),
    "invalid_cursor": Code(
        "`cursor` is not one this lobby gave.", "That is not a cursor this lobby gave."
    ),
    "empty_export": Code(
        "The body holds no event.", "The body holds no event: send a game's export."
    ),
    # 401
    "token_missing": Code(
        "No token was sent: `Authorization: Bearer <token>`.",
        "Send your token as 'Authorization: Bearer ...'.",
    ),
    "token_invalid": Code(
        "The token is not one this service issued for this game (or was replaced), or "
        "`Authorization` is not `Bearer <token>`.",
        "That token is not valid for this game.",
    ),
    "key_missing": Code(
        "This server asks for an app key (DANGER_AUTH=keys).",
        "This server asks for an app key: send 'Authorization: Bearer dhk_...'.",
    ),
    "key_invalid": Code(
        "The app key sent is not one of this service's.", "That is not an app key of this service."
    ),
    "key_revoked": Code(
        "The app key sent was revoked.", "This app key was revoked; ask for a new one."
    ),
    "player_token_invalid": Code(
        "The player token sent (`dhp_...`) is not one of this service's.",
        "That is not a player token of this service.",
    ),
    # 403
    "token_for_other_game": Code(
        "The token is another game's.", "That token belongs to another game."
    ),
    "admin_only": Code(
        "Only the game's admin token may do this.", "Only the game's admin token may do this."
    ),
    "seat_only": Code(
        "Only a seat's token sends game commands, not the admin's.",
        "Only a seat's token may send game commands.",
    ),
    "sandbox_only": Code(
        "An option that fixes the order of the cards (`seed`; Danger's and High Voltage's "
        "`deck`; Danger 13's and Danger Danger's `stack`) on a server not started with "
        "DANGER_SANDBOX=1. A deck composition (Danger 13's and Danger Danger's `deck`) needs "
        "no sandbox.",
        "The option(s) seed are accepted only by a server started with DANGER_SANDBOX=1.",
    ),
    # 404
    "unknown_game": Code("No game has this id.", f"There is no game {_game_id('unknown')!r}."),
    "no_such_event": Code("`seq` is beyond the game's last event.", "The game has 14 events."),
    "no_such_round": Code(
        "Round `n` has not been played (yet).", "Round 4 has not been played (yet)."
    ),
    "unknown_player": Code("No player has this id.", "No player has this id."),
    # 409, the service's
    "too_many_open_games": Code(
        "This client already holds the most open games allowed "
        "(DANGER_OPEN_GAMES_PER_CLIENT): start one, or let one end, first.",
        "This client already holds 10 open games (created, not started); start one, or "
        "wait until one ends, before creating another.",
    ),
    "idempotency_key_in_use": Code(
        "A request with this Idempotency-Key is still being answered: retry after `Retry-After`.",
        "A request with this Idempotency-Key is still being answered; retry.",
    ),
    "not_this_games_command": Code(
        "The command is another game's.", "'pick' is not a command of danger."
    ),
    "too_late": Code(
        "A turn clock ran out before the command arrived, and has taken effect: read the "
        "game again.",
        "A timer ran out before your command arrived and has taken effect: look at the game again.",
    ),
    # 409, the table's rules
    "game_not_open": Code("The game has started, or is over.", "This game has already started."),
    "game_not_active": Code(
        "The game is not being played: it has not started, or it is over.",
        "This game is open, not active.",
    ),
    "game_full": Code("Every seat is taken.", "Every seat of this game is taken."),
    "name_taken": Code(
        "A player at the table has this name, or one like it (compared caselessly, in NFKC).",
        "Another player at this table has that name, or one like it.",
    ),
    "bot_seat": Code(
        "A bot's seat: it counts in no player's record (a join with both a player token and "
        "`bot`), and has no token to reissue.",
        "A bot's seat counts in no player's record.",
    ),
    "already_seated": Code(
        "The player (by their token) already has a seat at this table.",
        "This player already has a seat here.",
    ),
    "no_teams": Code("The game is not played in teams.", "danger is not played in teams."),
    "no_such_team": Code(
        "Not one of the game's teams (Danger Danger: pink, yellow).",
        "The teams are pink, yellow.",
    ),
    "seats_not_filled": Code(
        "Every seat must be taken before the start.", "2 of 3 seats are taken; all must be."
    ),
    "team_size": Code(
        "Danger Danger: each team needs 1 to 4 players.",
        "Each team needs 1 to 4 players; yellow has 0.",
    ),
    "no_such_seat": Code("Nobody sits at that seat.", "No one sits at seat 3."),
    "not_your_seat": Code(
        "Another seat's token: only the seat's own player or the admin may do this.",
        "Only this seat's player or the admin may do this.",
    ),
    "game_over": Code(
        "The game is over: its tokens only read it.", "This game is over: its tokens only read it."
    ),
    # 409, the games' rules
    "not_your_turn": Code("Danger, High Voltage: another seat is to play.", "It is seat 1's turn."),
    "already_drawn": Code(
        "Danger: the seat has drawn this turn; protect a row or end the turn.",
        "You have drawn this turn: protect a row or end your turn.",
    ),
    "draw_first": Code(
        "Danger: draw and place a card before protecting a row.",
        "You must draw and place a card before protecting a row.",
    ),
    "row_protected": Code(
        "Danger: that row is protected already.", "Your red row is already protected."
    ),
    "row_closed": Code("Danger: that row is closed.", "Your red row is closed."),
    "drawn_colour": Code(
        "Danger: the seat drew a card of that colour this turn.",
        "You may not protect red: you drew a red card this turn.",
    ),
    "too_few_cards": Code(
        "Danger: protecting needs 2 or more cards in front of the seat.",
        "You must have 2 or more cards in front of you to protect a row.",
    ),
    "row_empty": Code(
        "Danger: the seat has no row of that colour.", "You have no red row to protect."
    ),
    "smallest_shared": Code(
        "Danger: the smallest sum of that colour is shared, so no one may protect it.",
        "The smallest red sum (4) is shared, so no one may protect red.",
    ),
    "smallest_row": Code(
        "Danger: the seat's row has the smallest sum of its colour.",
        "Your red row has the smallest red sum; you may not protect it.",
    ),
    "fourth_row_too_short": Code(
        "Danger: the fourth row is protected only with 6 or more cards (option "
        "`fourth_row_needs`).",
        "Your fourth row may be protected only with 6 or more cards in your row.",
    ),
    "no_discard_to_take": Code(
        "Danger: only a card discarded on the turn just before may be taken.",
        "Only a card discarded on the turn just before may be taken.",
    ),
    "discard_would_not_place": Code(
        "Danger: the discard's row is protected or closed, so the card could only be "
        "discarded again.",
        "Your red row is protected: R7 could only be discarded again.",
    ),
    "decision_pending": Code(
        "Danger 13: a seat must first refuse or accept the card reaching it.",
        "Seat 2 must first refuse or accept the card reaching it.",
    ),
    "not_the_dealer": Code("Danger 13: another seat deals.", "Seat 0 is dealing."),
    "already_received": Code(
        "Danger 13: that seat has had a card from this packet.",
        "Seat 1 has had a card from this packet: give it to another seat.",
    ),
    "nothing_to_decide": Code(
        "Danger 13: no card waits for this seat's decision.",
        "No card is waiting for your decision.",
    ),
    "not_your_decision": Code(
        "Danger 13: another seat decides on the card.", "Seat 1 decides on the card ++3."
    ),
    "team_out": Code(
        "Danger Danger: the seat's team has gone out; that is final.",
        "Your team has gone out: the decision is final.",
    ),
    "not_holding": Code(
        "Danger Danger: the seat holds no card; draw first, in the relay's turn.",
        "You hold no card: draw first, in your relay turn.",
    ),
    "holding_card": Code(
        "Danger Danger: the team holds a card, to be played before the next draw or going out.",
        "Your team holds a card: it must be played before the next draw.",
    ),
    "not_your_relay": Code(
        "Danger Danger: another seat of the team draws next.", "Seat 2 draws next for your team."
    ),
    "pile_empty": Code(
        "Danger Danger: the team's draw pile is empty.", "Your draw pile is empty: wait, or go out."
    ),
    "already_declared": Code(
        "Danger Danger: the seat's hands are flat already.", "Your hands are flat already."
    ),
    "no_such_stack": Code("Danger Danger: there is no such stack.", "There are 3 stacks."),
    "stack_changed": Code(
        "Danger Danger: the stack shows another card than `on` now; look again.",
        "Stack 2 shows Y5 now, not Y4: look again.",
    ),
    "does_not_fit": Code(
        "Danger Danger: the card fits a stack showing one more or one less.",
        "P6 fits a stack showing one more or one less, not Y3.",
    ),
    "not_a_new_stack_card": Code(
        "Danger Danger: the card held is not a New Stack card.", "P4 is not a New Stack card."
    ),
    "no_swap_card": Code(
        "Danger Danger: the team has no Swap Card.", "Your team has no Swap Card."
    ),
    "not_drafting": Code(
        "High Voltage: the draft is over; play a card.", "The draft is over: play a card."
    ),
    "already_picked": Code(
        "High Voltage: the seat has picked; the others are still choosing.",
        "You have picked; the others are still choosing.",
    ),
    "pick_three": Code(
        "High Voltage: pick exactly 3 different cards.", "Pick exactly 3 different cards."
    ),
    "card_not_offered": Code(
        "High Voltage: a card the seat is not choosing from.",
        "You are not choosing from [44]: pick from [13, 21, 27, 38, 52].",
    ),
    "not_playing": Code(
        "High Voltage: the draft is not over; pick cards.",
        "The draft is not over: pick your cards.",
    ),
    "card_not_in_hand": Code("High Voltage: the seat does not hold that card.", "You hold no 38."),
    # 412
    "stale_seq": Code(
        "The game is at another seq than If-Match named (`seq` is the game's): read it, and "
        "decide again.",
        "The game is at seq 15, not 14.",
        seq=15,
    ),
    # 413, 415
    "body_too_large": Code(
        "The body is larger than this operation takes.", "Request Entity Too Large"
    ),
    "unsupported_media_type": Code(
        "The body is not JSON Lines: send `application/x-ndjson`, `application/jsonl` or "
        "`text/plain`.",
        "Send the export as application/x-ndjson, one event a line (not application/json).",
    ),
    # 422
    "seats_out_of_range": Code(
        "`seats` beyond the game's (in its schema).", "Expected `int` <= 6 - at `$.seats`"
    ),
    "option_out_of_range": Code(
        "An option beyond the bounds its schema gives, or a deck holding more of a kind of "
        "card than it allows.",
        "Expected `float` >= 1.0 - at `$.options.turn_seconds`",
    ),
    "think_ms_out_of_range": Code(
        "`think_ms` beyond the bounds its schema gives.",
        "Expected `int` <= 30000 - at `$.think_ms`",
    ),
    "think_without_bot": Code(
        "`think_ms` without `bot`: only a bot's seat has a think delay.",
        "Only a bot seat has a think delay.",
    ),
    "invalid_deck": Code(
        "A deck no game can be played with: an unknown card, too few cards, a Danger 13 "
        "deck whose rounds might never end, a sandbox `deck` (Danger, High Voltage) that is "
        "not the whole deck.",
        "A deck for 3 seats needs 9+ cards.",
    ),
    "invalid_stack": Code(
        "A sandbox `stack` (Danger 13, Danger Danger) that is not the deck's cards.",
        "The stack must hold exactly the deck's cards, in any order.",
    ),
    "teams_need_four": Code(
        "High Voltage's team mode is played by exactly 4 seats.",
        "Team mode is played by exactly 4 seats.",
    ),
    "idempotency_key_reused": Code(
        "This Idempotency-Key was used with another body (on a command: or another If-Match).",
        "This Idempotency-Key was used with another request body.",
    ),
    # 429
    "rate_limited": Code(
        "Too many requests of this kind from this client: wait `Retry-After` seconds.",
        "Too many command requests from 203.0.113.7: at most 120 per 60 s. Retry after 3 s.",
    ),
    "too_many_streams": Code(
        "Too many streams open from this client (DANGER_STREAMS_PER_CLIENT): close one.",
        "At most 20 streams may be open from one client; close one first.",
    ),
    # 503
    "store_unavailable": Code(
        "The store cannot be reached now (a restart, a failover): retry after "
        "`Retry-After`. A write may or may not have been applied.",
        "The store cannot be reached now; retry shortly. A write may or may not have been "
        "applied: retry it with the same Idempotency-Key, or read the game first.",
    ),
    "contention": Code(
        "Too many concurrent writers on this game: retry shortly.",
        "Too many concurrent writers on this game; retry shortly.",
    ),
    "id_exhausted": Code(
        "No free game id was found: retry.", "Could not allocate a game id; try again."
    ),
    "not_replicated": Code(
        "The write is on the primary but fewer replicas confirmed it in time than "
        "DANGER_DURABILITY=replicas:N asks: it may or may not be kept. Retry with the same "
        "Idempotency-Key (never applied twice), or read the game first.",
        "The command was written but not confirmed by enough replicas (1 of 2 in 500 ms), so "
        "it may or may not be kept. Retry with the same Idempotency-Key: you get its answer "
        "once the replicas confirm it, and it is never applied twice. Without a key, read the "
        "game before sending it again.",
    ),
    "history_lost": Code(
        "The store no longer holds this game's history, which it had acknowledged; the "
        "operator is alerted.",
        "The store no longer holds this game, which it had acknowledged; the operator is alerted.",
    ),
    "busy": Code(
        "The pool for audits, replays, exports and long event pages is full: retry after "
        "`Retry-After`.",
        "Too many audits, replays and exports are running; retry shortly.",
    ),
    "stream_capacity": Code(
        "This server holds as many streams as it may (DANGER_STREAMS_MAX): retry.",
        "This server holds as many streams as it may; retry shortly.",
    ),
}

# What an operation's code means where it means something narrower than CODES says.
OVERRIDES: dict[tuple[str, str], Code] = {
    ("joinGame", "unknown_game"): Code(
        "No game has this id, or it is a private game and the body's `invite` is not its "
        "own (its existence is not confirmed without it).",
        f"There is no game {_game_id('unknown')!r}.",
    ),
    ("joinGame", "token_invalid"): Code(
        "`Authorization` is not `Bearer <token>`.",
        "Send the token as 'Authorization: Bearer <token>'.",
    ),
    ("startGame", "admin_only"): Code(
        "Not the game's admin token.", "Only the game's admin token may start it."
    ),
    ("abandonGame", "admin_only"): Code(
        "Not the game's admin token.", "Only the game's admin token may abandon it."
    ),
    ("abandonGame", "game_not_open"): Code(
        "The game has started (it ends by its rules, or when idle), or is over.",
        "This game is active; it can be abandoned for the reason 'admin' only while open.",
    ),
    ("reissueSeatToken", "admin_only"): Code(
        "Not the game's admin token.", "Only the game's admin token may do this."
    ),
    ("reissueSeatToken", "bot_seat"): Code(
        "The seat is a bot's: the service plays it, it has no token.",
        "A bot's seat has no token: the service plays it.",
    ),
    ("joinGame", "bot_seat"): Code(
        "A join with both a player token and `bot`: a bot's seat counts in no player's record.",
        "A bot's seat counts in no player's record.",
    ),
    ("sendCommand", "no_such_seat"): Code(
        "Danger 13: there is no such seat to give the card to.", "There is no seat 5."
    ),
    ("registerPlayer", "invalid_body"): Code(
        CODES["invalid_body"].meaning, "Object missing required field `name`"
    ),
    ("changeTeam", "invalid_body"): Code(
        CODES["invalid_body"].meaning, "Object contains unknown field `teams`"
    ),
    ("joinGame", "invalid_body"): Code(
        CODES["invalid_body"].meaning, "Expected `str`, got `int` - at `$.name`"
    ),
    ("sendCommand", "invalid_body"): Code(
        CODES["invalid_body"].meaning, "Invalid value 'dance' - at `$.type`"
    ),
    ("auditExport", "body_too_large"): Code(
        "The export is larger than DANGER_AUDIT_UPLOAD_MB.", "Request Entity Too Large"
    ),
}

_RULES_DECIDE = (
    # Every refusal of the games' own rules a seat's command can meet (domain/*/rules.py):
    # their `game_over` and `unknown_command` are met first by the table (`game_not_active`)
    # and the service (`not_this_games_command`).
    "not_your_turn",
    "already_drawn",
    "draw_first",
    "row_protected",
    "row_closed",
    "drawn_colour",
    "too_few_cards",
    "row_empty",
    "smallest_shared",
    "smallest_row",
    "fourth_row_too_short",
    "no_discard_to_take",
    "discard_would_not_place",
    "decision_pending",
    "not_the_dealer",
    "no_such_seat",
    "already_received",
    "nothing_to_decide",
    "not_your_decision",
    "team_out",
    "not_holding",
    "holding_card",
    "not_your_relay",
    "pile_empty",
    "already_declared",
    "no_such_stack",
    "stack_changed",
    "does_not_fit",
    "not_a_new_stack_card",
    "no_swap_card",
    "not_drafting",
    "already_picked",
    "pick_three",
    "card_not_offered",
    "not_playing",
    "card_not_in_hand",
)

_READ_503 = ("store_unavailable", "history_lost")
_OFFLOADED_503 = (*_READ_503, "busy")
_WRITE_503 = ("store_unavailable", "contention", "not_replicated", "history_lost")
_READER = {
    401: ("token_invalid",),
    403: ("token_for_other_game",),
}

ERRORS: dict[str, dict[int, tuple[str, ...]]] = {
    "createGame": {
        400: ("invalid_body", "invalid_idempotency_key", "invalid_parameter"),
        401: ("key_missing", "key_invalid", "key_revoked"),
        403: ("sandbox_only",),
        409: ("too_many_open_games", "idempotency_key_in_use"),
        413: ("body_too_large",),
        422: (
            "seats_out_of_range",
            "option_out_of_range",
            "invalid_deck",
            "invalid_stack",
            "teams_need_four",
            "idempotency_key_reused",
        ),
        429: ("rate_limited",),
        503: ("store_unavailable", "id_exhausted", "not_replicated"),
    },
    "listGames": {
        400: ("invalid_parameter", "invalid_cursor"),
        429: ("rate_limited",),
        503: ("store_unavailable",),
    },
    "getGame": {
        400: ("invalid_parameter",),
        **_READER,
        404: ("unknown_game",),
        429: ("rate_limited",),
        503: _READ_503,
    },
    "joinGame": {
        400: ("invalid_body", "invalid_name", "invalid_idempotency_key", "invalid_parameter"),
        401: ("token_invalid", "player_token_invalid", "key_invalid", "key_revoked"),
        404: ("unknown_game",),
        409: (
            "game_not_open",
            "game_full",
            "name_taken",
            "bot_seat",
            "already_seated",
            "no_teams",
            "no_such_team",
        ),
        413: ("body_too_large",),
        422: ("think_ms_out_of_range", "think_without_bot", "idempotency_key_reused"),
        429: ("rate_limited",),
        503: _WRITE_503,
    },
    "startGame": {
        400: ("invalid_idempotency_key", "invalid_parameter"),
        401: ("token_missing", "token_invalid"),
        403: ("admin_only", "token_for_other_game"),
        404: ("unknown_game",),
        409: ("game_not_open", "seats_not_filled", "team_size"),
        422: ("idempotency_key_reused",),
        429: ("rate_limited",),
        503: _WRITE_503,
    },
    "abandonGame": {
        400: ("invalid_idempotency_key", "invalid_parameter"),
        401: ("token_missing", "token_invalid"),
        403: ("admin_only", "token_for_other_game"),
        404: ("unknown_game",),
        409: ("game_not_open",),
        422: ("idempotency_key_reused",),
        429: ("rate_limited",),
        503: _WRITE_503,
    },
    "sendCommand": {
        400: ("invalid_body", "invalid_if_match", "invalid_idempotency_key", "invalid_parameter"),
        401: ("token_missing", "token_invalid"),
        403: ("seat_only", "token_for_other_game"),
        404: ("unknown_game",),
        409: ("game_not_active", "not_this_games_command", "too_late", *_RULES_DECIDE),
        412: ("stale_seq",),
        413: ("body_too_large",),
        422: ("idempotency_key_reused",),
        429: ("rate_limited",),
        503: _WRITE_503,
    },
    "listEvents": {
        400: ("invalid_parameter",),
        **_READER,
        404: ("unknown_game",),
        429: ("rate_limited",),
        503: _OFFLOADED_503,
    },
    "streamEvents": {
        400: ("invalid_parameter",),
        **_READER,
        404: ("unknown_game",),
        429: ("rate_limited", "too_many_streams"),
        503: (*_READ_503, "stream_capacity"),
    },
    "replayGame": {
        400: ("invalid_parameter",),
        **_READER,
        404: ("unknown_game", "no_such_event"),
        429: ("rate_limited",),
        503: _OFFLOADED_503,
    },
    "exportGame": {
        400: ("invalid_parameter",),
        **_READER,
        404: ("unknown_game",),
        429: ("rate_limited",),
        503: _OFFLOADED_503,
    },
    "auditGame": {
        400: ("invalid_parameter",),
        404: ("unknown_game",),
        429: ("rate_limited",),
        503: _OFFLOADED_503,
    },
    "getRound": {
        400: ("invalid_parameter",),
        **_READER,
        404: ("unknown_game", "no_such_round"),
        429: ("rate_limited",),
        503: _OFFLOADED_503,
    },
    "leaveSeat": {
        400: ("invalid_idempotency_key", "invalid_parameter"),
        401: ("token_missing", "token_invalid"),
        403: ("token_for_other_game",),
        404: ("unknown_game",),
        409: ("game_not_open", "no_such_seat", "not_your_seat"),
        422: ("idempotency_key_reused",),
        429: ("rate_limited",),
        503: _WRITE_503,
    },
    "changeTeam": {
        400: ("invalid_body", "invalid_idempotency_key", "invalid_parameter"),
        401: ("token_missing", "token_invalid"),
        403: ("token_for_other_game",),
        404: ("unknown_game",),
        409: ("game_not_open", "no_such_seat", "not_your_seat", "no_teams", "no_such_team"),
        413: ("body_too_large",),
        422: ("idempotency_key_reused",),
        429: ("rate_limited",),
        503: _WRITE_503,
    },
    "reissueSeatToken": {
        400: ("invalid_parameter",),
        401: ("token_missing", "token_invalid"),
        403: ("admin_only", "token_for_other_game"),
        404: ("unknown_game",),
        409: ("no_such_seat", "bot_seat", "game_over"),
        429: ("rate_limited",),
        503: _WRITE_503,
    },
    "registerPlayer": {
        400: ("invalid_body", "invalid_name"),
        401: ("key_missing", "key_invalid", "key_revoked"),
        413: ("body_too_large",),
        429: ("rate_limited",),
        503: ("store_unavailable",),
    },
    "getPlayer": {
        400: ("invalid_parameter",),
        404: ("unknown_player",),
        429: ("rate_limited",),
        503: ("store_unavailable",),
    },
    "auditExport": {
        400: ("empty_export",),
        413: ("body_too_large",),
        415: ("unsupported_media_type",),
        429: ("rate_limited",),
        503: ("store_unavailable", "busy"),
    },
}
"""operationId -> status -> every code the operation answers with it."""

RETRY_AFTER = {
    "rate_limited",
    "idempotency_key_in_use",
    "store_unavailable",
    "not_replicated",
    "busy",
}
"""The codes whose answer carries `Retry-After`."""


def code_of(operation: str, code: str) -> Code:
    return OVERRIDES.get((operation, code), CODES[code])


def _rate_limited(method: str, path: str) -> str:
    """The refusal of the rate limiter (service/ratelimit.py) at the default rates."""
    kind = kind_of(method.upper(), path) or "read"
    rate = getattr(Rates(), kind)
    return (
        f"Too many {kind} requests from 203.0.113.7: at most {rate.requests} per "
        f"{rate.seconds} s. Retry after 1 s."
    )


def problem_examples(operation: str, status: int, method: str, path: str) -> dict[str, Example]:
    """One example per code the operation (`method` `path`) answers with `status`, named by
    the code."""
    out = {}
    for code in ERRORS[operation][status]:
        about = code_of(operation, code)
        detail = _rate_limited(method, path) if code == "rate_limited" else about.detail
        value = problem_body(status, code, detail, about.seq)
        out[code] = Example(about.meaning, msgspec.to_builtins(value))
    return out


def problem_description(operation: str, status: int, lead: str) -> str:
    """The status's description: its lead, then every code with what it means."""
    lines = [
        f"- `{code}`: {code_of(operation, code).meaning}" for code in ERRORS[operation][status]
    ]
    return "\n".join([lead, "", *lines])


assert all(status in TITLES for codes in ERRORS.values() for status in codes)
