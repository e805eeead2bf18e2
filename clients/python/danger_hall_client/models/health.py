from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.health_redis import HealthRedis, check_health_redis
from ..models.health_status import HealthStatus, check_health_status

if TYPE_CHECKING:
    from ..models.cache_use import CacheUse
    from ..models.durability_in_force import DurabilityInForce
    from ..models.health_projections import HealthProjections
    from ..models.health_tasks import HealthTasks
    from ..models.queue_server_status import QueueServerStatus


T = TypeVar("T", bound="Health")


@_attrs_define
class Health:
    """
    Attributes:
        cache (CacheUse):
        durability (DurabilityInForce):
        history_breaks (int):
        projections (HealthProjections):
        queues (list[QueueServerStatus]):
        redis (HealthRedis):
        status (HealthStatus):
        tasks (HealthTasks):
        worker (None | str):
    """

    cache: CacheUse
    durability: DurabilityInForce
    history_breaks: int
    projections: HealthProjections
    queues: list[QueueServerStatus]
    redis: HealthRedis
    status: HealthStatus
    tasks: HealthTasks
    worker: None | str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        cache = self.cache.to_dict()

        durability = self.durability.to_dict()

        history_breaks = self.history_breaks

        projections = self.projections.to_dict()

        queues = []
        for queues_item_data in self.queues:
            queues_item = queues_item_data.to_dict()
            queues.append(queues_item)

        redis: str = self.redis

        status: str = self.status

        tasks = self.tasks.to_dict()

        worker: None | str
        worker = self.worker

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "cache": cache,
                "durability": durability,
                "history_breaks": history_breaks,
                "projections": projections,
                "queues": queues,
                "redis": redis,
                "status": status,
                "tasks": tasks,
                "worker": worker,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.cache_use import CacheUse  # noqa: PLC0415
        from ..models.durability_in_force import DurabilityInForce  # noqa: PLC0415
        from ..models.health_projections import HealthProjections  # noqa: PLC0415
        from ..models.health_tasks import HealthTasks  # noqa: PLC0415
        from ..models.queue_server_status import QueueServerStatus  # noqa: PLC0415

        d = dict(src_dict)
        cache = CacheUse.from_dict(d.pop("cache"))

        durability = DurabilityInForce.from_dict(d.pop("durability"))

        history_breaks = d.pop("history_breaks")

        projections = HealthProjections.from_dict(d.pop("projections"))

        queues = []
        _queues = d.pop("queues")
        for queues_item_data in _queues:
            queues_item = QueueServerStatus.from_dict(queues_item_data)

            queues.append(queues_item)

        redis = check_health_redis(d.pop("redis"))

        status = check_health_status(d.pop("status"))

        tasks = HealthTasks.from_dict(d.pop("tasks"))

        def _parse_worker(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        worker = _parse_worker(d.pop("worker"))

        health = cls(
            cache=cache,
            durability=durability,
            history_breaks=history_breaks,
            projections=projections,
            queues=queues,
            redis=redis,
            status=status,
            tasks=tasks,
            worker=worker,
        )

        health.additional_properties = d
        return health

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
