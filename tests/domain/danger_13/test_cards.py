"""Danger 13's packet and every card's effect, given a pile, when the dealer gives."""

from domain.danger_13.cards import DEFAULT_DECK, cards_of, check_deck
from domain.danger_13.messages import (
    Accept,
    ArrowResolved,
    CardDrawn,
    CardGiven,
    CardPlaced,
    CardRefused,
    CardRevealed,
    CardWon,
    DecisionPending,
    GameEnded,
    Give,
    LimitReached,
    PacketReturned,
    Refuse,
    RoundScored,
    RoundStarted,
)
from domain.danger_13.rules import legal
from domain.kernel import InvalidOptions, visible

from .scenario import given, refused, when


def deal(state, *targets: int) -> list:
    """The dealer of each packet gives its revealed cards to `targets` in turn (the last
    card of a packet goes by itself)."""
    events = []
    for target in targets:
        events += when(state, state.dealer, Give(seat=target))
    return events


def test_the_default_deck_has_109_cards():
    assert len(cards_of(DEFAULT_DECK)) == 109


def test_the_packet_is_hidden_and_its_top_card_revealed():
    state = given("4", "1", seats=2)
    assert state.packet == ["4", "1"] and state.revealed and state.dealer == 0
    assert legal(state, 0) == [Give(seat=0), Give(seat=1)]
    assert legal(state, 1) == []


def test_each_seat_gets_one_card_of_a_packet_and_the_last_is_forced():
    state = given("4", "1", "2", "3", seats=2)
    events = when(state, 0, Give(seat=1))
    assert events[:3] == [
        CardGiven(dealer=0, seat=1, card="4", forced=False),
        CardPlaced(seat=1, card="4", sum=4, limit=13),
        CardRevealed(dealer=0, card="1"),
    ]
    assert events[3] == CardGiven(dealer=0, seat=0, card="1", forced=True)
    assert state.dealer == 1  # the left neighbour deals the next packet
    assert refused(state, 0, Give(seat=0)) == "not_the_dealer"


def test_a_seat_that_had_a_card_of_this_packet_cannot_get_another():
    state = given("4", "1", "2", "3", "2", seats=3)
    when(state, 0, Give(seat=2))
    assert refused(state, 0, Give(seat=2)) == "already_received"
    assert legal(state, 0) == [Give(seat=0), Give(seat=1)]


def test_reaching_13_with_a_plain_card_stops_the_round_at_once():
    # seat 1 gets 4, 4, 4 from three packets, then a 1: 13.
    state = given("4", "1", "4", "1", "4", "1", "1", "2", seats=2)
    deal(state, 1, 1, 1)
    assert state.rows[1] == ["4", "4", "4"]
    events = when(state, 1, Give(seat=1))
    assert events[1:4] == [
        CardPlaced(seat=1, card="1", sum=13, limit=13),
        LimitReached(seat=1, sum=13, limit=13),
        PacketReturned(count=1, cards=["2"]),
    ]
    scored = next(e for e in events if isinstance(e, RoundScored))
    assert scored.seat == 1 and scored.discarded[1] == ["4", "4", "4", "1"]
    assert next(e for e in events if isinstance(e, RoundStarted)) == RoundStarted(round=2, first=1)
    # the returned card went back on top of the pile: the next packet starts with it
    assert state.dealer == 1 and state.packet[0] == "2"


def test_reaching_13_with_a_card_draw_card_stops_before_its_extra_card():
    state = given("4", "1", "4", "1", "4", "1", "draw1", "2", "3", seats=2)
    deal(state, 1, 1, 1)
    events = when(state, 1, Give(seat=1))
    assert events[1] == CardPlaced(seat=1, card="draw1", sum=13, limit=13)
    assert events[2] == LimitReached(seat=1, sum=13, limit=13)
    assert not any(isinstance(e, CardDrawn) for e in events)


