"""Canonical JSON (docs/events.md, "Canonical bytes"): keys sorted by code point at every
depth, no whitespace, UTF-8 with no `\\u` escapes outside the control characters, numbers as
Python writes them. Every hash and signature of the service is over these bytes."""

from __future__ import annotations

import json
from typing import Any


def canonical(value: Any) -> bytes:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


def loads(text: str | bytes) -> Any:
    """JSON as the service writes it: NaN and the infinities, which Python's reader accepts,
    are refused."""
    return json.loads(text, parse_constant=_no_constant)
