"""Settings, from environment variables; `danger serve` flags of the same names override."""

from __future__ import annotations

import ipaddress
import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from service.infra.durability import SETTING as DURABILITY_SETTING
from service.infra.durability import WAIT_SETTING as DURABILITY_WAIT_SETTING
from service.infra.durability import Durability
from service.infra.shards import parse as parse_shards
from service.play.players import Unseated

QUEUE = "dg:timers"


@dataclass(frozen=True)
class Lifecycle:
    """The service's bounds on how long a game may live (docs/rulings.md, "Liveness and
    lifecycle")."""

    open_hours: float = 24.0
    """An open game not started within this many hours ends as abandoned."""
    max_events: int = 50_000
    """A game whose log reaches this many events ends as abandoned."""

    def __post_init__(self) -> None:
        if not self.open_hours > 0:
            raise ValueError(f"DANGER_OPEN_HOURS must be more than 0, not {self.open_hours}")
        if self.max_events < 10:
            raise ValueError(f"DANGER_MAX_EVENTS must be at least 10, not {self.max_events}")


@dataclass(frozen=True)
class ProjectionSettings:
    """How the projections' consumers look after the feeds they read."""

    attempts: int = 5
    """A feed entry delivered this many times that still fails on its own goes to the dead
    letters, and the consumer moves on."""
    feed_keep_seconds: float = 60.0
    """A feed entry every consumer group has read and acknowledged is trimmed once it is this
    old (readers without a group, the live streams, follow the feeds' tails)."""
    upkeep_seconds: float = 10.0
    """How often a consumer claims the entries a dead consumer left pending and trims the
    feeds."""
    retry_seconds: float = 1.0
    """After a failure, how long before the failed entries are read again."""

    def __post_init__(self) -> None:
        if self.attempts < 1 or self.feed_keep_seconds < 0 or not self.upkeep_seconds > 0:
            raise ValueError(
                "DANGER_PROJECTION_ATTEMPTS must be at least 1, DANGER_FEED_KEEP_SECONDS at "
                "least 0 and DANGER_PROJECTION_UPKEEP_SECONDS more than 0"
            )


def _flag(value: str | None) -> bool:
    return (value or "").strip().lower() in ("1", "true", "yes", "on")


_OFF = ("0", "off", "false", "no", "none")


AUTH_MODES = ("open", "keys")
METRICS_MODES = ("open", "token", "port", "off")
METRICS_TOKEN_LENGTH = 16
LOG_FORMATS = ("json", "text")  # service/infra/logs.py
# The event loop and HTTP parser uvicorn runs the API on: "auto" takes uvloop and httptools
# where they are installed (they are dependencies), "asyncio" the standard library's loop
# and h11; docs/performance.md compares them.
SERVER_STACKS = {
    "auto": ("auto", "auto"),
    "asyncio": ("asyncio", "h11"),
    "uvloop": ("uvloop", "httptools"),
}


@dataclass(frozen=True)
class Rate:
    """`requests` per `seconds`: a bucket that holds `requests` and refills at that pace, so a
    client may spend the whole bucket at once and then one request per seconds/requests."""

    requests: int
    seconds: int

    @classmethod
    def parse(cls, name: str, text: str) -> Rate | None:
        """From the text of a setting: "20/60" is 20 requests per 60 s; "off" is no limit."""
        text = text.strip().lower()
        if text in _OFF:
            return None
        requests, _, seconds = text.partition("/")
        digits = requests.isascii() and seconds.isascii() and requests.isdigit()
        if not (digits and seconds.isdigit() and int(requests) and int(seconds)):
            raise ValueError(
                f"{name}: expected requests/seconds such as 20/60, or off; got {text!r}"
            )
        return cls(int(requests), int(seconds))

    def __str__(self) -> str:
        return f"{self.requests}/{self.seconds}"


