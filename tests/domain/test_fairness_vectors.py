"""The per-game test vectors of docs/fairness.md, read from the document itself: each game is
set up through the table and its rules with the vector's seed and entropy, and every value
of the document's block must come out of it, so the text cannot drift from the rules."""

import json
import re
from pathlib import Path
from typing import Any

import msgspec
import pytest

from domain.danger.cards import FULL_DECK
from domain.danger.messages import Draw, EndTurn
from domain.danger_13 import rules as danger_13_rules
from domain.danger_13.cards import cards_of
from domain.danger_danger.cards import team_deck
from domain.danger_danger.messages import DrawCard
from domain.high_voltage.cards import DECKS
from domain.kernel import Event, Shuffler, commitment, event_type
from domain.kernel import table as tables
from domain.kernel.fairness import entropy_mix
from domain.registry import GAMES

DOC = Path(__file__).parents[2] / "docs" / "fairness.md"


def vectors() -> dict[str, Any]:
    """The JSON block under "## Test vectors per game"."""
    text = DOC.read_text(encoding="utf-8")
    found = re.search(r"^## Test vectors per game\n.*?^```json\n(.*?)^```", text, re.S | re.M)
    assert found, "docs/fairness.md has no JSON block under 'Test vectors per game'"
    return json.loads(found.group(1))


VECTORS = vectors()
SEED = bytes.fromhex(VECTORS["seed"])
BY_GAME = {v["game"]: v for v in VECTORS["games"]}
SHUFFLER = Shuffler(SEED, BY_GAME["danger"]["entropy"])


class Started:
    """A game through the table: joined with the vector's entropy, started, then commands."""

    def __init__(self, vector: dict[str, Any]) -> None:
        self.rules = GAMES[vector["game"]]
        options = self.rules.options_type()
        created = tables.create(self.rules, vector["seats"], options, False, commitment(SEED))
        self.table = tables.from_created(self.rules, created[0])
        self.log: list[Event] = [*created]
        teams = vector.get("teams")
        for seat, entropy in enumerate(vector["entropy"]):
            team = teams[seat] if teams else None
            self.act(tables.Join(name=f"p{seat}", entropy=entropy, team=team), "anyone")
        self.act(tables.Start(), "admin")

    def act(self, command: Any, actor: Any) -> list[Event]:
        shuffler = Shuffler(SEED, [p.entropy for p in self.table.players])
        events = tables.decide(self.table, self.rules, command, actor, shuffler)
        for event in events:
            tables.evolve(self.table, self.rules, event)
        self.log += events
        return events

    def of(self, kind: str) -> list[Any]:
        return [e for e in self.log if event_type(e) == kind]


def test_the_block_covers_every_game_with_the_documents_seed():
    assert set(BY_GAME) == set(GAMES)
    assert bytes(range(32)) == SEED
    for vector in VECTORS["games"]:
        assert entropy_mix(vector["entropy"]).hex() == vector["mix"]
        assert len(vector["entropy"]) == vector["seats"]


@pytest.mark.parametrize("game", sorted(GAMES))
def test_the_shuffles_inputs_and_orders(game):
    vector = BY_GAME[game]
    started = Started(vector)
    recorded = [e for e in started.log if event_type(e) in ("deck_shuffled", "pile_shuffled")]
    assert len(recorded) == len(vector["shuffles"])
    inputs = {
        "danger": lambda _: list(FULL_DECK),
        "high-voltage": lambda _: list(DECKS[vector["seats"]]),
        "danger-13": lambda _: cards_of(started.table.options.deck.counts()),
        "danger-danger": lambda team: team_deck(team, started.table.options.deck.counts()),
    }[game]
    for event, expected in zip(recorded, vector["shuffles"], strict=True):
        assert event_type(event) == expected["event"]
        assert getattr(event, "team", None) == expected.get("team")
        assert event.counter == expected["counter"]
        assert event.order == expected["order"] and event.size == len(expected["order"])
        assert inputs(expected.get("team")) == expected["input"]
        assert sorted(expected["input"]) == sorted(expected["order"])
        shuffler = Shuffler(SEED, vector["entropy"])
        assert shuffler.shuffle(expected["input"], expected["counter"]) == expected["order"]


