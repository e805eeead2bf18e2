"""decide() and legal(): every rule of Danger 13, each refusal with a stable code.

A card's effect can set off a chain (a card-draw card draws the next card, which may be a
card-draw card again; a packet ends and the next dealer draws; a seat busts and the round is
scored and the next begins). `decide` works the chain out on a scratch copy of the state,
folding each event into the copy as it is decided, so every step is decided against the
state the events before it made, and the state it was given stays untouched.
"""

from __future__ import annotations

import msgspec

from domain.kernel import Command, Event, Refusal, Refusals, Shuffler
from domain.kernel.errors import (
    GAME_OVER,
    INVALID_DECK,
    INVALID_STACK,
    OPTION_OUT_OF_RANGE,
    UNKNOWN_COMMAND,
)
from domain.kernel.game import Timer

from .cards import cards_of, check_deck, kind, plus_signs, value
from .messages import (
    Accept,
    ArrowResolved,
    CardAccepted,
    CardDrawn,
    CardGiven,
    CardPlaced,
    CardRefused,
    CardRevealed,
    CardsWon,
    CardWon,
    Danger13Options,
    DecisionPending,
    GameEnded,
    Give,
    LimitReached,
    PacketDrawn,
    PacketReturned,
    PileShuffled,
    Refuse,
    RoundScored,
    RoundStarted,
)
from .state import Danger13State, evolve, initial, limit_of, row_sum

_copy = msgspec.json.Encoder()


def check_options(options: Danger13Options, seats: int) -> None:
    check_deck(options.deck.counts(), seats)
    if options.stack is not None and sorted(options.stack) != sorted(
        cards_of(options.deck.counts())
    ):
        raise INVALID_STACK("The stack must hold exactly the deck's cards, in any order.")


class _Chain:
    """The events decided so far, and the state they make (a scratch copy)."""

    def __init__(self, state: Danger13State, shuffler: Shuffler) -> None:
        self.state = msgspec.json.decode(_copy.encode(state), type=Danger13State)
        self.shuffler = shuffler
        self.events: list[Event] = []

    def __call__(self, event: Event) -> None:
        self.events.append(event)
        evolve(self.state, event)


def setup(options: Danger13Options, seats: int, shuffler: Shuffler) -> list[Event]:
    """ "Form a draw pile with all the cards, well shuffled." Seat 0 holds the 1st-player card."""
    chain = _Chain(initial(options, seats), shuffler)
    if options.stack is not None:
        chain(
            PileShuffled(
                reason="setup", size=len(options.stack), counter=None, order=list(options.stack)
            )
        )
    else:
        order = shuffler.shuffle(cards_of(options.deck.counts()), 0)
        chain(PileShuffled(reason="setup", size=len(order), counter=0, order=order))
    chain(RoundStarted(round=1, first=0))
    _draw_packet(chain, 0)
    return chain.events


DECISION_PENDING = Refusal(
    "decision_pending",
    "a seat must first refuse or accept the card reaching it.",
    "Seat 2 must first refuse or accept the card reaching it.",
)
NOT_THE_DEALER = Refusal("not_the_dealer", "another seat deals.", "Seat 0 is dealing.")
NO_SUCH_SEAT = Refusal(
    "no_such_seat", "there is no such seat to give the card to.", "There is no seat 5."
)
ALREADY_RECEIVED = Refusal(
    "already_received",
    "that seat has had a card from this packet.",
    "Seat 1 has had a card from this packet: give it to another seat.",
)
NOTHING_TO_DECIDE = Refusal(
    "nothing_to_decide",
    "no card waits for this seat's decision.",
    "No card is waiting for your decision.",
)
NOT_YOUR_DECISION = Refusal(
    "not_your_decision", "another seat decides on the card.", "Seat 1 decides on the card ++3."
)


