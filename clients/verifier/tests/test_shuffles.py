"""danger_verify.shuffles against docs/fairness.md's vectors and against real games.

The games are played by the service's own rules and bots (domain.simulation) and sealed into
envelopes as the service seals them, then read back as an export's lines are: one dict per
envelope. The module under test imports nothing of the service; these tests do, to make the
games it checks.
"""

from __future__ import annotations

import copy
import json
import random
import re
from pathlib import Path
from typing import Any

import msgspec
import pytest
from danger_verify.shuffles import (
    Failure,
    draw_by_lot,
    entropy_mix,
    first_shuffle_failure,
    shuffle,
)

from domain import simulation
from domain.danger.cards import FULL_DECK
from domain.danger.messages import DangerOptions
from domain.kernel import Event, Shuffler, builtins, commitment
from domain.kernel import table as tables
from domain.registry import GAMES
from events.audit import audit
from events.envelope import GENESIS, Envelope, salt_for, seal

ROOT = Path(__file__).resolve().parents[3]
SEED = bytes(range(32))


def doc_vectors() -> dict[str, Any]:
    text = (ROOT / "docs" / "fairness.md").read_text(encoding="utf-8")
    found = re.search(r"^## Test vectors per game\n.*?^```json\n(.*?)^```", text, re.S | re.M)
    assert found, "docs/fairness.md has no JSON block under 'Test vectors per game'"
    return json.loads(found.group(1))


VECTORS = doc_vectors()


# Exports ------------------------------------------------------------------------------


def _envelopes(
    game_id: str, seed: bytes, created: Event, steps: list[tuple[Any, Any, list[Event]]]
) -> list[dict]:
    """Sealed as the service seals a command's events (the cause on the first, a salt on a
    secret event), then read back as an export's JSON lines are."""
    out, prev, seq = [], GENESIS, 0
    for actor, command, events in [("admin", None, [created]), *steps]:
        label = f"seat:{actor}" if isinstance(actor, int) else actor
        for offset, event in enumerate(events):
            seq += 1
            cause = builtins(command) if command is not None and offset == 0 else None
            secret = type(event).secret is not None
            at = f"2026-01-01T00:{seq // 600 % 60:02d}:{seq // 10 % 60:02d}.{seq % 10}00Z"
            envelope = seal(
                game_id,
                seq,
                event,
                at,
                label,
                None,
                prev,
                cause,
                salt_for(seed, game_id, seq) if secret else None,
            )
            prev = envelope.hash
            out.append(json.loads(msgspec.json.encode(envelope)))
    return out


def export(
    game: str,
    bots: list[str],
    seed: bytes,
    dice: int,
    teams: list[str] | None = None,
    rejoin: bool = False,
) -> list[dict]:
    """A finished game between bots, as its export's envelopes. With `rejoin`, a first
    player takes seat 0 and leaves it before the others join, and seat 0's player joins
    last: the joins' order is not the seats'."""
    rules = GAMES[game]
    record: list[tuple[Any, Any]] = []
    simulation.play(rules, bots, seed, random.Random(dice), teams=teams, record=record)
    if rejoin:
        joins = [step for step in record if isinstance(step[1], tables.Join)]
        rest = record[len(joins) :]
        gone = tables.Join(name="gone", entropy="not in the mix", team=joins[0][1].team)
        record = [
            ("anyone", gone),
            *joins[1:],
            ("admin", tables.Leave(seat=0)),
            joins[0],
            *rest,
        ]
    options = rules.options_type()
    created = tables.create(rules, len(bots), options, False, commitment(seed))[0]
    table = tables.from_created(rules, created)
    steps = []
    for actor, command in record:
        shuffler = Shuffler(seed, [p.entropy for p in table.players])
        events = tables.decide(table, rules, command, actor, shuffler)
        for event in events:
            tables.evolve(table, rules, event)
        steps.append((actor, command, events))
    assert table.status == "finished"
    return _envelopes(f"{game}-{dice}", seed, created, steps)


