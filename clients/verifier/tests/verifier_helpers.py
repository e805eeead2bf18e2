"""What the verifier's tests forge: exports, Ed25519 keys, receipts, tree heads and proofs,
each written straight from docs/events.md, docs/transparency.md and RFC 9162 (section 2.1),
without the package's own code, so the tests check it against the documents; and the real
finished games they read (data/, written by data/regenerate.py)."""

from __future__ import annotations

import gzip
import hashlib
import json
from functools import lru_cache
from pathlib import Path
from typing import Any

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

GAME = "Kz3qAb1cD2eF"
SEED = bytes(range(32))


def canonical(value: Any) -> bytes:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()


def sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def seal(events: list[dict[str, Any]], start: int = 1) -> list[dict[str, Any]]:
    """Every `prev` and `hash` from event `start` on, as the service computes them."""
    prev = "0" * 64 if start == 1 else events[start - 2]["hash"]
    for event in events[start - 1 :]:
        event["prev"] = prev
        event["hash"] = sha(canonical({k: v for k, v in event.items() if k != "hash"}))
        prev = event["hash"]
    return events


def game_events(game: str = GAME, seed: bytes = SEED, over: bool = True) -> list[dict[str, Any]]:
    """A small finished game's log (a running one's without `over`)."""
    events: list[dict[str, Any]] = []

    def add(kind: str, data: dict[str, Any], actor: str = "admin", **extra: Any) -> None:
        events.append(
            {
                "game": game,
                "seq": len(events) + 1,
                "type": kind,
                "data": data,
                "at": f"2026-12-06T16:21:{len(events):02d}.125Z",
                "actor": actor,
                "command": extra.pop("command", None),
                "cause": extra.pop("cause", None),
                "salt": extra.pop("salt", None),
                "prev": "",
                **extra,
            }
        )

    add(
        "game_created",
        {
            "game": "danger",
            "seats": 2,
            "options": {"idle_minutes": 60.0, "turn_seconds": None},
            "sandbox": False,
            "verifiable": True,
            "algorithm": "hmac-sha256-fy-v1",
            "seed_commitment": sha(seed),
        },
        meta={"request": "req_0123456789abcdef0123"},
    )
    for seat, name in enumerate(("Zoë", "李")):
        add(
            "player_joined",
            {"seat": seat, "name": name, "entropy": f"e{seat}"},
            "anyone",
            cause={"type": "join", "name": name, "entropy": f"e{seat}"},
        )
    add("game_started", {}, cause={"type": "start"}, command="k-start")
    add(
        "deck_shuffled",
        {"reason": "setup", "size": 3, "counter": 0, "order": ["G5", "B9", "R1"]},
        salt=sha(b"salt"),
    )
    add(
        "card_drawn",
        {"seat": 0, "card": "G5", "source": "stack"},
        "seat:0",
        cause={"type": "draw", "source": "stack"},
        command="k-1",
    )
    add("card_placed", {"seat": 0, "card": "G5", "colour": "green", "sum": 5}, "seat:0")
    add("round_scored", {"round": 1, "points": [5, 0], "totals": [5, 0]}, "seat:0")
    if over:
        add("game_ended", {"totals": [5, 0], "winners": [0]}, "seat:0")
        add("seed_revealed", {"seed": seed.hex()}, "seat:0")
    return seal(events)


DATA = Path(__file__).resolve().parent / "data"
REAL_GAMES = ("danger", "high-voltage", "danger-13", "danger-danger")
"""The real finished games in data/: one of each kind, played by the service's bots and
exported as the service exports a game (data/regenerate.py writes them)."""


def real_export(name: str = "danger-danger") -> bytes:
    """A real finished game's export (JSON Lines), as GET /v1/games/{id}/export gives it."""
    return gzip.decompress((DATA / f"{name}.jsonl.gz").read_bytes())


def real_game(name: str = "danger-danger") -> list[dict[str, Any]]:
    """The events of a real finished game's export."""
    return [json.loads(line) for line in real_export(name).splitlines() if line.strip()]


def _bump_first_number(value: Any) -> bool:
    """Add 1 to the first integer (not a bool) in `value`, depth first."""
    items = value.items() if isinstance(value, dict) else enumerate(value)
    for key, item in items:
        if type(item) is int:
            value[key] = item + 1
            return True
        if isinstance(item, dict | list) and _bump_first_number(item):
            return True
    return False


