"""`/v1/games/{id}`: playing a game and following it. A seat's commands, the event log, and
its live stream (service/live/streams.py)."""

from __future__ import annotations

from typing import Annotated, Any

from litestar import Controller, MediaType, Request, get, post
from litestar.background_tasks import BackgroundTask
from litestar.enums import RequestEncodingType
from litestar.openapi.datastructures import ResponseSpec
from litestar.openapi.spec import Discriminator
from litestar.params import Body, HeaderParameter, QueryParameter
from litestar.response import Response

from domain.kernel import Viewer
from service.http import stream_forms
from service.http.answers import (
    RECEIPT_HEADER,
    envelope_out,
    readable,
    reader,
    receipts,
)
from service.http.commands import answer, seat_command
from service.http.http_protocols import transport_of
from service.http.params import (
    MAX_SEQ,
    READER,
    SEAT,
    GameId,
    IdempotencyKey,
    Prefer,
    Service,
    Token,
    seq_number,
)
from service.http.problems import responses
from service.live.stream_writer import Handed, StreamWriter
from service.live.streams import StreamHub
from service.wire.schemas import CommandResult, EventPage, GameCommand, StreamMessage


def _hand_over(
    request: Request,
    game_id: str,
    viewer: Viewer,
    client: str,
    after: int,
    checked: int,
    lines: bool,
    views: bool,
) -> Handed | None:
    """The stream for the process's stream writer to write, where it can: a GET over HTTP/1.1
    on a connection whose socket the server shows (service/http/http_protocols.py), the writer
    ready. None: the process writes it."""
    writer: StreamWriter | None = request.app.state.stream_writer
    transport = transport_of(request.scope)
    if (
        writer is None
        or transport is None
        or request.scope["http_version"] != "1.1"
        or request.method != "GET"
    ):
        return None
    return writer.hand_over(transport, game_id, viewer, client, after, checked, lines, views)


