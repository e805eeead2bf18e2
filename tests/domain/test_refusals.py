"""Every refusal a game's rules give is declared once, beside its rule, and named by the game
(`GameRules.refusals`, from which the spec lists them: service/spec/error_codes.py); each
declaration's example is worded as a place that raises it words its message."""

from __future__ import annotations

import ast
import importlib
import re
from pathlib import Path
from types import ModuleType

import pytest

from domain.kernel import OptionsRefusal, Refusal
from domain.kernel.errors import MET_FIRST, OPTION_OUT_OF_RANGE
from domain.registry import GAMES

DOMAIN = Path(__file__).parents[2] / "domain"
PACKAGES = {rules.name: rules.decide.__module__.rsplit(".", 1)[0] for rules in GAMES.values()}

# Its example is the service's wording: the service gives the code first, for an option beyond
# its schema's bounds (service/wire/bodies.py); the rules give it for too many of a kind.
WORDED_BY_THE_SERVICE = {OPTION_OUT_OF_RANGE}


def modules(package: str) -> list[ModuleType]:
    folder = DOMAIN / package.removeprefix("domain.")
    return [importlib.import_module(f"{package}.{p.stem}") for p in sorted(folder.glob("*.py"))]


def source(module: ModuleType) -> str:
    """The module's source: a compiled module's file is the extension built from it."""
    return (DOMAIN.parent / f"{module.__name__.replace('.', '/')}.py").read_text()


def raised(module: ModuleType) -> list[tuple[Refusal, str, int]]:
    """Each refusal `module` raises (`raise NAME(message)`), with a pattern of its message."""
    out = []
    for node in ast.walk(ast.parse(source(module))):
        if not (isinstance(node, ast.Raise) and isinstance(node.exc, ast.Call)):
            continue
        called = node.exc.func
        refusal = getattr(module, called.id, None) if isinstance(called, ast.Name) else None
        if isinstance(refusal, Refusal):
            out.append((refusal, pattern(node.exc.args[0]), node.lineno))
    return out


def pattern(node: ast.expr) -> str:
    """A message as a regex: its literal parts as they are, each value put in any text."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return re.escape(node.value)
    if isinstance(node, ast.JoinedStr):
        return "".join(
            pattern(part) if isinstance(part, ast.Constant) else ".+" for part in node.values
        )
    if isinstance(node, ast.IfExp):
        return f"(?:{pattern(node.body)}|{pattern(node.orelse)})"
    return ".+"


def everywhere() -> dict[Refusal, list[tuple[str, str]]]:
    """Each refusal the games raise: where, and its message's pattern there."""
    found: dict[Refusal, list[tuple[str, str]]] = {}
    for package in PACKAGES.values():
        for module in modules(package):
            for refusal, message, line in raised(module):
                found.setdefault(refusal, []).append((f"{module.__name__}:{line}", message))
    return found


@pytest.mark.parametrize("game", sorted(GAMES))
def test_a_game_names_every_refusal_its_rules_raise_and_no_other(game: str) -> None:
    rules = GAMES[game]
    named = set(rules.refusals.all())
    raised_here = {r for m in modules(PACKAGES[game]) for r, _, _ in raised(m)}
    assert raised_here - set(MET_FIRST) == named, game
    codes = [r.code for r in rules.refusals.all()]
    assert len(codes) == len(set(codes)), f"{game} names a code twice"
    assert all(isinstance(r, OptionsRefusal) for r in rules.refusals.check_options)
    assert not any(
        isinstance(r, OptionsRefusal) for r in (*rules.refusals.decide, *rules.refusals.setup)
    )


@pytest.mark.parametrize("game", sorted(GAMES))
def test_the_rules_refuse_through_their_declarations_only(game: str) -> None:
    """A RuleViolation or InvalidOptions made on the spot would give a code no declaration
    names, which the spec would not list."""
    for module in modules(PACKAGES[game]):
        for node in ast.walk(ast.parse(source(module))):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
                assert node.func.id not in ("RuleViolation", "InvalidOptions"), (
                    f"{module.__name__}:{node.lineno}: raise a Refusal declared beside the rule"
                )


def test_each_example_is_worded_as_a_place_that_raises_it_words_it() -> None:
    for refusal, places in everywhere().items():
        if refusal in WORDED_BY_THE_SERVICE:
            continue
        assert any(re.fullmatch(message, refusal.example) for _, message in places), (
            refusal.code,
            refusal.example,
            places,
        )
    assert not WORDED_BY_THE_SERVICE - set(everywhere()), "an exemption nothing raises"
