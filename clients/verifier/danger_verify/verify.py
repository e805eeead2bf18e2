"""The checks of an export, and of two tree heads for a monitor, gathered into a Report."""

from __future__ import annotations

from typing import Any

from . import shuffles
from .chain import (
    Export,
    chain_passed,
    first_chain_break,
    first_commitment_failure,
    revealed_seed,
)
from .entries import first_entries_failure
from .keys import Keys
from .proofs import first_consistency_failure, first_inclusion_failure
from .receipts import first_receipt_failure
from .report import Check, Report
from .tree_heads import first_head_failure, head_passed


def _shuffles(export: Export) -> Check:
    created = export.events[0].get("data")
    if isinstance(created, dict) and created.get("verifiable") is False:
        return Check("shuffles", False, "not verifiable: a sandbox deck or stack fixed the cards")
    seed, missing = revealed_seed(export)
    if seed is None:
        assert missing is not None
        return Check("shuffles", False, missing.message, missing.seq)
    try:
        found = shuffles.first_shuffle_failure(export.events, seed)
    except Exception as exc:  # a malformed event is a finding, not a crash
        return Check("shuffles", False, f"the shuffles could not be derived again: {exc}")
    if found is not None:  # any (seq, message) dataclass: the module defines its own
        return Check("shuffles", False, found.message, found.seq)
    if getattr(shuffles, "PLACEHOLDER", False):
        placeholder = "not derived again: danger_verify/shuffles.py is a placeholder"
        return Check("shuffles", True, placeholder)
    return Check("shuffles", True, "every shuffle, deal and draw derived again from the seed")


def verify_export(
    export: Export,
    keys: Keys | None = None,
    receipts: list[dict[str, Any]] | None = None,
    head: dict[str, Any] | None = None,
    proof: dict[str, Any] | None = None,
    entries: dict[int, dict[str, Any]] | None = None,
) -> Report:
    """The export's own checks (chain, commitment, shuffles) and, where given, its anchors:
    receipts, a signed tree head, an inclusion proof (checked against `head`, or else the
    proof's own) and the log's entries (danger_verify.entries.parse_entries; checked
    against the head's root where they hold its whole tree). Receipts and heads need
    `keys`; entries need nothing else."""
    if head is None and proof is not None:
        head = proof.get("head")
        if head is None:
            raise ValueError("an inclusion proof is checked against a head: give one")
    if keys is None and (receipts is not None or head is not None):
        raise ValueError("receipts and tree heads are checked with the service's keys")
    report = Report(game=export.game, events=len(export.events))
    broken, excused = first_chain_break(export)
    report.add(Check.of("chain", broken, chain_passed(export, excused)))
    report.add(
        Check.of(
            "commitment",
            first_commitment_failure(export),
            "the revealed seed hashes to the seed_commitment of game_created",
        )
    )
    report.add(_shuffles(export))
    if keys is not None:
        report.add(Check.of("keys", keys.failure(), keys.passed()))
    if receipts is not None and keys is not None:
        failure, passed = first_receipt_failure(receipts, export, keys)
        report.add(Check.of("receipts", failure, passed))
    if head is not None and keys is not None:
        report.add(
            Check.of(
                "tree_head", first_head_failure(head, keys, "the tree head"), head_passed(head)
            )
        )
    if proof is not None and head is not None:
        failure, passed = first_inclusion_failure(proof, head, export)
        report.add(Check.of("inclusion", failure, passed))
    if entries is not None:
        failure, passed = first_entries_failure(entries, export, head)
        report.add(Check.of("entries", failure, passed))
    return report


def verify_consistency(
    old: dict[str, Any], new: dict[str, Any], proof: dict[str, Any], keys: Keys
) -> Report:
    """A monitor's check of a newer tree head against one it kept: both signed by listed
    keys, and the consistency proof between them valid."""
    report = Report()
    report.add(Check.of("keys", keys.failure(), keys.passed()))
    report.add(
        Check.of("old_head", first_head_failure(old, keys, "the older head"), head_passed(old))
    )
    report.add(
        Check.of("new_head", first_head_failure(new, keys, "the newer head"), head_passed(new))
    )
    failure, passed = first_consistency_failure(old, new, proof)
    report.add(Check.of("consistency", failure, passed))
    return report
