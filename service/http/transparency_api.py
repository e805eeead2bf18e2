"""What a third party checks a dispute against (docs/transparency.md): the keys the service
signs with, and the transparency log of game heads with its proofs."""

from __future__ import annotations

from typing import Annotated

from litestar import Controller, Request, get
from litestar.params import QueryParameter

from service.http.params import GameId
from service.http.problems import responses
from service.play.transparency_log import ENTRIES_MAX, TransparencyLog
from service.wire.schemas import (
    ConsistencyProof,
    InclusionProof,
    LogEntries,
    SigningKeys,
    TreeHead,
)

LEAVES_MAX = 10**12  # far beyond any log: a bound a schema states exactly
Index = Annotated[int, QueryParameter(ge=0, le=LEAVES_MAX)]
Size = Annotated[int, QueryParameter(ge=1, le=LEAVES_MAX)]


def _log(request: Request) -> TransparencyLog:
    return request.app.state.log


class TransparencyController(Controller):
    tags = ["transparency"]

    @get(
        "/v1/keys",
        operation_id="signingKeys",
        summary="The keys the service signs with",
        description="Every Ed25519 public key the service has signed receipts and tree heads "
        "with, retired ones included (a rotated key stays listed), and the one the answering "
        "process signs with. Keep a copy: it is the service's word as of now.",
        responses=responses(503),
    )
    async def keys(self, request: Request) -> SigningKeys:
        return await request.app.state.receipts.listed(request.app.state.redis)

    @get(
        "/v1/log/head",
        operation_id="logHead",
        summary="The transparency log's latest signed tree head",
        description="Signed every DANGER_LOG_SECONDS that the tree grew, once its leaves are "
        "on the store's replicas (before any leaf: the empty tree's, signed as asked).",
        responses=responses(503),
    )
    async def head(self, request: Request) -> TreeHead:
        return await _log(request).head()

    @get(
        "/v1/log/entries",
        operation_id="logEntries",
        summary="Leaves of the transparency log",
        description=f"The leaves with indices `start` to `end` - 1, at most {ENTRIES_MAX}: "
        "what a monitor fetches to check every game head the log holds.",
        responses=responses(
            400,
            409,
            422,
            s409="`start` beyond the log.",
            s422=f"`start` not below `end`, or more than {ENTRIES_MAX} leaves.",
        ),
    )
    async def entries(
        self,
        request: Request,
        start: Index,
        end: Size,
    ) -> LogEntries:
        return await _log(request).entries(start, end)

    @get(
        "/v1/log/proof/{game_id:str}",
        operation_id="logInclusionProof",
        summary="The proof that a game's head is in the log",
        description="The game's latest leaf in the tree of `size` leaves (default: the latest "
        "signed head's, which the answer carries) and its audit path (RFC 9162, 2.1.3).",
        responses=responses(
            400,
            404,
            409,
            503,
            s409="A `size` beyond the log.",
            s404="No head of this game is in that tree (yet: a running game's head is logged "
            "within DANGER_LOG_CHECKPOINT_SECONDS, a finished one's within "
            "DANGER_LOG_SECONDS).",
        ),
    )
    async def inclusion(
        self,
        request: Request,
        game_id: GameId,
        size: Annotated[int | None, QueryParameter(required=False, ge=1, le=LEAVES_MAX)] = None,
    ) -> InclusionProof:
        return await _log(request).inclusion(game_id, size)

    @get(
        "/v1/log/consistency",
        operation_id="logConsistencyProof",
        summary="The proof that a larger tree holds a smaller one unchanged",
        description="The consistency proof (RFC 9162, 2.1.4) from the tree of `first` leaves "
        "to the tree of `second`: a monitor that kept the first head checks the second against "
        "it.",
        responses=responses(
            400,
            409,
            422,
            s409="`second` beyond the log.",
            s422="`first` above `second`.",
        ),
    )
    async def consistency(
        self,
        request: Request,
        first: Size,
        second: Size,
    ) -> ConsistencyProof:
        return await _log(request).consistency(first, second)
