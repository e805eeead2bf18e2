"""decide() and legal(): every rule check of Danger, each refusal with a stable code."""

from __future__ import annotations

import msgspec

from domain.kernel import Command, Event, Refusal, Refusals, RuleViolation, Shuffler
from domain.kernel.errors import GAME_OVER, INVALID_DECK, NOT_YOUR_TURN, UNKNOWN_COMMAND
from domain.kernel.game import Timer, default_moves

from .cards import COLOURS, FULL_DECK, LIMIT, Colour, check_deck, colour, value
from .messages import (
    CardDiscarded,
    CardDrawn,
    CardPlaced,
    DangerOptions,
    DeckShuffled,
    DiscardReason,
    Draw,
    EndTurn,
    GameEnded,
    Protect,
    RoundEnded,
    RoundEndReason,
    RoundScored,
    RoundStarted,
    RowClosed,
    RowProtected,
    TakeDiscard,
    TurnEnded,
)
from .scoring import comparable_sum, next_starter, score_round, winners
from .state import ROUNDS, DangerState, Row, evolve

FOURTH_ROW_CARDS = 6  # "...may only be protected if the player has 6 or more cards in that row."
MIN_CARDS_TO_PROTECT = 2  # "You must have 2 or more cards in front of you before you may protect"

Rows = list[dict[Colour, Row]]


def check_options(options: DangerOptions, seats: int) -> None:
    if options.deck is not None:
        check_deck(options.deck)


def setup(options: DangerOptions, seats: int, shuffler: Shuffler) -> list[Event]:
    """ "The cards are shuffled and placed in an easily accessible face-down stack." """
    if options.deck is not None:
        order, counter = list(options.deck), None
    else:
        order, counter = shuffler.shuffle(FULL_DECK, 0), 0
    return [
        DeckShuffled(reason="setup", size=len(order), counter=counter, order=order),
        RoundStarted(round=1, starter=0),
    ]


NO_DISCARD_TO_TAKE = Refusal(
    "no_discard_to_take",
    "only a card discarded on the turn just before may be taken.",
    "Only a card discarded on the turn just before may be taken.",
)
DISCARD_WOULD_NOT_PLACE = Refusal(
    "discard_would_not_place",
    "the discard's row is protected or closed, so the card could only be discarded again.",
    "Your red row is protected: R7 could only be discarded again.",
)


def decide(state: DangerState, command: Command, seat: int, shuffler: Shuffler) -> list[Event]:
    if state.phase in ("over", "scoring"):
        raise GAME_OVER("The game is over.")
    if seat != state.turn:
        raise NOT_YOUR_TURN(f"It is seat {state.turn}'s turn.")
    match command:
        case Draw():
            _must_draw_now(state)
            return _draw(state, seat, shuffler)
        case TakeDiscard():
            _must_draw_now(state)
            if not (state.takeable and state.discard):
                raise NO_DISCARD_TO_TAKE(
                    "Only a card discarded on the turn just before may be taken."
                )
            card = state.discard[-1]
            if not _would_place(state, seat, card):
                raise DISCARD_WOULD_NOT_PLACE(
                    f"Your {colour(card)} row is {_done_word(state, seat, card)}: "
                    f"{card} could only be discarded again."
                )
            return [CardDrawn(seat=seat, card=card, source="discard"), *_place(state, seat, card)]
        case Protect(colour=c):
            _must_have_placed(state)
            _check_protect(state.rows, seat, c, state.drawn, state.options)
            events: list[Event] = [RowProtected(seat=seat, colour=c)]
            rows = _with_row(state.rows, seat, c, protected=True)
            if _all_done(rows[seat]):
                return events + _end_round(state, rows, seat, "fourth_row_protected")
            return [*events, _turn_ended(state, seat)]
        case EndTurn():
            _must_have_placed(state)
            return [_turn_ended(state, seat)]
    raise UNKNOWN_COMMAND(f"Danger has no command {type(command).__name__}.")


def legal(state: DangerState, seat: int) -> list[Command]:
    if state.phase in ("over", "scoring") or seat != state.turn:
        return []
    if state.phase == "draw":
        moves: list[Command] = [Draw()]
        if state.takeable and state.discard and _would_place(state, seat, state.discard[-1]):
            moves.append(TakeDiscard())
        return moves
    return [*(Protect(colour=c) for c in _protectable(state.rows, seat, state)), EndTurn()]


# The turn ---------------------------------------------------------------------------

