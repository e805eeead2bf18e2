"""The command path's service: read a game as a viewer may, and the entry points that change
it (create, join, start, a seat's command, abandon). Its parts, each in a module of its own:
the fold of one game (service/play/game_model.py), the games loaded and cached
(service/play/repository.py), who a token makes its bearer (service/play/access.py), and
the write path every change goes through (service/play/write_path.py).

The service holds nothing that cannot be rebuilt from Redis: a game's folded state is a
cache, checked against the stream's tail before every decision, and every append names the
seq it was decided against, so two processes on one Redis never fork a game.
"""

from __future__ import annotations

import logging
import os
import secrets as pysecrets
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import msgspec

from domain.kernel import Command, Event, Viewer, builtins
from domain.kernel import table as tables
from domain.kernel.errors import InvalidOptions, RuleViolation
from domain.kernel.fairness import commitment
from domain.registry import GAMES
from events.envelope import GENESIS, Envelope, canonical, seal
from events.keys import GameKeys
from events.store import Appended, EventStore, Unconfirmed
from service.infra import metrics, request_context
from service.infra.clock import StoreClock
from service.infra.config import Lifecycle
from service.infra.connections import UNREACHABLE
from service.infra.errors import ApiError
from service.play import tokens
from service.play.access import Access, seat_of
from service.play.game_model import Game, Outcome
from service.play.idempotency import fingerprint, seal_secret, unseal_secret
from service.play.repository import CACHE_BYTES, Repository
from service.play.write_path import Reaction, Write, WritePath, view

log = logging.getLogger("danger.games")


class CreateUnconfirmed(Unconfirmed):
    """A new game written on the primary whose replicas did not confirm it in time: the
    create answers 503 `not_replicated`, and a retry with its Idempotency-Key answers this
    game once they do (service/play/idempotency.py, `Creates`), never a second one."""

    def __init__(
        self, cause: Unconfirmed, game_id: str, admin_token: str, invite: str | None, head: str
    ) -> None:
        super().__init__(cause.confirmed, cause.copies)
        self.game_id, self.admin_token, self.invite, self.head = game_id, admin_token, invite, head


ID_ATTEMPTS = 5  # fresh ids a create tries (taken, or on a node it could not reach)


@dataclass(frozen=True, slots=True)
class SeatCommand:
    """A seat's command, as a client sends it (`POST /v1/games/{id}/commands`)."""

    game_id: str
    token: str | None
    command: Command
    idempotency_key: str | None = None
    if_match: int | None = None
    full: bool = True
    """False: answer with the seq only (`Prefer: return=minimal`: a client that follows
    the stream has the events from there)"""


