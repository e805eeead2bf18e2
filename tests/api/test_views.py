"""The fields every game's view shares (docs/views.md), as the REST API answers them: for
every reader, `to_act` is the seats the service answers a non-empty `legal` to and `turn` the
one of them, in games of all four kinds; a command's answer carries the same view."""

import random

import pytest

from tests.players import new_table

COMMANDS = 60


@pytest.mark.parametrize(
    ("game", "seats"), [("danger", 3), ("high-voltage", 3), ("danger-13", 3), ("danger-danger", 4)]
)
async def test_to_act_is_the_seats_the_service_offers_a_command(client, game, seats):
    table = await new_table(client, seats=seats, game=game)
    choose = random.Random(seats).choice
    for _ in range(COMMANDS):
        answers = [await table.state(seat) for seat in range(seats)]
        spectator = await table.state()
        if spectator["status"] != "active":
            break
        acting = [seat for seat, answer in enumerate(answers) if answer["legal"]]
        assert acting, "while the game runs, some seat may act"
        for answer in [*answers, spectator]:
            seen = answer["view"]["state"]
            assert seen["to_act"] == acting
            assert seen["turn"] == (acting[0] if len(acting) == 1 else None)
            assert seen["winners"] is None
            if game == "danger-13":  # won cards lie face down until the game is over
                assert seen["totals"] is None
            else:
                assert seen["totals"] == spectator["view"]["state"]["totals"]
                assert len(seen["totals"]) == seats
        seat = choose(acting)
        r = await table.send(seat, choose(answers[seat]["legal"]))
        assert r.status_code == 200, r.text
        after = r.json()["view"]["state"]
        assert after == (await table.state(seat))["view"]["state"]
