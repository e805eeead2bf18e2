"""Settings, from environment variables; `danger serve` flags of the same names override."""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

QUEUE = "dg:timers"


def _flag(value: str | None) -> bool:
    return (value or "").strip().lower() in ("1", "true", "yes", "on")


def _positive(env: Mapping[str, str], name: str, default: int) -> int:
    value = int(env.get(name) or default)
    if value < 1:
        raise ValueError(f"{name} must be at least 1, not {value}")
    return value


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
    # Valkey connections one process opens at most (commands, reads, the job queue and the
    # projections share them); a burst waits for a free one rather than failing.
    redis_connections: int = 64
    streams_per_client: int = 20  # open SSE streams per peer address, per process
    streams_max: int = 5_000  # open SSE streams per process
    stream_queue: int = 256  # batches of events a stream may fall behind before it re-reads

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
            redis_connections=_positive(env, "DANGER_REDIS_CONNECTIONS", cls.redis_connections),
            streams_per_client=_positive(env, "DANGER_STREAMS_PER_CLIENT", cls.streams_per_client),
            streams_max=_positive(env, "DANGER_STREAMS_MAX", cls.streams_max),
            stream_queue=_positive(env, "DANGER_STREAM_QUEUE", cls.stream_queue),
        )
