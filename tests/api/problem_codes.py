"""Every problem answer the API tests meet, checked against the codes the spec lists for its
operation and status (tests/api/conftest.py records them; so does tests/api/test_schema.py).

A code the service answers with that the spec does not list is a lie of omission to every
client written against the spec: the check fails the run and names the request that got it.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from service.assembly.app import create_app
from service.http.problems import MEDIA
from service.infra.config import Settings


@cache
def spec() -> dict[str, Any]:
    app = create_app(Settings().replace(background=False), "redis://127.0.0.1:0/0")
    return json.loads(json.dumps(app.openapi_schema.to_schema()))


def listed(document: dict[str, Any]) -> dict[tuple[str, int], set[str]]:
    """(operationId, status) -> the codes the spec gives an example of."""
    out: dict[tuple[str, int], set[str]] = {}
    for item in document["paths"].values():
        for operation in item.values():
            for status, response in operation["responses"].items():
                examples = (response.get("content") or {}).get(MEDIA, {}).get("examples", {})
                if examples:
                    out[(operation["operationId"], int(status))] = set(examples)
    return out


@dataclass(frozen=True)
class Route:
    method: str
    pattern: re.Pattern[str]
    operation: str


def routes(document: dict[str, Any]) -> list[Route]:
    """A matcher per operation: its path template, each parameter matching what its schema's
    type admits (a round's `n` is digits: /rounds/x is no round, Litestar answers 404)."""
    out = []
    for template, item in document["paths"].items():
        for method, operation in item.items():
            kinds = {
                p["name"]: p.get("schema", {}).get("type")
                for p in operation.get("parameters", [])
                if p.get("in") == "path"
            }

            def segment(match: re.Match[str], kinds: dict[str, Any] = kinds) -> str:
                return "(-?[0-9]+)" if kinds.get(match.group(1)) == "integer" else "([^/]+)"

            regex = re.sub(r"\\\{([A-Za-z_]+)\\\}", segment, re.escape(template))
            out.append(Route(method.upper(), re.compile(f"^{regex}$"), operation["operationId"]))
    return out


@dataclass(frozen=True)
class Seen:
    operation: str
    status: int
    code: str | None
    request: str


@dataclass
class ProblemLog:
    document: dict[str, Any]
    seen: dict[tuple[str, int, str | None], Seen] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.routes = routes(self.document)
        self.listed = listed(self.document)

    def operation_of(self, method: str, path: str) -> str | None:
        path = path.rstrip("/") or "/"
        for route in self.routes:
            if route.method == method.upper() and route.pattern.match(path):
                return route.operation
        return None  # no operation: an unknown path or method (404 not_found, 405)

    def answer(self, method: str, path: str, status: int, media: str, body: bytes) -> None:
        """One answer on the wire; only problem answers to an operation count."""
        operation = self.operation_of(method, path)
        if operation is None or not media.startswith(MEDIA) or not body:
            return
        try:
            code = json.loads(body).get("code")
        except (ValueError, AttributeError):
            code = None
        self.seen_answer(operation, status, code, f"{method.upper()} {path}")

    def seen_answer(self, operation: str, status: int, code: str | None, request: str) -> None:
        self.seen.setdefault((operation, status, code), Seen(operation, status, code, request))

    def unlisted(self) -> list[Seen]:
        return [
            seen
            for (operation, status, code), seen in sorted(
                self.seen.items(), key=lambda kv: (kv[0][0], kv[0][1], str(kv[0][2]))
            )
            if code not in self.listed.get((operation, status), set())
        ]

    def report(self) -> str:
        return "\n".join(
            f"{s.operation} answered {s.status} `{s.code}` (first to {s.request}), which the "
            "spec does not list under that status (service/spec/error_codes.py, ERRORS)"
            for s in self.unlisted()
        )


LOG = ProblemLog(spec())
"""The session's answers, from every client in tests/api."""
