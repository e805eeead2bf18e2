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


def documents(data: bytes, what: str) -> list[Any]:
    """A file of JSON: its one document, or every line's (JSON Lines). `what` names the file
    in a refusal (report.InputError)."""
    from .report import InputError

    try:
        text = data.decode()
    except UnicodeDecodeError as exc:
        raise InputError(f"{what} is not UTF-8: {exc}") from None
    try:
        return [loads(text)]
    except ValueError:
        pass
    found = []
    for number, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        try:
            found.append(loads(line))
        except ValueError as exc:
            raise InputError(f"line {number} of {what} is not JSON: {exc}") from None
    return found
