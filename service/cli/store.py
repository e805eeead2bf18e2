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