def test_a_card_draw_card_draws_and_resolves_the_next_card_of_the_pile():
    state = given("draw0", "1", "3", "2", seats=2)
    events = when(state, 0, Give(seat=1))
    assert events[:3] == [
        CardGiven(dealer=0, seat=1, card="draw0", forced=False),
        CardPlaced(seat=1, card="draw0", sum=0, limit=13),
        CardDrawn(seat=1, card="3"),
    ]
    assert events[3] == CardPlaced(seat=1, card="3", sum=3, limit=13)
    assert state.rows[1] == ["draw0", "3"]


def test_a_hand_refuses_a_card_draw_card():
    state = given("hand", "1", "draw2", "1", "5", seats=2)
    when(state, 0, Give(seat=1))  # seat 1 places its hand
    events = when(state, 1, Give(seat=1))
    assert events[-1] == DecisionPending(seat=1, card="draw2")
    assert legal(state, 1) == [Refuse(), Accept()] and legal(state, 1 - 1) == []
    assert refused(state, 0, Refuse()) == "not_your_decision"
    events = when(state, 1, Refuse())
    assert events[0] == CardRefused(seat=1, card="draw2")
    assert "hand" not in state.rows[1] and state.discard[-2:] == ["hand", "draw2"]
    assert not any(isinstance(e, CardDrawn) for e in events)
    # it still counts as seat 1's card of this packet: the next goes to seat 0 by itself
    assert events[1:3] == [
        CardRevealed(dealer=1, card="1"),
        CardGiven(dealer=1, seat=0, card="1", forced=True),
    ]


def test_a_hand_may_accept_the_card():
    state = given("hand", "1", "3", "1", seats=2)
    when(state, 0, Give(seat=1))
    when(state, 1, Give(seat=1))
    events = when(state, 1, Accept())
    assert events[1] == CardPlaced(seat=1, card="3", sum=3, limit=13)
    assert state.rows[1] == ["hand", "3"]


def test_the_hand_applies_to_the_extra_card_of_a_card_draw():
    state = given("hand", "1", "draw0", "1", "4", seats=2)
    when(state, 0, Give(seat=1))
    assert when(state, 1, Give(seat=1))[-1] == DecisionPending(seat=1, card="draw0")
    events = when(state, 1, Accept())
    assert events[-2:] == [CardDrawn(seat=1, card="4"), DecisionPending(seat=1, card="4")]


def test_13_to_18_keeps_a_seat_in():
    state = given("4", "1", "limit18", "1", "4", "1", "4", "1", "3", "1", seats=2)
    deal(state, 1, 1, 1, 1)
    assert state.rows[1] == ["4", "limit18", "4", "4"]
    events = when(state, 0, Give(seat=1))
    assert events[1] == CardPlaced(seat=1, card="3", sum=15, limit=18)
    assert not any(isinstance(e, LimitReached) for e in events)


def test_an_arrow_taking_the_13_to_18_card_away_checks_the_seat_at_once():
    state = given("4", "1", "4", "1", "3", "1", "limit18", "1", "arrow", "1", seats=2)
    deal(state, 1, 1, 1, 1)
    assert state.rows[1] == ["4", "4", "3", "limit18"]
    events = when(state, 0, Give(seat=1))
    assert events[1] == ArrowResolved(seat=1, removed="limit18", sum=11, limit=13)
    assert not any(isinstance(e, LimitReached) for e in events)
    state = given("4", "1", "4", "1", "limit18", "1", "3", "1", "2", "1", "arrow", "1", seats=2)
    deal(state, 1, 1, 1, 1, 1)
    assert state.rows[1] == ["4", "4", "limit18", "3", "2"]  # 13, under 18
    events = when(state, 1, Give(seat=1))
    assert events[1] == ArrowResolved(seat=1, removed="2", sum=11, limit=18)
    # (the only 13-to-18 card is the rightmost only if nothing was placed after it, so its
    # row sums less than 13 when an arrow takes it: the check finds no bust)


def test_an_arrow_on_an_empty_row_has_no_effect():
    state = given("arrow", "1", seats=2)
    events = when(state, 0, Give(seat=1))
    assert events[1] == ArrowResolved(seat=1, removed=None, sum=0, limit=13)
    assert state.rows[1] == [] and state.discard == ["arrow"]


