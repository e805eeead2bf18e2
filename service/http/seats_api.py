"""`/v1/games/{id}/players/{seat}`: giving up a seat, moving it to another team, a new
token for it, and resigning it from a game in play (service/play/seats.py)."""

from __future__ import annotations

from typing import Annotated

from litestar import Controller, HttpMethod, Request, Response, delete, patch, post, route
from litestar.params import Body, PathParameter

from service.http.answers import RECEIPT_HEADER, game_out, receipt_of, receipts, signed
from service.http.params import (
    GameId,
    IdempotencyKey,
    Service,
    Token,
    check_idempotency_key,
)
from service.http.problems import responses
from service.play.seats import Seats
from service.wire.schemas import GameOut, NewSeatToken, TeamChange

SeatNumber = Annotated[int, PathParameter(description="The seat, from 0.", ge=0, le=7)]
SEAT_OR_ADMIN: list[dict[str, list[str]]] = [{"seatToken": []}, {"adminToken": []}]
SEAT: list[dict[str, list[str]]] = [{"seatToken": []}]

_MEANINGS = {
    "s403": "A token of another game.",
    "s409": "The table's rules forbid it now; `code` names the rule.",
    "s422": "An Idempotency-Key this token used in this game for another request.",
}
MANAGED = responses(400, 401, 403, 404, 409, 422, 503, **_MEANINGS)
WITH_BODY = responses(400, 401, 403, 404, 409, 413, 422, 503, **_MEANINGS)


def _seats(request: Request) -> Seats:
    return Seats(request.app.state.service)


class SeatsController(Controller):
    path = "/v1/games/{game_id:str}/players/{seat:int}"
    tags = ["games"]

    @route("/", http_method=[HttpMethod.OPTIONS], include_in_schema=False, status_code=204)
    async def allow(self) -> Response[None]:
        # As GamesController.allow: Litestar's generated OPTIONS would name one handler's
        # methods only.
        return Response(None, status_code=204, headers={"Allow": "DELETE, OPTIONS, PATCH"})

    @delete(
        "/",
        status_code=200,
        operation_id="leaveSeat",
        response_headers=[RECEIPT_HEADER],
        security=SEAT_OR_ADMIN,
        summary="Give up a seat before the start",
        description="With the seat's own token (it leaves) or the admin's (the seat is "
        "removed): the seat is free again, its token stops working at once, and the next "
        "join takes the lowest free seat. The game as the caller now sees it.",
        responses=MANAGED,
    )
    async def leave(
        self,
        service: Service,
        request: Request,
        game_id: GameId,
        seat: SeatNumber,
        token: Token,
        idempotency_key: IdempotencyKey = None,
    ) -> Response[GameOut]:
        outcome = await _seats(request).leave(
            game_id, seat, token, check_idempotency_key(idempotency_key)
        )
        receipt = receipt_of(request, outcome)
        return signed(game_out(service, outcome.game, outcome.viewer, receipt), receipt)

    @patch(
        "/",
        status_code=200,
        operation_id="changeTeam",
        response_headers=[RECEIPT_HEADER],
        security=SEAT_OR_ADMIN,
        summary="Move a seat to another team before the start",
        description="Team games only (danger-danger: pink or yellow), with the seat's own "
        "token or the admin's.",
        responses=WITH_BODY,
    )
    async def change_team(
        self,
        service: Service,
        request: Request,
        game_id: GameId,
        seat: SeatNumber,
        data: Annotated[TeamChange, Body()],
        token: Token,
        idempotency_key: IdempotencyKey = None,
    ) -> Response[GameOut]:
        outcome = await _seats(request).change_team(
            game_id, seat, data.team, token, check_idempotency_key(idempotency_key)
        )
        receipt = receipt_of(request, outcome)
        return signed(game_out(service, outcome.game, outcome.viewer, receipt), receipt)

    @post(
        "/resign",
        status_code=200,
        operation_id="resignSeat",
        response_headers=[RECEIPT_HEADER],
        security=SEAT,
        summary="Resign a seat from a game in play",
        description="With the seat's own token, while the game is active (before the start, "
        "give the seat up instead). The seat can no longer win: the service plays it on with "
        "its greedy bot, and its token stops working at once (the game stays open to it as to "
        "any spectator). When the resignation leaves one seat, or one team, that can win, the "
        'game ends at once and that side wins (docs/rulings.md, "Resigning"). Every seat '
        "sees `seat_resigned`. The game as the seat saw it at its resignation.",
        responses=MANAGED,
    )
    async def resign(
        self,
        service: Service,
        request: Request,
        game_id: GameId,
        seat: SeatNumber,
        token: Token,
        idempotency_key: IdempotencyKey = None,
    ) -> Response[GameOut]:
        outcome = await _seats(request).resign(
            game_id, seat, token, check_idempotency_key(idempotency_key)
        )
        receipt = receipt_of(request, outcome)
        return signed(game_out(service, outcome.game, outcome.viewer, receipt), receipt)

    @post(
        "/token",
        status_code=201,
        operation_id="reissueSeatToken",
        response_headers=[RECEIPT_HEADER],
        security=SEAT_OR_ADMIN,
        summary="A new token for a seat",
        description="With the seat's own token, until the game is over (a token it fears "
        "was seen); with the admin token, before the start only (for a player who lost "
        "theirs: once cards are dealt, a token the admin gave would show the admin the "
        "seat's hidden cards). The seat's old token stops working at once, and every seat "
        "sees `seat_token_reissued`. Each call gives another token (the last one given "
        "works). A seat asking for its own sends an `Idempotency-Key`: if the answer is "
        "lost, the same request again (the same key, the old token) answers the new token "
        "again, and the old token opens nothing else.",
        responses=responses(
            400,
            401,
            403,
            404,
            409,
            503,
            s403="A token of another game.",
            s409="The table's rules forbid it now; `code` names the rule.",
        ),
    )
    async def reissue(
        self,
        request: Request,
        game_id: GameId,
        seat: SeatNumber,
        token: Token,
        idempotency_key: IdempotencyKey = None,
    ) -> Response[NewSeatToken]:
        (seq, head, at), new = await _seats(request).reissue(
            game_id, seat, token, check_idempotency_key(idempotency_key)
        )
        receipt = receipts(request).of(game_id, seq, head, at)
        return signed(NewSeatToken(seat=seat, token=new, seq=seq, receipt=receipt), receipt, 201)