def test_danger_the_first_turns_draw_the_stack_from_the_top():
    vector = BY_GAME["danger"]
    started = Started(vector)
    for draw in vector["first_draws"]:
        events = started.act(Draw(), draw["seat"])
        assert event_type(events[0]) == "card_drawn"
        assert (events[0].seat, events[0].card, events[0].source) == (
            draw["seat"],
            draw["card"],
            "stack",
        )
        if started.table.state.phase == "protect":
            started.act(EndTurn(), draw["seat"])
    order = vector["shuffles"][0]["order"]
    assert [d["card"] for d in vector["first_draws"]] == order[: len(vector["first_draws"])]


def test_high_voltage_seat_s_is_dealt_nine_cards_from_position_9s():
    vector = BY_GAME["high-voltage"]
    started = Started(vector)
    dealt = [(e.seat, e.cards) for e in started.of("hand_dealt")]
    assert dealt == [(h["seat"], h["cards"]) for h in vector["hands"]]
    order = vector["shuffles"][0]["order"]
    for hand in vector["hands"]:
        s = hand["seat"]
        assert hand["cards"] == sorted(order[9 * s : 9 * s + 9])


def test_danger_13_the_first_packet_is_the_top_of_the_pile():
    vector = BY_GAME["danger-13"]
    started = Started(vector)
    (packet,) = started.of("packet_drawn")
    assert (packet.dealer, packet.cards) == (vector["packet"]["dealer"], vector["packet"]["cards"])
    assert packet.cards == vector["shuffles"][0]["order"][: vector["seats"]]
    assert started.of("card_revealed")[0].card == packet.cards[0]


def test_danger_danger_stacks_swap_cards_and_draws_come_in_order():
    vector = BY_GAME["danger-danger"]
    started = Started(vector)
    (laid,) = started.of("stacks_laid")
    assert laid.stacks == vector["stacks"]
    swaps = {e.team: e.card for e in started.of("swap_card_laid")}
    assert swaps == vector["swap_cards"]
    orders = {s["team"]: s["order"] for s in vector["shuffles"]}
    assert laid.stacks == orders["pink"][:3] + orders["yellow"][:3]
    assert swaps == {team: order[3] for team, order in orders.items()}
    for draw in vector["first_draws"]:
        events = started.act(DrawCard(), draw["seat"])
        drawn = events[-1]
        assert (drawn.team, drawn.seat, drawn.card) == (draw["team"], draw["seat"], draw["card"])
        assert draw["card"] == orders[draw["team"]][4]


def folded(started: Started, example: dict[str, Any]) -> Any:
    """The game's state after its setup and the example's events."""
    union: Any = started.rules.events[0]
    for kind in started.rules.events[1:]:
        union = union | kind
    state = started.table.state
    for kind, data in example["events"]:
        started.rules.evolve(state, msgspec.convert({"type": kind, **data}, union))
    return state


def test_danger_the_reshuffle_example_is_the_discard_pile_the_rules_shuffle():
    vector = BY_GAME["danger"]
    started = Started(vector)
    example = vector["reshuffle_example"]
    state = folded(started, example)
    assert state.discard == example["pile"]
    state.stack, state.phase = [], "draw"  # the stack is used up: the next draw reshuffles
    shuffled, drawn = tables.decide(started.table, started.rules, Draw(), state.turn, SHUFFLER)[:2]
    assert (shuffled.reason, shuffled.counter) == ("reshuffle", example["counter"])
    assert shuffled.order == example["order"] and drawn.card == example["order"][0]


def test_danger_13_the_reshuffle_example_is_the_discard_pile_the_rules_shuffle():
    vector = BY_GAME["danger-13"]
    started = Started(vector)
    example = vector["reshuffle_example"]
    state = folded(started, example)
    assert state.discard == example["pile"]
    chain = danger_13_rules._Chain(state, Shuffler(SEED, vector["entropy"]))
    danger_13_rules._reshuffle(chain)
    (shuffled,) = chain.events
    assert (shuffled.reason, shuffled.counter) == ("reshuffle", example["counter"])
    assert shuffled.order == example["order"]
