"""RULINGS, "Liveness and lifecycle": who may abandon a game, when, and what an abandoned game
is: over, with no winner, its standings as they stood, its seed revealed like a finished
game's."""

import msgspec
import pytest

from domain.danger import RULES as DANGER
from domain.danger.messages import Draw, EndTurn
from domain.danger_13 import RULES as DANGER_13
from domain.danger_danger import RULES as DANGER_DANGER
from domain.high_voltage import RULES as HIGH_VOLTAGE
from domain.kernel import AUDITOR, SPECTATOR, RuleViolation
from domain.kernel import table as tables
from domain.kernel.table import Abandon, GameAbandoned, SeedRevealed
from tests.domain.scenario import SHUFFLER, applied, opened, started

SEED = bytes(32).hex()


def abandon(table, rules, actor, reason, limit=None):
    command = Abandon(reason=reason, limit=limit)
    return applied(table, rules, tables.decide(table, rules, command, actor, SHUFFLER))


def refused(table, rules, actor, reason, limit=None) -> str:
    with pytest.raises(RuleViolation) as info:
        tables.decide(table, rules, Abandon(reason=reason, limit=limit), actor, SHUFFLER)
    return info.value.code


def test_the_admin_abandons_an_open_game_and_its_seed_is_revealed():
    table = opened(DANGER, joined=1)
    events = abandon(table, DANGER, "admin", "admin")
    assert events == [GameAbandoned(reason="admin", limit=None), SeedRevealed(seed=SEED)]
    assert table.status == "abandoned" and tables.is_over(table.status)
    assert tables.view(table, DANGER, SPECTATOR).seed == SEED
    with pytest.raises(RuleViolation) as info:
        tables.decide(table, DANGER, tables.Join(name="late"), "anyone", SHUFFLER)
    assert info.value.code == "game_not_open"
    with pytest.raises(RuleViolation) as info:
        tables.decide(table, DANGER, tables.Start(), "admin", SHUFFLER)
    assert info.value.code == "game_not_open"


def test_the_admin_may_abandon_only_an_open_game():
    table = started(DANGER)
    assert refused(table, DANGER, "admin", "admin") == "game_not_open"
    abandon(table, DANGER, "server", "idle", 60.0)
    assert refused(table, DANGER, "admin", "admin") == "game_not_open"


def test_each_reason_belongs_to_one_actor():
    table = started(DANGER)
    assert refused(table, DANGER, "admin", "idle", 60.0) == "abandon_not_allowed"
    assert refused(table, DANGER, "server", "admin") == "abandon_not_allowed"
    for actor in (0, 1, "anyone"):
        for reason in ("admin", "idle", "not_started", "max_events"):
            assert refused(table, DANGER, actor, reason, 1.0) == "abandon_not_allowed"


def test_an_unstarted_game_is_abandoned_while_open_only():
    table = opened(DANGER, joined=1)
    assert abandon(table, DANGER, "server", "not_started", 24.0)[0] == GameAbandoned(
        reason="not_started", limit=24.0
    )
    assert refused(started(DANGER), DANGER, "server", "not_started", 24.0) == "game_not_open"


def test_an_idle_game_is_abandoned_while_active_only_at_its_own_idle_minutes():
    assert refused(opened(DANGER), DANGER, "server", "idle", 60.0) == "game_not_active"
    table = started(DANGER)
    assert refused(table, DANGER, "server", "idle", 30.0) == "abandon_limit"
    assert refused(table, DANGER, "server", "idle", None) == "abandon_limit"
    assert abandon(table, DANGER, "server", "idle", 60.0)[0] == GameAbandoned(
        reason="idle", limit=60.0
    )
    assert refused(table, DANGER, "server", "idle", 60.0) == "game_not_active"


def test_max_events_once_the_log_with_its_two_closing_events_reaches_the_limit():
    table = started(DANGER)
    logged = table.events + 1  # game_created, 2 joins, game_started, the setup's events
    assert refused(table, DANGER, "server", "max_events", float(logged + 3)) == "abandon_limit"
    events = abandon(table, DANGER, "server", "max_events", float(logged + 2))
    assert events[0] == GameAbandoned(reason="max_events", limit=float(logged + 2))
    assert table.events + 1 == logged + 2
    assert refused(table, DANGER, "server", "max_events", 1.0) == "game_over"
    assert abandon(opened(DANGER), DANGER, "server", "max_events", 3.0)[0].reason == "max_events"


def test_a_server_abandonment_names_its_limit_and_the_admins_none():
    table = opened(DANGER)
    assert refused(table, DANGER, "server", "not_started", None) == "abandon_limit"
    assert refused(table, DANGER, "server", "not_started", 0.0) == "abandon_limit"
    assert refused(table, DANGER, "admin", "admin", 5.0) == "abandon_limit"


def test_an_abandoned_game_takes_no_command_and_shows_its_standings_as_they_stood():
    table = started(DANGER, 3, turn_seconds=30)
    while table.state.round == 1:  # every seat draws and ends its turn: round 1 is scored
        seat = table.state.turn
        command = Draw() if table.state.phase == "draw" else EndTurn()
        applied(table, DANGER, tables.decide(table, DANGER, command, seat, SHUFFLER))
    totals = table.state.last_round.totals
    assert any(totals) and table.timers  # points were scored; the turn clock runs
    abandon(table, DANGER, "server", "idle", 60.0)
    assert table.timers == {} and tables.running_timers(table, DANGER) == []
    for seat in range(3):
        assert tables.legal(table, DANGER, seat) == []
        with pytest.raises(RuleViolation) as info:
            tables.decide(table, DANGER, Draw(), seat, SHUFFLER)
        assert info.value.code == "game_not_active"
    seen = tables.view(table, DANGER, 1)
    assert seen.status == "abandoned"
    whole = DANGER.view(table.state, AUDITOR)  # the whole log is public now
    assert whole.to_act == [table.state.turn]  # the state stands where a seat was to act,
    assert seen.state.to_act == [] and seen.state.turn is None  # but no seat may act now
    assert seen.state == msgspec.structs.replace(whole, to_act=[], turn=None)
    assert seen.state.stack is not None
    assert seen.state.totals == totals and seen.state.winners is None  # no winner


@pytest.mark.parametrize("rules", [HIGH_VOLTAGE, DANGER_DANGER, DANGER_13])
def test_every_game_can_be_abandoned_while_it_runs(rules):
    table = started(rules, 4)
    assert tables.view(table, rules, 0).state.to_act
    abandon(table, rules, "server", "idle", 60.0)
    assert table.status == "abandoned" and tables.view(table, rules, 0).seed == SEED
    seen = tables.view(table, rules, 0).state
    assert seen.to_act == [] and seen.turn is None and seen.winners is None
