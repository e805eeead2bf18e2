"""A deck composition as a game option: how many of each kind of card, each count bounded.

A composition is a JSON object of counts (`{"hand": 8, "arrow": 6, ...}`). Its type is a
struct with one field per kind of card, so the spec names every kind and its maximum, an
unknown kind is refused like any unknown field, and no request can ask for more cards than
the bounds allow. A kind left out counts 0; a count of 0 is not recorded.
"""

from __future__ import annotations

from typing import Annotated, Any, Self, cast

import msgspec


class Composition(msgspec.Struct, frozen=True, forbid_unknown_fields=True, omit_defaults=True):
    """The base of every game's deck type (see `composition_type`)."""

    def counts(self) -> dict[str, int]:
        """The cards the deck holds, by name, kinds with no card left out."""
        return {k: n for k, n in msgspec.to_builtins(self).items() if n}

    @classmethod
    def of(cls, counts: dict[str, int]) -> Self:
        """The composition holding `counts` (by card name); refuses what the type refuses."""
        return msgspec.convert(counts, cls)

    def total(self) -> int:
        return sum(self.counts().values())


def _attribute(card: str) -> str:
    """A Python name for a card's field ("+0" -> "c_p0"); the JSON name is the card's."""
    return "c_" + card.replace("+", "p")


def composition_type(
    name: str, maxima: dict[str, int], defaults: dict[str, int], doc: str
) -> type[Composition]:
    """A composition type with one field per card of `maxima`, in that order, each a count
    from 0 to its maximum (documented beside the default count, from `defaults`)."""
    fields: list[Any] = []
    for card, most in maxima.items():
        usual = defaults.get(card, 0)
        meta = msgspec.Meta(
            ge=0, le=most, description=f"At most {most}; {usual} in the default deck."
        )
        fields.append((_attribute(card), Annotated[int, meta], 0))
    made = msgspec.defstruct(
        name,
        fields,
        bases=(Composition,),
        rename={_attribute(card): card for card in maxima},
        frozen=True,
        forbid_unknown_fields=True,
        omit_defaults=True,
        module=__name__,
        namespace={"__doc__": doc},
    )
    return cast(type[Composition], made)  # its base is Composition
