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
    report = audit_export(data)
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


def add_parser(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser("audit", help="check an exported game (JSON Lines) offline")
    parser.add_argument("file", help="the export of GET /v1/games/{id}/export")
    parser.add_argument("--json", action="store_true", help="print the report as JSON")
    parser.set_defaults(run=audit)
