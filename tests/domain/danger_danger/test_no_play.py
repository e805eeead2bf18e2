"""RULINGS, "Liveness and lifecycle": three rounds in a row replayed because the timer rang with
no command at all from either team end the game as abandoned; any command resets the count."""

from domain.danger_danger import RULES
from domain.danger_danger.messages import DrawCard, GoOut, RoundScored, TimerRang
from domain.kernel import AUDITOR, Shuffler
from domain.kernel import table as tables
from domain.kernel.table import FireTimer, GameAbandoned, SeedRevealed

from .scenario import given, ring, when

PINK, YELLOW = 0, 1
SHUFFLER = Shuffler(bytes(32))


def types(events) -> list[str]:
    return [type(e).__struct_config__.tag for e in events]


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


def started(seats: int):
    created = tables.create(RULES, seats, RULES.options_type(), False, "c")[0]
    table = tables.from_created(RULES, created)
    for seat in range(seats):
        for event in tables.decide(table, RULES, tables.Join(name=f"p{seat}"), "anyone", SHUFFLER):
            tables.evolve(table, RULES, event)
    for event in tables.decide(table, RULES, tables.Start(), "admin", SHUFFLER):
        tables.evolve(table, RULES, event)
    return table


def test_at_the_table_the_abandonment_reveals_the_seed_and_stops_the_game():
    table = started(4)
    for _ in range(3):
        (timer,) = table.timer_ids()
        events = tables.decide(table, RULES, FireTimer(timer=timer), "server", SHUFFLER)
        for event in events:
            tables.evolve(table, RULES, event)
    assert events[-2:] == [GameAbandoned(reason="no_play"), SeedRevealed(seed=bytes(32).hex())]
    assert table.status == "abandoned" and tables.is_over(table.status)
    assert table.timers == {} and tables.running_timers(table, RULES) == []
    assert all(tables.legal(table, RULES, seat) == [] for seat in range(4))
    # every reader sees the game as the auditor does, as at a finished game's end
    seen = tables.view(table, RULES, PINK)
    assert seen.status == "abandoned" and seen.seed == bytes(32).hex()
    assert seen.state == RULES.view(table.state, AUDITOR)
    assert seen.state.winner is None and seen.state.phase == "over"
