"""Where a command leaves its game in the due set, gathered: one round trip for the games of
many commands rather than one more per command.

A command's append already files its game in its shard's due set within a grace period
(events/append.lua), so the sweep finds it even if this process dies before it has queued
the game's jobs. The exact time (its next timer or bot move, or its expiry) is known only
once the events are folded; sent on its own it was a round trip in every command's answer
(docs/performance.md, "What limits the command path"). Here the times of the commands of
the next few milliseconds go together, without holding up the answers, each filed only if
its game's stream still ends where its time was worked out (service/jobs/file_due.lua): a later
append, of this process or another, brings its own time.
"""

from __future__ import annotations

import asyncio
import logging
from collections import defaultdict
from typing import Any

from events.cluster import run_scripts
from events.keys import GameKeys, due
from service.infra.lua import Script

log = logging.getLogger("danger.games")
GATHER_SECONDS = 0.005  # how long the first time waits for others to go with it
FILE_DUE = Script.named("service.jobs", "file_due.lua")


class DueFiling:
    """The due times of this process's commands, sent together."""

    def __init__(self, store: Any, gather: float = GATHER_SECONDS) -> None:
        self.store, self.gather = store, gather  # the EventStore: its client, when sending
        self._waiting: dict[str, tuple[int, int | None]] = {}  # game: (seq, ms or None)
        self._sending: asyncio.Task[None] | None = None

    def file(self, game_id: str, seq: int, at_ms: int | None) -> None:
        """The game, folded to `seq`, is due at `at_ms` (None: never, it is over)."""
        self._waiting[game_id] = (seq, at_ms)
        if self._sending is None:
            self._sending = asyncio.get_running_loop().create_task(self._send())

    async def flushed(self) -> None:
        """Until every time filed so far is sent (or its sending has failed)."""
        while self._sending is not None:
            await asyncio.shield(self._sending)

    async def _send(self) -> None:
        try:
            await asyncio.sleep(self.gather)
            waiting, self._waiting = self._waiting, {}
            await self._file(waiting)
        except asyncio.CancelledError:  # the loop is closing: the appends' grace stands
            self._sending = None
            raise
        self._sending = None
        if self._waiting:  # filed while these were on their way
            self._sending = asyncio.get_running_loop().create_task(self._send())

    async def _file(self, waiting: dict[str, tuple[int, int | None]]) -> None:
        by_shard: dict[str, list[tuple[str, tuple[int, int | None]]]] = defaultdict(list)
        for game_id, filed in waiting.items():
            by_shard[GameKeys(game_id).shard].append((game_id, filed))
        calls = [
            (
                [due(shard), *(GameKeys(g).stream for g, _ in games)],
                [x for g, (seq, ms) in games for x in (g, seq, "" if ms is None else ms)],
            )
            for shard, games in by_shard.items()
        ]
        try:
            await run_scripts(self.store.redis, FILE_DUE, calls)
        except Exception:
            # The appends filed these games within their grace: the sweep looks then.
            log.exception("could not file %d games in the due sets", len(waiting))
