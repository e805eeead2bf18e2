"""Every shuffle of a finished Danger Hall game, derived again from its export and its seed.

An independent implementation of docs/fairness.md, written from that document alone and
using only the Python standard library. From a game's events (the export's envelopes, one
dict each) and the revealed seed it:

- makes the mix from the seats' entropy as they stood at `game_started`;
- rebuilds the input of every shuffle from the events (a setup's whole deck; a
  reshuffle's discard pile, card by card, in the documented order), shuffles it again
  with algorithm `hmac-sha256-fy-v1` and the event's counter, and compares it with the
  recorded `order`; the counters must run 0, 1, 2 ... with none skipped;
- draws every `leader_drawn` by lot again;
- checks that every card dealt or drawn from a shuffled stack is the documented position
  of its recorded order (Danger's draws, High Voltage's hands, Danger 13's packets,
  card-draw cards and returned packets, Danger Danger's stacks, Swap Cards and draws).

`first_shuffle_failure` names the first event where a check fails, or returns None.
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

ALGORITHM = "hmac-sha256-fy-v1"


@dataclass(frozen=True)
class Failure:
    seq: int | None
    """The first event where the check fails (None: not tied to one event)."""
    message: str
    """A sentence an auditor understands: what was expected, what was found."""


# The algorithm ------------------------------------------------------------------------


def entropy_mix(entropy: Sequence[str]) -> bytes:
    """SHA-256 over each seat's entropy, UTF-8, preceded by its byte length (4 bytes BE)."""
    parts = b"".join(len(e.encode("utf-8")).to_bytes(4, "big") + e.encode("utf-8") for e in entropy)
    return hashlib.sha256(parts).digest()


class _Stream:
    """The byte stream of one counter: HMAC-SHA256(seed, mix || counter || block), block
    = 0, 1, 2 ..., read 4 bytes at a time."""

    def __init__(self, seed: bytes, mix: bytes, counter: int) -> None:
        self.seed, self.prefix = seed, mix + counter.to_bytes(8, "big")
        self.block, self.buffer = 0, b""

    def u32(self) -> int:
        if len(self.buffer) < 4:
            message = self.prefix + self.block.to_bytes(8, "big")
            self.buffer += hmac.new(self.seed, message, hashlib.sha256).digest()
            self.block += 1
        value, self.buffer = int.from_bytes(self.buffer[:4], "big"), self.buffer[4:]
        return value

    def below(self, n: int) -> int:
        """A uniform integer in [0, n), by rejection sampling."""
        limit = 2**32 - (2**32 % n)
        while True:
            value = self.u32()
            if value < limit:
                return value % n


def shuffle(seed: bytes, mix: bytes, items: Sequence[Any], counter: int) -> list[Any]:
    """Fisher-Yates: for i from len - 1 down to 1, swap items i and j = uniform(i + 1)."""
    out = list(items)
    stream = _Stream(seed, mix, counter)
    for i in range(len(out) - 1, 0, -1):
        j = stream.below(i + 1)
        out[i], out[j] = out[j], out[i]
    return out


def draw_by_lot(seed: bytes, mix: bytes, n: int, counter: int) -> int:
    return _Stream(seed, mix, counter).below(n)


# The decks, as docs/fairness.md gives them --------------------------------------------

DANGER_DECK: list[str] = [f"{c}{n}" for c in "RBGY" for n in range(1, 10) for _ in range(3)]
DANGER_COLOURS = ("red", "blue", "green", "yellow")
DANGER_INITIALS = {"R": "red", "B": "blue", "G": "green", "Y": "yellow"}

HIGH_VOLTAGE_DECKS: dict[int, list[int]] = {
    2: [c for c in range(10, 50) if c % 10 <= 4],
    3: [c for c in range(10, 50) if c % 10 <= 6],
    4: list(range(10, 50)),
    5: list(range(10, 60)),
}
HAND = 9