class GameService:
    """The command path's entry points, over a repository of folded games and the write
    path every change goes through."""

    def __init__(
        self,
        store: EventStore,
        sandbox: bool,
        lifecycle: Lifecycle | None = None,
        clock: StoreClock | None = None,
        cache_bytes: int = CACHE_BYTES,
        reactions: Sequence[Reaction] = (),
    ) -> None:
        self.store = store
        self.clock = clock or StoreClock(store.redis)
        self.sandbox = sandbox
        self.lifecycle = lifecycle or Lifecycle()
        self.repository = Repository(store, cache_bytes)
        self.access = Access(store)
        self.writes = WritePath(self.repository, self.clock, self.lifecycle, reactions)
        replicas = getattr(store, "replicas", None)  # None: a service for views alone
        if replicas is not None:
            replicas.on_change = metrics.PRIMARIES_ALONE.set

    # Reading ------------------------------------------------------------------------

    async def get(self, game_id: str, current: bool = True) -> Game:
        return await self.repository.get(game_id, current)

    def cached(self, game_id: str) -> Game | None:
        """The game as this process last folded it, if it holds it: no read of the store."""
        return self.repository.cache.get(game_id)

    async def replay(self, game_id: str, upto: int) -> Game:
        """A fresh fold of the game as it stood after event `upto`."""
        return await self.repository.replay(game_id, upto)

    async def viewer(self, game: Game, token: str | None) -> tuple[Viewer, str]:
        """The reader a token makes (seat, spectator) and its role label."""
        return await self.access.viewer(game, token)

    def view(self, game: Game, viewer: Viewer) -> Any:
        return view(game, viewer)

    def legal(self, game: Game, viewer: Viewer) -> list[Command]:
        return tables.legal(game.table, game.rules, viewer)

    def readable(self, game: Game, envelopes: list[Envelope], viewer: Viewer) -> list[Envelope]:
        return [game.readable(e, viewer) for e in envelopes]

    # Commands -----------------------------------------------------------------------

    async def create(
        self,
        game_name: str,
        seats: int,
        options: Any,
        private: bool = False,
        owner: str | None = None,
        rated: bool | None = None,
    ) -> tuple[Game, str, str | None]:
        """A new game, its admin token and, for a private game, its invite. `owner`: the id
        of the app key that created it, kept with the game (its webhooks hear of it)."""
        rules = GAMES[game_name]
        sandboxed = [k for k in rules.sandbox_options if getattr(options, k, None) is not None]
        if sandboxed and not self.sandbox:
            raise ApiError(
                403,
                "sandbox_only",
                f"The option(s) {', '.join(sandboxed)} are accepted only by a server started "
                "with DANGER_SANDBOX=1.",
            )
        seed = os.urandom(32)
        if getattr(options, "seed", None) is not None:
            seed = bytes.fromhex(options.seed)  # the schema admits 16-64 bytes of hex only
        try:
            created = tables.create(
                rules, seats, options, bool(sandboxed), commitment(seed), private, rated
            )
        except (RuleViolation, InvalidOptions) as exc:  # well-formed, but no game can be so
            raise ApiError(422, exc.code, exc.message) from None
        away: set[str] = set()  # cluster nodes an attempt could not reach
        for attempt in range(ID_ATTEMPTS):
            game_id = self._new_id(away)
            admin_token, admin_hash = tokens.issue(game_id, "admin")
            secret = {
                "seed": seed.hex(),
                "admin": admin_hash,
                "options": canonical(msgspec.to_builtins(options)).decode(),
            }
            if owner is not None:
                secret["owner"] = owner
            invite = pysecrets.token_urlsafe(16) if private else None
            if invite is not None:
                secret["invite"] = tokens.digest(invite)
            await self.clock.refresh()
            envelope = seal(
                game_id,
                1,
                created[0],
                self.clock.stamp(),
                "admin",
                None,
                GENESIS,
                meta=request_context.meta(),
            )
            try:
                result = await self.store.append(game_id, 0, [envelope], secrets=secret)
            except Unconfirmed as exc:
                raise CreateUnconfirmed(exc, game_id, admin_token, invite, envelope.hash) from None
            except UNREACHABLE:
                # A new game may live on any node: one failing over is no reason to refuse
                # it. (Were this one written after all, it is an open game nobody holds,
                # ended after DANGER_OPEN_HOURS as any game never started.)
                node = self.store.node_name(game_id)
                if node is None or attempt == ID_ATTEMPTS - 1:
                    raise
                away.add(node)
                continue
            if isinstance(result, Appended):
                metrics.APPENDS.labels(rules.name).inc()
                metrics.EVENTS.labels(rules.name).inc()
                return await self.get(game_id), admin_token, invite
        raise ApiError(503, "id_exhausted", "Could not allocate a game id; try again.")

    async def confirm_created(self, game_id: str, head: str) -> Game | None:
        """The game a create wrote but could not confirm (CreateUnconfirmed), once its
        replicas confirm what the store holds of it; None if the store no longer holds it as
        it was written (a failover took it back: the create may be decided afresh).
        `Unconfirmed` while the replicas still do not confirm it."""
        await self.store.confirm(GameKeys(game_id).shard)
        first = await self.store.read(game_id, upto=1)
        if not first or first[0].hash != head:
            return None
        return await self.get(game_id)

    def _new_id(self, away: set[str]) -> str:
        """A random game id, on a cluster node other than those in `away` if one can be
        found among a few draws."""
        for _ in range(64):
            game_id = pysecrets.token_urlsafe(9).replace("-", "x").replace("_", "y")
            if not away or self.store.node_name(game_id) not in away:
                break
        return game_id

    async def join(
        self,
        game_id: str,
        name: str,
        entropy: str,
        team: str | None = None,
        bot: str | None = None,
        think_ms: int | None = None,
        idempotency_key: str | None = None,
        client: str = "",
        player: str | None = None,
        invite: str | None = None,
        seat: int | None = None,
    ) -> tuple[Outcome, str | None]:
        """A seat for a player (its token is returned) or for a bot (no token: only the
        service plays it). With an Idempotency-Key, the key of `client` in this game: a
        retry gets the same seat and token (kept sealed beside the seat's token hash)."""
        if think_ms is not None and bot is None:
            raise ApiError(422, "think_without_bot", "Only a bot seat has a think delay.")
        game = await self.get(game_id)
        if game.table.private and not (
            invite is not None and tokens.matches(invite, game.hashes.get("invite"))
        ):  # its existence is not confirmed to whoever lacks the invite
            raise ApiError(404, "unknown_game", f"There is no game {game_id!r}.")
        joined = tables.Join(
            name=name,
            entropy=entropy,
            team=team,
            bot=bot,
            think_ms=think_ms,
            player=player,
            seat=seat,
        )
        idem = None
        if idempotency_key is not None:
            scope = f"join:{client}:{idempotency_key}"
            idem = (scope, fingerprint("join", builtins(joined)))
        issued: dict[str, str] = {}

        def token_for(events: list[Event]) -> dict[str, str]:
            seat = events[0].seat  # type: ignore[attr-defined]  # player_joined
            token, digest = tokens.issue(game_id, f"seat:{seat}")
            issued["token"] = token
            secret = {f"seat:{seat}": digest, f"origin:{seat}": tokens.origin(client)}
            if idem is not None and idempotency_key is not None:
                secret[sealed_token(seat)] = seal_secret(idempotency_key, idem[0], token)
            return secret

        issue = None if bot else token_for
        # The key is not recorded in the event (as a command's is): it opens the sealed token.
        outcome = await self.writes.execute(Write(game, "anyone", joined, idem, secrets_for=issue))
        if bot:
            return outcome, None
        seat = outcome.envelopes[0].data["seat"]
        token = issued.get("token")
        if token is not None and tokens.matches(token, game.hashes.get(f"seat:{seat}")):
            return outcome, token
        # The first answer again: its token is the one stored for the seat, not one issued now,
        # if the seat is still that join's (not left, not reissued, not taken by another).
        stored = await self.store.secrets(game_id)
        assert idem is not None and idempotency_key is not None
        kept = unseal_secret(idempotency_key, idem[0], stored.get(sealed_token(seat), ""))
        if kept is None or not tokens.matches(kept, stored.get(f"seat:{seat}")):
            raise ApiError(
                409,
                "seat_changed_hands",
                f"Seat {seat}, which this Idempotency-Key joined, has been left or given a new "
                "token since: join again with a new key.",
            )
        return outcome, kept

    async def start(
        self, game_id: str, token: str | None, idempotency_key: str | None = None
    ) -> Outcome:
        return await self._by_admin(game_id, token, idempotency_key, "start", tables.Start())

    async def command(self, request: SeatCommand) -> Outcome:
        """A seat's command."""
        game = await self.get(request.game_id, current=False)
        token = self.access.required(request.token)
        role = await self.access.role(game, token)
        seat = seat_of(role)
        if seat is None:
            raise ApiError(403, "seat_only", "Only a seat's token may send game commands.")
        command = request.command
        if type(command) not in game.rules.commands:
            tag = command.__struct_config__.tag
            raise ApiError(
                409, "not_this_games_command", f"{tag!r} is not a command of {game.rules.name}."
            )
        body_print = fingerprint(role, msgspec.to_builtins(command), request.if_match)
        key = request.idempotency_key
        idem = None if key is None else (f"{role}:{key}", body_print)
        return await self.writes.execute(
            Write(
                game,
                seat,
                command,
                idem,
                key,
                request.if_match,
                recheck=lambda: self.access.role(game, token),
                full=request.full,
                retry=(seat, body_print),
            )
        )

    async def abandon(
        self, game_id: str, token: str | None, idempotency_key: str | None = None
    ) -> Outcome:
        """The admin ends a game that has not started (docs/rulings.md, "Liveness and
        lifecycle": "The admin may abandon an open game at any time")."""
        return await self._by_admin(
            game_id, token, idempotency_key, "abandon", tables.Abandon(reason="admin")
        )

    async def abandon_as_creator(self, game_id: str, idempotency_key: str | None = None) -> Outcome:
        """The client that created a game, which has lost its admin token, ends it before its
        start as the admin would (the caller has checked that it is the creator:
        service/http/own_games.py): the same event, the same refusal once it has started."""
        game = await self.get(game_id)
        idem = _admin_idem("abandon", idempotency_key)
        abandon = tables.Abandon(reason="admin")
        return await self.writes.execute(Write(game, "admin", abandon, idem, idempotency_key))

    async def _by_admin(
        self,
        game_id: str,
        token: str | None,
        idempotency_key: str | None,
        operation: str,
        command: Command,
    ) -> Outcome:
        """A command only the game's admin token may send (start, abandon); one key names
        one of its operations."""
        game = await self.get(game_id)
        role = await self.access.role(game, self.access.required(token))
        if role != "admin":
            raise ApiError(403, "admin_only", f"Only the game's admin token may {operation} it.")
        idem = _admin_idem(operation, idempotency_key)
        return await self.writes.execute(Write(game, "admin", command, idem, idempotency_key))


def sealed_token(seat: int) -> str:
    """The secrets field of a seat's token sealed under the Idempotency-Key of its join."""
    return f"sealed:seat:{seat}"


def _admin_idem(operation: str, idempotency_key: str | None) -> tuple[str, str] | None:
    """The admin's key, in the game: one key names one of its operations (start, abandon)."""
    if idempotency_key is None:
        return None
    return f"admin:{idempotency_key}", fingerprint("admin", {"type": operation})
