"""danger-verify: check a game's export, and what anchors it outside the operator's reach.

    danger-verify EXPORT.jsonl [--receipts FILE] [--keys KEYS.json] [--head HEAD.json]
                  [--proof PROOF.json] [--entries ENTRIES.json] [--json]
    danger-verify consistency OLD_HEAD.json NEW_HEAD.json PROOF.json --keys KEYS.json [--json]

Exit status: 0 every check passed, 1 a check failed, 2 an input could not be used.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from .canonical import loads
from .chain import parse_export
from .entries import parse_entries
from .keys import Keys, parse_keys
from .proofs import parse_consistency, parse_inclusion
from .receipts import parse_receipts
from .report import InputError, Report
from .tree_heads import parse_head
from .verify import verify_consistency, verify_export

PASSED, FAILED, UNUSABLE = 0, 1, 2


def _read(path: str, what: str) -> bytes:
    try:
        if path == "-":
            return sys.stdin.buffer.read()
        return Path(path).read_bytes()
    except OSError as exc:
        raise InputError(f"cannot read {what} {path}: {exc.strerror or exc}") from None


def _json(path: str, what: str) -> Any:
    try:
        return loads(_read(path, what))
    except (ValueError, UnicodeDecodeError) as exc:
        raise InputError(f"{what} {path} is not JSON: {exc}") from None


def _keys(path: str | None, needed_by: str) -> Keys:
    if path is None:
        raise InputError(f"{needed_by} needs --keys KEYS.json (the saved answer of GET /v1/keys)")
    return parse_keys(_json(path, "the keys file"))


def _export_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="danger-verify",
        description="Check a Danger Hall game's export (GET /v1/games/{id}/export): its hash "
        "chain, its seed commitment and its shuffles; and, where given, receipts, a signed "
        "tree head, an inclusion proof and the entries of the transparency log. "
        "`danger-verify consistency -h`: a monitor's check of two tree heads.",
        epilog="Exit status: 0 every check passed, 1 a check failed, 2 an input is unusable.",
    )
    parser.add_argument(
        "export", metavar="EXPORT.jsonl", help="the export, JSON Lines ('-': stdin)"
    )
    parser.add_argument(
        "--receipts",
        metavar="FILE",
        help="receipts: a JSON receipt, a JSON list or JSON Lines (needs --keys)",
    )
    parser.add_argument("--keys", metavar="KEYS.json", help="the saved answer of GET /v1/keys")
    parser.add_argument(
        "--head", metavar="HEAD.json", help="a signed tree head (GET /v1/log/head; needs --keys)"
    )
    parser.add_argument(
        "--proof",
        metavar="PROOF.json",
        help="the answer of GET /v1/log/proof/{game}: checked against --head or "
        "its own head (needs --keys)",
    )
    parser.add_argument(
        "--entries",
        metavar="ENTRIES.json",
        help="the saved answers of GET /v1/log/entries (a page, a JSON list of pages, or JSON "
        "Lines): every leaf naming the game must name an event of the export with its hash",
    )
    parser.add_argument("--json", action="store_true", help="print the report as JSON")
    return parser


def _consistency_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="danger-verify consistency",
        description="A monitor's check: both tree heads are signed by listed keys, and the "
        "consistency proof (GET /v1/log/consistency?first=m&second=n) shows the newer tree "
        "holding the older one unchanged.",
        epilog="Exit status: 0 every check passed, 1 a check failed (a failed proof is a fork: "
        "the service rewrote its log), 2 an input is unusable.",
    )
    parser.add_argument("old", metavar="OLD_HEAD.json", help="the tree head kept earlier")
    parser.add_argument("new", metavar="NEW_HEAD.json", help="the newer tree head")
    parser.add_argument("proof", metavar="PROOF.json", help="the consistency proof between them")
    parser.add_argument(
        "--keys", metavar="KEYS.json", required=True, help="the saved answer of GET /v1/keys"
    )
    parser.add_argument("--json", action="store_true", help="print the report as JSON")
    return parser


def export_report(args: argparse.Namespace) -> Report:
    export = parse_export(_read(args.export, "the export"))
    anchors = [
        flag
        for flag, value in (
            ("--receipts", args.receipts),
            ("--head", args.head),
            ("--proof", args.proof),
        )
        if value is not None
    ]
    keys = _keys(args.keys, " and ".join(anchors)) if anchors else None
    if keys is None and args.keys is not None:
        keys = parse_keys(_json(args.keys, "the keys file"))
    receipts = None
    if args.receipts is not None:
        receipts = parse_receipts(_read(args.receipts, "the receipts file"))
    head = None
    if args.head is not None:
        head = parse_head(_json(args.head, "the tree head"))
    proof = None
    if args.proof is not None:
        proof = parse_inclusion(_json(args.proof, "the inclusion proof"))
        if head is None:
            if proof.get("head") is None:
                raise InputError("the inclusion proof has no head of its own: give --head")
            proof["head"] = parse_head(proof["head"], "the inclusion proof's head")
    entries = None
    if args.entries is not None:
        entries = parse_entries(_read(args.entries, "the entries file"))
    return verify_export(export, keys, receipts, head, proof, entries)


def consistency_report(args: argparse.Namespace) -> Report:
    keys = parse_keys(_json(args.keys, "the keys file"))
    old = parse_head(_json(args.old, "the older head"), "the older head")
    new = parse_head(_json(args.new, "the newer head"), "the newer head")
    proof = parse_consistency(_json(args.proof, "the consistency proof"))
    return verify_consistency(old, new, proof, keys)


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv and argv[0] == "consistency":
        args = _consistency_parser().parse_args(argv[1:])
        build = consistency_report
    else:
        args = _export_parser().parse_args(argv)
        build = export_report
    try:
        report = build(args)
    except InputError as exc:
        if args.json:
            print(json.dumps({"ok": False, "error": str(exc)}))
        else:
            print(f"danger-verify: unusable input: {exc}", file=sys.stderr)
        return UNUSABLE
    if args.json:
        print(json.dumps(report.to_json(), indent=2, ensure_ascii=False))
    else:
        print(report.to_text())
    return PASSED if report.ok else FAILED


if __name__ == "__main__":
    sys.exit(main())
