from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Literal, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.view_message_status import ViewMessageStatus, check_view_message_status

if TYPE_CHECKING:
    from ..models.accept import Accept
    from ..models.clock import Clock
    from ..models.draw import Draw
    from ..models.draw_card import DrawCard
    from ..models.end_turn import EndTurn
    from ..models.give import Give
    from ..models.go_out import GoOut
    from ..models.new_stack import NewStack
    from ..models.pick import Pick
    from ..models.play import Play
    from ..models.play_card import PlayCard
    from ..models.protect import Protect
    from ..models.refuse import Refuse
    from ..models.swap import Swap
    from ..models.table_view import TableView
    from ..models.take_discard import TakeDiscard
    from ..models.trash import Trash


T = TypeVar("T", bound="ViewMessage")


@_attrs_define
class ViewMessage:
    """
    Attributes:
        clocks (list[Clock]):
        game (str):
        id (str):
        legal (list[Accept | Draw | DrawCard | EndTurn | Give | GoOut | NewStack | Pick | Play | PlayCard | Protect |
            Refuse | Swap | TakeDiscard | Trash]):
        seq (int):
        status (ViewMessageStatus):
        type_ (Literal['view']):
        view (TableView):
    """

    clocks: list[Clock]
    game: str
    id: str
    legal: list[
        Accept
        | Draw
        | DrawCard
        | EndTurn
        | Give
        | GoOut
        | NewStack
        | Pick
        | Play
        | PlayCard
        | Protect
        | Refuse
        | Swap
        | TakeDiscard
        | Trash
    ]
    seq: int
    status: ViewMessageStatus
    type_: Literal["view"]
    view: TableView
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.accept import Accept  # noqa: PLC0415
        from ..models.draw import Draw  # noqa: PLC0415
        from ..models.draw_card import DrawCard  # noqa: PLC0415
        from ..models.end_turn import EndTurn  # noqa: PLC0415
        from ..models.give import Give  # noqa: PLC0415
        from ..models.new_stack import NewStack  # noqa: PLC0415
        from ..models.pick import Pick  # noqa: PLC0415
        from ..models.play import Play  # noqa: PLC0415
        from ..models.play_card import PlayCard  # noqa: PLC0415
        from ..models.protect import Protect  # noqa: PLC0415
        from ..models.refuse import Refuse  # noqa: PLC0415
        from ..models.swap import Swap  # noqa: PLC0415
        from ..models.take_discard import TakeDiscard  # noqa: PLC0415
        from ..models.trash import Trash  # noqa: PLC0415

        clocks = []
        for clocks_item_data in self.clocks:
            clocks_item = clocks_item_data.to_dict()
            clocks.append(clocks_item)

        game = self.game

        id = self.id

        legal = []
        for legal_item_data in self.legal:
            legal_item: dict[str, Any]
            if isinstance(legal_item_data, Draw):
                legal_item = legal_item_data.to_dict()
            elif isinstance(legal_item_data, TakeDiscard):
                legal_item = legal_item_data.to_dict()
            elif isinstance(legal_item_data, Protect):
                legal_item = legal_item_data.to_dict()
            elif isinstance(legal_item_data, EndTurn):
                legal_item = legal_item_data.to_dict()
            elif isinstance(legal_item_data, Pick):
                legal_item = legal_item_data.to_dict()
            elif isinstance(legal_item_data, Play):
                legal_item = legal_item_data.to_dict()
            elif isinstance(legal_item_data, Give):
                legal_item = legal_item_data.to_dict()
            elif isinstance(legal_item_data, Refuse):
                legal_item = legal_item_data.to_dict()
            elif isinstance(legal_item_data, Accept):
                legal_item = legal_item_data.to_dict()
            elif isinstance(legal_item_data, DrawCard):
                legal_item = legal_item_data.to_dict()
            elif isinstance(legal_item_data, PlayCard):
                legal_item = legal_item_data.to_dict()
            elif isinstance(legal_item_data, NewStack):
                legal_item = legal_item_data.to_dict()
            elif isinstance(legal_item_data, Swap):
                legal_item = legal_item_data.to_dict()
            elif isinstance(legal_item_data, Trash):
                legal_item = legal_item_data.to_dict()
            else:
                legal_item = legal_item_data.to_dict()

            legal.append(legal_item)

        seq = self.seq

        status: str = self.status

        type_ = self.type_

        view = self.view.to_dict()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "clocks": clocks,
                "game": game,
                "id": id,
                "legal": legal,
                "seq": seq,
                "status": status,
                "type": type_,
                "view": view,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.accept import Accept  # noqa: PLC0415
        from ..models.clock import Clock  # noqa: PLC0415
        from ..models.draw import Draw  # noqa: PLC0415
        from ..models.draw_card import DrawCard  # noqa: PLC0415
        from ..models.end_turn import EndTurn  # noqa: PLC0415
        from ..models.give import Give  # noqa: PLC0415
        from ..models.go_out import GoOut  # noqa: PLC0415
        from ..models.new_stack import NewStack  # noqa: PLC0415
        from ..models.pick import Pick  # noqa: PLC0415
        from ..models.play import Play  # noqa: PLC0415
        from ..models.play_card import PlayCard  # noqa: PLC0415
        from ..models.protect import Protect  # noqa: PLC0415
        from ..models.refuse import Refuse  # noqa: PLC0415
        from ..models.swap import Swap  # noqa: PLC0415
        from ..models.table_view import TableView  # noqa: PLC0415
        from ..models.take_discard import TakeDiscard  # noqa: PLC0415
        from ..models.trash import Trash  # noqa: PLC0415

        d = dict(src_dict)
        clocks = []
        _clocks = d.pop("clocks")
        for clocks_item_data in _clocks:
            clocks_item = Clock.from_dict(clocks_item_data)

            clocks.append(clocks_item)

        game = d.pop("game")

        id = d.pop("id")

        legal = []
        _legal = d.pop("legal")
        for legal_item_data in _legal:

            def _parse_legal_item(
                data: object,
            ) -> (
                Accept
                | Draw
                | DrawCard
                | EndTurn
                | Give
                | GoOut
                | NewStack
                | Pick
                | Play
                | PlayCard
                | Protect
                | Refuse
                | Swap
                | TakeDiscard
                | Trash
            ):
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    legal_item_type_0 = Draw.from_dict(data)

                    return legal_item_type_0
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    legal_item_type_1 = TakeDiscard.from_dict(data)

                    return legal_item_type_1
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    legal_item_type_2 = Protect.from_dict(data)

                    return legal_item_type_2
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    legal_item_type_3 = EndTurn.from_dict(data)

                    return legal_item_type_3
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    legal_item_type_4 = Pick.from_dict(data)

                    return legal_item_type_4
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    legal_item_type_5 = Play.from_dict(data)

                    return legal_item_type_5
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    legal_item_type_6 = Give.from_dict(data)

                    return legal_item_type_6
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    legal_item_type_7 = Refuse.from_dict(data)

                    return legal_item_type_7
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    legal_item_type_8 = Accept.from_dict(data)

                    return legal_item_type_8
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    legal_item_type_9 = DrawCard.from_dict(data)

                    return legal_item_type_9
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    legal_item_type_10 = PlayCard.from_dict(data)

                    return legal_item_type_10
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    legal_item_type_11 = NewStack.from_dict(data)

                    return legal_item_type_11
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    legal_item_type_12 = Swap.from_dict(data)

                    return legal_item_type_12
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    legal_item_type_13 = Trash.from_dict(data)

                    return legal_item_type_13
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                if not isinstance(data, dict):
                    raise TypeError()
                legal_item_type_14 = GoOut.from_dict(data)

                return legal_item_type_14

            legal_item = _parse_legal_item(legal_item_data)

            legal.append(legal_item)

        seq = d.pop("seq")

        status = check_view_message_status(d.pop("status"))

        type_ = cast(Literal["view"], d.pop("type"))
        if type_ != "view":
            raise ValueError(f"type must match const 'view', got '{type_}'")

        view = TableView.from_dict(d.pop("view"))

        view_message = cls(
            clocks=clocks,
            game=game,
            id=id,
            legal=legal,
            seq=seq,
            status=status,
            type_=type_,
            view=view,
        )

        view_message.additional_properties = d
        return view_message

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