GAMES_PLAYED = [
    ("danger", ["random", "random"], bytes(range(32)), 0, None),
    ("danger", ["greedy", "random", "greedy"], bytes([7] * 32), 1, None),
    ("danger", ["random"] * 5, bytes([8] * 32), 2, None),
    ("high-voltage", ["random", "random"], bytes([9] * 32), 9, None),
    ("high-voltage", ["random"] * 3, bytes([5] * 32), 5, None),
    ("high-voltage", ["random"] * 4, bytes([11] * 32), 11, None),
    ("high-voltage", ["greedy"] * 5, bytes([1] * 32), 1, None),
    ("danger-13", ["random"] * 3, bytes(range(32)), 0, None),
    ("danger-13", ["random"] * 4, bytes([2] * 32), 2, None),
    ("danger-13", ["greedy", "random"], bytes([3] * 32), 3, None),
    ("danger-danger", ["random", "random"], bytes(range(32)), 0, None),
    ("danger-danger", ["random"] * 4, bytes([4] * 32), 4, ["pink", "yellow", "pink", "yellow"]),
    ("danger-danger", ["greedy"] * 3, bytes([6] * 32), 6, ["pink", "pink", "yellow"]),
]
CACHE: dict[tuple, list[dict]] = {}
DANGER_2_GAME = GAMES_PLAYED[0]


def played(game: str, bots: list[str], seed: bytes, dice: int, teams=None) -> list[dict]:
    key = (game, tuple(bots), seed, dice, tuple(teams or ()))
    if key not in CACHE:
        CACHE[key] = export(game, bots, seed, dice, teams)
    return copy.deepcopy(CACHE[key])


def seq_of(events: list[dict], kind: str, nth: int = 0, **data: Any) -> int:
    found = [
        e["seq"]
        for e in events
        if e["type"] == kind and all(e["data"].get(k) == v for k, v in data.items())
    ]
    return found[nth]


def at(events: list[dict], seq: int) -> dict:
    return next(e["data"] for e in events if e["seq"] == seq)


def swap_in_order(order: list) -> None:
    """Exchange the first card with the first different one."""
    j = next(j for j, card in enumerate(order) if card != order[0])
    order[0], order[j] = order[j], order[0]


# The document's vectors -----------------------------------------------------------------


def test_the_algorithms_vector():
    mix = entropy_mix(["alice", "bob"])
    assert mix.hex() == "884a452152d3bf048cc051df8f708aff3f854a3db0876f4e9f429effa3a09a27"
    assert shuffle(SEED, mix, list(range(10)), 0) == [6, 7, 1, 3, 0, 9, 2, 4, 8, 5]
    assert draw_by_lot(SEED, mix, 6, 1) == 5
    assert shuffle(SEED, mix, list(FULL_DECK), 0)[:10] == [
        "G5",
        "B9",
        "G8",
        "G7",
        "B5",
        "G6",
        "G9",
        "G2",
        "R4",
        "R6",
    ]


@pytest.mark.parametrize("vector", VECTORS["games"], ids=lambda v: v["game"])
def test_the_documents_orders(vector):
    seed = bytes.fromhex(VECTORS["seed"])
    mix = entropy_mix(vector["entropy"])
    assert mix.hex() == vector["mix"]
    for recorded in vector["shuffles"]:
        assert shuffle(seed, mix, recorded["input"], recorded["counter"]) == recorded["order"]


