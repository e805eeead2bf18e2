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
from litestar.openapi.spec import Discriminator
from litestar.params import Body, QueryParameter
from litestar.response import Response

from domain.registry import GAMES
from service.http import own_games
from service.http.answers import RECEIPT_HEADER, game_out, reader, receipt_of, receipts, signed
from service.http.guards import app_keys
from service.http.params import (
    ADMIN,
    READER,
    GameId,
    IdempotencyKey,
    Service,
    Token,
    check_idempotency_key,
)
from service.http.problems import responses
from service.infra.errors import ApiError
from service.play import names, players
from service.play.game_model import Game
from service.play.games import CreateUnconfirmed, GameService
from service.play.idempotency import Unkept
from service.play.rematch import Rematches
from service.readmodels import lobby as lobby_model
from service.wire.schemas import (
    Created,
    CreateGame,
    GameName,
    GameOut,
    Joined,
    JoinGame,
    Lobby,
    LobbyEntry,
    Status,
)


async def _create(service: GameService, request: Request, data: Any) -> Created:
    name = data.__struct_config__.tag or data.game
    open_games = request.app.state.open_games
    async with open_games.place(request.app.state.redis, request.scope, service) as place:
        key = app_keys.of(request.scope)
        game, admin_token, invite = await service.create(
            name,
            data.seats,
            data.options,
            data.visibility == "private",
            key.id if key else None,
            data.rated,
        )
        place.keep(game.id)
        await request.app.state.own_games.record(request.app.state.redis, request.scope, game)
    return _created(service, request, game, admin_token, invite)


