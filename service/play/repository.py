"""Games loaded from the store: a fold per game, cached and brought up to the stream's last
event before it is trusted.

The cache holds nothing that cannot be rebuilt from the store: every catch-up reads from the
cached head itself, so a store that no longer holds the head as it was folded (it lost
acknowledged events) is noticed, counted (service/play/history.py) and the game folded again
from what the store holds.
"""

from __future__ import annotations

from collections.abc import Sequence

from events.envelope import read_folded
from events.store import EventStore
from service.infra import metrics, request_context
from service.infra.errors import ApiError
from service.play.game_cache import GameCache
from service.play.game_model import Game, fold_log
from service.play.history import HistoryBreaks

CACHE_BYTES = 256 * 2**20  # the folds one process keeps (DANGER_CACHE_MB)


class Repository:
    def __init__(self, store: EventStore, cache_bytes: int = CACHE_BYTES) -> None:
        self.store = store
        self.cache = GameCache(cache_bytes)
        self.breaks = HistoryBreaks()

    async def get(self, game_id: str, current: bool = True) -> Game:
        """The game, its cached fold brought up to the stream's last event (`current`), or
        as cached, for a command that will name the seq it was decided against."""
        game = self.cache.get(game_id)
        if game is None:
            metrics.CACHE_MISSES.inc()
            game = await self._load(game_id)
        elif current:
            await self.catch_up(game)
        context = request_context.current()
        if context is not None:
            context.game, context.kind = game_id, game.rules.name
        return game

    async def catch_up(self, game: Game) -> None:
        """Fold what the store holds past the cached head. The read starts at the head
        itself: a store that no longer holds it as it was folded lost acknowledged events,
        and the game is folded again from what it holds."""
        # The fold as it is when the read begins: a command of this process may fold its
        # own events into it while the read is on its way.
        seq, hash_ = game.seq, game.head
        try:
            raws = await self.store.read_raw(game.id, after=seq - 1)
            if not self._fold_from(game, raws, seq, hash_):
                await self._fold_again(game)
        except Exception:
            self.forget(game.id)
            raise

    def fold_tail(self, game: Game, raws: Sequence[bytes]) -> bool:
        """Fold `raws`, the stored envelopes from the game's head on (an append's conflict
        brings them). False, folding nothing, if they do not begin at the head as it was
        folded: a catch-up then finds out why."""
        try:
            return self._fold_from(game, raws, game.seq, game.head)
        except Exception:
            self.forget(game.id)
            raise

    @staticmethod
    def _fold_from(game: Game, raws: Sequence[bytes], seq: int, hash_: str) -> bool:
        head = read_folded(raws[0]) if raws else None
        if head is None or head.seq != seq or head.hash != hash_:
            return False
        game.fold_stored(raws[1:])
        return True

    def forget(self, game_id: str) -> None:
        """Drop the fold (one that failed halfway is loaded afresh next time)."""
        self.cache.pop(game_id, None)

    def folded(self, game_id: str) -> None:
        """The game folded more events: its footprint in the cache follows."""
        self.cache.get(game_id)

    async def replay(self, game_id: str, upto: int) -> Game:
        """A fresh fold of the game as it stood after event `upto`."""
        return await self._load(game_id, upto=upto)

    async def _fold_again(self, game: Game) -> None:
        stored, secret = await self.store.load(game.id)
        self.breaks.saw(game.id, game.seq, len(stored))
        if not stored:
            raise ApiError(
                503,
                "history_lost",
                "The store no longer holds this game, which it had acknowledged; the "
                "operator is alerted.",
            )
        game.adopt(fold_log(game.id, stored, secret))

    async def _load(self, game_id: str, upto: int | None = None) -> Game:
        stored, secret = await self.store.load(game_id, upto=upto)
        if not stored:
            raise ApiError(404, "unknown_game", f"There is no game {game_id!r}.")
        game = fold_log(game_id, stored, secret)
        if upto is None:
            game = self.cache.setdefault(game_id, game)
        return game
