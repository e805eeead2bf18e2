"""Signed tree heads of the transparency log (docs/transparency.md, "Tree heads"): the
log's `origin`, its `size` (leaves), its `root` (RFC 9162 tree hash, lowercase hex), when it
was signed and by which key; the signature is over `danger-hall/tree-head/v1`, a newline and
the canonical JSON of the head without `signature`."""

from __future__ import annotations

import re
from typing import Any

from .keys import Keys
from .report import Failure, InputError

FIELDS = {"origin": str, "size": int, "root": str, "at": str, "key": str, "signature": str}
HEX64 = re.compile(r"[0-9a-f]{64}")


def parse_head(document: Any, name: str = "the tree head") -> dict[str, Any]:
    if not isinstance(document, dict):
        raise InputError(f"{name} is not an object")
    for field, kind in FIELDS.items():
        if type(document.get(field)) is not kind:
            raise InputError(f"{name} has no {field} ({kind.__name__})")
    if document["size"] < 0:
        raise InputError(f"{name} has a negative size")
    if not HEX64.fullmatch(document["root"]):
        raise InputError(f"{name}'s root is not 64 lowercase hex digits")
    return document


def root_of(head: dict[str, Any]) -> bytes:
    return bytes.fromhex(head["root"])


def first_head_failure(head: dict[str, Any], keys: Keys, name: str) -> Failure | None:
    """The head's signature is valid, by a listed key."""
    return keys.verify(name, "tree-head", head)


def head_passed(head: dict[str, Any]) -> str:
    return (
        f"{head['origin']} at size {head['size']} ({head['at']}), root {head['root'][:16]}..., "
        f"signed by key {head['key']}"
    )
