"""Playing again: a game that is over offers its table one new game of the same kind, seat
count, options and visibility, made by the first of its seats (or its admin) to ask.

The link from the old game to the new one is kept beside the old game's log, never in it (a
log is closed once its seed is revealed): one key in the old game's slot, written with
`SET NX`, so whichever process asks first makes the game every later request is given. A
request that lost that race has made a game nobody will be given: it abandons it at once,
as its admin, and answers with the winner.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from domain.kernel import table as tables
from events.keys import GameKeys
from service.infra.errors import ApiError
from service.play.game_model import Game
from service.play.games import GameService

Make = Callable[[str, int, object, bool], Awaitable[tuple[Game, str, str | None]]]
"""Creates a game (kind, seats, options, private): the game, its admin token and invite."""


@dataclass(frozen=True)
class Rematch:
    game: Game
    """The new game, as it stands now."""
    admin_token: str | None
    """Its admin token: given to the one request that made it, never again."""
    invite: str | None
    """A private rematch's invite, likewise given once."""

    @property
    def made(self) -> bool:
        return self.admin_token is not None


class Rematches:
    def __init__(self, service: GameService) -> None:
        self.service = service

    async def of(self, game: Game) -> str | None:
        """The id of the game made to play `game` again, once there is one."""
        if not tables.is_over(game.table.status):
            return None
        found = await self.service.store.redis.get(GameKeys(game.id).rematch)
        return found.decode() if isinstance(found, bytes) else found

    async def rematch(self, game_id: str, token: str | None, make: Make) -> Rematch:
        """The new game of the table of `game_id`, made now unless it was already: for a
        seat's token or the admin's of a game that is over."""
        service = self.service
        game = await service.get(game_id)
        await service.access.role(game, service.access.required(token))
        if not tables.is_over(game.table.status):
            raise ApiError(
                409,
                "game_not_over",
                f"This game is {game.table.status}: its table plays again once it is over.",
            )
        known = await self.of(game)
        if known is not None:
            return Rematch(await service.get(known), None, None)
        table = game.table
        made, admin_token, invite = await make(
            table.game, table.seats, table.options, table.private
        )
        link = GameKeys(game_id).rematch
        if await service.store.redis.set(link, made.id, nx=True):
            return Rematch(made, admin_token, invite)
        # Another request made the table's game first: this one is given to no one.
        await service.abandon(made.id, admin_token)
        winner = await self.of(game)
        assert winner is not None
        return Rematch(await service.get(winner), None, None)
