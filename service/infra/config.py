"""Settings, from environment variables; `danger serve` flags of the same names override.

The settings come in groups, one for each part of the service that reads them together
(`settings.streams.streams_max`). Each is declared once, in its group, by `setting(...)`:
its variable, its default, how its text is read, what it means and what it allows.
`Settings.from_env` reads every declared variable (one unset, or set to nothing, keeps its
default; a switch set to nothing is off); a text its parser cannot read is refused there,
named. Every rule on the values (ranges, choices, settings that must agree) is checked in
`_refusal`, whenever a `Settings` is made, from the environment or in code: a value it
refuses raises ValueError naming the variable and what it allows, and `danger serve` and
`danger worker` stop with that line (exit status 2).

This module is the bottom of the service: it imports nothing of it.
"""

from __future__ import annotations

import ipaddress
import math
import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, fields, replace
from pathlib import Path
from typing import Any, Literal
from urllib.parse import urlsplit

QUEUE = "dg:timers"
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
QUEUES_MAX = 64  # queue servers named in DANGER_QUEUE_URL at most; each has its own pool
SHARDS_MAX = 16384  # a cluster has as many slots: more shards would spread no further
WAIT_MS_MAX = 60_000  # the longest an append may wait for its replicas
NICE_MAX = 19

_ON = ("1", "true", "yes", "on")
_OFF = ("0", "off", "false", "no", "none")


# What a setting allows --------------------------------------------------------------------


@dataclass(frozen=True)
class Allowed:
    """A rule on a setting's value: `ok(value)`, said as `says` ("at least 1"). With `each`,
    the value is a tuple and the rule is on each of its items."""

    says: str
    ok: Callable[[Any], bool]
    each: bool = False


def at_least(low: int | float, says: str | None = None) -> Allowed:
    return Allowed(says or f"at least {low}", lambda value: value >= low)  # NaN is not


def more_than(low: int | float) -> Allowed:
    return Allowed(f"more than {low}", lambda value: value > low)


def from_to(low: int, high: int) -> Allowed:
    return Allowed(f"from {low} to {high}", lambda value: low <= value <= high)


def one_of(*choices: str) -> Allowed:
    return Allowed(f"one of {', '.join(choices)}", lambda value: value in choices)


_FINITE = Allowed("more than 0 (and finite)", lambda value: 0 < value < math.inf)
_NO_CAP = at_least(0, "0 (no cap) or more")


def _network(text: str) -> bool:
    try:
        ipaddress.ip_network(text, strict=False)
    except ValueError:
        return False
    return True


_PROXIES = Allowed(
    "1, or addresses and networks such as 10.0.0.0/8 separated by commas",
    lambda proxy: proxy == "*" or _network(proxy),
    each=True,
)


# How a setting's text is read: each gives the value, or raises ValueError saying what it
# expected (from_env puts the variable's name in front) ----------------------------------


def _text(text: str) -> str:
    return text


def _word(text: str) -> str:
    return text.strip().lower()


def _switch(text: str) -> bool:
    """On: 1, true, yes or on; anything else is off."""
    return text.strip().lower() in _ON


