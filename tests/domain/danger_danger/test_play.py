"""Hypothesis plays random Danger Danger games, both teams at once and the timer ringing at
random, and checks the invariants after every command."""

import random
from collections import Counter

import msgspec
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from domain.danger_danger import RULES, DangerDangerOptions
from domain.danger_danger.cards import INITIAL, TEAMS, team_deck
from domain.danger_danger.messages import (
    DrawCard,
    GameEnded,
    GoOut,
    NewStack,
    PlayCard,
    RoundScored,
    Swap,
    Trash,
)
from domain.kernel import RuleViolation, Shuffler
from domain.kernel.table import GameAbandoned
from tests.domain.replaying import replayed
from tests.domain.shared_view import shared_views


def conserved(state) -> bool:
    for name in TEAMS:
        team = state.teams[name]
        cards = team.pile + team.trashed + [c for c in (team.swap, team.holding) if c]
        cards += [c for stack in state.stacks for c in stack if c[0] == INITIAL[name]]
        if Counter(cards) != Counter(team_deck(name, state.options.deck.counts())):
            return False
    return True


def check_shared_view(state) -> None:
    """`winners` are the seats of the `winner` team, `totals` each seat's team tokens."""
    for seen in shared_views(RULES, state).values():
        team_of = {s: name for name, team in seen.teams.items() for s in team.seats}
        assert seen.totals == [seen.tokens[team_of[s]] for s in range(state.seats)]
        won = seen.winner
        assert seen.winners == (None if won is None else sorted(seen.teams[won].seats))
        for team in seen.teams.values():
            members = [s for s in seen.to_act if s in team.seats]
            assert not (team.out and members)
            if team.holding is not None and seen.phase == "playing":  # the holder alone acts
                assert members == [team.holder]


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    teams=st.lists(st.sampled_from(["pink", "yellow"]), min_size=2, max_size=8).filter(
        lambda t: 1 <= t.count("pink") <= 4 and 1 <= t.count("yellow") <= 4
    ),
    seed=st.binary(min_size=32, max_size=32),
    play=st.integers(0, 2**32),
)
def test_random_games_keep_every_invariant(teams, seed, play):
    choices = random.Random(play)  # hypothesis picks the game; drawing each move is too slow
    options = DangerDangerOptions()
    shuffler = Shuffler(seed)
    seats = len(teams)
    state = RULES.initial(options, seats)
    log = RULES.setup(options, seats, shuffler, teams=teams)
    for event in log:
        RULES.evolve(state, event)
    steps, abandoned = 0, False
    while state.phase != "over":
        steps += 1
        assert conserved(state)
        if choices.randrange(25) == 0 or steps % 150 == 0:
            events = RULES.on_timer(state, f"round:{state.round}:{state.attempt}", shuffler)
        else:
            seat = choices.randrange(seats)
            moves = RULES.legal(state, seat)
            before = msgspec.json.encode(state)
            probes = [DrawCard(), GoOut(), NewStack(), Swap(), Trash()]
            probes += [PlayCard(stack=i, on=s[-1]) for i, s in enumerate(state.stacks)]
            for probe in probes:
                try:
                    RULES.decide(state, probe, seat, shuffler)
                    assert probe in moves, probe
                except RuleViolation:
                    assert probe not in moves, probe
            assert msgspec.json.encode(state) == before, "decide must not change the state"
            if not moves:
                continue
            events = RULES.decide(state, choices.choice(moves), seat, shuffler)
        tokens = dict(state.tokens)
        for event in events:
            if isinstance(event, GameAbandoned):  # the table's record: three idle replays
                abandoned = True
                continue
            if isinstance(event, RoundScored):
                gained = {t: event.tokens[t] - tokens[t] for t in TEAMS}
                assert sorted(gained.values()) == ([0, 0] if event.winner is None else [0, 1])
                if event.cases is not None:
                    assert (event.winner is None) == (event.cases["pink"] == event.cases["yellow"])
            RULES.evolve(state, event)
            log.append(event)
        check_shared_view(state)
    if abandoned:
        assert state.winner is None and max(state.tokens.values()) < 3
    else:
        assert isinstance(log[-1], GameEnded) and max(state.tokens.values()) == 3
    assert replayed(RULES, options, seats, log) == msgspec.json.encode(state)
