"""Danger 13's greedy bot decides sensibly from its seat's view; invariants catch broken states."""

import dataclasses
import hashlib
import random

import pytest

from domain.danger_13 import RULES, Danger13State
from domain.danger_13.bots import greedy
from domain.danger_13.invariants import invariants
from domain.danger_13.messages import Accept, Give, Refuse
from domain.danger_13.view import Danger13View
from domain.kernel import Command
from domain.simulation import play
from tests.domain.scenario import SHUFFLER, strict

from .scenario import given, when


def deal(state: Danger13State, *targets: int) -> None:
    """The dealer of each packet gives its revealed cards to `targets` in turn (the last card
    of a packet goes by itself); a seat holding a hand accepts what reaches it."""
    for target in targets:
        when(state, state.dealer, Give(seat=target))
        while state.pending is not None:
            when(state, state.pending.seat, Accept())


def decision(state: Danger13State, seat: int) -> Command:
    moves = RULES.legal(state, seat)
    view = RULES.view(state, seat)
    assert isinstance(view, Danger13View)
    move = greedy(view, seat, moves, random.Random(0))
    assert move in moves
    return move


def test_the_dealer_keeps_a_pure_plus_card():
    state = given("++", "4", "1", seats=3)
    assert decision(state, 0) == Give(seat=0)


def test_the_dealer_keeps_a_plus_card_it_can_afford():
    state = given("++3", "4", seats=2)
    assert decision(state, 0) == Give(seat=0)


def test_the_dealer_gives_a_high_plain_card_away():
    state = given("4", "++3", seats=2)
    assert decision(state, 0) == Give(seat=1)


def test_the_dealer_busts_the_seat_with_most_to_lose():
    # seat 1 collects ++4, +4, 4, +0: 12 with four signs; seat 0 has 6 with a +2 to bank.
    state = given("++4", "+2", "+4", "1", "4", "2", "1", "+0", "3", seats=2)
    deal(state, 1, 1, 1, 0)
    assert state.dealer == 0 and state.packet[0] == "3"
    assert state.rows == [["+2", "1", "2", "1"], ["++4", "+4", "4", "+0"]]
    assert decision(state, 0) == Give(seat=1)


def test_a_hand_refuses_a_card_that_would_bust_its_seat():
    # seat 0: hand, ++5, 4, 3 (12, two signs); then a 2 reaches it. Seat 1 has five signs that
    # it would bank if seat 0 busted.
    state = given("hand", "+1", "++5", "+1", "4", "+1", "3", "+0", "+0", "2", seats=2)
    deal(state, 0, 0, 0, 0)
    when(state, 0, Give(seat=1))
    assert state.pending is not None and state.pending.card == "2"
    assert state.rows[0] == ["hand", "++5", "4", "3"]
    assert decision(state, 0) == Refuse()


def test_a_hand_accepts_a_pure_plus_card():
    state = given("hand", "1", "++", "1", seats=2)
    deal(state, 0)
    when(state, 1, Give(seat=0))
    assert state.pending is not None and state.pending.card == "++"
    assert decision(state, 0) == Accept()


@pytest.mark.parametrize("bots", [["greedy", "random"], ["random", "greedy", "greedy", "random"]])
def test_greedy_plays_legal_moves_through_whole_games(bots):
    rules = dataclasses.replace(RULES, greedy=strict(greedy))
    for n in range(2):
        seed = hashlib.sha256(f"bots:{n}".encode()).digest()
        played = play(rules, bots, seed, random.Random(n))
        assert any(played.won)


def test_invariants_hold_in_a_fresh_game_and_report_a_missing_card():
    state = given("4", "1", "2", seats=3)
    assert invariants(state) == []
    state.pile.pop()
    assert any("not the deck" in p for p in invariants(state))


def test_invariants_hold_between_the_events_of_a_bust_and_report_one_left_in_play():
    state = given("4", "1", "4", "1", "4", "1", "1", "2", seats=2)
    deal(state, 1, 1, 1)
    for event in RULES.decide(state, Give(seat=1), state.dealer, SHUFFLER):  # the 1 makes seat 1 13
        RULES.evolve(state, event)
        assert invariants(state) == [], type(event).__name__
    assert state.round == 2 and state.revealed
    state.rows[1] = ["4", "4", "4", "1"]
    assert "seats [1] reached their limit and play goes on" in invariants(state)


def test_invariants_check_the_winners():
    state = given("++", "4", seats=2)
    when(state, 0, Give(seat=0))
    state.phase, state.revealed, state.winners = "over", False, [1]
    state.rows = [[], []]
    assert "winners [1], the won cards make [0]" in invariants(state)
