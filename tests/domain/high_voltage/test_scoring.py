"""The rulebook's zone table and its four "Examples" bullets, one test each, and two more sets."""

from domain.high_voltage.scoring import reasons, score, zones

TABLE = [13, 15, 18, 22, 23, 24, 39, 40, 44, 47, 48]


def by_colour(won):
    return {z.colour: z for z in zones(won)}


def test_the_example_for_four_players_scores_twelve():
    z = by_colour(TABLE)
    assert (z["10s"].safe, z["10s"].danger, z["10s"].catastrophic) == (13, [15, 18], [])
    assert (z["20s"].safe, z["20s"].catastrophic) == (None, [22, 23, 24])
    assert (z["30s"].safe, z["30s"].points) == (39, 9)
    assert (z["40s"].safe, z["40s"].danger, z["40s"].catastrophic) == (40, [44], [47, 48])
    # "13, 39 and 40 ... score 3, 9 and 0 points. Total: 12 points."
    assert score(TABLE) == 12


def test_39_and_40_are_not_neighbours_across_colours():
    assert by_colour([39, 40])["30s"].safe == 39 and by_colour([39, 40])["40s"].safe == 40


def test_card_10_enters_the_safe_zone_and_pushes_13_to_danger():
    z = by_colour([*TABLE, 10])["10s"]
    assert (z.safe, z.points) == (10, 0)
    assert 13 in z.danger


def test_card_28_enters_the_safe_zone_scoring_8():
    z = by_colour([*TABLE, 28])["20s"]
    assert (z.safe, z.points) == (28, 8)


def test_card_38_next_to_39_sends_both_to_catastrophe():
    z = by_colour([*TABLE, 38])["30s"]
    assert (z.safe, z.catastrophic, z.points) == (None, [38, 39], 0)


def test_card_41_next_to_40_makes_44_safe():
    z = by_colour([*TABLE, 41])["40s"]
    assert (z.safe, z.points) == (44, 4)
    assert z.catastrophic == [40, 41, 47, 48]


def test_21_22_25_29_scores_5():
    assert score([21, 22, 25, 29]) == 5


def test_12_18_25_26_33_42_47_scores_7():
    assert score([12, 18, 25, 26, 33, 42, 47]) == 7


def test_every_card_has_a_zone_and_a_reason():
    explained = reasons(TABLE)
    assert sorted(r.card for r in explained) == TABLE
    assert {r.card for r in explained if r.zone == "safe"} == {13, 39, 40}
    assert all(r.reason for r in explained)
