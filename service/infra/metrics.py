"""What an operator watches, in the Prometheus text format at `/metrics`.

Names follow the Prometheus conventions (base units, `_total` for counters, `_seconds`).
With several API processes (`danger serve --workers N`) every process, the worker's included,
writes its samples to files in one directory (`PROMETHEUS_MULTIPROC_DIR`, which `serve`
makes), and any API process answers `/metrics` with the sum over all of them: it does not
matter which process a scrape reaches. The directory must be set before prometheus_client is
first imported, which is why `danger serve` sets it before it starts any process.
"""

from __future__ import annotations

import hmac
import os
import shutil
import tempfile
from pathlib import Path
from typing import Any

from litestar import Request
from prometheus_client import (
    REGISTRY,
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    generate_latest,
    multiprocess,
    start_http_server,
)

from service.infra.errors import ApiError

MULTIPROC_ENV = "PROMETHEUS_MULTIPROC_DIR"
# The classic text format every Prometheus scrapes (Litestar adds `; charset=utf-8`).
TEXT_FORMAT = "text/plain; version=0.0.4"

# Latency buckets from a loopback round trip to a stalled request; the SLO-ish marks (10,
# 25, 100 ms) are bucket edges so that a quantile near them is exact.
FAST = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0)
# A timer's lateness: how long after its deadline it rang (the worker polls, queues retry).
LATE = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0)

REQUESTS = Histogram(
    "danger_http_request_duration_seconds",
    "Requests answered, by route template, method and status, from the request's first "
    "byte read to its answer's last written (a stream: until it ended); status 499: the "
    "client hung up before its answer began.",
    ["route", "method", "status"],
    buckets=FAST,
)
COMMANDS = Histogram(
    "danger_command_duration_seconds",
    "Seats' commands (POST /v1/games/{id}/commands), by game and outcome: applied, "
    "repeated (an Idempotency-Key answered again), refused (a rule: 409), stale (If-Match: "
    "412), invalid (another 4xx), unavailable (503), failed (500) or client_closed (the "
    "client hung up before the service had the command whole).",
    ["game", "outcome"],
    buckets=FAST,
)
APPENDS = Counter(
    "danger_appends_total",
    "Appends to games' logs (one per command, start, join, timer...).",
    ["game"],
)
EVENTS = Counter("danger_events_appended_total", "Events appended to games' logs.", ["game"])
CONFLICTS = Counter(
    "danger_append_conflicts_total",
    "Appends refused because another writer moved the game first (the command is decided "
    "again on the newer fold).",
    ["game"],
)
QUEUED_ELSEWHERE = Counter(
    "danger_jobs_queued_elsewhere_total",
    "Timer and bot jobs queued on another queue server than their game's own, which could "
    "not be reached; by the own server's place in DANGER_QUEUE_URL.",
    ["server"],
)
REPEATS = Counter(
    "danger_idempotent_repeats_total",
    "Requests answered from an earlier one's Idempotency-Key instead of being applied again.",
)
RATE_LIMITED = Counter(
    "danger_rate_limited_total", "Requests refused with 429 by the rate limits, by kind.", ["kind"]
)
RATE_UNCHECKED = Counter(
    "danger_rate_unchecked_total",
    "Requests let through unchecked because their rate bucket's store could not be reached.",
)
QUICK_PLAY = Counter(
    "danger_quick_play_requests_total",
    "Quick-play requests as they ended: seated, expired or cancelled; by game.",
    ["game", "outcome"],
)
QUICK_PLAY_GAMES = Counter(
    "danger_quick_play_games_total", "Games quick play made and started, by game.", ["game"]
)
WEBHOOK_ATTEMPTS = Histogram(
    "danger_webhook_attempt_duration_seconds",
    "Webhook delivery attempts, by outcome: delivered (a 2xx), retried (anything else, to be "
    "tried again) or given_up (the last, DANGER_WEBHOOK_RETRY_HOURS after the first failure); "
    "from the first byte sent to the answer's last read (0 for an address refused).",
    ["outcome"],
    buckets=FAST,
)
WEBHOOKS_PAUSED = Counter(
    "danger_webhook_endpoints_paused_total",
    "Webhook endpoints paused by the service: `failing` (every delivery failed for "
    "DANGER_WEBHOOK_RETRY_HOURS) or `full` (DANGER_WEBHOOK_QUEUED deliveries waiting).",
    ["why"],
)
TIMERS = Counter(
    "danger_timers_rung_total",
    "Timers that took effect: by the worker at their deadline, or inline, by the command of "
    "a seat that came after the deadline.",
    ["game", "by"],
)
TIMER_LATENESS = Histogram(
    "danger_timer_lateness_seconds",
    "How long after its deadline (by the store's clock) a timer took effect.",
    ["by"],
    buckets=LATE,
)
BOT_MOVES = Counter("danger_bot_moves_total", "Moves played by bot seats.", ["game"])
STREAMS = Gauge("danger_streams_open", "SSE streams open now.", multiprocess_mode="livesum")
STOOD_ASIDE = Counter(
    "danger_stream_stood_aside_seconds_total",
    "Seconds the streams' fan-out and keep-alive tick waited for the requests being answered.",
)
CACHE_GAMES = Gauge(
    "danger_game_cache_games",
    "Games folded in the API processes' caches.",
    multiprocess_mode="livesum",
)
CACHE_BYTES = Gauge(
    "danger_game_cache_bytes", "The caches' estimated footprint.", multiprocess_mode="livesum"
)
CACHE_MISSES = Counter(
    "danger_game_cache_misses_total", "Game reads that had to fold the game from the store."
)
PRIMARIES_ALONE = Gauge(
    "danger_store_primaries_alone",
    "Primaries with no replica online that answer appends once on their own disk (no "
    "DANGER_DURABILITY: the automatic mode), as this process's appends last found them.",
    multiprocess_mode="livemax",
)
PROJECTION_LAG = Gauge(
    "danger_projection_lag_seconds",
    "How long the oldest feed entry a projection has not applied has waited (0: none), "
    "read from the store at each scrape.",
    ["projection"],
    multiprocess_mode="mostrecent",
)
PROJECTION_BACKLOG = Gauge(
    "danger_projection_backlog_entries",
    "Feed entries a projection has not applied yet, read from the store at each scrape.",
    ["projection"],
    multiprocess_mode="mostrecent",
)