def _vector_events(vector: dict[str, Any]) -> list[dict]:
    """The document's vector as the first events of a game's export."""
    seed = bytes.fromhex(VECTORS["seed"])
    created = {
        "game": vector["game"],
        "seats": vector["seats"],
        "options": {},
        "sandbox": False,
        "verifiable": True,
        "algorithm": "hmac-sha256-fy-v1",
        "seed_commitment": commitment(seed),
    }
    data: list[tuple[str, dict[str, Any]]] = [("game_created", created)]
    data += [
        ("player_joined", {"seat": s, "name": e, "entropy": e})
        for s, e in enumerate(vector["entropy"])
    ]
    data.append(("game_started", {}))
    for shuffled in vector["shuffles"]:
        fields = {k: shuffled[k] for k in ("counter", "order")}
        fields |= {"size": len(shuffled["order"]), "reason": "setup"}
        if "team" in shuffled:
            fields["team"] = shuffled["team"]
        data.append((shuffled["event"], fields))
    game = vector["game"]
    if game == "danger":
        data += [("card_drawn", {**d, "source": "stack"}) for d in vector["first_draws"]]
    elif game == "high-voltage":
        data += [("hand_dealt", hand) for hand in vector["hands"]]
    elif game == "danger-13":
        packet = vector["packet"]
        data.append(("packet_drawn", {**packet, "size": len(packet["cards"])}))
        data.append(("card_revealed", {"dealer": packet["dealer"], "card": packet["cards"][0]}))
    else:
        data.append(("stacks_laid", {"stacks": vector["stacks"]}))
        data += [
            ("swap_card_laid", {"team": t, "card": c}) for t, c in vector["swap_cards"].items()
        ]
        data += [("card_drawn", d) for d in vector["first_draws"]]
    return [{"seq": i, "type": kind, "data": d} for i, (kind, d) in enumerate(data, start=1)]


@pytest.mark.parametrize("vector", VECTORS["games"], ids=lambda v: v["game"])
def test_the_documents_deals_pass_and_a_changed_one_fails(vector):
    seed = bytes.fromhex(VECTORS["seed"])
    events = _vector_events(vector)
    assert first_shuffle_failure(events, seed) is None
    last = events[-1]
    if "cards" in last["data"]:
        last["data"]["cards"] = list(reversed(last["data"]["cards"]))
        last["data"]["cards"][0] = "X" if isinstance(last["data"]["cards"][0], str) else 99
    else:
        last["data"]["card"] = "X"
    assert first_shuffle_failure(events, seed).seq == last["seq"]


@pytest.mark.parametrize(
    "vector", [v for v in VECTORS["games"] if "reshuffle_example" in v], ids=lambda v: v["game"]
)
def test_the_documents_reshuffle_examples(vector):
    """After the setup, the example's events build the documented pile, and the reshuffle
    with the documented order passes; with two cards of it exchanged it fails there."""
    example = vector["reshuffle_example"]
    events = _vector_events(vector)[: 3 + vector["seats"]]  # created, joins, started, setup
    setup = events[-1]
    # the setup's stack or pile is used up before the reshuffle
    if vector["game"] == "danger":
        events += [
            {"seq": 0, "type": "card_drawn", "data": {"seat": 0, "card": c, "source": "stack"}}
            for c in setup["data"]["order"]
        ]
        kind = "deck_shuffled"
    else:
        order = setup["data"]["order"]
        events += [{"seq": 0, "type": "card_drawn", "data": {"seat": 0, "card": c}} for c in order]
        kind = "pile_shuffled"
    events += [{"seq": 0, "type": k, "data": data} for k, data in example["events"]]
    reshuffle = {
        "reason": "reshuffle",
        "counter": example["counter"],
        "size": len(example["order"]),
        "order": list(example["order"]),
    }
    events.append({"seq": 0, "type": kind, "data": reshuffle})
    for seq, event in enumerate(events, start=1):
        event["seq"] = seq
    seed = bytes.fromhex(VECTORS["seed"])
    assert sorted(example["pile"]) == sorted(example["order"])
    assert first_shuffle_failure(events, seed) is None
    swap_in_order(reshuffle["order"])
    found = first_shuffle_failure(events, seed)
    assert found is not None and found.seq == len(events)
    assert "the discard pile" in found.message


def test_a_reshuffle_left_out_is_caught():
    vector = next(v for v in VECTORS["games"] if v["game"] == "danger-13")
    events = _vector_events(vector)[: 3 + vector["seats"]]
    order = events[-1]["data"]["order"]
    events += [{"type": "card_drawn", "data": {"seat": 0, "card": c}} for c in order[:-2]]
    events.append({"type": "card_refused", "data": {"seat": 0, "card": order[0]}})
    events.append({"type": "packet_drawn", "data": {"dealer": 0, "size": 2, "cards": order[-2:]}})
    for seq, event in enumerate(events, start=1):
        event["seq"] = seq
    found = first_shuffle_failure(events, bytes.fromhex(VECTORS["seed"]))
    assert found is not None and found.seq == len(events) and "reshuffled" in found.message

    events = played(*DANGER_2_GAME)
    ended = next(e for e in events if e["type"] == "round_ended")
    ended["data"]["reason"] = "no_cards"
    found = first_shuffle_failure(events, DANGER_2_GAME[2])
    assert found is not None and found.seq == ended["seq"] and "reshuffled" in found.message


