"""What a reader of a game is shown of it now: the view, the commands it may send and the
public clocks. One builder for the answer of GET /v1/games/{game_id} and for a live stream's
view messages, so that the two never differ."""

from __future__ import annotations

from typing import Any

from service.infra.clock import stamp
from service.play.game_model import Game
from service.play.games import GameService
from service.wire.schemas import Clock, ViewMessage


def clocks_of(game: Game) -> list[Clock]:
    """The running clocks a reader may see (a hidden timer is never listed)."""
    return [
        Clock(timer=timer_id, deadline=stamp(deadline))
        for timer_id, timer, deadline in game.clocks()
        if timer.public
    ]


def view_message(service: GameService, game: Game, viewer: Any) -> ViewMessage:
    """The game as `viewer` sees it at its current seq."""
    return ViewMessage(
        id=game.id,
        game=game.rules.name,
        status=game.table.status,
        seq=game.seq,
        view=service.view(game, viewer),
        legal=service.legal(game, viewer),
        clocks=clocks_of(game),
    )
