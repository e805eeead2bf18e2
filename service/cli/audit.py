"""`danger audit FILE`: an exported game checked offline, no server and no store."""

from __future__ import annotations

import argparse
import sys


def audit(args: argparse.Namespace) -> int:
    """Check an exported game offline: no server, no Redis."""
    import msgspec

    from events.audit import audit_export

    try:
        with open(args.file, "rb") as handle:
            data = handle.read()
    except OSError as exc:
        print(f"danger audit: cannot read {args.file}: {exc}", file=sys.stderr)
        return 2
    receipts, keys = None, None
    if args.receipts:
        if not args.keys:
            print("danger audit: --receipts needs --keys (a saved GET /v1/keys)", file=sys.stderr)
            return 2
        try:
            receipts = _json_values(args.receipts)
            keys = {k["id"]: k["public_key"] for k in msgspec.json.decode(_read(args.keys))["keys"]}
        except (OSError, ValueError, KeyError, TypeError) as exc:
            print(f"danger audit: unusable receipts or keys: {exc}", file=sys.stderr)
            return 2
    report = audit_export(data, receipts, keys)
    if args.json:
        print(msgspec.json.encode(report).decode())
    else:
        print(f"game {report.game}: {'OK' if report.ok else 'FAILED'}")
        for check in report.checks:
            where = f" (first at event {check.seq})" if check.seq is not None else ""
            print(f"  {'pass' if check.ok else 'FAIL'}  {check.name}: {check.detail}{where}")
            if check.expected is not None:
                print(f"        expected {msgspec.json.encode(check.expected).decode()}")
    return 0 if report.ok else 1


def _read(path: str) -> bytes:
    with open(path, "rb") as handle:
        return handle.read()


def _json_values(path: str) -> list[dict]:
    """Receipts from a file: one JSON object, a JSON list, or JSON Lines."""
    import msgspec

    data = _read(path)
    try:
        value = msgspec.json.decode(data)
    except msgspec.DecodeError:
        return [msgspec.json.decode(line) for line in data.splitlines() if line.strip()]
    return value if isinstance(value, list) else [value]


def add_parser(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser("audit", help="check an exported game (JSON Lines) offline")
    parser.add_argument("file", help="the export of GET /v1/games/{id}/export")
    parser.add_argument(
        "--receipts",
        help="receipts kept while playing (a JSON object, a list, or JSON Lines): each must be "
        "signed by a listed key and name the export's hash at its seq",
    )
    parser.add_argument("--keys", help="the saved answer of GET /v1/keys (with --receipts)")
    parser.add_argument("--json", action="store_true", help="print the report as JSON")
    parser.set_defaults(run=audit)
