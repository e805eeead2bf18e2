"""Seats, managed: before the start a seat may be given up (by its player, or removed by the
admin) or moved to another team; before the start the admin may give a seat a new token, for
a player who lost theirs, and until the game is over the seat may ask for its own. Each is a
command decided by the table's rules (domain/kernel/table.py) and an event in the log, so the
audit decides it again.

A seat that asks for its own new token with an Idempotency-Key and loses the answer is not
locked out of its seat: the new token is kept sealed under the key, beside the hash of the
token that asked, and a retry with the same key and the old token gets it again (the old
token opens nothing else).

A token stops working at once: the event and the seat's new token hash (empty for a seat
given up) are one append, and a process whose fold was behind checks the caller's token
again when it catches up before deciding (the write path's `recheck`).
"""

from __future__ import annotations

import hashlib
import hmac
from typing import Any

import msgspec

from domain.kernel import Command, builtins
from domain.kernel import table as tables
from service.infra.errors import ApiError
from service.play import tokens
from service.play.game_model import Outcome
from service.play.games import GameService
from service.play.idempotency import fingerprint, seal_secret, unseal_secret
from service.play.write_path import Write


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

    async def resign(
        self, game_id: str, seat: int, token: str | None, idempotency_key: str | None
    ) -> Outcome:
        """The seat leaves the game in play: the service plays it on, it can no longer win,
        and its token stops working (docs/rulings.md, "Resigning")."""
        return await self._manage(
            game_id, token, tables.Resign(seat=seat), idempotency_key, {f"seat:{seat}": ""}
        )

    async def change_team(
        self, game_id: str, seat: int, team: str, token: str | None, idempotency_key: str | None
    ) -> Outcome:
        return await self._manage(
            game_id, token, tables.ChangeTeam(seat=seat, team=team), idempotency_key, None
        )

    async def reissue(
        self, game_id: str, seat: int, token: str | None, idempotency_key: str | None = None
    ) -> tuple[tuple[int, str, str], str]:
        """A new token for the seat (the admin's before the start, else the seat's own): the
        game's head (its seq, and the hash and `at` there) and the token; the old one stops
        working. Each call gives
        another: the last one given is the one that works, unless it repeats an answer
        (above)."""
        if idempotency_key is not None and token is not None:
            again = await self._reissued_before(game_id, seat, token, idempotency_key)
            if again is not None:
                return again
        issued = {}

        def new_token(_: list[Any]) -> dict[str, str]:
            issued["token"], digest = tokens.issue(game_id, f"seat:{seat}")
            fields = {f"seat:{seat}": digest}
            if idempotency_key is not None and token is not None:
                kept = _Reissued(
                    asker=_digest(token),
                    sealed=seal_secret(idempotency_key, _scope(seat), issued["token"]),
                )
                fields[_reissued_field(seat)] = msgspec.json.encode(kept).decode()
            return fields

        outcome = await self._manage(
            game_id, token, tables.ReissueToken(seat=seat), None, new_token
        )
        return (outcome.seq, outcome.head, outcome.head_at), issued["token"]

    async def _reissued_before(
        self, game_id: str, seat: int, token: str, idempotency_key: str
    ) -> tuple[tuple[int, str, str], str] | None:
        """The token a reissue with this key and this (old) token gave, if it did and the
        seat still has it; 409 `seat_changed_hands` if it gave one the seat has no more."""
        service = self.service
        stored = await service.store.secrets(game_id)
        raw = stored.get(_reissued_field(seat))
        if raw is None:
            return None
        kept = msgspec.json.decode(raw, type=_Reissued)
        if not hmac.compare_digest(kept.asker, _digest(token)):
            return None  # asked with another token: this is no retry of it
        given = unseal_secret(idempotency_key, _scope(seat), kept.sealed)
        if given is None:
            return None  # another key: a request of its own
        if not tokens.matches(given, stored.get(f"seat:{seat}")):
            raise ApiError(
                409,
                "seat_changed_hands",
                f"Seat {seat} has been given another token since this key's request.",
            )
        game = await service.get(game_id)
        return (game.seq, game.head, game.last_at), given

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
        required = service.access.required(token)
        role = await service.access.role(game, required)
        actor: tables.Actor = "admin" if role == "admin" else int(role.split(":")[1])
        idem = None
        if idempotency_key is not None:
            idem = (f"{role}:{idempotency_key}", fingerprint(role, builtins(command)))
        secrets_for = (lambda _: secrets) if isinstance(secrets, dict) else secrets
        return await service.writes.execute(
            Write(
                game,
                actor,
                command,
                idem,
                idempotency_key,
                secrets_for=secrets_for,
                recheck=lambda: service.access.role(game, required),
            )
        )


class _Reissued(msgspec.Struct, frozen=True):
    asker: str  # SHA-256 of the token that asked: a retry shows it again
    sealed: str  # the token given, sealed under the Idempotency-Key


def _reissued_field(seat: int) -> str:
    """The secrets field of a seat's last token reissued with an Idempotency-Key."""
    return f"reissued:seat:{seat}"


def _scope(seat: int) -> str:
    return f"reissue:seat:{seat}"


def _digest(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()
