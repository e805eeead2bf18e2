from typing import Literal

HealthRedis = Literal["ok", "unreachable"]

HEALTH_REDIS_VALUES: set[HealthRedis] = {
    "ok",
    "unreachable",
}


def check_health_redis(value: str) -> HealthRedis:
    if value in HEALTH_REDIS_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {HEALTH_REDIS_VALUES!r}")
