"""The read models fed by the shard feeds, each through its own consumer group
(service/readmodels/runner.py runs them):

- lobby: a summary per game, indexed by status and kind (service/readmodels/lobby.py);
- rounds: per game, the seq range of every round (service/readmodels/rounds.py);
- records: each finished game's result per registered player
  (service/readmodels/records.py);
- player_games: each registered player's games, by kind and result
  (service/readmodels/player_games.py);
- log: the game heads the transparency log is to take (service/readmodels/log_heads.py);
- hooks: not a model: the webhook deliveries each game's events call for
  (service/readmodels/webhook_events.py), never replayed by a rebuild.

`danger projections rebuild` builds every model again from the game streams themselves,
beside the live ones (service/readmodels/rebuild.py).
"""

from __future__ import annotations

from typing import Any

from events import keys
from events.cluster import Store, in_slices
from events.store import EventStore
from service.infra.bell import Bell
from service.infra.config import ProjectionSettings, Webhooks
from service.readmodels import dead_letters
from service.readmodels.lobby import LobbyProjection
from service.readmodels.log_heads import LogHeadsProjection
from service.readmodels.player_games import PlayerGamesProjection
from service.readmodels.records import PlayersProjection
from service.readmodels.rounds import RoundsProjection
from service.readmodels.runner import Projection, text
from service.readmodels.webhook_events import WebhookEventsProjection

PROJECTIONS: tuple[type[Projection], ...] = (
    LobbyProjection,
    RoundsProjection,
    PlayersProjection,
    PlayerGamesProjection,
    LogHeadsProjection,
    WebhookEventsProjection,
)
GROUPS = [p.group for p in PROJECTIONS]


def consumers(
    redis: Store,
    store: EventStore,
    settings: ProjectionSettings | None = None,
    bell: Bell | None = None,
    hooks: Webhooks | None = None,
) -> list[Projection]:
    """One consumer of each projection: what a process runs (service/assembly/background.py),
    and whose `errors` and `last_error` /health shows."""
    made = [p(redis, store, settings, bell, GROUPS) for p in PROJECTIONS]
    for projection in made:
        if isinstance(projection, WebhookEventsProjection) and hooks is not None:
            projection.queued = hooks.queued
    return made


async def lag(redis: Store) -> dict[str, dict[str, int]]:
    """Per projection: feed entries not yet applied, and how long (ms, by the server's clock)
    the oldest of them has waited: a delivered but unacknowledged entry, or else the first
    one not yet delivered. Three round trips (per node) whatever the number of shards."""
    out = {p.group: {"entries": 0, "ms": 0} for p in PROJECTIONS}
    seconds, micros = await redis.time()
    now = seconds * 1000 + micros // 1000
    feeds = [keys.feed(shard) for shard in keys.all_shards()]
    infos = await in_slices(redis, feeds, lambda pipe, f: pipe.xinfo_groups(f), False)
    behind = []  # (feed, group name, pending, undelivered, last delivered id)
    for feed, groups in zip(feeds, infos, strict=True):
        if isinstance(groups, Exception):  # no such feed yet
            continue
        for group in groups:
            name = text(group["name"])
            pending = int(group.get("pending") or 0)
            undelivered = int(group.get("lag") or 0)
            if name in out and pending + undelivered:
                behind.append((feed, name, pending, undelivered, text(group["last-delivered-id"])))
    if not behind:
        return out

    def add(pipe: Any, lagging: tuple[str, str, int, int, str]) -> None:
        feed, name, _, _, last = lagging
        pipe.xpending(feed, name)
        pipe.xrange(feed, "(" + last, "+", count=1)

    replies = iter(await in_slices(redis, behind, add))
    for _, name, pending, undelivered, _ in behind:
        first_pending, first_new = next(replies)["min"], next(replies)
        oldest: list[str] = []
        if pending and first_pending is not None:  # unless acknowledged since
            oldest.append(text(first_pending))
        if undelivered:
            oldest += [text(row[0]) for row in first_new]
        out[name]["entries"] += pending + undelivered
        if oldest:
            since = min(int(entry_id.split("-")[0]) for entry_id in oldest)
            out[name]["ms"] = max(out[name]["ms"], max(0, now - since))
    return out


async def health(
    redis: Store, running: list[Projection] | None = None
) -> dict[str, dict[str, int]]:
    """Per projection, what /health shows: its lag (`entries`, `ms`), the dead letters kept
    (`dead_letters`, over every consumer), and the failed attempts of the consumers running
    in this process since they started (`errors`; 0 where none runs)."""
    out = await lag(redis)
    for group, count in (await dead_letters.counts(redis, GROUPS)).items():
        out[group]["dead_letters"] = count
        out[group]["errors"] = 0
    for projection in running or []:
        out[projection.group]["errors"] += projection.errors
    return out
