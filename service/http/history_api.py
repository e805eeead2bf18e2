"""`/v1/games/{id}`: a game's history. The game at any event, its export, its audit, and a
round's summary. The CPU-heavy work runs off the event loop (service/play/offload.py)."""

from __future__ import annotations

from typing import Annotated

import msgspec
from litestar import Controller, Request, get
from litestar.params import PathParameter, QueryParameter
from litestar.response import Response

from domain.kernel import AUDITOR
from events.keys import GameKeys
from service.http.answers import (
    envelope_out,
    offload_pool,
    offloaded,
    readable,
    reader,
)
from service.http.params import (
    MAX_SEQ,
    READER,
    GameId,
    Service,
    Token,
)
from service.http.problems import responses
from service.infra.errors import ApiError
from service.play import offload
from service.readmodels.rounds import RoundIndex, rounds_key
from service.wire.schemas import AuditReport, Replayed, RoundSummary


class HistoryController(Controller):
    path = "/v1/games"
    tags = ["games"]

    @get(
        "/{game_id:str}/replay",
        operation_id="replayGame",
        security=READER,
        summary="The game as it stood after event `seq`",
        description="Once the game is finished, the full state (every hand, the stack); "
        "while it runs, the caller's own view of that moment.",
        responses=responses(400, 401, 403, 404, 503),
    )
    async def replay(
        self,
        service: Service,
        request: Request,
        game_id: GameId,
        seq: Annotated[int, QueryParameter(ge=1, le=MAX_SEQ)],
        token: Token,
    ) -> Replayed:
        game, viewer = await reader(service, game_id, token)
        if seq > game.seq:
            raise ApiError(404, "no_such_event", f"The game has {game.seq} events.")
        log, secret = await service.store.load(game_id, upto=seq)
        status, view = await offloaded(
            request, offload.replay_view, game_id, log, secret, AUDITOR if game.finished else viewer
        )
        return Replayed(id=game_id, seq=seq, status=status, view=view)

    @get(
        "/{game_id:str}/export",
        operation_id="exportGame",
        security=READER,
        summary="The whole log as JSON Lines",
        description="One envelope per line, `game` included: complete once the game is "
        "finished (then `danger audit FILE` checks it offline), redacted for the caller before.",
        media_type="application/x-ndjson",
        responses=responses(400, 401, 403, 404, 503),
    )
    async def export(
        self,
        service: Service,
        request: Request,
        game_id: GameId,
        token: Token,
    ) -> Response[bytes]:
        game, viewer = await reader(service, game_id, token)
        log = await service.store.read_raw(game_id, upto=game.seq)
        body = await offloaded(
            request, offload.export_lines, game.rules.name, game.finished, log, viewer
        )
        return Response(body, media_type="application/x-ndjson")

    @get(
        "/{game_id:str}/audit",
        operation_id="auditGame",
        summary="Check the game's log",
        description="The hash chain, the seed against its commitment, every shuffle, every "
        "command decided again, every score: each check with pass or fail and, for a failure, "
        "the first event where it failed. The checks that need the seed wait for the game's end.",
        responses=responses(400, 404, 503),
    )
    async def audit(
        self, service: Service, request: Request, game_id: GameId
    ) -> Response[AuditReport]:
        game = await service.get(game_id)
        over, seq = game.finished, game.seq  # the cached game may move on while we wait
        kept = GameKeys(game_id).audit
        if over and (report := await service.store.redis.get(kept)) is not None:
            return Response(report, media_type="application/json")
        pool = offload_pool(request)
        report = pool.recent(game_id, seq)
        if report is None:
            log = await service.store.read_raw(game_id, upto=seq)
            report = await offloaded(request, offload.audit_report, log)
            pool.remember(game_id, seq, report)
        if over:  # the log of a game that is over never changes: audit it once
            await service.store.redis.set(kept, report, nx=True)
        return Response(report, media_type="application/json")

    @get(
        "/{game_id:str}/rounds/{n:int}",
        operation_id="getRound",
        security=READER,
        summary="A round's summary",
        description="Every event of round n (dealt, passed, played, scored) with the scoring "
        "and its reason for every point; redacted for the caller while the game runs. Fed by "
        "the rounds projection, so a round shows a moment after it changes.",
        responses=responses(400, 401, 403, 404, 503),
    )
    async def round_summary(
        self,
        service: Service,
        request: Request,
        game_id: GameId,
        n: Annotated[int, PathParameter(ge=1, le=10_000)],
        token: Token,
    ) -> RoundSummary:
        game, viewer = await reader(service, game_id, token)
        raw = await request.app.state.redis.hget(rounds_key(game_id), str(n))
        if raw is None:
            raise ApiError(404, "no_such_round", f"Round {n} has not been played (yet).")
        index = msgspec.json.decode(raw, type=RoundIndex)
        log = await service.store.read_raw(game_id, after=index.first_seq - 1, upto=index.last_seq)
        envelopes = await readable(request, game, log, viewer)
        return RoundSummary(
            round=n,
            first_seq=index.first_seq,
            last_seq=index.last_seq,
            complete=index.scored,
            events=[envelope_out(e) for e in envelopes],
        )