def decide(state: Danger13State, command: Command, seat: int, shuffler: Shuffler) -> list[Event]:
    if state.phase == "over":
        raise GAME_OVER("The game is over.")
    chain = _Chain(state, shuffler)
    match command:
        case Give(seat=target):
            if state.phase != "give":
                raise DECISION_PENDING(
                    f"Seat {state.pending.seat if state.pending else '?'} must first refuse or "
                    "accept the card reaching it.",
                )
            if seat != state.dealer:
                raise NOT_THE_DEALER(f"Seat {state.dealer} is dealing.")
            if not 0 <= target < state.seats:
                raise NO_SUCH_SEAT(f"There is no seat {target}.")
            if state.received[target]:
                raise ALREADY_RECEIVED(
                    f"Seat {target} has had a card from this packet: give it to another seat.",
                )
            card = state.packet[0]
            chain(CardGiven(dealer=seat, seat=target, card=card, forced=False))
            _arrive(chain, target, card)
        case Refuse() | Accept():
            pending = state.pending
            if pending is None:
                raise NOTHING_TO_DECIDE("No card is waiting for your decision.")
            if seat != pending.seat:
                raise NOT_YOUR_DECISION(f"Seat {pending.seat} decides on the card {pending.card}.")
            if isinstance(command, Refuse):
                # "he then places the "hand" and the refused card on the discard pile"
                chain(CardRefused(seat=seat, card=pending.card))
                _next_card(chain)
            else:
                chain(CardAccepted(seat=seat, card=pending.card))
                _resolve(chain, seat, pending.card)
        case _:
            raise UNKNOWN_COMMAND(f"Danger 13 has no command {command!r}.")
    return chain.events


def legal(state: Danger13State, seat: int) -> list[Command]:
    if state.phase == "give" and seat == state.dealer and state.revealed:
        return [Give(seat=s) for s in range(state.seats) if not state.received[s]]
    if state.phase == "decide" and state.pending is not None and seat == state.pending.seat:
        return [Refuse(), Accept()]
    return []


# A card reaches a seat ---------------------------------------------------------------


def _arrive(chain: _Chain, seat: int, card: str) -> None:
    """ "It allows him to refuse any card he receives later" (a drawn card too)."""
    if "hand" in chain.state.rows[seat]:
        chain(DecisionPending(seat=seat, card=card))
        return
    _resolve(chain, seat, card)


def _resolve(chain: _Chain, seat: int, card: str) -> None:
    state = chain.state
    row = state.rows[seat]
    match kind(card):
        case "plus":
            # "does not place it to the right of his row, but wins it immediately"
            chain(CardWon(seat=seat, card=card))
        case "arrow":
            # "must discard it as well as the last card of his row"; no effect on an empty row
            removed = row[-1] if row else None
            after = row[:-1] if row else row
            chain(
                ArrowResolved(seat=seat, removed=removed, sum=row_sum(after), limit=limit_of(after))
            )
        case _:
            after = [*row, card]
            chain(CardPlaced(seat=seat, card=card, sum=row_sum(after), limit=limit_of(after)))
    if _busts(chain, seat):
        return
    if kind(card) == "draw":
        # "must, in addition, draw the top card of the pile and follow its indications"
        drawn = _take_from_pile(chain, 1)
        if not drawn:
            _score(chain, None)
            return
        chain(CardDrawn(seat=seat, card=drawn[0]))
        _refill_if_exhausted(chain)
        _arrive(chain, seat, drawn[0])
        return
    _next_card(chain)


def _busts(chain: _Chain, seat: int) -> bool:
    """RULINGS: after each card resolves, only the receiving seat is checked."""
    row = chain.state.rows[seat]
    total, limit = row_sum(row), limit_of(row)
    if total < limit:
        return False
    chain(LimitReached(seat=seat, sum=total, limit=limit))
    _score(chain, seat)
    return True


# The packet ---------------------------------------------------------------------------


def _next_card(chain: _Chain) -> None:
    """Reveal the packet's next card; the last is given without a choice; an empty packet
    passes the deal to the left neighbour."""
    state = chain.state
    if state.phase == "decide":
        return
    if not state.packet:
        _draw_packet(chain, (state.dealer + 1) % state.seats)
        return
    card = state.packet[0]
    chain(CardRevealed(dealer=state.dealer, card=card))
    open_seats = [s for s in range(state.seats) if not state.received[s]]
    if len(open_seats) == 1:
        chain(CardGiven(dealer=state.dealer, seat=open_seats[0], card=card, forced=True))
        _arrive(chain, open_seats[0], card)


def _draw_packet(chain: _Chain, dealer: int) -> None:
    """ "He draws a number of cards equal to the number of players" """
    cards = _take_from_pile(chain, chain.state.seats)
    if not cards:
        _score(chain, None)
        return
    chain(PacketDrawn(dealer=dealer, size=len(cards), cards=cards))
    _refill_if_exhausted(chain)
    _next_card(chain)


def _refill_if_exhausted(chain: _Chain) -> None:
    """ "When the draw pile is exhausted, all the cards in the discard pile are well
    shuffled and form the new draw pile. The game continues until the next scoring." """
    if not chain.state.pile and chain.state.discard:
        _reshuffle(chain)