# Real games -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "game,bots,seed,dice,teams", GAMES_PLAYED, ids=[f"{g[0]}-{len(g[1])}" for g in GAMES_PLAYED]
)
def test_a_finished_games_shuffles_and_deals_pass(game, bots, seed, dice, teams):
    events = played(game, bots, seed, dice, teams)
    assert first_shuffle_failure(events, seed) is None
    assert first_shuffle_failure(list(reversed(events)), seed) is None  # taken in seq order


@pytest.mark.parametrize(
    "game,bots,seed,dice,teams", GAMES_PLAYED, ids=[f"{g[0]}-{len(g[1])}" for g in GAMES_PLAYED]
)
def test_the_exports_made_here_pass_the_services_own_audit(game, bots, seed, dice, teams):
    events = played(game, bots, seed, dice, teams)
    report = audit([msgspec.convert(e, Envelope) for e in events])
    assert report.ok, [c for c in report.checks if not c.ok]
    revealed = next(e for e in events if e["type"] == "seed_revealed")
    assert bytes.fromhex(revealed["data"]["seed"]) == seed


def test_the_games_played_cover_reshuffles_and_draws_by_lot():
    kinds = set()
    for game, bots, seed, dice, teams in GAMES_PLAYED:
        for e in played(game, bots, seed, dice, teams):
            kinds.add((game, e["type"], e["data"].get("reason")))
    assert ("danger", "deck_shuffled", "reshuffle") in kinds
    assert ("danger", "card_drawn", None) in kinds
    assert ("high-voltage", "leader_drawn", None) in kinds
    assert ("danger-13", "pile_shuffled", "reshuffle") in kinds
    for kind in ("arrow_resolved", "card_refused", "packet_returned", "card_drawn"):
        assert ("danger-13", kind, None) in kinds


@pytest.mark.parametrize("game", sorted(GAMES))
def test_the_mix_is_of_the_seats_not_the_joins(game):
    teams = ["pink", "yellow"] if game == "danger-danger" else None
    events = export(game, ["random", "random"], SEED, 3, teams, rejoin=True)
    assert [e["type"] for e in events[1:5]] == [
        "player_joined",
        "player_joined",
        "seat_left",
        "player_joined",
    ]
    assert first_shuffle_failure(events, SEED) is None
    # seat 1 joined before seat 0: the joins' order would give other shuffles
    joined = next(e for e in events if e["type"] == "player_joined" and e["data"]["seat"] == 1)
    joined["data"]["entropy"] += "!"
    found = first_shuffle_failure(events, SEED)
    first_shuffle = next(e for e in events if e["type"] in ("deck_shuffled", "pile_shuffled"))
    assert found is not None and found.seq == first_shuffle["seq"]


def test_a_sandbox_deck_is_reported_as_chosen_not_shuffled():
    rules = GAMES["danger"]
    options = DangerOptions(deck=list(FULL_DECK))
    created = tables.create(rules, 2, options, True, commitment(SEED))[0]
    table = tables.from_created(rules, created)
    steps: list[tuple[Any, Any, list[Event]]] = []
    shuffler = Shuffler(SEED, ["a", "b"])
    for name in ("a", "b"):
        command = tables.Join(name=name, entropy=name)
        steps.append(("anyone", command, tables.decide(table, rules, command, "anyone", shuffler)))
        for event in steps[-1][2]:
            tables.evolve(table, rules, event)
    start = tables.Start()
    decided = tables.decide(table, rules, start, "admin", shuffler, setup_options=options)
    steps.append(("admin", start, decided))
    events = _envelopes("sandbox", SEED, created, steps)
    shuffled = next(e for e in events if e["type"] == "deck_shuffled")["data"]
    assert shuffled["order"] == list(FULL_DECK) and shuffled["counter"] is None
    found = first_shuffle_failure(events, SEED)
    assert found is not None and found.seq == 1
    assert "chosen, not shuffled" in found.message