def score_rewritten(events: list[dict[str, Any]]) -> tuple[list[dict[str, Any]], int]:
    """The log with a seat's score in its last round's scoring changed (its totals, Danger
    Danger's tokens or Danger 13's won cards) and every hash from there computed again, so
    its own chain holds; and the seq of the changed event. Nothing in it is a shuffle, deal
    or draw: the seed still gives every card it records."""
    events = json.loads(json.dumps(events))
    scored = [e for e in events if e["type"] == "round_scored"][-1]
    score = next(k for k in ("totals", "tokens", "won_counts") if k in scored["data"])
    assert _bump_first_number(scored["data"][score])
    return seal(events, scored["seq"]), scored["seq"]


def jsonl(events: list[dict[str, Any]]) -> bytes:
    return b"".join(json.dumps(e, ensure_ascii=False).encode() + b"\n" for e in events)


class Signer:
    """An Ed25519 key of the service's, made in the test."""

    def __init__(self, added: str = "2026-12-06T16:20:00.000Z") -> None:
        self.private = Ed25519PrivateKey.generate()
        self.raw = self.private.public_key().public_bytes_raw()
        self.id = sha(self.raw)[:16]
        self.added = added

    def listed(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "algorithm": "ed25519",
            "public_key": self.raw.hex(),
            "added": self.added,
        }

    def sign(self, kind: str, fields: dict[str, Any]) -> dict[str, Any]:
        body = {**fields, "key": self.id}
        message = f"danger-hall/{kind}/v1\n".encode() + canonical(body)
        return {**body, "signature": self.private.sign(message).hex()}

    def receipt(self, event: dict[str, Any], at: str = "2026-12-06T16:22:00.000Z") -> dict:
        return self.sign(
            "receipt", {"game": event["game"], "seq": event["seq"], "hash": event["hash"], "at": at}
        )

    def head(self, size: int, root: bytes, origin: str = "danger-hall") -> dict[str, Any]:
        fields = {
            "origin": origin,
            "size": size,
            "root": root.hex(),
            "at": "2026-12-06T16:21:10.000Z",
        }
        return self.sign("tree-head", fields)


def keys_document(*signers: Signer) -> dict[str, Any]:
    return {"current": signers[-1].id, "keys": [s.listed() for s in signers]}


# RFC 9162, 2.1.1-2.1.4.1, as the RFC writes them: MTH, PATH and PROOF by recursion.


def _k(n: int) -> int:
    k = 1
    while k * 2 < n:
        k *= 2
    return k


class Tree:
    def __init__(self, leaves: list[bytes]) -> None:
        self.leaves = tuple(leaves)
        self.mth = lru_cache(maxsize=None)(self._mth)

    def _mth(self, start: int, end: int) -> bytes:
        n = end - start
        if n == 0:
            return hashlib.sha256(b"").digest()
        if n == 1:
            return hashlib.sha256(b"\x00" + self.leaves[start]).digest()
        k = _k(n)
        return hashlib.sha256(
            b"\x01" + self.mth(start, start + k) + self.mth(start + k, end)
        ).digest()

    def root(self, n: int) -> bytes:
        return self.mth(0, n)

    def path(self, m: int, n: int, start: int = 0) -> list[bytes]:
        """PATH(m, D[start:start + n])."""
        if n == 1:
            return []
        k = _k(n)
        if m < k:
            return [*self.path(m, k, start), self.mth(start + k, start + n)]
        return [*self.path(m - k, n - k, start + k), self.mth(start, start + k)]

    def proof(self, m: int, n: int) -> list[bytes]:
        """PROOF(m, D[0:n]), 0 < m < n."""
        return self._subproof(m, n, 0, True)

    def _subproof(self, m: int, n: int, start: int, whole: bool) -> list[bytes]:
        if m == n:
            return [] if whole else [self.mth(start, start + n)]
        k = _k(n)
        if m <= k:
            return [*self._subproof(m, k, start, whole), self.mth(start + k, start + n)]
        return [*self._subproof(m - k, n - k, start + k, False), self.mth(start, start + k)]


def leaf(event: dict[str, Any], final: bool) -> dict[str, Any]:
    return {"final": final, "game": event["game"], "hash": event["hash"], "seq": event["seq"]}


def log_with(game_leaf: dict[str, Any], index: int, size: int) -> Tree:
    """A log of `size` leaves whose leaf `index` is `game_leaf`, the others other games'."""
    leaves = [
        canonical({"final": True, "game": f"other{i:07d}", "hash": sha(b"%d" % i), "seq": 9})
        for i in range(size)
    ]
    leaves[index] = canonical(game_leaf)
    return Tree(leaves)
