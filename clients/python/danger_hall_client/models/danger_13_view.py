from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Literal, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.danger_13_view_phase import Danger13ViewPhase, check_danger_13_view_phase

if TYPE_CHECKING:
    from ..models.danger_13_round_scored import Danger13RoundScored
    from ..models.pending import Pending


T = TypeVar("T", bound="Danger13View")


@_attrs_define
class Danger13View:
    """
    Attributes:
        all_won (list[list[str]] | None):
        dealer (int):
        discard_size (int):
        final (bool):
        first (int):
        game (Literal['danger-13']):
        last_round (Danger13RoundScored | None):
        limits (list[int]):
        packet (list[str] | None):
        packet_size (int):
        pending (None | Pending):
        phase (Danger13ViewPhase):
        pile (list[str] | None):
        pile_size (int):
        plus_signs (list[int] | None):
        received (list[bool]):
        revealed (None | str):
        round_ (int):
        rows (list[list[str]]):
        sums (list[int]):
        to_act (list[int]):
        totals (list[int] | None):
        turn (int | None):
        winners (list[int] | None):
        won (list[str] | None):
        won_counts (list[int]):
    """

    all_won: list[list[str]] | None
    dealer: int
    discard_size: int
    final: bool
    first: int
    game: Literal["danger-13"]
    last_round: Danger13RoundScored | None
    limits: list[int]
    packet: list[str] | None
    packet_size: int
    pending: None | Pending
    phase: Danger13ViewPhase
    pile: list[str] | None
    pile_size: int
    plus_signs: list[int] | None
    received: list[bool]
    revealed: None | str
    round_: int
    rows: list[list[str]]
    sums: list[int]
    to_act: list[int]
    totals: list[int] | None
    turn: int | None
    winners: list[int] | None
    won: list[str] | None
    won_counts: list[int]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.danger_13_round_scored import Danger13RoundScored  # noqa: PLC0415
        from ..models.pending import Pending  # noqa: PLC0415

        all_won: list[list[str]] | None
        if isinstance(self.all_won, list):
            all_won = []
            for all_won_type_0_item_data in self.all_won:
                all_won_type_0_item = all_won_type_0_item_data

                all_won.append(all_won_type_0_item)

        else:
            all_won = self.all_won

        dealer = self.dealer

        discard_size = self.discard_size

        final = self.final

        first = self.first

        game = self.game

        last_round: dict[str, Any] | None
        if isinstance(self.last_round, Danger13RoundScored):
            last_round = self.last_round.to_dict()
        else:
            last_round = self.last_round

        limits = self.limits

        packet: list[str] | None
        if isinstance(self.packet, list):
            packet = self.packet

        else:
            packet = self.packet

        packet_size = self.packet_size

        pending: dict[str, Any] | None
        if isinstance(self.pending, Pending):
            pending = self.pending.to_dict()
        else:
            pending = self.pending

        phase: str = self.phase

        pile: list[str] | None
        if isinstance(self.pile, list):
            pile = self.pile

        else:
            pile = self.pile

        pile_size = self.pile_size

        plus_signs: list[int] | None
        if isinstance(self.plus_signs, list):
            plus_signs = self.plus_signs

        else:
            plus_signs = self.plus_signs

        received = self.received

        revealed: None | str
        revealed = self.revealed

        round_ = self.round_

        rows = []
        for rows_item_data in self.rows:
            rows_item = rows_item_data

            rows.append(rows_item)

        sums = self.sums

        to_act = self.to_act

        totals: list[int] | None
        if isinstance(self.totals, list):
            totals = self.totals

        else:
            totals = self.totals

        turn: int | None
        turn = self.turn

        winners: list[int] | None
        if isinstance(self.winners, list):
            winners = self.winners

        else:
            winners = self.winners

        won: list[str] | None
        if isinstance(self.won, list):
            won = self.won

        else:
            won = self.won

        won_counts = self.won_counts

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "all_won": all_won,
                "dealer": dealer,
                "discard_size": discard_size,
                "final": final,
                "first": first,
                "game": game,
                "last_round": last_round,
                "limits": limits,
                "packet": packet,
                "packet_size": packet_size,
                "pending": pending,
                "phase": phase,
                "pile": pile,
                "pile_size": pile_size,
                "plus_signs": plus_signs,
                "received": received,
                "revealed": revealed,
                "round": round_,
                "rows": rows,
                "sums": sums,
                "to_act": to_act,
                "totals": totals,
                "turn": turn,
                "winners": winners,
                "won": won,
                "won_counts": won_counts,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.danger_13_round_scored import Danger13RoundScored  # noqa: PLC0415
        from ..models.pending import Pending  # noqa: PLC0415

        d = dict(src_dict)

        def _parse_all_won(data: object) -> list[list[str]] | None:
            if data is None:
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                all_won_type_0 = []
                _all_won_type_0 = data
                for all_won_type_0_item_data in _all_won_type_0:
                    all_won_type_0_item = cast(list[str], all_won_type_0_item_data)

                    all_won_type_0.append(all_won_type_0_item)

                return all_won_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[list[str]] | None, data)

        all_won = _parse_all_won(d.pop("all_won"))

        dealer = d.pop("dealer")

        discard_size = d.pop("discard_size")

        final = d.pop("final")

        first = d.pop("first")

        game = cast(Literal["danger-13"], d.pop("game"))
        if game != "danger-13":
            raise ValueError(f"game must match const 'danger-13', got '{game}'")

        def _parse_last_round(data: object) -> Danger13RoundScored | None:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                last_round_type_0 = Danger13RoundScored.from_dict(data)

                return last_round_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(Danger13RoundScored | None, data)

        last_round = _parse_last_round(d.pop("last_round"))

        limits = cast(list[int], d.pop("limits"))

        def _parse_packet(data: object) -> list[str] | None:
            if data is None:
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                packet_type_0 = cast(list[str], data)

                return packet_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[str] | None, data)

        packet = _parse_packet(d.pop("packet"))

        packet_size = d.pop("packet_size")

        def _parse_pending(data: object) -> None | Pending:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                pending_type_0 = Pending.from_dict(data)

                return pending_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | Pending, data)

        pending = _parse_pending(d.pop("pending"))

        phase = check_danger_13_view_phase(d.pop("phase"))

        def _parse_pile(data: object) -> list[str] | None:
            if data is None:
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                pile_type_0 = cast(list[str], data)

                return pile_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[str] | None, data)

        pile = _parse_pile(d.pop("pile"))

        pile_size = d.pop("pile_size")

        def _parse_plus_signs(data: object) -> list[int] | None:
            if data is None:
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                plus_signs_type_0 = cast(list[int], data)

                return plus_signs_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[int] | None, data)

        plus_signs = _parse_plus_signs(d.pop("plus_signs"))

        received = cast(list[bool], d.pop("received"))

        def _parse_revealed(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        revealed = _parse_revealed(d.pop("revealed"))

        round_ = d.pop("round")

        rows = []
        _rows = d.pop("rows")
        for rows_item_data in _rows:
            rows_item = cast(list[str], rows_item_data)

            rows.append(rows_item)

        sums = cast(list[int], d.pop("sums"))

        to_act = cast(list[int], d.pop("to_act"))

        def _parse_totals(data: object) -> list[int] | None:
            if data is None:
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                totals_type_0 = cast(list[int], data)

                return totals_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[int] | None, data)

        totals = _parse_totals(d.pop("totals"))

        def _parse_turn(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        turn = _parse_turn(d.pop("turn"))

        def _parse_winners(data: object) -> list[int] | None:
            if data is None:
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                winners_type_0 = cast(list[int], data)

                return winners_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[int] | None, data)

        winners = _parse_winners(d.pop("winners"))

        def _parse_won(data: object) -> list[str] | None:
            if data is None:
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                won_type_0 = cast(list[str], data)

                return won_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[str] | None, data)

        won = _parse_won(d.pop("won"))

        won_counts = cast(list[int], d.pop("won_counts"))

        danger_13_view = cls(
            all_won=all_won,
            dealer=dealer,
            discard_size=discard_size,
            final=final,
            first=first,
            game=game,
            last_round=last_round,
            limits=limits,
            packet=packet,
            packet_size=packet_size,
            pending=pending,
            phase=phase,
            pile=pile,
            pile_size=pile_size,
            plus_signs=plus_signs,
            received=received,
            revealed=revealed,
            round_=round_,
            rows=rows,
            sums=sums,
            to_act=to_act,
            totals=totals,
            turn=turn,
            winners=winners,
            won=won,
            won_counts=won_counts,
        )

        danger_13_view.additional_properties = d
        return danger_13_view

    @property
    def additional_keys(self) -> list[str]:
        return list(self.additional_properties.keys())

    def __getitem__(self, key: str) -> Any:
        return self.additional_properties[key]

    def __setitem__(self, key: str, value: Any) -> None:
        self.additional_properties[key] = value

    def __delitem__(self, key: str) -> None:
        del self.additional_properties[key]

    def __contains__(self, key: str) -> bool:
        return key in self.additional_properties
