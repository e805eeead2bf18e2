"""A seat's command over HTTP, whichever route brings it (Litestar's route in
service/http/play_api.py, or the command route beside it, service/http/command_route.py):
its parameters read into the command path's request, and its outcome encoded as the answer.
One adapter, so that the two routes cannot answer differently."""

from __future__ import annotations

from dataclasses import dataclass

from litestar.serialization import encode_json

from service.http.answers import command_result
from service.http.params import check_idempotency_key, parse_if_match, wants_minimal
from service.play.game_model import Outcome
from service.play.games import SeatCommand
from service.play.receipts import Receipts, header
from service.wire.schemas import GameCommand

JSON = b"application/json"


def seat_command(
    game_id: str,
    token: str | None,
    command: GameCommand,  # a tagged union, built at import
    idempotency_key: str | None,
    if_match: str | None,
    prefer: str | None,
) -> SeatCommand:
    """The request as the command path takes it; a malformed header is a 400."""
    return SeatCommand(
        game_id,
        token,
        command,
        check_idempotency_key(idempotency_key),
        parse_if_match(if_match),
        not wants_minimal(prefer),
    )


@dataclass(frozen=True, slots=True)
class Answer:
    status: int
    headers: list[tuple[str, str]]
    body: bytes | None


def answer(outcome: Outcome, full: bool, receipts: Receipts) -> Answer:
    """200 with the events and the view, or 204 with the seq alone (`return=minimal`); the
    receipt in both."""
    receipt = receipts.of(outcome.game.id, outcome.seq, outcome.head, outcome.head_at)
    if full:
        return Answer(200, [header(receipt)], encode_json(command_result(outcome, receipt)))
    return Answer(
        204,
        [("etag", f'"{outcome.seq}"'), ("preference-applied", "return=minimal"), header(receipt)],
        None,
    )
