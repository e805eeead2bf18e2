"""`/v1/quick-play`: a registered player (or the app key that registered them, on their
behalf) asks for a game; the service seats waiting players together and tells each its game,
seat and token (service/play/quick_play.py, docs/quick-play.md)."""

from __future__ import annotations

import logging
from datetime import UTC, datetime
from typing import Annotated, Any

import msgspec
from litestar import Controller, HttpMethod, Request, delete, get, post, route
from litestar.params import Body, PathParameter, QueryParameter
from litestar.response import Response

from domain.kernel.errors import InvalidOptions, RuleViolation
from domain.registry import GAMES
from service.http.guards import app_keys
from service.http.problems import responses
from service.infra.clock import stamp
from service.infra.errors import ApiError
from service.play import players, quick_play
from service.readmodels import ratings
from service.wire.quick_play_schemas import QuickPlayIn, QuickPlayOut, SeatOut, SeatRange

log = logging.getLogger("danger.quickplay")
CALLER: list[dict[str, list[str]]] = [{"playerToken": []}, {"appKey": []}]
MAX_WAIT_SECONDS = 30
RequestId = Annotated[
    str,
    PathParameter(
        title="request_id", description="The id a quick-play request was answered with.",
        max_length=64,
    ),
]  # fmt: skip


def _at(ms: int) -> str:
    return stamp(datetime.fromtimestamp(ms / 1000, UTC))


def out(request: quick_play.Request) -> QuickPlayOut:
    seated = None
    if request.status == "seated" and request.game and request.token is not None:
        seated = SeatOut(game=request.game, seat=request.seat or 0, token=request.token)
    return QuickPlayOut(
        id=request.id,
        status=request.status,
        game=request.kind,
        seats=SeatRange(min=request.min_seats, max=request.max_seats),
        player=request.player,
        rating=round(request.rating, 1),
        made_at=_at(request.made_ms),
        expires_at=_at(request.expires_ms),
        band=int(request.band) if request.band is not None else None,
        seated=seated,
    )


async def _caller(request: Request, for_player: str | None) -> str:
    """The player the request speaks for: the player whose token it carries, or, with an
    app key, the player named, whom that key registered."""
    token = app_keys.bearer_of(request.scope)
    redis = request.app.state.redis
    if players.looks_like_token(token):
        player = await players.verify(redis, token)
        if for_player is not None and for_player != player:
            raise ApiError(403, "not_this_player", "A player's token speaks for that player alone.")
        return player
    if app_keys.looks_like_key(token):
        key = await app_keys.verify(redis, token)
        if for_player is None:
            raise ApiError(
                422, "player_missing", "With an app key, name the player (`player`) it is for."
            )
        registered_by = await redis.hget(players.record_key(for_player), "app_key")
        if registered_by is None or _text(registered_by) != key.id:
            raise ApiError(403, "not_your_player", "This app key did not register that player.")
        return for_player
    raise ApiError(
        401,
        "player_token_required",
        "Quick play is a registered player's: send their token (Bearer dhp_...) or the app "
        "key that registered them.",
    )


def _text(value: bytes | str) -> str:
    return value.decode() if isinstance(value, bytes) else value


def _options(kind: str, given: dict[str, Any], seats: tuple[int, int]) -> Any:
    rules = GAMES[kind]
    if not rules.min_seats <= seats[0] <= seats[1] <= rules.max_seats:
        raise ApiError(
            422,
            "seats_out_of_range",
            f"{kind} is played by {rules.min_seats} to {rules.max_seats} seats.",
        )
    sandboxed = [k for k in rules.sandbox_options if given.get(k) is not None]
    if sandboxed:
        raise ApiError(
            403, "sandbox_only", f"Quick play takes no sandbox option ({', '.join(sandboxed)})."
        )
    try:
        options = msgspec.convert(given, rules.options_type)
    except msgspec.ValidationError as exc:
        raise ApiError(400, "invalid_body", f"options: {exc}") from None
    for count in range(seats[0], seats[1] + 1):
        try:
            rules.check_options(options, count)
        except (RuleViolation, InvalidOptions) as exc:
            raise ApiError(422, exc.code, f"With {count} seats: {exc.message}") from None
    return options


