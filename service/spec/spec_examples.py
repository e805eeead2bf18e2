"""The spec's examples: for every request body, parameter and response of every operation,
by operationId (applied by service/spec/openapi_spec.py).

The success bodies cannot drift from what the service answers: each is the service's own
response struct (service/wire/schemas.py), filled from games played here, in this process, by
the same rules, folds, envelopes, redaction and projection folds the service uses, only
without a store: at fixed times, with fixed seeds and ids, so that every build writes the
same spec. The problem answers are one example per code an operation answers with each
status (service/spec/error_codes.py), each made by service/http/problems.py as every real problem
is. tests/api validates every example against its schema.
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
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from litestar.response.sse import ServerSentEventMessage

from domain.kernel import AUDITOR, SPECTATOR, Command, Event, Viewer, commitment
from domain.kernel import table as tables
from domain.registry import GAMES
from events import merkle
from events.audit import audit_export
from events.envelope import GENESIS, Envelope, canonical, read_folded, seal
from service.http import leaderboards_api
from service.http.answers import (
    command_result,
    envelope_out,
    game_out,
)
from service.http.players_api import entry_out
from service.http.problems import body as problem_body
from service.infra import request_context
from service.infra.clock import StoreClock, stamp
from service.infra.signing import Signer
from service.live import streams
from service.play import offload, players
from service.play.game_model import Game, Outcome, fold_log
from service.play.games import GameService
from service.play.receipts import signed_receipt
from service.play.seat_state import view_message
from service.play.transparency_log import signed_head
from service.play.write_path import seal_all
from service.readmodels import player_games, ratings
from service.readmodels.lobby import LobbyGame, cursor_of, fold_summary
from service.readmodels.records import player_results_of
from service.readmodels.rounds import fold_rounds
from service.spec.error_codes import ERRORS, code_of, rate_limited_detail
from service.wire import bodies as bodies_module
from service.wire.quick_play_schemas import QuickPlayOut, SeatOut, SeatRange
from service.wire.rating_schemas import Leaderboard, LeaderboardRow
from service.wire.schemas import (
    CacheUse,
    CommandResult,
    ConsistencyProof,
    Created,
    CreateGame,
    DurabilityInForce,
    EventPage,
    GameCommand,
    GameOut,
    GameStats,
    Health,
    InclusionProof,
    Joined,
    JoinGame,
    Lag,
    Lobby,
    LobbyEntry,
    LogEntries,
    LogEntry,
    LogLeaf,
    NewSeatToken,
    PlayerGames,
    PlayerNotice,
    PlayerStats,
    QueueServerStatus,
    Receipt,
    Registered,
    RegisterPlayer,
    RematchOut,
    Replayed,
    RoundSummary,
    SigningKey,
    SigningKeys,
    TaskStatus,
    TeamChange,
    TreeHead,
)
from service.wire.webhook_schemas import AttemptOut, DeliveryOut, WebhookOut

T = TypeVar("T")
JSON = "application/json"
EXPORT = "application/x-ndjson"


@dataclass(frozen=True)
class Example:
    """One named example: what the spec shows as its summary, and its value."""

    summary: str
    value: Any


# Ids and secrets ---------------------------------------------------------------------------
# Each has the shape the service gives it (service/play/games.py, tokens.py, players.py), but is
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
RIVALS = [_player_id("berta"), _player_id("carl")]
PLAYER_TOKEN = f"{players.PREFIX}{PLAYER_ID}_{_urlsafe('anton/token', 32)}"
IDEMPOTENCY_KEY = "7c0e4a4e-5b8f-4d0c-9a51-3f1f2b6c8d93"
REQUEST_ID = "b7e2c9d4-5f1a-4e3b-9c8d-2a6f0e1b3c57"
"""A client's own X-Request-ID (a UUID is typical); without one, the service makes its own."""
MADE_REQUEST_ID = "req_" + _digest("request").hex()[:20]


# Games played here -------------------------------------------------------------------------


# The service's own views of a game; they read no store.
_VIEWS = GameService(None, False, clock=StoreClock(None))  # type: ignore[arg-type]  # no store: views only


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


