"""The rounds read model: per game, the seq range of every round (`dg:{sNN}:rounds:<game>`),
which `GET /v1/games/{id}/rounds/{n}` turns into a round summary. Its fold, its consumer and
its part of a rebuild.

A game's rounds hash is one key: the consumer writes the rounds a batch changed unless the
hash reflects as late a seq already; a rebuild replaces each hash whole in one script, unless
the live consumer has moved it past the seq the rebuild read (then the game is read again).
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from typing import Any

import msgspec

from events import keys
from events.cluster import Store, gather_bounded
from events.envelope import Folded
from service.infra.lua import Script
from service.readmodels.runner import Projection, Updates, entry_ids, last_seqs

log = logging.getLogger("danger.rebuild")
ROUNDS_TRIES = 3  # a rounds hash the live consumer keeps moving is then left to it

# KEYS: 1 the feed, then one game's rounds hash each. ARGV: 1 group, 2 n, then n entry ids
# to acknowledge, then for each hash: the seq it reflects, its number of pairs, the pairs.
# A hash whose `_seq` is as new already is left as it is.
WRITE_ROUNDS = Script("""
local n = tonumber(ARGV[2])
local i = 3 + n
for k = 2, #KEYS do
  local seq, pairs = tonumber(ARGV[i]), tonumber(ARGV[i + 1])
  local done = tonumber(redis.call('HGET', KEYS[k], '_seq') or '0')
  if done < seq then
    for j = i + 2, i + 1 + 2 * pairs, 2 do redis.call('HSET', KEYS[k], ARGV[j], ARGV[j + 1]) end
  end
  i = i + 2 + 2 * pairs
end
for j = 3, 2 + n do redis.call('XACK', KEYS[1], ARGV[1], ARGV[j]) end
return 1
""")


def rounds_key(game_id: str) -> str:
    return f"{keys.GameKeys(game_id).stream.split(':game:')[0]}:rounds:{game_id}"


class RoundIndex(msgspec.Struct):
    round: int
    first_seq: int
    last_seq: int
    scored: bool = False


def fold_rounds(
    current: RoundIndex | None, envelopes: list[Folded]
) -> tuple[dict[str, RoundIndex], RoundIndex | None]:
    """The rounds the events changed (by number), and the round in play after them:
    round_started opens a round, round_scored closes it, and what follows a game's last
    scoring (its end) belongs to its last round."""
    changed: dict[str, RoundIndex] = {}
    for envelope in envelopes:
        number = (
            msgspec.json.decode(envelope.data)["round"]
            if envelope.type == "round_started"
            else None
        )
        if number is not None and (current is None or current.round != number):
            current = RoundIndex(number, envelope.seq, envelope.seq)
        elif current is not None:
            current.last_seq = envelope.seq
            current.scored = current.scored or envelope.type == "round_scored"
        if current is not None:
            changed[str(current.round)] = msgspec.structs.replace(current)
    return changed, current


def round_fields(
    changed: dict[str, RoundIndex], current: RoundIndex | None, seq: int
) -> dict[str, bytes]:
    """A rounds hash's fields: the rounds changed, the round in play, and the seq reached."""
    pairs = {name: msgspec.json.encode(index) for name, index in changed.items()}
    if current is not None:
        pairs["_current"] = msgspec.json.encode(current)
    pairs["_seq"] = str(seq).encode()
    return pairs


class RoundsProjection(Projection):
    """Where each round's events lie (fold_rounds)."""

    group = "rounds"

    async def apply(self, batches: dict[str, Updates]) -> None:
        last = last_seqs(batches)
        pipe = self.redis.pipeline(transaction=False)
        for game_id in last:
            pipe.hmget(rounds_key(game_id), ["_seq", "_current"])
        marks = dict(zip(last, await pipe.execute(), strict=True))
        behind = {
            g: (int(done or 0), last[g])
            for g, (done, _) in marks.items()
            if int(done or 0) < last[g]
        }
        hashes: dict[str, tuple[int, dict[str, bytes]]] = {}
        for game_id, envelopes in (await self.read_many(behind)).items():
            current_raw = marks[game_id][1]
            current = msgspec.json.decode(current_raw, type=RoundIndex) if current_raw else None
            changed, current = fold_rounds(current, envelopes)
            hashes[game_id] = (last[game_id], round_fields(changed, current, last[game_id]))
        await self.commit(batches, hashes)

    async def commit(
        self, batches: dict[str, Updates], hashes: dict[str, tuple[int, dict[str, bytes]]]
    ) -> None:
        """Per shard, one script writes each game's changed rounds, unless its hash reflects
        as late a seq already, and acknowledges the entries."""
        calls = []
        for shard, updates in batches.items():
            games = [g for g in updates if g in hashes]
            args: list[Any] = [self.group, len(entry_ids(updates)), *entry_ids(updates)]
            for game_id in games:
                seq, pairs = hashes[game_id]
                args += [seq, len(pairs), *(x for kv in pairs.items() for x in kv)]
            calls.append(([keys.feed(shard), *map(rounds_key, games)], args))
        await self.eval_all(WRITE_ROUNDS, calls)


REPLACE_ROUNDS = Script("""
local out = {}
local i = 1
for k = 1, #KEYS do
  local seq, force, pairs = tonumber(ARGV[i]), ARGV[i + 1] == '1', tonumber(ARGV[i + 2])
  local done = tonumber(redis.call('HGET', KEYS[k], '_seq') or '0')
  if force or done <= seq then
    redis.call('DEL', KEYS[k])
    for j = i + 3, i + 2 + 2 * pairs, 2 do redis.call('HSET', KEYS[k], ARGV[j], ARGV[j + 1]) end
    out[k] = 1
  else
    out[k] = 0
  end
  i = i + 3 + 2 * pairs
end
return out
""")


async def rebuild(
    redis: Store,
    logs: dict[str, list[Folded]],
    read: Callable[[list[str]], Awaitable[dict[str, list[Folded]]]],
) -> None:
    """Each game's rounds hash replaced whole, unless a live consumer has taken it past
    the seq read here: then the game is read again and replaced at its new seq. A hash
    past a stream that has not moved claims events the store does not hold: the stream
    is the truth, and it is replaced anyway. One script per shard (its keys share a
    hash tag), many at once."""
    force: set[str] = set()
    for _ in range(ROUNDS_TRIES):
        if not logs:
            return
        by_shard: dict[str, list[str]] = {}
        for game_id in logs:
            by_shard.setdefault(keys.shard_of(game_id), []).append(game_id)
        calls = []
        for games in by_shard.values():
            args: list = []
            for game_id in games:
                envelopes = logs[game_id]
                changed, current = fold_rounds(None, envelopes)
                pairs = round_fields(changed, current, envelopes[-1].seq)
                args += [envelopes[-1].seq, "1" if game_id in force else "0", len(pairs)]
                args += [x for kv in pairs.items() for x in kv]
            calls.append(
                lambda games=games, args=args: REPLACE_ROUNDS(
                    redis, [rounds_key(g) for g in games], args
                )
            )
        replies = await gather_bounded(calls)
        moved = [
            game_id
            for games, replaced in zip(by_shard.values(), replies, strict=True)
            for game_id, done in zip(games, replaced, strict=True)
            if not done
        ]
        if not moved:
            return
        again = {g: log for g, log in (await read(moved)).items() if log}
        force = {g for g, log in again.items() if log[-1].seq == logs[g][-1].seq}
        logs = again
    log.warning("rebuild: the rounds of %s kept moving; the live ones stay", sorted(logs))