DANGER_13_DEFAULT: dict[str, int] = {
    "+": 6, "++": 3, "++1": 4, "++2": 4, "++3": 4, "++4": 3, "++5": 3,
    "+0": 5, "+1": 4, "+2": 4, "+3": 4, "+4": 4, "1": 6, "2": 5, "3": 5, "4": 5,
    "arrow": 6, "draw0": 5, "draw1": 4, "draw2": 4, "draw3": 4, "draw4": 4,
    "hand": 8, "limit18": 5,
}  # fmt: skip
DANGER_DANGER_DEFAULT: dict[str, int] = {
    "1": 4, "2": 3, "2x5": 1, "3": 3, "3n": 1, "4": 3, "4x10": 1,
    "5": 3, "5x5": 1, "6": 3, "6n": 1, "7": 3, "7x5": 1, "8": 4,
}  # fmt: skip
TEAM_INITIALS = {"pink": "P", "yellow": "Y"}
STACKS_EACH = 3


def by_code_point(counts: dict[str, int], prefix: str = "") -> list[str]:
    """Each name `count` times, the names sorted by Unicode code point."""
    return [prefix + name for name in sorted(counts) for _ in range(counts[name])]


# Checking -----------------------------------------------------------------------------


class _Found(Exception):
    def __init__(self, seq: int | None, message: str) -> None:
        super().__init__(message)
        self.seq, self.message = seq, message


def _cards(cards: Sequence[Any], most: int = 8) -> str:
    shown = " ".join(str(c) for c in cards[:most])
    return shown + (f" ... ({len(cards)} cards)" if len(cards) > most else "")


def _first_difference(expected: Sequence[Any], found: Sequence[Any]) -> str:
    for i, (a, b) in enumerate(zip(expected, found, strict=False)):
        if a != b:
            return f"at position {i} the shuffle gives {a!r} but the log has {b!r}"
    return f"the shuffle gives {len(expected)} cards but the log has {len(found)}"


class _Game:
    """What one game's events do to its stacks and piles. `see` is called for every event
    after `game_started`; it raises _Found at the first event that breaks the document."""

    def __init__(self, verify: _Verifier) -> None:
        self.v = verify

    def see(self, seq: int, kind: str, data: dict[str, Any]) -> None:
        raise NotImplementedError


class _Verifier:
    def __init__(self, seed: bytes, mix: bytes, created: dict[str, Any]) -> None:
        self.seed, self.mix, self.created = seed, mix, created
        self.seats: int = created["seats"]
        self.next_counter = 0

    def counter(self, seq: int, kind: str, data: dict[str, Any]) -> int:
        counter = data.get("counter")
        if type(counter) is not int or counter != self.next_counter:
            raise _Found(
                seq,
                f"{kind} uses counter {counter}; the counters run 0, 1, 2 ... in the order "
                f"of the log, so {self.next_counter} was due.",
            )
        self.next_counter += 1
        return counter

    def shuffled(
        self, seq: int, kind: str, data: dict[str, Any], items: list[Any], what: str
    ) -> list[Any]:
        """Check a recorded shuffle of `items` (its input, described as `what`)."""
        counter = self.counter(seq, kind, data)
        order = data.get("order")
        if order is None:
            raise _Found(seq, f"{kind} has no order: the export is redacted, not complete.")
        expected = shuffle(self.seed, self.mix, items, counter)
        if order != expected:
            raise _Found(
                seq,
                f"{kind} (counter {counter}) records the order {_cards(order)}, but shuffling "
                f"{what} ({len(items)} cards: {_cards(items)}) gives {_cards(expected)}: "
                f"{_first_difference(expected, order)}.",
            )
        if data.get("size") != len(order):
            raise _Found(seq, f"{kind} says size {data.get('size')} for {len(order)} cards.")
        return expected


