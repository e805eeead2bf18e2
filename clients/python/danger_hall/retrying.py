"""How hard a client tries again: the bounds of its retries on 429, 503 and lost
connections (danger_hall_extras.Retrying does the sending), and of its streams' reconnects."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from danger_hall_extras.retry import Retrying


@dataclass(frozen=True)
class Retry:
    """`attempts`: sends of one request at most (1: never again). `max_wait`: seconds of
    pauses one request may add up to; a Retry-After beyond what is left is not waited for,
    and the refusal is raised. `backoff`: the first pause where the service names none,
    doubled each time, each at most `max_pause`. `reconnects`: a stream's tries in a row to
    connect again before it gives up. `on_retry(status, pause)`: told of each retry."""

    attempts: int = 5
    max_wait: float = 30.0
    backoff: float = 0.2
    max_pause: float = 10.0
    reconnects: int = 10
    on_retry: Callable[[int | None, float], None] | None = None

    def transport(self) -> Retrying:
        return Retrying(
            attempts=self.attempts,
            backoff=self.backoff,
            max_pause=self.max_pause,
            max_wait=self.max_wait,
            on_retry=self.on_retry,
        )
