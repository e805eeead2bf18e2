"""Each registered player's games: one entry per game they sit in (or sat in to its end),
newest first, filtered by kind of game and by result. Its fold, its consumer
(`PlayerGamesProjection`) and its part of a rebuild.

Every key of a player's list carries the player's hash tag (`dg:{p:<id>}:games...`, the one
of their record), so one script writes an entry and moves it between the player's indexes
atomically, in Redis Cluster too:

- `dg:{p:<id>}:games`: game id -> the entry (JSON, `PlayerGame`);
- `dg:{p:<id>}:games:seq`: game id -> the seq of the game's last event that changed the
  entry (its version): a write of an older version changes nothing, and a seat given up
  leaves its version behind, so that a late write cannot bring the game back;
- `dg:{p:<id>}:games:<public|all>:<result|any>:<kind|any>`: sorted sets of game ids scored
  by the game's creation time (ms), as the lobby's are: a page is `ZREVRANGEBYSCORE` +
  `HMGET`, O(log n + page) whatever the number of the player's games. A private game is in
  the `all` indexes only: the player's own listing (service/http/players_api.py).

An entry changes only at the table's events (a join, a seat given up, the start, the end);
while a game is played it stays as it is. So the consumer keeps, per game, the status it last
folded (`dg:{sNN}:listed:<id>`, in the game's slot): a game being played costs it one event
read per batch (is the log closed?), only a game that is open or whose log has just closed
is read whole, and a closed one is not read at all. The version of an entry is a function of
the log alone, so the consumer and a rebuild file the same entries at the same versions
(tests/projections.py compares them).
"""

from __future__ import annotations

from typing import Any, Literal

import msgspec

from domain.kernel import table as tables
from domain.registry import GAMES
from events import keys
from events.cluster import Store, in_slices, run_scripts
from events.envelope import Folded
from service.infra.lua import Script
from service.play.game_model import CODECS
from service.readmodels.lobby import PAGE, score
from service.readmodels.runner import Projection, RebuildFailed, Updates, entry_ids, last_seqs

Result = Literal["playing", "won", "lost", "abandoned"]
RESULTS: tuple[str, ...] = ("playing", "won", "lost", "abandoned")
VISIBILITIES = ("public", "all")
TABLE_TYPES = frozenset(
    {
        "game_created",
        "player_joined",
        "seat_left",
        "game_started",
        "game_abandoned",
        "seed_revealed",
    }
)
"""The events that may change an entry, beside each game's final event."""
FINAL = {name: rules.final_event.__struct_config__.tag for name, rules in GAMES.items()}
LISTED_SECONDS = 3600
"""How long the consumer remembers a game whose log is closed: its feed entries are
acknowledged long before (a late one finds no note and reads the log again, harmlessly)."""


class PlayerGame(msgspec.Struct, frozen=True):
    id: str
    game: str
    status: Literal["open", "active", "finished", "abandoned"]
    seat: int
    seats: int
    private: bool
    created_at: str
    ended_at: str | None
    result: Result
    score: int | None
    last_seq: int | None


decode_entry = msgspec.json.Decoder(PlayerGame).decode


def tag(player_id: str) -> str:
    return f"{keys.PREFIX}:{{p:{player_id}}}:games"


def index(player_id: str, visibility: str, result: str | None, game: str | None) -> str:
    """The sorted set of the player's games of one result (None: any) and kind (None: any),
    public ones only or all of them."""
    return f"{tag(player_id)}:{visibility}:{result or 'any'}:{game or 'any'}"


def model_keys(player_id: str) -> list[str]:
    """Every key of a player's list: the entries, their versions, then every index."""
    indexes = [
        index(player_id, v, r, g)
        for v in VISIBILITIES
        for r in (None, *RESULTS)
        for g in (None, *GAMES)
    ]
    return [tag(player_id), f"{tag(player_id)}:seq", *indexes]


def listed_key(game_id: str) -> str:
    """The consumer's note of a game: '<status> <version>' as it last folded it."""
    return f"{keys.PREFIX}:{{{keys.shard_of(game_id)}}}:listed:{game_id}"


