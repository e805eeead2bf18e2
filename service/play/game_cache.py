"""The process's folded games, bounded by their size in memory.

A fold is only a cache (the store holds every game), so the bound is on bytes, not on a
number of games: a long Danger 13 game's table and a fresh one differ many times over. Each
game's footprint is measured when it enters and again as it grows (when its log has doubled,
or grown by REMEASURE events, and once it is over). Over the bound, games that are over
leave first, the least recently used first, then running ones.
"""

from __future__ import annotations

import sys
from collections import OrderedDict
from typing import TYPE_CHECKING, Any

import msgspec

from service.infra import metrics

if TYPE_CHECKING:
    from service.play.game_model import Game

REMEASURE = 64  # events a game may grow by before its footprint is measured again
# Shared by every game of a kind (its rules, its codec) or by the process: not a game's own.
SHARED_FIELDS = frozenset({"rules", "codec", "lock", "_shuffler"})


def footprint(game: Game) -> int:
    """The bytes a game's fold holds on its own: every object reachable from its fields but
    the shared ones, each counted once (sys.getsizeof, which is what CPython allocated)."""
    seen: set[int] = set()
    total = 0
    stack: list[Any] = [
        getattr(game, name) for name in game.__dataclass_fields__ if name not in SHARED_FIELDS
    ]
    while stack:
        obj = stack.pop()
        if id(obj) in seen or obj is None or isinstance(obj, bool | type):
            continue
        seen.add(id(obj))
        total += sys.getsizeof(obj)
        if isinstance(obj, str | bytes | int | float):
            continue
        if isinstance(obj, dict):
            stack.extend(obj.keys())
            stack.extend(obj.values())
        elif isinstance(obj, list | tuple | set | frozenset):
            stack.extend(obj)
        elif isinstance(obj, msgspec.Struct):
            stack.extend(getattr(obj, name, None) for name in obj.__struct_fields__)
        elif hasattr(obj, "__dict__"):
            stack.extend(vars(obj).values())
    return total


class GameCache:
    def __init__(self, max_bytes: int) -> None:
        self.max_bytes = max_bytes
        self.bytes = 0
        self._running: OrderedDict[str, Game] = OrderedDict()
        self._over: OrderedDict[str, Game] = OrderedDict()
        self._measured: dict[str, tuple[int, int]] = {}  # game id -> (seq, bytes) when measured

    def __len__(self) -> int:
        return len(self._running) + len(self._over)

    def __contains__(self, game_id: str) -> bool:
        return game_id in self._running or game_id in self._over

    def __getitem__(self, game_id: str) -> Game:
        game = self.get(game_id)
        if game is None:
            raise KeyError(game_id)
        return game

    def get(self, game_id: str) -> Game | None:
        """The cached game, now the most recently used; measured again if it grew or ended."""
        game = self._running.get(game_id)
        if game is not None and game.finished:
            del self._running[game_id]
            self._over[game_id] = game
            self._measure(game)
        elif game is None:
            game = self._over.get(game_id)
            if game is None:
                return None
        (self._over if game.finished else self._running).move_to_end(game_id)
        measured = self._measured[game_id][0]
        if game.seq >= min(2 * measured, measured + REMEASURE):
            self._measure(game)
        return game

    def setdefault(self, game_id: str, game: Game) -> Game:
        """The cached game of this id, or `game` cached now; then the bound is kept."""
        cached = self.get(game_id)
        if cached is not None:
            return cached
        (self._over if game.finished else self._running)[game_id] = game
        metrics.CACHE_GAMES.inc()
        self._measure(game)
        self._evict(keep=game_id)
        return game

    def clear(self) -> None:
        metrics.CACHE_GAMES.dec(len(self))
        metrics.CACHE_BYTES.dec(self.bytes)
        self._running.clear()
        self._over.clear()
        self._measured.clear()
        self.bytes = 0

    def pop(self, game_id: str, default: Game | None = None) -> Game | None:
        game = self._running.pop(game_id, None) or self._over.pop(game_id, None)
        if game is None:
            return default
        size = self._measured.pop(game_id)[1]
        self.bytes -= size
        metrics.CACHE_GAMES.dec()
        metrics.CACHE_BYTES.dec(size)
        return game

    def _measure(self, game: Game) -> None:
        size = footprint(game)
        grown = size - self._measured.get(game.id, (0, 0))[1]
        self.bytes += grown
        metrics.CACHE_BYTES.inc(grown)
        self._measured[game.id] = (game.seq, size)
        if self.bytes > self.max_bytes:
            self._evict(keep=game.id)

    def _evict(self, keep: str) -> None:
        """Games that are over leave first, then running ones, least recently used first;
        never the game being used now."""
        for order in (self._over, self._running):
            while self.bytes > self.max_bytes and order:
                game_id = next(iter(order))
                if game_id == keep:
                    if len(order) == 1:
                        break
                    order.move_to_end(game_id)
                    continue
                self.pop(game_id)
