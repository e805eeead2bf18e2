"""REST API v1: thin handlers that adapt HTTP to the command path and the read models."""

from __future__ import annotations

from typing import Annotated, Any

import msgspec
from litestar import Controller, HttpMethod, Request, get, post, route
from litestar.background_tasks import BackgroundTask
from litestar.datastructures import ResponseHeader
from litestar.di import NamedDependency
from litestar.enums import RequestEncodingType
from litestar.openapi.datastructures import ResponseSpec
from litestar.openapi.spec import Discriminator, Reference, SecurityScheme
from litestar.params import Body, HeaderParameter, PathParameter, QueryParameter
from litestar.response import Response, ServerSentEvent
from redis.exceptions import RedisError

from domain.kernel import AUDITOR
from domain.registry import GAMES
from events.keys import GameKeys
from events.store import decode_envelope

from . import app_keys, names, offload, players
from . import lobby as lobby_model
from .clock import stamp
from .errors import ApiError
from .games import Game, GameService, Outcome
from .problems import responses
from .projections import RoundIndex, rounds_key
from .projections import health as projection_health
from .schemas import (
    AuditReport,
    CacheUse,
    Clock,
    CommandResult,
    Created,
    CreateGame,
    DurabilityInForce,
    EventOut,
    EventPage,
    GameCommand,
    GameName,
    GameOut,
    Health,
    Joined,
    JoinGame,
    Lag,
    Lobby,
    LobbyEntry,
    Replayed,
    RoundSummary,
    Status,
    TaskStatus,
)
from .streams import StreamHub

GameId = Annotated[
    str,
    PathParameter(title="game_id", description="The id returned by POST /v1/games.", max_length=64),
]
Prefer = Annotated[
    str | None,
    HeaderParameter(
        name="Prefer",
        required=False,
        max_length=256,
        description="`return=minimal` (RFC 7240): answer 204 with the game's new seq in `ETag` "
        "and no body, for a client that follows the game's stream and has the events and its "
        "view from there. Cheaper for both sides. Other preferences are ignored.",
    ),
]


def wants_minimal(prefer: str | None) -> bool:
    """Whether a `Prefer` header (RFC 7240: comma-separated preferences, tokens compared
    without regard to case, a value possibly quoted) asks for `return=minimal`."""
    if not prefer:
        return False
    for preference in prefer.split(","):
        name, _, value = preference.split(";", 1)[0].partition("=")
        if name.strip().lower() == "return":
            return value.strip().strip('"').lower() == "minimal"
    return False


IdempotencyKey = Annotated[
    str | None,
    HeaderParameter(
        name="Idempotency-Key",
        required=False,
        max_length=128,
        description="A retry with the same key and body returns the first answer (kept 24 h, "
        "DANGER_IDEMPOTENCY_HOURS) and changes nothing; the same key with another body, or on "
        "a command another If-Match, is 422 `idempotency_key_reused`. A key is its client's "
        "(create, join) or its token's (start, abandon, commands), within the game: send a "
        "random one (a UUID) per request.",
    ),
]
Service = NamedDependency[GameService]
# The bearer token of the request, or None (`Authorization: Bearer <token>`, read by
# `bearer_token`): documented as each operation's `security`, not as a header parameter,
# which OpenAPI tools ignore for Authorization.
Token = NamedDependency[str | None]
SECURITY_SCHEMES: dict[str, SecurityScheme | Reference] = {
    "seatToken": SecurityScheme(
        type="http",
        scheme="bearer",
        description="A seat's token, returned once by joinGame (`token`): the seat reads its "
        "own cards and sends its commands.",
    ),
    "playerToken": SecurityScheme(
        type="http",
        scheme="bearer",
        description="A registered player's token (`dhp_...`), returned once by "
        "registerPlayer: sent with a join, it credits the seat to the player.",
    ),
    "appKey": SecurityScheme(
        type="http",
        scheme="bearer",
        description="An app key (`dhk_...`), made by the operator with `danger keys create`: "
        "needed to create games when the server runs with DANGER_AUTH=keys; a create or join "
        "that carries one counts against the key's limits, not the address's.",
    ),
    "adminToken": SecurityScheme(
        type="http",
        scheme="bearer",
        description="The game's admin token, returned once by createGame (`admin_token`): "
        "starts or abandons the game; it reads the game as a spectator does.",
    ),
}
SEAT: list[dict[str, list[str]]] = [{"seatToken": []}]
ADMIN: list[dict[str, list[str]]] = [{"adminToken": []}]
READER: list[dict[str, list[str]]] = [{"seatToken": []}, {"adminToken": []}, {}]
KEEP_ALIVE_SECONDS = 15.0
INLINE_EVENTS = 1000  # a page of events longer than this is redacted off the event loop
MAX_SEQ = 2**53


