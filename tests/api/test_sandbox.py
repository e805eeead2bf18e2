"""Sandbox games: a reproducible seed, a chosen stack, and both say so everywhere."""

from tests.players import deck, new_table


async def first_draws(table, n: int) -> list[str]:
    cards = []
    for _ in range(n):
        seat = (await table.state())["view"]["state"]["turn"]
        r = await table.send(seat, {"type": "draw"})
        cards += [e["data"]["card"] for e in r.json()["events"] if e["type"] == "card_drawn"]
        if r.json()["view"]["state"]["phase"] == "protect":
            await table.send(seat, {"type": "end_turn"})
    return cards


async def test_the_same_seed_deals_the_same_cards(client):
    seed = "ab" * 32
    one = await new_table(client, seats=2, seed=seed)
    two = await new_table(client, seats=2, seed=seed)
    other = await new_table(client, seats=2, seed="cd" * 32)
    assert await first_draws(one, 6) == await first_draws(two, 6)
    assert await first_draws(one, 6) != await first_draws(other, 6)


async def test_a_sandbox_deck_is_drawn_top_first(client):
    table = await new_table(client, seats=2, deck=deck("Y9", "B3", "R1"))
    assert await first_draws(table, 3) == ["Y9", "B3", "R1"]


async def test_sandbox_games_say_so_in_their_first_event_and_every_view(client):
    table = await new_table(client, seats=2, deck=deck("Y9"))
    events = (await client.get(f"/v1/games/{table.id}/events")).json()["events"]
    assert events[0]["type"] == "game_created"
    assert events[0]["data"]["sandbox"] is True and events[0]["data"]["verifiable"] is False
    assert "deck" not in events[0]["data"]["options"]  # the stack stays secret
    for reader in (None, 0, 1):
        view = (await table.state(reader))["view"]
        assert view["sandbox"] is True and view["verifiable"] is False
    plain = await new_table(client, seats=2)
    assert (await plain.state())["view"]["sandbox"] is False