ALREADY_DRAWN = Refusal(
    "already_drawn",
    "the seat has drawn this turn; protect a row or end the turn.",
    "You have drawn this turn: protect a row or end your turn.",
)
DRAW_FIRST = Refusal(
    "draw_first",
    "draw and place a card before protecting a row.",
    "You must draw and place a card before protecting a row.",
)


def _must_draw_now(state: DangerState) -> None:
    if state.phase != "draw":
        raise ALREADY_DRAWN("You have drawn this turn: protect a row or end your turn.")


def _must_have_placed(state: DangerState) -> None:
    if state.phase != "protect":
        raise DRAW_FIRST("You must draw and place a card before protecting a row.")


def _would_place(state: DangerState, seat: int, card: str) -> bool:
    """RULINGS [house, liveness]: the discard may be taken only into an open row. Taking a
    card only to discard it again changes nothing and lets the seats pass one card around
    forever."""
    return not state.rows[seat][colour(card)].done


def _done_word(state: DangerState, seat: int, card: str) -> str:
    return "protected" if state.rows[seat][colour(card)].protected else "closed"


def _draw(state: DangerState, seat: int, shuffler: Shuffler) -> list[Event]:
    events: list[Event] = []
    stack = state.stack
    if not stack:
        # RULINGS: shuffle the discard pile (the pending discard included) into a new stack.
        if not state.discard:
            return _end_round(state, state.rows, None, "no_cards")
        stack = shuffler.shuffle(state.discard, state.shuffles)
        events.append(
            DeckShuffled(reason="reshuffle", size=len(stack), counter=state.shuffles, order=stack)
        )
    card = stack[0]
    return [*events, CardDrawn(seat=seat, card=card, source="stack"), *_place(state, seat, card)]


def _place(state: DangerState, seat: int, card: str) -> list[Event]:
    """ "You must place the drawn card in the corresponding colored row as long as the row is
    not protected or closed!" Otherwise it is discarded face-up and the turn ends."""
    c = colour(card)
    row = state.rows[seat][c]
    if row.done:
        reason: DiscardReason = "row_protected" if row.protected else "row_closed"
        return [CardDiscarded(seat=seat, card=card, reason=reason), _turn_ended(state, seat)]
    total = row.sum + value(card)
    events: list[Event] = [CardPlaced(seat=seat, card=card, colour=c, sum=total)]
    if total > LIMIT:
        events.append(RowClosed(seat=seat, colour=c, sum=total))
        rows = _with_row(state.rows, seat, c, cards=[*row.cards, card], sum=total, closed=True)
        if _all_done(rows[seat]):
            return events + _end_round(state, rows, seat, "fourth_row_closed")
    return events


def _turn_ended(state: DangerState, seat: int) -> TurnEnded:
    return TurnEnded(seat=seat, next=(seat + 1) % state.seats)


# Protection -------------------------------------------------------------------------

ROW_PROTECTED = Refusal(
    "row_protected", "that row is protected already.", "Your red row is already protected."
)
ROW_CLOSED = Refusal("row_closed", "that row is closed.", "Your red row is closed.")
DRAWN_COLOUR = Refusal(
    "drawn_colour",
    "the seat drew a card of that colour this turn.",
    "You may not protect red: you drew a red card this turn.",
)
TOO_FEW_CARDS = Refusal(
    "too_few_cards",
    "protecting needs 2 or more cards in front of the seat.",
    "You must have 2 or more cards in front of you to protect a row.",
)
ROW_EMPTY = Refusal(
    "row_empty", "the seat has no row of that colour.", "You have no red row to protect."
)
SMALLEST_SHARED = Refusal(
    "smallest_shared",
    "the smallest sum of that colour is shared, so no one may protect it.",
    "The smallest red sum (4) is shared, so no one may protect red.",
)
SMALLEST_ROW = Refusal(
    "smallest_row",
    "the seat's row has the smallest sum of its colour.",
    "Your red row has the smallest red sum; you may not protect it.",
)
FOURTH_ROW_TOO_SHORT = Refusal(
    "fourth_row_too_short",
    "the fourth row is protected only with 6 or more cards (option `fourth_row_needs`).",
    "Your fourth row may be protected only with 6 or more cards in your row.",
)


