"""What a process saw of a store that lost acknowledged events.

A process folds each game from the store and keeps the fold; every catch-up reads from the
fold's head on, so a store whose history of a game does not continue that head (it lost
events after a crash without `appendfsync always`, or was restored from an older copy) is
found at the next read or command of the game. The fold is then dropped and the game folded
again from what the store holds: the store is the only history there is. The break is never
passed over in silence: it is logged as an error and counted in `/health`.
"""

from __future__ import annotations

import logging
from collections import deque

import msgspec

log = logging.getLogger("danger.history")

KEPT = 10  # the latest breaks /health shows


class HistoryBreak(msgspec.Struct, frozen=True):
    game: str
    folded_seq: int
    """The last event this process had folded (and so acknowledged or read)."""
    stored_seq: int
    """The last event the store held when the break was found (0: the game is gone)."""


class HistoryBreaks:
    def __init__(self) -> None:
        self.count = 0
        self.latest: deque[HistoryBreak] = deque(maxlen=KEPT)

    def saw(self, game_id: str, folded_seq: int, stored_seq: int) -> None:
        log.error(
            "the store's history of game %s does not continue the one this process folded "
            "(it had folded up to seq %d; the store holds %d events): the store lost "
            "acknowledged events; folding the game again from the store",
            game_id,
            folded_seq,
            stored_seq,
        )
        self.count += 1
        self.latest.append(HistoryBreak(game_id, folded_seq, stored_seq))
