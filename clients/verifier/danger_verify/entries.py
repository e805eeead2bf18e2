"""The transparency log's entries (docs/transparency.md, "The API" and "What a monitor
does"): the leaves a monitor fetched with `GET /v1/log/entries?start=a&end=b`, checked
against a game's export. Every leaf naming the game must name an event the export has, with
that hash (a final leaf: the export's last event, its seed_revealed), and the game's leaves
come in the order of its seqs. A rewrite with every hash recomputed is caught so, even
where no player kept a receipt.

Entries are not signed: where they hold every leaf of a signed tree head's tree, their root
is checked against the head's, which makes them the service's word."""

from __future__ import annotations

from typing import Any

from . import merkle
from .canonical import canonical, documents
from .chain import Export
from .proofs import LEAF_FIELDS
from .report import Failure, InputError
from .tree_heads import root_of

WHAT = "the entries file"


def _entry(entry: Any, where: str) -> tuple[int, dict[str, Any]]:
    if not isinstance(entry, dict):
        raise InputError(f"{where} is not an object")
    index, leaf = entry.get("index"), entry.get("leaf")
    if type(index) is not int or index < 0:
        raise InputError(f"{where} has no index (a count)")
    if not isinstance(leaf, dict):
        raise InputError(f"{where} has no leaf")
    for field, kind in LEAF_FIELDS.items():
        if type(leaf.get(field)) is not kind:
            raise InputError(f"{where}'s leaf has no {field} ({kind.__name__})")
    return index, leaf


def parse_entries(data: bytes) -> dict[int, dict[str, Any]]:
    """The saved answers of GET /v1/log/entries: one page (`{"entries": [...]}`), a JSON
    list of pages, or JSON Lines of pages (a bare entry `{"index": i, "leaf": {...}}` is
    taken where a page is). Each leaf by its index; pages may overlap where they agree."""
    pages: list[Any] = []
    for document in documents(data, WHAT):
        pages.extend(document if isinstance(document, list) else [document])
    leaves: dict[int, dict[str, Any]] = {}
    for number, page in enumerate(pages, 1):
        if isinstance(page, dict) and "entries" in page:
            entries = page["entries"]
            if not isinstance(entries, list):
                raise InputError(f"page {number} of {WHAT}: its entries are not a list")
        else:
            entries = [page]
        for position, entry in enumerate(entries, 1):
            index, leaf = _entry(entry, f"entry {position} of page {number} of {WHAT}")
            if index in leaves and leaves[index] != leaf:
                raise InputError(f"{WHAT} gives two leaves of index {index}")
            leaves[index] = leaf
    if not leaves:
        raise InputError(f"{WHAT} holds no entry")
    return dict(sorted(leaves.items()))


def _span(indices: list[int]) -> str:
    first, last = indices[0], indices[-1]
    if last - first + 1 == len(indices):
        return f"{len(indices)} leaves (indices {first} to {last})"
    return f"{len(indices)} leaves (indices {first} to {last}, with gaps)"


def first_entries_failure(
    leaves: dict[int, dict[str, Any]], export: Export, head: dict[str, Any] | None = None
) -> tuple[Failure | None, str]:
    """The first leaf of the game the export does not hold, or what passed. With `head`,
    entries holding every leaf of its tree are checked against its root too."""
    indices = list(leaves)
    span = _span(indices)
    anchored = ""
    if head is not None:
        size = head["size"]
        if indices[0] == 0 and len(indices) >= size and indices[size - 1] == size - 1:
            hashes = [merkle.leaf_hash(canonical(leaves[i])) for i in range(size)]
            if merkle.root(hashes) != root_of(head):
                return Failure(
                    None,
                    f"the first {size} leaves given do not hash to the root of the "
                    f"tree head of size {size}: they are not the log the head signs",
                ), ""
            anchored = f"; the first {size} hash to the tree head's root"
        else:
            anchored = f"; they do not hold all {size} leaves of the tree head's tree"
    mine = [(i, leaf) for i, leaf in leaves.items() if leaf["game"] == export.game]
    if not mine:
        return Failure(
            None, f"none of the {span} names game {export.game}: nothing to check it by"
        ), ""
    last_event = export.events[-1]
    previous = 0
    for index, leaf in mine:
        seq = leaf["seq"]
        event = export.at(seq)
        if event is None:
            return Failure(
                seq,
                f"leaf {index} names event {seq} of the game, which the export does not "
                f"have (it ends at event {last_event.get('seq')})",
            ), ""
        if event.get("hash") != leaf["hash"]:
            return Failure(
                seq,
                f"leaf {index} holds hash {leaf['hash']} for event {seq}; the export's "
                f"event {seq} has hash {event.get('hash')}",
            ), ""
        if leaf["final"] and (event is not last_event or event.get("type") != "seed_revealed"):
            return Failure(
                seq,
                f"leaf {index} holds event {seq} as the game's final head, but the "
                "export's last event is not it (or it is not seed_revealed)",
            ), ""
        if seq < previous:
            return Failure(
                seq,
                f"leaf {index} names event {seq} after a leaf of event {previous}: the "
                "game's leaves are not in the order of its seqs",
            ), ""
        previous = seq
    final = " (its final head among them)" if any(leaf["final"] for _, leaf in mine) else ""
    return None, (
        f"{len(mine)} of the {span} name the game{final}, each an event the export has "
        f"with that hash{anchored}"
    )
