"""`/v1/webhooks`: an app key's holder names where its games' events are delivered
(docs/webhooks.md), changes, pauses and removes its endpoints, rotates their secrets, and
reads each delivery and its attempts."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Annotated, Any

import msgspec
from litestar import Controller, HttpMethod, Request, delete, get, patch, post, route
from litestar.params import Body, PathParameter
from litestar.response import Response

from service.http.guards import app_keys
from service.http.problems import responses
from service.infra.clock import stamp
from service.infra.errors import ApiError
from service.jobs import webhook_targets
from service.play import webhook_deliveries as deliveries
from service.play import webhooks
from service.wire.webhook_schemas import (
    AttemptOut,
    DeliveryOut,
    WebhookChange,
    WebhookIn,
    WebhookOut,
)

KEY: list[dict[str, list[str]]] = [{"appKey": []}]
WebhookId = Annotated[
    str, PathParameter(title="webhook_id", description="A webhook's id.", max_length=64)
]
DeliveryId = Annotated[
    str,
    PathParameter(
        title="delivery_id", description="A delivery's id (its `webhook-id`).", max_length=64
    ),
]
DELIVERIES_LISTED = 50


def _at(ms: int | None) -> str | None:
    return None if ms is None else stamp(datetime.fromtimestamp(ms / 1000, UTC))


def _out(endpoint: webhooks.Endpoint, secret: str | None = None) -> WebhookOut:
    return WebhookOut(
        id=endpoint.id,
        url=endpoint.url,
        events=endpoint.events,
        games=endpoint.games,
        created_at=_at(endpoint.created_ms) or "",
        paused=endpoint.paused,
        failing_since=_at(endpoint.failing_since_ms),
        secret=secret,
    )


async def _holder(request: Request) -> app_keys.AppKey:
    """The app key the request is sent with: webhooks are an app key's."""
    token = app_keys.bearer_of(request.scope)
    if not app_keys.looks_like_key(token):
        raise ApiError(
            401,
            "key_missing",
            "Webhooks belong to an app key: send 'Authorization: Bearer dhk_...'.",
        )
    return await app_keys.verify(request.app.state.redis, token)


async def _own(request: Request, webhook_id: WebhookId) -> webhooks.Endpoint:
    key = await _holder(request)
    endpoint = await webhooks.get(request.app.state.redis, webhook_id)
    if endpoint is None or endpoint.key != key.id:
        raise ApiError(404, "unknown_webhook", "This app key has no webhook with that id.")
    return endpoint


async def _checked_url(request: Request, url: str) -> str:
    """The URL, once it may receive deliveries now (its host resolved and checked)."""
    try:
        await webhook_targets.resolve(url, request.app.state.webhooks.private)
    except webhook_targets.Refused as exc:
        raise ApiError(422, "invalid_webhook_url", f"{url[:200]}: {exc}") from None
    return url


def _now_ms(request: Request) -> int:
    return int(request.app.state.service.clock.time() * 1000)


