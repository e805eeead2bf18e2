"""Danger's turn, given a stack, when a seat sends a command, then these events or a refusal."""

from domain.danger.messages import (
    CardDiscarded,
    CardDrawn,
    CardPlaced,
    Draw,
    EndTurn,
    Protect,
    RoundEnded,
    RoundStarted,
    RowClosed,
    RowProtected,
    TakeDiscard,
    TurnEnded,
)
from domain.danger.rules import legal
from tests.domain.scenario import types

from .scenario import given, refused, when


def play_turns(state, seats_cards: int) -> None:
    """Every seat in turn draws and ends its turn, `seats_cards` times in all."""
    for _ in range(seats_cards):
        seat = state.turn
        when(state, seat, Draw())
        if state.phase == "protect":
            when(state, seat, EndTurn())


def test_a_drawn_card_goes_to_its_colour_row():
    state = given("R7")
    events = when(state, 0, Draw())
    assert events == [
        CardDrawn(seat=0, card="R7", source="stack"),
        CardPlaced(seat=0, card="R7", colour="red", sum=7),
    ]
    assert legal(state, 0) == [EndTurn()]


def test_only_the_seat_to_act_may_act():
    state = given("R7")
    assert refused(state, 1, Draw()) == "not_your_turn"


def test_draw_once_per_turn_and_protect_only_after_placing():
    state = given("R7")
    assert refused(state, 0, Protect(colour="blue")) == "draw_first"
    assert refused(state, 0, EndTurn()) == "draw_first"
    when(state, 0, Draw())
    assert refused(state, 0, Draw()) == "already_drawn"
    assert when(state, 0, EndTurn()) == [TurnEnded(seat=0, next=1)]


def test_exactly_fifteen_is_fine_over_fifteen_closes():
    state = given("R9", "B1", "B1", "R6", "B2", "B2", "R1", seats=3)
    play_turns(state, 3)
    events = when(state, 0, Draw())
    assert events[-1] == CardPlaced(seat=0, card="R6", colour="red", sum=15)
    when(state, 0, EndTurn())
    play_turns(state, 2)
    events = when(state, 0, Draw())
    assert events[-1] == RowClosed(seat=0, colour="red", sum=16)


def test_a_card_for_a_closed_row_is_discarded_and_only_the_next_seat_may_take_it():
    state = given("R9", "B1", "G1", "R9", "B2", "G2", "R1", seats=3)
    play_turns(state, 6)
    assert state.rows[0]["red"].closed
    events = when(state, 0, Draw())
    assert events == [
        CardDrawn(seat=0, card="R1", source="stack"),
        CardDiscarded(seat=0, card="R1", reason="row_closed"),
        TurnEnded(seat=0, next=1),
    ]
    assert TakeDiscard() in legal(state, 1)
    events = when(state, 1, TakeDiscard())
    assert events == [
        CardDrawn(seat=1, card="R1", source="discard"),
        CardPlaced(seat=1, card="R1", colour="red", sum=1),
    ]


def test_a_discard_not_taken_at_once_can_no_longer_be_taken():
    state = given("R9", "B1", "G1", "R9", "B2", "G2", "R1", "Y1", "Y2", seats=3)
    play_turns(state, 7)  # seat 0's R1 is discarded
    when(state, 1, Draw())
    when(state, 1, EndTurn())
    assert refused(state, 2, TakeDiscard()) == "no_discard_to_take"


def test_protecting_needs_two_cards_in_front():
    state = given("R5", "B1", seats=2)
    when(state, 0, Draw())
    assert refused(state, 0, Protect(colour="red")) == "drawn_colour"
    assert legal(state, 0) == [EndTurn()]


def test_protect_a_row_of_another_colour_than_the_card_drawn():
    state = given("R5", "B1", "B2", seats=2)
    play_turns(state, 2)
    when(state, 0, Draw())
    assert refused(state, 0, Protect(colour="blue")) == "drawn_colour"
    assert Protect(colour="red") in legal(state, 0)
    assert when(state, 0, Protect(colour="red")) == [
        RowProtected(seat=0, colour="red"),
        TurnEnded(seat=0, next=1),
    ]