def series(metric: Any, *labels: object) -> Any:
    """The metric's child of these labels, looked up once: prometheus_client's `labels()`
    checks and joins them anew on every call. For labels from a bounded set only (routes,
    methods, statuses, kinds of game, outcomes): the memo holds every child asked for."""
    key = (metric, *labels)
    child = _children.get(key)
    if child is None:
        child = _children[key] = metric.labels(*map(str, labels))
    return child


_children: dict[tuple[object, ...], Any] = {}


def shared_dir() -> str | None:
    return os.environ.get(MULTIPROC_ENV) or None


def share_between_processes() -> Path:
    """A fresh directory for the samples of the processes about to start (set before any of
    them imports prometheus_client); the caller removes it when they are gone."""
    path = Path(tempfile.mkdtemp(prefix="danger-metrics-"))
    os.environ[MULTIPROC_ENV] = str(path)
    return path


def forget_shared(path: Path) -> None:
    shutil.rmtree(path, ignore_errors=True)


def process_exits() -> None:
    """This process's live gauges (streams, cache) leave the sums."""
    if shared_dir() is not None:
        multiprocess.mark_process_dead(os.getpid())


def registry() -> CollectorRegistry:
    """This process's samples, or every process's where they share a directory."""
    if shared_dir() is None:
        return REGISTRY
    shared = CollectorRegistry()
    multiprocess.MultiProcessCollector(shared)
    return shared


def exposition() -> bytes:
    return generate_latest(registry())


def serve_alone(port: int, host: str) -> None:
    """/metrics on a port of its own (a thread), for `danger worker`, which has no API."""
    start_http_server(port, host, registry=registry())


class Operators:
    """Who may read what only operators should: everyone where the metrics are open on the
    API's port (DANGER_METRICS=open), else a bearer of DANGER_METRICS_TOKEN, if one is set."""

    def __init__(self, mode: str, token: str | None) -> None:
        self.open, self.token = mode == "open", token

    def check(self, request: Request, what: str) -> None:
        if self.open:
            return
        sent = request.headers.get("authorization", "")
        if self.token is None or not _bears(sent, self.token):
            raise ApiError(
                401,
                "token_invalid",
                f"{what} are the operators' to read: send 'Authorization: Bearer "
                "<DANGER_METRICS_TOKEN>'.",
            )


def _bears(authorization: str, token: str) -> bool:
    scheme, _, sent = authorization.strip().partition(" ")
    return scheme.lower() == "bearer" and hmac.compare_digest(sent.strip().encode(), token.encode())
