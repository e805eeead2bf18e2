"""`danger openapi`: the spec, built as openapi/openapi.json holds it (the running service serves
that file; it never builds it)."""

from __future__ import annotations

import argparse
import sys


def openapi(_: argparse.Namespace) -> int:
    from service.spec.build import text  # built here and in the tests, never in a server

    sys.stdout.write(text())
    return 0


def add_parser(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser("openapi", help="print the OpenAPI spec the app serves")
    parser.set_defaults(run=openapi)