def test_one_protection_per_turn():
    state = given("R5", "B1", "G2", "B2", "Y3", seats=2)
    play_turns(state, 4)
    when(state, 0, Draw())
    when(state, 0, Protect(colour="red"))
    assert refused(state, 1, Protect(colour="blue")) == "draw_first"


def test_a_card_for_a_protected_row_is_discarded():
    state = given("R5", "B1", "B2", "G1", "R3", seats=2)
    play_turns(state, 2)
    when(state, 0, Draw())
    when(state, 0, Protect(colour="red"))
    play_turns(state, 1)
    assert when(state, 0, Draw())[1] == CardDiscarded(seat=0, card="R3", reason="row_protected")
    assert refused(state, 1, Protect(colour="red")) == "draw_first"


def test_the_strictly_smallest_row_may_not_be_protected():
    # seat 0 red 5, seat 1 red 7: seat 0's red is the smallest.
    state = given("R5", "R7", "B2", seats=2)
    play_turns(state, 2)
    when(state, 0, Draw())
    assert refused(state, 0, Protect(colour="red")) == "smallest_row"


def test_nobody_may_protect_a_colour_whose_smallest_sum_is_shared():
    # three seats: seats 1 and 2 have no red, so the smallest red sum (0) is shared.
    state = given("R5", "B1", "B1", "B2", seats=3)
    play_turns(state, 3)
    when(state, 0, Draw())
    assert refused(state, 0, Protect(colour="red")) == "smallest_shared"


def test_an_empty_row_cannot_be_protected():
    state = given("R5", "B1", "R2", seats=2)
    play_turns(state, 2)
    when(state, 0, Draw())
    assert refused(state, 0, Protect(colour="green")) == "row_empty"


def _three_rows_closed_then(*last: str, seats_1: list[str] | None = None):
    """A stack on which seat 0 closes red and blue, then draws `last`; seat 1 stays low."""
    s0 = ["R9", "R9", "B9", "B9", *last]
    s1 = seats_1 or ["R1", "R1", "R1", "B1", "B1", "B1", "G1", "G1", "G1", "R2", "R2", "R2"]
    deck = [c for pair in zip(s0, s1[: len(s0)], strict=True) for c in pair]
    return deck


def test_the_fourth_row_needs_six_cards_in_it():
    deck = _three_rows_closed_then("Y1", "Y1", "Y1", "Y2", "Y2", "G9", "G9")
    state = given(*deck, seats=2)
    play_turns(state, 20)  # both seats have drawn all but seat 0's last G9
    when(state, 0, Draw())  # G9 closes green: yellow is seat 0's fourth row, 5 cards
    assert state.rows[0]["green"].closed
    assert refused(state, 0, Protect(colour="yellow")) == "fourth_row_too_short"


def test_with_fourth_row_needs_total_six_cards_in_front_suffice():
    deck = _three_rows_closed_then("Y1", "Y1", "Y1", "Y2", "Y2", "G9", "G9")
    state = given(*deck, seats=2, fourth_row_needs="total")
    play_turns(state, 20)
    when(state, 0, Draw())
    events = when(state, 0, Protect(colour="yellow"))
    assert types(events)[:3] == ["row_protected", "round_ended", "round_scored"]
    assert events[1] == RoundEnded(round=1, seat=0, reason="fourth_row_protected")


def test_protecting_the_fourth_row_ends_the_round_at_once():
    deck = _three_rows_closed_then("Y1", "Y1", "Y1", "Y2", "Y2", "Y2", "G9", "G9")
    state = given(*deck, seats=2)
    play_turns(state, 22)
    when(state, 0, Draw())
    events = when(state, 0, Protect(colour="yellow"))
    assert events[1] == RoundEnded(round=1, seat=0, reason="fourth_row_protected")
    scored = events[2]
    assert scored.points[0] == 9  # yellow 9 scores; red, blue, green are closed
    # seat 1 scores red 7, blue 3, green 3 against closed rows: 13, more than seat 0's 9
    assert scored.points == [9, 13]
    assert events[3] == RoundStarted(round=2, starter=0)
    assert state.round == 2 and state.turn == 0
    assert all(not row.cards for rows in state.rows for row in rows.values())


