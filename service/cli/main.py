"""`danger`, the command line: each command is a module of its own beside this one, with its
arguments (`add_parser`)."""

from __future__ import annotations

import argparse
import sys

from service.cli import (
    audit,
    keys,
    openapi,
    projections,
    serve,
    signing_key,
    simulate,
    worker,
)
from service.infra import compiled


def main(argv: list[str] | None = None) -> int:
    compiled.check()
    parser = argparse.ArgumentParser(
        prog="danger",
        description="Serve the API (with its projections and worker), run the worker alone, "
        "audit an export, look after the read models, the app keys and the signing key, "
        "self-play, print the "
        "OpenAPI spec.",
    )
    sub = parser.add_subparsers(dest="command", required=True)
    for command in (serve, worker, audit, projections, keys, signing_key, simulate, openapi):
        command.add_parser(sub)
    args = parser.parse_args(argv)
    return int(args.run(args))


if __name__ == "__main__":
    sys.exit(main())
