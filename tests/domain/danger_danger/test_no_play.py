"""RULINGS, "Liveness and lifecycle": three rounds in a row replayed because the timer rang with
no command at all from either team end the game as abandoned; any command resets the count."""

from domain.danger_danger import RULES
from domain.danger_danger.messages import DrawCard, GoOut, RoundScored, TimerRang
from domain.kernel import AUDITOR
from domain.kernel import table as tables
from domain.kernel.table import GameAbandoned, SeedRevealed
from tests.domain.scenario import fire, started, types

from .scenario import given, ring, when

PINK, YELLOW = 0, 1


def test_a_third_round_in_a_row_with_no_command_ends_the_game_as_abandoned():
    state = given()
    first, second = ring(state), ring(state)
    assert types(first)[-1] == types(second)[-1] == "swap_card_laid"  # replayed, twice
    assert state.attempt == 3
    third = ring(state)
    assert third == [
        TimerRang(round=1, attempt=3),
        RoundScored(
            round=1,
            attempt=3,
            reason="timer",
            cases=None,
            winner=None,
            tokens={"pink": 0, "yellow": 0},
        ),
        GameAbandoned(reason="no_play", limit=None),
    ]
    assert state.phase == "over" and state.winner is None
    assert RULES.legal(state, PINK) == [] and RULES.timers(state) == []


def test_a_command_by_either_team_starts_the_count_again():
    state = given()
    ring(state)
    ring(state)
    when(state, YELLOW, DrawCard())  # attempt 3: one seat of one team plays
    assert types(ring(state))[-1] == "swap_card_laid"  # replayed: it was played in
    assert types(ring(state))[-1] == "swap_card_laid"  # 1 round with no command
    assert types(ring(state))[-1] == "swap_card_laid"  # 2
    assert isinstance(ring(state)[-1], GameAbandoned)  # 3


def test_going_out_is_a_command_too():
    state = given()
    ring(state)
    ring(state)
    when(state, PINK, GoOut())  # pink goes out; the timer then gives yellow's loss to pink
    events = ring(state)
    assert not any(isinstance(e, GameAbandoned) for e in events)
    assert state.tokens["pink"] == 1 and state.idle_replays == 0


def test_at_the_table_the_abandonment_reveals_the_seed_and_stops_the_game():
    table = started(RULES, 4)
    for _ in range(3):
        (timer,) = table.timer_ids()
        events = fire(table, RULES, timer)
    assert events[-2:] == [GameAbandoned(reason="no_play"), SeedRevealed(seed=bytes(32).hex())]
    assert table.status == "abandoned" and tables.is_over(table.status)
    assert table.timers == {} and tables.running_timers(table, RULES) == []
    assert all(tables.legal(table, RULES, seat) == [] for seat in range(4))
    # every reader sees the game as the auditor does, as at a finished game's end
    seen = tables.view(table, RULES, PINK)
    assert seen.status == "abandoned" and seen.seed == bytes(32).hex()
    assert seen.state == RULES.view(table.state, AUDITOR)
    assert seen.state.winner is None and seen.state.phase == "over"
