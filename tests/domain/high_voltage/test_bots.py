"""The greedy bot's decisions in tables played to a chosen point, its legality over whole
games, and the invariants catching a broken state."""

import dataclasses
import hashlib
import random

import msgspec
import pytest

from domain.high_voltage import RULES, HighVoltageState
from domain.high_voltage.bots import greedy, points
from domain.high_voltage.invariants import invariants
from domain.high_voltage.messages import HighVoltageRoundScored, Pick, Play
from domain.high_voltage.scoring import score
from domain.high_voltage.view import HighVoltageView
from domain.kernel import Command
from domain.simulation import play
from tests.domain.scenario import SHUFFLER, strict

from .scenario import dealt, given, when


def holding(*hands: list[int]) -> HighVoltageState:
    """A table whose seats end the draft holding `hands` (9 cards each, in any order): each
    seat keeps its first three at stage 1 and its next three at stage 2."""
    n = len(hands)
    deals = [hands[s][:3] + hands[(s + 1) % n][3:6] + hands[(s + 2) % n][6:] for s in range(n)]
    state = given(dealt(*deals), seats=n)
    for stage in (0, 1):
        for seat in range(n):
            when(state, seat, Pick(cards=sorted(hands[seat][3 * stage : 3 * stage + 3])))
    assert [sorted(h) for h in state.hands] == [sorted(h) for h in hands]
    return state


def plays(state: HighVoltageState, *cards: int) -> HighVoltageState:
    for card in cards:
        when(state, state.turn, Play(card=card))
    return state


def decision(state: HighVoltageState) -> Command:
    """The greedy move of the seat to act, the same whatever the dice (no tie decides it)."""
    seat = next(s for s in range(state.seats) if RULES.legal(state, s))
    moves = RULES.legal(state, seat)
    view = RULES.view(state, seat)
    assert isinstance(view, HighVoltageView)
    chosen = {msgspec.json.encode(greedy(view, seat, moves, random.Random(i))) for i in range(5)}
    assert len(chosen) == 1, chosen
    move = msgspec.json.decode(chosen.pop(), type=type(moves[0]))
    assert move in moves
    return move


def test_the_pile_score_agrees_with_the_scoring_zones():
    rng = random.Random(7)
    for _ in range(200):
        won = rng.sample(range(10, 60), rng.randint(0, 15))
        assert points(won) == score(won)


def test_in_the_draft_it_keeps_the_highest_and_lowest_cards():
    state = given(dealt([10, 11, 31, 32, 33, 34, 35, 36, 59], seats=5), seats=5)
    assert decision(state) == Pick(cards=[10, 11, 59])


# Two seats; seat 0 leads the first trick; 42 and 43 are never dealt.
H0 = [10, 30, 33, 21, 22, 31, 32, 14, 40]
H1 = [34, 11, 44, 41, 12, 13, 20, 24, 23]


def test_playing_last_it_takes_a_trick_that_scores_with_its_best_scoring_card():
    state = holding([14, 10, 21, 22, 24, 30, 31, 32, 34], [44, 23, 13, 11, 20, 41, 12, 43, 33])
    # 44 takes the 14 and scores 4 + 4; 23, 33 or 43 would score 4 + 3, and 13 would only
    # cancel seat 0's 14.
    assert decision(plays(state, 14)) == Play(card=44)


def test_playing_last_it_ducks_a_trick_that_would_cancel_its_safe_card():
    # Seat 1 won 10 + 34 (its 34 safe, 4 points); seat 0 won 11 + 30 (its 11 safe, 1 point).
    state = plays(holding(H0, H1), 10, 34, 11, 30)
    assert state.won == [[11, 30], [10, 34]]
    # Seat 0 leads 33, which would cancel seat 1's 34: 44 only breaks even and 24 hands
    # seat 0 four points, while 12 loses the trick and cancels seat 0's 11.
    plays(state, 33)
    assert decision(state) == Play(card=12)


def test_greedy_returns_a_legal_move_in_whole_games():
    checked: list[int] = []
    rules = dataclasses.replace(RULES, greedy=strict(greedy, checked))
    for seats, bots in (
        (2, ["greedy", "random"]),
        (3, ["greedy"] * 3),
        (5, ["random", "greedy"] * 3),
    ):
        for game in range(2):
            seed = hashlib.sha256(f"bots:{seats}:{game}".encode()).digest()
            played = play(rules, bots[:seats], seed, random.Random(game))
            assert any(played.won)
    assert len(checked) > 100


def mid_game() -> HighVoltageState:
    state = plays(holding(H0, H1), 10, 34, 11)
    assert invariants(state) == []
    return state


@pytest.mark.parametrize(
    "breakage, message",
    [
        (lambda s: s.hands[0].remove(30), "cards not conserved"),
        (lambda s: s.won[1].append(30), "cards not conserved"),
        (lambda s: (s.hands[0].remove(30), s.won[0].append(30)), "tricks"),
        (lambda s: setattr(s, "turn", 1), "turn 1"),
        (lambda s: setattr(s, "totals", [3, -1]), "negative"),
    ],
)
def test_invariants_report_a_broken_state(breakage, message):
    state = mid_game()
    breakage(state)
    problems = invariants(state)
    assert problems and any(message in p for p in problems), problems


def test_invariants_recount_the_round_just_scored():
    state = mid_game()
    while state.trick < 8 or len(state.plays) < state.seats - 1:
        plays(state, min(state.hands[state.turn]))
    last = RULES.decide(state, Play(card=min(state.hands[state.turn])), state.turn, SHUFFLER)
    for event in last[: [type(e) for e in last].index(HighVoltageRoundScored) + 1]:
        RULES.evolve(state, event)
    assert state.last_round is not None and invariants(state) == []
    first, *others = state.last_round.seats
    wrong = msgspec.structs.replace(first, points=first.points + 1)
    state.last_round = msgspec.structs.replace(state.last_round, seats=[wrong, *others])
    assert any("seat 0 scored" in p for p in invariants(state))
