"""What the handlers of API v1 answer with: a game as its reader may see it, a command's
result, events as they are stored and as a reader may read them."""

from __future__ import annotations

from typing import Any

from litestar import Request
from litestar.datastructures import ResponseHeader
from litestar.response import Response

from events.store import decode_envelope
from service.play import offload
from service.play.game_model import Game, Outcome
from service.play.games import GameService
from service.play.receipts import Receipts, header
from service.play.seat_state import view_message
from service.wire.schemas import CommandResult, EventOut, GameOut, Receipt, ViewMessage

INLINE_EVENTS = 1000  # a page of events longer than this is redacted off the event loop

RECEIPT_HEADER = ResponseHeader(
    name="Danger-Receipt",
    description="The signed receipt of what this answer appended (the body's `receipt`, as "
    "canonical JSON): the service's word that the game's log has `hash` at `seq` "
    "(docs/transparency.md).",
    documentation_only=True,
)


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


def receipts(request: Request) -> Receipts:
    return request.app.state.receipts


def receipt_of(request: Request, outcome: Outcome) -> Receipt:
    """The signed receipt of a write's outcome."""
    return receipts(request).of(outcome.game.id, outcome.seq, outcome.head, outcome.head_at)


def signed(body: Any, receipt: Receipt | None, status: int = 200) -> Response[Any]:
    """`body`, with its receipt in the Danger-Receipt header too."""
    return Response(body, status_code=status, headers=dict([header(receipt)]) if receipt else None)


def game_out(
    service: GameService,
    game: Game,
    token_viewer: Any,
    receipt: Receipt | None = None,
    rematch: str | None = None,
) -> GameOut:
    # The same builder as a stream's view messages (service/play/seat_state.py): they never differ.
    shown = view_message(service, game, token_viewer)
    return GameOut(
        **{name: getattr(shown, name) for name in ViewMessage.__struct_fields__},
        receipt=receipt,
        rematch=rematch,
    )


def command_result(outcome: Outcome, receipt: Receipt) -> CommandResult:
    return CommandResult(
        seq=outcome.seq,
        events=[envelope_out(e) for e in outcome.envelopes],
        view=outcome.view,
        receipt=receipt,
    )
