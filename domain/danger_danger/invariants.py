"""What can never be true of a Danger Danger state: checked after every event of a simulation."""

from __future__ import annotations

from functools import lru_cache
from itertools import pairwise

from domain.kernel.composition import Composition

from .cards import HIGHEST, INITIAL, TEAMS, team_deck
from .state import NO_PLAY_REPLAYS, TOKENS_TO_WIN, DangerDangerState


@lru_cache(maxsize=16)
def _deck(team: str, composition: Composition) -> list[str]:
    return sorted(team_deck(team, composition.counts()))


def _next_to(a: str, b: str) -> bool:
    """`cards.fits`, without its parsing: the number is always the second character."""
    return (int(a[1]) - int(b[1])) % HIGHEST in (1, HIGHEST - 1)


def invariants(state: DangerDangerState) -> list[str]:
    """Every problem with `state`, as a sentence (empty when there is none)."""
    if not state.teams:
        return []  # before the teams are formed there is nothing to check
    problems: list[str] = []
    composition = state.options.deck
    seated: list[int] = []
    for name in TEAMS:
        team = state.teams[name]
        seated += team.seats
        cards = team.pile + team.trashed + [c for c in (team.swap, team.holding) if c]
        cards += [c for stack in state.stacks for c in stack if c[0] == INITIAL[name]]
        # Mid-deal (between round_started and the team's swap card) a team's cards are all
        # in its pile or on the stacks, or, before its shuffle, nowhere yet.
        dealing = team.swap is None and not (team.holding or team.trashed)
        # A card of the other team in this team's pile, trash or hand fails this check too.
        if sorted(cards) != _deck(name, composition) and not (dealing and not cards):
            problems.append(f"{name}'s {len(cards)} cards are not its deck, each card once")
        if (team.holding is None) != (team.holder is None):
            problems.append(f"{name} holds {team.holding} with holder {team.holder}")
        if team.holder is not None and team.holder not in team.seats:
            problems.append(f"{name}'s card is held by seat {team.holder}, not a member")
        if not 0 <= team.relay < len(team.seats):
            problems.append(f"{name}'s relay {team.relay} is no member")
        if len(set(team.declared)) != len(team.declared) or not set(team.declared) <= set(
            team.seats
        ):
            problems.append(f"{name}'s declarations {team.declared} are not its members once")
        if team.out and (team.holding is not None or len(team.declared) != len(team.seats)):
            problems.append(f"{name} is out holding a card or with a member's hands up")
        if team.declared and team.holding is not None:
            problems.append(f"{name} holds a card with hands flat")
    if sorted(seated) != list(range(state.seats)):
        problems.append(f"the teams' seats {seated} are not each seat once")
    for i, stack in enumerate(state.stacks):
        if not stack:
            problems.append(f"stack {i} is empty")
        elif not all(_next_to(a, b) for b, a in pairwise(stack)):
            problems.append(f"stack {i} {stack} has a card on one that is not next to it")

    tokens = state.tokens
    if any(not 0 <= tokens[t] <= TOKENS_TO_WIN for t in TEAMS):
        problems.append(f"tokens {tokens} are not 0-{TOKENS_TO_WIN}")
    full = [t for t in TEAMS if tokens[t] == TOKENS_TO_WIN]
    # Between the round_scored that gives the third token and game_ended, the game is won
    # but not yet over.
    scored = state.last_round
    ending = (
        scored is not None
        and (scored.round, scored.attempt) == (state.round, state.attempt)
        and scored.tokens == tokens
    )
    over = state.phase == "over"
    abandoned = state.idle_replays >= NO_PLAY_REPLAYS  # over with no winner
    if abandoned and full:
        problems.append(f"abandoned with tokens {tokens}")
    conceded = state.conceded()
    if len(conceded) > 1:
        problems.append(f"both teams conceded: {conceded}")
    if conceded:  # the other team wins at once (its game_ended follows), whatever the tokens
        wrong = state.winner == conceded[0] or (over and state.winner is None)
    else:
        wrong = (over != (bool(full) or abandoned) and not (ending and not over)) or (
            state.winner != (full[0] if over and full else None)
        )
    if wrong:
        problems.append(f"phase {state.phase}, winner {state.winner} with tokens {tokens}")
    if len(full) > 1:
        problems.append("both teams have three tokens")
    return problems
