"""The CPU instructions a load's fold costs an event, counted rather than timed: the shared
machine moves timings by a fifth from one run to the next, and a count does not move.

Plays the recorded games (`bench.record`, 10 of each kind) in-process on an embedded Valkey,
keeps their stored bytes, then runs the fold of them (`bench.replay.fold_all`) under
valgrind's cachegrind once and three times: the difference, over twice the events, is what
one event's fold costs, imports and setup left out. Needs valgrind (Debian's).

    .venv/bin/python -m bench.experiments.fold_cost

It counts the build this checkout imports: compiled (`make compiled`) or not (`make pure`).
"""

from __future__ import annotations

import asyncio
import json
import pickle
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

FOLD = """
import pickle, sys
from bench.replay import fold_all
logs = pickle.loads(open(sys.argv[1], "rb").read())
for _ in range(int(sys.argv[2])):
    fold_all(logs)
"""


VALGRIND = ["valgrind", "--tool=cachegrind", "--cache-sim=no", "--cachegrind-out-file=/dev/null"]


def instructions(logs: Path, passes: int) -> int:
    done = subprocess.run(
        [*VALGRIND, sys.executable, "-c", FOLD, str(logs), str(passes)],
        capture_output=True,
        text=True,
        check=True,
        cwd=Path(__file__).resolve().parents[2],
    )
    found = re.search(r"I\s+refs:\s+([\d,]+)", done.stderr)
    assert found, done.stderr
    return int(found.group(1).replace(",", ""))


def main() -> int:
    from bench import record
    from bench.profile import _finished_games
    from service.infra.embedded import EmbeddedValkey

    data = Path(tempfile.mkdtemp(prefix="danger-fold-cost-"))
    valkey = EmbeddedValkey(data)
    valkey.start()
    try:
        logs = asyncio.run(_finished_games(valkey.url, record.recordings(10)))
    finally:
        valkey.stop()
    try:
        stored = data / "logs.pickle"
        stored.write_bytes(pickle.dumps(logs))
        events = sum(len(raw) for raw, _ in logs.values())  # as fold_all counts them
        once, thrice = instructions(stored, 1), instructions(stored, 3)
    finally:
        shutil.rmtree(data, ignore_errors=True)
    import domain.kernel.table

    compiled = not (domain.kernel.table.__file__ or "").endswith(".py")
    per_event = round((thrice - once) / 2 / events)
    print(json.dumps({"events": events, "instructions_per_event": per_event, "compiled": compiled}))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