def test_the_wrong_seed_fails_at_the_commitment():
    events = played(*GAMES_PLAYED[0])
    found = first_shuffle_failure(events, bytes(32))
    assert found == Failure(seq=1, message=found.message) and "committed" in found.message


# Tampering: every change is caught at the event that holds it --------------------------

TAMPERS: dict[str, Any] = {}


def tamper(name: str, played_game: tuple):
    def register(change):
        TAMPERS[name] = (played_game, change)
        return change

    return register


DANGER_2 = GAMES_PLAYED[0]
DANGER_5 = GAMES_PLAYED[2]
HV_2 = GAMES_PLAYED[3]
HV_4 = GAMES_PLAYED[5]
D13_3 = GAMES_PLAYED[7]
D13_4 = GAMES_PLAYED[8]
DD_2 = GAMES_PLAYED[10]
DD_4 = GAMES_PLAYED[11]


@tamper("danger: a card of the setup order", DANGER_2)
def _(events):
    seq = seq_of(events, "deck_shuffled", reason="setup")
    swap_in_order(at(events, seq)["order"])
    return seq


@tamper("danger: a card of a reshuffle's order", DANGER_5)
def _(events):
    seq = seq_of(events, "deck_shuffled", 1, reason="reshuffle")
    at(events, seq)["order"].reverse()
    return seq


@tamper("danger: a card drawn from the stack", DANGER_2)
def _(events):
    seq = seq_of(events, "card_drawn", 30, source="stack")
    drawn = at(events, seq)
    drawn["card"] = "R1" if drawn["card"] != "R1" else "R2"
    return seq


@tamper("danger: a card drawn just after a reshuffle", DANGER_2)
def _(events):
    seq = seq_of(events, "deck_shuffled", reason="reshuffle") + 1
    drawn = at(events, seq)
    drawn["card"] = at(events, seq - 1)["order"][1]
    return seq


@tamper("danger: a row's card the reshuffle takes", DANGER_2)
def _(events):
    placed = at(events, seq_of(events, "card_placed", 0))
    placed["card"] = "Y9" if placed["card"] != "Y9" else "Y8"
    return seq_of(events, "deck_shuffled", reason="reshuffle")


@tamper("danger: a discard the reshuffle takes", DANGER_5)
def _(events):
    reshuffle = seq_of(events, "deck_shuffled", reason="reshuffle")
    before = [e for e in events if e["type"] == "card_discarded" and e["seq"] < reshuffle]
    # a discard taken back is drawn two events later (after its turn_ended): not that one
    taken = {
        e["seq"] for e in events if e["type"] == "card_drawn" and e["data"]["source"] != "stack"
    }
    discard = next(e for e in before if e["seq"] + 2 not in taken)
    discard["data"]["card"] = "Y9" if discard["data"]["card"] != "Y9" else "Y8"
    return reshuffle


@tamper("danger: a counter", DANGER_2)
def _(events):
    seq = seq_of(events, "deck_shuffled", reason="reshuffle")
    at(events, seq)["counter"] += 1
    return seq


@tamper("high-voltage: a round's order", HV_4)
def _(events):
    seq = seq_of(events, "deck_shuffled", round=3)
    swap_in_order(at(events, seq)["order"])
    return seq


@tamper("high-voltage: a card dealt to seat 1", HV_2)
def _(events):
    seq = seq_of(events, "hand_dealt", 1, seat=1)
    hand, other = at(events, seq)["cards"], at(events, seq - 1)["cards"]
    hand[0] = other[0]
    return seq


