"""`danger serve`: the API, and beside it (unless --api-only) the projections, the timers and the
bots in a process of their own, `danger worker`; several API processes with --workers.

The background never runs in an API process: its projections' batches and the worker's polls
took an eighth of a single API process's samples, in bursts between the commands
(docs/performance.md, "The background in its own process, and the rest of the lean path")."""

from __future__ import annotations

import argparse
import contextlib
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

from service.http.http_protocols import protocol
from service.infra import logs, metrics
from service.infra.config import Settings


def _open_files() -> None:
    """Raise the open-file limit to its hard limit: every event stream is a socket, and a
    process may hold `DANGER_STREAMS_MAX` of them (children inherit the limit)."""
    import resource

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < hard:
        with contextlib.suppress(ValueError, OSError):  # a hard limit the kernel refuses
            resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))


def serve(args: argparse.Namespace) -> int:
    import uvicorn

    from service.assembly.app import create_app
    from service.infra.embedded import DataDirInUse, EmbeddedValkey

    try:
        settings = Settings.from_env()
    except ValueError as exc:  # a setting that says nothing we can use
        print(f"danger: {exc}", file=sys.stderr)
        return 2
    settings = settings.replace(
        host=args.host or settings.server.host,
        port=args.port or settings.server.port,
        data_dir=Path(args.data_dir) if args.data_dir else settings.store.data_dir,
        sandbox=args.sandbox or settings.play.sandbox,
        redis_url=args.redis_url or settings.store.redis_url,
        background=not args.api_only,
        access_log=args.access_log or settings.observe.access_log,
    )
    logs.configure(settings.observe.log_format, access_log=settings.observe.access_log)
    _open_files()
    embedded = None
    redis_url = settings.store.redis_url
    if redis_url is None:
        embedded = EmbeddedValkey(settings.store.data_dir)
        try:
            embedded.start()
        except DataDirInUse as exc:
            print(f"danger: {exc}", file=sys.stderr)
            return 1
        redis_url = embedded.url
        print(
            f"danger: embedded Valkey on {embedded.address}, data in {embedded.data_dir}, "
            f"password in {embedded.password_file}",
            flush=True,
        )
    try:
        refused = _durability_refused(settings, redis_url)
        if refused is not None:
            print(f"danger: {refused}", file=sys.stderr)
            return 1
        if args.workers > 1 or settings.worker.background:
            return _serve_processes(args, settings, redis_url)
        app = create_app(settings, redis_url)
        loop, http = settings.server.loop_and_http
        config = uvicorn.Config(
            app,
            host=settings.server.host,
            port=settings.server.port,
            loop=loop,
            # transport in scope; heads, connections bounded
            http=protocol(http, settings),  # type: ignore[arg-type]  # a factory: uvicorn calls it as a class
            log_level="info",
            log_config=None,  # the root logger, as service/infra/logs.py set it
            lifespan="on",
            access_log=settings.observe.access_log,
            # who the client is: DANGER_TRUSTED_PROXY (service/http/guards/clients.py)
            proxy_headers=False,
        )
        if settings.observe.metrics == "port":
            metrics.serve_alone(settings.observe.metrics_port, settings.server.host)  # type: ignore[arg-type]  # "port" has one
        server = uvicorn.Server(config)
        # uvicorn shuts down on Ctrl-C and then raises the signal again, which asyncio's
        # runner turns into KeyboardInterrupt: the shutdown is done, so no traceback.
        with contextlib.suppress(KeyboardInterrupt):
            server.run()
        if not server.started:  # the lifespan failed (a store refused since the check)
            return 1
    finally:
        if embedded is not None:
            embedded.stop()
    return 0


def _durability_refused(settings: Settings, redis_url: str) -> str | None:
    """Why the store may not be served, checked before any process starts, so the refusal is
    one clear line and a non-zero exit, not a failed lifespan: it could lose what is
    acknowledged (service/infra/durability.py), it counts its shards differently
    (service/infra/shards.py), or the job queue has no single server
    (service/infra/connections.py)."""
    import asyncio

    return asyncio.run(_refused(settings, redis_url))


async def _refused(settings: Settings, redis_url: str) -> str | None:
    from redis.exceptions import RedisError

    from events.cluster import address
    from service.assembly.runtime import open_stores
    from service.infra.connections import QueueRefused
    from service.infra.durability import Refused
    from service.infra.shards import ShardsRefused

    try:
        redis, _, _ = await open_stores(settings, redis_url)
    except (Refused, ShardsRefused, QueueRefused) as exc:
        return str(exc)
    except (RedisError, OSError) as exc:
        from redis.asyncio import Redis

        return f"could not reach the store at {address(Redis.from_url(redis_url))}: {exc}"
    await redis.aclose()
    return None


