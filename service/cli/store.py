"""The store a maintenance command works on (`danger keys`, `danger projections`)."""

from __future__ import annotations

import argparse
import contextlib
import sys
from collections.abc import Iterator
from pathlib import Path

from service.infra.config import Settings


@contextlib.contextmanager
def store_url(args: argparse.Namespace, command: str) -> Iterator[str | None]:
    """The URL of the store a maintenance command works on: REDIS_URL (or --redis-url); else
    the embedded server of the data directory, the running one if the service is up (its
    address and password are in the directory), or one started for the command. None (and a
    line saying why) if there is none to reach."""
    from service.infra.embedded import DataDirInUse, EmbeddedValkey, running_url

    settings = Settings.from_env()
    if args.redis_url or settings.store.redis_url:
        yield args.redis_url or settings.store.redis_url
        return
    data_dir = _data_dir(args, settings)
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


def running_store_url(args: argparse.Namespace, command: str) -> str | None:
    """The URL of the store the running service works on, for a command whose writes matter
    only there (an app key made in any other store is refused by the service): REDIS_URL (or
    --redis-url), else the embedded server of the data directory while the service runs it.
    Never a server started for the command. None, and a line on stderr saying what to do,
    when it cannot be reached."""
    from service.infra.connections import server_name
    from service.infra.embedded import running_url

    settings = Settings.from_env()
    named = args.redis_url or settings.store.redis_url
    if named:
        failure = _unreachable(named)
        if failure is not None:
            print(
                f"danger {command}: cannot reach the store at {server_name(named)} "
                f"(REDIS_URL): {failure}",
                file=sys.stderr,
            )
            return None
        return named
    data_dir = _data_dir(args, settings).resolve()
    url = running_url(data_dir)
    if url is None or _unreachable(url) is not None:
        print(
            f"danger {command}: no service is running on the data directory {data_dir} "
            "(DANGER_DATA_DIR or --data-dir; the default, .data, is in the current "
            "directory). Start it (make run, or danger serve), or name the store it runs on "
            "(REDIS_URL or --redis-url): what is written anywhere else is not the service's.",
            file=sys.stderr,
        )
        return None
    return url


def _data_dir(args: argparse.Namespace, settings: Settings) -> Path:
    return Path(args.data_dir) if args.data_dir else settings.store.data_dir


def _unreachable(url: str) -> str | None:
    """Why the server at `url` does not answer PING (with the password the URL carries), or
    None when it does."""
    from redis import Redis
    from redis.exceptions import RedisError

    try:
        with Redis.from_url(url, socket_connect_timeout=2, socket_timeout=2) as client:
            client.ping()
    except (RedisError, OSError, ValueError) as exc:
        return str(exc) or type(exc).__name__
    return None
