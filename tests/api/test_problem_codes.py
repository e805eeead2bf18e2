"""The codes of problem answers: what each means, and that the spec lists each."""

from __future__ import annotations

import ast
import importlib
import json
from pathlib import Path

from domain.kernel import Refusal
from service.http import problems
from service.spec import error_codes
from service.wire import bodies
from tests.api.problem_codes import ProblemLog, spec

ROOT = Path(__file__).parents[2]
PROBLEM = problems.MEDIA

# Codes no request to an operation can meet, and why: they are listed nowhere.
UNLISTED = {
    "internal": "500: a failure of the server, not an answer an operation documents",
    "not_found": "no operation: a path the API does not have",
    "method_not_allowed": "no operation: a method a path does not take",
    "too_many_requests": "Litestar's own rate limiter, which the service does not use",
    "not_a_seat": "a game command is always decided for a seat (the command path's actor)",
    "unknown_command": "another game's command is refused first (not_this_games_command)",
    "no_such_bot": "the join's schema admits only the bots every game has",
    "abandon_not_allowed": "the admin abandons only for `admin`; the service's own reasons "
    "are decided by the service",
    "abandon_limit": "the limit of an abandonment is the service's to name, never a client's",
}


async def test_a_missing_parameter_is_invalid_parameter_not_invalid_body(client):
    r = await client.get("/v1/games/Kz3qX9aB2cD4/replay")
    assert (r.status_code, r.json()["code"]) == (400, "invalid_parameter")
    assert "seq" in r.json()["detail"]
    r = await client.post("/v1/games", content=b"{", headers={"content-type": "application/json"})
    assert (r.status_code, r.json()["code"]) == (400, "invalid_body")


def _literal_codes() -> dict[str, set[str]]:
    """Every code a source file gives a refusal, read from the source: the service's
    ApiError and problem() calls and its tables of codes, the table's RuleViolation and
    InvalidOptions, and every Refusal the domain declares (the games' rules raise theirs
    through them alone: tests/domain/test_refusals.py)."""
    found: dict[str, set[str]] = {}
    for source in sorted((ROOT / "domain").rglob("*.py")):
        where = source.relative_to(ROOT)
        parts = where.with_suffix("").parts
        module = importlib.import_module(".".join(parts[:-1] if parts[-1] == "__init__" else parts))
        for value in vars(module).values():
            if isinstance(value, Refusal):
                found.setdefault(value.code, set()).add(str(where))
    calls = {"ApiError", "problem", "RuleViolation", "InvalidOptions"}
    for folder in ("service", "domain"):
        for source in sorted((ROOT / folder).rglob("*.py")):
            for node in ast.walk(ast.parse(source.read_text())):
                if not isinstance(node, ast.Call):
                    continue
                called = getattr(node.func, "id", getattr(node.func, "attr", None))
                if called not in calls:
                    continue
                position = 0 if called in ("RuleViolation", "InvalidOptions") else 1
                if len(node.args) <= position:
                    continue
                argument = node.args[position]
                for constant in ast.walk(argument):  # a literal, or either branch of an `if`
                    if isinstance(constant, ast.Constant) and isinstance(constant.value, str):
                        found.setdefault(constant.value, set()).add(str(source.relative_to(ROOT)))
    for code in [*problems._HTTP_CODES.values(), *bodies.OUT_OF_RANGE.values()]:
        found.setdefault(code, set()).add("service/http/problems.py, service/wire/bodies.py")
    return found


def test_every_code_the_service_can_answer_with_is_listed_for_an_operation():
    sources = _literal_codes()
    assert {"game_full", "not_your_turn", "invalid_deck", "stale_seq", "busy"} <= set(sources)
    listed = {code for codes in error_codes.ERRORS.values() for c in codes.values() for code in c}
    unlisted = {code: where for code, where in sources.items() if code not in listed}
    assert set(unlisted) - set(UNLISTED) == set(), {
        code: where for code, where in unlisted.items() if code not in UNLISTED
    }
    assert set(UNLISTED) <= set(sources), "an exemption for a code nothing gives any more"
    assert not set(UNLISTED) & listed, "an exempt code that is listed after all"
    assert set(error_codes.CODES) <= set(sources), "a code in the catalogue nothing gives"


def test_an_answer_with_an_unlisted_code_fails_the_check():
    log = ProblemLog(spec())
    body = json.dumps({"code": "game_full"}).encode()
    log.answer("POST", "/v1/games/Kz3qX9aB2cD4/players", 409, PROBLEM, body)
    log.answer("GET", "/v1/games/Kz3qX9aB2cD4/rounds/2", 404, PROBLEM, b'{"code":"no_such_round"}')
    log.answer("GET", "/v1/games/Kz3qX9aB2cD4/rounds/x", 404, PROBLEM, b'{"code":"not_found"}')
    assert log.unlisted() == []
    log.answer("POST", "/v1/games/Kz3qX9aB2cD4/players", 409, PROBLEM, b'{"code":"invented"}')
    log.answer("GET", "/v1/games/Kz3qX9aB2cD4", 404, PROBLEM, b'{"code":"game_full"}')
    log.answer("GET", "/v1/games/Kz3qX9aB2cD4/events", 400, PROBLEM, b'{"title":"no code"}')
    assert [(s.operation, s.status, s.code) for s in log.unlisted()] == [
        ("getGame", 404, "game_full"),
        ("joinGame", 409, "invented"),
        ("listEvents", 400, None),
    ]
    assert "joinGame answered 409 `invented`" in log.report()