class PlayController(Controller):
    path = "/v1/games"
    tags = ["games"]

    @post(
        "/{game_id:str}/commands",
        status_code=200,
        operation_id="sendCommand",
        security=SEAT,
        summary="Send a game command",
        description="The body is one of the game's commands, tagged by `type`; `legal` in "
        "GET /v1/games/{id} lists the ones allowed now. `Idempotency-Key` makes a retry "
        "safe; `If-Match: <seq>` refuses the command if the game has moved on.",
        response_headers=[RECEIPT_HEADER],
        responses=responses(
            400,
            401,
            403,
            404,
            409,
            412,
            413,
            422,
            503,
            s403="Not a seat's token, or a token of another game.",
            s409="The game's state or its rules forbid the command now; `code` names the "
            "rule (a game's own rules: the game it applies to is named first).",
            s422="An Idempotency-Key this seat used in this game with another body or "
            "another If-Match.",
        )
        | {
            204: ResponseSpec(
                None,
                description="Applied (or an Idempotency-Key's first answer again), answered "
                "minimally as `Prefer: return=minimal` asked: no body; `ETag` holds the "
                "game's seq after the command, `Danger-Receipt` its signed receipt.",
                generate_examples=False,
            )
        },
    )
    async def command(
        self,
        service: Service,
        request: Request,
        game_id: GameId,
        data: Annotated[
            GameCommand,
            Body(
                media_type=RequestEncodingType.JSON,
                schema_extra={"discriminator": Discriminator(property_name="type")},
            ),
        ],
        token: Token,
        idempotency_key: IdempotencyKey = None,
        if_match: Annotated[
            str | None,
            HeaderParameter(
                name="If-Match",
                required=False,
                description="The seq the command was decided against; 412 if it moved on.",
            ),
        ] = None,
        prefer: Prefer = None,
    ) -> Response[CommandResult]:
        asked = seat_command(game_id, token, data, idempotency_key, if_match, prefer)
        answered = answer(await service.command(asked), asked.full, receipts(request))
        return Response(  # the body is CommandResult's, encoded
            answered.body,  # type: ignore[arg-type]  # encoded already
            status_code=answered.status,
            headers=dict(answered.headers),
            media_type=MediaType.JSON,
        )

    @get(
        "/{game_id:str}/events",
        operation_id="listEvents",
        security=READER,
        summary="The event log",
        description="Envelopes after seq `after`, redacted for the caller while the game "
        "runs, complete for everyone once it is finished.",
        responses=responses(400, 401, 403, 404, 503),
    )
    async def events(
        self,
        service: Service,
        request: Request,
        game_id: GameId,
        token: Token,
        after: Annotated[int, QueryParameter(ge=0, le=MAX_SEQ)] = 0,
        limit: Annotated[int, QueryParameter(ge=1, le=5000)] = 1000,
    ) -> EventPage:
        game, viewer = await reader(service, game_id, token)
        log = []
        if after < game.seq:
            upto = min(game.seq, after + limit)
            log = await service.store.read_raw(game_id, after=after, upto=upto)
        envelopes = await readable(request, game, log, viewer)
        return EventPage(events=[envelope_out(e) for e in envelopes], last_seq=game.seq)

    @get(
        "/{game_id:str}/stream",
        operation_id="streamEvents",
        security=READER,
        summary="Live events and views (Server-Sent Events or NDJSON)",
        description="The same envelopes as /events as they are appended; each message's id is "
        "its seq, so a reconnect with Last-Event-ID (or `after`) resumes with no gap and no "
        "duplicate. Comments keep the line alive. The stream ends after the game's last event "
        "(`seed_revealed`); opened on a game that is over, it sends what follows and ends. "
        "Opened with a seat's token, it also ends after the event that withdraws the token "
        "(`seat_left` or `seat_token_reissued` naming the seat); opened again with that token, "
        "it is refused (401 `token_invalid`).\n\n"
        "With `view=true` it also carries the caller's view (a `ViewMessage`: what GET "
        '/v1/games/{game_id} answers, with `"type": "view"`): once the backlog is sent, '
        "and after each write of events that leaves the game at rest (a command's events and "
        "the bot moves and timers they set off at once come as one write, then one view). "
        "A client renders the last view and sends one of its `legal` commands: it never needs "
        "to read the game again. The SSE event of a view is `view`, its id the seq it shows.\n\n"
        "With `Accept: application/x-ndjson` the same messages come as JSON Lines: one "
        "object a line (an event's `type` is its event type; a view's is `view`), empty lines "
        "keep the connection alive; resume with `after` = the last seq read.\n\n"
        "HEAD answers the headers a GET would, opens no stream and holds no stream slot.",
        media_type="text/event-stream",
        responses=responses(
            400,
            401,
            403,
            404,
            429,
            503,
            s429="Too many requests or streams from this client.",
        )
        | {
            200: ResponseSpec(
                StreamMessage,  # type: ignore[arg-type]  # a union: one message of the stream
                description="The stream: Server-Sent Events (each message's data one "
                "`StreamMessage`), or with `Accept: application/x-ndjson`, one `StreamMessage` "
                "a line.",
                media_type=stream_forms.NDJSON,
                generate_examples=False,
            )
        },
    )
    async def stream(
        self,
        service: Service,
        request: Request,
        game_id: GameId,
        token: Token,
        last_event_id: Annotated[
            str | None, HeaderParameter(name="Last-Event-ID", required=False)
        ] = None,
        after: Annotated[int, QueryParameter(ge=0, le=MAX_SEQ)] = 0,
        view: Annotated[
            bool,
            QueryParameter(
                description="Also send the caller's view and legal commands after each write "
                "of events that leaves the game at rest (ViewMessage)."
            ),
        ] = False,
    ) -> Response[Any]:
        game = await service.get(game_id)
        # The fold the token is checked against, taken before the check may wait for the
        # store: a withdrawal of the token after this seq ends the stream (service/live/streams.py).
        checked = game.seq
        viewer, _ = await service.viewer(game, token)
        resume = seq_number(last_event_id.strip()) if last_event_id else None
        start = min(after if resume is None else resume, game.seq)
        lines = stream_forms.wants_lines(request.headers.get("accept"))
        if stream_forms.is_head(request.scope):
            return stream_forms.head_only(lines)
        hub: StreamHub = request.app.state.hub
        client = request.app.state.clients.of(request.scope)
        handed = _hand_over(request, game_id, viewer, client, start, checked, lines, view)
        if handed is not None:
            return stream_forms.answer(handed.messages, lines, BackgroundTask(handed.close))
        subscriber = hub.subscribe(game_id, viewer, client, checked, lines, view)
        messages = hub.events(subscriber, start)
        return stream_forms.answer(messages, lines, BackgroundTask(hub.close, subscriber, messages))