# KEYS: every key of one player's list (model_keys). ARGV: groups of seven per game: id,
# version, score ('' to take the game off the list), result, kind, public ('1' or '0'),
# entry. A game is filed under its result and kind, its kind, its result and any, among all
# the player's games and, unless private, among the public ones; and taken out of the others;
# unless the list holds it at a later version. Returns how many were written.
WRITE = Script(f"""
local declared = {{}}
for k = 1, #KEYS do declared[KEYS[k]] = true end
local function key(name)
  if not declared[name] then error('undeclared player games key ' .. name) end
  return name
end
local prefix = KEYS[1]
local results = {{'any', {", ".join(repr(r) for r in RESULTS)}}}
local kinds = {{'any', {", ".join(repr(g) for g in GAMES)}}}
local written = 0
for i = 1, #ARGV, 7 do
  local id, version, at, result, kind = ARGV[i], ARGV[i + 1], ARGV[i + 2], ARGV[i + 3], ARGV[i + 4]
  local public, entry = ARGV[i + 5], ARGV[i + 6]
  local known = redis.call('HGET', KEYS[2], id)
  if not known or tonumber(known) <= tonumber(version) then
    written = written + 1
    redis.call('HSET', KEYS[2], id, version)
    for _, v in ipairs({{'public', 'all'}}) do
      for _, r in ipairs(results) do
        for _, g in ipairs(kinds) do
          local name = key(prefix .. ':' .. v .. ':' .. r .. ':' .. g)
          local wanted = at ~= '' and (v == 'all' or public == '1')
            and (r == 'any' or r == result) and (g == 'any' or g == kind)
          if wanted then redis.call('ZADD', name, at, id) else redis.call('ZREM', name, id) end
        end
      end
    end
    if at == '' then redis.call('HDEL', prefix, id) else redis.call('HSET', prefix, id, entry) end
  end
end
return written
""")

# KEYS: 1 the shard's feed, then each game's note (listed_key). ARGV: 1 group, 2 how many
# entry ids, the entry ids, then per game: its status, version, and seconds the note lives
# (0: for good). A note is written unless one of a later version stands; the entries are
# acknowledged with it.
NOTE = Script("""
local n = tonumber(ARGV[2])
for j = 3, 2 + n do redis.call('XACK', KEYS[1], ARGV[1], ARGV[j]) end
local i = 3 + n
for k = 2, #KEYS do
  local status, version, ttl = ARGV[i], tonumber(ARGV[i + 1]), tonumber(ARGV[i + 2])
  local known = redis.call('GET', KEYS[k])
  local at = known and tonumber(string.match(known, ' (%d+)$')) or -1
  if at <= version then
    if ttl > 0 then
      redis.call('SET', KEYS[k], status .. ' ' .. version, 'EX', ttl)
    else
      redis.call('SET', KEYS[k], status .. ' ' .. version)
    end
  end
  i = i + 3
end
return 1
""")


# Its fold, shared by the consumer and the rebuild: a whole log in, every listed player's
# entry out ------------------------------------------------------------------------------


class Folding(msgspec.Struct):
    """One game's log folded: its status, the version of its entries, each registered
    player's entry, and the players who joined and left (their entries go)."""

    status: str
    closed: bool
    version: int
    entries: dict[str, PlayerGame]
    gone: set[str]

    @property
    def note(self) -> str:
        """What the consumer notes of the game: `closed` once its log is, else its status."""
        return "closed" if self.closed else self.status


def fold(game_id: str, envelopes: list[Folded]) -> Folding:
    """A game's whole log -> each registered player's entry."""
    created = msgspec.json.decode(envelopes[0].data)
    rules = GAMES[created["game"]]
    codec = CODECS[rules.name]
    table = tables.from_created(rules, codec.event(envelopes[0]))  # type: ignore[arg-type]  # game_created
    joined: set[str] = set()
    version, ended_at = envelopes[0].seq, None
    final = FINAL[rules.name]
    for envelope in envelopes[1:]:
        tables.evolve(table, rules, codec.event(envelope))
        if envelope.type in TABLE_TYPES or envelope.type == final:
            version = envelope.seq
        if envelope.type in (final, "game_abandoned"):
            ended_at = envelope.at
        if envelope.type == "player_joined":
            player = msgspec.json.decode(envelope.data).get("player")
            if player is not None:
                joined.add(player)
    closed = envelopes[-1].type == "seed_revealed"
    standings: dict[int, tuple[int, bool]] = {}
    if table.status == "finished" and rules.standings is not None:
        standings = dict(enumerate(rules.standings(table.state)))
    entries = {}
    for seated in table.players:
        if seated.player is None:
            continue
        result: Result = "playing"
        points = None
        if table.status == "abandoned":
            result = "abandoned"
        elif table.status == "finished":
            points, won = standings.get(seated.seat, (0, False))
            result = "won" if won else "lost"
        entries[seated.player] = PlayerGame(
            id=game_id,
            game=rules.name,
            status=table.status,
            seat=seated.seat,
            seats=table.seats,
            private=table.private,
            created_at=envelopes[0].at,
            ended_at=ended_at,
            result=result,
            score=points,
            last_seq=envelopes[-1].seq if closed else None,
        )
    return Folding(table.status, closed, version, entries, joined - set(entries))


