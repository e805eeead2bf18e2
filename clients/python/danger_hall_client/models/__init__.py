"""Contains all the data models used in inputs/outputs"""

from .accept import Accept
from .attempt_out import AttemptOut
from .audit_export_json_body import AuditExportJsonBody
from .board import Board
from .cache_use import CacheUse
from .card_zone import CardZone
from .card_zone_zone import CardZoneZone
from .check import Check
from .clock import Clock
from .colour_zones import ColourZones
from .command_result import CommandResult
from .consistency_proof import ConsistencyProof
from .create_danger_13_game import CreateDanger13Game
from .create_danger_13_game_visibility import CreateDanger13GameVisibility
from .create_danger_danger_game import CreateDangerDangerGame
from .create_danger_danger_game_visibility import CreateDangerDangerGameVisibility
from .create_danger_game import CreateDangerGame
from .create_danger_game_visibility import CreateDangerGameVisibility
from .create_high_voltage_game import CreateHighVoltageGame
from .create_high_voltage_game_visibility import CreateHighVoltageGameVisibility
from .created import Created
from .created_status import CreatedStatus
from .danger_13_deck import Danger13Deck
from .danger_13_options import Danger13Options
from .danger_13_round_scored import Danger13RoundScored
from .danger_13_view import Danger13View
from .danger_13_view_phase import Danger13ViewPhase
from .danger_danger_deck import DangerDangerDeck
from .danger_danger_options import DangerDangerOptions
from .danger_danger_round_scored import DangerDangerRoundScored
from .danger_danger_round_scored_cases_type_0 import DangerDangerRoundScoredCasesType0
from .danger_danger_round_scored_reason import DangerDangerRoundScoredReason
from .danger_danger_round_scored_tokens import DangerDangerRoundScoredTokens
from .danger_danger_round_scored_winner_type_0 import DangerDangerRoundScoredWinnerType0
from .danger_danger_view import DangerDangerView
from .danger_danger_view_cases_now import DangerDangerViewCasesNow
from .danger_danger_view_phase import DangerDangerViewPhase
from .danger_danger_view_teams import DangerDangerViewTeams
from .danger_danger_view_tokens import DangerDangerViewTokens
from .danger_options import DangerOptions
from .danger_options_fourth_row_needs import DangerOptionsFourthRowNeeds
from .danger_round_scored import DangerRoundScored
from .danger_view import DangerView
from .danger_view_phase import DangerViewPhase
from .delivery_out import DeliveryOut
from .delivery_out_status import DeliveryOutStatus
from .discard_pile import DiscardPile
from .draw import Draw
from .draw_card import DrawCard
from .durability_in_force import DurabilityInForce
from .durability_in_force_mode import DurabilityInForceMode
from .end_turn import EndTurn
from .event_out import EventOut
from .event_out_cause_type_0 import EventOutCauseType0
from .event_out_data import EventOutData
from .event_out_meta_type_0 import EventOutMetaType0
from .event_page import EventPage
from .export_player_games_game_type_0 import ExportPlayerGamesGameType0
from .export_player_games_result_type_0 import ExportPlayerGamesResultType0
from .game_out import GameOut
from .game_out_status import GameOutStatus
from .game_stats import GameStats
from .get_leaderboard_game import GetLeaderboardGame
from .give import Give
from .go_out import GoOut
from .health import Health
from .health_projections import HealthProjections
from .health_redis import HealthRedis
from .health_status import HealthStatus
from .health_tasks import HealthTasks
from .high_voltage_options import HighVoltageOptions
from .high_voltage_round_scored import HighVoltageRoundScored
from .high_voltage_view import HighVoltageView
from .high_voltage_view_phase import HighVoltageViewPhase
from .high_voltage_view_stage import HighVoltageViewStage
from .inclusion_proof import InclusionProof
from .join_game import JoinGame
from .join_game_bot_type_0 import JoinGameBotType0
from .joined import Joined
from .lag import Lag
from .leaderboard import Leaderboard
from .leaderboard_row import LeaderboardRow
from .list_games_game_type_0 import ListGamesGameType0
from .list_games_status_type_0 import ListGamesStatusType0
from .list_player_games_game_type_0 import ListPlayerGamesGameType0
from .list_player_games_result_type_0 import ListPlayerGamesResultType0
from .lobby import Lobby
from .lobby_entry import LobbyEntry
from .lobby_entry_status import LobbyEntryStatus
from .log_entries import LogEntries
from .log_entry import LogEntry
from .log_leaf import LogLeaf
from .new_seat_token import NewSeatToken
from .new_stack import NewStack
from .pending import Pending
from .pick import Pick
from .play import Play
from .play_card import PlayCard
from .played import Played
from .player_game_entry import PlayerGameEntry
from .player_game_entry_result import PlayerGameEntryResult
from .player_game_entry_status import PlayerGameEntryStatus
from .player_game_links import PlayerGameLinks
from .player_games import PlayerGames
from .player_notice import PlayerNotice
from .player_notice_type import PlayerNoticeType
from .player_rating import PlayerRating
from .player_stats import PlayerStats
from .player_stats_by_game import PlayerStatsByGame
from .player_stats_ratings import PlayerStatsRatings
from .problem import Problem
from .protect import Protect
from .protect_colour import ProtectColour
from .queue_server_status import QueueServerStatus
from .queue_server_status_state import QueueServerStatusState
from .quick_play_in import QuickPlayIn
from .quick_play_in_game import QuickPlayInGame
from .quick_play_in_options import QuickPlayInOptions
from .quick_play_out import QuickPlayOut
from .quick_play_out_status import QuickPlayOutStatus
from .rating_point import RatingPoint
from .receipt import Receipt
from .refuse import Refuse
from .register_player import RegisterPlayer
from .registered import Registered
from .rematch_out import RematchOut
from .rematch_out_status import RematchOutStatus
from .replayed import Replayed
from .replayed_status import ReplayedStatus
from .report import Report
from .round_summary import RoundSummary
from .row_score import RowScore
from .row_score_colour import RowScoreColour
from .row_score_reason import RowScoreReason
from .row_view import RowView
from .rows import Rows
from .seat import Seat
from .seat_out import SeatOut
from .seat_range import SeatRange
from .seat_score import SeatScore
from .signing_key import SigningKey
from .signing_keys import SigningKeys
from .swap import Swap
from .table_view import TableView
from .table_view_options import TableViewOptions
from .table_view_status import TableViewStatus
from .take_discard import TakeDiscard
from .task_status import TaskStatus
from .task_status_state import TaskStatusState
from .team_change import TeamChange
from .team_piles import TeamPiles
from .team_view import TeamView
from .trash import Trash
from .tree_head import TreeHead
from .view_message import ViewMessage
from .view_message_status import ViewMessageStatus
from .webhook_change import WebhookChange
from .webhook_change_events_type_0_item import WebhookChangeEventsType0Item
from .webhook_change_games_type_0_item import WebhookChangeGamesType0Item
from .webhook_in import WebhookIn
from .webhook_in_events_item import WebhookInEventsItem
from .webhook_in_games_item import WebhookInGamesItem
from .webhook_out import WebhookOut