def _whole(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise ValueError(f"expected a whole number; got {text!r}") from None


def _digits(text: str) -> int:
    """A whole number written in digits alone."""
    text = text.strip()
    if not (text.isascii() and text.isdigit()):
        raise ValueError(f"expected a whole number; got {text!r}")
    return int(text)


def _number(text: str) -> float:
    try:
        return float(text)
    except ValueError:
        raise ValueError(f"expected a number; got {text!r}") from None


def _cap(text: str) -> int:
    """A cap: a whole number, 0 or off for none."""
    text = text.strip()
    if text.lower() in _OFF:
        return 0
    if not (text.isascii() and text.isdigit()):
        raise ValueError(f"expected a whole number (0 or off: no cap); got {text!r}")
    return int(text)


def _port(text: str) -> int | None:
    return _whole(text) or None


def _origins(text: str) -> tuple[str, ...]:
    return tuple(origin for origin in text.split(",") if origin)


def _proxies(text: str) -> tuple[str, ...]:
    text = text.strip()
    if _switch(text) or text == "*":
        return ("*",)
    if text.lower() in _OFF:
        return ()
    return tuple(p.strip() for p in text.split(",") if p.strip())


def _queue_urls(text: str) -> tuple[str, ...]:
    """Valkey/Redis URLs separated by commas, each a single server: `redis://host:port/db`,
    `rediss://...` or `unix:///path`. A password in a URL is never repeated in a complaint."""
    urls = tuple(url.strip() for url in text.split(","))
    if len(urls) > QUEUES_MAX:
        raise ValueError(f"at most {QUEUES_MAX} queue servers; got {len(urls)}")
    for url in urls:
        problem = _queue_url_problem(url)
        if problem is not None:
            raise ValueError(f"{problem}: {_without_password(url)!r}" if url else problem)
    if len(set(urls)) < len(urls):
        raise ValueError("a queue server is named twice")
    return urls


def _queue_url_problem(url: str) -> str | None:
    if not url:
        return "expected URLs separated by commas, found an empty one"
    try:
        parts = urlsplit(url)
        port = parts.port  # raises ValueError when it is not a port number
    except ValueError:
        return "expected redis://host:port/db; the port is not a number from 0 to 65535"
    if parts.scheme not in ("redis", "rediss", "unix"):
        return "expected redis://, rediss:// or unix:// URLs"
    if parts.scheme == "unix":
        return None if parts.path else "expected unix:///path/to/socket"
    if not parts.hostname:
        return "expected redis://host:port/db; no host"
    database = parts.path.strip("/")
    if database and not (database.isascii() and database.isdigit()):
        return "expected redis://host:port/db; the database is not a number"
    return None if port != 0 else "expected a port other than 0"


def _without_password(url: str) -> str:
    try:
        parts = urlsplit(url)
    except ValueError:
        return "(not a URL)"
    if parts.password is None:
        return url
    user = parts.username or ""
    return parts._replace(netloc=f"{user}:***@{parts.netloc.rpartition('@')[2]}").geturl()


def _with_wait(durability: Durability | None, wait_ms: int | None) -> Durability:
    durability = durability or Durability()
    return durability if wait_ms is None else replace(durability, wait_ms=wait_ms)


def setting(
    env: str | tuple[str, ...],
    default: Any,
    parse: Callable[[str], Any] | tuple[Callable[[str], Any], ...],
    meaning: str,
    allowed: Allowed | None = None,
    *,
    combine: Callable[..., Any] | None = None,
) -> Any:
    """A field read from the variable `env`, its text by `parse`; `allowed` is the rule on
    its value. A setting of several variables has a parser for each, and `combine` makes its
    value of theirs (None for a variable not set)."""
    names = (env,) if isinstance(env, str) else env
    parsers = parse if isinstance(parse, tuple) else (parse,)
    assert len(names) == len(parsers) and (len(names) == 1 or combine is not None)
    return field(
        default=default,
        metadata={
            "env": names,
            "parse": parsers,
            "combine": combine,
            "meaning": meaning,
            "allowed": allowed,
        },
    )


# The values of some settings ---------------------------------------------------------------


@dataclass(frozen=True)
class Rate:
    """`requests` per `seconds`: a bucket that holds `requests` and refills at that pace, so a
    client may spend the whole bucket at once and then one request per seconds/requests."""

    requests: int
    seconds: int

    @classmethod
    def read(cls, text: str) -> Rate | None:
        """From the text of a setting: "20/60" is 20 requests per 60 s; "off" is no limit."""
        text = text.strip().lower()
        if text in _OFF:
            return None
        requests, _, seconds = text.partition("/")
        digits = requests.isascii() and seconds.isascii() and requests.isdigit()
        if not (digits and seconds.isdigit() and int(requests) and int(seconds)):
            raise ValueError(f"expected requests/seconds such as 20/60, or off; got {text!r}")
        return cls(int(requests), int(seconds))

    @classmethod
    def parse(cls, name: str, text: str) -> Rate | None:
        """`read`, its complaint named `name`."""
        try:
            return cls.read(text)
        except ValueError as exc:
            raise ValueError(f"{name}: {exc}") from None

    def __str__(self) -> str:
        return f"{self.requests}/{self.seconds}"


Mode = Literal["fsync", "replicas", "declared", "weak"]


@dataclass(frozen=True)
class Durability:
    """What the operator asks of the store (`DANGER_DURABILITY`; service/infra/durability.py
    checks the store against it)."""

    mode: Mode = "fsync"
    replicas: int = 0  # copies each append waits for (mode `replicas`)
    wait_ms: int = 1000  # how long an append waits for them (`DANGER_DURABILITY_WAIT_MS`)
    # False when the operator named no mode: then, if the store has a replica online, each
    # append also waits for its copy (a failover then loses no answered command).
    chosen: bool = False

    @classmethod
    def read(cls, text: str) -> Durability:
        """The mode, from the text of DANGER_DURABILITY (the wait is the default's)."""
        text = text.strip().lower()
        if not text:
            return cls()
        mode, _, count = text.partition(":")
        if mode == "replicas" and count.isascii() and count.isdigit() and int(count) >= 1:
            return cls("replicas", int(count))
        if mode in ("fsync", "declared", "weak") and not count:
            return cls(mode, 0, chosen=True)  # type: ignore[arg-type]
        raise ValueError(
            f"expected fsync, replicas:N (N at least 1), declared or weak; got {text!r}"
        )

    @classmethod
    def parse(cls, text: str | None, wait_ms: str | None = None) -> Durability:
        """From the texts of DANGER_DURABILITY and DANGER_DURABILITY_WAIT_MS (None: unset),
        as `Settings.from_env` reads them."""
        return Settings.from_env(
            {"DANGER_DURABILITY": text or "", "DANGER_DURABILITY_WAIT_MS": wait_ms or ""}
        ).store.durability

    def __str__(self) -> str:
        return f"replicas:{self.replicas}" if self.mode == "replicas" else self.mode


# The groups ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Server:
    """What `danger serve` listens on, with what, and what it answers."""

    host: str = setting("DANGER_HOST", "127.0.0.1", _text, "the address the API listens on")
    port: int = setting("DANGER_PORT", 8000, _whole, "the port the API listens on")
    server_stack: str = setting(
        "DANGER_SERVER_STACK",
        "auto",
        _word,
        "the event loop of every process and uvicorn's HTTP parser (SERVER_STACKS)",
        one_of(*SERVER_STACKS),
    )
    direct_commands: bool = setting(
        "DANGER_DIRECT_COMMANDS",
        True,
        _switch,
        "commands answered beside Litestar's layers (service/http/command_route.py)",
    )
    cors_origins: tuple[str, ...] = setting(
        "DANGER_CORS_ORIGINS", (), _origins, "comma-separated origins allowed for browsers"
    )
    auth: str = setting(
        "DANGER_AUTH",
        "open",
        _word,
        'who may create games: anyone ("open"), or a bearer of an app key ("keys")',
        one_of(*AUTH_MODES),
    )

    @property
    def loop_and_http(self) -> tuple[str, str]:
        """uvicorn's `loop` and `http`."""
        return SERVER_STACKS[self.server_stack]


@dataclass(frozen=True)
class Store:
    """Where the events and the job queue are kept, and what the store must promise."""

    redis_url: str | None = setting(
        "REDIS_URL", None, _text, "the store's Valkey/Redis (unset: an embedded Valkey)"
    )
    # A game's jobs go to one of them, by its shard (service/jobs/queue_servers.py).
    queue_urls: tuple[str, ...] | None = setting(
        "DANGER_QUEUE_URL",
        None,
        _queue_urls,
        "the job queue's Valkey/Redis servers, separated by commas, each a single server "
        "(unset: REDIS_URL's, which must not be a cluster)",
    )
    data_dir: Path = setting(
        "DANGER_DATA_DIR", Path(".data"), Path, "the embedded Valkey's data and its password"
    )
    shards: int | None = setting(
        "DANGER_SHARDS",
        None,
        _digits,
        "the store's number of shards (unset: what it recorded, or 1,024)",
        from_to(1, SHARDS_MAX),
    )
    # Valkey connections one process opens at most (commands, reads, the job queue and the
    # projections share them); a burst waits for a free one rather than failing.
    redis_connections: int = setting(
        "DANGER_REDIS_CONNECTIONS",
        64,
        _whole,
        "Valkey connections one process opens at most",
        at_least(1),
    )
    # Checked against the store at startup (service/infra/durability.py).
    durability: Durability = setting(
        ("DANGER_DURABILITY", "DANGER_DURABILITY_WAIT_MS"),
        Durability(),
        (Durability.read, _digits),
        "what an acknowledged append must survive; how long it waits for replicas (ms)",
        combine=_with_wait,
    )
    queue: str = QUEUE  # the arq queue of timers and bot moves

    def __post_init__(self) -> None:
        # One URL given in code (`replace(queue_url=...)`) is read as the variable's text.
        if isinstance(self.queue_urls, str):
            object.__setattr__(self, "queue_urls", _queue_urls(self.queue_urls))


@dataclass(frozen=True)
class Worker:
    """The background: the projections, the arq worker and the sweep, and their supervisor."""

    background: bool = setting(
        "DANGER_BACKGROUND",
        True,
        _switch,
        "run the projections and the worker beside the API (`--api-only`: off)",
    )
    sweep_seconds: float = setting(
        "DANGER_SWEEP_SECONDS",
        2.0,
        _number,
        "how often a worker looks for due games (expiry, lost jobs)",
        more_than(0),
    )
    # A background task (the worker, the sweep, a projection) failing without a break for
    # this long cannot recover: /health says `failed`, and `danger worker` exits with 1.
    give_up_seconds: float = setting(
        "DANGER_GIVE_UP_SECONDS",
        300.0,
        _number,
        "a background task failing without a break this long cannot recover",
        more_than(0),
    )


@dataclass(frozen=True)
class Play:
    """How games are played and kept by the processes that play them."""

    sandbox: bool = setting(
        "DANGER_SANDBOX", False, _switch, "accept the options that fix the cards (seed, deck)"
    )
    cache_mb: int = setting(
        "DANGER_CACHE_MB",
        256,
        _whole,
        "MiB of folded games one process keeps (games that are over leave first)",
        at_least(1),
    )
    idempotency_hours: float = setting(
        "DANGER_IDEMPOTENCY_HOURS",
        24.0,
        _number,
        "the first answer to a keyed write is kept this long",
        more_than(0),
    )

    @property
    def idempotency_ms(self) -> int:
        return int(self.idempotency_hours * 3600 * 1000)


@dataclass(frozen=True)
class Lifecycle:
    """The service's bounds on how long a game may live (RULINGS.md, "Liveness and
    lifecycle")."""

    open_hours: float = setting(
        "DANGER_OPEN_HOURS",
        24.0,
        _number,
        "an open game not started within this many hours ends as abandoned",
        more_than(0),
    )
    max_events: int = setting(
        "DANGER_MAX_EVENTS",
        50_000,
        _whole,
        "a game whose log reaches this many events ends as abandoned",
        at_least(10),
    )


@dataclass(frozen=True)
class Unseated:
    """How long a registered player who never took a seat is kept, and how many such
    players one client (an app key, or an address) may hold at once (0: no cap)."""

    hours: float = setting(
        "DANGER_UNSEATED_PLAYER_HOURS",
        24.0,
        _number,
        "a registered player who never takes a seat is forgotten after this long",
        more_than(0),
    )
    per_client: int = setting(
        "DANGER_UNSEATED_PLAYERS_PER_CLIENT",
        1_000,
        _cap,
        "such players a client may hold at once (0: no cap)",
        _NO_CAP,
    )

    @property
    def keep_ms(self) -> int:
        return int(self.hours * 3600 * 1000)


@dataclass(frozen=True)
class HttpLimits:
    """What a connection and a request may hold (service/http/guards/connection_limits.py),
    and whose address names the client."""

    # A head (request line and headers) of so many KiB, beyond, 431; so long for the head to
    # come whole, then the connection is closed.
    max_head_kb: int = setting(
        "DANGER_MAX_HEAD_KB", 16, _whole, "KiB of a request's head, at most", at_least(1)
    )
    head_timeout_seconds: float = setting(
        "DANGER_HEAD_TIMEOUT_SECONDS",
        10.0,
        _number,
        "how long a connection has to send a request's head whole",
        _FINITE,
    )
    # Per process; a trusted proxy's count against none; beyond, 429.
    connections_per_client: int = setting(
        "DANGER_CONNECTIONS_PER_CLIENT",
        64,
        _cap,
        "connections open at once from one address (0: no cap)",
        _NO_CAP,
    )
    # Peers whose X-Forwarded-For names the client: "*" (any peer: one proxy in front), or
    # addresses and networks ("10.0.0.0/8"). Empty: the client is the peer, the header ignored.
    trusted_proxies: tuple[str, ...] = setting(
        "DANGER_TRUSTED_PROXY",
        (),
        _proxies,
        "the proxies whose X-Forwarded-For names the client",
        _PROXIES,
    )
    audit_upload_mb: int = setting(
        "DANGER_AUDIT_UPLOAD_MB",
        8,
        _whole,
        "MiB of an export sent to POST /v1/audit, at most (about 16,000 events in 8)",
        at_least(1),
    )
    max_body_bytes: int = 64 * 1024

    @property
    def audit_upload_bytes(self) -> int:
        return self.audit_upload_mb * 2**20


@dataclass(frozen=True)
class Limits:
    """The per-client limits kept in Valkey (service/http/guards/ratelimit.py)."""

    rate_limits: bool = setting(
        "DANGER_RATE_LIMITS", True, _switch, "the per-client limits of `rates`"
    )
    # Commands and reads are decided on this process's copy of a client's bucket, settled with
    # Valkey this often (service/http/guards/rate_ledger.py); 0: every request asks Valkey.
    rate_settle_ms: float = setting(
        "DANGER_RATE_SETTLE_MS",
        50.0,
        _number,
        "how often a process settles its copies of the clients' buckets with Valkey",
        at_least(0),
    )
    rate_buckets: int = setting(
        "DANGER_RATE_BUCKETS",
        100_000,
        _whole,
        "the bucket copies one process keeps; beyond, a request asks Valkey",
        at_least(1),
    )
    open_games_per_client: int = setting(
        "DANGER_OPEN_GAMES_PER_CLIENT",
        10,
        _cap,
        "games a client created that have not started (0: no cap)",
        _NO_CAP,
    )
    created_kept: int = setting(
        "DANGER_CREATED_KEPT",
        200,
        _whole,
        "the newest games of each client that GET /v1/games?mine=true lists and the client may "
        "abandon without their admin token (kept 7 days after its last create)",
        Allowed("1 to 10000", lambda value: 1 <= value <= 10_000),
    )


@dataclass(frozen=True)
class Rates:
    """One limit per client and kind of request (None: that kind is not limited). A player at
    a table sends a few commands a second at most and a bot client some 20; a flood sends
    hundreds: these let the first two through and stop the third within a bucket."""

    create: Rate | None = setting("DANGER_RATE_CREATE", Rate(20, 60), Rate.read, "POST /v1/games")
    join: Rate | None = setting(
        "DANGER_RATE_JOIN", Rate(120, 60), Rate.read, "POST /v1/games/{id}/players"
    )
    register: Rate | None = setting(
        "DANGER_RATE_REGISTER", Rate(20, 60), Rate.read, "POST /v1/players"
    )
    command: Rate | None = setting(
        "DANGER_RATE_COMMAND", Rate(60, 2), Rate.read, "POST /v1/games/{id}/commands and .../start"
    )
    read: Rate | None = setting(
        "DANGER_RATE_READ", Rate(120, 2), Rate.read, "every other GET under /v1"
    )
    stream: Rate | None = setting(
        "DANGER_RATE_STREAM", Rate(30, 60), Rate.read, "GET /v1/games/{id}/stream (opening one)"
    )
    # The web client's pages and files (a dozen a page), the API docs, /health and /metrics
    # (a probe or a scrape every few seconds).
    site: Rate | None = setting(
        "DANGER_RATE_SITE", Rate(240, 60), Rate.read, "every route outside /v1"
    )
    audit: Rate | None = setting(
        "DANGER_RATE_AUDIT",
        Rate(10, 60),
        Rate.read,
        "POST /v1/audit: each an export of up to DANGER_AUDIT_UPLOAD_MB to read and audit",
    )


@dataclass(frozen=True)
class Cpu:
    """The pool of processes for audits, replays and exports, off the event loop
    (service/play/offload.py)."""

    cpu_workers: int = setting(
        "DANGER_CPU_WORKERS", 1, _whole, "processes for audits, replays and exports", at_least(1)
    )
    cpu_queue: int = setting(
        "DANGER_CPU_QUEUE",
        32,
        _whole,
        "such reads waiting beyond these are refused (503 busy)",
        at_least(0),
    )
    cpu_per_client: int = setting(
        "DANGER_CPU_PER_CLIENT",
        2,
        _whole,
        "such reads of one client running or waiting at once (beyond, 429)",
        at_least(1),
    )


@dataclass(frozen=True)
class Streams:
    """The SSE streams of a process (service/live/)."""

    streams_per_client: int = setting(
        "DANGER_STREAMS_PER_CLIENT",
        20,
        _whole,
        "open SSE streams per peer address, per process",
        at_least(1),
    )
    streams_max: int = setting(
        "DANGER_STREAMS_MAX", 5_000, _whole, "open SSE streams per process", at_least(1)
    )
    player_stream_games: int = setting(
        "DANGER_PLAYER_STREAM_GAMES",
        200,
        _whole,
        "open and running games a player's stream watches at most (the newest)",
        at_least(1),
    )
    stream_queue: int = setting(
        "DANGER_STREAM_QUEUE",
        256,
        _whole,
        "batches of events a stream may fall behind before it re-reads",
        at_least(1),
    )
    stream_writes: int = setting(
        "DANGER_STREAM_WRITES",
        2_500,
        _whole,
        "writes to streams per second per process (events gather)",
        at_least(1),
    )
    # The longest the streams' fan-out waits at a time for the requests in flight to be
    # answered (service/live/foreground.py); 0: it never waits for them.
    stream_stand_aside_ms: float = setting(
        "DANGER_STREAM_STAND_ASIDE_MS",
        2.0,
        _number,
        "the longest the fan-out waits at a time for the requests in flight",
        at_least(0),
    )
    stream_process: bool = setting(
        "DANGER_STREAM_PROCESS",
        True,
        _switch,
        "a process of its own writes the streams' events (service/live/stream_writer.py)",
    )
    stream_nice: int = setting(
        "DANGER_STREAM_NICE",
        NICE_MAX,
        _digits,
        "the stream writer's niceness",
        from_to(0, NICE_MAX),
    )


@dataclass(frozen=True)
class ProjectionSettings:
    """How the projections' consumers look after the feeds they read."""

    attempts: int = setting(
        "DANGER_PROJECTION_ATTEMPTS",
        5,
        _whole,
        "deliveries of a failing feed entry before it goes to the dead letters",
        at_least(1),
    )
    """A feed entry delivered this many times that still fails on its own goes to the dead
    letters, and the consumer moves on."""
    feed_keep_seconds: float = setting(
        "DANGER_FEED_KEEP_SECONDS",
        60.0,
        _number,
        "a feed entry every consumer group has acknowledged is trimmed this old",
        at_least(0),
    )
    """A feed entry every consumer group has read and acknowledged is trimmed once it is this
    old (readers without a group, the live streams, follow the feeds' tails)."""
    upkeep_seconds: float = setting(
        "DANGER_PROJECTION_UPKEEP_SECONDS",
        10.0,
        _number,
        "how often a consumer claims a dead consumer's entries and trims the feeds",
        more_than(0),
    )
    """How often a consumer claims the entries a dead consumer left pending and trims the
    feeds."""
    retry_seconds: float = 1.0
    """After a failure, how long before the failed entries are read again."""


@dataclass(frozen=True)
class Transparency:
    """What the service signs, and its transparency log of game heads
    (docs/transparency.md)."""

    signing_key: Path | None = setting(
        "DANGER_SIGNING_KEY",
        None,
        Path,
        "a PEM file of the Ed25519 key receipts and tree heads are signed with (unset: "
        "signing/current.pem in DANGER_DATA_DIR, made on the first start)",
    )
    log_origin: str = setting(
        "DANGER_LOG_ORIGIN", "danger-hall", _text, "the transparency log's name in its tree heads"
    )
    log_seconds: float = setting(
        "DANGER_LOG_SECONDS",
        10.0,
        _number,
        "how often the transparency log takes a batch of game heads and signs its tree head",
        more_than(0),
    )
    checkpoint_seconds: float = setting(
        "DANGER_LOG_CHECKPOINT_SECONDS",
        300.0,
        _number,
        "how long a running game's new head may wait to be logged",
        at_least(0),
    )


@dataclass(frozen=True)
class QuickPlay:
    """How long quick play's requests wait, and how many (docs/quick-play.md)."""

    waiting: int = setting(
        "DANGER_QUICK_PLAY_WAITING",
        1_000,
        _whole,
        "quick-play requests that may wait for one kind of game at once",
        at_least(1),
    )
    seconds: float = setting(
        "DANGER_QUICK_PLAY_SECONDS",
        300.0,
        _number,
        "how long a quick-play request waits before it expires",
        more_than(0),
    )


@dataclass(frozen=True)
class Webhooks:
    """Where and how webhooks are delivered (docs/webhooks.md)."""

    per_key: int = setting(
        "DANGER_WEBHOOKS_PER_KEY", 10, _whole, "webhook endpoints an app key may have", at_least(1)
    )
    private: bool = setting(
        "DANGER_WEBHOOK_PRIVATE",
        False,
        _switch,
        "deliver to loopback and private addresses too (development and tests); never to "
        "link-local ones",
    )
    retry_hours: float = setting(
        "DANGER_WEBHOOK_RETRY_HOURS",
        72.0,
        _number,
        "how long a delivery is tried; an endpoint that failed every attempt this long is paused",
        more_than(0),
    )
    in_flight: int = setting(
        "DANGER_WEBHOOK_IN_FLIGHT",
        32,
        _whole,
        "deliveries a worker sends at once (one at a time per endpoint)",
        at_least(1),
    )
    queued: int = setting(
        "DANGER_WEBHOOK_QUEUED",
        10_000,
        _whole,
        "deliveries an endpoint may have waiting; one that has this many is paused",
        at_least(1),
    )


@dataclass(frozen=True)
class Observe:
    """How the service is seen: its log, and where /metrics is served."""

    log_format: str = setting(
        "DANGER_LOG_FORMAT",
        "json",
        _word,
        "the log: one JSON object per line, or text (service/infra/logs.py)",
        one_of(*LOG_FORMATS),
    )
    access_log: bool = setting(
        "DANGER_ACCESS_LOG", False, _switch, "uvicorn's access line too, beside each request's own"
    )
    # On the API's port to anyone ("open"), there to a bearer of `metrics_token` ("token"), on
    # `metrics_port` alone ("port"), or nowhere.
    metrics: str = setting(
        "DANGER_METRICS", "open", _word, "where /metrics is served", one_of(*METRICS_MODES)
    )
    metrics_token: str | None = setting(
        "DANGER_METRICS_TOKEN", None, _text, "the bearer token /metrics asks for (token)"
    )
    metrics_port: int | None = setting(
        "DANGER_METRICS_PORT", None, _port, "`danger worker`'s own /metrics; `danger serve`'s too"
    )


@dataclass(frozen=True)
class Settings:
    """Every setting, by group. Made from the environment (`from_env`), or from the defaults
    with some changed (`Settings().replace(rate_limits=False)`)."""

    server: Server = field(default_factory=Server)
    store: Store = field(default_factory=Store)
    worker: Worker = field(default_factory=Worker)
    play: Play = field(default_factory=Play)
    lifecycle: Lifecycle = field(default_factory=Lifecycle)
    unseated_players: Unseated = field(default_factory=Unseated)
    http: HttpLimits = field(default_factory=HttpLimits)
    limits: Limits = field(default_factory=Limits)
    rates: Rates = field(default_factory=Rates)
    cpu: Cpu = field(default_factory=Cpu)
    streams: Streams = field(default_factory=Streams)
    projections: ProjectionSettings = field(default_factory=ProjectionSettings)
    observe: Observe = field(default_factory=Observe)
    transparency: Transparency = field(default_factory=Transparency)
    webhooks: Webhooks = field(default_factory=Webhooks)
    quick_play: QuickPlay = field(default_factory=QuickPlay)

    def __post_init__(self) -> None:
        refused = _refusal(self)
        if refused is not None:
            raise ValueError(refused)

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None) -> Settings:
        """From `environ` (os.environ by default): each declared variable that is set."""
        environ = os.environ if environ is None else environ
        return cls(**{group.name: _read(kind, environ) for group, kind in _groups()})

    def replace(self, **changes: Any) -> Settings:
        """These settings with `changes`: a setting named as its variable is, without DANGER_
        and in lower case (`rate_limits=False` for DANGER_RATE_LIMITS), one without a variable
        by its own name (`queue`), a whole group by its name (`rates=Rates(...)`)."""
        groups = {g.name: getattr(self, g.name) for g in fields(self)}
        fieldwise: dict[str, dict[str, Any]] = {}
        for key, value in changes.items():
            if key in groups:
                groups[key] = value
            elif key in _KEYS:
                group, name = _KEYS[key]
                fieldwise.setdefault(group, {})[name] = value
            else:
                raise TypeError(f"no setting {key!r}")
        for group, values in fieldwise.items():
            groups[group] = replace(groups[group], **values)
        return Settings(**groups)


