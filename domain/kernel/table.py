"""The table every game is played at: created, seats joined, started, finished or abandoned.

This is the shared part of the Decider. Game commands are handed to the game's own
`decide`; the table only checks that the game is running and, when the game's final
event (or its abandonment) is decided, reveals the server seed so anyone can audit the
shuffles.
"""

from __future__ import annotations

import unicodedata
from typing import Any, ClassVar, Literal

import msgspec

from .bots import BOT_NAMES
from .errors import RuleViolation
from .fairness import ALGORITHM, Shuffler
from .game import GameRules, Timer, scratch_copy
from .messages import AUDITOR, Command, Event, Viewer
from .shared_view import nobody_acts

NAME_MAX = 40
ENTROPY_MAX = 256
DEFAULT_THINK_MS = 1000
MAX_THINK_MS = 30_000
RESIGNED_BOT = "greedy"
"""The bot that plays a resigned seat on."""
DEFAULT_IDLE_MINUTES = 60.0
"""RULINGS: a game with no seat command for `idle_minutes` (a game option; default 60) ends."""


class GameCreated(Event, frozen=True, tag="game_created"):
    game: str
    seats: int
    options: dict[str, Any]
    sandbox: bool
    verifiable: bool
    algorithm: str
    seed_commitment: str
    private: bool | None = None
    """True for a private game: not in the lobby, joined only with its invite (absent for a
    public one)."""
    rated: bool | None = None
    """What its creator said of rating it: true, rate its registered players; false, never;
    absent, rate it if every seat is a registered player (docs/rulings.md, "Ratings")."""

    absent_if_none: ClassVar[tuple[str, ...]] = ("private", "rated")


class PlayerJoined(Event, frozen=True, tag="player_joined"):
    seat: int
    name: str
    entropy: str
    team: str | None = None
    bot: str | None = None
    """The bot the service plays this seat with ("random", "greedy"); null for a player."""
    think_ms: int | None = None
    """A bot's pause before each of its moves."""
    player: str | None = None
    """The registered player the seat is credited to (absent: an anonymous seat)."""

    absent_if_none: ClassVar[tuple[str, ...]] = ("player",)  # logs before it stay as they were


class SeatLeft(Event, frozen=True, tag="seat_left"):
    """Before the start, a seat was given up: by its player (`seat`) or by the admin
    (`admin`). Its token no longer works; the next join takes the lowest free seat."""

    seat: int
    by: Literal["seat", "admin"]


class SeatResigned(Event, frozen=True, tag="seat_resigned"):
    """During play, a seat resigned (docs/rulings.md, "Resigning"): it can no longer win,
    the service plays it with its greedy bot while the game goes on, and its token no
    longer works. The game's own events that follow, if any, are its consequence."""

    seat: int


class TeamChanged(Event, frozen=True, tag="team_changed"):
    """Before the start, a seat moved to another team (by its player or the admin)."""

    seat: int
    team: str


class SeatTokenReissued(Event, frozen=True, tag="seat_token_reissued"):
    """The seat has a new token (its hash is kept with the game's secrets, never in the log);
    the old one no longer works. Given by the admin before the start, or asked for by the
    seat itself with its own token (docs/rulings.md, "A seat's token"): the envelope's actor
    says which."""

    seat: int


class GameStarted(Event, frozen=True, tag="game_started"):
    pass


class SeedRevealed(Event, frozen=True, tag="seed_revealed"):
    seed: str


AbandonReason = Literal["idle", "not_started", "admin", "no_play", "max_events"]


class GameAbandoned(Event, frozen=True, tag="game_abandoned"):
    """RULINGS, "Liveness and lifecycle": a game that cannot or will not end is ended. No
    winner; the standings stay as they stood; the seed is revealed as at a game's end."""

    reason: AbandonReason
    """`idle` (no seat commanded for `idle_minutes`), `not_started` (open for `open_hours`),
    `admin` (the admin abandoned the open game), `no_play` (Danger Danger: three rounds in
    a row replayed with no command at all), `max_events` (the log reached `max_events`)."""
    limit: float | None = None
    """The setting in force when the game ended: idle minutes, open hours or max events;
    null for `admin` and `no_play`."""


