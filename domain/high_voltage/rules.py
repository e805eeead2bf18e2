"""decide() and legal(): every rule check of High Voltage, each refusal with a stable code."""

from __future__ import annotations

from itertools import combinations

from domain.kernel import Command, Event, OptionsRefusal, Refusal, Refusals, Shuffler
from domain.kernel.errors import GAME_OVER, INVALID_DECK, NOT_YOUR_TURN, UNKNOWN_COMMAND
from domain.kernel.game import Timer, default_moves

from .cards import DECKS, HAND, KEEP, TRICKS, check_deck
from .messages import (
    CardPlayed,
    CardsPassed,
    CardsPicked,
    DeckShuffled,
    GameEnded,
    HandDealt,
    HighVoltageOptions,
    HighVoltageRoundScored,
    LeaderDrawn,
    Pick,
    Play,
    RoundStarted,
    SeatScore,
    TrickStarted,
    TrickWon,
)
from .scoring import reasons, score, zones
from .state import HighVoltageState, evolve

TEAM_SEATS = 4


def teams(state_or_options: HighVoltageOptions, seats: int) -> list[list[int]] | None:
    """Team mode: "Players should sit alternatively": seats 0+2 against 1+3."""
    return [[0, 2], [1, 3]] if state_or_options.teams and seats == TEAM_SEATS else None


TEAMS_NEED_FOUR = OptionsRefusal(
    "teams_need_four",
    "High Voltage's team mode is played by exactly 4 seats.",
    "Team mode is played by exactly 4 seats.",
)


def check_options(options: HighVoltageOptions, seats: int) -> None:
    if options.teams and seats != TEAM_SEATS:
        raise TEAMS_NEED_FOUR("Team mode is played by exactly 4 seats.")
    if options.deck is not None:
        check_deck(options.deck, seats)


def setup(options: HighVoltageOptions, seats: int, shuffler: Shuffler) -> list[Event]:
    # RULINGS: "Round 1 leader: seat 0."
    return _deal(options, seats, 1, 0, shuffler, counter=0)


def _deal(
    options: HighVoltageOptions,
    seats: int,
    round_: int,
    leader: int,
    shuffler: Shuffler,
    counter: int,
) -> list[Event]:
    """ "Shuffle the deck and deal 9 cards to each player. Discard the remaining cards
    without looking at them." """
    if options.deck is not None:
        order, used = list(options.deck), None
    else:
        order, used = shuffler.shuffle(DECKS[seats], counter), counter
    events: list[Event] = [
        RoundStarted(round=round_, leader=leader),
        DeckShuffled(round=round_, size=len(order), counter=used, order=order),
    ]
    for seat in range(seats):
        hand = sorted(order[seat * HAND : (seat + 1) * HAND])
        events.append(HandDealt(seat=seat, cards=hand))
    return events


def decide(state: HighVoltageState, command: Command, seat: int, shuffler: Shuffler) -> list[Event]:
    if state.phase == "over":
        raise GAME_OVER("The game is over.")
    match command:
        case Pick(cards=cards):
            return _pick(state, seat, cards)
        case Play(card=card):
            return _play(state, seat, card, shuffler)
    raise UNKNOWN_COMMAND(f"High Voltage has no command {command!r}.")


def legal(state: HighVoltageState, seat: int) -> list[Command]:
    if state.phase == "draft":
        if state.picked[seat]:
            return []
        return [Pick(cards=list(c)) for c in combinations(sorted(state.packets[seat]), KEEP)]
    if state.phase == "tricks" and seat == state.turn:
        return [Play(card=c) for c in sorted(state.hands[seat])]
    return []


# The draft --------------------------------------------------------------------------

NOT_DRAFTING = Refusal(
    "not_drafting", "the draft is over; play a card.", "The draft is over: play a card."
)
ALREADY_PICKED = Refusal(
    "already_picked",
    "the seat has picked; the others are still choosing.",
    "You have picked; the others are still choosing.",
)
PICK_THREE = Refusal(
    "pick_three", "pick exactly 3 different cards.", "Pick exactly 3 different cards."
)
CARD_NOT_OFFERED = Refusal(
    "card_not_offered",
    "a card the seat is not choosing from.",
    "You are not choosing from [44]: pick from [13, 21, 27, 38, 52].",
)


