"""The draft: 9 dealt, keep 3 and pass 6 left, keep 3 of the 6 received and pass 3 left."""

from domain.high_voltage.messages import CardsPassed, CardsPicked, Pick, Play, TrickStarted
from domain.high_voltage.rules import legal
from domain.kernel import visible

from .scenario import dealt, given, refused, when

S0 = [10, 11, 12, 13, 14, 20, 21, 22, 23]
S1 = [24, 30, 31, 32, 33, 34, 40, 41, 42]


def test_nine_cards_are_dealt_and_the_rest_leave_unseen():
    state = given(dealt(S0, S1), seats=2)
    assert state.packets == [S0, S1]
    assert sorted(state.undealt) == [43, 44]


def test_a_pick_is_hidden_from_the_others_until_everyone_has_picked():
    state = given(dealt(S0, S1), seats=2)
    events = when(state, 0, Pick(cards=[10, 20, 23]))
    assert events == [CardsPicked(seat=0, stage=1, cards=[10, 20, 23])]
    assert visible(events[0], 1, revealed=False).cards is None
    assert visible(events[0], "spectator", revealed=False).cards is None
    assert visible(events[0], 0, revealed=False).cards == [10, 20, 23]
    assert refused(state, 0, Pick(cards=[11, 12, 13])) == "already_picked"


def test_when_the_last_seat_picks_everyone_passes_six_to_the_left():
    state = given(dealt(S0, S1), seats=2)
    when(state, 0, Pick(cards=[10, 20, 23]))
    events = when(state, 1, Pick(cards=[24, 30, 40]))
    assert events[1:] == [
        CardsPassed(stage=1, seat=0, to=1, cards=[11, 12, 13, 14, 21, 22]),
        CardsPassed(stage=1, seat=1, to=0, cards=[31, 32, 33, 34, 41, 42]),
    ]
    assert visible(events[1], 1, revealed=False).cards == [11, 12, 13, 14, 21, 22]
    assert visible(events[1], "spectator", revealed=False).cards is None
    assert state.stage == 2
    assert state.packets == [[31, 32, 33, 34, 41, 42], [11, 12, 13, 14, 21, 22]]
    assert len(legal(state, 0)) == 20  # 3 of 6


def test_after_the_second_pick_each_hand_holds_nine_and_the_leader_plays():
    state = given(dealt(S0, S1), seats=2)
    when(state, 0, Pick(cards=[10, 20, 23]))
    when(state, 1, Pick(cards=[24, 30, 40]))
    when(state, 0, Pick(cards=[31, 33, 41]))
    events = when(state, 1, Pick(cards=[11, 14, 22]))
    assert events[-1] == TrickStarted(trick=1, leader=0)
    assert sorted(state.hands[0]) == sorted([10, 20, 23, 31, 33, 41, 12, 13, 21])
    assert sorted(state.hands[1]) == [11, 14, 22, 24, 30, 32, 34, 40, 42]
    assert legal(state, 0) == [Play(card=c) for c in sorted(state.hands[0])]


def test_a_pick_is_three_different_cards_of_those_offered():
    state = given(dealt(S0, S1), seats=2)
    assert len(legal(state, 0)) == 84  # 3 of 9
    assert refused(state, 0, Pick(cards=[10, 11])) == "pick_three"
    assert refused(state, 0, Pick(cards=[10, 10, 11])) == "pick_three"
    assert refused(state, 0, Pick(cards=[10, 11, 24])) == "card_not_offered"
    assert refused(state, 0, Play(card=10)) == "not_playing"


def test_the_decks_by_seat_count():
    from domain.high_voltage.cards import DECKS

    assert {n: len(d) for n, d in DECKS.items()} == {2: 20, 3: 28, 4: 40, 5: 50}
    assert max(DECKS[2]) == 44 and 15 not in DECKS[2]  # 2p: no 5s-9s, no 50s
    assert max(DECKS[3]) == 46 and 17 not in DECKS[3]  # 3p: no 7s-9s, no 50s
    assert 59 in DECKS[5] and 50 not in DECKS[4]
