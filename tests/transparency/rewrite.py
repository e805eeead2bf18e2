"""An operator's rewrite of a finished game's export: one event changed and every hash after
it recomputed, so the chain, the commitment, the shuffles and the rules all pass again."""

from __future__ import annotations

import hashlib
import json
from typing import Any


def envelopes_of(export: bytes) -> list[dict[str, Any]]:
    return [json.loads(line) for line in export.splitlines() if line.strip()]


def export_of(envelopes: list[dict[str, Any]]) -> bytes:
    return b"".join(
        json.dumps(e, separators=(",", ":"), ensure_ascii=False).encode() + b"\n" for e in envelopes
    )


def rehashed(envelopes: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The log chained again from its first event (docs/events.md, "Canonical bytes")."""
    prev = "0" * 64
    out = []
    for e in envelopes:
        fields = {k: v for k, v in e.items() if k != "hash"}
        fields["prev"] = prev
        raw = json.dumps(fields, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
        prev = hashlib.sha256(raw.encode()).hexdigest()
        out.append({**fields, "hash": prev})
    return out


def renamed(export: bytes, name: str = "Mallory") -> bytes:
    """The export with its first player's name changed (in the join's event and its
    recorded command), every hash recomputed."""
    envelopes = envelopes_of(export)
    joined = next(e for e in envelopes if e["type"] == "player_joined")
    joined["data"]["name"] = joined["cause"]["name"] = name
    return export_of(rehashed(envelopes))