# The examples' receipts are signed with a key of their own, made from a fixed seed, so that
# the committed spec is the same on every build.
_SIGNER = Signer(Ed25519PrivateKey.from_private_bytes(hashlib.sha256(b"examples").digest()))


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
        self, actor: tables.Actor, command: Command, seconds: float = 2.2, requested: bool = True
    ) -> list[tuple[Envelope, Event]]:
        """The command decided and its events appended, `seconds` after the last; sent by a
        client (`requested`), or by the service itself (a bot's move, a timer)."""
        self.at += timedelta(seconds=seconds)
        game = self.game
        events = tables.decide(
            game.table,
            game.rules,
            command,
            actor,
            game.shuffler(),
            game.setup_options,
        )
        label = f"seat:{actor}" if isinstance(actor, int) else actor
        request = f"{self.label}/{game.seq}" if requested else None
        sealed = _in_request(
            request, lambda: seal_all(game, events, stamp(self.at), label, None, command)
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
        return [envelope_out(self.game.readable(e, viewer, event)) for e, event in pairs]

    def out(self, viewer: Viewer, written: bool = False) -> GameOut:
        """The game as GET /v1/games/{id} answers `viewer`; as a write answers it, with its
        receipt, if `written`."""
        return game_out(_VIEWS, self.game, viewer, self.receipt() if written else None)

    def receipt(self) -> Receipt:
        """The receipt of the game's last write."""
        game = self.game
        return signed_receipt(_SIGNER, self.id, game.seq, game.head, game.last_at)

    def result(self, appended: list[tuple[Envelope, Event]], viewer: Viewer) -> CommandResult:
        """A command's answer to `viewer`."""
        shown = [self.game.readable(e, viewer, event) for e, event in appended]
        outcome = Outcome(self.game, shown, viewer, _VIEWS.view(self.game, viewer))
        return command_result(outcome, self.receipt())

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
            receipt=self.receipt(),
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
    resigned: _Table  # Danger, 2 seats, won by seat 0 when seat 1 resigned
    resigned_out: GameOut
    rematch: RematchOut  # the resigned game's table plays again
    abandoned: _Table  # Danger, abandoned by its admin before the start
    abandoned_out: GameOut
    private: Created
    private_table: _Table  # Danger, private, open
    views: dict[str, GameOut]  # every other game mid-play, as seat 0 reads it


INVITE = _urlsafe("private/invite", 16)


@functools.cache
def played() -> _Played:
    """The games every example is read from, played once per process."""
    dice = random.Random(2026)
    main = _Table("main", "danger", 3, STARTED, options={"turn_seconds": 90})
    created = main.created()
    main.act("anyone", tables.Join(name="Anton", entropy="a2f9c4e1", player=PLAYER_ID), 41.3)
    joined = Joined(seat=0, token=_token(main.id, "0"), seq=main.game.seq, receipt=main.receipt())
    main.act("anyone", tables.Join(name="Berta"), 17.8)
    main.act("anyone", tables.Join(name="Carla", bot="greedy"), 9.1)
    bot_joined = Joined(seat=2, token=None, seq=main.game.seq, receipt=main.receipt())
    main.act("admin", tables.Start(), 12.5)
    started = main.out(SPECTATOR, written=True)
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
    team_changed = teams.out(2, written=True)
    teams.act("admin", tables.ReissueToken(seat=0), 31.7)
    reissued = NewSeatToken(
        seat=0, token=_token(teams.id, "0", issued=2), seq=teams.game.seq, receipt=teams.receipt()
    )
    teams.act("admin", tables.Leave(seat=1), 8.2)
    seat_left = teams.out(SPECTATOR, written=True)

    resigned = _Table("resigned", "danger", 2, STARTED - timedelta(minutes=47, seconds=5))
    resigned.act("anyone", tables.Join(name="Anton", seat=1), 12.6)
    resigned.act("anyone", tables.Join(name="Berta"), 20.1)
    resigned.act("admin", tables.Start(), 7.3)
    resigned.play(dice, commands=4)
    resigned.act(1, tables.Resign(seat=1), 5.9)
    resigned_out = resigned.out(1, written=True)
    again = _Table("rematch", "danger", 2, resigned.at + timedelta(seconds=48.2))
    rematch = RematchOut(
        id=again.id,
        game="danger",
        status="open",
        seats=2,
        seq=1,
        rematch_of=resigned.id,
        admin_token=_token(again.id, "admin"),
        receipt=again.receipt(),
    )

    abandoned = _Table("abandoned", "danger", 3, STARTED - timedelta(hours=1, minutes=12))
    abandoned.act("anyone", tables.Join(name="Anton"), 33.0)
    abandoned.act("admin", tables.Abandon(reason="admin"), 95.4)
    abandoned_out = abandoned.out(SPECTATOR, written=True)

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
        resigned=resigned,
        resigned_out=resigned_out,
        rematch=rematch,
        abandoned=abandoned,
        abandoned_out=abandoned_out,
        private=private.created(invite=INVITE),
        private_table=private,
        views=_game_views(),
    )


