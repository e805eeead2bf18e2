"""Self-play: reproducible by seed, stops at a broken invariant or a stall, every table of
every game finishes, and `danger simulate`."""

import dataclasses
import hashlib
import json
import random

import pytest

import domain.simulation
from domain.danger import RULES as DANGER
from domain.danger.messages import CardDrawn, Draw, TakeDiscard
from domain.danger.rules import _place, decide, legal
from domain.danger_danger import RULES as DANGER_DANGER
from domain.danger_danger.messages import DangerDangerOptions
from domain.high_voltage.messages import HighVoltageOptions
from domain.kernel.table import FireTimer
from domain.registry import GAMES
from domain.simulation import InvariantBroken, Stalled, play
from service.cli.main import main


def seed(n: int) -> bytes:
    return hashlib.sha256(f"sim:{n}".encode()).digest()


def test_the_same_seed_plays_the_same_game_and_another_seed_another():
    first = play(DANGER, ["greedy", "random", "random"], seed(1), random.Random(1))
    again = play(DANGER, ["greedy", "random", "random"], seed(1), random.Random(1))
    other = play(DANGER, ["greedy", "random", "random"], seed(2), random.Random(2))
    assert first == again
    assert (first.events, first.scores) != (other.events, other.scores)


def test_a_broken_invariant_stops_the_game_at_its_event():
    def broken_after_a_few(state) -> list[str]:
        return ["a card went missing"] if state.round == 1 and state.discard else []

    rules = dataclasses.replace(DANGER, invariants=broken_after_a_few)
    with pytest.raises(InvariantBroken) as caught:
        play(rules, ["random", "random"], seed(3), random.Random(3))
    assert "a card went missing" in str(caught.value)
    assert "after event" in str(caught.value)


def test_the_hidden_round_timer_rings_in_simulated_time():
    log = []
    options = DangerDangerOptions(round_seconds=5)  # five moves a seat, then the timer
    played = play(
        DANGER_DANGER, ["random", "random"], seed(4), random.Random(4), options, record=log
    )
    rang = [c for actor, c in log if isinstance(c, FireTimer)]
    assert rang and all(actor == "server" for actor, c in log if isinstance(c, FireTimer))
    assert max(played.scores) == 3  # and the game still ends


def test_danger_simulate_prints_the_figures_and_is_reproducible(capsys):
    args = ["simulate", "--game", "high-voltage", "--seats", "3", "--games", "6"]
    args += ["--bots", "greedy", "--seed", "7", "--rotate", "--json"]
    assert main(args) == 0
    first = json.loads(capsys.readouterr().out)
    assert main(args) == 0
    again = json.loads(capsys.readouterr().out)
    for key in ("games_per_s", "events_per_s", "elapsed_s"):
        assert first.pop(key) > 0
        again.pop(key)
    assert first == again
    assert first["games"] == 6 and set(first["wins_by_bot"]) == {"greedy", "random"}
    assert len(first["wins_by_seat"]) == 3 and first["mean_events"] > 0
    assert set(first["scores"]) == {"min", "p10", "p50", "p90", "max", "mean"}


def test_danger_simulate_refuses_what_it_cannot_play(capsys):
    assert main(["simulate", "--game", "chess"]) == 2
    assert main(["simulate", "--game", "danger", "--seats", "9"]) == 2
    assert main(["simulate", "--game", "danger", "--bots", "genius"]) == 2
    assert main(["simulate", "--game", "danger", "--games", "0"]) == 2
    assert main(["simulate", "--game", "danger", "--bots", "greedy,random,random"]) == 2
    assert "genius" in capsys.readouterr().err


def _mixes(seats: int) -> list[list[str]]:
    """All greedy, all random, and greedy and random seats taking turns."""
    mixed = [("greedy", "random")[s % 2] for s in range(seats)]
    return [["greedy"] * seats, ["random"] * seats, mixed]


TABLES = [
    (game, seats, bots, None)
    for game, rules in GAMES.items()
    for seats in range(rules.min_seats, rules.max_seats + 1)
    for bots in _mixes(seats)
] + [("high-voltage", 4, bots, HighVoltageOptions(teams=True)) for bots in _mixes(4)]


@pytest.mark.parametrize(
    ("game", "seats", "bots", "options"),
    TABLES,
    ids=[f"{g}-{n}-{'-'.join(dict.fromkeys(b))}{'-teams' if o else ''}" for g, n, b, o in TABLES],
)
def test_every_table_finishes(game, seats, bots, options):
    """RULINGS, "Liveness and lifecycle": every game, every seat count (Danger Danger's seats
    in two teams), all-greedy, all-random and mixed tables end with a result, no invariant
    broken and no position repeated (either would raise)."""
    for n in range(3):
        rng = f"{game}:{seats}:{','.join(bots)}:{n}"
        played = play(
            GAMES[game], bots, hashlib.sha256(rng.encode()).digest(), random.Random(rng), options
        )
        assert any(played.won) and played.events > 0


def _take_any_discard(state, command, seat, shuffler):
    """Danger as it was before the liveness ruling: any discard may be taken, even into a
    closed or protected row, only to be discarded again."""
    taking = isinstance(command, TakeDiscard) and seat == state.turn and state.phase == "draw"
    if taking and state.takeable and state.discard:
        card = state.discard[-1]
        return [CardDrawn(seat=seat, card=card, source="discard"), *_place(state, seat, card)]
    return decide(state, command, seat, shuffler)


def _offer_any_discard(state, seat):
    moves = legal(state, seat)
    if moves[:1] == [Draw()] and state.takeable and state.discard and TakeDiscard() not in moves:
        moves.append(TakeDiscard())
    return moves


PASS_THE_CARD = dataclasses.replace(DANGER, decide=_take_any_discard, legal=_offer_any_discard)


def test_a_game_that_comes_back_to_a_position_is_stalled_at_that_event():
    with pytest.raises(Stalled) as caught:
        play(PASS_THE_CARD, ["greedy", "greedy"], seed(0), random.Random(0))
    stalled = caught.value
    assert stalled.event_type == "turn_ended"  # a seat took the card, discarded it, and passed
    assert f"after event {stalled.seq} (turn_ended)" in str(stalled)
    assert "the position after event" in str(stalled)


def test_a_game_past_its_step_limit_is_stalled(monkeypatch):
    monkeypatch.setattr(domain.simulation, "MAX_STEPS", 20)
    with pytest.raises(Stalled) as caught:
        play(DANGER, ["random", "random"], seed(5), random.Random(5))
    assert "still running after 20 steps" in str(caught.value)


def test_a_game_abandoned_between_bots_is_stalled():
    idle = dataclasses.replace(DANGER_DANGER, legal=lambda state, seat: [])  # nobody may move
    with pytest.raises(Stalled) as caught:
        play(idle, ["random", "random"], seed(6), random.Random(6))
    assert caught.value.event_type == "seed_revealed"
    assert "abandoned (no_play)" in str(caught.value)


def test_danger_simulate_reports_a_stall_as_a_failure_naming_the_event(monkeypatch, capsys):
    monkeypatch.setitem(GAMES, "danger", PASS_THE_CARD)
    args = ["simulate", "--game", "danger", "--seats", "2", "--games", "3"]
    assert main([*args, "--bots", "greedy,greedy"]) == 1
    err = capsys.readouterr().err
    assert "FAILURE, stalled" in err and "(turn_ended)" in err and "game 0 of the run" in err