__all__ = (
    "Accept",
    "AttemptOut",
    "AuditExportJsonBody",
    "Board",
    "CacheUse",
    "CardZone",
    "CardZoneZone",
    "Check",
    "Clock",
    "ColourZones",
    "CommandResult",
    "ConsistencyProof",
    "Created",
    "CreateDanger13Game",
    "CreateDanger13GameVisibility",
    "CreateDangerDangerGame",
    "CreateDangerDangerGameVisibility",
    "CreateDangerGame",
    "CreateDangerGameVisibility",
    "CreatedStatus",
    "CreateHighVoltageGame",
    "CreateHighVoltageGameVisibility",
    "Danger13Deck",
    "Danger13Options",
    "Danger13RoundScored",
    "Danger13View",
    "Danger13ViewPhase",
    "DangerDangerDeck",
    "DangerDangerOptions",
    "DangerDangerRoundScored",
    "DangerDangerRoundScoredCasesType0",
    "DangerDangerRoundScoredReason",
    "DangerDangerRoundScoredTokens",
    "DangerDangerRoundScoredWinnerType0",
    "DangerDangerView",
    "DangerDangerViewCasesNow",
    "DangerDangerViewPhase",
    "DangerDangerViewTeams",
    "DangerDangerViewTokens",
    "DangerOptions",
    "DangerOptionsFourthRowNeeds",
    "DangerRoundScored",
    "DangerView",
    "DangerViewPhase",
    "DeliveryOut",
    "DeliveryOutStatus",
    "DiscardPile",
    "Draw",
    "DrawCard",
    "DurabilityInForce",
    "DurabilityInForceMode",
    "EndTurn",
    "EventOut",
    "EventOutCauseType0",
    "EventOutData",
    "EventOutMetaType0",
    "EventPage",
    "ExportPlayerGamesGameType0",
    "ExportPlayerGamesResultType0",
    "GameOut",
    "GameOutStatus",
    "GameStats",
    "GetLeaderboardGame",
    "Give",
    "GoOut",
    "Health",
    "HealthProjections",
    "HealthRedis",
    "HealthStatus",
    "HealthTasks",
    "HighVoltageOptions",
    "HighVoltageRoundScored",
    "HighVoltageView",
    "HighVoltageViewPhase",
    "HighVoltageViewStage",
    "InclusionProof",
    "Joined",
    "JoinGame",
    "JoinGameBotType0",
    "Lag",
    "Leaderboard",
    "LeaderboardRow",
    "ListGamesGameType0",
    "ListGamesStatusType0",
    "ListPlayerGamesGameType0",
    "ListPlayerGamesResultType0",
    "Lobby",
    "LobbyEntry",
    "LobbyEntryStatus",
    "LogEntries",
    "LogEntry",
    "LogLeaf",
    "NewSeatToken",
    "NewStack",
    "Pending",
    "Pick",
    "Play",
    "PlayCard",
    "Played",
    "PlayerGameEntry",
    "PlayerGameEntryResult",
    "PlayerGameEntryStatus",
    "PlayerGameLinks",
    "PlayerGames",
    "PlayerNotice",
    "PlayerNoticeType",
    "PlayerRating",
    "PlayerStats",
    "PlayerStatsByGame",
    "PlayerStatsRatings",
    "Problem",
    "Protect",
    "ProtectColour",
    "QueueServerStatus",
    "QueueServerStatusState",
    "QuickPlayIn",
    "QuickPlayInGame",
    "QuickPlayInOptions",
    "QuickPlayOut",
    "QuickPlayOutStatus",
    "RatingPoint",
    "Receipt",
    "Refuse",
    "Registered",
    "RegisterPlayer",
    "RematchOut",
    "RematchOutStatus",
    "Replayed",
    "ReplayedStatus",
    "Report",
    "RoundSummary",
    "Rows",
    "RowScore",
    "RowScoreColour",
    "RowScoreReason",
    "RowView",
    "Seat",
    "SeatOut",
    "SeatRange",
    "SeatScore",
    "SigningKey",
    "SigningKeys",
    "Swap",
    "TableView",
    "TableViewOptions",
    "TableViewStatus",
    "TakeDiscard",
    "TaskStatus",
    "TaskStatusState",
    "TeamChange",
    "TeamPiles",
    "TeamView",
    "Trash",
    "TreeHead",
    "ViewMessage",
    "ViewMessageStatus",
    "WebhookChange",
    "WebhookChangeEventsType0Item",
    "WebhookChangeGamesType0Item",
    "WebhookIn",
    "WebhookInEventsItem",
    "WebhookInGamesItem",
    "WebhookOut",
)
