"""Writes the real finished games the verifier's tests read (clients/verifier/tests/data):
one export of each kind of game, played by the service's bots and sealed as the service
seals and exports a game (tests/exports.py), gzipped. The tests read them and nothing of the
service; this script needs the service. From the repository's root:

    .venv/bin/python clients/verifier/tests/data/regenerate.py

tests/test_verifier.py checks that the files are what this script writes."""

from __future__ import annotations

import gzip
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[3]

GAMES: dict[str, tuple[str, int]] = {
    "danger": ("danger", 2),
    "high-voltage": ("high-voltage", 2),
    "danger-13": ("danger-13", 2),
    "danger-danger": ("danger-danger", 3),
}
"""Each file's name (`<name>.jsonl.gz`) and the game and seats it holds: the fewest seats
a game takes, for the smallest exports."""


def exports() -> dict[str, bytes]:
    """Each file's name and its content: a finished game's export, gzipped (no time in its
    header, so the bytes are the same on every run)."""
    if str(ROOT) not in sys.path:
        sys.path.insert(0, str(ROOT))
    from tests.exports import simulated_export

    return {
        f"{name}.jsonl.gz": gzip.compress(simulated_export(game, seats), mtime=0)
        for name, (game, seats) in GAMES.items()
    }


def main() -> None:
    for name, content in exports().items():
        (HERE / name).write_bytes(content)
        print(f"wrote {HERE / name} ({len(content)} bytes)")


if __name__ == "__main__":
    main()
