"""decide() and legal(): every rule of Danger Danger, each refusal with a stable code.

There are no turns: both teams act at once and the server takes commands in arrival order,
each decided against the state at that moment. The round timer is a worker's job; when it
rings, `on_timer` decides what the teams still in lose.
"""

from __future__ import annotations

from collections.abc import Sequence

from domain.kernel import Command, Event, Refusal, Refusals, Shuffler
from domain.kernel.errors import (
    GAME_OVER,
    INVALID_DECK,
    INVALID_STACK,
    OPTION_OUT_OF_RANGE,
    UNKNOWN_COMMAND,
)
from domain.kernel.game import Timer
from domain.kernel.table import GameAbandoned

from .cards import TEAMS, Team, check_deck, fits, is_new_stack, team_deck
from .messages import (
    CardDrawn,
    CardPlayed,
    CardsSwapped,
    CardTrashed,
    DangerDangerOptions,
    DeckShuffled,
    DeclarationsCleared,
    DrawCard,
    GameEnded,
    GoOut,
    NewStack,
    OutDeclared,
    PlayCard,
    RoundScored,
    RoundStarted,
    ScoreReason,
    StacksLaid,
    StackStarted,
    Swap,
    SwapCardLaid,
    TeamOut,
    TeamsFormed,
    TimerRang,
    Trash,
)
from .state import NO_PLAY_REPLAYS, TOKENS_TO_WIN, DangerDangerState, TeamState, cases_showing

STACKS_EACH = 3  # "Place the top 3 cards from your Draw Pile face up"
TEAM_SIZE = (1, 4)  # RULINGS: 1-4 seats a team


def check_options(options: DangerDangerOptions, seats: int) -> None:
    check_deck(options.deck.counts())
    if options.stack is not None:
        for team in TEAMS:
            wanted = team_deck(team, options.deck.counts())
            if sorted(options.stack[team]) != sorted(wanted):
                raise INVALID_STACK(f"The {team} stack must hold exactly the {team} deck's cards.")


WRONG_TEAM_SIZE = Refusal(
    "team_size",
    "each team needs 1 to 4 players.",
    "Each team needs 1 to 4 players; yellow has 0.",
)


def setup(
    options: DangerDangerOptions, seats: int, shuffler: Shuffler, teams: Sequence[str | None]
) -> list[Event]:
    members = {name: [s for s, t in enumerate(teams) if t == name] for name in TEAMS}
    for name, seated in members.items():
        if not TEAM_SIZE[0] <= len(seated) <= TEAM_SIZE[1]:
            raise WRONG_TEAM_SIZE(f"Each team needs 1 to 4 players; {name} has {len(seated)}.")
    return [
        TeamsFormed(pink=members["pink"], yellow=members["yellow"]),
        *_deal(options, 1, 1, 0, shuffler),
    ]


def _deal(
    options: DangerDangerOptions, round_: int, attempt: int, counter: int, shuffler: Shuffler
) -> list[Event]:
    """ "Shuffle the Yellow and Pink Decks separately ... top 3 cards ... the Stacks ... Draw
    1 more card ... your team's Swap Card." """
    events: list[Event] = [RoundStarted(round=round_, attempt=attempt)]
    piles = {}
    for team in TEAMS:
        if options.stack is not None:
            order, used = list(options.stack[team]), None
        else:
            cards = team_deck(team, options.deck.counts())
            order, used = shuffler.shuffle(cards, counter), counter
            counter += 1
        piles[team] = order
        events.append(DeckShuffled(team=team, size=len(order), counter=used, order=order))
    events.append(StacksLaid(stacks=[c for t in TEAMS for c in piles[t][:STACKS_EACH]]))
    events += [SwapCardLaid(team=t, card=piles[t][STACKS_EACH]) for t in TEAMS]
    return events


def timers(state: DangerDangerState) -> list[Timer]:
    """ "Set a 60-second timer ... TURN IT OVER SO NO ONE CAN SEE IT!" """
    if state.phase != "playing" or not state.teams:
        return []
    return [
        Timer(
            name=f"round:{state.round}:{state.attempt}",
            seconds=state.options.round_seconds,
            public=False,
        )
    ]