def test_a_pure_plus_card_is_won_at_once_and_safe_for_ever():
    state = given("++", "1", seats=2)
    events = when(state, 0, Give(seat=1))
    assert events[1] == CardWon(seat=1, card="++")
    assert state.won[1] == ["++"] and state.rows[1] == []


def test_scoring_keeps_the_others_plus_cards_face_down():
    state = given("+2", "4", "++3", "4", "2", "4", "1", "1", seats=2)
    deal(state, 0, 0, 0)
    assert state.rows == [["+2", "++3", "2"], ["4", "4", "4"]]
    events = when(state, 1, Give(seat=1))
    won = [e for e in events if type(e).__name__ == "CardsWon"]
    assert won and won[0].seat == 0 and won[0].cards == ["+2", "++3"]
    assert visible(won[0], 1, revealed=False).cards is None and won[0].count == 2
    scored = next(e for e in events if isinstance(e, RoundScored))
    assert scored.discarded == [["2"], ["4", "4", "4", "1"]] and scored.won_counts == [2, 0]
    assert state.won[0] == ["+2", "++3"]


def test_pile_exhaustion_ends_the_game_at_the_next_scoring():
    deck = {"4": 8, "+1": 2, "1": 2}
    state = given("+1", "4", "4", "4", "4", "4", "+1", "1", "4", "4", "4", "1", seats=2, deck=deck)
    deal(state, 0, 1, 0, 1, 0)
    assert not state.final
    events = []
    while state.phase != "over":
        events += deal(state, state.received.index(False))
    assert any(type(e).__name__ == "PileShuffled" for e in events) and state.final
    ended = events[-1]
    assert isinstance(ended, GameEnded)
    assert ended.winners == [max(range(2), key=lambda s: (ended.plus_signs[s], ended.values[s]))]


def test_a_packet_that_empties_the_pile_makes_the_next_scoring_the_last():
    # RULINGS: "Empty draw pile: shuffle the discard pile in and continue; the game ends at
    # the next scoring." Eight 4s: the fourth packet takes the last two cards.
    state = given(*(["4"] * 8), seats=2, deck={"4": 8})
    events = deal(state, 1, 1)
    assert not state.final
    events += deal(state, 1)  # the third packet: two cards left
    events += deal(state, 1)  # the fourth takes them; seat 1 reaches 16
    assert state.final
    while state.phase != "over":
        events += deal(state, state.received.index(False))
    ended = events[-1]
    assert isinstance(ended, GameEnded)
    assert sum(isinstance(e, RoundScored) for e in events) == 1


def refusal(deck: dict[str, int], seats: int = 2) -> str | None:
    try:
        check_deck(deck, seats)
    except InvalidOptions as exc:
        return exc.code
    return None


def test_a_deck_whose_rounds_might_never_end_is_refused():
    # Arrows send cards round; two seats hold 12 each below 13: six 4s never need to bust.
    assert refusal({"arrow": 6, "4": 6}) == "invalid_deck"
    assert refusal({"hand": 8, "4": 6}) == "invalid_deck"  # refused cards go round too
    assert refusal({"arrow": 6, "4": 7}) is None  # 28 cannot all sit below the limits
    # A seat holding a 13-to-18 card holds 17: one such card lets two seats hold 29.
    assert refusal({"arrow": 1, "limit18": 1, "4": 7}) == "invalid_deck"
    assert refusal({"arrow": 1, "limit18": 1, "4": 8}) is None
    # Without arrows or hands every card stays where it lands and the pile runs out.
    assert refusal({"4": 6}) is None
    assert refusal(dict(DEFAULT_DECK), seats=5) is None


def test_a_deck_holds_at_most_twice_the_default_count_of_each_card():
    assert refusal({**DEFAULT_DECK, "hand": 2 * DEFAULT_DECK["hand"]}) is None
    assert refusal({**DEFAULT_DECK, "hand": 2 * DEFAULT_DECK["hand"] + 1}) == (
        "option_out_of_range"
    )
    assert refusal({**DEFAULT_DECK, "9": 1}) == "invalid_deck"
