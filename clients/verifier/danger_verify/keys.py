"""The service's signing keys, as `GET /v1/keys` lists them (docs/transparency.md, "Signing
keys"), and the Ed25519 signatures made with them.

A key's id is the first 16 hex digits of SHA-256 of its 32-byte raw public key: a listed key
whose id is not its own is not used.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from typing import Any

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

from .canonical import canonical
from .report import Failure, InputError


def key_id(raw: bytes) -> str:
    return hashlib.sha256(raw).hexdigest()[:16]


@dataclass
class Keys:
    usable: dict[str, Ed25519PublicKey] = field(default_factory=dict)
    """The listed keys whose id is their own, by id."""
    problems: list[str] = field(default_factory=list)
    """Why a listed key is not used."""
    refused: set[str] = field(default_factory=set)
    """The ids of the listed keys not used."""
    current: str | None = None

    def failure(self) -> Failure | None:
        if self.problems:
            return Failure(None, "; ".join(self.problems))
        if not self.usable:
            return Failure(None, "no key is listed")
        return None

    def passed(self) -> str:
        return f"{len(self.usable)} key(s) listed, each id its own"

    def verify(self, signed: str, kind: str, fields: dict[str, Any]) -> Failure | None:
        """The Ed25519 signature of `fields` (the receipt or head, `signature` included)
        over `danger-hall/<kind>/v1`, a newline and the canonical JSON of the other fields,
        by the listed key they name. `signed` names the thing in the failure."""
        kid = fields.get("key")
        key = self.usable.get(kid) if isinstance(kid, str) else None
        if key is None:
            why = "listed but not usable" if kid in self.refused else "not listed"
            return Failure(None, f"{signed} is signed by key {kid!r}, which is {why}")
        try:
            signature = bytes.fromhex(fields["signature"])
        except (KeyError, TypeError, ValueError):
            return Failure(None, f"{signed} has no signature in hex")
        message = signing_message(kind, fields)
        try:
            key.verify(signature, message)
        except InvalidSignature:
            return Failure(None, f"{signed}: the signature by key {kid} is not valid")
        return None


def signing_message(kind: str, fields: dict[str, Any]) -> bytes:
    body = {k: v for k, v in fields.items() if k != "signature"}
    return f"danger-hall/{kind}/v1\n".encode() + canonical(body)


def parse_keys(document: Any) -> Keys:
    """The answer of GET /v1/keys: `{"current": id, "keys": [{"id", "algorithm",
    "public_key", "added"}]}`."""
    if not isinstance(document, dict) or not isinstance(document.get("keys"), list):
        raise InputError('the keys file is not the answer of GET /v1/keys ({"keys": [...]})')
    keys = Keys(current=document.get("current"))
    for number, entry in enumerate(document["keys"], 1):
        if not isinstance(entry, dict) or not isinstance(entry.get("id"), str):
            raise InputError(f"key {number} of the keys file is not an object with an id")
        kid = entry["id"]
        problem = None
        if entry.get("algorithm") != "ed25519":
            problem = f"key {kid!r} is not an ed25519 key"
        else:
            try:
                raw = bytes.fromhex(entry["public_key"])
                if len(raw) != 32:
                    raise ValueError
                public = Ed25519PublicKey.from_public_bytes(raw)
            except (KeyError, TypeError, ValueError):
                problem = f"key {kid!r} has no 32-byte public key in hex"
            else:
                if key_id(raw) != kid:
                    problem = f"key {kid!r} is not its own id: its public key's is {key_id(raw)}"
        if problem is None:
            keys.usable[kid] = public
        else:
            keys.problems.append(problem)
            keys.refused.add(kid)
    return keys
