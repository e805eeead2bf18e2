from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Literal, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.high_voltage_view_phase import HighVoltageViewPhase, check_high_voltage_view_phase
from ..models.high_voltage_view_stage import HighVoltageViewStage, check_high_voltage_view_stage

if TYPE_CHECKING:
    from ..models.colour_zones import ColourZones
    from ..models.high_voltage_round_scored import HighVoltageRoundScored
    from ..models.played import Played


T = TypeVar("T", bound="HighVoltageView")


@_attrs_define
class HighVoltageView:
    """
    Attributes:
        choose_from (list[int] | None):
        game (Literal['high-voltage']):
        hand (list[int] | None):
        hand_sizes (list[int]):
        hands (list[list[int]] | None):
        last_round (HighVoltageRoundScored | None):
        leader (int):
        phase (HighVoltageViewPhase):
        picked (list[bool]):
        plays (list[Played]):
        round_ (int):
        round_points (list[int]):
        rounds (int):
        stage (HighVoltageViewStage):
        team_totals (list[int] | None):
        teams (list[list[int]] | None):
        to_act (list[int]):
        totals (list[int]):
        trick (int):
        turn (int | None):
        undealt (list[int] | None):
        winners (list[int] | None):
        won (list[list[int]]):
        zones (list[list[ColourZones]]):
    """

    choose_from: list[int] | None
    game: Literal["high-voltage"]
    hand: list[int] | None
    hand_sizes: list[int]
    hands: list[list[int]] | None
    last_round: HighVoltageRoundScored | None
    leader: int
    phase: HighVoltageViewPhase
    picked: list[bool]
    plays: list[Played]
    round_: int
    round_points: list[int]
    rounds: int
    stage: HighVoltageViewStage
    team_totals: list[int] | None
    teams: list[list[int]] | None
    to_act: list[int]
    totals: list[int]
    trick: int
    turn: int | None
    undealt: list[int] | None
    winners: list[int] | None
    won: list[list[int]]
    zones: list[list[ColourZones]]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.high_voltage_round_scored import HighVoltageRoundScored  # noqa: PLC0415

        choose_from: list[int] | None
        if isinstance(self.choose_from, list):
            choose_from = self.choose_from

        else:
            choose_from = self.choose_from

        game = self.game

        hand: list[int] | None
        if isinstance(self.hand, list):
            hand = self.hand

        else:
            hand = self.hand

        hand_sizes = self.hand_sizes

        hands: list[list[int]] | None
        if isinstance(self.hands, list):
            hands = []
            for hands_type_0_item_data in self.hands:
                hands_type_0_item = hands_type_0_item_data

                hands.append(hands_type_0_item)

        else:
            hands = self.hands

        last_round: dict[str, Any] | None
        if isinstance(self.last_round, HighVoltageRoundScored):
            last_round = self.last_round.to_dict()
        else:
            last_round = self.last_round

        leader = self.leader

        phase: str = self.phase

        picked = self.picked

        plays = []
        for plays_item_data in self.plays:
            plays_item = plays_item_data.to_dict()
            plays.append(plays_item)

        round_ = self.round_

        round_points = self.round_points

        rounds = self.rounds

        stage: int = self.stage

        team_totals: list[int] | None
        if isinstance(self.team_totals, list):
            team_totals = self.team_totals

        else:
            team_totals = self.team_totals

        teams: list[list[int]] | None
        if isinstance(self.teams, list):
            teams = []
            for teams_type_0_item_data in self.teams:
                teams_type_0_item = teams_type_0_item_data

                teams.append(teams_type_0_item)

        else:
            teams = self.teams

        to_act = self.to_act

        totals = self.totals

        trick = self.trick

        turn: int | None
        turn = self.turn

        undealt: list[int] | None
        if isinstance(self.undealt, list):
            undealt = self.undealt

        else:
            undealt = self.undealt

        winners: list[int] | None
        if isinstance(self.winners, list):
            winners = self.winners

        else:
            winners = self.winners

        won = []
        for won_item_data in self.won:
            won_item = won_item_data

            won.append(won_item)

        zones = []
        for zones_item_data in self.zones:
            zones_item = []
            for zones_item_item_data in zones_item_data:
                zones_item_item = zones_item_item_data.to_dict()
                zones_item.append(zones_item_item)

            zones.append(zones_item)

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "choose_from": choose_from,
                "game": game,
                "hand": hand,
                "hand_sizes": hand_sizes,
                "hands": hands,
                "last_round": last_round,
                "leader": leader,
                "phase": phase,
                "picked": picked,
                "plays": plays,
                "round": round_,
                "round_points": round_points,
                "rounds": rounds,
                "stage": stage,
                "team_totals": team_totals,
                "teams": teams,
                "to_act": to_act,
                "totals": totals,
                "trick": trick,
                "turn": turn,
                "undealt": undealt,
                "winners": winners,
                "won": won,
                "zones": zones,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.colour_zones import ColourZones  # noqa: PLC0415
        from ..models.high_voltage_round_scored import HighVoltageRoundScored  # noqa: PLC0415
        from ..models.played import Played  # noqa: PLC0415

        d = dict(src_dict)

        def _parse_choose_from(data: object) -> list[int] | None:
            if data is None:
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                choose_from_type_0 = cast(list[int], data)

                return choose_from_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[int] | None, data)

        choose_from = _parse_choose_from(d.pop("choose_from"))

        game = cast(Literal["high-voltage"], d.pop("game"))
        if game != "high-voltage":
            raise ValueError(f"game must match const 'high-voltage', got '{game}'")

        def _parse_hand(data: object) -> list[int] | None:
            if data is None:
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                hand_type_0 = cast(list[int], data)

                return hand_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[int] | None, data)

        hand = _parse_hand(d.pop("hand"))

        hand_sizes = cast(list[int], d.pop("hand_sizes"))

        def _parse_hands(data: object) -> list[list[int]] | None:
            if data is None:
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                hands_type_0 = []
                _hands_type_0 = data
                for hands_type_0_item_data in _hands_type_0:
                    hands_type_0_item = cast(list[int], hands_type_0_item_data)

                    hands_type_0.append(hands_type_0_item)

                return hands_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[list[int]] | None, data)

        hands = _parse_hands(d.pop("hands"))

        def _parse_last_round(data: object) -> HighVoltageRoundScored | None:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                last_round_type_0 = HighVoltageRoundScored.from_dict(data)

                return last_round_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(HighVoltageRoundScored | None, data)

        last_round = _parse_last_round(d.pop("last_round"))

        leader = d.pop("leader")

        phase = check_high_voltage_view_phase(d.pop("phase"))

        picked = cast(list[bool], d.pop("picked"))

        plays = []
        _plays = d.pop("plays")
        for plays_item_data in _plays:
            plays_item = Played.from_dict(plays_item_data)

            plays.append(plays_item)

        round_ = d.pop("round")

        round_points = cast(list[int], d.pop("round_points"))

        rounds = d.pop("rounds")

        stage = check_high_voltage_view_stage(d.pop("stage"))

        def _parse_team_totals(data: object) -> list[int] | None:
            if data is None:
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                team_totals_type_0 = cast(list[int], data)

                return team_totals_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[int] | None, data)

        team_totals = _parse_team_totals(d.pop("team_totals"))

        def _parse_teams(data: object) -> list[list[int]] | None:
            if data is None:
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                teams_type_0 = []
                _teams_type_0 = data
                for teams_type_0_item_data in _teams_type_0:
                    teams_type_0_item = cast(list[int], teams_type_0_item_data)

                    teams_type_0.append(teams_type_0_item)

                return teams_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[list[int]] | None, data)

        teams = _parse_teams(d.pop("teams"))

        to_act = cast(list[int], d.pop("to_act"))

        totals = cast(list[int], d.pop("totals"))

        trick = d.pop("trick")

        def _parse_turn(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        turn = _parse_turn(d.pop("turn"))

        def _parse_undealt(data: object) -> list[int] | None:
            if data is None:
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                undealt_type_0 = cast(list[int], data)

                return undealt_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[int] | None, data)

        undealt = _parse_undealt(d.pop("undealt"))

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

        won = []
        _won = d.pop("won")
        for won_item_data in _won:
            won_item = cast(list[int], won_item_data)

            won.append(won_item)

        zones = []
        _zones = d.pop("zones")
        for zones_item_data in _zones:
            zones_item = []
            _zones_item = zones_item_data
            for zones_item_item_data in _zones_item:
                zones_item_item = ColourZones.from_dict(zones_item_item_data)

                zones_item.append(zones_item_item)

            zones.append(zones_item)

        high_voltage_view = cls(
            choose_from=choose_from,
            game=game,
            hand=hand,
            hand_sizes=hand_sizes,
            hands=hands,
            last_round=last_round,
            leader=leader,
            phase=phase,
            picked=picked,
            plays=plays,
            round_=round_,
            round_points=round_points,
            rounds=rounds,
            stage=stage,
            team_totals=team_totals,
            teams=teams,
            to_act=to_act,
            totals=totals,
            trick=trick,
            turn=turn,
            undealt=undealt,
            winners=winners,
            won=won,
            zones=zones,
        )

        high_voltage_view.additional_properties = d
        return high_voltage_view

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
