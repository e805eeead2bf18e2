"""Tricks: any card, the highest takes the trick and leads; 8 tricks; the ninth card stays."""

import pytest

from domain.high_voltage.messages import (
    CardPlayed,
    GameEnded,
    HighVoltageRoundScored,
    LeaderDrawn,
    Play,
    RoundStarted,
    TrickStarted,
    TrickWon,
)
from domain.high_voltage.rules import _next_leader
from domain.high_voltage.scoring import score
from domain.kernel import RuleViolation
from tests.domain.scenario import SHUFFLER

from .scenario import dealt, draft_lowest, given, when

S0 = [10, 11, 12, 13, 14, 20, 21, 22, 23]
S1 = [24, 30, 31, 32, 33, 34, 40, 41, 42]
# After every seat keeps its lowest cards twice:
HAND0 = [10, 11, 12, 21, 22, 23, 32, 33, 34]
HAND1 = [13, 14, 20, 24, 30, 31, 40, 41, 42]


def ready(**options) -> object:
    state = given(dealt(S0, S1), seats=2, **options)
    draft_lowest(state)
    return state


def play_round(state) -> list:
    """Draft if need be, then each seat plays its highest card until the round is over."""
    draft_lowest(state)
    events = []
    start = state.round
    while state.round == start and state.phase != "over":
        events += when(state, state.turn, Play(card=max(state.hands[state.turn])))
    return events


def test_the_hands_after_the_draft():
    state = ready()
    assert sorted(state.hands[0]) == HAND0 and sorted(state.hands[1]) == HAND1


def test_the_highest_card_takes_the_trick_and_leads_the_next():
    state = ready()
    assert when(state, 0, Play(card=10)) == [CardPlayed(seat=0, card=10)]
    with pytest.raises(RuleViolation) as refused:
        when(state, 0, Play(card=11))
    assert refused.value.code == "not_your_turn"
    events = when(state, 1, Play(card=13))
    assert events[1:] == [
        TrickWon(trick=1, seat=1, card=13, cards=[10, 13]),
        TrickStarted(trick=2, leader=1),
    ]
    assert state.won[1] == [10, 13]


def test_any_card_may_be_played_but_only_from_the_hand():
    state = ready()
    with pytest.raises(RuleViolation) as refused:
        when(state, 0, Play(card=13))
    assert refused.value.code == "card_not_in_hand"
    when(state, 0, Play(card=34))
    assert when(state, 1, Play(card=13))[1].seat == 0  # no need to follow colour


def test_eight_tricks_then_scoring_and_the_ninth_card_is_never_played():
    state = ready()
    events = play_round(state)
    assert sum(isinstance(e, TrickWon) for e in events) == 8
    scored = next(e for e in events if isinstance(e, HighVoltageRoundScored))
    assert sum(len(s.won) for s in scored.seats) == 16  # of the 18 dealt
    assert scored.points == [score(s.won) for s in scored.seats]
    assert scored.points == [0, 4]  # seat 1 won every trick; only 44 is safe
    assert all(sorted(c.card for c in s.cards) == s.won for s in scored.seats)


def test_the_highest_total_leads_the_next_round():
    state = ready()
    events = play_round(state)
    scored = next(e for e in events if isinstance(e, HighVoltageRoundScored))
    started = next(e for e in events if isinstance(e, RoundStarted))
    assert scored.totals[0] != scored.totals[1]
    expected = 0 if scored.totals[0] > scored.totals[1] else 1
    assert started == RoundStarted(round=2, leader=expected)


def test_a_tie_for_the_lead_is_drawn_from_the_games_random_stream_and_recorded():
    points = next(e for e in play_round(ready()) if isinstance(e, HighVoltageRoundScored)).points
    state = ready()
    state.totals = [points[1], points[0]]  # so both totals are equal after the round
    events = play_round(state)
    drawn = next(e for e in events if isinstance(e, LeaderDrawn))
    assert drawn.tied == [0, 1]
    assert drawn.index == SHUFFLER.pick(2, drawn.counter)
    assert next(e for e in events if isinstance(e, RoundStarted)).leader == drawn.leader


def test_the_game_has_three_rounds_and_a_tie_is_shared():
    state = ready()
    for _ in range(3):
        events = play_round(state)
    ended = events[-1]
    assert isinstance(ended, GameEnded) and state.round == 3
    top = max(ended.totals)
    assert ended.winners == [s for s, t in enumerate(ended.totals) if t == top]


def test_team_mode_leader_is_the_best_player_of_the_leading_team():
    teams = [[0, 2], [1, 3]]
    # team 0 (seats 0+2) leads 30 to 25: its best player, seat 2, leads
    assert _next_leader([10, 20, 20, 5], [30, 25], teams) == [2]
    # team 1 leads 30 to 25: seat 1 leads, though seat 2 has as many points
    assert _next_leader([10, 20, 15, 10], [25, 30], teams) == [1]
    # teams tied: every seat is a candidate, and a tie among the best is drawn
    assert _next_leader([10, 15, 15, 10], [25, 25], teams) == [1, 2]


def test_team_mode_needs_four_seats():
    from domain.high_voltage import RULES, HighVoltageOptions
    from domain.kernel import InvalidOptions

    with pytest.raises(InvalidOptions):
        RULES.check_options(HighVoltageOptions(teams=True), 3)


def _tied_after_round_three(**options):
    import copy

    state = ready(**options)
    play_round(state)
    play_round(state)
    trial = copy.deepcopy(state)
    points = next(e for e in play_round(trial) if isinstance(e, HighVoltageRoundScored)).points
    state.totals = [points[1], points[0]]
    return state, play_round(state)


def test_a_tie_after_three_rounds_is_shared():
    _, events = _tied_after_round_three()
    ended = events[-1]
    assert isinstance(ended, GameEnded) and ended.winners == [0, 1]


def test_with_tiebreak_round_a_tie_plays_one_more_round():
    state, events = _tied_after_round_three(tiebreak_round=True)
    assert any(isinstance(e, RoundStarted) and e.round == 4 for e in events)
    assert state.rounds == 4
    events = play_round(state)
    assert isinstance(events[-1], GameEnded) and state.round == 4


def test_in_team_mode_the_team_with_the_highest_score_wins():
    from domain.high_voltage.cards import DECKS

    state = given(list(DECKS[4]), seats=4, teams=True)
    for _ in range(3):
        events = play_round(state)
    ended = events[-1]
    assert ended.team_totals == [
        ended.totals[0] + ended.totals[2],
        ended.totals[1] + ended.totals[3],
    ]
    best = 0 if ended.team_totals[0] > ended.team_totals[1] else 1
    assert ended.team_totals[0] != ended.team_totals[1]
    assert ended.winners == [[0, 2], [1, 3]][best]