Actor = int | Literal["admin", "anyone", "server"]
"""Who sends a command: a seat, the game's admin, anyone (joining), or the server."""

TABLE_EVENTS: tuple[type[Event], ...] = (
    GameCreated,
    PlayerJoined,
    GameStarted,
    SeedRevealed,
    GameAbandoned,
    SeatLeft,
    TeamChanged,
    SeatTokenReissued,
    SeatResigned,
)
_TABLE_EVENT_TYPES = frozenset(TABLE_EVENTS)


class Join(Command, frozen=True, tag="join"):
    name: str
    entropy: str = ""
    team: str | None = None
    bot: str | None = None
    think_ms: int | None = None
    player: str | None = None
    """The registered player who joins (the service names them from their token)."""
    seat: int | None = None
    """The seat asked for; without it, the lowest free seat."""

    absent_if_none: ClassVar[tuple[str, ...]] = ("player", "seat")


class Leave(Command, frozen=True, tag="leave"):
    """Give up a seat before the start: its player's, or the admin's for any seat."""

    seat: int


class Resign(Command, frozen=True, tag="resign"):
    """A seat leaves a game in play: its own player's, never the admin's."""

    seat: int


class ChangeTeam(Command, frozen=True, tag="change_team"):
    """Move a seat to another team before the start: its player's, or the admin's."""

    seat: int
    team: str


class ReissueToken(Command, frozen=True, tag="reissue_token"):
    """A new token for a seat: the admin's before the start (a player who lost theirs), the
    seat's own at any time until the game is over (a token it fears was seen)."""

    seat: int


class Start(Command, frozen=True, tag="start"):
    pass


class FireTimer(Command, frozen=True, tag="fire_timer"):
    """Sent by a worker when a timer is due; the game ignores a timer no longer current."""

    timer: str


class Abandon(Command, frozen=True, tag="abandon"):
    """End the game with no winner: from the admin (`admin`, an open game only) or from the
    service (`not_started`, `idle`, `max_events`, naming the setting in force as `limit`)."""

    reason: Literal["idle", "not_started", "admin", "max_events"]
    limit: float | None = None


Status = Literal["open", "active", "finished", "abandoned"]
LOG_CLOSING_EVENTS = 2
"""What an abandonment appends: `game_abandoned` and `seed_revealed`."""


def is_over(status: str) -> bool:
    """True once the game has ended, by its own final event or by being abandoned: its log
    is complete and every reader may see all of it."""
    return status in ("finished", "abandoned")


class Player(msgspec.Struct):
    name: str
    entropy: str
    team: str | None = None
    bot: str | None = None
    think_ms: int | None = None
    seat: int = 0
    player: str | None = None  # the registered player's id
    resigned: bool = False


TABLE_COMMANDS: tuple[type[Command], ...] = (Join, Leave, ChangeTeam, ReissueToken, Resign)


class Table(msgspec.Struct):
    game: str
    seats: int
    options: Any
    sandbox: bool
    verifiable: bool
    seed_commitment: str
    private: bool = False
    status: Status = "open"
    players: list[Player] = msgspec.field(default_factory=list)
    state: Any = None
    seed: str | None = None
    events: int = 0  # events folded: the clock a timer's start is measured on
    timers: dict[str, int] = msgspec.field(default_factory=dict)  # running: name -> start

    def timer_ids(self) -> dict[str, str]:
        """Running timers by id (`name@start`) -> name."""
        return {f"{name}@{start}": name for name, start in self.timers.items()}