def _serve_processes(args: argparse.Namespace, settings: Settings, redis_url: str) -> int:
    """N API processes on one port (uvicorn's supervisor), and one `danger worker` process
    for the projections and the jobs (unless --api-only), all on the same Redis."""
    import os

    from service.infra import listening
    from service.infra.embedded import die_with_parent

    os.environ.update(
        REDIS_URL=redis_url,
        # `--data-dir` too: every process signs with the key kept there (service/infra/signing.py).
        DANGER_DATA_DIR=str(settings.store.data_dir),
        DANGER_SANDBOX="1" if settings.play.sandbox else "",
        DANGER_BACKGROUND="",  # the API processes leave the background to the worker
        DANGER_ACCESS_LOG="1" if settings.observe.access_log else "",
    )
    # Every process writes its samples where any API process reads them for /metrics.
    samples = metrics.share_between_processes()
    if settings.observe.metrics == "port":  # every process's samples, from this one
        metrics.serve_alone(settings.observe.metrics_port, settings.server.host)  # type: ignore[arg-type]  # "port" has one
    worker = None
    if settings.worker.background:
        env = dict(os.environ)
        # This process serves the port, the worker's samples too.
        if settings.observe.metrics == "port":
            env.pop("DANGER_METRICS_PORT", None)
            env["DANGER_METRICS"] = "off"
        worker = WorkerChild([sys.executable, "-m", "service.cli", "worker"], env, die_with_parent)
        worker.start()
    loop, http = settings.server.loop_and_http
    try:
        listening.serve_processes(
            listening.TcpConfig(
                "service.assembly.app:from_env",
                factory=True,
                host=settings.server.host,
                port=settings.server.port,
                loop=loop,
                # transport in scope; heads, connections bounded
                http=protocol(http, settings),  # type: ignore[arg-type]  # a factory: uvicorn calls it as a class
                workers=args.workers,
                log_level="info",
                log_config=None,  # the root logger, as service/infra/logs.py set it
                access_log=settings.observe.access_log,
                proxy_headers=False,  # who the client is: DANGER_TRUSTED_PROXY (clients.py)
            )
        )
    except KeyboardInterrupt:
        pass
    finally:
        if worker is not None:
            worker.stop()
        metrics.forget_shared(samples)
    return 0


class WorkerChild:
    """`danger worker` as a child of `danger serve`, started again whenever it fails while the
    service runs: it exits 1 by itself when a part of it has failed for DANGER_GIVE_UP_SECONDS
    (service/cli/worker.py), and without it no timer rings and no read model moves. One that
    exits 0 was told to stop (a terminal's Ctrl-C reaches it too)."""

    RESTART_FIRST_SECONDS = 1.0
    RESTART_MAX_SECONDS = 30.0
    STOP_SECONDS = 10.0

    def __init__(self, command: list[str], env: dict[str, str], preexec: Callable[[], None]):
        import threading

        self.command, self.env, self.preexec = command, env, preexec
        self.process: subprocess.Popen[bytes] | None = None
        self.stopping = threading.Event()
        self.watcher = threading.Thread(target=self._watch, name="worker-child", daemon=True)

    def start(self) -> None:
        self._spawn()
        self.watcher.start()

    def _spawn(self) -> None:
        self.process = subprocess.Popen(self.command, preexec_fn=self.preexec, env=self.env)

    def _watch(self) -> None:
        import time

        delay = self.RESTART_FIRST_SECONDS
        while not self.stopping.is_set():
            assert self.process is not None
            began = time.monotonic()
            code = self.process.wait()
            if self.stopping.is_set() or code == 0:
                return  # stopped on purpose (a signal it was sent: it exits 0 then)
            if time.monotonic() - began > self.RESTART_MAX_SECONDS:
                delay = self.RESTART_FIRST_SECONDS  # it had run a while: not a crash loop
            print(
                f"danger: the worker exited ({code}); starting it again in {delay:g} s",
                file=sys.stderr,
                flush=True,
            )
            if self.stopping.wait(delay):
                return
            self._spawn()
            delay = min(delay * 2, self.RESTART_MAX_SECONDS)

    def stop(self) -> None:
        self.stopping.set()
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=self.STOP_SECONDS)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()


def add_parser(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser("serve", help="run the API, projections and worker")
    parser.add_argument("--host", help="DANGER_HOST (default 127.0.0.1)")
    parser.add_argument("--port", type=int, help="DANGER_PORT (default 8000)")
    parser.add_argument("--data-dir", help="DANGER_DATA_DIR (default ./.data)")
    parser.add_argument(
        "--sandbox",
        action="store_true",
        default=None,
        help="DANGER_SANDBOX=1: seed and card-order options",
    )
    parser.add_argument(
        "--redis-url", help="REDIS_URL: use this Redis/Valkey, not the embedded one"
    )
    parser.add_argument(
        "--api-only", action="store_true", help="leave projections and timers to `danger worker`"
    )
    parser.add_argument(
        "--workers", type=int, default=1, help="API processes (the worker runs beside them)"
    )
    parser.add_argument(
        "--access-log",
        action="store_true",
        help="DANGER_ACCESS_LOG: uvicorn's access line too, beside each request's own line",
    )
    parser.set_defaults(run=serve)