def _groups() -> list[tuple[Any, type]]:
    """The groups of Settings, each with its class."""
    return [(group, group.default_factory) for group in fields(Settings)]  # type: ignore[misc]


def _declared(kind: type) -> list[Any]:
    """The fields of a group read from variables."""
    return [f for f in fields(kind) if "env" in f.metadata]


def _read(kind: type, environ: Mapping[str, str]) -> Any:
    """A group, from `environ`."""
    values = {}
    for f in _declared(kind):
        names, parsers = f.metadata["env"], f.metadata["parse"]
        given = [
            _given(environ, name, parse is _switch)
            for name, parse in zip(names, parsers, strict=True)
        ]
        if all(text is None for text in given):
            continue  # the default
        parsed = [
            None if text is None else _parsed(name, parse, text)
            for name, parse, text in zip(names, parsers, given, strict=True)
        ]
        combine = f.metadata["combine"]
        values[f.name] = combine(*parsed) if combine else parsed[0]
    return kind(**values)


def _given(environ: Mapping[str, str], name: str, switch: bool) -> str | None:
    """A variable's text; None when it is unset, or set to nothing (a switch so set is off)."""
    text = environ.get(name)
    if text is None or (not text.strip() and not switch):
        return None
    return text


def _parsed(name: str, parse: Callable[[str], Any], text: str) -> Any:
    try:
        return parse(text)
    except ValueError as exc:
        raise ValueError(f"{name}: {exc}") from None


