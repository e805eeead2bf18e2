"""Background tasks that heal themselves: the arq worker, the sweep and each projection run
under a supervisor that starts them again, with backoff, after any error (a store that
restarted, a connection lost), and keeps what `/health` reports of each.

A task that reports its own progress (`beats`: the worker after each poll of its queue, the
sweep after each pass) is well again at its next beat. One that does not (a projection,
which keeps its own loop alive and only logs what failed) is well again once it has gone
`QUIET_SECONDS` without an error: every error a task logs (level ERROR, from inside it) is
counted as its own. A task failing without a break for the give-up time cannot recover:
`/health` says so, and `danger worker` exits with status 1 for whatever runs it to start
it again. Tasks of one group (the arq workers, one per queue server) give up together: while
one of them works, a server gone for good costs its own worker only, and a restart would
stop the others' jobs for nothing.
"""

from __future__ import annotations

import asyncio
import logging
import random
import time
import weakref
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Literal

log = logging.getLogger("danger.supervisor")

BACKOFF_FIRST_SECONDS = 0.1
BACKOFF_MAX_SECONDS = 2.0  # bounds how long a task waits to try again after the store is back
STEADY_SECONDS = 10.0  # a run that lasted this long starts the backoff over
QUIET_SECONDS = 5.0
GIVE_UP_SECONDS = 300.0

State = Literal["running", "retrying", "failed"]


@dataclass
class TaskHealth:
    name: str
    beats: bool
    group: str | None = None
    restarts: int = 0
    errors: int = 0
    last_error: str | None = None
    last_error_at: float | None = None  # time.monotonic()
    failing_since: float | None = None

    def ok(self) -> None:
        """The task made progress: whatever failed before has passed."""
        self.failing_since = None

    def failed(self, error: str) -> None:
        now = time.monotonic()
        if self.failing_for(now) is None:
            self.failing_since = now
        self.errors += 1
        self.last_error, self.last_error_at = error[:500], now

    def failing_for(self, now: float) -> float | None:
        """How long the task has been failing without a break, or None if it is well."""
        if self.failing_since is None:
            return None
        if self.beats:
            return now - self.failing_since
        # Without beats, only errors tell: failing from the first to the last of a run of
        # errors with no quiet gap between them.
        if self.last_error_at is None or now - self.last_error_at > QUIET_SECONDS:
            return None
        return self.last_error_at - self.failing_since

    def state(self, now: float, give_up: float) -> State:
        failing = self.failing_for(now)
        if failing is None:
            return "running"
        return "failed" if failing >= give_up else "retrying"


# Which task health a running asyncio task reports to: how an error logged inside a
# supervised task is told apart from one logged anywhere else.
_OWNERS: weakref.WeakKeyDictionary[asyncio.Task[None], TaskHealth] = weakref.WeakKeyDictionary()


class _LoggedErrors(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.ERROR)

    def emit(self, record: logging.LogRecord) -> None:
        try:
            task = asyncio.current_task()
        except RuntimeError:  # no running loop: not one of ours
            return
        health = _OWNERS.get(task) if task is not None else None
        if health is not None:
            exc = record.exc_info[1] if record.exc_info else None
            health.failed(f"{record.getMessage()}: {exc!r}" if exc else record.getMessage())


logging.getLogger("danger").addHandler(_LoggedErrors())

Run = Callable[[TaskHealth], Awaitable[None]]


class Supervisor:
    def __init__(self, give_up_seconds: float = GIVE_UP_SECONDS) -> None:
        self.give_up = give_up_seconds
        self.tasks: dict[str, TaskHealth] = {}
        self._running: list[asyncio.Task[None]] = []

    def start(self, name: str, run: Run, beats: bool = True, group: str | None = None) -> None:
        """Run `run` until cancelled; each time it fails (or returns), again after a backoff.
        `group`: tasks that give up only together (`hopeless`)."""
        health = TaskHealth(name, beats, group)
        self.tasks[name] = health
        task = asyncio.create_task(self._keep(health, run), name=f"danger:{name}")
        _OWNERS[task] = health
        self._running.append(task)

    async def _keep(self, health: TaskHealth, run: Run) -> None:
        delay = BACKOFF_FIRST_SECONDS
        while True:
            began = time.monotonic()
            try:
                await run(health)
                health.failed("stopped")  # a background task runs until it is cancelled
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                health.failed(repr(exc))
                log.warning("%s failed (%r); starting it again", health.name, exc)
            if time.monotonic() - began > STEADY_SECONDS:
                delay = BACKOFF_FIRST_SECONDS
            health.restarts += 1
            # Jittered: the processes on one store do not all come back at the same moment.
            await asyncio.sleep(delay * random.uniform(0.5, 1.0))
            delay = min(delay * 2, BACKOFF_MAX_SECONDS)

    def report(self) -> dict[str, tuple[State, TaskHealth, float | None]]:
        """Per task: its state, its record, and how long it has been failing (s)."""
        now = time.monotonic()
        return {
            name: (health.state(now, self.give_up), health, health.failing_for(now))
            for name, health in self.tasks.items()
        }

    def hopeless(self) -> list[str]:
        """The tasks that have failed without a break for the give-up time, and whose group,
        if they are in one, has failed whole."""
        report = self.report()
        working = {h.group for state, h, _ in report.values() if state != "failed" and h.group}
        return [
            name
            for name, (state, health, _) in report.items()
            if state == "failed" and (health.group is None or health.group not in working)
        ]

    async def until_hopeless(self, every: float = 1.0) -> list[str]:
        while not (names := self.hopeless()):
            await asyncio.sleep(every)
        return names

    async def stop(self) -> None:
        for task in self._running:
            task.cancel()
        await asyncio.gather(*self._running, return_exceptions=True)
        self._running.clear()
