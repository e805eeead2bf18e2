"""A Lua script run with one round trip: EVALSHA, and the script loaded again only when the
server has lost it (a restart, SCRIPT FLUSH)."""

from __future__ import annotations

import hashlib
from importlib.resources import files
from typing import Any

from redis.exceptions import NoScriptError

from events.cluster import Store


class Script:
    def __init__(self, source: str) -> None:
        self.source = source
        # The server names a script by the SHA-1 of its text: no SCRIPT LOAD needed to know it.
        self.sha = hashlib.sha1(self.source.encode()).hexdigest()

    @classmethod
    def named(cls, package: str, name: str) -> Script:
        """The script in the file `name` of `package` (the module's own: `__package__`)."""
        return cls(files(package).joinpath(name).read_text())

    async def __call__(self, redis: Store, keys: list[str], args: list[Any]) -> Any:
        try:
            return await redis.evalsha(self.sha, len(keys), *keys, *args)  # type: ignore[misc]  # redis-py: Awaitable[T] | T
        except NoScriptError:  # a restarted server, a replica just promoted: EVAL loads it
            return await redis.eval(self.source, len(keys), *keys, *args)  # type: ignore[misc]  # redis-py: Awaitable[T] | T
