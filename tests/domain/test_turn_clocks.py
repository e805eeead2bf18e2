"""Turn clocks (option `turn_seconds`): the documented default action of each turn game, and
the table's rule that a timer no longer running is stale."""

from domain.danger import RULES as DANGER
from domain.danger.messages import CardDrawn, Draw, EndTurn, RowProtected, TurnEnded
from domain.danger_13 import RULES as DANGER_13
from domain.danger_13.messages import CardGiven, Give
from domain.high_voltage import RULES as HIGH_VOLTAGE
from domain.high_voltage.messages import CardPlayed, CardsPicked
from domain.kernel import table as tables
from tests.domain.scenario import SHUFFLER, fire, started


def only_timer(table):
    (timer_id,) = table.timer_ids()
    return timer_id


def test_no_turn_clock_unless_asked_for():
    assert started(DANGER, 2).timer_ids() == {}


def test_danger_a_seat_out_of_time_draws_and_protects_nothing():
    table = started(DANGER, 3, turn_seconds=30)
    timer = only_timer(table)
    top = table.state.stack[0]
    events = fire(table, DANGER, timer)
    assert events[0] == CardDrawn(seat=0, card=top, source="stack")
    assert events[-1] == TurnEnded(seat=0, next=1)
    assert not any(isinstance(e, RowProtected) for e in events)
    assert table.state.turn == 1
    assert fire(table, DANGER, timer) == []  # the same timer again: stale, nothing happens


def test_danger_a_seat_out_of_time_after_drawing_ends_its_turn():
    table = started(DANGER, 2, turn_seconds=30)
    for event in tables.decide(table, DANGER, Draw(), 0, SHUFFLER):
        tables.evolve(table, DANGER, event)
    timer = only_timer(table)  # the same turn's clock: drawing did not restart it
    assert fire(table, DANGER, timer) == [TurnEnded(seat=0, next=1)]
    assert EndTurn() not in DANGER.legal(table.state, 0)


def test_high_voltage_the_seats_still_choosing_keep_their_lowest_cards():
    table = started(HIGH_VOLTAGE, 3, turn_seconds=30)
    first = sorted(table.state.packets[0])[:3]
    events = fire(table, HIGH_VOLTAGE, only_timer(table))
    picked = [e for e in events if isinstance(e, CardsPicked)]
    assert [p.seat for p in picked] == [0, 1, 2] and picked[0].cards == first
    assert table.state.stage == 2


def test_high_voltage_the_seat_to_play_plays_its_lowest_card():
    table = started(HIGH_VOLTAGE, 2, turn_seconds=30)
    while table.state.phase == "draft":
        fire(table, HIGH_VOLTAGE, only_timer(table))
    lowest = min(table.state.hands[table.state.turn])
    events = fire(table, HIGH_VOLTAGE, only_timer(table))
    assert events[0] == CardPlayed(seat=0, card=lowest)


def test_danger_13_a_dealer_out_of_time_gives_to_the_first_seat_without_a_card():
    from tests.domain.danger_13.scenario import given, when

    state = given("1", "2", "3", seats=3)
    when(state, 0, Give(seat=0))
    events = DANGER_13.on_timer(state, "give", SHUFFLER)
    assert events[0] == CardGiven(dealer=0, seat=1, card="2", forced=False)


def test_danger_13_a_seat_out_of_time_accepts_the_card():
    from domain.danger_13.messages import CardAccepted
    from tests.domain.danger_13.scenario import given, when

    state = given("hand", "1", "3", "1", seats=2)
    when(state, 0, Give(seat=1))
    when(state, 1, Give(seat=1))
    assert state.phase == "decide"
    events = DANGER_13.on_timer(state, "decide", SHUFFLER)
    assert events[0] == CardAccepted(seat=1, card="3")