def bearer(header: str | None) -> str | None:
    if header is None:
        return None
    scheme, _, token = header.strip().partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise ApiError(401, "token_invalid", "Send the token as 'Authorization: Bearer <token>'.")
    return token.strip()


def bearer_token(request: Request) -> str | None:
    """The request's bearer token (the app's `token` dependency)."""
    return bearer(request.headers.get("authorization"))


async def _reader(service: GameService, game_id: str, token: str | None) -> tuple[Game, Any]:
    """The game, and who is reading it (a seat, or a spectator without a token)."""
    game = await service.get(game_id)
    viewer, _ = await service.viewer(game, token)
    return game, viewer


def _offload(request: Request) -> offload.Offload:
    return request.app.state.offload  # type: ignore[no-any-return]


async def _readable(request: Request, game: Game, log: list[bytes], viewer: Any) -> list[Any]:
    """The stored envelopes as `viewer` may read them: a short page here, a long one off the
    event loop."""
    if len(log) <= INLINE_EVENTS:
        return [game.readable(decode_envelope(raw), viewer) for raw in log]
    return await _offload(request).run(
        offload.readable, game.rules.name, game.finished, log, viewer
    )


def _envelope(e: Any) -> EventOut:
    return EventOut(
        seq=e.seq,
        type=e.type,
        data=e.data,
        at=e.at,
        actor=e.actor,
        command=e.command,
        cause=e.cause,
        salt=e.salt,
        prev=e.prev,
        hash=e.hash,
        meta=e.meta,
    )


def _game_out(service: Service, game: Game, token_viewer: Any) -> GameOut:
    return GameOut(
        id=game.id,
        game=game.rules.name,
        status=game.table.status,
        seq=game.seq,
        view=service.view(game, token_viewer),
        legal=service.legal(game, token_viewer),
        clocks=[
            Clock(timer=timer_id, deadline=stamp(deadline))
            for timer_id, timer, deadline in game.clocks()
            if timer.public
        ],
    )


def _result(outcome: Outcome) -> CommandResult:
    return CommandResult(
        seq=outcome.seq,
        events=[_envelope(e) for e in outcome.envelopes],
        view=outcome.view,
    )


def _parse_if_match(value: str | None) -> int | None:
    if value is None:
        return None
    seq = seq_number(value.strip().removeprefix("W/").strip('"'))
    if seq is None:
        raise ApiError(400, "invalid_if_match", "If-Match takes the game's seq, e.g. If-Match: 12.")
    return seq


def seq_number(text: str) -> int | None:
    """A seq as a client may write it: 1 to 16 ASCII digits (isdigit() alone admits "²")."""
    return int(text) if text.isascii() and text.isdigit() and len(text) <= 16 else None


def _check_idempotency_key(value: str | None) -> str | None:
    printable = value is not None and value.isascii() and value.isprintable()
    if value is not None and not (0 < len(value) <= 128 and printable):
        raise ApiError(400, "invalid_idempotency_key", "Idempotency-Key: 1-128 printable chars.")
    return value