def _notices(main: _Table, seq: int) -> dict[str, str]:
    """A player's stream as it tells of the player's game (Anton's, seat 0) at `seq`."""
    told = [
        PlayerNotice(kind, main.id, main.rules.name, 0, "active", seq) for kind in ("game_started",)
    ]
    sse = b"".join(
        ServerSentEventMessage(data=msgspec.json.encode(n).decode(), event=n.type).encode()
        for n in told
    )
    lines = b"".join(msgspec.json.encode(n) + b"\n" for n in told)
    return {"sse": sse.decode(), "lines": lines.decode()}


def _game_views() -> dict[str, GameOut]:
    """The other games mid-play, as seat 0 reads them: their views share `round`, `turn`,
    `to_act`, `totals` and `winners` with Danger's (docs/views.md)."""
    dice = random.Random(38)
    views = {}
    for name, seats, commands in (
        ("high-voltage", 3, 14),
        ("danger-13", 3, 5),
        ("danger-danger", 4, 9),
    ):
        table = _Table(f"views/{name}", name, seats, STARTED + timedelta(hours=2))
        for seat in range(seats):
            table.act("anyone", tables.Join(name=NAMES[seat]), 12.0)
        table.act("admin", tables.Start(), 5.0)
        table.play(dice, commands)
        views[name] = table.out(0)
    return views


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
    shown = [
        main.game.readable(e, 0, event)
        for e, event in zip(main.log[cause:], main.events[cause:], strict=True)
    ]
    view = view_message(_VIEWS, main.game, 0)
    seat_frames = b"".join(streams.encode(e) for e in shown) + streams.encode_view(view, False)
    seat_lines = b"".join(streams.encode(e, True) for e in shown) + streams.encode_view(view, True)
    return {
        "stream_view": seat_frames.decode(),
        "stream_lines": seat_lines.decode(),
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
    listed = player_games.fold(main.id, [read_folded(raw) for raw in main.raw()])
    entry = listed.entries[PLAYER_ID]
    return {
        "player_game": entry,
        "player_games": PlayerGames(
            player=PLAYER_ID,
            games=[entry_out(entry)],
            total=1,
            limit=20,
            includes_private=False,
        ),
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


def _leaderboard() -> tuple[Leaderboard, str]:
    """Danger's leaderboard after three rated games of Anton, Berta and Carl (Anton won two,
    Berta one; the third a game of three), and the cursor after its first row."""
    finished = datetime(2026, 12, 6, 12, tzinfo=UTC)
    played = [
        ([[PLAYER_ID], [RIVALS[0]]], [0, 1]),
        ([[RIVALS[0]], [RIVALS[1]]], [0, 1]),
        ([[PLAYER_ID], [RIVALS[0]], [RIVALS[1]]], [0, 1, 2]),
    ]
    now: dict[str, ratings.PlayerRating] = {}
    for n, (sides, places) in enumerate(played):
        at = int((finished + timedelta(minutes=20 * n)).timestamp() * 1000)
        game = ratings.RatedGame(
            _game_id(f"rated{n}"),
            "danger",
            at,
            [ratings.RatedSide(side, place) for side, place in zip(sides, places, strict=True)],
        )
        now.update(ratings.applied(game, now))
    order = sorted(now, key=lambda p: (now[p].rating, p), reverse=True)
    names = {PLAYER_ID: "Anton", RIVALS[0]: "Berta", RIVALS[1]: "Carl"}
    rows = [
        LeaderboardRow(
            rank=n + 1,
            player=p,
            name=names[p],
            rating=round(now[p].rating, 1),
            deviation=round(now[p].deviation, 1),
            games=now[p].games,
            provisional=now[p].provisional,
        )
        for n, p in enumerate(order)
    ]
    board = Leaderboard(game="danger", players=rows, total=3, limit=20, you=rows[-1])
    return board, leaderboards_api.cursor_of(now[order[0]].rating, order[0])


# Request bodies ----------------------------------------------------------------------------


def _create_bodies() -> dict[str, Example]:
    deck = msgspec.to_builtins(GAMES["danger-13"].options_type().deck)  # type: ignore[attr-defined]  # Danger 13's
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
    """POST /v1/audit's body, for every media type it takes (service/http/audit_api.py)."""
    return {
        "abandoned": Example(
            "The export of a game abandoned before its start: its whole log", _export_body()
        )
    }


def audit_upload_with_receipts() -> dict[str, Example]:
    """POST /v1/audit's body as JSON: the export and a receipt its client kept."""
    abandoned = played().abandoned
    upload = {"export": _export_body(), "receipts": [msgspec.to_builtins(abandoned.receipt())]}
    return {"with_receipts": Example("The export and the receipt of its last answer", upload)}


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
        "createWebhook": {
            JSON: {
                "finished": Example(
                    "Games finished and abandoned, of every kind",
                    {"url": WEBHOOK_URL, "events": ["game.finished", "game.abandoned"]},
                ),
                "turns": Example(
                    "Whose turn it is in Danger 13 games",
                    {"url": WEBHOOK_URL, "events": ["turn.changed"], "games": ["danger-13"]},
                ),
            }
        },
        "requestQuickPlay": {
            JSON: {
                "four": Example("Danger for four", {"game": "danger", "seats": 4}),
                "band": Example(
                    "Danger 13 for three to five, opponents within 200 points",
                    {"game": "danger-13", "seats": {"min": 3, "max": 5}, "band": 200},
                ),
                "for": Example(
                    "With the app key that registered the player, on their behalf",
                    {"game": "high-voltage", "seats": 2, "player": PLAYER_ID},
                ),
            }
        },
        "changeWebhook": {
            JSON: {
                "pause": Example("Hold its deliveries", {"paused": True}),
                "resume": Example("Send them again, in order", {"paused": False}),
                "events": Example(
                    "Hear of starts too", {"events": ["game.started", "game.finished"]}
                ),
            }
        },
    }


# Webhooks: fixed, so that the spec is the same on every build.
WEBHOOK_URL = "https://app.example/danger-hall/hooks"
WEBHOOK_ID = "wh_k3v9q2m7x1p4b8n6"
WEBHOOK_SECRET = "whsec_" + base64.b64encode(bytes(range(24))).decode()
DELIVERY_ID = "msg_7f3a9c1e5b2d8f4a6c0e1b3d"


QUICK_PLAY_ID = "qp_4f2x9kq1ZyQm3w0b"
QUICK_GAME = _game_id("quick")
QUICK_SEAT = SeatOut(game=QUICK_GAME, seat=2, token=_token(QUICK_GAME, "2"))


def _quick_play(**changes: Any) -> QuickPlayOut:
    asked = QuickPlayOut(
        id=QUICK_PLAY_ID,
        status="waiting",
        game="danger",
        seats=SeatRange(min=4, max=4),
        player=PLAYER_ID,
        rating=1500.0,
        made_at="2026-12-06T12:00:00.000Z",
        expires_at="2026-12-06T12:05:00.000Z",
    )
    return msgspec.structs.replace(asked, **changes)


def _webhook(**changes: Any) -> WebhookOut:
    made = WebhookOut(
        id=WEBHOOK_ID,
        url=WEBHOOK_URL,
        events=["game.abandoned", "game.finished"],
        games=[],
        created_at="2026-12-01T09:00:00.000Z",
    )
    return msgspec.structs.replace(made, **changes)


def _deliveries(game_id: str) -> list[DeliveryOut]:
    return [
        DeliveryOut(
            id=DELIVERY_ID,
            type="game.finished",
            game=game_id,
            seq=214,
            status="queued",
            attempts=2,
            created_at="2026-12-01T09:30:00.000Z",
            next_attempt_at="2026-12-01T09:32:35.000Z",
            tried=[
                AttemptOut(at="2026-12-01T09:30:05.210Z", ms=3002, error="ReadTimeout: timed out"),
                AttemptOut(at="2026-12-01T09:30:00.120Z", ms=12, status=503, answer="busy"),
            ],
        )
    ]


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
        "getWebhook": {"webhook_id": {"webhook": Example("A webhook's id", WEBHOOK_ID)}},
        "changeWebhook": {"webhook_id": {"webhook": Example("A webhook's id", WEBHOOK_ID)}},
        "deleteWebhook": {"webhook_id": {"webhook": Example("A webhook's id", WEBHOOK_ID)}},
        "rotateWebhookSecret": {"webhook_id": {"webhook": Example("A webhook's id", WEBHOOK_ID)}},
        "listWebhookDeliveries": {"webhook_id": {"webhook": Example("A webhook's id", WEBHOOK_ID)}},
        "replayWebhookDelivery": {
            "webhook_id": {"webhook": Example("A webhook's id", WEBHOOK_ID)},
            "delivery_id": {"delivery": Example("A delivery's id (its webhook-id)", DELIVERY_ID)},
        },
        "listGames": {
            "mine": {"mine": Example("The caller's own games, private ones too", True)},
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
            "Prefer": {
                "minimal": Example(
                    "A 204 with the new seq in ETag: the client follows the stream",
                    "return=minimal",
                )
            },
        },
        "listEvents": {
            "after": {"start": Example("From the first event", 0)},
            "limit": {"page": Example("At most 100 events", 100)},
        },
        "streamEvents": {
            "view": {"views": Example("With the caller's view after each write", True)},
            "after": {"resume": Example("The events after this seq", snap["stream_after"])},
            "Last-Event-ID": {
                "resume": Example(
                    "A reconnect resumes after the last event it had", str(snap["stream_after"])
                )
            },
        },
        "replayGame": {"seq": {"deal": Example("The game just after the deal", REPLAY_SEQ)}},
        "logEntries": {
            "start": {"first": Example("From the first leaf", 0)},
            "end": {"four": Example("Up to the fourth", 4)},
        },
        "logInclusionProof": {"size": {"head": Example("The tree of a head kept", 4)}},
        "logConsistencyProof": {
            "first": {"kept": Example("The size of the head a monitor kept", 2)},
            "second": {"latest": Example("The size of the latest head", 4)},
        },
        "getQuickPlay": {
            "request_id": {"one": Example("A request's id", QUICK_PLAY_ID)},
            "wait": {"poll": Example("Wait up to 30 s for a seat", 30)},
        },
        "cancelQuickPlay": {"request_id": {"one": Example("A request's id", QUICK_PLAY_ID)}},
        "getLeaderboard": {
            "game": {"danger": Example("Danger's", "danger")},
            "limit": {"page": Example("20 a page (the default)", 20)},
            "cursor": {"next": Example("The `next` of the previous page", _leaderboard()[1])},
            "player": {"mine": Example("With this player's own row", RIVALS[1])},
        },
        "listPlayerGames": {
            "game": {"danger": Example("Danger only", "danger")},
            "result": {"won": Example("The games the player won", "won")},
            "limit": {"page": Example("20 a page (the default)", 20)},
            "cursor": {
                "next": Example(
                    "The `next` of the previous page",
                    player_games.cursor_of(p.finished["player_game"]),
                )
            },
        },
        "exportPlayerGames": {
            "game": {"danger": Example("Danger only", "danger")},
            "result": {"lost": Example("The games the player lost", "lost")},
            "max": {"hundred": Example("The newest 100 games at most", 100)},
        },
        "leaveSeat": {"game_id": teams, "seat": {"second": Example("The second seat", 1)}},
        "changeTeam": {"game_id": teams, "seat": {"third": Example("The third seat", 2)}},
        "reissueSeatToken": {"game_id": teams, "seat": {"first": Example("The first seat", 0)}},
        "rematchGame": {"game_id": {"game": Example("A finished game", p.resigned.id)}},
        "resignSeat": {
            "game_id": {"game": Example("A Danger game of two seats", p.resigned.id)},
            "seat": {"second": Example("The second seat", 1)},
        },
        "health": {
            "fresh": {
                "snapshot": Example("From the snapshot (anyone)", False),
                "fresh": Example("Found now (the operators')", True),
            }
        },
    }


