"""The rulebook's scoring examples (Anton, Bert, Chris), one test each, and the tie rules."""

from domain.danger.cards import COLOURS
from domain.danger.scoring import next_starter, score_round, winners
from domain.danger.state import Row

ANTON, BERT, CHRIS = 0, 1, 2


def rows(**by_colour: list[tuple[list[int], bool]]) -> list[dict]:
    """rows(red=[([11], False), ...]) -> per-seat rows; the bool marks a closed row."""
    seats: list[dict] = [{c: Row() for c in COLOURS} for _ in range(3)]
    for colour, per_seat in by_colour.items():
        for seat, (numbers, closed) in enumerate(per_seat):
            seats[seat][colour] = Row(
                cards=[f"{colour[0].upper()}{n}" for n in numbers], sum=sum(numbers), closed=closed
            )
    return seats


def row_of(scores, seat, colour):
    return next(s for s in scores if s.seat == seat and s.colour == colour)


def test_red_smallest_sum_is_discarded():
    # "Anton has achieved 11 points with his red card row, Bert 7 points, and Chris 13 points.
    # Bert must discard his red cards and he doesn't score the 7 points."
    scores, points = score_round(rows(red=[([9, 2], False), ([7], False), ([9, 4], False)]))
    assert [row_of(scores, s, "red").points for s in (ANTON, BERT, CHRIS)] == [11, 0, 13]
    assert row_of(scores, BERT, "red").reason == "smallest"
    assert points == [11, 0, 13]


def test_blue_closed_row_counts_zero_and_the_others_score():
    # "In the blue cards, Anton has had bad luck. His row is closed and it counts 0 points.
    # All the other players get the sum of their blue cards as points."
    scores, _ = score_round(rows(blue=[([9, 8], True), ([4], False), ([6, 5], False)]))
    assert [row_of(scores, s, "blue").points for s in (ANTON, BERT, CHRIS)] == [0, 4, 11]
    assert row_of(scores, ANTON, "blue").reason == "closed"


def test_green_tie_on_smallest_sum_fewer_cards_discards():
    # "Bert and Chris have only 3 points in their green card row... Bert has a "1" and a "2"...
    # Chris has a "3"... Chris' 3 points don't score while Bert's do."
    scores, _ = score_round(rows(green=[([8], False), ([1, 2], False), ([3], False)]))
    assert [row_of(scores, s, "green").points for s in (ANTON, BERT, CHRIS)] == [8, 3, 0]
    assert row_of(scores, CHRIS, "green").reason == "smallest_fewer_cards"
    assert row_of(scores, BERT, "green").reason == "more_cards"


def test_tie_on_sum_and_count_all_tied_discard():
    # "If the tied players have the same number of cards, they all discard their cards"
    scores, _ = score_round(rows(yellow=[([9], False), ([2, 3], False), ([4, 1], False)]))
    assert [row_of(scores, s, "yellow").points for s in (ANTON, BERT, CHRIS)] == [9, 0, 0]
    assert row_of(scores, BERT, "yellow").reason == "smallest_tied"


def test_a_player_without_the_colour_takes_part_as_zero():
    # RULINGS [house]: a player with no card of the colour takes part as 0 with 0 cards.
    scores, _ = score_round(rows(red=[([5], False), ([], False), ([9], False)]))
    assert [row_of(scores, s, "red").points for s in (ANTON, BERT, CHRIS)] == [5, 0, 9]
    assert row_of(scores, BERT, "red").discarded


def test_protected_rows_score_like_any_row():
    seats = rows(red=[([9, 2], False), ([7], False), ([9, 4], False)])
    seats[ANTON]["red"].protected = True
    scores, _ = score_round(seats)
    assert row_of(scores, ANTON, "red").points == 11


def test_every_row_has_a_reason_and_points_add_up():
    scores, points = score_round(
        rows(
            red=[([9, 2], False), ([7], False), ([9, 4], False)],
            blue=[([9, 8], True), ([4], False), ([6], False)],
        )
    )
    assert len(scores) == 12
    for seat in range(3):
        assert points[seat] == sum(s.points for s in scores if s.seat == seat)
    assert all(s.note for s in scores)


def test_lowest_score_starts_the_next_round():
    assert next_starter([30, 12, 20], previous=0) == 1


def test_tied_lowest_goes_clockwise_after_the_previous_starter():
    assert next_starter([10, 20, 10, 10], previous=0) == 2
    assert next_starter([10, 20, 10, 10], previous=2) == 3
    assert next_starter([10, 20, 30, 10], previous=3) == 0
    # the previous starter is looked at last
    assert next_starter([10, 20, 30], previous=0) == 0


def test_a_tied_game_is_shared():
    assert winners([40, 52, 52]) == [1, 2]