class _Danger(_Game):
    def __init__(self, verify: _Verifier) -> None:
        super().__init__(verify)
        self.stack: list[str] = []
        self.drawn = 0  # cards drawn from the stack since its shuffle
        self.discard: list[str] = []
        self.rows = self._empty_rows()

    def _empty_rows(self) -> list[dict[str, list[str]]]:
        return [{c: [] for c in DANGER_COLOURS} for _ in range(self.v.seats)]

    def see(self, seq: int, kind: str, data: dict[str, Any]) -> None:
        if kind == "deck_shuffled":
            if data.get("reason") == "setup":
                items, what = list(DANGER_DECK), "the 108 cards R1 R1 R1 R2 ... Y9"
            else:
                if self.drawn < len(self.stack):
                    raise _Found(
                        seq,
                        f"the stack is reshuffled with {len(self.stack) - self.drawn} cards "
                        "still in it; a reshuffle comes only when the stack is empty.",
                    )
                items, what = list(self.discard), "the discard pile, oldest card first"
            self.stack = self.v.shuffled(seq, kind, data, items, what)
            self.drawn = 0
            if data.get("reason") != "setup":
                self.discard = []
        elif kind == "card_drawn" and data.get("source") == "stack":
            if self.drawn >= len(self.stack):
                raise _Found(seq, f"{data.get('card')} is drawn from an empty stack.")
            expected = self.stack[self.drawn]
            if data.get("card") != expected:
                raise _Found(
                    seq,
                    f"seat {data.get('seat')} draws {data.get('card')} from the stack, but "
                    f"the next card of the shuffled order (position {self.drawn}) is "
                    f"{expected}.",
                )
            self.drawn += 1
        elif kind == "card_drawn":
            if not self.discard or self.discard[-1] != data.get("card"):
                top = self.discard[-1] if self.discard else "nothing"
                raise _Found(
                    seq,
                    f"seat {data.get('seat')} takes {data.get('card')} from the discard pile, "
                    f"whose last card is {top}.",
                )
            self.discard.pop()
        elif kind == "card_discarded":
            self.discard.append(data["card"])
        elif kind == "round_ended" and data.get("reason") == "no_cards" and self.discard:
            raise _Found(
                seq,
                f"the round ends for want of cards, but the discard pile holds "
                f"{len(self.discard)}: they were due to be reshuffled into a new stack.",
            )
        elif kind == "card_placed":
            colour = data.get("colour") or DANGER_INITIALS[data["card"][0]]
            self.rows[data["seat"]][colour].append(data["card"])
        elif kind == "round_scored":
            for rows in self.rows:
                for colour in DANGER_COLOURS:
                    self.discard += rows[colour]
            self.rows = self._empty_rows()


class _HighVoltage(_Game):
    def __init__(self, verify: _Verifier) -> None:
        super().__init__(verify)
        self.order: list[int] = []
        self.round: int | None = None

    def see(self, seq: int, kind: str, data: dict[str, Any]) -> None:
        if kind == "deck_shuffled":
            deck = HIGH_VOLTAGE_DECKS.get(self.v.seats)
            if deck is None:
                raise _Found(seq, f"High Voltage has no deck for {self.v.seats} seats.")
            what = f"the {self.v.seats}-seat deck, ascending"
            self.order = self.v.shuffled(seq, kind, data, list(deck), what)
            self.round = data.get("round")
        elif kind == "hand_dealt":
            seat = data["seat"]
            expected = sorted(self.order[HAND * seat : HAND * seat + HAND])
            cards = data.get("cards")
            if cards is None or sorted(cards) != expected:
                raise _Found(
                    seq,
                    f"seat {seat} is dealt {cards} in round {self.round}, but positions "
                    f"{HAND * seat} to {HAND * seat + HAND - 1} of the round's shuffled order "
                    f"are {expected}.",
                )
        elif kind == "leader_drawn":
            counter = self.v.counter(seq, kind, data)
            tied = data.get("tied") or []
            if not tied:
                raise _Found(seq, "leader_drawn names no tied seats to draw among.")
            index = draw_by_lot(self.v.seed, self.v.mix, len(tied), counter)
            if data.get("index") != index or data.get("leader") != tied[index]:
                raise _Found(
                    seq,
                    f"the draw by lot among seats {tied} (counter {counter}) gives index "
                    f"{index}, seat {tied[index]}; the log has index {data.get('index')}, "
                    f"seat {data.get('leader')}.",
                )