async def _create(service: GameService, request: Request, data: Any) -> Created:
    name = data.__struct_config__.tag or data.game
    open_games = request.app.state.open_games
    async with open_games.place(request.app.state.redis, request.scope, service) as place:
        game, admin_token, invite = await service.create(
            name, data.seats, data.options, data.visibility == "private"
        )
        place.keep(game.id)
    view = service.view(game, "spectator")
    return Created(
        id=game.id,
        game=game.rules.name,
        status=game.table.status,
        seats=game.table.seats,
        seq=game.seq,
        sandbox=view.sandbox,
        seed_commitment=view.seed_commitment,
        admin_token=admin_token,
        invite=invite,
    )


# What the admin's writes (start, abandon) may answer.
ADMIN_ANSWERS = responses(
    400,
    401,
    403,
    404,
    409,
    422,
    503,
    s403="Not the game's admin token, or a token of another game.",
    s422="An Idempotency-Key the admin used in this game for another request.",
)


class GamesController(Controller):
    path = "/v1/games"
    tags = ["games"]

    @route("/", http_method=[HttpMethod.OPTIONS], include_in_schema=False, status_code=204)
    async def allow(self) -> Response[None]:
        # Litestar builds this route handler by handler, and its generated OPTIONS keeps the
        # methods of the first one only; named to sort first, this one replaces it.
        return Response(None, status_code=204, headers={"Allow": "GET, OPTIONS, POST"})

    @post(
        "/",
        status_code=201,
        operation_id="createGame",
        summary="Create a game",
        description="Creates a game with open seats; the answer carries the admin token that "
        "starts it. Every option has its bounds in the schema. The options that fix the order "
        "of the cards (`seed`; Danger's and High Voltage's `deck`; Danger 13's and Danger "
        "Danger's `stack`) need a server started with DANGER_SANDBOX=1; a deck composition "
        "(Danger 13's and Danger Danger's `deck`) does not.",
        responses=responses(
            400,
            401,
            403,
            409,
            413,
            422,
            503,
            s400="Malformed: not JSON, not a body of this operation, or a header "
            "parameter outside its schema.",
            s401="This server asks for an app key (DANGER_AUTH=keys), or the one sent is "
            "not, or no longer, one of its.",
            s403="An option this server does not take: it was not started in sandbox mode.",
            s409="The client's open games, or the same Idempotency-Key still in flight.",
            s422="Well-formed, but out of bounds, or options no game can be set up with, or "
            "an Idempotency-Key this client used with another body.",
        ),
    )
    async def create(
        self,
        service: Service,
        request: Request,
        data: Annotated[
            CreateGame,  # type: ignore[valid-type]
            Body(
                description="The game, its number of seats and its options.",
                schema_extra={"discriminator": Discriminator(property_name="game")}
                if len(GAMES) > 1
                else None,
            ),
        ],
        idempotency_key: IdempotencyKey = None,
    ) -> Created:
        app_keys.require(request.scope, request.app.state.auth)
        key = _check_idempotency_key(idempotency_key)
        if key is None:
            return await _create(service, request, data)
        # The key is the client's own: the first answer to it carries an admin token.
        redis, client = request.app.state.redis, request.app.state.clients.of(request.scope)
        creates, body = request.app.state.creates, msgspec.to_builtins(data)
        first = await creates.claim(redis, client, key, body)
        if first is not None:
            return first  # type: ignore[no-any-return]
        try:
            created = await _create(service, request, data)
        except BaseException:
            await creates.drop(redis, client, key)
            raise
        await creates.keep(redis, client, key, body, created)
        return created

    @get(
        "/",
        operation_id="listGames",
        summary="The lobby",
        responses=responses(400),
        description="Games newest first, filtered by status and kind of game; fed by the "
        "event feeds, so a game shows here a moment after it changes. Page with `cursor` (the "
        "`next` of the previous page: stable while games are created) or `offset`.",
    )
    async def lobby(
        self,
        request: Request,
        status: Annotated[Status | None, QueryParameter(required=False)] = None,
        game: Annotated[GameName | None, QueryParameter(required=False)] = None,  # type: ignore[valid-type]
        limit: Annotated[int, QueryParameter(ge=1, le=100)] = 20,
        offset: Annotated[int, QueryParameter(ge=0, le=1_000_000)] = 0,
        cursor: Annotated[
            str | None,
            QueryParameter(
                required=False,
                pattern=lobby_model.CURSOR_PATTERN,
                description="The `next` of the previous page: the games created before its "
                "last one.",
            ),
        ] = None,
    ) -> Lobby:
        after = None
        if cursor is not None:
            after = lobby_model.parse_cursor(cursor)
            if after is None:
                raise ApiError(400, "invalid_cursor", "That is not a cursor this lobby gave.")
        found, total = await lobby_model.list_games(
            request.app.state.redis, status, game, limit, offset, after
        )
        return Lobby(
            games=[
                LobbyEntry(**{f: getattr(g, f) for f in LobbyEntry.__struct_fields__})
                for g in found
            ],
            total=total,
            limit=limit,
            offset=offset,
            next=lobby_model.cursor_of(found[-1]) if len(found) == limit else None,
        )

    @post(
        "/{game_id:str}/players",
        status_code=201,
        operation_id="joinGame",
        summary="Join a game",
        description="Takes the lowest open seat and returns its bearer token (shown once). "
        "With a player's token (registerPlayer), the seat is theirs: the game counts in "
        "their record; a player takes one seat of a game at most (409 already_seated). "
        'With `bot`, the seat is played by the service itself ("random" or "greedy"), '
        "through the same command path, by its workers; no token is issued for it.",
        responses=responses(
            400,
            401,
            404,
            409,
            413,
            422,
            503,
            s401="The token sent (a player's, or an app key) is not valid here.",
            s400="Malformed: not JSON, not a join's body, a refused name, or a parameter "
            "outside its schema.",
            s404="No game has this id (a private one: not without its invite).",
            s409="The table's rules forbid it now; `code` names the rule.",
            s422="Well-formed, but out of bounds or inconsistent, or an Idempotency-Key this "
            "client used in this game with another body.",
        ),
    )
    async def join(
        self,
        service: Service,
        request: Request,
        game_id: GameId,
        data: Annotated[JoinGame, Body()],
        token: Token,
        idempotency_key: IdempotencyKey = None,
    ) -> Joined:
        try:
            name = names.normalised(data.name)
        except names.InvalidName as exc:
            raise ApiError(400, "invalid_name", str(exc)) from None
        player = None
        if players.looks_like_token(token):  # else an app key, or nothing
            player = await players.verify(request.app.state.redis, token)  # type: ignore[arg-type]
        outcome, token = await service.join(
            game_id,
            name,
            data.entropy,
            data.team,
            data.bot,
            data.think_ms,
            _check_idempotency_key(idempotency_key),
            request.app.state.clients.of(request.scope),
            player,
            data.invite,
        )
        seat = outcome.envelopes[0].data["seat"]
        return Joined(seat=seat, token=token, seq=outcome.game.seq)

    @post(
        "/{game_id:str}/start",
        status_code=200,
        operation_id="startGame",
        security=ADMIN,
        summary="Start a game",
        description="With the admin token, once every seat is taken: shuffles and deals. "
        "`Idempotency-Key` makes a retry safe: it answers as the first request did.",
        responses=ADMIN_ANSWERS,
    )
    async def start(
        self,
        service: Service,
        game_id: GameId,
        token: Token,
        idempotency_key: IdempotencyKey = None,
    ) -> GameOut:
        outcome = await service.start(
            game_id, token, _check_idempotency_key(idempotency_key)
        )
        return _game_out(service, outcome.game, outcome.viewer)

    @post(
        "/{game_id:str}/abandon",
        status_code=200,
        operation_id="abandonGame",
        security=ADMIN,
        summary="Abandon a game that has not started",
        description="With the admin token, while the game is open: it ends with "
        "`game_abandoned` (no winner) and leaves the lobby's open games. A started game "
        "cannot be abandoned by anyone: it ends by its rules, or as abandoned when no seat "
        "has acted for its `idle_minutes`. `Idempotency-Key` makes a retry safe.",
        responses=ADMIN_ANSWERS,
    )
    async def abandon(
        self,
        service: Service,
        game_id: GameId,
        token: Token,
        idempotency_key: IdempotencyKey = None,
    ) -> GameOut:
        outcome = await service.abandon(
            game_id, token, _check_idempotency_key(idempotency_key)
        )
        return _game_out(service, outcome.game, outcome.viewer)

    @get(
        "/{game_id:str}",
        operation_id="getGame",
        security=READER,
        summary="A game as the caller may see it",
        description="`view` holds exactly what the caller's seat may see (no token: a "
        "spectator's view); `legal` lists every command the caller may send now.",
        responses=responses(400, 401, 403, 404, 503),
        response_headers=[
            ResponseHeader(
                name="ETag",
                description='The game\'s seq, quoted ("12"): send it back as If-Match.',
                documentation_only=True,
            )
        ],
    )
    async def read(
        self, service: Service, game_id: GameId, token: Token
    ) -> Response[GameOut]:
        game, viewer = await _reader(service, game_id, token)
        return Response(_game_out(service, game, viewer), headers={"ETag": f'"{game.seq}"'})

    @post(
        "/{game_id:str}/commands",
        status_code=200,
        operation_id="sendCommand",
        security=SEAT,
        summary="Send a game command",
        description="The body is one of the game's commands, tagged by `type`; `legal` in "
        "GET /v1/games/{id} lists the ones allowed now. `Idempotency-Key` makes a retry "
        "safe; `If-Match: <seq>` refuses the command if the game has moved on.",
        responses=responses(
            400,
            401,
            403,
            404,
            409,
            412,
            413,
            422,
            503,
            s403="Not a seat's token, or a token of another game.",
            s409="The game's state or its rules forbid the command now; `code` names the "
            "rule (a game's own rules: the game it applies to is named first).",
            s422="An Idempotency-Key this seat used in this game with another body or "
            "another If-Match.",
        )
        | {
            204: ResponseSpec(
                None,
                description="Applied (or an Idempotency-Key's first answer again), answered "
                "minimally as `Prefer: return=minimal` asked: no body; `ETag` holds the "
                "game's seq after the command.",
                generate_examples=False,
            )
        },
    )
    async def command(
        self,
        service: Service,
        request: Request,
        game_id: GameId,
        data: Annotated[
            GameCommand,  # type: ignore[valid-type]
            Body(
                media_type=RequestEncodingType.JSON,
                schema_extra={"discriminator": Discriminator(property_name="type")},
            ),
        ],
        token: Token,
        idempotency_key: IdempotencyKey = None,
        if_match: Annotated[
            str | None,
            HeaderParameter(
                name="If-Match",
                required=False,
                description="The seq the command was decided against; 412 if it moved on.",
            ),
        ] = None,
        prefer: Prefer = None,
    ) -> Response[CommandResult]:
        full = not wants_minimal(prefer)
        outcome = await service.command(
            game_id,
            token,
            data,
            _check_idempotency_key(idempotency_key),
            _parse_if_match(if_match),
            full,
        )
        if full:
            return Response(_result(outcome))
        return Response(  # type: ignore[return-value]  # 204: no body (documented apart)
            None,
            status_code=204,
            headers={"ETag": f'"{outcome.seq}"', "Preference-Applied": "return=minimal"},
        )

    @get(
        "/{game_id:str}/events",
        operation_id="listEvents",
        security=READER,
        summary="The event log",
        description="Envelopes after seq `after`, redacted for the caller while the game "
        "runs, complete for everyone once it is finished.",
        responses=responses(400, 401, 403, 404, 503),
    )
    async def events(
        self,
        service: Service,
        request: Request,
        game_id: GameId,
        token: Token,
        after: Annotated[int, QueryParameter(ge=0, le=MAX_SEQ)] = 0,
        limit: Annotated[int, QueryParameter(ge=1, le=5000)] = 1000,
    ) -> EventPage:
        game, viewer = await _reader(service, game_id, token)
        log = []
        if after < game.seq:
            upto = min(game.seq, after + limit)
            log = await service.store.read_raw(game_id, after=after, upto=upto)
        envelopes = await _readable(request, game, log, viewer)
        return EventPage(events=[_envelope(e) for e in envelopes], last_seq=game.seq)

    @get(
        "/{game_id:str}/stream",
        operation_id="streamEvents",
        security=READER,
        summary="Live events (Server-Sent Events)",
        description="The same envelopes as /events as they are appended; each message's id is "
        "its seq, so a reconnect with Last-Event-ID (or `after`) resumes with no gap and no "
        "duplicate. Comments keep the line alive. The stream ends after the game's last event "
        "(`seed_revealed`); opened on a game that is over, it sends what follows and ends.",
        media_type="text/event-stream",
        responses=responses(
            400,
            401,
            403,
            404,
            429,
            503,
            s429="Too many requests or streams from this client.",
        ),
    )
    async def stream(
        self,
        service: Service,
        request: Request,
        game_id: GameId,
        token: Token,
        last_event_id: Annotated[
            str | None, HeaderParameter(name="Last-Event-ID", required=False)
        ] = None,
        after: Annotated[int, QueryParameter(ge=0, le=MAX_SEQ)] = 0,
    ) -> ServerSentEvent:
        game, viewer = await _reader(service, game_id, token)
        resume = seq_number(last_event_id.strip()) if last_event_id else None
        start = min(after if resume is None else resume, game.seq)
        hub: StreamHub = request.app.state.hub
        client = request.app.state.clients.of(request.scope)
        subscriber = hub.subscribe(game_id, viewer, client)
        messages = hub.events(subscriber, start)
        return ServerSentEvent(messages, background=BackgroundTask(hub.close, subscriber, messages))

    @get(
        "/{game_id:str}/replay",
        operation_id="replayGame",
        security=READER,
        summary="The game as it stood after event `seq`",
        description="Once the game is finished, the full state (every hand, the stack); "
        "while it runs, the caller's own view of that moment.",
        responses=responses(400, 401, 403, 404, 503),
    )
    async def replay(
        self,
        service: Service,
        request: Request,
        game_id: GameId,
        seq: Annotated[int, QueryParameter(ge=1, le=MAX_SEQ)],
        token: Token,
    ) -> Replayed:
        game, viewer = await _reader(service, game_id, token)
        if seq > game.seq:
            raise ApiError(404, "no_such_event", f"The game has {game.seq} events.")
        log, secret = await service.store.load(game_id, upto=seq)
        status, view = await _offload(request).run(
            offload.replay_view, game_id, log, secret, AUDITOR if game.finished else viewer
        )
        return Replayed(id=game_id, seq=seq, status=status, view=view)

    @get(
        "/{game_id:str}/export",
        operation_id="exportGame",
        security=READER,
        summary="The whole log as JSON Lines",
        description="One envelope per line, `game` included: complete once the game is "
        "finished (then `danger audit FILE` checks it offline), redacted for the caller before.",
        media_type="application/x-ndjson",
        responses=responses(400, 401, 403, 404, 503),
    )
    async def export(
        self,
        service: Service,
        request: Request,
        game_id: GameId,
        token: Token,
    ) -> Response[bytes]:
        game, viewer = await _reader(service, game_id, token)
        log = await service.store.read_raw(game_id, upto=game.seq)
        body = await _offload(request).run(
            offload.export_lines, game.rules.name, game.finished, log, viewer
        )
        return Response(body, media_type="application/x-ndjson")

    @get(
        "/{game_id:str}/audit",
        operation_id="auditGame",
        summary="Check the game's log",
        description="The hash chain, the seed against its commitment, every shuffle, every "
        "command decided again, every score: each check with pass or fail and, for a failure, "
        "the first event where it failed. The checks that need the seed wait for the game's end.",
        responses=responses(400, 404, 503),
    )
    async def audit(
        self, service: Service, request: Request, game_id: GameId
    ) -> Response[AuditReport]:
        game = await service.get(game_id)
        over, seq = game.finished, game.seq  # the cached game may move on while we wait
        kept = GameKeys(game_id).audit
        if over and (report := await service.store.redis.get(kept)) is not None:
            return Response(report, media_type="application/json")
        pool = _offload(request)
        report = pool.recent(game_id, seq)
        if report is None:
            log = await service.store.read_raw(game_id, upto=seq)
            report = await pool.run(offload.audit_report, log)
            pool.remember(game_id, seq, report)
        if over:  # the log of a game that is over never changes: audit it once
            await service.store.redis.set(kept, report, nx=True)
        return Response(report, media_type="application/json")

    @get(
        "/{game_id:str}/rounds/{n:int}",
        operation_id="getRound",
        security=READER,
        summary="A round's summary",
        description="Every event of round n (dealt, passed, played, scored) with the scoring "
        "and its reason for every point; redacted for the caller while the game runs. Fed by "
        "the rounds projection, so a round shows a moment after it changes.",
        responses=responses(400, 401, 403, 404, 503),
    )
    async def round_summary(
        self,
        service: Service,
        request: Request,
        game_id: GameId,
        n: Annotated[int, PathParameter(ge=1, le=10_000)],
        token: Token,
    ) -> RoundSummary:
        game, viewer = await _reader(service, game_id, token)
        raw = await request.app.state.redis.hget(rounds_key(game_id), str(n))
        if raw is None:
            raise ApiError(404, "no_such_round", f"Round {n} has not been played (yet).")
        index = msgspec.json.decode(raw, type=RoundIndex)
        log = await service.store.read_raw(game_id, after=index.first_seq - 1, upto=index.last_seq)
        envelopes = await _readable(request, game, log, viewer)
        return RoundSummary(
            round=n,
            first_seq=index.first_seq,
            last_seq=index.last_seq,
            complete=index.scored,
            events=[_envelope(e) for e in envelopes],
        )


