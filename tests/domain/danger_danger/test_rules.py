"""Danger Danger: stacks, the relay, swap and trash, going out, scoring and the timer."""

import pytest

from domain.danger_danger.cards import cases, check_deck, fits
from domain.danger_danger.messages import (
    CardPlayed,
    CardsSwapped,
    DrawCard,
    GameEnded,
    GoOut,
    NewStack,
    PlayCard,
    RoundScored,
    RoundStarted,
    Swap,
    TeamOut,
    TimerRang,
    Trash,
)
from domain.danger_danger.rules import legal
from domain.danger_danger.state import cases_showing
from domain.kernel import InvalidOptions, RuleViolation

from .scenario import given, refused, ring, when

PINK, YELLOW = 0, 1


def test_adjacent_numbers_fit_and_8_and_1_wrap_around():
    assert fits("P4", "Y3") and fits("P4", "Y5") and not fits("P4", "Y4") and not fits("P4", "Y6")
    assert fits("P1", "Y8") and fits("Y8", "P1") and not fits("P1", "Y7")


def test_setup_lays_three_stacks_a_team_and_a_swap_card():
    state = given(pink=("1", "2", "3", "4", "5"), yellow=("6", "7", "8", "1", "2"))
    assert [s[-1] for s in state.stacks] == ["P1", "P2", "P3", "Y6", "Y7", "Y8"]
    assert state.teams["pink"].swap == "P4" and state.teams["yellow"].swap == "Y1"
    assert state.teams["pink"].pile[0] == "P5"


def test_a_card_is_drawn_in_relay_order_and_played_on_either_teams_card():
    state = given(pink=("1", "2", "3", "4", "7", "5"), teams=("pink", "yellow", "pink", "yellow"))
    assert refused(state, 2, DrawCard()) == "not_your_relay"
    when(state, 0, DrawCard())
    assert refused(state, 2, DrawCard()) == "holding_card"
    assert refused(state, 2, PlayCard(stack=0, on="P1")) == "not_holding"
    # P7 fits no stack (P1 P2 P3 Y1 Y1 Y1): it can be swapped or trashed
    assert legal(state, 0) == [Swap(), Trash()]
    assert refused(state, 0, PlayCard(stack=0, on="P1")) == "does_not_fit"
    assert refused(state, 0, PlayCard(stack=0, on="P2")) == "stack_changed"
    assert when(state, 0, Swap()) == [CardsSwapped(team="pink", seat=0, took="P4", left="P7")]
    assert state.teams["pink"].holder == 0  # a swap does not pass the relay
    assert when(state, 0, PlayCard(stack=2, on="P3")) == [
        CardPlayed(team="pink", seat=0, card="P4", stack=2, on="P3")
    ]
    assert state.teams["pink"].seats[state.teams["pink"].relay] == 2  # the next member draws


def test_a_new_stack_card_may_start_a_stack():
    state = given(pink=("1", "2", "8", "4", "3n"))
    when(state, PINK, DrawCard())
    assert NewStack() in legal(state, PINK)
    when(state, PINK, NewStack())
    assert state.stacks[-1] == ["P3n"] and len(state.stacks) == 7
    when(state, PINK, DrawCard())
    assert refused(state, PINK, NewStack()) == "not_a_new_stack_card"


def test_trashed_cases_go_to_the_other_team():
    state = given(pink=("1", "1", "1", "1", "4x10"), yellow=("1", "1", "1", "1"))
    before = cases_showing(state)
    when(state, PINK, DrawCard())
    when(state, PINK, Trash())
    after = cases_showing(state)
    assert after["yellow"] == before["yellow"] + 10 and after["pink"] == before["pink"]


def test_the_rulebook_scoring_example_yellow_8_beats_pink_5():
    # "Yellow Team: 5+1+1+1 = 8 Cases. Pink Team: 1+1+1+1+1 = 5 Cases."
    state = given()
    state.stacks = [["Y2x5"], ["Y1"], ["Y3"], ["Y4"], ["P1"], ["P2"], ["P3"], ["P4"], ["P5"]]
    assert sum(cases(s[-1]) for s in state.stacks if s[-1][0] == "Y") == 8
    when(state, YELLOW, GoOut())
    events = when(state, PINK, GoOut())
    scored = next(e for e in events if isinstance(e, RoundScored))
    assert scored.cases == {"pink": 5, "yellow": 8} and scored.winner == "yellow"
    assert scored.tokens == {"pink": 0, "yellow": 1}
    assert RoundStarted(round=2, attempt=1) in events and state.round == 2


