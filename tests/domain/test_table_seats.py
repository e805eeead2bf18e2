"""The table's seats: a join may choose its seat; a seat in play may resign, by its own
player only, once (docs/rulings.md, "Names at a table" 5 and "Resigning")."""

import pytest

from domain.danger import RULES as DANGER
from domain.danger_danger import RULES as DANGER_DANGER
from domain.high_voltage import RULES as HIGH_VOLTAGE
from domain.kernel import RuleViolation, builtins
from domain.kernel import table as tables
from tests.domain.scenario import SHUFFLER, applied, opened, started


def join(table, rules, name, **fields):
    command = tables.Join(name=name, **fields)
    return applied(table, rules, tables.decide(table, rules, command, "anyone", SHUFFLER))


def refused(table, rules, command, actor) -> str:
    with pytest.raises(RuleViolation) as info:
        tables.decide(table, rules, command, actor, SHUFFLER)
    return info.value.code


def test_a_join_takes_the_seat_it_asks_for_and_the_next_the_lowest_free():
    table = opened(DANGER, 4, joined=0)
    assert join(table, DANGER, "ann", seat=2)[0].seat == 2
    assert join(table, DANGER, "bob")[0].seat == 0
    assert [p.seat for p in table.players] == [0, 2]


def test_a_seat_taken_or_beyond_the_table_is_refused():
    table = opened(DANGER, 3, joined=0)
    join(table, DANGER, "ann", seat=1)
    assert refused(table, DANGER, tables.Join(name="bob", seat=1), "anyone") == "seat_taken"
    assert refused(table, DANGER, tables.Join(name="bob", seat=3), "anyone") == (
        "seat_out_of_range"
    )
    assert len(table.players) == 1


def test_a_chosen_seat_chooses_high_voltages_team_and_danger_dangers_default_team():
    table = opened(HIGH_VOLTAGE, 4, joined=0, teams=True)
    join(table, HIGH_VOLTAGE, "ann", seat=3)  # seats 1 and 3 play together
    assert table.players[0].seat == 3
    table = opened(DANGER_DANGER, 4, joined=0)
    assert join(table, DANGER_DANGER, "ann", seat=1)[0].team == "yellow"  # by seat, alternating
    assert join(table, DANGER_DANGER, "bob", seat=3, team="pink")[0].team == "pink"


def test_a_join_without_a_seat_records_the_command_as_before():
    assert "seat" not in builtins(tables.Join(name="ann"))


def test_only_the_seat_itself_resigns_and_only_while_the_game_is_played():
    table = opened(DANGER, 3)
    assert refused(table, DANGER, tables.Resign(seat=0), 0) == "game_not_active"
    table = started(DANGER, 3)
    assert refused(table, DANGER, tables.Resign(seat=0), 1) == "not_your_seat"
    assert refused(table, DANGER, tables.Resign(seat=0), "admin") == "not_your_seat"
    applied(table, DANGER, tables.decide(table, DANGER, tables.Resign(seat=0), 0, SHUFFLER))
    assert refused(table, DANGER, tables.Resign(seat=0), 0) == "already_resigned"
    view = tables.view(table, DANGER, 1)
    assert [(p.seat, p.resigned, p.bot) for p in view.players] == [
        (0, True, "greedy"),
        (1, False, None),
        (2, False, None),
    ]
    applied(table, DANGER, tables.decide(table, DANGER, tables.Resign(seat=1), 1, SHUFFLER))
    assert table.status == "finished" and table.state.winners == [2]
    assert refused(table, DANGER, tables.Resign(seat=2), 2) == "game_not_active"