def _reshuffle(chain: _Chain) -> None:
    state = chain.state
    order = chain.shuffler.shuffle(state.discard, state.shuffles)
    chain(PileShuffled(reason="reshuffle", size=len(order), counter=state.shuffles, order=order))


def _take_from_pile(chain: _Chain, count: int) -> list[str]:
    """The top `count` cards; when the pile runs short the discard pile is shuffled into a
    new pile under it, and the game ends at the next scoring."""
    state = chain.state
    if len(state.pile) < count and state.discard:
        _reshuffle(chain)
    return list(state.pile[:count])


# Scoring ------------------------------------------------------------------------------


def _score(chain: _Chain, bust: int | None) -> None:
    state = chain.state
    if state.packet:
        # RULINGS: undealt packet cards go back on top of the draw pile in order.
        chain(PacketReturned(count=len(state.packet), cards=list(state.packet)))
    discarded: list[list[str]] = []
    for seat, row in enumerate([list(r) for r in state.rows]):
        if seat == bust:
            discarded.append(row)  # "puts all the cards turned over in front of him" away
            continue
        keep = [c for c in row if plus_signs(c) > 0]
        if keep:
            chain(CardsWon(seat=seat, count=len(keep), cards=keep))
        discarded.append([c for c in row if plus_signs(c) == 0])
    chain(
        RoundScored(
            round=state.round,
            seat=bust,
            discarded=discarded,
            won_counts=[len(w) for w in state.won],
        )
    )
    if state.final or bust is None:
        # "The game continues until the next scoring ... then the game is over."
        chain(_game_ended(state))
        return
    # "The player who holds the "1st player" card passes it to his left neighbour"
    first = (state.first + 1) % state.seats
    chain(RoundStarted(round=state.round + 1, first=first))
    _draw_packet(chain, first)


# Turn clock ---------------------------------------------------------------------------


def _game_ended(state: Danger13State) -> GameEnded:
    """ "The winner is the one who has the most [+ signs]. In case of a tie, the winner is the
    one whose cards total the highest value." A seat that resigned cannot win."""
    plus = [sum(plus_signs(c) for c in w) for w in state.won]
    values = [sum(value(c) for c in w) for w in state.won]
    left = [s for s in range(state.seats) if s not in state.resigned]
    best = max((plus[s], values[s]) for s in left)
    winners = [s for s in left if (plus[s], values[s]) == best]
    return GameEnded(plus_signs=plus, values=values, winners=winners)


def resign(state: Danger13State, seat: int) -> list[Event]:
    """A resignation that leaves one seat able to win ends the game at once, that seat the
    winner with the cards won as they stand; otherwise the game goes on, the resigned seat
    played by the service (docs/rulings.md, "Resigning")."""
    if sum(s not in state.resigned for s in range(state.seats)) > 1:
        return []
    return [_game_ended(state)]


def timers(state: Danger13State) -> list[Timer]:
    seconds = state.options.turn_seconds
    if seconds is None or state.phase == "over":
        return []
    if state.phase == "decide" and state.pending is not None:
        # the pile and the discard pile change with every card, so a new decision restarts it
        name = f"decide:{state.round}:{state.pending.seat}:{len(state.pile)}:{len(state.discard)}"
    elif state.revealed:
        name = f"give:{state.round}:{state.dealer}:{len(state.packet)}"
    else:
        return []
    return [Timer(name=name, seconds=seconds, public=True)]


def on_timer(state: Danger13State, name: str, shuffler: Shuffler) -> list[Event]:
    """The documented defaults: the dealer gives to the first seat without a card; a seat
    deciding on a card accepts it (the refusal is declined)."""
    if state.phase == "decide" and state.pending is not None:
        return decide(state, Accept(), state.pending.seat, shuffler)
    first_open = state.received.index(False)
    return decide(state, Give(seat=first_open), state.dealer, shuffler)


REFUSALS = Refusals(
    decide=(
        DECISION_PENDING,
        NOT_THE_DEALER,
        NO_SUCH_SEAT,
        ALREADY_RECEIVED,
        NOTHING_TO_DECIDE,
        NOT_YOUR_DECISION,
    ),
    check_options=(INVALID_DECK, OPTION_OUT_OF_RANGE, INVALID_STACK),
)
"""Every refusal of Danger 13's rules, in the order the spec lists them."""