def _key(env: str) -> str:
    return env.removeprefix("DANGER_").lower()


def _keys() -> dict[str, tuple[str, str]]:
    """What `Settings.replace` calls each setting: key -> (group, field)."""
    keys: dict[str, tuple[str, str]] = {}
    for group, kind in _groups():
        for f in fields(kind):
            key = _key(f.metadata["env"][0]) if "env" in f.metadata else f.name
            assert key not in keys and key not in Settings.__dataclass_fields__, key
            keys[key] = (group.name, f.name)
    return keys


_KEYS = _keys()


def variables() -> dict[str, str]:
    """Every variable the settings read: name -> what it means."""
    return {
        name: f.metadata["meaning"]
        for _, kind in _groups()
        for f in _declared(kind)
        for name in f.metadata["env"]
    }


def variable(group: type, name: str) -> tuple[str, ...]:
    """The variables a setting of a group is read from (`variable(Store, "shards")`)."""
    return tuple(next(f for f in fields(group) if f.name == name).metadata["env"])


# Every check of the settings ----------------------------------------------------------------


def _refusal(settings: Settings) -> str | None:
    """What is wrong with `settings`, naming the variable and what it allows; None if
    nothing. Each setting's own rule first, then the rules between settings."""
    for group, kind in _groups():
        values = getattr(settings, group.name)
        for f in _declared(kind):
            allowed: Allowed | None = f.metadata["allowed"]
            value = getattr(values, f.name)
            if allowed is None or value is None:
                continue
            for item in value if allowed.each else (value,):
                if not allowed.ok(item):
                    return f"{f.metadata['env'][0]} must be {allowed.says}, not {item!r}"
    wait_ms = settings.store.durability.wait_ms
    if not 1 <= wait_ms <= WAIT_MS_MAX:
        return f"DANGER_DURABILITY_WAIT_MS must be from 1 to {WAIT_MS_MAX} ms, not {wait_ms!r}"
    # A client holding all its streams still needs a connection for its other requests.
    connections = settings.http.connections_per_client
    streams = settings.streams.streams_per_client
    if 0 < connections <= streams:
        return (
            f"DANGER_CONNECTIONS_PER_CLIENT ({connections}) must be more than "
            f"DANGER_STREAMS_PER_CLIENT ({streams}), or 0 (no cap)"
        )
    observe = settings.observe
    if observe.metrics == "token" and len(observe.metrics_token or "") < METRICS_TOKEN_LENGTH:
        return (
            f"DANGER_METRICS=token needs DANGER_METRICS_TOKEN, at least "
            f"{METRICS_TOKEN_LENGTH} characters (a scraper sends it as a bearer token)"
        )
    if observe.metrics == "port" and observe.metrics_port is None:
        return "DANGER_METRICS=port needs DANGER_METRICS_PORT"
    return None
