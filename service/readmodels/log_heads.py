"""The heads the transparency log takes (service/play/transparency_log.py): for each game
that moved, its newest head, noted to be logged; a game's last event (`seed_revealed`) is
noted as final, for the next batch. Only heads newer than what is noted or logged change
anything, so entries may be redelivered or applied by several consumers.

The log is no read model: it is never rebuilt (its leaves are a record, in the order they
were signed). A rebuild notes every game's head as the feeds would have (`rebuild`), so a
game the log has not taken yet (one that ended before the log existed) is logged too."""

from __future__ import annotations

from events import keys
from events.cluster import Store, anywhere
from events.envelope import Folded
from service.play import transparency_log
from service.readmodels.runner import ACK, Projection, Updates, entry_ids, last_seqs


class LogHeadsProjection(Projection):
    group = "log"

    async def apply(self, batches: dict[str, Updates]) -> None:
        last = last_seqs(batches)
        tails = await self.read_many({g: (seq - 1, seq) for g, seq in last.items()})
        await note(self.redis, tails)
        await self.kept()
        calls = [([keys.feed(shard)], [self.group, *entry_ids(u)]) for shard, u in batches.items()]
        await self.eval_all(ACK, calls)


async def note(redis: Store, logs: dict[str, list[Folded]]) -> None:
    """Note the head each log ends with (a log's tail will do): logged unless it was."""
    heads = [
        (game, log[-1].seq, log[-1].hash, log[-1].type == "seed_revealed")
        for game, log in logs.items()
        if log
    ]
    seconds, micros = await redis.time(**anywhere(redis))
    await transparency_log.mark(redis, heads, seconds * 1000 + micros // 1000)


rebuild = note
