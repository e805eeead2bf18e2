"""Every game the service offers, by name."""

from domain.danger import RULES as DANGER
from domain.kernel import GameRules

GAMES: dict[str, GameRules] = {rules.name: rules for rules in (DANGER,)}
