"""Request and response bodies of API v1, as the OpenAPI spec documents them."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Any, Literal, TypeAlias, Union

import msgspec

from domain.kernel import Command
from domain.kernel.table import ENTROPY_MAX, MAX_THINK_MS, NAME_MAX, TableView
from domain.registry import GAMES
from events.audit import Report
from service.wire.rating_schemas import PlayerRating


def _union(types: list[Any]) -> Any:
    return Union[tuple(types)] if len(types) > 1 else types[0]  # noqa: UP007


Visibility = Annotated[
    Literal["public", "private"],
    msgspec.Meta(
        description='"private": the game is not in the lobby, and a join needs the `invite` '
        "the create answers with."
    ),
]


Rated = Annotated[
    bool | None,
    msgspec.Meta(
        description="true: rate the game's registered players (bots and anonymous seats are "
        "never rated); false: never rate it; absent: rate it if every seat is a registered "
        'player (docs/rulings.md, "Ratings").'
    ),
]


def _create_type(rules: Any, alone: bool) -> type[msgspec.Struct]:
    """`{"game": "<name>", "seats": n, "options": {...}}` for one game, tagged by `game`.

    msgspec requires the tag only inside a union, so a lone game spells `game` as a field."""
    fields: list[Any] = [
        ("seats", Annotated[int, msgspec.Meta(ge=rules.min_seats, le=rules.max_seats)]),
        ("options", rules.options_type, msgspec.field(default_factory=rules.options_type)),
        ("visibility", Visibility, "public"),
        ("rated", Rated, None),
    ]
    if alone:
        fields.insert(0, ("game", Literal[rules.name]))
    return msgspec.defstruct(
        f"Create{rules.options_type.__name__.removesuffix('Options')}Game",
        fields,
        tag=None if alone else rules.name,
        tag_field=None if alone else "game",
        forbid_unknown_fields=True,
        frozen=True,
    )


CREATE_TYPES = {name: _create_type(rules, len(GAMES) == 1) for name, rules in GAMES.items()}
CreateGame = _union(list(CREATE_TYPES.values()))
GameStateView = _union([rules.view_type for rules in GAMES.values()])
Status = Literal["open", "active", "finished", "abandoned"]

if TYPE_CHECKING:  # made from the registry at run time; to the type checker, what they are
    GameCommand: TypeAlias = Command
    GameName: TypeAlias = str
    TableViewOut: TypeAlias = TableView
else:
    GameCommand = _union([c for rules in GAMES.values() for c in rules.commands])
    GameName = Literal[tuple(GAMES)]
    # The table's view as the spec documents it: the kernel's TableView with `state` typed as
    # the union of the registered games' views (the kernel cannot name the games).
    TableViewOut = msgspec.defstruct(
        "TableView",
        [
            (f.name, GameStateView | None if f.name == "state" else f.type)
            for f in msgspec.structs.fields(TableView)
        ],
        frozen=True,
    )


NAME_RULES = (
    "Shown to everyone at the table, in NFC. Refused (400 invalid_name): control, "
    "format (zero-width, bidi overrides and isolates), private-use and unassigned (in the "
    "server's Unicode version) characters, and a name of spaces alone; the pattern spells "
    "them out. No two names at one table may be equal under Unicode's compatibility caseless "
    'match, spaces at the ends and runs of them aside: "ANN", or "Ann" in fullwidth letters, '
    'cannot sit beside "Ann" (409 name_taken).'
)


class JoinGame(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    # The characters are checked by service/play/names.py, not by a msgspec pattern, so that a
    # refused name is answered invalid_name; the spec carries that module's pattern
    # (service/spec/openapi_spec.py), so the spec and the check agree.
    name: Annotated[str, msgspec.Meta(min_length=1, max_length=NAME_MAX, description=NAME_RULES)]
    entropy: Annotated[str, msgspec.Meta(max_length=ENTROPY_MAX)] = ""
    """Optional: any string, mixed into every shuffle of the game and recorded publicly."""
    team: Annotated[str, msgspec.Meta(max_length=20)] | None = None
    """Team games (danger-danger: "pink" or "yellow"): the team to join; by default the
    teams alternate by seat. Other games refuse it (409 no_teams)."""
    bot: Literal["random", "greedy"] | None = None
    """A seat the service plays itself: "random" sends any legal command, "greedy" the
    game's heuristic. The bot sees only what its seat may see. No token is issued for it."""
    think_ms: Annotated[int, msgspec.Meta(ge=0, le=MAX_THINK_MS)] | None = None
    """A bot's pause before each move, in milliseconds (default 1000); only with `bot`
    (422 think_without_bot otherwise)."""
    invite: Annotated[str, msgspec.Meta(max_length=64)] | None = None
    """A private game's invite, from its creator; without the right one, the private game
    is not found (404)."""
    seat: Annotated[int, msgspec.Meta(ge=0, le=7)] | None = None
    """The seat to take, from 0; by default the lowest free seat. A seat taken is 409
    seat_taken, one beyond the game's seats 409 seat_out_of_range. In High Voltage's team
    mode the seat is the team (0 and 2 against 1 and 3); in Danger Danger the team is
    `team`, by default alternating by seat."""