async def _own(request: Request, request_id: str) -> quick_play.Request:
    token = app_keys.bearer_of(request.scope)
    if not (players.looks_like_token(token) or app_keys.looks_like_key(token)):
        await _caller(request, None)  # 401: whose request it is is not told to anyone
    found = await quick_play.get(request.app.state.redis, request_id)
    if found is None:
        raise ApiError(404, "unknown_request", "There is no quick-play request with that id.")
    await _caller(request, found.player)
    return found


def _now_ms(request: Request) -> int:
    return int(request.app.state.service.clock.time() * 1000)


class QuickPlayController(Controller):
    path = "/v1/quick-play"
    tags = ["players"]
    security = CALLER

    # Litestar builds OPTIONS handler by handler, keeping the first one's methods: this,
    # named to sort first, answers for the path with all of its methods.
    @route(
        "/{request_id:str}",
        http_method=[HttpMethod.OPTIONS],
        include_in_schema=False,
        status_code=204,
    )
    async def allow_one(self) -> Response[None]:
        return Response(None, status_code=204, headers={"Allow": "DELETE, GET, OPTIONS"})

    @post(
        "/",
        operation_id="requestQuickPlay",
        summary="Ask for a game: seated with other waiting players as soon as enough wait",
        description="A registered player (their token, or the app key that registered them "
        "with `player`) asks for a game of a kind and a number of seats (or a range), with "
        "an optional rating band and the game's options. As soon as enough compatible "
        "requests wait, the service makes the game, seats them (each seat taken as the "
        "player's, from the client that asked), starts it, and marks each request `seated` "
        "with the game, the seat and its token: poll `GET /v1/quick-play/{id}?wait=30` for "
        "the token (the player's stream tells `game_joined`, then `game_started`). A player "
        "holds one request at a time; it expires after DANGER_QUICK_PLAY_SECONDS (300).",
        responses=responses(
            400,
            401,
            403,
            409,
            413,
            415,
            422,
            s409="This player waits for a game already.",
        ),
    )
    async def ask(
        self, request: Request, data: Annotated[QuickPlayIn, Body()]
    ) -> Response[QuickPlayOut]:
        player = await _caller(request, data.player)
        seats = (
            (data.seats, data.seats)
            if isinstance(data.seats, int)
            else (data.seats.min, data.seats.max)
        )
        options = _options(data.game, data.options, seats)
        redis = request.app.state.redis
        now = _now_ms(request)
        name = await players.name_of(redis, player) or player
        standing = await ratings.standing(redis, data.game, player)
        settings = request.app.state.quick_play
        made = await quick_play.file(
            redis,
            player,
            name,
            data.game,
            seats,
            options,
            standing.rating.rating if standing is not None else 1500.0,
            float(data.band) if data.band is not None else None,
            request.app.state.clients.of(request.scope),
            data.entropy,
            now,
            settings.seconds,
            settings.waiting,
        )
        try:  # seat at once if this request completes a game; else the worker will
            await quick_play.Seater(redis, request.app.state.service, lambda: now).match(data.game)
        except ApiError as exc:
            log.warning("quick play for %s: %s", data.game, exc.detail)
        return Response(out(await quick_play.get(redis, made.id) or made), status_code=201)

    @get(
        "/{request_id:str}",
        operation_id="getQuickPlay",
        summary="A quick-play request: waiting, or where its player was seated",
        description="With `wait` (seconds, at most 30), the answer waits until the request "
        "is no longer waiting (seated, expired or cancelled) or the time is up: a long poll. "
        "Once seated, `seated` has the game, the seat and its token.",
        responses=responses(400, 401, 403, 404),
    )
    async def one(
        self,
        request: Request,
        request_id: RequestId,
        wait: Annotated[
            int,
            QueryParameter(
                ge=0,
                le=MAX_WAIT_SECONDS,
                description="Seconds to wait for a change before answering (a long poll).",
            ),
        ] = 0,
    ) -> QuickPlayOut:
        found = await _own(request, request_id)
        if wait:
            found = await quick_play.wait_for_change(request.app.state.redis, found, wait)
        return out(found)

    @delete(
        "/{request_id:str}",
        operation_id="cancelQuickPlay",
        summary="Stop waiting",
        responses=responses(
            400, 401, 403, 404, 409, s409="The request is no longer waiting (seated, or ended)."
        ),
    )
    async def cancel(self, request: Request, request_id: RequestId) -> None:
        found = await _own(request, request_id)
        if not await quick_play.cancel(request.app.state.redis, found):
            raise ApiError(409, "not_waiting", f"The request is {found.status}, not waiting.")