@get(
    "/health",
    tags=["service"],
    operation_id="health",
    summary="Liveness: the store, the job worker's heartbeat, this process's background tasks, "
    "each projection's lag, errors and dead letters, and the durability in force",
    description="200 when all is well; 503, with the same body, when degraded.",
    responses={
        503: ResponseSpec(
            Health, description="Degraded: see `status`'s description.", generate_examples=False
        )
    },
)
async def health(request: Request) -> Response[Health]:
    state = request.app.state
    redis = state.redis
    try:
        await redis.ping()
        found = await projection_health(redis, state.get("projections"))
        beat = await state.queue.get(state.heartbeat_key)
        reachable = True
    except RedisError:
        found, beat, reachable = {}, None, False
    tasks = {
        name: TaskStatus(
            state=task_state,
            restarts=task.restarts,
            errors=task.errors,
            last_error=task.last_error,
            failing_seconds=None if failing is None else round(failing, 1),
        )
        for name, (task_state, task, failing) in state.supervisor.report().items()
    }
    well = reachable and beat is not None and all(t.state == "running" for t in tasks.values())
    cache = state.service.games
    in_force = state.durability
    body = Health(
        status="ok" if well else "degraded",
        redis="ok" if reachable else "unreachable",
        projections={name: Lag(**values) for name, values in found.items()},
        tasks=tasks,
        worker=beat.decode() if beat is not None else None,
        cache=CacheUse(games=len(cache), bytes=cache.bytes, max_bytes=cache.max_bytes),
        history_breaks=state.service.breaks.count,
        durability=DurabilityInForce(
            mode=in_force.durability.mode,
            replicas=in_force.durability.replicas,
            checked=in_force.checked,
            store=in_force.store,
        ),
    )
    return Response(body, status_code=200 if well else 503)