class Receipt(msgspec.Struct, frozen=True):
    """The service's signed word that the game's log, at `seq`, has `hash` there: kept by a
    client, it proves what was acknowledged (docs/transparency.md, "Receipts")."""

    game: str
    seq: int
    """The game's seq after the append this answer acknowledges."""
    hash: str
    """The `hash` of the event at `seq`: through the chain, every event up to it."""
    at: str
    """The `at` of the event at `seq`: when the store appended it. A retry is given the
    same receipt, byte for byte."""
    key: str
    """The signing key's id (GET /v1/keys)."""
    signature: str
    """Ed25519, lowercase hex, over `danger-hall/receipt/v1` and a newline followed by the
    canonical JSON of the other five fields."""


class Created(msgspec.Struct, frozen=True):
    id: str
    game: str
    status: Status
    seats: int
    seq: int
    sandbox: bool
    seed_commitment: str
    admin_token: str
    """Starts the game. Shown once; keep it."""
    invite: str | None = None
    """A private game's invite: a join must carry it. Shown once; give it to the players."""
    receipt: Receipt | None = None
    """The signed receipt of the game's first event."""


class RematchOut(msgspec.Struct, frozen=True, omit_defaults=True):
    """The game a finished game's table plays next: the same kind, seats, options and
    visibility. Every seat of the old game joins it as any game is joined (`seat` keeps a
    player's old seat)."""

    id: str
    game: str
    status: Status
    """Of the new game: `open` until its admin starts it."""
    seats: int
    seq: int
    rematch_of: str
    """The game it plays again."""
    admin_token: str | None = None
    """Starts the new game: given only in the answer of the request that made it, once."""
    invite: str | None = None
    """A private rematch's invite, given with its admin token: its holder hands it to the
    players."""
    receipt: Receipt | None = None
    """The signed receipt of the new game's first event, in the answer that made it."""


class Joined(msgspec.Struct, frozen=True):
    seat: int
    token: str | None
    """Your bearer token for this seat. Shown once; keep it. Null for a bot's seat."""
    seq: int
    receipt: Receipt
    """The signed receipt of the join."""


