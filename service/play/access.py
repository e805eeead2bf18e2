"""Who a token makes its bearer in a game: the admin, a seat, or (no token) a spectator.

A seat's token hash is folded with the game (service/play/game_model.py); one the fold has
not seen yet (a seat joined through another process) is read from the store's secrets. A
token the log has since replaced stops working at once: the write path checks it again
whenever it brings the fold up to date.
"""

from __future__ import annotations

from domain.kernel import SPECTATOR, Viewer
from events.store import EventStore
from service.infra import request_context
from service.infra.errors import ApiError
from service.play import tokens
from service.play.game_model import Game


class Access:
    def __init__(self, store: EventStore) -> None:
        self.store = store

    @staticmethod
    def required(token: str | None) -> str:
        if token is None:
            raise ApiError(401, "token_missing", "Send your token as 'Authorization: Bearer ...'.")
        return token

    async def role(self, game: Game, token: str) -> str:
        """The token's role in the game (`admin`, `seat:N`), or a 401/403 refusal."""
        credential = tokens.parse(token)
        if credential is None:
            raise ApiError(401, "token_invalid", "That is not a token this service issued.")
        if credential.game_id != game.id:
            raise ApiError(403, "token_for_other_game", "That token belongs to another game.")
        stored = game.hashes.get(credential.role)
        if stored is None:  # a seat joined through another process, or its token replaced
            seq = game.seq
            stored = (await self.store.secrets(game.id)).get(credential.role)
            # A fold meanwhile may have dropped a hash newer than the one read: kept, the
            # read's would let a replaced token in until the seat's next change.
            if stored is not None and game.seq == seq:
                game.hashes[credential.role] = stored
        if not tokens.matches(token, stored):
            raise ApiError(401, "token_invalid", "That token is not valid for this game.")
        return credential.role

    async def viewer(self, game: Game, token: str | None) -> tuple[Viewer, str]:
        """The reader a token makes (seat, spectator) and its role label."""
        if token is None:
            return SPECTATOR, "spectator"
        role = await self.role(game, token)
        seat = seat_of(role)
        note_seat(seat)
        return (seat if seat is not None else SPECTATOR), role


def seat_of(role: str) -> int | None:
    """The seat of a role (`seat:N`), None for the admin's."""
    return int(role[5:]) if role.startswith("seat:") else None


def note_seat(seat: int | None) -> None:
    context = request_context.current()
    if context is not None and seat is not None:
        context.seat = seat