def _pick(state: HighVoltageState, seat: int, cards: list[int]) -> list[Event]:
    if state.phase != "draft":
        raise NOT_DRAFTING("The draft is over: play a card.")
    if state.picked[seat]:
        raise ALREADY_PICKED("You have picked; the others are still choosing.")
    if len(cards) != KEEP or len(set(cards)) != KEEP:
        raise PICK_THREE("Pick exactly 3 different cards.")
    offered = state.packets[seat]
    if not set(cards) <= set(offered):
        missing = sorted(set(cards) - set(offered))
        raise CARD_NOT_OFFERED(f"You are not choosing from {missing}: pick from {sorted(offered)}.")
    kept = sorted(cards)
    events: list[Event] = [CardsPicked(seat=seat, stage=state.stage, cards=kept)]
    if all(done for s, done in enumerate(state.picked) if s != seat):
        # "each pick is hidden until all have picked": the passes come with the last pick.
        for s in range(state.seats):
            rest = [c for c in state.packets[s] if s != seat or c not in kept]
            events.append(
                CardsPassed(stage=state.stage, seat=s, to=(s + 1) % state.seats, cards=sorted(rest))
            )
        if state.stage == 2:
            events.append(TrickStarted(trick=1, leader=state.leader))
    return events


# The tricks -------------------------------------------------------------------------

NOT_PLAYING = Refusal(
    "not_playing", "the draft is not over; pick cards.", "The draft is not over: pick your cards."
)
CARD_NOT_IN_HAND = Refusal(
    "card_not_in_hand", "the seat does not hold that card.", "You hold no 38."
)


def _play(state: HighVoltageState, seat: int, card: int, shuffler: Shuffler) -> list[Event]:
    if state.phase != "tricks":
        raise NOT_PLAYING("The draft is not over: pick your cards.")
    if seat != state.turn:
        raise NOT_YOUR_TURN(f"It is seat {state.turn}'s turn.")
    if card not in state.hands[seat]:
        raise CARD_NOT_IN_HAND(f"You hold no {card}.")
    events: list[Event] = [CardPlayed(seat=seat, card=card)]
    plays = [(p.seat, p.card) for p in state.plays] + [(seat, card)]
    if len(plays) < state.seats:
        return events
    # "The person who played the highest card wins the trick ... and starts the next trick."
    winner, best = max(plays, key=lambda p: p[1])
    events.append(TrickWon(trick=state.trick, seat=winner, card=best, cards=[c for _, c in plays]))
    if state.trick < TRICKS:
        return [*events, TrickStarted(trick=state.trick + 1, leader=winner)]
    won = [list(w) for w in state.won]
    won[winner] += [c for _, c in plays]
    return events + _end_round(state, won, shuffler)


# Round end --------------------------------------------------------------------------


def _end_round(state: HighVoltageState, won: list[list[int]], shuffler: Shuffler) -> list[Event]:
    """ "After playing 8 tricks, the round ends and scoring takes place. The last card in
    hand is NOT played." """
    points = [score(w) for w in won]
    totals = [t + p for t, p in zip(state.totals, points, strict=True)]
    sides = teams(state.options, state.seats)
    team_totals = [sum(totals[s] for s in side) for side in sides] if sides else None
    events: list[Event] = [
        HighVoltageRoundScored(
            round=state.round,
            seats=[
                SeatScore(seat=s, won=sorted(w), zones=zones(w), cards=reasons(w), points=p)
                for s, (w, p) in enumerate(zip(won, points, strict=True))
            ],
            points=points,
            totals=totals,
            team_totals=team_totals,
        )
    ]
    best = _best_seats(totals, team_totals, sides, state.resigned)
    tied_at_the_end = len({_side_of(s, sides) for s in best}) > 1
    extra = state.options.tiebreak_round and state.round == state.rounds == 3 and tied_at_the_end
    if state.round >= state.rounds and not extra:
        return [*events, GameEnded(totals=totals, team_totals=team_totals, winners=best)]
    counter = state.shuffles
    leader = _next_leader(totals, team_totals, sides)
    if len(leader) > 1:
        # RULINGS: "a tie is decided by a random draw from the game's seeded shuffle,
        # recorded as an event".
        index = shuffler.pick(len(leader), counter)
        events.append(
            LeaderDrawn(
                round=state.round + 1,
                tied=leader,
                counter=counter,
                index=index,
                leader=leader[index],
            )
        )
        counter += 1
        first = leader[index]
    else:
        first = leader[0]
    return events + _deal(state.options, state.seats, state.round + 1, first, shuffler, counter)


