"""`danger`: serve the API (with its projections and worker), print the OpenAPI spec."""

from __future__ import annotations

import argparse
import contextlib
import sys
from collections.abc import Iterator
from pathlib import Path

from service.cli import simulate
from service.http.http_protocols import protocol
from service.infra import event_loop, logs, metrics
from service.infra.config import Settings


def _open_files() -> None:
    """Raise the open-file limit to its hard limit: every event stream is a socket, and a
    process may hold `DANGER_STREAMS_MAX` of them (children inherit the limit)."""
    import resource

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < hard:
        with contextlib.suppress(ValueError, OSError):  # a hard limit the kernel refuses
            resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))


def _serve(args: argparse.Namespace) -> int:
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
        if args.workers > 1:
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
    for the projections and the jobs, all on the same Redis."""
    import os
    import subprocess

    from service.infra import listening
    from service.infra.embedded import die_with_parent

    os.environ.update(
        REDIS_URL=redis_url,
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
        worker = subprocess.Popen(
            [sys.executable, "-m", "service.cli", "worker"], preexec_fn=die_with_parent, env=env
        )
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
            worker.terminate()
            worker.wait(timeout=10)
        metrics.forget_shared(samples)
    return 0


def _worker(args: argparse.Namespace) -> int:
    """The projections and the arq worker without the API, for deployments that scale them
    apart from the API processes. Each comes back by itself after the store does; exit 1
    when one has failed without a break for DANGER_GIVE_UP_SECONDS (it cannot recover: let
    whatever runs this process start it again, or call someone)."""
    import asyncio
    import signal

    from redis.exceptions import RedisError

    from service.assembly import background
    from service.assembly.runtime import open_core
    from service.infra.bell import Bell
    from service.infra.connections import QueueRefused
    from service.infra.durability import Refused
    from service.infra.shards import ShardsRefused
    from service.infra.supervisor import Supervisor

    try:
        settings = Settings.from_env()
    except ValueError as exc:
        print(f"danger worker: {exc}", file=sys.stderr)
        return 2
    redis_url = args.redis_url or settings.store.redis_url
    if redis_url is None:
        print("danger worker: set REDIS_URL (or --redis-url)", file=sys.stderr)
        return 2
    logs.configure(settings.observe.log_format)
    if settings.observe.metrics_port is not None:
        metrics.serve_alone(settings.observe.metrics_port, settings.server.host)

    async def run() -> int:
        try:
            # A timer that ends a round begins the next round's timer: this process queues it.
            core = await open_core(settings, redis_url)
        except (Refused, ShardsRefused, QueueRefused, RedisError, OSError) as exc:
            print(f"danger worker: {exc}", file=sys.stderr)
            return 1
        supervisor = Supervisor(settings.worker.give_up_seconds)
        bell = Bell(core.redis)
        await bell.start()
        background.start(
            supervisor, core.queue_at, core.redis, core.store, core.jobs, settings, bell
        )
        stop = asyncio.Event()
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGINT, signal.SIGTERM):
            loop.add_signal_handler(sig, stop.set)
        stopped = asyncio.create_task(stop.wait())
        hopeless = asyncio.create_task(supervisor.until_hopeless())
        await asyncio.wait([stopped, hopeless], return_when=asyncio.FIRST_COMPLETED)
        code = 0
        if hopeless.done():
            names = ", ".join(hopeless.result())
            print(
                f"danger worker: {names} failed for {settings.worker.give_up_seconds:g} s "
                "without a break; exiting",
                file=sys.stderr,
                flush=True,
            )
            code = 1
        for task in (stopped, hopeless):
            task.cancel()
        await supervisor.stop()
        await bell.stop()
        await core.close()
        return code

    return event_loop.run(run(), settings)


def _audit(args: argparse.Namespace) -> int:
    """Check an exported game offline: no server, no Redis."""
    import msgspec

    from events.audit import audit_export

    try:
        with open(args.file, "rb") as handle:
            data = handle.read()
    except OSError as exc:
        print(f"danger audit: cannot read {args.file}: {exc}", file=sys.stderr)
        return 2
    report = audit_export(data)
    if args.json:
        print(msgspec.json.encode(report).decode())
    else:
        print(f"game {report.game}: {'OK' if report.ok else 'FAILED'}")
        for check in report.checks:
            where = f" (first at event {check.seq})" if check.seq is not None else ""
            print(f"  {'pass' if check.ok else 'FAIL'}  {check.name}: {check.detail}{where}")
            if check.expected is not None:
                print(f"        expected {msgspec.json.encode(check.expected).decode()}")
    return 0 if report.ok else 1


def _projections(args: argparse.Namespace) -> int:
    """`danger projections rebuild`: build the read models again from the game streams, beside
    the live ones, and switch to them (safe while the service runs); `dead-letters`: list
    the feed entries the projections set aside, as JSON lines; `clear-dead-letters`: drop
    them."""
    with _store(args, "projections") as redis_url:
        if redis_url is None:
            return 1
        return _run_projections(args, redis_url)


def _run_projections(args: argparse.Namespace, redis_url: str) -> int:
    import asyncio

    import msgspec

    from events.store import EventStore
    from service.infra import shards
    from service.infra.connections import open_store
    from service.infra.shards import ShardsRefused
    from service.readmodels import dead_letters
    from service.readmodels.projections import GROUPS
    from service.readmodels.rebuild import RebuildFailed, RebuildRunning, rebuild

    settings = Settings.from_env()

    async def run() -> str:
        redis = await open_store(redis_url, 8)
        try:
            await shards.establish(redis, settings.store.shards)
            if args.action == "rebuild":
                done = await rebuild(redis, EventStore(redis))
                return (
                    f"danger projections: rebuilt lobby, rounds and players from the streams "
                    f"of {done.games} games ({done.finished} over)"
                )
            if args.action == "dead-letters":
                for letter in await dead_letters.listing(redis, GROUPS):
                    print(msgspec.json.encode(letter).decode())
                return ""
            dropped = await dead_letters.clear(redis, GROUPS)
            return f"danger projections: dropped {dropped} dead letters"
        finally:
            await redis.aclose()

    try:
        said = asyncio.run(run())
    except (RebuildRunning, RebuildFailed) as exc:
        print(f"danger projections: {exc}; nothing was switched", file=sys.stderr)
        return 1
    except ShardsRefused as exc:
        print(f"danger projections: {exc}", file=sys.stderr)
        return 1
    if said:
        print(said)
    return 0


@contextlib.contextmanager
def _store(args: argparse.Namespace, command: str) -> Iterator[str | None]:
    """The URL of the store a maintenance command works on: REDIS_URL (or --redis-url); else
    the embedded server of the data directory, the running one if the service is up (its
    address and password are in the directory), or one started for the command. None (and a
    line saying why) if there is none to reach."""
    from service.infra.embedded import DataDirInUse, EmbeddedValkey, running_url

    settings = Settings.from_env()
    if args.redis_url or settings.store.redis_url:
        yield args.redis_url or settings.store.redis_url
        return
    data_dir = Path(args.data_dir) if args.data_dir else settings.store.data_dir
    embedded = EmbeddedValkey(data_dir)
    try:
        embedded.start()
    except DataDirInUse as exc:
        url = running_url(data_dir)
        if url is None:
            print(f"danger {command}: {exc}; give its URL (REDIS_URL)", file=sys.stderr)
        yield url
        return
    try:
        yield embedded.url
    finally:
        embedded.stop()


def _keys(args: argparse.Namespace) -> int:
    """`danger keys create NAME [--rate KIND=N/S ...]`: a new app key, shown once; `list`:
    every key, without its secret; `revoke ID`: the key stops working at once."""
    import asyncio
    from datetime import UTC, datetime

    from service.http.guards import app_keys
    from service.infra.clock import stamp
    from service.infra.connections import open_store

    def when(ms: int | None) -> str:
        return stamp(datetime.fromtimestamp(ms / 1000, UTC)) if ms else "-"

    try:
        rates = app_keys.parse_rates(args.rate or [])
    except ValueError as exc:
        print(f"danger keys: {exc}", file=sys.stderr)
        return 2

    async def run(redis_url: str) -> int:
        redis = await open_store(redis_url, 4)
        try:
            if args.action == "create":
                if not args.arg:
                    print("danger keys create: give the key a NAME", file=sys.stderr)
                    return 2
                try:
                    key, token = await app_keys.create(redis, args.arg, rates)
                except ValueError as exc:
                    print(f"danger keys create: {exc}", file=sys.stderr)
                    return 2
                print(f"id:    {key.id}\nname:  {key.name}\nkey:   {token}")
                print("Keep the key now: only its hash is stored, it cannot be shown again.")
                return 0
            if args.action == "list":
                print(f"{'id':13} {'created':26} {'revoked':26} name")
                for key in await app_keys.listing(redis):
                    print(
                        f"{key.id:13} {when(key.created_ms):26} {when(key.revoked_ms):26} "
                        f"{key.name}{app_keys.rates_note(key)}"
                    )
                return 0
            if not args.arg or not await app_keys.revoke(redis, args.arg):
                print(f"danger keys revoke: no key {args.arg!r}", file=sys.stderr)
                return 1
            print(f"revoked {args.arg}: it is refused from now on")
            return 0
        finally:
            await redis.aclose()

    with _store(args, "keys") as redis_url:
        if redis_url is None:
            return 1
        return asyncio.run(run(redis_url))


def _openapi(_: argparse.Namespace) -> int:
    from service.spec.build import text  # built here and in the tests, never in a server

    sys.stdout.write(text())
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="danger", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)
    serve = sub.add_parser("serve", help="run the API, projections and worker")
    serve.add_argument("--host", help="DANGER_HOST (default 127.0.0.1)")
    serve.add_argument("--port", type=int, help="DANGER_PORT (default 8000)")
    serve.add_argument("--data-dir", help="DANGER_DATA_DIR (default ./.data)")
    serve.add_argument(
        "--sandbox",
        action="store_true",
        default=None,
        help="DANGER_SANDBOX=1: seed and card-order options",
    )
    serve.add_argument("--redis-url", help="REDIS_URL: use this Redis/Valkey, not the embedded one")
    serve.add_argument(
        "--api-only", action="store_true", help="leave projections and timers to `danger worker`"
    )
    serve.add_argument(
        "--workers", type=int, default=1, help="API processes (more than 1: plus a worker)"
    )
    serve.add_argument(
        "--access-log",
        action="store_true",
        help="DANGER_ACCESS_LOG: uvicorn's access line too, beside each request's own line",
    )
    serve.set_defaults(run=_serve)
    worker = sub.add_parser("worker", help="run the projections and the timer worker only")
    worker.add_argument("--redis-url", help="REDIS_URL")
    worker.set_defaults(run=_worker)
    check = sub.add_parser("audit", help="check an exported game (JSON Lines) offline")
    check.add_argument("file", help="the export of GET /v1/games/{id}/export")
    check.add_argument("--json", action="store_true", help="print the report as JSON")
    check.set_defaults(run=_audit)
    projections = sub.add_parser("projections", help="manage the read models")
    projections.add_argument(
        "action",
        choices=["rebuild", "dead-letters", "clear-dead-letters"],
        help="rebuild: the read models from the game streams, while the service runs; "
        "dead-letters: list the feed entries set aside (JSON lines); clear-dead-letters",
    )
    projections.add_argument("--redis-url", help="REDIS_URL")
    projections.add_argument("--data-dir", help="DANGER_DATA_DIR, for the embedded server")
    projections.set_defaults(run=_projections)
    keys = sub.add_parser("keys", help="manage the app keys (DANGER_AUTH=keys)")
    keys.add_argument("action", choices=["create", "list", "revoke"])
    keys.add_argument("arg", nargs="?", help="create: the key's NAME; revoke: its ID")
    keys.add_argument(
        "--rate",
        action="append",
        metavar="KIND=N/S",
        help="create: this key's own limit on a kind of request (create, join, register), "
        "e.g. create=200/60 or join=off; repeat for more kinds (a key is read on those alone)",
    )
    keys.add_argument("--redis-url", help="REDIS_URL")
    keys.add_argument("--data-dir", help="DANGER_DATA_DIR, for the embedded server")
    keys.set_defaults(run=_keys)
    simulate.add_parser(sub)
    spec = sub.add_parser("openapi", help="print the OpenAPI spec the app serves")
    spec.set_defaults(run=_openapi)
    args = parser.parse_args(argv)
    return int(args.run(args))


if __name__ == "__main__":
    sys.exit(main())