@dataclass(frozen=True)
class Rates:
    """One limit per client and kind of request (None: that kind is not limited). A player at
    a table sends a few commands a second at most and a bot client some 20; a flood sends
    hundreds: these let the first two through and stop the third within a bucket."""

    create: Rate | None = Rate(20, 60)  # POST /v1/games
    join: Rate | None = Rate(120, 60)  # POST /v1/games/{id}/players
    register: Rate | None = Rate(20, 60)  # POST /v1/players
    command: Rate | None = Rate(60, 2)  # POST /v1/games/{id}/commands and .../start
    read: Rate | None = Rate(120, 2)  # every other GET under /v1
    stream: Rate | None = Rate(30, 60)  # GET /v1/games/{id}/stream (opening one)
    # Every route outside /v1: the web client's pages and files (a dozen a page), the API
    # docs, /health and /metrics (a probe or a scrape every few seconds).
    site: Rate | None = Rate(240, 60)
    # POST /v1/audit: each an export of up to DANGER_AUDIT_UPLOAD_MB to read and audit.
    audit: Rate | None = Rate(10, 60)

    @classmethod
    def from_env(cls, env: os._Environ[str] | dict[str, str]) -> Rates:
        values: dict[str, Rate | None] = {}
        for kind in cls.__dataclass_fields__:
            name = f"DANGER_RATE_{kind.upper()}"
            values[kind] = Rate.parse(name, env[name]) if name in env else getattr(cls, kind)
        return cls(**values)


def _count(name: str, text: str) -> int:
    text = text.strip()
    if text.lower() in _OFF:
        return 0
    if not (text.isascii() and text.isdigit()):
        raise ValueError(f"{name}: expected a whole number (0 or off: no cap); got {text!r}")
    return int(text)


def _trusted_proxies(value: str) -> tuple[str, ...]:
    value = value.strip()
    if _flag(value) or value == "*":
        return ("*",)
    if value.lower() in (*_OFF, ""):
        return ()
    proxies = tuple(p.strip() for p in value.split(",") if p.strip())
    for proxy in proxies:
        try:
            ipaddress.ip_network(proxy, strict=False)
        except ValueError:
            raise ValueError(
                f"DANGER_TRUSTED_PROXY: expected 1, or addresses and networks such as "
                f"10.0.0.0/8 separated by commas; got {proxy!r}"
            ) from None
    return proxies


def _positive(env: Mapping[str, str], name: str, default: int) -> int:
    value = int(env.get(name) or default)
    if value < 1:
        raise ValueError(f"{name} must be at least 1, not {value}")
    return value


def _at_least_zero(env: Mapping[str, str], name: str, default: float) -> float:
    value = float(env.get(name) or default)
    if not value >= 0:  # NaN too
        raise ValueError(f"{name} must be 0 or more, not {value}")
    return value


def _niceness(env: Mapping[str, str], name: str, default: int) -> int:
    given = env.get(name) or str(default)
    if not given.strip().isdigit() or not 0 <= int(given) <= 19:
        raise ValueError(f"{name} must be a whole number from 0 to 19, not {given!r}")
    return int(given)