def _side_of(seat: int, sides: list[list[int]] | None) -> int:
    if sides is None:
        return seat
    return next(i for i, side in enumerate(sides) if seat in side)


def _best_seats(
    totals: list[int],
    team_totals: list[int] | None,
    sides: list[list[int]] | None,
    resigned: list[int],
) -> list[int]:
    """The winners: the highest total; in team mode every seat of the highest team(s). A
    seat that resigned cannot win, and a team of which both seats did is out of the running
    (docs/rulings.md, "Resigning")."""
    if sides is None or team_totals is None:
        top = max(t for s, t in enumerate(totals) if s not in resigned)
        return [s for s, t in enumerate(totals) if t == top and s not in resigned]
    running = [i for i, side in enumerate(sides) if any(s not in resigned for s in side)]
    top = max(team_totals[i] for i in running)
    return sorted(
        s for i in running if team_totals[i] == top for s in sides[i] if s not in resigned
    )


def resign(state: HighVoltageState, seat: int) -> list[Event]:
    """A resignation that leaves one seat (in team mode, one team) able to win ends the game
    at once, that side the winner with the totals as they stand; otherwise the game goes on,
    the resigned seat played by the service (docs/rulings.md, "Resigning")."""
    fixed = teams(state.options, state.seats)
    sides = fixed or [[s] for s in range(state.seats)]
    running = [side for side in sides if any(s not in state.resigned for s in side)]
    if len(running) > 1:
        return []
    totals = list(state.totals)
    team_totals = [sum(totals[s] for s in side) for side in fixed] if fixed else None
    winners = [s for s in running[0] if s not in state.resigned]
    return [GameEnded(totals=totals, team_totals=team_totals, winners=winners)]


def _next_leader(
    totals: list[int], team_totals: list[int] | None, sides: list[list[int]] | None
) -> list[int]:
    """ "In round 2 and 3, the player with the highest score at the moment starts"; in team
    mode "the player with the most points on the leading team". More than one seat: a tie."""
    candidates = _best_seats(totals, team_totals, sides, [])  # a seat played on may lead
    top = max(totals[s] for s in candidates)
    return [s for s in candidates if totals[s] == top]


# Turn clock ---------------------------------------------------------------------------


def timers(state: HighVoltageState) -> list[Timer]:
    seconds = state.options.turn_seconds
    if seconds is None or state.phase == "over":
        return []
    if state.phase == "draft":
        name = f"draft:{state.round}:{state.stage}"
    else:
        name = f"play:{state.round}:{state.trick}:{state.turn}"
    return [Timer(name=name, seconds=seconds, public=True)]


def on_timer(state: HighVoltageState, name: str, shuffler: Shuffler) -> list[Event]:
    """The documented defaults: every seat still choosing keeps its 3 lowest cards; the seat
    to play plays its lowest card."""
    round_, phase, stage, trick = state.round, state.phase, state.stage, state.trick

    def choose(s: HighVoltageState) -> tuple[int, Command] | None:
        if (s.round, s.phase, s.stage, s.trick) != (round_, phase, stage, trick):
            return None
        if s.phase == "draft":
            seat = next((i for i, done in enumerate(s.picked) if not done), None)
            return None if seat is None else (seat, Pick(cards=sorted(s.packets[seat])[:KEEP]))
        if phase == "tricks" and s.turn == state.turn and len(s.plays) == len(state.plays):
            return s.turn, Play(card=min(s.hands[s.turn]))
        return None

    return default_moves(state, decide, evolve, choose, shuffler)


REFUSALS = Refusals(
    decide=(
        NOT_DRAFTING,
        ALREADY_PICKED,
        PICK_THREE,
        CARD_NOT_OFFERED,
        NOT_PLAYING,
        NOT_YOUR_TURN,
        CARD_NOT_IN_HAND,
    ),
    check_options=(TEAMS_NEED_FOUR, INVALID_DECK),
)
"""Every refusal of High Voltage's rules, in the order the spec lists them."""
