"""The heads the transparency log takes (service/play/transparency_log.py): for each game
that moved, its newest head, noted to be logged; a game's last event (`seed_revealed`) is
noted as final, for the next batch. Only heads newer than what is noted or logged change
anything, so entries may be redelivered or applied by several consumers.

The log is no read model: it is never rebuilt (its leaves are a record, in the order they
were signed), and a rebuild leaves it alone."""

from __future__ import annotations

from events import keys
from events.cluster import anywhere
from service.play import transparency_log
from service.readmodels.runner import ACK, Projection, Updates, entry_ids, last_seqs


class LogHeadsProjection(Projection):
    group = "log"

    async def apply(self, batches: dict[str, Updates]) -> None:
        last = last_seqs(batches)
        tails = await self.read_many({g: (seq - 1, seq) for g, seq in last.items()})
        heads = [
            (game, tail[-1].seq, tail[-1].hash, tail[-1].type == "seed_revealed")
            for game, tail in tails.items()
            if tail
        ]
        seconds, micros = await self.redis.time(**anywhere(self.redis))
        await transparency_log.mark(self.redis, heads, seconds * 1000 + micros // 1000)
        calls = [([keys.feed(shard)], [self.group, *entry_ids(u)]) for shard, u in batches.items()]
        await self.eval_all(ACK, calls)