def create(
    rules: GameRules,
    seats: int,
    options: Any,
    sandbox: bool,
    seed_commitment: str,
    private: bool = False,
    rated: bool | None = None,
) -> list[GameCreated]:
    """The first event of a game. Options were validated against the game's type already."""
    if not rules.min_seats <= seats <= rules.max_seats:
        raise RuleViolation(
            "seats_out_of_range",
            f"{rules.name} is played by {rules.min_seats} to {rules.max_seats} seats.",
        )
    rules.check_options(options, seats)
    recorded = {
        k: v for k, v in msgspec.to_builtins(options).items() if k not in rules.sandbox_options
    }
    return [
        GameCreated(
            game=rules.name,
            seats=seats,
            options=recorded,
            sandbox=sandbox,
            verifiable=getattr(options, rules.stack_option, None) is None,
            algorithm=ALGORITHM,
            seed_commitment=seed_commitment,
            private=True if private else None,
            rated=rated,
        )
    ]


def from_created(rules: GameRules, event: GameCreated) -> Table:
    return Table(
        game=event.game,
        seats=event.seats,
        options=msgspec.convert(event.options, rules.options_type),
        sandbox=event.sandbox,
        verifiable=event.verifiable,
        seed_commitment=event.seed_commitment,
        private=bool(event.private),
    )


def caseless(name: str) -> str:
    """What a name is compared by at a table: the Unicode Standard's compatibility caseless
    match (3.13, D146: NFKD(toCasefold(NFKD(toCasefold(NFD(name)))))), so "ANN" and "Ann"
    in fullwidth letters are "ann"; spaces at the ends, and runs of them, do not count."""
    nfkd = unicodedata.normalize("NFKD", unicodedata.normalize("NFD", name).casefold())
    return " ".join(unicodedata.normalize("NFKD", nfkd.casefold()).split())


def decide(
    table: Table,
    rules: GameRules,
    command: Command,
    actor: Actor,
    shuffler: Shuffler,
    setup_options: Any = None,
) -> list[Event]:
    """Events for `command`; `setup_options` carries sandbox-only options to `setup`."""
    if isinstance(command, Join):
        if table.status != "open":
            raise RuleViolation("game_not_open", "This game has already started.")
        if len(table.players) >= table.seats:
            raise RuleViolation("game_full", "Every seat of this game is taken.")
        # Players are told apart by name; two that look alike cannot be.
        if any(caseless(p.name) == caseless(command.name) for p in table.players):
            raise RuleViolation(
                "name_taken", "Another player at this table has that name, or one like it."
            )
        if command.player is not None and command.bot is not None:
            raise RuleViolation("bot_seat", "A bot's seat counts in no player's record.")
        if command.player is not None and any(p.player == command.player for p in table.players):
            raise RuleViolation("already_seated", "This player already has a seat here.")
        seat = _seat_for(table, command.seat)
        team = command.team
        if rules.teams:
            team = team or rules.teams[seat % len(rules.teams)]  # by default, alternating
            if team not in rules.teams:
                raise RuleViolation("no_such_team", f"The teams are {', '.join(rules.teams)}.")
        elif team is not None:
            raise RuleViolation("no_teams", f"{rules.name} is not played in teams.")
        think = None
        if command.bot is not None:
            try:
                rules.bot(command.bot)
            except KeyError:
                raise RuleViolation(
                    "no_such_bot", f"The bots are {', '.join(BOT_NAMES)}."
                ) from None
            think = DEFAULT_THINK_MS if command.think_ms is None else command.think_ms
        return [
            PlayerJoined(
                seat=seat,
                name=command.name,
                entropy=command.entropy,
                team=team,
                bot=command.bot,
                think_ms=think,
                player=command.player,
            )
        ]
    if isinstance(command, Leave | ChangeTeam | ReissueToken):
        return [_manage_seat(table, rules, command, actor)]
    if isinstance(command, Resign):
        return _resign(table, rules, command, actor, shuffler)
    if isinstance(command, Start):
        if table.status != "open":
            raise RuleViolation("game_not_open", "This game has already started.")
        if len(table.players) < table.seats:
            raise RuleViolation(
                "seats_not_filled",
                f"{len(table.players)} of {table.seats} seats are taken; all must be.",
            )
        seating = {"teams": [p.team for p in table.players]} if rules.teams else {}
        return [
            GameStarted(),
            *rules.setup(setup_options or table.options, table.seats, shuffler, **seating),
        ]
    if isinstance(command, Abandon):
        _check_abandon(table, command, actor)
        return [
            GameAbandoned(reason=command.reason, limit=command.limit),
            SeedRevealed(seed=shuffler.seed.hex()),
        ]
    if table.status != "active":
        raise RuleViolation("game_not_active", f"This game is {table.status}, not active.")
    if isinstance(command, FireTimer):
        # A timer that is no longer running (its turn was played, its round is over) is stale.
        name = table.timer_ids().get(command.timer)
        if name is None or rules.on_timer is None:
            return []
        return _revealed_at_the_end(rules, rules.on_timer(table.state, name, shuffler), shuffler)
    if not isinstance(actor, int):
        raise RuleViolation("not_a_seat", "Only a seated player may play.")
    return _revealed_at_the_end(
        rules, rules.decide(table.state, command, actor, shuffler), shuffler
    )


