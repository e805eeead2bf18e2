from typing import Literal

JoinGameBotType0 = Literal["greedy", "random"]

JOIN_GAME_BOT_TYPE_0_VALUES: set[JoinGameBotType0] = {
    "greedy",
    "random",
}


def check_join_game_bot_type_0(value: str) -> JoinGameBotType0:
    if value in JOIN_GAME_BOT_TYPE_0_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {JOIN_GAME_BOT_TYPE_0_VALUES!r}")