async def write(redis: Store, foldings: dict[str, Folding]) -> None:
    """Every player's entries (and the games they left), one script per player."""
    by_player: dict[str, list[Any]] = {}
    for game_id, folding in foldings.items():
        for player_id, entry in folding.entries.items():
            by_player.setdefault(player_id, []).extend(
                [
                    game_id,
                    folding.version,
                    score(entry.created_at),
                    entry.result,
                    entry.game,
                    "0" if entry.private else "1",
                    msgspec.json.encode(entry),
                ]
            )
        for player_id in folding.gone:
            by_player.setdefault(player_id, []).extend(
                [game_id, folding.version, "", "", "", "0", ""]
            )
    await run_scripts(
        redis, WRITE, [(model_keys(player_id), args) for player_id, args in by_player.items()]
    )


# Reading -----------------------------------------------------------------------------


async def page(
    redis: Store,
    player_id: str,
    everything: bool,
    result: str | None,
    game: str | None,
    limit: int,
    cursor: tuple[int, str] | None = None,
) -> tuple[list[PlayerGame], int]:
    """A page of the player's games, newest first, after the cursor if given, and how many
    the filter holds; private games only with `everything` (the player's own reading)."""
    args: list[Any] = [limit, 0]
    if cursor is not None:
        args += [cursor[0], cursor[1]]
    visibility = "all" if everything else "public"
    keys_ = [index(player_id, visibility, result, game), tag(player_id)]
    total, *raws = await PAGE(redis, keys_, args)
    return [decode_entry(raw) for raw in raws if raw], int(total)


async def playing(redis: Store, player_id: str, bound: int) -> list[str]:
    """The ids of the player's open and running games, newest first, at most `bound`."""
    ids = await redis.zrevrange(index(player_id, "all", "playing", None), 0, bound - 1)
    return [i.decode() if isinstance(i, bytes) else str(i) for i in ids]


def cursor_of(entry: PlayerGame) -> str:
    """The cursor that continues a listing after this game (the lobby's form)."""
    return f"{score(entry.created_at)}.{entry.id}"


# The consumer -------------------------------------------------------------------------


class PlayerGamesProjection(Projection):
    """Each registered player's games, as their table's events change them."""

    group = "player_games"

    async def apply(self, batches: dict[str, Updates]) -> None:
        last = last_seqs(batches)
        games = list(last)
        notes = await in_slices(self.redis, games, lambda pipe, g: pipe.get(listed_key(g)))
        status = {
            g: (note.decode().split(" ")[0] if note else None)
            for g, note in zip(games, notes, strict=True)
        }
        # A game being played changes no entry until its log closes: its last event says.
        # One whose log is closed changes no more.
        playing = [g for g in games if status[g] not in (None, "open", "closed")]
        tails = await self.read_many({g: (last[g] - 1, last[g]) for g in playing})
        whole = [
            g for g in games if status[g] in (None, "open") or (g in tails and _closes(tails[g]))
        ]
        foldings = {
            g: fold(g, log)
            for g, log in (await self.read_many({g: (0, last[g]) for g in whole})).items()
            if log
        }
        await write(self.redis, foldings)  # the entries first, then the notes and the acks
        await self.kept()
        calls = []
        for shard, updates in batches.items():
            noted = [g for g in updates if g in foldings]
            args: list[Any] = [self.group, len(entry_ids(updates)), *entry_ids(updates)]
            for game_id in noted:
                folding = foldings[game_id]
                args += [folding.note, folding.version, LISTED_SECONDS if folding.closed else 0]
            calls.append(([keys.feed(shard), *map(listed_key, noted)], args))
        await self.eval_all(NOTE, calls)


def _closes(tail: list[Folded]) -> bool:
    return bool(tail) and tail[-1].type == "seed_revealed"


async def rebuild(redis: Store, logs: dict[str, list[Folded]]) -> None:
    """A batch of whole logs folded again and filed: each entry at its version, over the
    same version or an older one (a live consumer that has filed a later one keeps it)."""
    foldings = {}
    for game_id, envelopes in logs.items():
        try:
            foldings[game_id] = fold(game_id, envelopes)
        except Exception as exc:
            raise RebuildFailed(f"game {game_id}: {type(exc).__name__}: {exc}") from exc
    await write(redis, foldings)