class _Danger13(_Game):
    def __init__(self, verify: _Verifier) -> None:
        super().__init__(verify)
        deck = (verify.created.get("options") or {}).get("deck")
        counts = DANGER_13_DEFAULT if deck is None else {k: n for k, n in deck.items() if n}
        self.composition = by_code_point(counts)
        self.pile: list[str] = []  # top first
        self.packet: list[str] = []
        self.discard: list[str] = []

    def see(self, seq: int, kind: str, data: dict[str, Any]) -> None:
        if kind == "pile_shuffled":
            if data.get("reason") == "setup":
                what = "the composition's cards, sorted by code point"
                self.pile = self.v.shuffled(seq, kind, data, self.composition, what)
            else:
                what = "the discard pile, oldest card first"
                order = self.v.shuffled(seq, kind, data, list(self.discard), what)
                self.pile += order
                self.discard = []
        elif kind == "packet_drawn":
            cards = data.get("cards") or []
            if len(self.pile) < self.v.seats and self.discard:
                raise _Found(
                    seq,
                    f"a packet is drawn from a pile of {len(self.pile)} cards for "
                    f"{self.v.seats} seats, but the discard pile holds {len(self.discard)}: "
                    "they were due to be reshuffled under the pile first.",
                )
            expected = self.pile[: min(self.v.seats, len(self.pile))]
            if cards != expected or data.get("size") != len(cards):
                raise _Found(
                    seq,
                    f"seat {data.get('dealer')} draws the packet {cards}, but the top "
                    f"{len(expected)} cards of the pile are {expected}.",
                )
            del self.pile[: len(cards)]
            self.packet = list(cards)
        elif kind in ("card_revealed", "card_given"):
            if not self.packet or data.get("card") != self.packet[0]:
                first = self.packet[0] if self.packet else "nothing"
                raise _Found(
                    seq,
                    f"{kind} names {data.get('card')}, but the packet's next card is {first}.",
                )
            if kind == "card_given":
                self.packet.pop(0)
        elif kind == "card_drawn":
            top = self.pile[0] if self.pile else None
            if data.get("card") != top:
                raise _Found(
                    seq,
                    f"seat {data.get('seat')} draws {data.get('card')}, but the top of the "
                    f"pile is {top or 'nothing (it is empty)'}.",
                )
            self.pile.pop(0)
        elif kind == "packet_returned":
            cards = data.get("cards") or []
            if cards != self.packet:
                raise _Found(
                    seq,
                    f"the packet returned is {cards}, but its undealt cards are {self.packet}.",
                )
            self.pile = list(cards) + self.pile
            self.packet = []
        elif kind == "arrow_resolved":
            self.discard.append("arrow")
            if data.get("removed") is not None:
                self.discard.append(data["removed"])
        elif kind == "card_refused":
            self.discard += ["hand", data["card"]]
        elif kind == "round_scored":
            for cards in data.get("discarded") or []:
                self.discard += cards