@functools.cache
def transparency() -> dict[str, Any]:
    """A transparency log of the examples' games, built as the service builds one: the
    abandoned game's final head, the open teams game's checkpoint, then the main game's
    final head and the private game's checkpoint, each batch's tree head signed with the
    examples' key."""
    p = played()
    tables = [(p.abandoned, True), (p.teams, False), (p.main, True), (p.private_table, False)]
    leaves = [
        LogLeaf(final=final, game=t.id, hash=t.game.head, seq=t.game.seq) for t, final in tables
    ]
    nodes: dict[merkle.Node, bytes] = {}
    hashes = [merkle.leaf_hash(canonical(leaf)) for leaf in leaves]
    nodes.update(merkle.appended(0, hashes[:2], nodes.__getitem__))
    nodes.update(merkle.appended(2, hashes[2:], nodes.__getitem__))

    def head(size: int, at: str) -> TreeHead:
        root = merkle.range_hash(0, size, nodes.__getitem__).hex()
        return signed_head(_SIGNER, "danger-hall", size, root, at)

    def path(ranges: list[tuple[int, int]]) -> list[str]:
        return [merkle.range_hash(a, b, nodes.__getitem__).hex() for a, b in ranges]

    first, latest = head(2, p.teams.game.last_at), head(4, p.main.game.last_at)
    key = SigningKey(
        id=_SIGNER.key_id,
        algorithm="ed25519",
        public_key=_SIGNER.public_key,
        added=p.abandoned.log[0].at,
    )
    return {
        "keys": SigningKeys(current=_SIGNER.key_id, keys=[key]),
        "first": first,
        "head": latest,
        "entries": LogEntries(
            entries=[LogEntry(index=i, leaf=leaf) for i, leaf in enumerate(leaves)], size=4
        ),
        "proof": InclusionProof(
            index=2,
            size=4,
            leaf=leaves[2],
            path=path(merkle.inclusion_ranges(2, 4)),
            head=latest,
        ),
        "consistency": ConsistencyProof(
            first=2, second=4, path=path(merkle.consistency_ranges(2, 4))
        ),
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
    own = sorted([p.private_table.lobby_entry(), teams_entry], key=lambda g: g.created_at)
    mine_page = Lobby(games=own[::-1], total=2, limit=20, offset=0)
    log = transparency()
    audit_ok = audit_export(_export_body().encode())
    tampered = _export_body().replace('"name":"Anton"', '"name":"Anna"', 1)
    audit_bad = audit_export(tampered.encode())
    notices = _notices(p.main, snap["as_seat"].seq)
    return {
        "streamPlayer": {
            "200": {
                "text/event-stream": {
                    "notices": Example(
                        "A game of the player's, running (as told at its start or on connecting)",
                        notices["sse"],
                    )
                },
                "application/x-ndjson": {
                    "notices": Example("The same, as a line", notices["lines"])
                },
            }
        },
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
                    "mine": Example(
                        "The caller's own open games (mine=true&status=open), a private one too",
                        _encode(mine_page),
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
                    **{
                        name.replace("-", "_"): Example(
                            f"{GAMES[name].title}, as seat 0 sees it", _encode(out)
                        )
                        for name, out in p.views.items()
                    },
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
                    "events": Example("A command's events as they are appended", snap["stream"]),
                    "view": Example(
                        "With view=true, as seat 0 reads it: the events, then the seat's view",
                        snap["stream_view"],
                    ),
                },
                "application/x-ndjson": {
                    "lines": Example(
                        "With view=true and Accept: application/x-ndjson, as seat 0 reads it",
                        snap["stream_lines"],
                    )
                },
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
        "rematchGame": {
            "200": {
                JSON: {
                    "made": Example(
                        "The first request made the game: its admin token, once",
                        _encode(p.rematch),
                    ),
                    "found": Example(
                        "Any later request, from anyone at the table: the same game",
                        _encode(msgspec.structs.replace(p.rematch, admin_token=None, receipt=None)),
                    ),
                }
            }
        },
        "resignSeat": {
            "200": {
                JSON: {
                    "resigned": Example(
                        "Seat 1 resigned a game of two seats: seat 0 won at once, and the "
                        "log is revealed",
                        _encode(p.resigned_out),
                    )
                }
            }
        },
        "requestQuickPlay": {
            "201": {
                JSON: {
                    "waiting": Example("Waiting for three more", _encode(_quick_play())),
                    "seated": Example(
                        "The request that completed a game: seated at once",
                        _encode(_quick_play(status="seated", seated=QUICK_SEAT)),
                    ),
                }
            }
        },
        "getQuickPlay": {
            "200": {
                JSON: {
                    "seated": Example(
                        "Seated: the game, the seat and its token",
                        _encode(_quick_play(status="seated", seated=QUICK_SEAT)),
                    ),
                    "expired": Example(
                        "Nobody came in time", _encode(_quick_play(status="expired"))
                    ),
                }
            }
        },
        "createWebhook": {
            "201": {
                JSON: {
                    "made": Example(
                        "The new endpoint and its secret, shown once",
                        _encode(_webhook(secret=WEBHOOK_SECRET)),
                    )
                }
            }
        },
        "listWebhooks": {
            "200": {JSON: {"one": Example("The key's endpoints", _encode([_webhook()]))}}
        },
        "getWebhook": {
            "200": {
                JSON: {
                    "failing": Example(
                        "An endpoint whose receiver fails",
                        _encode(_webhook(failing_since="2026-12-01T09:30:00.120Z")),
                    ),
                    "paused": Example(
                        "Paused after failing for the whole retry window",
                        _encode(
                            _webhook(
                                paused="every delivery failed for 72 h; the last: HTTP 503",
                                failing_since="2026-11-28T09:30:00.120Z",
                            )
                        ),
                    ),
                }
            }
        },
        "changeWebhook": {
            "200": {
                JSON: {
                    "paused": Example(
                        "Paused by its owner", _encode(_webhook(paused="paused by its owner"))
                    )
                }
            }
        },
        "rotateWebhookSecret": {
            "200": {
                JSON: {
                    "rotated": Example(
                        "The new secret, shown once", _encode(_webhook(secret=WEBHOOK_SECRET))
                    )
                }
            }
        },
        "listWebhookDeliveries": {
            "200": {
                JSON: {
                    "retrying": Example(
                        "A delivery being tried again", _encode(_deliveries(p.main.id))
                    )
                }
            }
        },
        "replayWebhookDelivery": {
            "200": {
                JSON: {
                    "queued": Example(
                        "A delivery queued again",
                        _encode(
                            msgspec.structs.replace(
                                _deliveries(p.main.id)[0], status="queued", next_attempt_at=None
                            )
                        ),
                    )
                }
            }
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
        "signingKeys": {"200": {JSON: {"keys": Example("One key, current", _encode(log["keys"]))}}},
        "logHead": {
            "200": {JSON: {"head": Example("A tree of four leaves", _encode(log["head"]))}}
        },
        "logEntries": {
            "200": {JSON: {"leaves": Example("Four game heads", _encode(log["entries"]))}}
        },
        "logInclusionProof": {
            "200": {
                JSON: {
                    "final": Example(
                        "A finished game's final head, in the latest tree", _encode(log["proof"])
                    )
                }
            }
        },
        "logConsistencyProof": {
            "200": {
                JSON: {
                    "grown": Example(
                        "The tree of two leaves inside the tree of four",
                        _encode(log["consistency"]),
                    )
                }
            }
        },
        "getLeaderboard": {
            "200": {
                JSON: {
                    "board": Example(
                        "Three players after three games, and Carl's own row",
                        _encode(_leaderboard()[0]),
                    )
                }
            }
        },
        "getPlayer": {
            "200": {
                JSON: {"record": Example("A player with one finished game", _encode(end["record"]))}
            }
        },
        "listPlayerGames": {
            "200": {
                JSON: {
                    "games": Example(
                        "A player's games, as anyone reads them", _encode(end["player_games"])
                    )
                }
            }
        },
        "exportPlayerGames": {
            "200": {
                EXPORT: {
                    "games": Example(
                        "One game a line",
                        msgspec.json.encode(end["player_games"].games[0]).decode() + "\n",
                    )
                }
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
    beat = "Dec-01 21:35:54 j_complete=412 j_failed=0 j_retried=2 j_ongoing=0 queued=0"
    idle = Lag(entries=0, ms=0, dead_letters=0, errors=0)
    running = TaskStatus(
        state="running", restarts=0, errors=0, last_error=None, failing_seconds=None
    )
    groups = ("lobby", "rounds", "players", "player_games")
    tasks = {f"projection:{group}": running for group in groups}
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
        projections={group: idle for group in groups},
        tasks=tasks,
        worker=beat if well else None,
        queues=[
            QueueServerStatus(
                server="queue-0.internal:6379",
                state="ok" if well else "idle",
                worker=beat if well else None,
            )
        ],
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


def problem_examples(operation: str, status: int, method: str, path: str) -> dict[str, Example]:
    """One example per code the operation (`method` `path`) answers with `status`, named by
    the code."""
    out = {}
    for code in ERRORS[operation][status]:
        about = code_of(operation, code)
        detail = rate_limited_detail(method, path) if code == "rate_limited" else about.detail
        value = problem_body(status, code, detail, about.seq)
        out[code] = Example(about.meaning, msgspec.to_builtins(value))
    return out
