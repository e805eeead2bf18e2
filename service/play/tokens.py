"""Bearer tokens: random secrets handed out once, stored only as SHA-256 hashes.

A token reads `<game id>.<role>.<secret>` with role `admin` or `s<seat>`: the game and role
say which stored hash to compare against (in constant time); only the secret is random.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from dataclasses import dataclass


@dataclass(frozen=True)
class Credential:
    game_id: str
    role: str  # "admin" or "seat:<n>"
    token: str

    @property
    def seat(self) -> int | None:
        return int(self.role.split(":")[1]) if self.role.startswith("seat:") else None


def issue(game_id: str, role: str) -> tuple[str, str]:
    """A new token for `role` and the hash to store."""
    label = "admin" if role == "admin" else "s" + role.split(":")[1]
    token = f"{game_id}.{label}.{secrets.token_urlsafe(32)}"
    return token, digest(token)


def digest(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def origin(client: str) -> str:
    """What a seat's secrets keep of the client that took it (`origin:<seat>`): enough to
    tell two clients apart for the ratings (docs/rulings.md, "Ratings"), not the address."""
    return hashlib.sha256(f"origin\n{client}".encode()).hexdigest()[:20]


def parse(token: str) -> Credential | None:
    parts = token.split(".")
    if len(parts) != 3 or not all(parts):
        return None
    game_id, label, _ = parts
    if label == "admin":
        return Credential(game_id, "admin", token)
    if label.startswith("s") and label[1:].isascii() and label[1:].isdigit() and len(label) <= 3:
        return Credential(game_id, f"seat:{int(label[1:])}", token)
    return None


def matches(token: str, stored_hash: str | None) -> bool:
    return stored_hash is not None and hmac.compare_digest(digest(token), stored_hash)
