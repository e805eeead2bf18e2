"""Self-play: reproducible by seed, stops at a broken invariant, and `danger simulate`."""

import dataclasses
import hashlib
import json
import random

import pytest

from domain.danger import RULES as DANGER
from domain.danger_danger import RULES as DANGER_DANGER
from domain.danger_danger.messages import DangerDangerOptions
from domain.kernel.table import FireTimer
from domain.simulation import InvariantBroken, play
from service.cli import main


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