def test_going_out_needs_every_member_and_no_card_held():
    state = given(teams=("pink", "yellow", "pink", "yellow"))
    when(state, 0, DrawCard())
    assert refused(state, 2, GoOut()) == "holding_card"
    when(state, 0, Trash())
    assert when(state, 0, GoOut())[-1].__struct_config__.tag == "out_declared"
    assert not state.teams["pink"].out
    events = when(state, 2, GoOut())
    assert events[-1] == TeamOut(team="pink")
    assert refused(state, 0, DrawCard()) == "team_out"  # final
    assert legal(state, 0) == [] and legal(state, 2) == []


def test_a_draw_unflattens_the_teams_hands():
    state = given(teams=("pink", "yellow", "pink", "yellow"))
    when(state, 2, GoOut())
    events = when(state, 0, DrawCard())
    assert events[0].__struct_config__.tag == "declarations_cleared"
    assert state.teams["pink"].declared == []


def test_both_out_with_equal_cases_replays_the_round():
    state = given(pink=("1", "2", "3"), yellow=("5", "6", "7"))
    when(state, PINK, GoOut())
    events = when(state, YELLOW, GoOut())
    scored = next(e for e in events if isinstance(e, RoundScored))
    assert scored.cases == {"pink": 3, "yellow": 3} and scored.winner is None
    assert state.round == 1 and state.attempt == 2 and state.tokens == {"pink": 0, "yellow": 0}


def test_the_timer_with_one_team_in_gives_the_token_to_the_other():
    state = given()
    when(state, PINK, GoOut())
    events = ring(state)
    assert events[0] == TimerRang(round=1, attempt=1)
    scored = events[1]
    assert scored.reason == "timer" and scored.winner == "pink" and scored.cases is None
    assert state.round == 2


def test_the_timer_with_both_teams_in_loses_both_and_replays():
    state = given()
    events = ring(state)
    assert events[1].winner is None and state.round == 1 and state.attempt == 2


def test_the_first_team_to_three_tokens_wins():
    state = given()
    for _ in range(3):
        when(state, YELLOW, GoOut())
        events = ring(state)
    assert isinstance(events[-1], GameEnded) and events[-1].winner == "yellow"
    assert state.phase == "over"


def test_an_empty_pile_leaves_wait_swap_or_go_out():
    state = given()
    state.teams["pink"].pile.clear()
    assert refused(state, PINK, DrawCard()) == "pile_empty"
    assert legal(state, PINK) == [GoOut()]


def test_each_team_needs_one_to_four_players():
    from domain.danger_danger import RULES, DangerDangerOptions
    from domain.kernel import Shuffler

    with pytest.raises(RuleViolation) as info:
        RULES.setup(DangerDangerOptions(), 2, Shuffler(bytes(32)), teams=["pink", "pink"])
    assert info.value.code == "team_size"


def deck_refusal(composition: dict[str, int]) -> str | None:
    try:
        check_deck(composition)
    except InvalidOptions as exc:
        return exc.code
    return None


def test_a_deck_holds_at_most_twice_the_default_count_of_each_kind_of_card():
    # RULINGS counts the deck by kinds: 4 of each number, 3 showing 5 Cases, 1 showing 10,
    # 2 New Stack cards.
    assert deck_refusal({str(n): 8 for n in range(1, 9)}) is None
    assert deck_refusal({"3": 8, "3n": 1}) == "option_out_of_range"  # 9 threes
    assert deck_refusal({"2x5": 6, "1": 8}) is None
    assert deck_refusal({"2x5": 5, "3x5": 2, "1": 8}) == "option_out_of_range"  # 7 fives
    assert deck_refusal({"1x10": 1, "2x10": 1, "5": 8}) is None
    assert deck_refusal({"1x10": 1, "2x10": 1, "3x10": 1, "5": 8}) == "option_out_of_range"
    assert deck_refusal({"3n": 2, "6n": 2, "1": 8}) is None
    assert deck_refusal({"3n": 2, "6n": 2, "7n": 1, "1": 8}) == "option_out_of_range"
    assert deck_refusal({"9": 8}) == "invalid_deck"
    assert deck_refusal({"1": 7}) == "invalid_deck"  # fewer than 8 cards
