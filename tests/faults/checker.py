"""The checker: from what the clients were told (tests/faults/load.py's History) and the
final store, every promise a run must have kept, each broken one a violation in words.

- `lost`: every acknowledged event (an answer's events, a receipt) is in its game's log at
  its seq with its hash;
- `shown`: every event a stream showed is in the log as shown (no event a reader saw was
  taken back, no seq shown with two hashes);
- `chain`: each log is one chain, seq 1 to n, each event naming the previous one's hash;
- `twice`: no Idempotency-Key caused two commands;
- `timer`: each timer rang at most once, and never before its deadline, measured by the
  store's own clock: the moment the append landed (its feed entry's id, the master's
  milliseconds), not the event's `at`, which a process with a wrong clock could write;
- `stamp`: no event's `at` is later than the moment its append landed (a stamp from a
  stepped clock);
- `rules`: every game ended (finished, or abandoned as the rules say: every game of a run
  is idle once its load stops) and its audit passes every check: chain, commitment,
  shuffles, rules, scores. An open game that no client was told of and nobody joined (a
  create whose write landed but whose answer was lost, the service having tried another
  id) is counted apart: it ends after DANGER_OPEN_HOURS;
- `answers`: no 500 (nor another 5xx but 503), and every 503 with a code and Retry-After;
- `projections`: no dead letter, and the read models equal a rebuild from the logs;
- `store`: the store was whole again after each fault.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any

from domain.registry import GAMES
from events import keys
from events.audit import audit, rung_timers
from events.envelope import Envelope
from events.store import EventStore, decode_envelope

# Processes read the store's clock through a measured offset (service/infra/clock.py): a
# stamp may be this far from the master's own time and still be honest.
TOLERANCE = timedelta(milliseconds=250)


@dataclass
class Verdict:
    games: int = 0
    events: int = 0
    finished: int = 0
    abandoned: int = 0
    timers: int = 0
    orphans: int = 0  # open games no client was told of (a create's answer lost)
    violations: list[tuple[str, str]] = field(default_factory=list)  # (rule, what)

    def fail(self, rule: str, what: str) -> None:
        self.violations.append((rule, what))


def _time(at: str) -> datetime:
    return datetime.fromisoformat(at.replace("Z", "+00:00"))


async def landed(redis: Any) -> dict[str, dict[int, datetime]]:
    """When each event's append landed, by game and seq: the feed entries' ids are the
    master's clock when it took the append."""
    found: dict[str, dict[int, datetime]] = defaultdict(dict)
    for shard in keys.all_shards():
        for entry_id, fields in await redis.xrange(keys.feed(shard), "-", "+"):
            entry = {_text(k): _text(v) for k, v in _pairs(fields)}
            if "game" not in entry:
                continue
            moment = datetime.fromtimestamp(int(_text(entry_id).split("-")[0]) / 1000, UTC)
            for seq in range(int(entry["first"]), int(entry["last"]) + 1):
                found[entry["game"]].setdefault(seq, moment)
    return found


def _pairs(fields: Any) -> list[tuple[Any, Any]]:
    if isinstance(fields, dict):
        return list(fields.items())
    items = list(fields)
    return list(zip(items[::2], items[1::2], strict=True))


def _text(value: Any) -> str:
    return value.decode() if isinstance(value, bytes) else str(value)


def timers_rung(envelopes: list[Envelope]) -> list[tuple[int, str, datetime | None]]:
    """(seq, timer id, its deadline) for every batch a `fire_timer` caused, as the audit
    derives the deadlines (a timer that was not running has none: the table writes nothing
    for one, so such a batch is a violation by itself)."""
    if not envelopes or envelopes[0].data.get("game") not in GAMES:
        return []
    return rung_timers(envelopes)


async def check_logs(redis: Any, history: Any, verdict: Verdict) -> None:
    store = EventStore(redis)
    games = set(history.games)
    async for key in redis.scan_iter(match=f"{keys.PREFIX}:{{*}}:game:*", count=1000):
        games.add(_text(key).rsplit(":", 1)[1])
    when = await landed(redis)
    for game in sorted(games):
        raw, _ = await store.load(game)
        envelopes = [decode_envelope(r) for r in raw]
        verdict.games += 1
        verdict.events += len(envelopes)
        check_game(game, envelopes, when.get(game, {}), history, verdict)


def check_game(
    game: str,
    envelopes: list[Envelope],
    when: dict[int, datetime],
    history: Any,
    verdict: Verdict,
) -> None:
    logged = {e.seq: e.hash for e in envelopes}
    for seq, digest in sorted(history.acknowledged.get(game, {}).items()):
        if logged.get(seq) != digest:
            verdict.fail(
                "lost", f"{game}: acknowledged event {seq} ({digest[:12]}) is not in the log"
            )
    for seq, digest in sorted(history.streamed.get(game, {}).items()):
        if logged.get(seq) != digest:
            verdict.fail(
                "shown",
                f"{game}: a stream showed event {seq} ({digest[:12]}); "
                f"the log has {logged.get(seq, 'nothing')[:12]}",
            )
    report = audit(envelopes)
    checks = {c.name: c for c in report.checks}
    if not checks["hash_chain"].ok:
        verdict.fail("chain", f"{game}: {checks['hash_chain'].detail}")
    if not report.finished and len(envelopes) == 1 and game not in history.games:
        # A create written whose answer was lost (a node cut off mid-append: the service
        # tried another id), so no client knows it: open, never joined, it is abandoned
        # after DANGER_OPEN_HOURS as any game never started (service/play/games.py).
        verdict.orphans += 1
    elif not report.finished:
        verdict.fail(
            "rules", f"{game}: still running after every client stopped (seq {len(envelopes)})"
        )
    else:
        verdict.finished += 1
        verdict.abandoned += any(e.type == "game_abandoned" for e in envelopes)
        for check in report.checks:
            if not check.ok and check.name != "hash_chain":
                verdict.fail("rules", f"{game}: {check.name} at {check.seq}: {check.detail}")
    commands = Counter(e.command for e in envelopes if e.cause is not None and e.command)
    for key, times in commands.items():
        if times > 1:
            verdict.fail("twice", f"{game}: the Idempotency-Key {key} caused {times} commands")
    for envelope in envelopes:
        landed_at = when.get(envelope.seq)
        if landed_at is not None and _time(envelope.at) > landed_at + TOLERANCE:
            verdict.fail(
                "stamp",
                f"{game}: event {envelope.seq} stamped {envelope.at}, "
                f"written {landed_at.isoformat()}",
            )
    try:
        rung = timers_rung(envelopes)
    except Exception as exc:  # the audit reports an unfoldable log; the timers say no more
        rung = []
        verdict.fail("timer", f"{game}: the log cannot be folded to find its timers: {exc}")
    verdict.timers += len(rung)
    for timer, times in Counter(t for _, t, _ in rung).items():
        if times > 1:
            verdict.fail("timer", f"{game}: timer {timer} rang {times} times")
    for seq, timer, deadline in rung:
        if deadline is None:
            verdict.fail("timer", f"{game}: event {seq} rang {timer}, which was not running")
            continue
        landed_at = when.get(seq)
        if landed_at is not None and landed_at + TOLERANCE < deadline:
            early = (deadline - landed_at).total_seconds()
            verdict.fail(
                "timer", f"{game}: {timer} rang {early:.3f} s before its deadline (event {seq})"
            )


def check_answers(history: Any, verdict: Verdict) -> None:
    for what in history.unanswerable:
        verdict.fail("answers", what)
    for fork in history.stream_forks:
        verdict.fail("shown", fork)
