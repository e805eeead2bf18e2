"""The leaderboards: each kind of game's rated players, highest rating first
(service/readmodels/ratings.py)."""

from __future__ import annotations

import re
from typing import Annotated

from litestar import Controller, Request, get
from litestar.params import PathParameter, QueryParameter

from service.http.problems import responses
from service.infra.errors import ApiError
from service.play import players
from service.readmodels import ratings
from service.wire.rating_schemas import Leaderboard, LeaderboardRow
from service.wire.schemas import GameName

CURSOR_PATTERN = r"^-?[0-9]{1,6}(\.[0-9]{1,20})?(e-?[0-9]{1,3})?~[a-z0-9]{1,64}$"


def parse_cursor(cursor: str) -> tuple[float, str] | None:
    if re.fullmatch(CURSOR_PATTERN.strip("^$"), cursor) is None:
        return None
    rating, _, player = cursor.partition("~")
    return float(rating), player


def cursor_of(rating: float, player: str) -> str:
    """The cursor after this row: stable while ratings move elsewhere, unlike an offset."""
    return f"{rating!r}~{player}"


class LeaderboardsController(Controller):
    path = "/v1/leaderboards"
    tags = ["players"]

    @get(
        "/{game:str}",
        operation_id="getLeaderboard",
        summary="A game's leaderboard",
        description="The players rated in this kind of game, highest rating first (Glicko-2; "
        'docs/rulings.md, "Ratings"), provisional ones too, marked; with `player=`, that '
        "player's own row wherever it is (`you`). Page with `cursor` (the `next` of the "
        "previous page). Fed by the ratings, which take a rated game a few seconds after it "
        "finished.",
        responses=responses(400),
    )
    async def board(
        self,
        request: Request,
        game: Annotated[GameName, PathParameter(description="The kind of game.")],
        limit: Annotated[int, QueryParameter(ge=1, le=100)] = 20,
        cursor: Annotated[
            str | None,
            QueryParameter(
                required=False,
                pattern=CURSOR_PATTERN,
                description="The `next` of the previous page: the players after its last one.",
            ),
        ] = None,
        player: Annotated[
            str | None,
            QueryParameter(
                required=False,
                description="A player whose own row to add (`you`).",
                min_length=players.ID_LENGTH,
                max_length=players.ID_LENGTH,
                pattern="^[a-z0-9]+$",
            ),
        ] = None,
    ) -> Leaderboard:
        after = None
        if cursor is not None:
            after = parse_cursor(cursor)
            if after is None:
                raise ApiError(400, "invalid_cursor", "That is not a cursor of this list.")
        redis = request.app.state.redis
        rows, more = await ratings.page(redis, game, after, limit)
        you = await ratings.standing(redis, game, player) if player is not None else None
        names = await _names(redis, [r.player for r in rows] + ([you.player] if you else []))
        return Leaderboard(
            game=game,
            players=[_row(r, names) for r in rows],
            total=await redis.zcard(ratings.key(game, "board")),
            limit=limit,
            next=cursor_of(*more) if more is not None else None,
            you=_row(you, names) if you is not None else None,
        )


async def _names(redis: object, player_ids: list[str]) -> dict[str, str]:
    return {p: (await players.name_of(redis, p)) or "" for p in dict.fromkeys(player_ids)}


def _row(standing: ratings.Standing, names: dict[str, str]) -> LeaderboardRow:
    rating = standing.rating
    return LeaderboardRow(
        rank=standing.rank,
        player=standing.player,
        name=names.get(standing.player, ""),
        rating=round(rating.rating, 1),
        deviation=round(rating.deviation, 1),
        games=rating.games,
        provisional=rating.provisional,
    )
