"""REST API v1: thin handlers that adapt HTTP to the command path and the read models.

Here, what every handler shares (parameters, security schemes, the game's answer) and the
lobby and a game's setup: create, list, join, start, abandon, read. Playing and following a
game: service/http/play_api.py; its history (replay, export, audit, rounds):
service/http/history_api.py; seats: service/http/seats_api.py; registered players:
service/http/players_api.py."""

from __future__ import annotations

from typing import Annotated, Any

import msgspec
from litestar import Controller, HttpMethod, Request, get, post, route
from litestar.datastructures import ResponseHeader
from litestar.di import NamedDependency
from litestar.openapi.spec import Discriminator, Reference, SecurityScheme
from litestar.params import Body, HeaderParameter, PathParameter, QueryParameter
from litestar.response import Response

from domain.registry import GAMES
from events.store import decode_envelope
from service.http.guards import app_keys
from service.http.problems import responses
from service.infra.clock import stamp
from service.infra.errors import ApiError
from service.play import names, offload, players
from service.play.game_model import Game, Outcome
from service.play.games import GameService
from service.readmodels import lobby as lobby_model
from service.wire.schemas import (
    Clock,
    CommandResult,
    Created,
    CreateGame,
    EventOut,
    GameName,
    GameOut,
    Joined,
    JoinGame,
    Lobby,
    LobbyEntry,
    Status,
)

GameId = Annotated[
    str,
    PathParameter(title="game_id", description="The id returned by POST /v1/games.", max_length=64),
]
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
    "operatorToken": SecurityScheme(
        type="http",
        scheme="bearer",
        description="The operators' token, DANGER_METRICS_TOKEN: a fresh /health (and "
        "/metrics, outside the spec) where the metrics are not open on this port.",
    ),
}
SEAT: list[dict[str, list[str]]] = [{"seatToken": []}]
ADMIN: list[dict[str, list[str]]] = [{"adminToken": []}]
READER: list[dict[str, list[str]]] = [{"seatToken": []}, {"adminToken": []}, {}]
INLINE_EVENTS = 1000  # a page of events longer than this is redacted off the event loop
MAX_SEQ = 2**53


def bearer(header: str | None) -> str | None:
    if header is None:
        return None
    scheme, _, token = header.strip().partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise ApiError(401, "token_invalid", "Send the token as 'Authorization: Bearer <token>'.")
    return token.strip()


def bearer_token(request: Request, service: Service) -> str | None:
    """The request's bearer token (the app's `token` dependency). It names `service` so that
    Litestar resolves the two one after the other: two dependencies of one level are resolved
    concurrently, in an anyio task group of their own, which cost more than both together
    (docs/performance.md, "What a command costs, counted")."""
    return bearer(request.headers.get("authorization"))


async def _reader(service: GameService, game_id: str, token: str | None) -> tuple[Game, Any]:
    """The game, and who is reading it (a seat, or a spectator without a token)."""
    game = await service.get(game_id)
    viewer, _ = await service.viewer(game, token)
    return game, viewer


def _offload(request: Request) -> offload.Offload:
    return request.app.state.offload  # type: ignore[no-any-return]


async def _offloaded(request: Request, function: Any, *args: Any) -> Any:
    """`function(*args)` in the CPU pool, on one of the places of the request's client."""
    client = request.app.state.clients.of(request.scope)
    return await _offload(request).run(client, function, *args)


async def _readable(request: Request, game: Game, log: list[bytes], viewer: Any) -> list[Any]:
    """The stored envelopes as `viewer` may read them: a short page here, a long one off the
    event loop."""
    if len(log) <= INLINE_EVENTS:
        return [game.readable(decode_envelope(raw), viewer) for raw in log]
    return await _offloaded(request, offload.readable, game.rules.name, game.finished, log, viewer)


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
        request: Request,
        game_id: GameId,
        token: Token,
        idempotency_key: IdempotencyKey = None,
    ) -> GameOut:
        outcome = await service.start(
            game_id, token, _check_idempotency_key(idempotency_key)
        )
        seated = [p.player for p in outcome.game.table.players if p.player is not None]
        if seated:
            await players.seated(request.app.state.redis, seated)
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
