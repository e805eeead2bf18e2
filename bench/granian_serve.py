"""The service (or the anchor) on Granian, as `danger serve --workers N` runs it on uvicorn:
N API processes on one port and, for the service, one `danger worker` process beside them.
For the server stack comparison of `bench.run --stacks ... granian` only; Granian is not a
dependency of the service (`make bench-tools` installs it).

    python -m bench.granian_serve --port P --workers N [--anchor]
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys

from granian import Granian
from granian.constants import Interfaces, Loops

from service.infra.embedded import die_with_parent


def main() -> None:
    parser = argparse.ArgumentParser(prog="bench.granian_serve", description=__doc__)
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--anchor", action="store_true")
    args = parser.parse_args()
    worker = None
    if not args.anchor:
        worker = subprocess.Popen(
            [sys.executable, "-m", "service.cli", "worker"], preexec_fn=die_with_parent
        )
        os.environ["DANGER_BACKGROUND"] = ""  # the API processes leave it to the worker
    try:
        Granian(
            "bench.anchor:app" if args.anchor else "service.assembly.app:from_env",
            factory=not args.anchor,
            address="127.0.0.1",
            port=args.port,
            interface=Interfaces.ASGI,
            workers=args.workers,
            loop=Loops.uvloop,
            websockets=False,
            log_level="warning",  # type: ignore[arg-type]  # granian takes a LogLevels name
        ).serve()
    finally:
        if worker is not None:
            worker.terminate()
            worker.wait(timeout=10)


if __name__ == "__main__":
    main()