@tamper("high-voltage: a card dealt to seat 3 from the undealt rest", HV_4)
def _(events):
    seq = seq_of(events, "hand_dealt", 0, seat=3)
    hand = at(events, seq)["cards"]
    order = at(events, seq_of(events, "deck_shuffled", round=1))["order"]
    hand[-1] = next(c for c in range(10, 60) if c not in order[:36])
    return seq


@tamper("high-voltage: a draw by lot", HV_4)
def _(events):
    seq = seq_of(events, "leader_drawn")
    drawn = at(events, seq)
    drawn["index"] = 1 - drawn["index"]
    drawn["leader"] = drawn["tied"][drawn["index"]]
    return seq


@tamper("danger-13: a card of the setup order", D13_3)
def _(events):
    seq = seq_of(events, "pile_shuffled", reason="setup")
    swap_in_order(at(events, seq)["order"])
    return seq


@tamper("danger-13: a card of a reshuffle's order", D13_4)
def _(events):
    seq = seq_of(events, "pile_shuffled", reason="reshuffle")
    swap_in_order(at(events, seq)["order"])
    return seq


@tamper("danger-13: a packet", D13_4)
def _(events):
    seq = seq_of(events, "packet_drawn", 5)
    cards = at(events, seq)["cards"]
    cards[0], cards[-1] = cards[-1], "limit18" if cards[0] != "limit18" else "hand"
    return seq


@tamper("danger-13: a card-draw card's draw", D13_3)
def _(events):
    seq = seq_of(events, "card_drawn", 2)
    drawn = at(events, seq)
    drawn["card"] = "++5" if drawn["card"] != "++5" else "++4"
    return seq


@tamper("danger-13: a returned packet", D13_3)
def _(events):
    seq = seq_of(events, "packet_returned")
    returned = at(events, seq)
    returned["cards"] = [*returned["cards"], "hand"]
    return seq


@tamper("danger-13: a card an arrow removed, which the reshuffle takes", D13_4)
def _(events):
    reshuffle = seq_of(events, "pile_shuffled", reason="reshuffle")
    arrow = next(
        e
        for e in events
        if e["type"] == "arrow_resolved" and e["data"]["removed"] and e["seq"] < reshuffle
    )
    arrow["data"]["removed"] = "++5" if arrow["data"]["removed"] != "++5" else "++4"
    return reshuffle


@tamper("danger-13: a refused card, which the reshuffle takes", D13_3)
def _(events):
    reshuffle = seq_of(events, "pile_shuffled", reason="reshuffle")
    refused = next(e for e in events if e["type"] == "card_refused" and e["seq"] < reshuffle)
    refused["data"]["card"] = "++5" if refused["data"]["card"] != "++5" else "++4"
    return reshuffle


@tamper("danger-danger: a card of a yellow order", DD_2)
def _(events):
    seq = seq_of(events, "deck_shuffled", 1, team="yellow")
    swap_in_order(at(events, seq)["order"])
    return seq


@tamper("danger-danger: a stack", DD_4)
def _(events):
    seq = seq_of(events, "stacks_laid", 1)
    stacks = at(events, seq)["stacks"]
    stacks[0] = "P8" if stacks[0] != "P8" else "P1"
    return seq


@tamper("danger-danger: a Swap Card", DD_2)
def _(events):
    seq = seq_of(events, "swap_card_laid", team="pink")
    laid = at(events, seq)
    laid["card"] = "P4x10" if laid["card"] != "P4x10" else "P1"
    return seq


@tamper("danger-danger: a team's draw", DD_4)
def _(events):
    seq = seq_of(events, "card_drawn", 3, team="yellow")
    drawn = at(events, seq)
    drawn["card"] = "Y7x5" if drawn["card"] != "Y7x5" else "Y1"
    return seq


@pytest.mark.parametrize("name", sorted(TAMPERS))
def test_a_change_is_caught_at_its_event(name):
    (game, bots, seed, dice, teams), change = TAMPERS[name]
    events = played(game, bots, seed, dice, teams)
    assert first_shuffle_failure(events, seed) is None
    expected = change(events)
    found = first_shuffle_failure(events, seed)
    assert found is not None, name
    assert found.seq == expected, found.message
    assert found.message.endswith("."), found.message
