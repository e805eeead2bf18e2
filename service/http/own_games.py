"""A client's own games: those it created, listed by `GET /v1/games?mine=true` (private ones
too) and abandoned by it before their start without their admin token.

The client is the one the open-games cap counts (service/http/guards/open_games.py): the app
key the request carries, else its address (or what a trusted proxy names). Its games are the
record kept at each create (service/play/created_games.py: the newest DANGER_CREATED_KEPT),
and the games its open-games places are held by, which holds the games created before the
record was kept while they are open.

Who may abandon what: a game that has not started may be abandoned by its admin token, or,
without a token, by the client that created it (an app key by that key, else from that
address). Once started, nobody abandons a game: it ends by its rules, or when idle.
"""

from __future__ import annotations

import logging
import time
from typing import Any

from litestar import Request

from service.http.guards import app_keys, open_games
from service.http.guards.clients import SCOPE_KEY, Clients
from service.infra.connections import UNREACHABLE, pool_ran_dry
from service.infra.errors import ApiError
from service.play import created_games
from service.play.game_model import Game
from service.play.games import GameService
from service.readmodels import lobby as lobby_model
from service.readmodels.lobby import LobbyGame

log = logging.getLogger("danger.games")


_said_at = -60.0


def _not_recorded(game_id: str, exc: Exception) -> None:
    """Said at most once a minute: a node that is away is said by every create."""
    global _said_at
    now = time.monotonic()
    if now - _said_at >= 60:
        _said_at = now
        log.warning("a create's client was not recorded, its store away (%s): %s", game_id, exc)


class OwnGames:
    def __init__(self, kept: int, clients: Clients) -> None:
        self.kept = kept
        self.clients = clients

    async def record(self, redis: Any, scope: Any, game: Game) -> None:
        """The request's client created `game`. The game is made whatever becomes of this:
        a client's record on a node that is away (a cluster's master failing over) is not
        kept, and the create is answered, as the rate limits let a request through then
        (service/http/guards/ratelimit.py). Such a game is then missing from its client's
        `mine=true` list, unless the open-games cap holds a place for it."""
        client = self.clients.of(scope)
        at = lobby_model.score(game.created_at)
        try:
            await created_games.record(redis, client, game.id, at, self.kept)
        except UNREACHABLE as exc:
            if pool_ran_dry(exc):
                raise
            _not_recorded(game.id, exc)

    async def caller(self, request: Request) -> str:
        """The client a read or an abandon is made by: the app key it carries (verified here,
        where the keys' middleware does not look: a bad one is 401), else its address."""
        scope: Any = request.scope  # an entry of ours beside ASGI's own
        token = app_keys.bearer_of(scope)
        if app_keys.of(scope) is None and app_keys.looks_like_key(token):
            scope[SCOPE_KEY] = await app_keys.verify(request.app.state.redis, token)
        return self.clients.of(scope)

    async def created_by(self, redis: Any, client: str, game_id: str) -> bool:
        if await created_games.created(redis, client, game_id):
            return True
        return game_id in dict(await open_games.held(redis, client))

    async def listing(
        self,
        service: GameService,
        redis: Any,
        client: str,
        status: str | None,
        game: str | None,
    ) -> list[LobbyGame]:
        """The client's games of that status and kind, newest first (as the lobby orders
        them), each as the lobby summarises it, or from this process's fold of it where that
        is newer (a start or an abandon it just answered), or from a fold read now where the
        lobby has not caught up with a new game yet."""
        found = dict(await open_games.held(redis, client))
        found.update(await created_games.listing(redis, client))
        order = sorted(found.items(), key=lambda item: (item[1], item[0]), reverse=True)
        ids = [game_id for game_id, _ in order]
        known = await lobby_model.summaries(redis, ids)
        games = []
        for game_id in ids:
            summary = known[game_id]
            fold = service.cached(game_id)
            if fold is not None and (summary is None or fold.seq > summary.seq):
                summary = _summary(fold)
            elif summary is None:
                try:
                    summary = _summary(await service.get(game_id))
                except ApiError:  # a game whose keys are gone
                    continue
            if (status is None or summary.status == status) and game in (None, summary.game):
                games.append(summary)
        return games


def page(
    games: list[LobbyGame], limit: int, offset: int, after: tuple[int, str] | None
) -> list[LobbyGame]:
    """A page of `games` (newest first): from `offset`, or after the cursor's game."""
    if after is None:
        return games[offset : offset + limit]
    rest = [g for g in games if (lobby_model.score(g.created_at), g.id) < after]
    return rest[:limit]


def not_creator(token: str | None) -> ApiError:
    """The refusal of an abandon without the admin token by a client that did not create
    the game."""
    if token is None:
        return ApiError(
            401,
            "token_missing",
            "Send the game's admin token as 'Authorization: Bearer ...': without it, only the "
            "client that created the game (its app key, or its address) may abandon it.",
        )
    return ApiError(
        403,
        "not_creator",
        "This app key did not create the game: only its admin token, or the app key or "
        "address that created it, may abandon it.",
    )


def _summary(game: Game) -> LobbyGame:
    table = game.table
    seated = sorted(table.players, key=lambda p: p.seat)
    return LobbyGame(
        id=game.id,
        game=game.rules.name,
        status=table.status,
        seats=table.seats,
        players=[p.name for p in seated],
        created_at=game.created_at,
        seq=game.seq,
        private=table.private,
        seated=[p.seat for p in seated],
    )