class _DangerDanger(_Game):
    def __init__(self, verify: _Verifier) -> None:
        super().__init__(verify)
        deck = (verify.created.get("options") or {}).get("deck")
        counts = DANGER_DANGER_DEFAULT if deck is None else {k: n for k, n in deck.items() if n}
        self.decks = {t: by_code_point(counts, i) for t, i in TEAM_INITIALS.items()}
        self.orders: dict[str, list[str]] = {t: [] for t in TEAM_INITIALS}
        self.taken: dict[str, int] = dict.fromkeys(TEAM_INITIALS, 0)

    def see(self, seq: int, kind: str, data: dict[str, Any]) -> None:
        if kind == "deck_shuffled":
            team = data.get("team")
            if team not in self.decks:
                raise _Found(seq, f"deck_shuffled names no team of the game: {team!r}.")
            what = f"the {team} deck, faces sorted by code point"
            self.orders[team] = self.v.shuffled(seq, kind, data, self.decks[team], what)
            self.taken[team] = 0
        elif kind == "stacks_laid":
            pink, yellow = self.orders["pink"], self.orders["yellow"]
            expected = pink[:STACKS_EACH] + yellow[:STACKS_EACH]
            if data.get("stacks") != expected:
                raise _Found(
                    seq,
                    f"the stacks laid are {data.get('stacks')}, but the first 3 cards of the "
                    f"pink then the yellow order are {expected}.",
                )
            self.taken = dict.fromkeys(TEAM_INITIALS, STACKS_EACH)
        elif kind in ("swap_card_laid", "card_drawn"):
            team = data.get("team", "")
            order, k = self.orders.get(team, []), self.taken.get(team, 0)
            due = order[k] if k < len(order) else None
            if kind == "swap_card_laid" and k != STACKS_EACH:
                raise _Found(seq, f"the {team} Swap Card is laid out of turn.")
            if data.get("card") != due:
                what = "Swap Card is" if kind == "swap_card_laid" else "draw takes"
                raise _Found(
                    seq,
                    f"the {team} {what} {data.get('card')}, but position {k} of the {team} "
                    f"order is {due or 'past its end'}.",
                )
            self.taken[team] = k + 1


GAMES: dict[str, Callable[[_Verifier], _Game]] = {
    "danger": _Danger,
    "high-voltage": _HighVoltage,
    "danger-13": _Danger13,
    "danger-danger": _DangerDanger,
}


def _entropy_at_start(joined: dict[int, str], seats: int, seq: int) -> list[str]:
    """The seats' entropy at the start, seat 0 first: every seat must be filled."""
    missing = [s for s in range(seats) if s not in joined]
    if missing:
        raise _Found(seq, f"the game starts with seats {missing} empty.")
    return [joined[s] for s in range(seats)]


def first_shuffle_failure(events: list[dict[str, Any]], seed: bytes) -> Failure | None:
    """The first event whose shuffle, draw by lot, deal or draw the document does not give
    from `seed` and the seats' entropy, or None when every one of them is as documented."""
    try:
        _check(sorted(events, key=lambda e: e["seq"]), seed)
    except _Found as found:
        return Failure(seq=found.seq, message=found.message)
    return None


def _check(events: list[dict[str, Any]], seed: bytes) -> None:
    if not events or events[0].get("type") != "game_created":
        raise _Found(None, "the export does not begin with game_created.")
    first = events[0]
    created = first["data"]
    if created.get("algorithm") != ALGORITHM:
        raise _Found(first["seq"], f"the game uses {created.get('algorithm')!r}, not {ALGORITHM}.")
    if created.get("verifiable") is False:
        raise _Found(
            first["seq"],
            "this sandbox game was set up with a fixed deck: its cards were chosen, not "
            "shuffled, so there is no shuffle to verify.",
        )
    if hashlib.sha256(seed).hexdigest() != created.get("seed_commitment"):
        raise _Found(
            first["seq"],
            f"SHA-256 of the seed is {hashlib.sha256(seed).hexdigest()}, but the game "
            f"committed to {created.get('seed_commitment')}.",
        )
    if created.get("game") not in GAMES:
        raise _Found(first["seq"], f"{created.get('game')!r} is not a game this verifier knows.")
    joined: dict[int, str] = {}
    game: _Game | None = None
    for envelope in events[1:]:
        seq, kind, data = envelope["seq"], envelope["type"], envelope.get("data") or {}
        if game is None:
            if kind == "player_joined":
                joined[data["seat"]] = data.get("entropy", "")
            elif kind == "seat_left":
                joined.pop(data["seat"], None)
            elif kind == "game_started":
                entropy = _entropy_at_start(joined, created["seats"], seq)
                verifier = _Verifier(seed, entropy_mix(entropy), created)
                game = GAMES[created["game"]](verifier)
            continue
        game.see(seq, kind, data)
