"""Danger Danger's greedy bot, in situations built from real states, and its invariants."""

import dataclasses
import random

import pytest

from domain.danger_danger import RULES
from domain.danger_danger.bots import greedy
from domain.danger_danger.invariants import invariants
from domain.danger_danger.messages import DrawCard, GoOut, PlayCard, Swap, Trash
from domain.danger_danger.rules import legal
from domain.danger_danger.view import view
from domain.simulation import play
from tests.domain.scenario import strict

from .scenario import given, when

PINK, YELLOW = 0, 1


def pick(state, seat: int):
    moves = legal(state, seat)
    choice = greedy(view(state, seat), seat, moves, random.Random(0))
    assert choice in moves
    return choice


def table():
    """Stacks P1 P1 P1 Y4x10 Y6 Y8; pink's Swap Card P1, its next card P5."""
    return given(pink=("1", "1", "1", "1", "5"), yellow=("4x10", "6", "8", "2"))


def test_a_card_covers_the_other_teams_biggest_case():
    state = table()
    when(state, PINK, DrawCard())
    # P5 fits Y4x10 and Y6: covering the 10 swings the lead by 11, the 6 by 2
    assert pick(state, PINK) == PlayCard(stack=3, on="Y4x10")


def test_a_card_that_fits_nowhere_is_swapped_for_one_that_fits():
    state = given(pink=("1", "1", "1", "5", "4"), yellow=("4x10", "6", "8", "2"))
    when(state, PINK, DrawCard())
    assert legal(state, PINK) == [Swap(), Trash()]  # P4 fits nothing; the Swap Card P5 does
    assert pick(state, PINK) == Swap()


def test_with_the_other_team_out_nothing_will_open_up_so_the_cheaper_card_is_trashed():
    state = given(pink=("1", "1", "1", "4", "4x10"), yellow=("4x10", "6", "8", "2"))
    when(state, YELLOW, GoOut())
    when(state, PINK, DrawCard())
    assert legal(state, PINK) == [Swap(), Trash()]  # neither P4x10 nor the Swap Card P4 fits
    assert pick(state, PINK) == Swap()  # the 10 is kept back as the Swap Card
    when(state, PINK, Swap())
    assert pick(state, PINK) == Trash()  # waiting is no use: the board will not change


def test_once_the_other_team_is_out_it_plays_until_it_leads_then_goes_out():
    state = table()
    when(state, YELLOW, GoOut())
    assert state.teams["yellow"].out
    assert pick(state, PINK) == DrawCard()  # 3 Cases against 12: going out would lose
    when(state, PINK, DrawCard())
    when(state, PINK, pick(state, PINK))
    assert pick(state, PINK) == GoOut()  # 4 against 2


def test_with_the_other_team_still_in_an_early_lead_is_not_banked():
    state = given(pink=("1", "1", "1", "1", "5"), yellow=("2", "6", "8", "2"))
    when(state, PINK, DrawCard())
    when(state, PINK, pick(state, PINK))
    assert state.teams["pink"].holding is None
    assert pick(state, PINK) == DrawCard()


@pytest.mark.parametrize(
    ("bots", "seed"),
    [(["greedy", "random"], 1), (["random", "greedy"], 2), (["greedy", "random"] * 4, 3)],
)
def test_greedy_only_ever_sends_a_legal_move_in_whole_games(bots, seed):
    calls: list[int] = []
    rules = dataclasses.replace(RULES, greedy=strict(greedy, calls))
    played = play(rules, bots, bytes([seed]) * 32, random.Random(seed))
    assert calls
    assert any(played.won)


def test_a_dealt_and_a_played_state_keep_every_invariant():
    state = table()
    assert invariants(state) == []
    when(state, PINK, DrawCard())
    when(state, PINK, PlayCard(stack=3, on="Y4x10"))
    assert invariants(state) == []


def test_invariants_name_a_lost_card_a_fourth_token_and_a_card_held_by_nobody():
    state = table()
    state.teams["pink"].pile.pop()
    assert invariants(state) == ["pink's 31 cards are not its deck, each card once"]

    state = table()
    state.tokens["yellow"] = 4
    assert any("tokens" in problem for problem in invariants(state))

    state = table()
    state.teams["yellow"].holding = state.teams["yellow"].pile.pop(0)  # drawn by nobody
    assert invariants(state) == ["yellow holds Y1 with holder None"]

    state = table()
    state.stacks[0].append("Y5")
    assert any("not next to it" in problem for problem in invariants(state))
