"""`POST /v1/games/{id}/rematch`: a finished game's table plays again
(service/play/rematch.py)."""

from __future__ import annotations

from litestar import Controller, Request, post
from litestar.response import Response

from service.http.answers import RECEIPT_HEADER, receipts, signed
from service.http.params import GameId, Service, Token
from service.http.problems import responses
from service.play.game_model import Game
from service.play.rematch import Rematches
from service.wire.schemas import RematchOut

SEAT_OR_ADMIN: list[dict[str, list[str]]] = [{"seatToken": []}, {"adminToken": []}]


class RematchController(Controller):
    path = "/v1/games/{game_id:str}/rematch"
    tags = ["games"]

    @post(
        "/",
        status_code=200,
        operation_id="rematchGame",
        response_headers=[RECEIPT_HEADER],
        security=SEAT_OR_ADMIN,
        summary="Play again: the table's next game",
        description="With a token of a seat of the game or its admin's, once the game is "
        "over (finished or abandoned): the new game of the same kind, seat count, options "
        "(sandbox-only ones aside: its seed is new) and visibility. The first request makes "
        "it and is given its admin token (and a private game's invite), as a create is; "
        "every later one, from anyone at the table and through any API process, is given the "
        "same game without them. `GET /v1/games/{id}` of the old game names it as `rematch`. "
        "Each former seat joins it as any game is joined, with `seat` to keep its old seat. "
        "The new game counts among the open games of the client that made it.",
        responses=responses(
            400,
            401,
            403,
            404,
            409,
            503,
            s403="A token of another game.",
            s409="The game is not over yet, or the client holds as many open games as it may.",
        ),
    )
    async def rematch(
        self, service: Service, request: Request, game_id: GameId, token: Token
    ) -> Response[RematchOut]:
        async def make(
            name: str, seats: int, options: object, private: bool
        ) -> tuple[Game, str, str | None]:
            # The old game's app key has the new one too (its webhooks hear of it).
            owner = (await service.store.secrets(game_id)).get("owner")
            async with request.app.state.open_games.place(
                request.app.state.redis, request.scope, service
            ) as place:
                made = await service.create(name, seats, options, private, owner)
                place.keep(made[0].id)
            return made

        found = await Rematches(service).rematch(game_id, token, make)
        game = found.game
        receipt = None
        if found.made:  # a game just made: its head is its first event
            receipt = receipts(request).of(game.id, game.seq, game.head, game.last_at)
        body = RematchOut(
            id=game.id,
            game=game.rules.name,
            status=game.table.status,
            seats=game.table.seats,
            seq=game.seq,
            rematch_of=game_id,
            admin_token=found.admin_token,
            invite=found.invite,
            receipt=receipt,
        )
        return signed(body, receipt)
