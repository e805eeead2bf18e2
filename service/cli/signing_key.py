"""`danger signing-key show | rotate`: the Ed25519 key receipts and tree heads are signed
with (docs/transparency.md, "Signing keys")."""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path


def signing_key(args: argparse.Namespace) -> int:
    from service.infra import signing

    data_dir = Path(args.data_dir or os.environ.get("DANGER_DATA_DIR") or ".data")
    if args.action == "rotate":
        retired, signer = signing.rotate(data_dir)
        if retired is not None:
            print(f"retired {retired}: it stays listed at GET /v1/keys")
        print(f"current {signer.key_id} (public key {signer.public_key})")
        print("The service signs with it from its next start.")
        return 0
    path = signing.signing_dir(data_dir) / signing.CURRENT
    if not path.exists():
        print(f"danger signing-key: no key in {path.parent} yet", file=sys.stderr)
        return 1
    signer = signing.load(data_dir)
    print(f"current {signer.key_id} (public key {signer.public_key})")
    return 0


def add_parser(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser(
        "signing-key", help="show or rotate the key receipts and the log's heads are signed with"
    )
    parser.add_argument("action", choices=["show", "rotate"])
    parser.add_argument("--data-dir", help="DANGER_DATA_DIR (default .data)")
    parser.set_defaults(run=signing_key)
