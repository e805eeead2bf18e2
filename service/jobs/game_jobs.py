"""What a game leaves for the workers and what they bring back: its running timers and its
bot seats' moves queued, its place in its shard's due set (what the sweep reads), its expiry,
and the bots' moves and timers' rings sent back through the write path.

`GameJobs.after_append` is a reaction of the write path (service/play/write_path.py): every
append that takes effect queues what it began. The composition root hands it in
(service/assembly/runtime.py)."""

from __future__ import annotations

import hashlib
import hmac
import logging
import random
from datetime import datetime, timedelta
from typing import Protocol

from domain.kernel import Command
from domain.kernel import table as tables
from service.infra import metrics
from service.infra.errors import ApiError
from service.jobs.due_filing import DueFiling
from service.play.game_model import Game, Outcome
from service.play.games import GameService
from service.play.write_path import MAX_ATTEMPTS, Write, count_timer

log = logging.getLogger("danger.games")
SWEEP_SLACK_SECONDS = 5.0  # a job due this long ago and not done: the sweep queues it again
# A timer's job is queued this much before its deadline: processes whose clocks disagree by
# up to this much still ring it on time (it runs, finds itself early, and comes again).
TIMER_EARLY_SECONDS = 1.0


class NotDue(Exception):
    """A timer's job came before the timer's deadline by the store's clock (the processes'
    clocks disagree): it should come again in `seconds`."""

    def __init__(self, seconds: float) -> None:
        super().__init__(f"due in {seconds:.3f} s")
        self.seconds = seconds


class Scheduler(Protocol):
    """Where the command path leaves work for the workers."""

    async def timer(self, game_id: str, timer_id: str, deadline: datetime) -> None:
        """Fire the timer at its deadline; a timer id queued twice runs once."""

    async def bot(self, game_id: str, seat: int, since: int, seq: int, delay: float) -> None:
        """Play a move for a bot seat after `delay` seconds (queued at game seq `seq`)."""