def _seat_for(table: Table, wanted: int | None) -> int:
    """The seat a join takes: the one asked for, if it is free, else the lowest free seat.
    A game played in fixed teams by seat (High Voltage's 0+2 against 1+3) is joined into a
    team by the seat chosen; a game whose teams are chosen (Danger Danger) still takes `team`."""
    taken = {p.seat for p in table.players}
    if wanted is None:
        return min(s for s in range(table.seats) if s not in taken)
    if not 0 <= wanted < table.seats:
        raise RuleViolation(
            "seat_out_of_range", f"This game has seats 0 to {table.seats - 1}, not {wanted}."
        )
    if wanted in taken:
        raise RuleViolation("seat_taken", f"Seat {wanted} is taken.")
    return wanted


def _resign(
    table: Table, rules: GameRules, command: Resign, actor: object, shuffler: Shuffler
) -> list[Event]:
    """`seat_resigned`, then what the game's rules make of it, decided on a copy of the state
    that already counts the seat out (docs/rulings.md, "Resigning")."""
    if table.status != "active":
        raise RuleViolation(
            "game_not_active",
            f"This game is {table.status}: a seat resigns only while it is played"
            + (" (before the start, leave the seat)." if table.status == "open" else "."),
        )
    seated = next((p for p in table.players if p.seat == command.seat), None)
    if seated is None:
        raise RuleViolation("no_such_seat", f"No one sits at seat {command.seat}.")
    if actor != command.seat:
        raise RuleViolation("not_your_seat", "Only this seat's player may resign it.")
    if seated.resigned:
        raise RuleViolation("already_resigned", f"Seat {command.seat} has resigned already.")
    resigned = SeatResigned(seat=command.seat)
    events: list[Event] = [resigned]
    if rules.resign is not None:
        scratch = rules.evolve(scratch_copy(table.state), resigned)
        events += rules.resign(scratch, command.seat)
    return _revealed_at_the_end(rules, events, shuffler)


def _revealed_at_the_end(rules: GameRules, events: list[Event], shuffler: Shuffler) -> list[Event]:
    """The events, and the seed after them when they end the game (its final event, or a
    game's own abandonment: Danger Danger's `no_play`)."""
    if any(isinstance(e, (rules.final_event, GameAbandoned)) for e in events):
        events.append(SeedRevealed(seed=shuffler.seed.hex()))
    return events


# Who may abandon a game, and when: reason -> (actor, the statuses it is allowed in, the
# refusal's code in any other).
_ABANDON: dict[str, tuple[str, tuple[str, ...], str]] = {
    "admin": ("admin", ("open",), "game_not_open"),
    "not_started": ("server", ("open",), "game_not_open"),
    "idle": ("server", ("active",), "game_not_active"),
    "max_events": ("server", ("open", "active"), "game_over"),
}