def _check_protect(
    rows: Rows, seat: int, c: Colour, drawn: str | None, options: DangerOptions
) -> None:
    mine = rows[seat]
    row = mine[c]
    if row.protected:
        raise ROW_PROTECTED(f"Your {c} row is already protected.")
    if row.closed:
        raise ROW_CLOSED(f"Your {c} row is closed.")
    if drawn is not None and colour(drawn) == c:
        raise DRAWN_COLOUR(f"You may not protect {c}: you drew a {c} card this turn.")
    in_front = sum(len(r.cards) for r in mine.values())
    if in_front < MIN_CARDS_TO_PROTECT:
        raise TOO_FEW_CARDS("You must have 2 or more cards in front of you to protect a row.")
    if not row.cards:
        raise ROW_EMPTY(f"You have no {c} row to protect.")
    sums = [comparable_sum(r[c]) for r in rows]
    low = min(sums)
    if sums.count(low) > 1:
        raise SMALLEST_SHARED(f"The smallest {c} sum ({low}) is shared, so no one may protect {c}.")
    if sums[seat] == low:
        raise SMALLEST_ROW(f"Your {c} row has the smallest {c} sum; you may not protect it.")
    others_done = all(r.done for col, r in mine.items() if col != c)
    if others_done:
        count = len(row.cards) if options.fourth_row_needs == "row" else in_front
        if count < FOURTH_ROW_CARDS:
            where = f"{c} row" if options.fourth_row_needs == "row" else "front of you"
            raise FOURTH_ROW_TOO_SHORT(
                f"Your fourth row may be protected only with 6 or more cards in your {where}."
            )


def _protectable(rows: Rows, seat: int, state: DangerState) -> list[Colour]:
    out = []
    for c in COLOURS:
        try:
            _check_protect(rows, seat, c, state.drawn, state.options)
        except RuleViolation:
            continue
        out.append(c)
    return out


# Round end --------------------------------------------------------------------------


def _with_row(rows: Rows, seat: int, c: Colour, **changes: object) -> Rows:
    """The rows as they will be after a change to one row, leaving `rows` untouched."""
    out = list(rows)
    out[seat] = {**rows[seat], c: msgspec.structs.replace(rows[seat][c], **changes)}
    return out


def _all_done(rows: dict[Colour, Row]) -> bool:
    return all(r.done for r in rows.values())


def _end_round(
    state: DangerState, rows: Rows, seat: int | None, reason: RoundEndReason
) -> list[Event]:
    """ "The round ends immediately when any player protects or closes his fourth card row." """
    scores, points = score_round(rows)
    totals = [t + p for t, p in zip(state.totals, points, strict=True)]
    events: list[Event] = [
        RoundEnded(round=state.round, seat=seat, reason=reason),
        RoundScored(round=state.round, rows=scores, points=points, totals=totals),
    ]
    if state.round >= ROUNDS:
        events.append(GameEnded(totals=totals, winners=winners(totals, state.resigned)))
    else:
        events.append(
            RoundStarted(round=state.round + 1, starter=next_starter(totals, state.starter))
        )
    return events


# Turn clock ---------------------------------------------------------------------------


def timers(state: DangerState) -> list[Timer]:
    seconds = state.options.turn_seconds
    if seconds is None or state.phase not in ("draw", "protect"):
        return []
    return [Timer(name=f"turn:{state.round}:{state.turn}", seconds=seconds, public=True)]


def on_timer(state: DangerState, name: str, shuffler: Shuffler) -> list[Event]:
    """The documented default: the seat draws from the stack and protects nothing."""
    seat = state.turn

    def choose(s: DangerState) -> tuple[int, Command] | None:
        if s.turn != seat or s.round != state.round or s.phase in ("over", "scoring"):
            return None
        return seat, Draw() if s.phase == "draw" else EndTurn()

    return default_moves(state, decide, evolve, choose, shuffler)


REFUSALS = Refusals(
    decide=(
        NOT_YOUR_TURN,
        ALREADY_DRAWN,
        DRAW_FIRST,
        ROW_PROTECTED,
        ROW_CLOSED,
        DRAWN_COLOUR,
        TOO_FEW_CARDS,
        ROW_EMPTY,
        SMALLEST_SHARED,
        SMALLEST_ROW,
        FOURTH_ROW_TOO_SHORT,
        NO_DISCARD_TO_TAKE,
        DISCARD_WOULD_NOT_PLACE,
    ),
    check_options=(INVALID_DECK,),
)
"""Every refusal of Danger's rules, in the order the spec lists them."""


def resign(state: DangerState, seat: int) -> list[Event]:
    """A resignation that leaves one seat able to win ends the game at once, that seat the
    winner with the totals as they stand; otherwise the game goes on (docs/rulings.md,
    "Resigning")."""
    left = [s for s in range(state.seats) if s not in state.resigned]
    if len(left) > 1:
        return []
    return [GameEnded(totals=list(state.totals), winners=left)]