def _created(
    service: GameService, request: Request, game: Game, admin_token: str, invite: str | None
) -> Created:
    view = service.view(game, "spectator")
    receipt = receipts(request).of(game.id, game.seq, game.head, game.last_at)
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
        receipt=receipt,
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
        response_headers=[RECEIPT_HEADER],
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
            CreateGame,
            Body(
                description="The game, its number of seats and its options.",
                schema_extra={"discriminator": Discriminator(property_name="game")}
                if len(GAMES) > 1
                else None,
            ),
        ],
        idempotency_key: IdempotencyKey = None,
    ) -> Response[Created]:
        app_keys.require(request.scope, request.app.state.auth)
        key = check_idempotency_key(idempotency_key)
        if key is None:
            created = await _create(service, request, data)
            return signed(created, created.receipt, 201)
        # The key is the client's own: the first answer to it carries an admin token.
        redis, client = request.app.state.redis, request.app.state.clients.of(request.scope)
        creates, body = request.app.state.creates, msgspec.to_builtins(data)
        while True:
            first = await creates.claim(redis, client, key, body)
            if not isinstance(first, Unkept):
                break
            # A first create written but not confirmed: its game, once the replicas confirm
            # it (503 again until they do); if a failover took it back, a create afresh.
            game = await service.confirm_created(first.game, first.head)
            if game is not None:
                await request.app.state.own_games.record(redis, request.scope, game)
                created = _created(service, request, game, first.admin_token, first.invite)
                await creates.keep(redis, client, key, body, created)
                return signed(created, created.receipt, 201)
            if await creates.reclaim(redis, client, key, body, first):
                first = None
                break
        if first is not None:
            return signed(first, first.receipt, 201)
        try:
            created = await _create(service, request, data)
        except CreateUnconfirmed as exc:
            unkept = Unkept(exc.game_id, exc.admin_token, exc.invite, exc.head)
            await creates.keep_unkept(redis, client, key, body, unkept)
            raise
        except BaseException:
            await creates.drop(redis, client, key)
            raise
        await creates.keep(redis, client, key, body, created)
        return signed(created, created.receipt, 201)

    @get(
        "/",
        operation_id="listGames",
        security=[{}, {"appKey": []}],
        summary="The lobby, or the caller's own games",
        responses=responses(
            400, 401, s401="With `mine=true`: the app key sent is not, or no longer, one of its."
        ),
        description="Games newest first, filtered by status and kind of game; fed by the "
        "event feeds, so a game shows here a moment after it changes. Page with `cursor` (the "
        "`next` of the previous page: stable while games are created) or `offset`.\n\n"
        "With `mine=true`, the games the caller created instead, private ones too: by the app "
        "key it sends, else by its address (the client the open-games cap counts), its newest "
        "DANGER_CREATED_KEPT (200) for a week after its last create. A client that lost a "
        "game's admin token finds its games here, and may abandon those that have not "
        "started (abandonGame).",
    )
    async def lobby(
        self,
        service: Service,
        request: Request,
        mine: Annotated[
            bool,
            QueryParameter(
                required=False,
                description="The caller's own games (by its app key, else its address), "
                "private ones too, instead of the lobby's.",
            ),
        ] = False,
        status: Annotated[Status | None, QueryParameter(required=False)] = None,
        game: Annotated[GameName | None, QueryParameter(required=False)] = None,
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
        redis = request.app.state.redis
        if mine:
            own: own_games.OwnGames = request.app.state.own_games
            client = await own.caller(request)
            every = await own.listing(service, redis, client, status, game)
            found, total = own_games.page(every, limit, offset, after), len(every)
        else:
            found, total = await lobby_model.list_games(redis, status, game, limit, offset, after)
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
        response_headers=[RECEIPT_HEADER],
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
    ) -> Response[Joined]:
        try:
            name = names.normalised(data.name)
        except names.InvalidName as exc:
            raise ApiError(400, "invalid_name", str(exc)) from None
        player = None
        if players.looks_like_token(token):  # else an app key, or nothing
            player = await players.verify(request.app.state.redis, token)
        outcome, token = await service.join(
            game_id,
            name,
            data.entropy,
            data.team,
            data.bot,
            data.think_ms,
            check_idempotency_key(idempotency_key),
            request.app.state.clients.of(request.scope),
            player,
            data.invite,
            data.seat,
        )
        seat = outcome.envelopes[0].data["seat"]
        if player is not None:
            await players.announce_seat(request.app.state.redis, player, game_id)
        receipt = receipt_of(request, outcome)
        joined = Joined(seat=seat, token=token, seq=outcome.seq, receipt=receipt)
        return signed(joined, receipt, 201)

    @post(
        "/{game_id:str}/start",
        status_code=200,
        operation_id="startGame",
        response_headers=[RECEIPT_HEADER],
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
    ) -> Response[GameOut]:
        outcome = await service.start(game_id, token, check_idempotency_key(idempotency_key))
        seated = [p.player for p in outcome.game.table.players if p.player is not None]
        if seated:
            await players.seated(request.app.state.redis, seated)
        receipt = receipt_of(request, outcome)
        return signed(game_out(service, outcome.game, outcome.viewer, receipt), receipt)

    @post(
        "/{game_id:str}/abandon",
        status_code=200,
        operation_id="abandonGame",
        response_headers=[RECEIPT_HEADER],
        security=[*ADMIN, {"appKey": []}, {}],
        summary="Abandon a game that has not started",
        description="While the game is open, with its admin token, or without one by the "
        "client that created it (the app key it created it with, else the address it "
        "created it from: the games `GET /v1/games?mine=true` lists): it ends with "
        "`game_abandoned` (no winner), leaves the lobby's open games and frees its place "
        "under the creator's open-games cap. A started game cannot be abandoned by anyone: it "
        "ends by its rules, or as abandoned when no seat has acted for its `idle_minutes`. "
        "`Idempotency-Key` makes a retry safe.",
        responses=responses(
            400,
            401,
            403,
            404,
            409,
            422,
            503,
            s401="No token, and the caller did not create the game; or the token or app "
            "key sent is not valid here.",
            s403="Not the game's admin token, or a token of another game, or an app key "
            "that did not create the game.",
            s422="An Idempotency-Key the admin used in this game for another request.",
        ),
    )
    async def abandon(
        self,
        service: Service,
        request: Request,
        game_id: GameId,
        token: Token,
        idempotency_key: IdempotencyKey = None,
    ) -> Response[GameOut]:
        key = check_idempotency_key(idempotency_key)
        if token is not None and not app_keys.looks_like_key(token):
            outcome = await service.abandon(game_id, token, key)
        else:
            await service.get(game_id)  # an unknown game is 404, whoever asks
            own: own_games.OwnGames = request.app.state.own_games
            client = await own.caller(request)
            if not await own.created_by(request.app.state.redis, client, game_id):
                raise own_games.not_creator(token)
            outcome = await service.abandon_as_creator(game_id, key)
        receipt = receipt_of(request, outcome)
        return signed(game_out(service, outcome.game, outcome.viewer, receipt), receipt)

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
    async def read(self, service: Service, game_id: GameId, token: Token) -> Response[GameOut]:
        game, viewer = await reader(service, game_id, token)
        answer = game_out(service, game, viewer, rematch=await Rematches(service).of(game))
        return Response(answer, headers={"ETag": f'"{game.seq}"'})
