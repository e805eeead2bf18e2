"""What the ratings and leaderboards answer (service/http/leaderboards_api.py, a player's
record)."""

from __future__ import annotations

import msgspec


class RatingPoint(msgspec.Struct, frozen=True):
    game: str
    """The game that moved the rating."""
    at: str
    """When that game finished."""
    rating: float
    deviation: float


class PlayerRating(msgspec.Struct, frozen=True):
    rating: float
    """Glicko-2, on the Glicko scale (a new player: 1500), to 0.1."""
    deviation: float
    """How unsure the rating is (a new player: 350): about 95 % of the time the player's
    strength is within twice this of the rating."""
    volatility: float
    games: int
    """Rated games finished."""
    provisional: bool
    """The deviation is above 110: too few games to say much yet."""
    rank: int
    """On the game's leaderboard (1: the highest rating)."""
    history: list[RatingPoint]
    """The rating after each of the last 50 rated games, oldest first."""


class LeaderboardRow(msgspec.Struct, frozen=True):
    rank: int
    player: str
    name: str
    rating: float
    deviation: float
    games: int
    provisional: bool


class Leaderboard(msgspec.Struct, frozen=True):
    game: str
    players: list[LeaderboardRow]
    """Highest rating first; provisional players too, marked."""
    total: int
    """Players rated in this game."""
    limit: int
    next: str | None = None
    """The cursor of the next page (`cursor=`); null at the end."""
    you: LeaderboardRow | None = None
    """The row of the player named by `player=`, wherever it is; absent if they are not
    rated in this game (or none was named)."""