class TeamChange(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    team: Annotated[str, msgspec.Meta(max_length=20)]
    """The team to move to (danger-danger: "pink" or "yellow")."""


class NewSeatToken(msgspec.Struct, frozen=True):
    seat: int
    token: str
    """The seat's new bearer token. Shown once; the old one no longer works."""
    seq: int
    receipt: Receipt
    """The signed receipt of the change."""


class EventOut(msgspec.Struct, frozen=True, omit_defaults=True):
    seq: int
    type: str
    data: dict[str, Any]
    """The event's fields; docs/events.md lists each type. Secret fields are null for a
    reader who may not see them until the game ends."""
    at: str
    actor: str
    command: str | None
    cause: dict[str, Any] | None
    """On the first event of each command: the command as decided (its body), so anyone can
    decide it again; a seat's command is its own until the game ends."""
    salt: str | None
    """On an event with secret fields: a salt in its hash, secret with those fields (so
    the hash cannot be matched against guesses), revealed with them."""
    prev: str
    hash: str
    meta: dict[str, str] | None = None
    """Where the event came from, for an operator: the request during which it was written,
    `request` (the X-Request-ID the service made) or `client_request` (the one the client
    sent); a timer a late command rang first carries that command's. Absent on events the
    workers wrote (their timers, bot moves). Part of the hashed envelope when present
    (docs/events.md, "When `meta` is present")."""


class Clock(msgspec.Struct, frozen=True):
    timer: str
    deadline: str
    """RFC 3339 UTC: when the timer rings and the seat to act gets its default action."""


class GameOut(msgspec.Struct, frozen=True, omit_defaults=True):
    id: str
    game: str
    status: Status
    seq: int
    view: TableViewOut
    legal: list[GameCommand]
    """Every command the caller may send now, each a complete body for /commands."""
    clocks: list[Clock]
    """Running turn clocks (option `turn_seconds`) and their deadlines. A hidden timer
    (Danger Danger's round timer) is never listed."""
    receipt: Receipt | None = None
    """In the answer of a write (start, abandon, a seat's change), the signed receipt of
    what it appended; absent in a read."""
    rematch: str | None = None
    """The id of the game its table plays next (`POST /v1/games/{id}/rematch`), once it is
    made; absent before, and in a write's answer."""


class ViewMessage(msgspec.Struct, frozen=True, tag="view", tag_field="type"):
    """A live stream's message of the caller's view (streamEvents with `view=true`): what
    GET /v1/games/{game_id} answers, as of the event `seq`, with `"type": "view"`."""

    id: str
    game: str
    status: Status
    seq: int
    view: TableViewOut
    legal: list[GameCommand]
    """Every command the caller may send now, each a complete body for /commands."""
    clocks: list[Clock]
    """Running turn clocks and their deadlines, as in GET /v1/games/{game_id}."""


StreamMessage: TypeAlias = EventOut | ViewMessage
"""One message of a live stream: an event (its `type` is the event's) or a view (`view`)."""


NoticeType = Literal["game_joined", "game_started", "your_turn", "game_ended", "game_left"]


class PlayerNotice(msgspec.Struct, frozen=True):
    """One message of a player's stream."""

    type: NoticeType
    game: str
    """The game's id."""
    kind: str
    """The kind of game (`danger`, `high-voltage`, ...)."""
    seat: int
    """The player's seat in it."""
    status: str
    seq: int
    """The game's seq when the notice was made."""


class CommandResult(msgspec.Struct, frozen=True):
    seq: int
    events: list[EventOut]
    view: TableViewOut
    receipt: Receipt
    """The signed receipt of the command's events (also in the Danger-Receipt header)."""


class EventPage(msgspec.Struct, frozen=True):
    events: list[EventOut]
    last_seq: int
    """The game's last seq: ask again with after=last_seq for what follows."""


class LobbyEntry(msgspec.Struct, frozen=True):
    id: str
    game: str
    status: Status
    seats: int
    players: list[str]
    created_at: str
    seq: int
    private: bool = False
    """A private game (listed only among the caller's own games: `mine=true`)."""


class Lobby(msgspec.Struct, frozen=True):
    games: list[LobbyEntry]
    total: int
    """How many games the filter holds."""
    limit: int
    offset: int
    next: str | None = None
    """The cursor of the next page (null on the last): pass it as `cursor`."""


class Lag(msgspec.Struct, frozen=True):
    entries: int
    """Feed entries the projection has not applied yet."""
    ms: int
    """How far behind the newest feed entry its oldest unapplied one is."""
    dead_letters: int
    """Feed entries set aside after failing on their own too often (`danger projections
    dead-letters` lists them)."""
    errors: int
    """Failed attempts to apply entries since this process's consumer started (0 where the
    projections run in another process)."""


class CacheUse(msgspec.Struct, frozen=True):
    """The folded games this process keeps (a cache: the store holds every game)."""

    games: int
    bytes: int
    """Their measured size in memory."""
    max_bytes: int
    """The bound (DANGER_CACHE_MB): beyond it, games that are over leave first."""


class DurabilityInForce(msgspec.Struct, frozen=True):
    """What an answered command survives (`DANGER_DURABILITY`), read from the store when the
    process started."""

    mode: Literal["fsync", "replicas", "declared", "weak"]
    """`fsync`: a crash of the store (`appendonly yes`, `appendfsync always`); `replicas`: the
    loss of the primary (each append waits for `replicas` copies); `declared`: what the
    operator vouches for, not checked; `weak`: nothing, acknowledged commands can be lost."""
    replicas: int
    """Replicas that confirm each append before it is answered (0 unless `replicas`)."""
    checked: bool
    """The store was read at startup and meets `mode`; false for `declared` and `weak`."""
    store: str
    """What was read from the store (`appendonly`, `appendfsync`, replicas online), or why
    nothing was."""
    alone: list[str] = []
    """Primaries (host:port) with no replica online, seen by this process's appends: with no
    `DANGER_DURABILITY` (the automatic mode) their appends are answered once on their own
    disk, as a single server's, until a replica is back. `replicas:N` refuses them instead
    (503 `not_replicated`) and lists none."""


class TaskStatus(msgspec.Struct, frozen=True):
    """A background task of this process (`worker`, `sweep`, `projection:<name>`)."""

    state: Literal["running", "retrying", "failed"]
    """`retrying`: failing now, started again with backoff; `failed`: failing without a
    break for `DANGER_GIVE_UP_SECONDS`."""
    restarts: int
    """Times it was started again after an error since the process started."""
    errors: int
    """Errors it met since the process started (a projection's failed batches included)."""
    last_error: str | None
    failing_seconds: float | None
    """How long it has been failing without a break; null while it is well."""


class QueueServerStatus(msgspec.Struct, frozen=True):
    """One of the job queue's servers (`DANGER_QUEUE_URL`, in its order). A game's timers and
    bot moves are queued on the server of its shard (the shard's number mod the number of
    servers), and on another while that one cannot be reached."""

    server: str
    """Its host:port (or its socket's path)."""
    state: Literal["ok", "idle", "unreachable"]
    """`ok`: a worker polled it lately; `idle`: it answers, but no worker has polled it in
    the last 6 s, so its jobs wait; `unreachable`: this process could not read it, and
    queues its games' jobs on the other servers until it is back."""
    worker: str | None
    """The last heartbeat of a worker on it (arq's health-check key: jobs done, failed,
    retried, running and queued), from any process."""


class Health(msgspec.Struct, frozen=True):
    status: Literal["ok", "degraded"]
    """`degraded` (with 503): the store is unreachable, a queue server is unreachable or no
    worker has polled it lately, or a background task of this process is failing."""
    redis: Literal["ok", "unreachable"]
    projections: dict[str, Lag]
    """Empty while the store is unreachable."""
    tasks: dict[str, TaskStatus]
    """This process's background tasks; none in a process started with `--api-only`."""
    worker: str | None
    """The last heartbeat of a worker on the job queue (arq's health-check key: jobs done,
    failed, retried, running and queued), from any process: of the first queue server that
    has one (`queues` has each server's); null: none has polled any in the last 6 s, so no
    timer rings and no bot moves."""
    queues: list[QueueServerStatus]
    """Each of the job queue's servers, in the order `DANGER_QUEUE_URL` names them (one:
    the store's own server, when it is not set)."""
    cache: CacheUse
    history_breaks: int
    """Games whose stored history did not continue what this process had folded, since
    it started: the store lost events it had acknowledged (each is logged as an error).
    The game goes on from what the store holds."""
    durability: DurabilityInForce


class RoundSummary(msgspec.Struct, frozen=True):
    round: int
    first_seq: int
    last_seq: int
    complete: bool
    """The round has been scored."""
    events: list[EventOut]
    """Every event of the round (who held, played and scored what), as the caller may read
    them; the scoring events give a reason for every point."""


class GameStats(msgspec.Struct, frozen=True):
    games: int
    wins: int
    average_score: float


class RegisterPlayer(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    name: Annotated[str, msgspec.Meta(min_length=1, max_length=NAME_MAX, description=NAME_RULES)]


class Registered(msgspec.Struct, frozen=True):
    id: str
    """The player's id: public (GET /v1/players/{id}); seats show it as `player`."""
    name: str
    token: str
    """The player's token (`dhp_...`): send it with a join to take the seat as this player.
    Shown once; keep it."""


class PlayerStats(msgspec.Struct, frozen=True):
    id: str
    name: str
    """The name the player registered with (a seat shows the name given at its join)."""
    games: int
    wins: int
    by_game: dict[str, GameStats]
    """Per kind of game: finished games, wins, and the average score (Danger and High
    Voltage: points; Danger 13: "+" signs; Danger Danger: the team's tokens)."""
    ratings: dict[str, PlayerRating] = {}
    """Per kind of game the player was rated in: their rating, its rank and history
    (docs/rulings.md, "Ratings")."""


PlayerGameResult = Literal["playing", "won", "lost", "abandoned"]


class PlayerGameLinks(msgspec.Struct, frozen=True):
    """Where the game is read, replayed and audited (paths on this service)."""

    game: str
    """The game as the caller may see it (getGame)."""
    replay: str
    """The game after any event: add `?seq=N` (replayGame); `last_seq` is its end."""
    export: str
    """Its whole log as JSON Lines (exportGame): `danger audit FILE` checks it offline."""
    audit: str
    """The server's audit of its log (auditGame)."""
    page: str
    """The game's page in the service's web client (`/replay` and `/audit` after it: its
    replay and its audit)."""


class PlayerGameEntry(msgspec.Struct, frozen=True):
    id: str
    game: str
    """The kind of game."""
    status: Status
    seat: int
    """The player's seat (0-based)."""
    seats: int
    private: bool
    """A private game: listed to the player alone (with their own token)."""
    created_at: str
    ended_at: str | None
    """When it finished or was abandoned (its last event before the seed's); null while
    it is open or played."""
    result: PlayerGameResult
    """`playing` (open or active), `won` (among the winners: a shared first place is won by
    each seat in it; in a team game, the winning team's seats), `lost` (finished, not among
    the winners) or `abandoned` (no winner)."""
    score: int | None
    """The player's final score once finished (Danger and High Voltage: points; Danger 13:
    "+" signs; Danger Danger: the team's tokens); null before, and for an abandoned game."""
    last_seq: int | None
    """The game's last event once its log is closed (a replay's end); null before."""
    links: PlayerGameLinks


class PlayerGames(msgspec.Struct, frozen=True):
    player: str
    """The player's id."""
    games: list[PlayerGameEntry]
    """Newest first (by creation)."""
    total: int
    """How many games the filter holds (for this caller)."""
    limit: int
    includes_private: bool
    """Whether private games are listed: only when the player reads their own list, with
    their token."""
    next: str | None = None
    """The cursor of the next page (null on the last): pass it as `cursor`."""


class Problem(msgspec.Struct, frozen=True):
    """RFC 9457 problem details; `code` is stable and machine-readable."""

    type: str
    title: str
    status: int
    detail: str
    code: str
    seq: int | None = None


class Replayed(msgspec.Struct, frozen=True):
    id: str
    seq: int
    status: Status
    view: TableViewOut


AuditReport = Report


class SigningKey(msgspec.Struct, frozen=True):
    id: str
    """The first 16 hex digits of SHA-256 of the raw public key."""
    algorithm: Literal["ed25519"]
    public_key: str
    """The 32-byte raw public key, in lowercase hex."""
    added: str
    """When the service first signed with it."""


class SigningKeys(msgspec.Struct, frozen=True):
    current: str
    """The key the answering process signs with."""
    keys: list[SigningKey]
    """Every key the service has signed with, the retired ones included, oldest first."""


class TreeHead(msgspec.Struct, frozen=True):
    """The transparency log's signed tree head (docs/transparency.md, "Tree heads")."""

    origin: str
    """The log's name."""
    size: int
    """Its number of leaves."""
    root: str
    """The hash of the tree of its `size` leaves (RFC 9162), lowercase hex."""
    at: str
    """When it was signed."""
    key: str
    """The signing key's id (GET /v1/keys)."""
    signature: str
    """Ed25519, lowercase hex, over `danger-hall/tree-head/v1` and a newline followed by the
    canonical JSON of the other five fields."""


class LogLeaf(msgspec.Struct, frozen=True):
    """A game's head as the log holds it: its canonical JSON is the leaf."""

    final: bool
    """The game's last event (its log will never grow); else a checkpoint of a running game."""
    game: str
    hash: str
    seq: int


class LogEntry(msgspec.Struct, frozen=True):
    index: int
    leaf: LogLeaf


class LogEntries(msgspec.Struct, frozen=True):
    entries: list[LogEntry]
    size: int
    """The log's number of leaves when it answered."""


class InclusionProof(msgspec.Struct, frozen=True, omit_defaults=True):
    index: int
    """The leaf's index: the game's latest leaf in the tree of `size` leaves."""
    size: int
    leaf: LogLeaf
    path: list[str]
    """The audit path of RFC 9162, 2.1.3.1, leaf side first, each hash lowercase hex."""
    head: TreeHead | None = None
    """The latest signed tree head, when `size` was not asked for: the tree proved into."""


class ConsistencyProof(msgspec.Struct, frozen=True):
    first: int
    second: int
    path: list[str]
    """The consistency proof of RFC 9162, 2.1.4.1, each hash lowercase hex."""


class AuditUpload(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """An export sent with the receipts a client kept, for `POST /v1/audit` as JSON."""

    export: Annotated[str, msgspec.Meta(min_length=1)]
    """The export, JSON Lines, as GET /v1/games/{id}/export answered it."""
    receipts: Annotated[list[Receipt], msgspec.Meta(max_length=100_000)] = []
    """Receipts of the game (each answer's `receipt`): each must bear a valid signature of a
    key GET /v1/keys lists and name the hash the export has at its seq."""