def on_timer(state: DangerDangerState, name: str, shuffler: Shuffler) -> list[Event]:
    """ "If the timer goes off while you're still playing, your team IMMEDIATELY LOSES THE
    ROUND." Both still playing: both lose, and the round is replayed, unless nobody has
    played in it nor in the two replays before it (RULINGS [house, liveness]): then the game
    is abandoned rather than replayed for ever."""
    events: list[Event] = [TimerRang(round=state.round, attempt=state.attempt)]
    still_in = [t for t in TEAMS if not state.teams[t].out]
    winner = next(t for t in TEAMS if t not in still_in) if len(still_in) == 1 else None
    if not state.commanded and state.idle_replays + 1 >= NO_PLAY_REPLAYS:
        return [*events, _scored(state, "timer", None, None), GameAbandoned(reason="no_play")]
    return events + _score(state, "timer", None, winner, shuffler)


TEAM_OUT = Refusal(
    "team_out",
    "the seat's team has gone out; that is final.",
    "Your team has gone out: the decision is final.",
)
NOT_HOLDING = Refusal(
    "not_holding",
    "the seat holds no card; draw first, in the relay's turn.",
    "You hold no card: draw first, in your relay turn.",
)
NO_SUCH_STACK = Refusal("no_such_stack", "there is no such stack.", "There are 3 stacks.")
STACK_CHANGED = Refusal(
    "stack_changed",
    "the stack shows another card than `on` now; look again.",
    "Stack 2 shows Y5 now, not Y4: look again.",
)
DOES_NOT_FIT = Refusal(
    "does_not_fit",
    "the card fits a stack showing one more or one less.",
    "P6 fits a stack showing one more or one less, not Y3.",
)
NOT_A_NEW_STACK_CARD = Refusal(
    "not_a_new_stack_card", "the card held is not a New Stack card.", "P4 is not a New Stack card."
)
NO_SWAP_CARD = Refusal("no_swap_card", "the team has no Swap Card.", "Your team has no Swap Card.")


def decide(
    state: DangerDangerState, command: Command, seat: int, shuffler: Shuffler
) -> list[Event]:
    if state.phase == "over":
        raise GAME_OVER("The game is over.")
    name = state.team_of(seat)
    team = state.teams[name]
    if team.out:
        raise TEAM_OUT("Your team has gone out: the decision is final.")
    match command:
        case DrawCard():
            return _draw(team, name, seat)
        case GoOut():
            return _go_out(state, team, name, seat, shuffler)
    if team.holder != seat:
        raise NOT_HOLDING("You hold no card: draw first, in your relay turn.")
    card = team.holding
    assert card is not None
    match command:
        case PlayCard(stack=i, on=on):
            if not 0 <= i < len(state.stacks):
                raise NO_SUCH_STACK(f"There are {len(state.stacks)} stacks.")
            top = state.stacks[i][-1]
            if top != on:
                raise STACK_CHANGED(f"Stack {i} shows {top} now, not {on}: look again.")
            if not fits(card, top):
                raise DOES_NOT_FIT(f"{card} fits a stack showing one more or one less, not {top}.")
            return [CardPlayed(team=name, seat=seat, card=card, stack=i, on=top)]
        case NewStack():
            if not is_new_stack(card):
                raise NOT_A_NEW_STACK_CARD(f"{card} is not a New Stack card.")
            return [StackStarted(team=name, seat=seat, card=card, stack=len(state.stacks))]
        case Swap():
            if team.swap is None:
                raise NO_SWAP_CARD("Your team has no Swap Card.")
            return [CardsSwapped(team=name, seat=seat, took=team.swap, left=card)]
        case Trash():
            return [CardTrashed(team=name, seat=seat, card=card)]
    raise UNKNOWN_COMMAND(f"Danger Danger has no command {command!r}.")


HOLDING_CARD = Refusal(
    "holding_card",
    "the team holds a card, to be played before the next draw or going out.",
    "Your team holds a card: it must be played before the next draw.",
)
NOT_YOUR_RELAY = Refusal(
    "not_your_relay", "another seat of the team draws next.", "Seat 2 draws next for your team."
)
PILE_EMPTY = Refusal(
    "pile_empty", "the team's draw pile is empty.", "Your draw pile is empty: wait, or go out."
)


def _draw(team: TeamState, name: Team, seat: int) -> list[Event]:
    if team.holding is not None:
        raise HOLDING_CARD("Your team holds a card: it must be played before the next draw.")
    if team.seats[team.relay] != seat:
        raise NOT_YOUR_RELAY(f"Seat {team.seats[team.relay]} draws next for your team.")
    if not team.pile:
        # RULINGS [house]: with an empty draw pile a team can only wait, swap, or go out.
        raise PILE_EMPTY("Your draw pile is empty: wait, or go out.")
    events: list[Event] = [DeclarationsCleared(team=name)] if team.declared else []
    return [*events, CardDrawn(team=name, seat=seat, card=team.pile[0])]


