"""Settings, from environment variables; `danger serve` flags of the same names override."""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

QUEUE = "dg:timers"


@dataclass(frozen=True)
class Lifecycle:
    """The service's bounds on how long a game may live (RULINGS.md, "Liveness and
    lifecycle")."""

    open_hours: float = 24.0
    """An open game not started within this many hours ends as abandoned."""
    max_events: int = 50_000
    """A game whose log reaches this many events ends as abandoned."""


def _flag(value: str | None) -> bool:
    return (value or "").strip().lower() in ("1", "true", "yes", "on")


@dataclass(frozen=True)
class Settings:
    host: str = "127.0.0.1"
    port: int = 8000
    data_dir: Path = Path(".data")
    sandbox: bool = False
    redis_url: str | None = None
    max_body_bytes: int = 64 * 1024
    background: bool = True  # run projections and the arq worker beside the API
    cors_origins: tuple[str, ...] = field(default=())
    queue: str = QUEUE  # the arq queue of timers and bot moves
    open_hours: float = 24.0  # an open game not started in time ends as abandoned
    max_events: int = 50_000  # a game whose log reaches this many events ends as abandoned
    sweep_seconds: float = 2.0  # how often a worker looks for due games (expiry, lost jobs)
    cpu_workers: int = 1  # processes for audits, replays and exports, off the event loop
    cpu_queue: int = 32  # such reads waiting beyond these are refused (503 busy)

    @property
    def lifecycle(self) -> Lifecycle:
        return Lifecycle(open_hours=self.open_hours, max_events=self.max_events)

    @classmethod
    def from_env(cls) -> Settings:
        env = os.environ
        return cls(
            host=env.get("DANGER_HOST", cls.host),
            port=int(env.get("DANGER_PORT", cls.port)),
            data_dir=Path(env.get("DANGER_DATA_DIR", str(cls.data_dir))),
            sandbox=_flag(env.get("DANGER_SANDBOX")),
            redis_url=env.get("REDIS_URL") or None,
            cors_origins=tuple(o for o in env.get("DANGER_CORS_ORIGINS", "").split(",") if o),
            background=_flag(env.get("DANGER_BACKGROUND", "1")),
            open_hours=float(env.get("DANGER_OPEN_HOURS", cls.open_hours)),
            max_events=int(env.get("DANGER_MAX_EVENTS", cls.max_events)),
            sweep_seconds=float(env.get("DANGER_SWEEP_SECONDS", cls.sweep_seconds)),
            cpu_workers=int(env.get("DANGER_CPU_WORKERS", cls.cpu_workers)),
            cpu_queue=int(env.get("DANGER_CPU_QUEUE", cls.cpu_queue)),
        )