def _manage_seat(
    table: Table, rules: GameRules, command: Leave | ChangeTeam | ReissueToken, actor: object
) -> Event:
    """Leaving and changing teams are for the seat's own player or the admin, before the
    start. A new token is the seat's own to ask for until the game is over, and the admin's
    to give only before the start: once cards are dealt, a token the admin gave would show
    the admin the seat's hidden cards (docs/rulings.md, "A seat's token")."""
    seated = next((p for p in table.players if p.seat == command.seat), None)
    if seated is None:
        raise RuleViolation("no_such_seat", f"No one sits at seat {command.seat}.")
    if isinstance(command, ReissueToken):
        if is_over(table.status):
            raise RuleViolation("game_over", "This game is over: its tokens only read it.")
        if seated.bot is not None:
            raise RuleViolation("bot_seat", "A bot's seat has no token: the service plays it.")
        if actor == command.seat:
            return SeatTokenReissued(seat=command.seat)
        if actor != "admin":
            raise RuleViolation(
                "not_your_seat", "Only this seat's player or the admin may do this."
            )
        if table.status != "open":
            raise RuleViolation(
                "seat_in_play",
                "The game has started: only the seat itself may ask for its new token, "
                "since its cards are its player's alone.",
            )
        return SeatTokenReissued(seat=command.seat)
    if actor not in (command.seat, "admin"):
        raise RuleViolation("not_your_seat", "Only this seat's player or the admin may do this.")
    if table.status != "open":
        raise RuleViolation("game_not_open", "This game has already started.")
    if isinstance(command, Leave):
        return SeatLeft(seat=command.seat, by="admin" if actor == "admin" else "seat")
    if not rules.teams:
        raise RuleViolation("no_teams", f"{rules.name} is not played in teams.")
    if command.team not in rules.teams:
        raise RuleViolation("no_such_team", f"The teams are {', '.join(rules.teams)}.")
    return TeamChanged(seat=command.seat, team=command.team)


def _check_abandon(table: Table, command: Abandon, actor: object) -> None:
    """RULINGS, "Liveness and lifecycle". What the domain cannot see (the clock) the audit
    checks against the events' times; what it can (the game's option, the log's length)
    is checked here, so the audit's replay checks it too."""
    if command.reason not in _ABANDON:  # `no_play` is a game's own decision, never a command
        raise RuleViolation("abandon_not_allowed", f"No one abandons for {command.reason!r}.")
    who, allowed, code = _ABANDON[command.reason]
    if actor != who:
        raise RuleViolation(
            "abandon_not_allowed",
            f"Only the {'admin' if who == 'admin' else 'service'} abandons a game "
            f"for the reason {command.reason!r}.",
        )
    if table.status not in allowed:
        raise RuleViolation(
            code,
            f"This game is {table.status}; it can be abandoned for the reason "
            f"{command.reason!r} only while {' or '.join(allowed)}.",
        )
    if command.reason == "admin":
        if command.limit is not None:
            raise RuleViolation("abandon_limit", "An admin's abandonment names no limit.")
        return
    if command.limit is None or command.limit <= 0:
        raise RuleViolation(
            "abandon_limit", f"An abandonment for {command.reason!r} names the limit in force."
        )
    if command.reason == "idle":
        minutes = getattr(table.options, "idle_minutes", DEFAULT_IDLE_MINUTES)
        if command.limit != minutes:
            raise RuleViolation(
                "abandon_limit", f"This game's idle_minutes is {minutes}, not {command.limit}."
            )
    if command.reason == "max_events":
        logged = table.events + 1  # game_created begins the log and is not counted in events
        if logged + LOG_CLOSING_EVENTS < command.limit:
            raise RuleViolation(
                "abandon_limit",
                f"The log holds {logged} events; it is abandoned at {command.limit:g} "
                f"with the {LOG_CLOSING_EVENTS} that close it.",
            )


