"""What the handlers of API v1 answer with: a game as its reader may see it, a command's
result, events as they are stored and as a reader may read them."""

from __future__ import annotations

from typing import Any

from litestar import Request

from events.store import decode_envelope
from service.infra.clock import stamp
from service.play import offload
from service.play.game_model import Game, Outcome
from service.play.games import GameService
from service.wire.schemas import Clock, CommandResult, EventOut, GameOut

INLINE_EVENTS = 1000  # a page of events longer than this is redacted off the event loop


async def reader(service: GameService, game_id: str, token: str | None) -> tuple[Game, Any]:
    """The game, and who is reading it (a seat, or a spectator without a token)."""
    game = await service.get(game_id)
    viewer, _ = await service.viewer(game, token)
    return game, viewer


def offload_pool(request: Request) -> offload.Offload:
    return request.app.state.offload


async def offloaded(request: Request, function: Any, *args: Any) -> Any:
    """`function(*args)` in the CPU pool, on one of the places of the request's client."""
    client = request.app.state.clients.of(request.scope)
    return await offload_pool(request).run(client, function, *args)


async def readable(request: Request, game: Game, log: list[bytes], viewer: Any) -> list[Any]:
    """The stored envelopes as `viewer` may read them: a short page here, a long one off the
    event loop."""
    if len(log) <= INLINE_EVENTS:
        return [game.readable(decode_envelope(raw), viewer) for raw in log]
    return await offloaded(request, offload.readable, game.rules.name, game.finished, log, viewer)


def envelope_out(e: Any) -> EventOut:
    return EventOut(
        seq=e.seq,
        type=e.type,
        data=e.data,
        at=e.at,
        actor=e.actor,
        command=e.command,
        cause=e.cause,
        salt=e.salt,
        prev=e.prev,
        hash=e.hash,
        meta=e.meta,
    )


def game_out(service: GameService, game: Game, token_viewer: Any) -> GameOut:
    return GameOut(
        id=game.id,
        game=game.rules.name,
        status=game.table.status,
        seq=game.seq,
        view=service.view(game, token_viewer),
        legal=service.legal(game, token_viewer),
        clocks=[
            Clock(timer=timer_id, deadline=stamp(deadline))
            for timer_id, timer, deadline in game.clocks()
            if timer.public
        ],
    )


def command_result(outcome: Outcome) -> CommandResult:
    return CommandResult(
        seq=outcome.seq,
        events=[envelope_out(e) for e in outcome.envelopes],
        view=outcome.view,
    )
