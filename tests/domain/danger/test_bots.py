"""Danger's greedy bot decides sensibly from its seat's view; invariants catch broken states."""

import dataclasses
import hashlib
import random

import pytest

from domain.danger import RULES
from domain.danger.bots import greedy
from domain.danger.cards import Colour
from domain.danger.invariants import invariants
from domain.danger.messages import Draw, EndTurn, Protect, TakeDiscard
from domain.danger.state import DangerState
from domain.danger.view import DangerView
from domain.kernel import Command
from domain.simulation import play
from tests.domain.scenario import SHUFFLER, strict

from .scenario import given, when


def turns(state: DangerState, *protects: Colour | None) -> None:
    """Each seat in turn draws the next card, then protects that colour (or ends its turn)."""
    for colour in protects:
        seat = state.turn
        when(state, seat, Draw())
        if state.phase == "protect":
            when(state, seat, EndTurn() if colour is None else Protect(colour=colour))


def decision(state: DangerState) -> Command:
    seat = state.turn
    moves = RULES.legal(state, seat)
    view = RULES.view(state, seat)
    assert isinstance(view, DangerView)
    move = greedy(view, seat, moves, random.Random(0))
    assert move in moves
    return move


def test_a_row_the_next_card_would_likely_close_is_protected():
    # seat 0: red 9 + 2 = 11, then a green card; seat 1 only blue: red may be protected
    state = given("R9", "B1", "R2", "B2", "G1", seats=2)
    turns(state, None, None, None, None)
    when(state, 0, Draw())
    assert Protect(colour="red") in RULES.legal(state, 0)
    assert decision(state) == Protect(colour="red")


def test_a_low_row_stays_open():
    state = given("R1", "B1", "R2", "B2", "G1", seats=2)
    turns(state, None, None, None, None)
    when(state, 0, Draw())
    assert Protect(colour="red") in RULES.legal(state, 0)
    assert decision(state) == EndTurn()


def test_a_discard_that_wins_a_colour_is_taken():
    # seat 0 protects green 5, then draws G9, which is discarded: green 9 beats seat 0's 5
    state = given("G5", "B1", "R1", "B2", "G9", seats=2)
    turns(state, None, None, "green", None)
    when(state, 0, Draw())
    assert state.discard[-1] == "G9" and state.turn == 1
    assert decision(state) == TakeDiscard()


def test_a_discard_that_would_close_a_row_is_left():
    # seat 1 has red 13; seat 0 protects red 14 and discards R3, which would close seat 1's red
    state = given("R9", "R9", "R5", "R4", "G1", "Y1", "R3", seats=2)
    turns(state, None, None, None, None, "red", None)
    when(state, 0, Draw())
    assert state.discard[-1] == "R3" and TakeDiscard() in RULES.legal(state, 1)
    assert decision(state) == Draw()


def unseen(view, seat: int, moves: list[Command], dice) -> Command:
    assert view.stack is None, "a seat never sees the stack"
    return greedy(view, seat, moves, dice)


@pytest.mark.parametrize("bots", [["greedy", "random"], ["greedy", "random", "greedy"]])
def test_greedy_plays_legal_moves_through_whole_games(bots):
    rules = dataclasses.replace(RULES, greedy=strict(unseen))
    for n in range(2):
        seed = hashlib.sha256(f"bots:{n}".encode()).digest()
        played = play(rules, bots, seed, random.Random(n))
        assert any(played.won)


def test_invariants_hold_in_a_fresh_game_and_report_a_missing_card():
    state = given("R9", "B1", "R2", seats=3)
    turns(state, None, None, None)
    assert invariants(state) == []
    state.stack.pop()
    assert any("not the deck" in p for p in invariants(state))


def test_invariants_report_a_wrong_sum_and_a_row_over_fifteen_left_open():
    state = given("R9", "B1", "G1", "R2", seats=3)
    turns(state, None, None, None, None)
    state.rows[0]["red"].sum = 12
    assert invariants(state) == ["seat 0 red sum is 12, its cards make 11"]
    state.rows[0]["red"].cards += ["R7"]
    state.rows[0]["red"].sum = 18
    state.stack.remove("R7")
    assert invariants(state) == ["seat 0 red is at 18 and not closed"]


def test_invariants_hold_between_the_events_of_a_card_drawn_then_closing_a_row():
    state = given("R9", "B1", "R8", seats=2)
    turns(state, None, None)
    for event in RULES.decide(state, Draw(), 0, SHUFFLER):
        RULES.evolve(state, event)
        assert invariants(state) == [], type(event).__name__
    assert state.rows[0]["red"].closed
    state.rows[0]["red"].closed = False
    state.rows[0]["red"].protected = True
    state.phase = "draw"
    assert invariants(state) == ["seat 0 red is at 17 and not closed"]