def evolve(table: Table, rules: GameRules, event: Event) -> Table:
    table.events += 1
    kind = type(event)
    if kind not in _TABLE_EVENT_TYPES:  # a game's own event: nearly every event, first
        table.state = rules.evolve(table.state, event)
        if kind is rules.final_event:
            table.status = "finished"
        _track_timers(table, rules)
    elif type(event) is PlayerJoined:
        table.players.append(
            Player(
                name=event.name,
                entropy=event.entropy,
                team=event.team,
                bot=event.bot,
                think_ms=event.think_ms,
                seat=event.seat,
                player=event.player,
            )
        )
        table.players.sort(key=lambda p: p.seat)  # by seat, as the shuffles take them
    elif type(event) is SeatLeft:
        table.players = [p for p in table.players if p.seat != event.seat]
    elif type(event) is SeatResigned:
        seated = next(p for p in table.players if p.seat == event.seat)
        seated.resigned = True
        # The deal, the passes, the packets and the relay are sized by the seats: the seat
        # plays on, by the service's hand (docs/rulings.md, "Resigning").
        if seated.bot is None:
            seated.bot, seated.think_ms = RESIGNED_BOT, DEFAULT_THINK_MS
        table.state = rules.evolve(table.state, event)
    elif type(event) is TeamChanged:
        next(p for p in table.players if p.seat == event.seat).team = event.team
    elif type(event) is SeatTokenReissued:
        pass  # the token is the service's; the log says when it changed
    elif type(event) is GameStarted:
        table.status = "active"
        table.state = rules.initial(table.options, table.seats)
    elif type(event) is SeedRevealed:
        table.seed = event.seed
    elif type(event) is GameAbandoned:
        table.status = "abandoned"
        table.timers.clear()
    else:
        raise ValueError("game_created only begins a game")
    return table


def _track_timers(table: Table, rules: GameRules) -> None:
    timers = rules.timers(table.state) if rules.timers and table.status == "active" else ()
    if not timers and not table.timers:
        return
    running = {t.name for t in timers}
    for name in [n for n in table.timers if n not in running]:
        del table.timers[name]
    for name in running - table.timers.keys():
        table.timers[name] = table.events


def running_timers(table: Table, rules: GameRules) -> list[tuple[str, Timer]]:
    """(id, timer) for every timer running now."""
    if not rules.timers or table.status != "active":
        return []
    return [(f"{t.name}@{table.timers[t.name]}", t) for t in rules.timers(table.state)]


class Seat(msgspec.Struct, frozen=True):
    seat: int
    name: str
    team: str | None
    bot: str | None
    """The bot the service plays this seat with, or null for a player."""
    player: str | None
    """The registered player the seat counts for (GET /v1/players/{id}), or null."""
    resigned: bool = False
    """True once the seat has resigned: it cannot win; the service plays it on."""


class TableView(msgspec.Struct, frozen=True):
    game: str
    status: Status
    sandbox: bool
    """True when the game was set up with a sandbox seed or deck."""
    verifiable: bool
    """False when a sandbox deck fixed the cards: the shuffle cannot be audited."""
    seats: int
    options: dict[str, Any]
    players: list[Seat]
    you: int | None
    """The reader's seat, or null for a spectator."""
    seed_commitment: str
    seed: str | None
    """The server seed (hex), published when the game ends."""
    state: Any
    """The game as this reader may see it (the game's own view type); null until it starts."""


def view(table: Table, rules: GameRules, viewer: Viewer) -> TableView:
    seen_by = AUDITOR if is_over(table.status) else viewer
    return TableView(
        game=table.game,
        status=table.status,
        sandbox=table.sandbox,
        verifiable=table.verifiable,
        seats=table.seats,
        options={
            k: v
            for k, v in msgspec.to_builtins(table.options).items()
            if k not in rules.sandbox_options
        },
        players=[
            Seat(
                seat=p.seat,
                name=p.name,
                team=p.team,
                bot=p.bot,
                player=p.player,
                resigned=p.resigned,
            )
            for p in table.players
        ],
        you=viewer if isinstance(viewer, int) else None,
        seed_commitment=table.seed_commitment,
        seed=table.seed,
        state=None if table.state is None else _game_view(table, rules, seen_by),
    )


def _game_view(table: Table, rules: GameRules, viewer: Viewer) -> Any:
    seen = rules.view(table.state, viewer)
    # `legal` offers nothing once the table is not active; `to_act` and `turn` agree with it.
    return seen if table.status == "active" else nobody_acts(seen)


def legal(table: Table, rules: GameRules, viewer: Viewer) -> list[Command]:
    if table.status != "active" or not isinstance(viewer, int):
        return []
    return rules.legal(table.state, viewer)