class WebhooksController(Controller):
    path = "/v1/webhooks"
    tags = ["webhooks"]
    security = KEY

    # Litestar builds OPTIONS handler by handler, keeping the first one's methods: these,
    # named to sort first, answer for each path with all of its methods.
    @route("/", http_method=[HttpMethod.OPTIONS], include_in_schema=False, status_code=204)
    async def allow(self) -> Response[None]:
        return Response(None, status_code=204, headers={"Allow": "GET, OPTIONS, POST"})

    @route(
        "/{webhook_id:str}",
        http_method=[HttpMethod.OPTIONS],
        include_in_schema=False,
        status_code=204,
    )
    async def allow_one(self) -> Response[None]:
        return Response(None, status_code=204, headers={"Allow": "DELETE, GET, OPTIONS, PATCH"})

    @post(
        "/",
        operation_id="createWebhook",
        summary="Hear of this key's games at a URL",
        description="A new endpoint of the app key sent: deliveries of the event types named, "
        "for the games the key created and the games of the players it registered (of the "
        "kinds named, or every kind), each signed as Standard Webhooks asks with the secret "
        "answered here, shown only now. The URL is http(s), and every address its host "
        "resolves to is on the internet (loopback and private networks only where the server "
        "allows them, DANGER_WEBHOOK_PRIVATE). An endpoint hears nothing from before it was "
        "made. At most DANGER_WEBHOOKS_PER_KEY (10) per key.",
        responses=responses(
            400, 401, 409, 413, 415, 422, s409="The key has as many webhooks as it may."
        ),
    )
    async def create(
        self, request: Request, data: Annotated[WebhookIn, Body()]
    ) -> Response[WebhookOut]:
        key = await _holder(request)
        url = await _checked_url(request, data.url)
        try:
            endpoint = await webhooks.add(
                request.app.state.redis,
                key.id,
                url,
                list(data.events),
                list(data.games),
                _now_ms(request),
                request.app.state.webhooks.per_key,
            )
        except webhooks.TooMany as exc:
            raise ApiError(409, "too_many_webhooks", str(exc)) from None
        return Response(_out(endpoint, endpoint.secrets[0].value), status_code=201)

    @get(
        "/",
        operation_id="listWebhooks",
        summary="This key's webhooks",
        responses=responses(400, 401),
    )
    async def listing(self, request: Request) -> list[WebhookOut]:
        key = await _holder(request)
        return [_out(e) for e in await webhooks.of_key(request.app.state.redis, key.id)]

    @get(
        "/{webhook_id:str}",
        operation_id="getWebhook",
        summary="One of this key's webhooks",
        responses=responses(400, 401, 404),
    )
    async def one(self, request: Request, webhook_id: WebhookId) -> WebhookOut:
        return _out(await _own(request, webhook_id))

    @patch(
        "/{webhook_id:str}",
        operation_id="changeWebhook",
        summary="Change a webhook's URL, events or kinds, or pause or resume it",
        description="`paused: false` resumes an endpoint paused by its owner or by failures: "
        "its queued deliveries are sent again, in order.",
        responses=responses(400, 401, 404, 413, 415, 422),
    )
    async def change(
        self, request: Request, webhook_id: WebhookId, data: Annotated[WebhookChange, Body()]
    ) -> WebhookOut:
        endpoint = await _own(request, webhook_id)
        redis = request.app.state.redis
        changes: dict[str, Any] = {}
        if data.url is not None:
            changes["url"] = await _checked_url(request, data.url)
        if data.events is not None:
            changes["events"] = sorted(set(data.events))
        if data.games is not None:
            changes["games"] = sorted(set(data.games))
        if data.paused is True:
            changes["paused"] = "paused by its owner"
        elif data.paused is False:
            changes["paused"], changes["failing_since_ms"] = None, None
        changed = msgspec.structs.replace(endpoint, **changes)
        await webhooks.save(redis, changed)
        if data.paused is False:
            await redis.zadd(deliveries.DUE, {endpoint.id: _now_ms(request)})
        return _out(changed)

    @delete(
        "/{webhook_id:str}",
        operation_id="deleteWebhook",
        summary="Remove a webhook: nothing more is delivered to it",
        responses=responses(400, 401, 404),
    )
    async def remove(self, request: Request, webhook_id: WebhookId) -> None:
        endpoint = await _own(request, webhook_id)
        if await webhooks.remove(request.app.state.redis, endpoint.key, endpoint.id):
            await deliveries.forget(request.app.state.redis, endpoint.id)

    @post(
        "/{webhook_id:str}/secret",
        status_code=200,
        operation_id="rotateWebhookSecret",
        summary="A new signing secret",
        description="The new secret, shown only now. For 24 hours each delivery is signed "
        "with both the new and the old secret, so the receiver can move to the new one "
        "without refusing a delivery; then the old one stops.",
        responses=responses(400, 401, 404),
    )
    async def rotate(self, request: Request, webhook_id: WebhookId) -> WebhookOut:
        endpoint = await _own(request, webhook_id)
        rotated = await webhooks.rotate(request.app.state.redis, endpoint, _now_ms(request))
        return _out(rotated, rotated.secrets[0].value)

    @get(
        "/{webhook_id:str}/deliveries",
        operation_id="listWebhookDeliveries",
        summary="A webhook's deliveries and their attempts",
        description=f"Those queued, then the latest finished, newest first, {DELIVERIES_LISTED} "
        "at most; each with its last 20 attempts (status, time taken, the first KiB of the "
        "answer, or why there was none).",
        responses=responses(400, 401, 404),
    )
    async def deliveries(self, request: Request, webhook_id: WebhookId) -> list[DeliveryOut]:
        endpoint = await _own(request, webhook_id)
        redis = request.app.state.redis
        found = await deliveries.recent(redis, endpoint.id, DELIVERIES_LISTED)
        return [
            _delivery_out(d, await deliveries.attempts(redis, endpoint.id, d.id)) for d in found
        ]

    @post(
        "/{webhook_id:str}/deliveries/{delivery_id:str}/replay",
        status_code=200,
        operation_id="replayWebhookDelivery",
        summary="Send a finished delivery again",
        description="A delivery delivered or given up, queued again at the end of the "
        "endpoint's queue, with the same `webhook-id`.",
        responses=responses(
            400, 401, 404, 409, s409="The delivery is still queued: it will be sent anyway."
        ),
    )
    async def replay(
        self, request: Request, webhook_id: WebhookId, delivery_id: DeliveryId
    ) -> DeliveryOut:
        endpoint = await _own(request, webhook_id)
        redis = request.app.state.redis
        delivery = await deliveries.get(redis, endpoint.id, delivery_id)
        if delivery is None:
            raise ApiError(404, "unknown_delivery", "This webhook has no delivery with that id.")
        if delivery.status == "queued":
            raise ApiError(409, "delivery_queued", "The delivery is queued: it will be sent.")
        again = await deliveries.replay(redis, delivery, _now_ms(request))
        return _delivery_out(again, await deliveries.attempts(redis, endpoint.id, delivery.id))


def _delivery_out(d: deliveries.Delivery, tried: list[deliveries.Attempt]) -> DeliveryOut:
    return DeliveryOut(
        id=d.id,
        type=d.type,
        game=d.game,
        seq=d.seq,
        status=d.status,
        attempts=d.attempts,
        created_at=_at(d.created_ms) or "",
        next_attempt_at=_at(d.next_ms) if d.status == "queued" and d.next_ms else None,
        tried=[
            AttemptOut(
                at=_at(a.at_ms) or "", ms=a.ms, status=a.status, error=a.error, answer=a.answer
            )
            for a in tried
        ],
    )
