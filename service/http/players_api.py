"""`/v1/players`: registering players, and each player's record."""

from __future__ import annotations

from typing import Annotated

from litestar import Controller, Request, get, post
from litestar.params import Body, PathParameter

from service.http.guards import app_keys
from service.http.problems import responses
from service.infra.errors import ApiError
from service.play import names, players
from service.readmodels import records
from service.wire.schemas import GameStats, PlayerStats, Registered, RegisterPlayer

PlayerId = Annotated[
    str,
    PathParameter(
        description="The id returned by POST /v1/players.",
        min_length=players.ID_LENGTH,
        max_length=players.ID_LENGTH,
        pattern="^[a-z0-9]+$",
    ),
]


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
        "the player joined with their token (fed by the players projection). Anonymous "
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
        )
