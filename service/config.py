"""Settings, from environment variables; `danger serve` flags of the same names override."""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

QUEUE = "dg:timers"


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
        )
