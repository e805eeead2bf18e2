"""`/v1/players`: registering players, each player's record, and their games (a page, or
an export as JSON Lines)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import UTC, datetime
from typing import Annotated, Any

import msgspec
from litestar import Controller, Request, get, post
from litestar.background_tasks import BackgroundTask
from litestar.openapi.datastructures import ResponseSpec
from litestar.params import Body, PathParameter, QueryParameter
from litestar.response import Response, Stream

from service.http import stream_forms
from service.http.guards import app_keys
from service.http.params import Token
from service.http.problems import responses
from service.infra.errors import ApiError
from service.live.player_streams import PlayerSubscriber
from service.live.streams import StreamHub
from service.play import names, players
from service.readmodels import lobby, player_games, ratings, records
from service.wire.rating_schemas import PlayerRating, RatingPoint
from service.wire.schemas import (
    GameName,
    GameStats,
    PlayerGameEntry,
    PlayerGameLinks,
    PlayerGameResult,
    PlayerGames,
    PlayerNotice,
    PlayerStats,
    Registered,
    RegisterPlayer,
)

PLAYER: list[dict[str, list[str]]] = [{"playerToken": []}, {"appKey": []}, {}]
EXPORT_MAX = 10_000
"""The most games one export holds."""
EXPORT_PAGE = 100
"""Games read, encoded and sent at a time by an export: a chunk of a few milliseconds."""
PRIVATE_RULE = (
    "A private game is listed only to the player themselves, when the request carries "
    "their own token (`Authorization: Bearer dhp_...`): its id, which lets anyone watch "
    'it, goes only to those its admin gives it to (docs/rulings.md, "A player\'s games").'
)
ResultFilter = Annotated[
    PlayerGameResult | None,
    QueryParameter(
        required=False,
        description="Only the games of this result: `playing` (open or active), `won`, "
        "`lost` or `abandoned`.",
    ),
]
GameFilter = Annotated[
    GameName | None, QueryParameter(required=False, description="Only games of this kind.")
]

PlayerId = Annotated[
    str,
    PathParameter(
        description="The id returned by POST /v1/players.",
        min_length=players.ID_LENGTH,
        max_length=players.ID_LENGTH,
        pattern="^[a-z0-9]+$",
    ),
]


def links_of(game_id: str) -> PlayerGameLinks:
    api = f"/v1/games/{game_id}"
    return PlayerGameLinks(
        game=api,
        replay=f"{api}/replay",
        export=f"{api}/export",
        audit=f"{api}/audit",
        page=f"/games/{game_id}",
    )


def entry_out(game: player_games.PlayerGame) -> PlayerGameEntry:
    fields = {f: getattr(game, f) for f in PlayerGameEntry.__struct_fields__ if f != "links"}
    return PlayerGameEntry(**fields, links=links_of(game.id))


async def _reader(request: Request, player_id: str, token: str | None) -> bool:
    """404 for a player that does not exist; whether the caller is the player (a player
    token of another player reads as anyone does; one that is no player's is refused)."""
    redis = request.app.state.redis
    if await players.name_of(redis, player_id) is None:
        raise ApiError(404, "unknown_player", "No player has this id.")
    if token is None:
        return False
    if not players.looks_like_token(token):
        raise ApiError(401, "player_token_invalid", "That is not a player token of this service.")
    return await players.verify(redis, token) == player_id


async def _close(hub: StreamHub, subscriber: PlayerSubscriber, messages: Any) -> None:
    """After the answer, however it ended (as StreamHub.close)."""
    await messages.aclose()
    hub.release_player(subscriber)


class PlayersController(Controller):
    path = "/v1/players"
    tags = ["players"]

    @post(
        "/",
        status_code=201,
        operation_id="registerPlayer",
        summary="Register a player",
        description="A player identity for an app's user: its `token` (shown once) seats "
        "them in a join, and their finished games then count in their record, whatever "
        "name they join under. Names need not be unique. With DANGER_AUTH=keys, an app key "
        "is needed.",
        responses=responses(
            400,
            401,
            413,
            s400="Malformed: not JSON, not this body, or a refused name.",
            s401="This server asks for an app key (DANGER_AUTH=keys), or the one sent is "
            "not, or no longer, one of its.",
        ),
    )
    async def register(
        self,
        request: Request,
        data: Annotated[RegisterPlayer, Body()],
    ) -> Registered:
        app_keys.require(request.scope, request.app.state.auth)
        try:
            name = names.normalised(data.name)
        except names.InvalidName as exc:
            raise ApiError(400, "invalid_name", str(exc)) from None
        key = app_keys.of(request.scope)
        state = request.app.state
        player_id, token = await players.register(
            state.redis,
            name,
            key.id if key else None,
            state.clients.of(request.scope),
            state.unseated_players,
        )
        return Registered(id=player_id, name=name, token=token)

    @get(
        "/{player_id:str}",
        operation_id="getPlayer",
        summary="A registered player's record",
        description="Finished games, wins and average score per kind of game, of the games "
        "the player joined with their token (fed by the players projection), and their "
        "rating in each kind they were rated in, with its rank and history. Anonymous "
        "seats count in no one's record; an abandoned game counts in nobody's.",
        responses=responses(400, 404, s404="No player has this id."),
    )
    async def record(self, request: Request, player_id: PlayerId) -> PlayerStats:
        redis = request.app.state.redis
        name = await players.name_of(redis, player_id)
        if name is None:
            raise ApiError(404, "unknown_player", "No player has this id.")
        results = await records.results(redis, player_id)
        by_game: dict[str, GameStats] = {}
        for kind in sorted({r.game for r in results}):
            mine = [r for r in results if r.game == kind]
            by_game[kind] = GameStats(
                games=len(mine),
                wins=sum(r.won for r in mine),
                average_score=round(sum(r.score for r in mine) / len(mine), 2),
            )
        return PlayerStats(
            id=player_id,
            name=name,
            games=len(results),
            wins=sum(r.won for r in results),
            by_game=by_game,
            ratings={
                kind: rating_out(rating, rank, points)
                for kind, (rating, rank, points) in (
                    await ratings.of_player(redis, player_id)
                ).items()
            },
        )

    @get(
        "/{player_id:str}/games",
        operation_id="listPlayerGames",
        security=PLAYER,
        summary="A registered player's games",
        description="The games the player joined with their token, newest first: each with "
        "its kind, status, the player's seat, when it was created and ended, the player's "
        "result and score, and where to read, replay, export and audit it. Filter by `game` "
        "and `result`; page with `cursor` (the `next` of the previous page: stable while "
        "games are created). A seat given up before the start takes the game off the list; "
        "anonymous seats are in no one's. " + PRIVATE_RULE + " Fed by the player_games "
        "projection, so a game shows here a moment after it changes.",
        responses=responses(
            400,
            401,
            404,
            s401="A token that is no registered player's.",
            s404="No player has this id.",
        ),
    )
    async def games(
        self,
        request: Request,
        player_id: PlayerId,
        token: Token,
        game: GameFilter = None,
        result: ResultFilter = None,
        limit: Annotated[int, QueryParameter(ge=1, le=100)] = 20,
        cursor: Annotated[
            str | None,
            QueryParameter(
                required=False,
                pattern=lobby.CURSOR_PATTERN,
                description="The `next` of the previous page: the games created before its "
                "last one.",
            ),
        ] = None,
    ) -> PlayerGames:
        after = None
        if cursor is not None:
            after = lobby.parse_cursor(cursor)
            if after is None:
                raise ApiError(400, "invalid_cursor", "That is not a cursor of this list.")
        own = await _reader(request, player_id, token)
        found, total = await player_games.page(
            request.app.state.redis, player_id, own, result, game, limit, after
        )
        return PlayerGames(
            player=player_id,
            games=[entry_out(g) for g in found],
            total=total,
            limit=limit,
            includes_private=own,
            next=player_games.cursor_of(found[-1]) if len(found) == limit else None,
        )

    @get(
        "/{player_id:str}/stream",
        operation_id="streamPlayer",
        security=[{"playerToken": []}],
        summary="A player's live notices across their games (Server-Sent Events or NDJSON)",
        description="With the player's own token: a notice whenever one of their games needs "
        "them, so that a client follows all of a player's games on one connection (as "
        "Lichess's /api/stream/event): `game_joined` (the player took a seat), "
        "`game_started`, `your_turn` (the player's seat may act now), `game_ended` and "
        "`game_left` (their seat given up or taken from them), each a `PlayerNotice` with the "
        "game's id, kind, the player's seat, its status and seq. It begins with the games "
        "open or running now (the newest `DANGER_PLAYER_STREAM_GAMES`), each as it stands, so "
        "a reconnect needs no resume. A notice says what the game is when it is made: a turn "
        "that came and went before it is not told. Follow a game itself with streamEvents "
        "(`view=true`). With `Accept: application/x-ndjson`, one notice a line; comments (or "
        "empty lines) keep the line alive. It counts as one stream against the caps.",
        media_type="text/event-stream",
        responses=responses(
            400,
            401,
            403,
            404,
            429,
            503,
            s401="No player token, or one that is no registered player's.",
            s403="A token of another player.",
            s404="No player has this id.",
            s429="Too many requests or streams from this client.",
        )
        | {
            200: ResponseSpec(
                PlayerNotice,
                description="The notices, as Server-Sent Events (the event named by the "
                "notice's `type`) or JSON Lines.",
                media_type=stream_forms.NDJSON,
                generate_examples=False,
            )
        },
    )
    async def stream(self, request: Request, player_id: PlayerId, token: Token) -> Response[Any]:
        if token is None:
            raise ApiError(401, "player_token_required", "Send the player's own token.")
        if not await _reader(request, player_id, token):
            raise ApiError(403, "not_this_player", "That token is another player's.")
        lines = stream_forms.wants_lines(request.headers.get("accept"))
        if stream_forms.is_head(request.scope):
            return stream_forms.head_only(lines)
        state = request.app.state
        hub: StreamHub = state.hub
        bound = state.player_stream_games
        subscriber = hub.subscribe_player(
            player_id,
            state.clients.of(request.scope),
            lines,
            bound,
            lambda: player_games.playing(state.redis, player_id, bound),
        )
        messages = hub.player_notices(subscriber)
        return stream_forms.answer(
            messages, lines, BackgroundTask(_close, hub, subscriber, messages)
        )

    @get(
        "/{player_id:str}/games/export",
        operation_id="exportPlayerGames",
        security=PLAYER,
        summary="A registered player's games as JSON Lines",
        description="The entries of listPlayerGames, one JSON object a line, newest first, "
        f"`max` of them at most (up to {EXPORT_MAX:,}), filtered as the list is. Sent as it "
        f"is read, {EXPORT_PAGE} games at a time; games created meanwhile are not in it. "
        + PRIVATE_RULE,
        media_type="application/x-ndjson",
        responses=responses(
            400,
            401,
            404,
            s401="A token that is no registered player's.",
            s404="No player has this id.",
        ),
    )
    async def export(
        self,
        request: Request,
        player_id: PlayerId,
        token: Token,
        game: GameFilter = None,
        result: ResultFilter = None,
        max: Annotated[  # the parameter's name in the API, as Lichess's
            int,
            QueryParameter(ge=1, le=EXPORT_MAX, description="The most games to send."),
        ] = 1000,
    ) -> Stream:
        own = await _reader(request, player_id, token)
        redis = request.app.state.redis
        encode = msgspec.json.Encoder().encode

        async def lines() -> AsyncIterator[bytes]:
            left, after = max, None
            while left > 0:
                found, _ = await player_games.page(
                    redis, player_id, own, result, game, min(left, EXPORT_PAGE), after
                )
                if not found:
                    return
                yield b"".join(encode(entry_out(g)) + b"\n" for g in found)
                left -= len(found)
                last = found[-1]
                after = (lobby.score(last.created_at), last.id)
                if len(found) < EXPORT_PAGE:
                    return

        return Stream(lines(), media_type="application/x-ndjson")


def _iso(ms: int) -> str:
    return (
        datetime.fromtimestamp(ms / 1000, UTC)
        .isoformat(timespec="milliseconds")
        .replace("+00:00", "Z")
    )


def rating_out(
    rating: ratings.PlayerRating, rank: int, points: list[ratings.Point]
) -> PlayerRating:
    return PlayerRating(
        rating=round(rating.rating, 1),
        deviation=round(rating.deviation, 1),
        volatility=round(rating.volatility, 6),
        games=rating.games,
        provisional=rating.provisional,
        rank=rank,
        history=[
            RatingPoint(p.game, _iso(p.at_ms), round(p.rating, 1), round(p.deviation, 1))
            for p in points
        ],
    )