class GameJobs:
    """The jobs and lifecycle of the service's games: what the workers must do, and do."""

    def __init__(self, service: GameService, scheduler: Scheduler) -> None:
        self.service = service
        self.scheduler = scheduler
        self.clock = service.clock
        self.lifecycle = service.lifecycle
        self.due_filing = DueFiling(service.store)

    async def schedule(self, game: Game, recheck: float | None = None) -> None:
        """Queue what the workers must do next for this game (its running timers, and a move
        for every bot seat that may act now) and file the game in its shard's due set at
        the moment the sweep should look at it again: a job's due time plus some slack, or
        the game's expiry. `recheck` (epoch s), from the sweep: not sooner than this."""
        await self.service.store.set_due(game.id, await self._queue_jobs(game, recheck))

    async def _queue_jobs(
        self, game: Game, recheck: float | None, again: bool = True
    ) -> int | None:
        """Queue the game's jobs; the time (ms) the sweep should look at it next, None for
        never. `again`: every running timer's too, whatever this process queued before."""
        due: list[float] = []
        # Every running timer: its deadline comes from the log and the queue refuses a timer
        # id it holds already, so queueing again (another process, a restart, the sweep)
        # changes nothing, and a timer whose job was lost is queued anew. After a command
        # (`again` False) a timer this process queued already for the same deadline is not
        # asked of the queue again (three round trips each: arq watches the job's key): the
        # sweep asks for it when the game falls due, its deadline and SWEEP_SLACK_SECONDS on.
        queued, game.timers_queued = game.timers_queued, {}
        for timer_id, _, deadline in game.clocks():
            if again or queued.get(timer_id) != deadline:
                # A deadline is the store's time; the queue runs jobs by the clock of the
                # worker that takes them. Early by a margin (the job comes again at the
                # deadline, measured by the store's clock), never late by a worker's skew.
                early = timedelta(seconds=self.clock.offset + TIMER_EARLY_SECONDS)
                await self.scheduler.timer(game.id, timer_id, deadline - early)
            game.timers_queued[timer_id] = deadline
            due.append(deadline.timestamp() + SWEEP_SLACK_SECONDS)
        expiry = game.expiry(self.lifecycle.open_hours)
        if expiry is not None:
            due.append(expiry[0].timestamp())
        if game.table.status == "active":
            moment = self.clock.time()
            for seat, player in enumerate(game.table.players):
                if player.bot is None or not tables.legal(game.table, game.rules, seat):
                    continue
                since = game.acted.get(seat, 0)
                waiting = game.bot_due.get(seat)
                if waiting is None or waiting[0] != since or waiting[1] <= moment:
                    delay = (player.think_ms or 0) / 1000
                    await self.scheduler.bot(game.id, seat, since, game.seq, delay)
                    # else this process queued its move already; it will see this event too
                    game.bot_due[seat] = waiting = (since, moment + delay)
                due.append(waiting[1] + SWEEP_SLACK_SECONDS)
        if not due:
            return None
        at = max(min(due), recheck) if recheck is not None else min(due)
        return int(at * 1000)

    async def expire(self, game_id: str) -> bool:
        """End the game as abandoned if its expiry has come (the sweep asks). The expiry is
        looked at under the game's lock on the current log, and the append names that log's
        seq, so a seat's command that came meanwhile keeps the game alive. True if it ended."""
        game = await self.service.get(game_id)
        async with game.lock:
            await self.service.repository.catch_up(game)
            expiry = game.expiry(self.lifecycle.open_hours)
            if expiry is None or expiry[0] > self.clock.now():
                return False
            return bool(await self.service.writes.append_server(game, expiry[1]))

    async def after_append(self, game: Game) -> None:
        """The events are stored: a queue that fails now is logged by the write path and
        does not turn the answer into an error; what is not queued here, the periodic sweep
        queues (`worker.sweep`). The game's due time goes with those of other commands
        (service/jobs/due_filing.py)."""
        self.due_filing.file(game.id, game.seq, await self._queue_jobs(game, None, False))

    async def play_bot(self, game_id: str, seat: int, since: int) -> Outcome | None:
        """One move of a bot seat, decided from its own view, through the command path.
        `since` is the seq of the seat's last move when the job was queued: once the seat
        has moved again, the job is stale (another job was queued after that move)."""
        for _ in range(MAX_ATTEMPTS):
            game = await self.service.get(game_id)
            if game.table.status != "active" or game.acted.get(seat, 0) != since:
                return None
            player = game.table.players[seat]
            moves = self.service.legal(game, seat)
            if player.bot is None or not moves:
                return None
            bot = game.rules.bot(player.bot)
            # Seeded from the game's secret seed, so nobody can foresee a bot's choices; once
            # the seed is revealed, anyone can replay them.
            dice = random.Random(bot_seed(game.seed, seat, game.seq))
            command = bot(game.rules.view(game.table.state, seat), seat, moves, dice)
            try:
                outcome = await self.service.writes.execute(
                    Write(game, seat, command, if_match=game.seq)
                )
                if outcome.envelopes:
                    metrics.BOT_MOVES.labels(game.rules.name).inc()
                return outcome
            except ApiError as moved_on:  # another seat or a timer came first: look again
                if moved_on.status not in (409, 412):
                    raise
        log.warning("bot seat %s of %s found no move that stood; the sweep retries", seat, game_id)
        return None

    async def system(self, game_id: str, command: Command) -> Outcome | None:
        """A command from the service itself (a worker's timer), not from a seat."""
        game = await self.service.get(game_id)
        if game.table.status != "active":
            return None
        late = None
        if isinstance(command, tables.FireTimer):
            await self.clock.refresh()
            for timer_id, _, deadline in game.clocks():
                early = (deadline - self.clock.now()).total_seconds()
                if timer_id == command.timer and early > 0:
                    raise NotDue(early)
                if timer_id == command.timer:
                    late = -early
        outcome = await self.service.writes.execute(Write(game, "server", command))
        if late is not None and outcome.envelopes:
            count_timer(game, "worker", late)
        return outcome


def bot_seed(seed: bytes, seat: int, seq: int) -> bytes:
    """The seed of a bot's dice for one decision: secret while the game runs (it derives
    from the server seed), so nobody can foresee a bot's choices; checkable after."""
    return hmac.new(seed, f"danger-hall/bot/{seat}/{seq}".encode(), hashlib.sha256).digest()
