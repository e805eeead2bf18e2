"""Each registered player's record: the result of every finished game they sat in
(`dg:{p:<id>}:results`). Its fold, its consumer and its part of a rebuild. The same consumer
files each rated game for the ratings (service/readmodels/ratings.py).

A result is written once, when the game's log is closed, and never replaces one: filing it
again (a redelivered feed entry, a rebuild) changes nothing. An abandoned game has no winner
and counts in nobody's record; an anonymous seat counts in no one's.
"""

from __future__ import annotations

from typing import Any

import msgspec

from domain.kernel import table as tables
from domain.registry import GAMES
from events import keys
from events.envelope import Folded
from service.play.game_model import CODECS
from service.readmodels import ratings
from service.readmodels.runner import ACK, Projection, RebuildFailed, Updates, entry_ids, last_seqs


class PlayerResult(msgspec.Struct):
    game_id: str
    game: str
    score: int
    won: bool


def results_key(player_id: str) -> str:
    """The player's finished games: game id -> its PlayerResult."""
    return f"dg:{{p:{player_id}}}:results"


async def results(redis: Any, player_id: str) -> list[PlayerResult]:
    decode = msgspec.json.Decoder(PlayerResult).decode
    return [decode(raw) for raw in (await redis.hgetall(results_key(player_id))).values()]


async def file_results(redis: Any, by_player: dict[str, dict[str, bytes]]) -> None:
    """Each player's new results (game id -> result); a game's result is written once, so
    filing it again (a redelivered feed entry, a rebuild) changes nothing."""
    if not by_player:
        return
    pipe = redis.pipeline(transaction=False)
    for player_id, games in by_player.items():
        for game_id, result in games.items():
            pipe.hsetnx(results_key(player_id), game_id, result)
    await pipe.execute()


def player_results_of(game_id: str, envelopes: list[Folded]) -> dict[str, bytes]:
    """A game's whole log -> its result per registered player (by player id), if it
    finished: an abandoned game has no winner and counts in nobody's record, and an
    anonymous seat counts in no one's."""
    rules = GAMES[msgspec.json.decode(envelopes[0].data)["game"]]
    codec = CODECS[rules.name]
    table = tables.from_created(rules, codec.event(envelopes[0]))  # type: ignore[arg-type]  # game_created
    for envelope in envelopes[1:]:
        tables.evolve(table, rules, codec.event(envelope))
    if rules.standings is None or table.status != "finished":
        return {}
    return {
        table.players[seat].player: msgspec.json.encode(  # type: ignore[misc]  # not None: the `if`
            PlayerResult(game_id=game_id, game=rules.name, score=score, won=won)
        )
        for seat, (score, won) in enumerate(rules.standings(table.state))
        if table.players[seat].player is not None
    }


def is_closed(envelopes: list[Folded]) -> bool:
    """The log is closed: its last event reveals the seed."""
    return bool(envelopes) and envelopes[-1].type == "seed_revealed"


class PlayersProjection(Projection):
    """Each finished game's result for each of its registered players."""

    group = "players"

    async def apply(self, batches: dict[str, Updates]) -> None:
        last = last_seqs(batches)
        tails = await self.read_many({g: (seq - 1, seq) for g, seq in last.items()})
        ended = [g for g, tail in tails.items() if is_closed(tail)]
        by_player: dict[str, dict[str, bytes]] = {}
        rated: list[ratings.RatedGame] = []
        for game_id, envelopes in (await self.read_many(dict.fromkeys(ended, (0, 2**62)))).items():
            results = player_results_of(game_id, envelopes)
            for player_id, result in results.items():
                by_player.setdefault(player_id, {})[game_id] = result
            if results:  # a game without a registered player is rated for nobody
                found = ratings.rated_game(game_id, envelopes, await self.store.secrets(game_id))
                rated += [found] if found is not None else []
        await file_results(self.redis, by_player)  # each once: before the ack
        await ratings.file(self.redis, rated)
        await self.kept()
        calls = [([keys.feed(shard)], [self.group, *entry_ids(u)]) for shard, u in batches.items()]
        await self.eval_all(ACK, calls)


async def rebuild(redis: Any, logs: dict[str, list[Folded]]) -> int:
    """The results of a batch of whole logs filed again (each once: what is filed stays);
    how many of the games are over."""
    by_player: dict[str, dict[str, bytes]] = {}
    closed = 0
    for game_id, envelopes in logs.items():
        if not is_closed(envelopes):
            continue
        closed += 1
        try:
            found = player_results_of(game_id, envelopes)
        except Exception as exc:
            raise RebuildFailed(f"game {game_id}: {type(exc).__name__}: {exc}") from exc
        for player_id, result in found.items():
            by_player.setdefault(player_id, {})[game_id] = result
    await file_results(redis, by_player)
    return closed