@dataclass(frozen=True)
class Settings:
    host: str = "127.0.0.1"
    port: int = 8000
    data_dir: Path = Path(".data")
    sandbox: bool = False
    redis_url: str | None = None
    # The single Valkey/Redis of the job queue (arq): REDIS_URL's server unless that is a
    # cluster, where it must be given.
    queue_url: str | None = None
    shards: int | None = None  # the store's number of shards (None: what it recorded, or 1,024)
    max_body_bytes: int = 64 * 1024
    audit_upload_bytes: int = 8 * 2**20  # an export sent to POST /v1/audit (about 16,000 events)
    background: bool = True  # run projections and the arq worker beside the API
    cors_origins: tuple[str, ...] = field(default=())
    queue: str = QUEUE  # the arq queue of timers and bot moves
    open_hours: float = 24.0  # an open game not started in time ends as abandoned
    max_events: int = 50_000  # a game whose log reaches this many events ends as abandoned
    sweep_seconds: float = 2.0  # how often a worker looks for due games (expiry, lost jobs)
    cpu_workers: int = 1  # processes for audits, replays and exports, off the event loop
    cpu_queue: int = 32  # such reads waiting beyond these are refused (503 busy)
    # Such reads of one client running or waiting at once; beyond, 429 too_many_in_flight.
    cpu_per_client: int = 2
    rate_limits: bool = True  # the per-client limits of `rates`, kept in Valkey
    direct_commands: bool = True  # commands beside Litestar's layers (command_route.py)
    rates: Rates = Rates()
    # Commands and reads are decided on this process's copy of a client's bucket, settled with
    # Valkey this often (service/http/guards/rate_ledger.py); 0: every request asks Valkey.
    rate_settle_ms: float = 50.0
    rate_buckets: int = 100_000  # the copies one process keeps; beyond, a request asks Valkey
    # Peers whose X-Forwarded-For names the client: "*" (any peer: one proxy in front), or
    # addresses and networks ("10.0.0.0/8"). Empty: the client is the peer, the header ignored.
    trusted_proxies: tuple[str, ...] = field(default=())
    open_games_per_client: int = 10  # games a client created that have not started; 0: no cap
    # What a connection may hold before its request begins
    # (service/http/guards/connection_limits.py): a head (request line and headers) of so many KiB,
    # beyond, 431; so long for the head to come whole, then the connection is closed; connections
    # open at once from one address, per process (a trusted proxy's count against none; 0: no cap),
    # beyond, 429.
    max_head_kb: int = 16
    head_timeout_seconds: float = 10.0
    connections_per_client: int = 64
    idempotency_hours: float = 24.0  # the first answer to a keyed write is kept this long
    # A registered player who never takes a seat is forgotten after this long; a client may
    # hold this many such players at once (0: no cap).
    unseated_player_hours: float = 24.0
    unseated_players_per_client: int = 1_000

    # Valkey connections one process opens at most (commands, reads, the job queue and the
    # projections share them); a burst waits for a free one rather than failing.
    redis_connections: int = 64
    streams_per_client: int = 20  # open SSE streams per peer address, per process
    streams_max: int = 5_000  # open SSE streams per process
    stream_queue: int = 256  # batches of events a stream may fall behind before it re-reads
    stream_writes: int = 2_500  # writes to streams per second per process (events gather)
    # The longest the streams' fan-out waits at a time for the requests in flight to be
    # answered (service/live/foreground.py); 0: it never waits for them.
    stream_stand_aside_ms: float = 2.0
    # A process of its own writes the streams' events, at this niceness
    # (service/live/stream_writer.py).
    stream_process: bool = True
    stream_nice: int = 19
    cache_mb: int = 256  # MiB of folded games one process keeps (games that are over leave first)
    # What an acknowledged append must survive; checked against the store at startup.
    durability: Durability = field(default_factory=Durability)
    projection_attempts: int = ProjectionSettings.attempts  # then an entry is dead-lettered
    feed_keep_seconds: float = ProjectionSettings.feed_keep_seconds  # read entries kept so long
    projection_upkeep_seconds: float = ProjectionSettings.upkeep_seconds  # claim and trim
    # A background task (the worker, the sweep, a projection) failing without a break for
    # this long cannot recover: /health says `failed`, and `danger worker` exits with 1.
    give_up_seconds: float = 300.0
    # "open": anyone may create games; "keys": creating one needs an app key (app_keys.py).
    auth: str = "open"
    server_stack: str = "auto"  # uvicorn's event loop and HTTP parser (SERVER_STACKS)
    log_format: str = "json"  # service/infra/logs.py: one JSON object per line, or "text"
    access_log: bool = False  # uvicorn's access line too, beside each request's own
    # Where /metrics is served (METRICS_MODES): on the API's port to anyone ("open"), there
    # to a bearer of `metrics_token` ("token"), on `metrics_port` alone ("port"), or nowhere.
    metrics: str = "open"
    metrics_token: str | None = None
    metrics_port: int | None = None  # `danger worker`'s own /metrics; `danger serve`'s too

    @property
    def idempotency_ms(self) -> int:
        return int(self.idempotency_hours * 3600 * 1000)

    @property
    def unseated_players(self) -> Unseated:
        return Unseated(
            keep_ms=int(self.unseated_player_hours * 3600 * 1000),
            per_client=self.unseated_players_per_client,
        )

    @property
    def loop_and_http(self) -> tuple[str, str]:
        """uvicorn's `loop` and `http`."""
        return SERVER_STACKS[self.server_stack]

    @property
    def lifecycle(self) -> Lifecycle:
        return Lifecycle(open_hours=self.open_hours, max_events=self.max_events)

    @property
    def projections(self) -> ProjectionSettings:
        return ProjectionSettings(
            attempts=self.projection_attempts,
            feed_keep_seconds=self.feed_keep_seconds,
            upkeep_seconds=self.projection_upkeep_seconds,
        )

    @classmethod
    def from_env(cls) -> Settings:
        env = os.environ
        return cls(
            host=env.get("DANGER_HOST", cls.host),
            port=int(env.get("DANGER_PORT", cls.port)),
            data_dir=Path(env.get("DANGER_DATA_DIR", str(cls.data_dir))),
            sandbox=_flag(env.get("DANGER_SANDBOX")),
            redis_url=env.get("REDIS_URL") or None,
            queue_url=env.get("DANGER_QUEUE_URL") or None,
            shards=parse_shards(env.get("DANGER_SHARDS")),
            cors_origins=tuple(o for o in env.get("DANGER_CORS_ORIGINS", "").split(",") if o),
            background=_flag(env.get("DANGER_BACKGROUND", "1")),
            open_hours=float(env.get("DANGER_OPEN_HOURS", cls.open_hours)),
            max_events=int(env.get("DANGER_MAX_EVENTS", cls.max_events)),
            sweep_seconds=float(env.get("DANGER_SWEEP_SECONDS", cls.sweep_seconds)),
            cpu_workers=int(env.get("DANGER_CPU_WORKERS", cls.cpu_workers)),
            cpu_queue=int(env.get("DANGER_CPU_QUEUE", cls.cpu_queue)),
            cpu_per_client=_positive(env, "DANGER_CPU_PER_CLIENT", cls.cpu_per_client),
            audit_upload_bytes=_positive(env, "DANGER_AUDIT_UPLOAD_MB", 8) * 2**20,
            rate_limits=_flag(env.get("DANGER_RATE_LIMITS", "on")),
            direct_commands=_flag(env.get("DANGER_DIRECT_COMMANDS", "on")),
            rates=Rates.from_env(env),
            rate_settle_ms=_at_least_zero(env, "DANGER_RATE_SETTLE_MS", cls.rate_settle_ms),
            rate_buckets=_positive(env, "DANGER_RATE_BUCKETS", cls.rate_buckets),
            trusted_proxies=_trusted_proxies(env.get("DANGER_TRUSTED_PROXY", "")),
            open_games_per_client=_count(
                "DANGER_OPEN_GAMES_PER_CLIENT",
                env.get("DANGER_OPEN_GAMES_PER_CLIENT", str(cls.open_games_per_client)),
            ),
            max_head_kb=_positive(env, "DANGER_MAX_HEAD_KB", cls.max_head_kb),
            head_timeout_seconds=float(
                env.get("DANGER_HEAD_TIMEOUT_SECONDS") or cls.head_timeout_seconds
            ),
            connections_per_client=_count(
                "DANGER_CONNECTIONS_PER_CLIENT",
                env.get("DANGER_CONNECTIONS_PER_CLIENT", str(cls.connections_per_client)),
            ),
            idempotency_hours=float(
                env.get("DANGER_IDEMPOTENCY_HOURS", cls.idempotency_hours)
            ),
            unseated_player_hours=float(
                env.get("DANGER_UNSEATED_PLAYER_HOURS", cls.unseated_player_hours)
            ),
            unseated_players_per_client=_count(
                "DANGER_UNSEATED_PLAYERS_PER_CLIENT",
                env.get(
                    "DANGER_UNSEATED_PLAYERS_PER_CLIENT", str(cls.unseated_players_per_client)
                ),
            ),
            redis_connections=_positive(env, "DANGER_REDIS_CONNECTIONS", cls.redis_connections),
            streams_per_client=_positive(env, "DANGER_STREAMS_PER_CLIENT", cls.streams_per_client),
            streams_max=_positive(env, "DANGER_STREAMS_MAX", cls.streams_max),
            stream_queue=_positive(env, "DANGER_STREAM_QUEUE", cls.stream_queue),
            stream_writes=_positive(env, "DANGER_STREAM_WRITES", cls.stream_writes),
            stream_stand_aside_ms=_at_least_zero(
                env, "DANGER_STREAM_STAND_ASIDE_MS", cls.stream_stand_aside_ms
            ),
            stream_process=_flag(env.get("DANGER_STREAM_PROCESS", "on")),
            stream_nice=_niceness(env, "DANGER_STREAM_NICE", cls.stream_nice),
            cache_mb=_positive(env, "DANGER_CACHE_MB", cls.cache_mb),
            durability=Durability.parse(
                env.get(DURABILITY_SETTING), env.get(DURABILITY_WAIT_SETTING)
            ),
            projection_attempts=_positive(
                env, "DANGER_PROJECTION_ATTEMPTS", cls.projection_attempts
            ),
            feed_keep_seconds=float(env.get("DANGER_FEED_KEEP_SECONDS", cls.feed_keep_seconds)),
            projection_upkeep_seconds=float(
                env.get("DANGER_PROJECTION_UPKEEP_SECONDS", cls.projection_upkeep_seconds)
            ),
            give_up_seconds=float(env.get("DANGER_GIVE_UP_SECONDS") or cls.give_up_seconds),
            auth=env.get("DANGER_AUTH", cls.auth).strip().lower(),
            server_stack=env.get("DANGER_SERVER_STACK", cls.server_stack).strip().lower(),
            log_format=env.get("DANGER_LOG_FORMAT", cls.log_format).strip().lower(),
            access_log=_flag(env.get("DANGER_ACCESS_LOG")),
            metrics=env.get("DANGER_METRICS", cls.metrics).strip().lower(),
            metrics_token=env.get("DANGER_METRICS_TOKEN") or None,
            metrics_port=int(env.get("DANGER_METRICS_PORT") or 0) or None,
        )

    def __post_init__(self) -> None:
        self.lifecycle  # noqa: B018 - its bounds are checked when it is made
        if not self.idempotency_hours > 0:
            raise ValueError(
                f"DANGER_IDEMPOTENCY_HOURS must be more than 0, not {self.idempotency_hours}"
            )
        if not self.unseated_player_hours > 0:
            raise ValueError(
                "DANGER_UNSEATED_PLAYER_HOURS must be more than 0, "
                f"not {self.unseated_player_hours}"
            )
        self.projections  # noqa: B018 - and these
        if (
            not self.sweep_seconds > 0
            or self.cpu_workers < 1
            or self.cpu_queue < 0
            or self.cpu_per_client < 1
        ):
            raise ValueError(
                "DANGER_SWEEP_SECONDS must be more than 0, DANGER_CPU_WORKERS and "
                "DANGER_CPU_PER_CLIENT at least 1, and DANGER_CPU_QUEUE at least 0"
            )
        if not 0 < self.head_timeout_seconds < float("inf"):
            raise ValueError(
                f"DANGER_HEAD_TIMEOUT_SECONDS must be more than 0, not {self.head_timeout_seconds}"
            )
        # A client holding all its streams still needs a connection for its other requests.
        if 0 < self.connections_per_client <= self.streams_per_client:
            raise ValueError(
                f"DANGER_CONNECTIONS_PER_CLIENT ({self.connections_per_client}) must be more "
                f"than DANGER_STREAMS_PER_CLIENT ({self.streams_per_client}), or 0 (no cap)"
            )
        if self.server_stack not in SERVER_STACKS:
            raise ValueError(
                f"DANGER_SERVER_STACK must be one of {', '.join(SERVER_STACKS)}, "
                f"not {self.server_stack!r}"
            )
        if self.log_format not in LOG_FORMATS:
            raise ValueError(
                f"DANGER_LOG_FORMAT must be one of {', '.join(LOG_FORMATS)}, "
                f"not {self.log_format!r}"
            )
        if self.metrics not in METRICS_MODES:
            raise ValueError(
                f"DANGER_METRICS must be one of {', '.join(METRICS_MODES)}, not {self.metrics!r}"
            )
        if self.metrics == "token" and len(self.metrics_token or "") < METRICS_TOKEN_LENGTH:
            raise ValueError(
                f"DANGER_METRICS=token needs DANGER_METRICS_TOKEN, at least "
                f"{METRICS_TOKEN_LENGTH} characters (a scraper sends it as a bearer token)"
            )
        if self.metrics == "port" and self.metrics_port is None:
            raise ValueError("DANGER_METRICS=port needs DANGER_METRICS_PORT")
        if self.auth not in AUTH_MODES:
            raise ValueError(f"DANGER_AUTH must be open or keys, not {self.auth!r}")
        if not self.give_up_seconds > 0:
            raise ValueError(
                f"DANGER_GIVE_UP_SECONDS must be more than 0, not {self.give_up_seconds}"
            )
