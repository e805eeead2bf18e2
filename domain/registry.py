"""Every game the service offers, by name."""

from domain.danger import RULES as DANGER
from domain.danger_13 import RULES as DANGER_13
from domain.danger_danger import RULES as DANGER_DANGER
from domain.high_voltage import RULES as HIGH_VOLTAGE
from domain.kernel import GameRules

GAMES: dict[str, GameRules] = {
    rules.name: rules for rules in (DANGER, HIGH_VOLTAGE, DANGER_13, DANGER_DANGER)
}
