"""Receipts (docs/transparency.md, "Receipts"): the service's signature over a game's head
(its seq and the hash there) when it acknowledged an append. A receipt is checked against
an export: its key is listed, its signature is valid, and the export's event at `seq` has
`hash`. A valid receipt whose hash the export does not have is evidence that the log was
rewritten after the service acknowledged it."""

from __future__ import annotations

from typing import Any

from .canonical import documents
from .chain import Export
from .keys import Keys
from .report import Failure, InputError

FIELDS = {"at": str, "game": str, "hash": str, "key": str, "seq": int, "signature": str}


def parse_receipts(data: bytes) -> list[dict[str, Any]]:
    """A JSON receipt, a JSON list of receipts, or JSON Lines of receipts (the
    `Danger-Receipt` header's value is a receipt's JSON)."""
    found = documents(data, "the receipts file")
    if len(found) == 1 and isinstance(found[0], list):
        found = found[0]
    if not found:
        raise InputError("the receipts file holds no receipt")
    for number, receipt in enumerate(found, 1):
        if not isinstance(receipt, dict):
            raise InputError(f"receipt {number} is not an object")
        for name, kind in FIELDS.items():
            value = receipt.get(name)
            if type(value) is not kind:
                raise InputError(f"receipt {number} has no {name} ({kind.__name__})")
    return found


def first_receipt_failure(
    receipts: list[dict[str, Any]], export: Export, keys: Keys
) -> tuple[Failure | None, str]:
    """The first receipt (by seq) that fails against the export, or None and what passed.
    Receipts of other games are passed over (a client may keep all its receipts in one
    file), but at least one must name the export's game."""
    game = export.game
    mine = sorted((r for r in receipts if r["game"] == game), key=lambda r: r["seq"])
    others = len(receipts) - len(mine)
    if not mine:
        return Failure(None, f"none of the {len(receipts)} receipts is for game {game}"), ""
    last = export.events[-1].get("seq")
    for receipt in mine:
        seq, signed_hash = receipt["seq"], receipt["hash"]
        name = f"the receipt for event {seq} (signed at {receipt['at']})"
        bad = keys.verify(name, "receipt", receipt)
        if bad is not None:
            return Failure(seq, bad.message), ""
        event = export.at(seq)
        if event is None:
            return Failure(
                seq,
                f"the service acknowledged event {seq} at {receipt['at']}, but the export "
                f"ends at event {last}",
            ), ""
        if event.get("hash") != signed_hash:
            return Failure(
                seq,
                f"the service signed hash {signed_hash} for event {seq} at {receipt['at']}; "
                f"the export's event {seq} has hash {event.get('hash')}",
            ), ""
    seqs = ", ".join(str(r["seq"]) for r in mine[:8]) + (", ..." if len(mine) > 8 else "")
    passed = (
        f"{len(mine)} receipt(s) signed by listed keys, each naming the export's event with "
        f"its hash (events {seqs})"
    )
    if others:
        passed += f"; {others} receipt(s) of other games passed over"
    return None, passed