ALREADY_DECLARED = Refusal(
    "already_declared", "the seat's hands are flat already.", "Your hands are flat already."
)


def _go_out(
    state: DangerDangerState, team: TeamState, name: Team, seat: int, shuffler: Shuffler
) -> list[Event]:
    """ "every player on your team must have both hands flat on the table at the same
    time. If anyone is holding a card, they must successfully play it" first."""
    if team.holding is not None:
        raise HOLDING_CARD("Your team holds a card: play it before going out.")
    if seat in team.declared:
        raise ALREADY_DECLARED("Your hands are flat already.")
    events: list[Event] = [OutDeclared(team=name, seat=seat)]
    if len(team.declared) + 1 < len(team.seats):
        return events
    events.append(TeamOut(team=name))
    other: Team = "yellow" if name == "pink" else "pink"
    if not state.teams[other].out:
        return events
    showing = cases_showing(state)
    winner: Team | None = None  # a tie: the round is replayed
    if showing["pink"] != showing["yellow"]:
        winner = "pink" if showing["pink"] > showing["yellow"] else "yellow"
    return events + _score(state, "both_out", showing, winner, shuffler)


def _score(
    state: DangerDangerState,
    reason: ScoreReason,
    showing: dict[str, int] | None,
    winner: Team | None,
    shuffler: Shuffler,
) -> list[Event]:
    scored = _scored(state, reason, showing, winner)
    tokens = scored.tokens
    events: list[Event] = [scored]
    if winner is not None and tokens[winner] >= TOKENS_TO_WIN:
        return [*events, GameEnded(tokens=tokens, winner=winner)]
    # "Collect the cards on the table and shuffle each team's deck separately."
    next_round, attempt = (state.round + 1, 1) if winner else (state.round, state.attempt + 1)
    return events + _deal(state.options, next_round, attempt, state.shuffles, shuffler)


def _scored(
    state: DangerDangerState,
    reason: ScoreReason,
    showing: dict[str, int] | None,
    winner: Team | None,
) -> RoundScored:
    tokens = dict(state.tokens)
    if winner is not None:
        tokens[winner] += 1
    return RoundScored(
        round=state.round,
        attempt=state.attempt,
        reason=reason,
        cases=showing,
        winner=winner,
        tokens=tokens,
    )


def legal(state: DangerDangerState, seat: int) -> list[Command]:
    if state.phase == "over" or not state.teams:
        return []
    team = state.teams[state.team_of(seat)]
    if team.out:
        return []
    if team.holding is not None:
        if team.holder != seat:
            return []
        card = team.holding
        moves: list[Command] = [
            PlayCard(stack=i, on=stack[-1])
            for i, stack in enumerate(state.stacks)
            if fits(card, stack[-1])
        ]
        if is_new_stack(card):
            moves.append(NewStack())
        if team.swap is not None:
            moves.append(Swap())
        return [*moves, Trash()]
    moves = []
    if team.seats[team.relay] == seat and team.pile:
        moves.append(DrawCard())
    if seat not in team.declared:
        moves.append(GoOut())
    return moves


REFUSALS = Refusals(
    decide=(
        TEAM_OUT,
        NOT_HOLDING,
        HOLDING_CARD,
        NOT_YOUR_RELAY,
        PILE_EMPTY,
        ALREADY_DECLARED,
        NO_SUCH_STACK,
        STACK_CHANGED,
        DOES_NOT_FIT,
        NOT_A_NEW_STACK_CARD,
        NO_SWAP_CARD,
    ),
    setup=(WRONG_TEAM_SIZE,),
    check_options=(INVALID_DECK, OPTION_OUT_OF_RANGE, INVALID_STACK),
)
"""Every refusal of Danger Danger's rules, in the order the spec lists them."""


def resign(state: DangerDangerState, seat: int) -> list[Event]:
    """A team every member of which has resigned concedes: the other team wins at once, with
    the tokens as they stand. While a member has not, the team plays on, the resigned seat's
    turns in the relay played by the service (docs/rulings.md, "Resigning")."""
    if not state.conceded():
        return []
    other: Team = "yellow" if state.team_of(seat) == "pink" else "pink"
    return [GameEnded(tokens=dict(state.tokens), winner=other)]
