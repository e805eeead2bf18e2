"""What the service signs (docs/transparency.md): a receipt for every answer that appends,
and the transparency log's tree heads. Each is a JSON object, signed with Ed25519 over a
context line and the object's canonical bytes without its `signature`, so that a signature
made for one kind can never pass for the other."""

from __future__ import annotations

import hashlib
from collections.abc import Mapping, Sequence
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


def first_bad_receipt(
    game: str,
    hashes: Mapping[int, str],
    receipts: Sequence[Mapping[str, Any]],
    keys: Mapping[str, str],
) -> tuple[str, int | None] | None:
    """The first receipt that does not hold against a game's log, in seq order: what is wrong
    and its seq; None if every one holds. `hashes`: the log's hash at each seq; `keys`: the
    listed public keys by id. A valid receipt whose hash the log does not have is evidence
    that the log was rewritten after the service acknowledged it."""
    in_order = sorted(receipts, key=lambda r: r["seq"] if isinstance(r.get("seq"), int) else -1)
    for receipt in in_order:
        seq, key = receipt.get("seq"), str(receipt.get("key"))
        if receipt.get("game") != game:
            return f"a receipt names game {receipt.get('game')!r}, not {game!r}", None
        if key not in keys:
            return f"the receipt of seq {seq} is signed by key {key!r}, which is not listed", seq
        if not valid(keys[key], str(receipt.get("signature")), message(RECEIPT, receipt)):
            return f"the receipt of seq {seq} does not bear a valid signature of {key}", seq
        if not isinstance(seq, int) or seq not in hashes:
            return f"the service signed seq {seq}, which the log does not hold", seq
        if hashes[seq] != receipt.get("hash"):
            return (
                f"the service signed hash {receipt.get('hash')} at seq {seq}, and the log has "
                f"{hashes[seq]} there: the log was rewritten after it was acknowledged",
                seq,
            )
    return None
