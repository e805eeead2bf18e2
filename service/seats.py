"""Seats, managed: before the start a seat may be given up (by its player, or removed by the
admin) or moved to another team; until the game is over the admin may give a seat a new
token, for a player who lost theirs. Each is a command decided by the table's rules
(domain/kernel/table.py) and an event in the log, so the audit decides it again.

A token stops working at once: the event and the seat's new token hash (empty for a seat
given up) are one append, and a process whose fold was behind checks the caller's token
again when it catches up before deciding (GameService._execute's `recheck`).
"""

from __future__ import annotations

from typing import Any

from domain.kernel import Command, builtins
from domain.kernel import table as tables

from . import tokens
from .game_model import Outcome
from .games import GameService
from .idempotency import fingerprint


class Seats:
    def __init__(self, service: GameService) -> None:
        self.service = service

    async def leave(
        self, game_id: str, seat: int, token: str | None, idempotency_key: str | None
    ) -> Outcome:
        """The seat is given up: its token stops working, and the next join may take it."""
        return await self._manage(
            game_id, token, tables.Leave(seat=seat), idempotency_key, {f"seat:{seat}": ""}
        )

    async def change_team(
        self, game_id: str, seat: int, team: str, token: str | None, idempotency_key: str | None
    ) -> Outcome:
        return await self._manage(
            game_id, token, tables.ChangeTeam(seat=seat, team=team), idempotency_key, None
        )

    async def reissue(self, game_id: str, seat: int, token: str | None) -> tuple[Outcome, str]:
        """A new token for the seat (the admin's before the start, else the seat's own); the
        old one stops working. Each call gives another: the last one given is the one that
        works."""
        issued = {}

        def new_token(_: list[Any]) -> dict[str, str]:
            issued["token"], digest = tokens.issue(game_id, f"seat:{seat}")
            return {f"seat:{seat}": digest}

        outcome = await self._manage(
            game_id, token, tables.ReissueToken(seat=seat), None, new_token
        )
        return outcome, issued["token"]

    async def _manage(
        self,
        game_id: str,
        token: str | None,
        command: Command,
        idempotency_key: str | None,
        secrets: dict[str, str] | Any,
    ) -> Outcome:
        """Decide a seat's command for the caller: the seat's own token, or the admin's (the
        rules say which may do what)."""
        service = self.service
        game = await service.get(game_id)
        required = service._required(token)
        role = await service._authenticate(game, required)
        actor: int | str = "admin" if role == "admin" else int(role.split(":")[1])
        idem = None
        if idempotency_key is not None:
            idem = (f"{role}:{idempotency_key}", fingerprint(role, builtins(command)))
        secrets_for = (lambda _: secrets) if isinstance(secrets, dict) else secrets
        return await service._execute(
            game,
            actor,
            command,
            idem,
            idempotency_key,
            None,
            secrets_for,
            lambda: service._authenticate(game, required),
        )
