"""What the service signs (docs/transparency.md): a receipt for every answer that appends,
and the transparency log's tree heads. Each is a JSON object, signed with Ed25519 over a
context line and the object's canonical bytes without its `signature`, so that a signature
made for one kind can never pass for the other."""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from typing import Any

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

from events.envelope import canonical

RECEIPT = b"danger-hall/receipt/v1\n"
TREE_HEAD = b"danger-hall/tree-head/v1\n"


def key_id(public_key: bytes) -> str:
    """A key's id: the first 16 hex digits of SHA-256 of its 32 raw bytes, so anyone can
    check that an id is the key's own."""
    return hashlib.sha256(public_key).hexdigest()[:16]


def message(context: bytes, fields: Mapping[str, Any]) -> bytes:
    """The bytes signed for `fields` (a receipt or a tree head, with or without its
    signature)."""
    return context + canonical({k: v for k, v in fields.items() if k != "signature"})


def valid(public_key_hex: str, signature_hex: str, signed: bytes) -> bool:
    """Whether `signature_hex` is the key's signature of `signed`."""
    try:
        key = Ed25519PublicKey.from_public_bytes(bytes.fromhex(public_key_hex))
        key.verify(bytes.fromhex(signature_hex), signed)
    except (ValueError, InvalidSignature):
        return False
    return True
