"""The transparency log's proofs as its API answers them (docs/transparency.md, "The API"),
checked against an export and signed tree heads.

- inclusion (`GET /v1/log/proof/{game}`): its leaf names an event of the export, with that
  hash (and, for a final leaf, the export's last event), and its path leads from the leaf
  to the head's root for the head's size (RFC 9162, 2.1.3.2);
- consistency (`GET /v1/log/consistency?first=m&second=n`): the newer tree holds the older
  one unchanged (RFC 9162, 2.1.4.2).
"""

from __future__ import annotations

from typing import Any

from . import merkle
from .canonical import canonical
from .chain import Export
from .report import Failure, InputError
from .tree_heads import HEX64, root_of

LEAF_FIELDS = {"final": bool, "game": str, "hash": str, "seq": int}


def _path(document: dict[str, Any], name: str) -> list[bytes]:
    path = document.get("path")
    if not isinstance(path, list) or not all(
        isinstance(h, str) and HEX64.fullmatch(h) for h in path
    ):
        raise InputError(f"{name}'s path is not a list of 64-hex-digit hashes")
    return [bytes.fromhex(h) for h in path]


def _size(document: dict[str, Any], field: str, name: str) -> int:
    value = document.get(field)
    if type(value) is not int or value < 0:
        raise InputError(f"{name} has no {field} (a count)")
    return value


def parse_inclusion(document: Any) -> dict[str, Any]:
    """The answer of GET /v1/log/proof/{game}: index, size, leaf, path (and head)."""
    name = "the inclusion proof"
    if not isinstance(document, dict):
        raise InputError(f"{name} is not an object")
    _size(document, "index", name)
    _size(document, "size", name)
    _path(document, name)
    leaf = document.get("leaf")
    if not isinstance(leaf, dict):
        raise InputError(f"{name} has no leaf")
    for field, kind in LEAF_FIELDS.items():
        if type(leaf.get(field)) is not kind:
            raise InputError(f"{name}'s leaf has no {field} ({kind.__name__})")
    return document


def first_inclusion_failure(
    proof: dict[str, Any], head: dict[str, Any], export: Export
) -> tuple[Failure | None, str]:
    leaf = proof["leaf"]
    seq = leaf["seq"]
    if leaf["game"] != export.game:
        return Failure(
            None, f"the proof's leaf is for game {leaf['game']}, not the export's {export.game}"
        ), ""
    event = export.at(seq)
    if event is None:
        return Failure(
            seq,
            f"the log holds event {seq} of the game, which the export does "
            f"not have (it ends at event {export.events[-1].get('seq')})",
        ), ""
    if event.get("hash") != leaf["hash"]:
        return Failure(
            seq,
            f"the log holds hash {leaf['hash']} for event {seq}; the "
            f"export's event {seq} has hash {event.get('hash')}",
        ), ""
    if leaf["final"] and (event is not export.events[-1] or event.get("type") != "seed_revealed"):
        return Failure(
            seq,
            f"the log holds event {seq} as the game's final head, but the "
            "export's last event is not it (or it is not seed_revealed)",
        ), ""
    if proof["size"] != head["size"]:
        return Failure(
            None,
            f"the proof is for the tree of {proof['size']} leaves; the head's has {head['size']}",
        ), ""
    leaf_hash = merkle.leaf_hash(canonical(leaf))
    path = _path(proof, "the inclusion proof")
    if not merkle.verify_inclusion(proof["index"], proof["size"], leaf_hash, path, root_of(head)):
        return Failure(
            seq,
            f"the path does not lead from leaf {proof['index']} (event {seq}) "
            f"to the root of the tree of {head['size']} leaves",
        ), ""
    final = "the game's final head" if leaf["final"] else "a checkpoint"
    return None, (
        f"event {seq} ({final}) is leaf {proof['index']} of the tree of {head['size']} "
        "leaves whose root the head gives"
    )


def parse_consistency(document: Any) -> dict[str, Any]:
    """The answer of GET /v1/log/consistency: first, second, path."""
    name = "the consistency proof"
    if not isinstance(document, dict):
        raise InputError(f"{name} is not an object")
    _size(document, "first", name)
    _size(document, "second", name)
    _path(document, name)
    return document


def first_consistency_failure(
    old: dict[str, Any], new: dict[str, Any], proof: dict[str, Any]
) -> tuple[Failure | None, str]:
    if old["origin"] != new["origin"]:
        return Failure(None, f"the heads are of two logs: {old['origin']} and {new['origin']}"), ""
    if new["size"] < old["size"]:
        return Failure(
            None,
            f"the newer head's tree ({new['size']} leaves) is smaller than "
            f"the older one's ({old['size']}): the log shrank",
        ), ""
    if (proof["first"], proof["second"]) != (old["size"], new["size"]):
        return Failure(
            None,
            f"the proof is between the sizes {proof['first']} and "
            f"{proof['second']}, not the heads' {old['size']} and "
            f"{new['size']}",
        ), ""
    path = _path(proof, "the consistency proof")
    if not merkle.verify_consistency(old["size"], new["size"], root_of(old), root_of(new), path):
        return Failure(
            None,
            f"the proof does not show the tree of {new['size']} leaves "
            f"holding the tree of {old['size']} unchanged",
        ), ""
    return None, f"the tree of {new['size']} leaves holds the tree of {old['size']} unchanged"