def test_closing_the_fourth_row_ends_the_round():
    deck = _three_rows_closed_then("G9", "G9", "Y9", "Y9")
    state = given(*deck, seats=2)
    play_turns(state, 14)
    events = when(state, 0, Draw())
    assert types(events)[:4] == ["card_drawn", "card_placed", "row_closed", "round_ended"]
    assert events[3] == RoundEnded(round=1, seat=0, reason="fourth_row_closed")


def test_an_empty_stack_is_refilled_from_the_shuffled_discard_pile():
    state = given("R9", "B1", "G1", "R9", "B2", "G2", "R1", seats=3)
    play_turns(state, 7)  # R1 discarded, takeable by seat 1
    pile = list(state.discard)
    state.stack.clear()  # given: the stack has run out
    events = when(state, 1, Draw())
    assert types(events)[:2] == ["deck_shuffled", "card_drawn"]
    assert events[0].reason == "reshuffle" and sorted(events[0].order) == sorted(pile)
    assert not state.discard


def test_with_no_card_left_anywhere_the_round_ends_and_is_scored():
    # docs/rulings.md: the stack and the discard pile both empty when a draw is needed.
    state = given("R5", "B1", seats=2)
    play_turns(state, 2)
    state.stack.clear()
    state.discard.clear()
    events = when(state, 0, Draw())
    assert events[0] == RoundEnded(round=1, seat=None, reason="no_cards")
    assert types(events)[1:3] == ["round_scored", "round_started"]


def test_the_last_discard_of_a_round_cannot_be_taken_in_the_next():
    deck = _three_rows_closed_then("G9", "G9", "Y9", "R1", "Y9")
    state = given(*deck, seats=2)
    play_turns(state, 15)  # seat 0's R1 goes to its closed red row: discarded
    assert state.takeable and state.discard == ["R1"]
    when(state, 1, Draw())
    when(state, 1, EndTurn())
    events = when(state, 0, Draw())  # Y9 closes seat 0's fourth row: the round ends
    assert RoundEnded(round=1, seat=0, reason="fourth_row_closed") in events
    assert not state.takeable
    assert TakeDiscard() not in legal(state, state.turn)


def test_a_discard_for_the_takers_closed_row_may_not_be_taken():
    # RULINGS (liveness): taking is legal only into an open row. Seat 1 closed red, seat 0
    # discards a red card: seat 1 may only draw.
    state = given("R9", "R9", "R9", "R9", "B9", "B2", "R3", seats=2)
    play_turns(state, 4)
    assert state.rows[0]["red"].closed and state.rows[1]["red"].closed
    play_turns(state, 2)
    when(state, 0, Draw())  # R3: seat 0's red is closed, so it is discarded
    assert state.takeable and state.discard[-1] == "R3"
    assert legal(state, 1) == [Draw()]
    assert refused(state, 1, TakeDiscard()) == "discard_would_not_place"
    assert state.discard[-1] == "R3" and state.turn == 1  # the refusal changed nothing
    assert when(state, 1, Draw())[0].source == "stack"


def test_a_discard_for_the_takers_protected_row_may_not_be_taken():
    # seats 0 and 1 both protect green; seat 0 then draws G9 and discards it
    state = given("G5", "G6", "B1", "R1", "R2", "B2", "G9", seats=3)
    play_turns(state, 3)
    when(state, 0, Draw())
    when(state, 0, Protect(colour="green"))
    when(state, 1, Draw())
    when(state, 1, Protect(colour="green"))
    play_turns(state, 1)
    events = when(state, 0, Draw())
    assert events[1] == CardDiscarded(seat=0, card="G9", reason="row_protected")
    assert TakeDiscard() not in legal(state, 1)
    assert refused(state, 1, TakeDiscard()) == "discard_would_not_place"
