"""What a receipt adds to an answer that appends: its Ed25519 signature over the canonical
receipt, the Receipt struct, and its header's canonical JSON, timed in-process against the
encoding of a command's answer it rides on (the anchor of this experiment: both move with
the machine alike). One signature per answer, whatever the number of events.

    .venv/bin/python -m bench.experiments.receipt_cost [--rounds 20000]
"""

from __future__ import annotations

import argparse
import json
import time
from statistics import median

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from service.infra.signing import Signer
from service.play.receipts import header, signed_receipt

ANSWER = {  # a command's answer as the service encodes it: three events and a view
    "seq": 40,
    "events": [
        {
            "seq": 38 + i,
            "type": "card_drawn",
            "data": {"seat": 0, "card": "G4"},
            "hash": "7e" * 32,
            "prev": "dd" * 32,
        }
        for i in range(3)
    ],
    "view": {"rows": [[f"R{i}" for i in range(5)] for _ in range(4)], "hand": ["G4"] * 3},
}


def timed(function, rounds: int) -> float:
    """Microseconds a call, the median of five runs of `rounds` calls."""
    runs = []
    for _ in range(5):
        started = time.perf_counter()
        for _ in range(rounds):
            function()
        runs.append((time.perf_counter() - started) / rounds * 1e6)
    return median(runs)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="bench.experiments.receipt_cost")
    parser.add_argument("--rounds", type=int, default=20_000)
    args = parser.parse_args(argv)
    signer = Signer(Ed25519PrivateKey.generate())
    at = "2026-12-06T16:20:00.000Z"

    def receipt() -> None:
        header(signed_receipt(signer, "Kz3qAb1cD2eF", 40, "7e" * 32, at))

    import msgspec

    encode = msgspec.json.encode
    found = {
        "receipt_us": round(timed(receipt, args.rounds), 1),
        "sign_only_us": round(timed(lambda: signer.sign(b"x" * 150), args.rounds), 1),
        "answer_encoding_us": round(timed(lambda: encode(ANSWER), args.rounds), 1),
    }
    print(json.dumps(found))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
