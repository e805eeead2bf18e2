"""schemathesis over the whole spec, stateless and stateful (create -> join -> start ->
command via the spec's OpenAPI links): no server error, every answer as documented.

In the examples phase each example is sent to real games: the spec's ids name games of
its own, so each case is pointed at a game of this server in the state the example is
about (a started game to read, a full one to start, an open one to join, ...), with the
token the operation takes; every problem answer is held to the spec's codes (problem_codes).
"""

from __future__ import annotations

import asyncio
import atexit
import collections
import functools
import secrets
import tempfile
import uuid
from pathlib import Path
from typing import Any

import schemathesis
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from litestar.testing import TestClient
from schemathesis.checks import not_a_server_error
from schemathesis.generation.meta import TestPhase
from schemathesis.specs.openapi.checks import (
    negative_data_rejection,
    positive_data_acceptance,
)

from domain.registry import GAMES
from service.assembly.app import create_app
from service.infra.config import Rate, Rates, Settings
from service.infra.embedded import EmbeddedValkey
from service.spec.openapi_spec import head_operation_id
from tests.api.problem_codes import LOG
from tests.stores import EXTERNAL, External, store_client

_VALKEY: EmbeddedValkey | External
if EXTERNAL is not None:  # the suite's store (`make test-cluster`)
    _VALKEY = EXTERNAL
else:
    _VALKEY = EmbeddedValkey(Path(tempfile.mkdtemp(prefix="danger-schema-")))
    _VALKEY.start()
    atexit.register(_VALKEY.stop)
# Thousands of calls from one address: limits far above them, so every answer is the
# operation's own, and its RateLimit fields are still checked against the spec.
GENEROUS = Rate(1_000_000, 1)
EVERY_KIND_GENEROUS = Rates(**dict.fromkeys(Rates.__dataclass_fields__, GENEROUS))
APP = create_app(
    Settings().replace(
        background=False,
        rates=EVERY_KIND_GENEROUS,
        open_games_per_client=0,
        trusted_proxy=("*",),  # each scenario below names itself a client of its own
        queue_url=getattr(_VALKEY, "queue_url", None),
    ),
    _VALKEY.url,
)
APP.state.keep_alive = 0.05

# An export for POST /v1/audit is text, as the spec's examples are: sent as text/plain is.
# (A custom strategy for these media types would refuse the examples, which are not bytes;
# lines of any bytes are sent by test_an_export_of_any_bytes_is_audited below.)
schemathesis.serializer.alias(["application/x-ndjson", "application/jsonl"], "text/plain")
LINE = st.binary(min_size=1, max_size=200).filter(lambda b: b"\n" not in b and b.strip())
EXPORTS = st.lists(LINE, min_size=1, max_size=5).map(b"\n".join)

schema = schemathesis.openapi.from_asgi("/schema/openapi.json", APP)
# The service takes any X-Request-ID, and replaces one that does not match the pattern the
# spec gives (service/infra/request_context.py): a value outside it is no invalid request to refuse.
REQUEST_ID = "schemathesis-" + secrets.token_hex(4)
schema.config.update(parameters={"header.X-Request-ID": REQUEST_ID})
CALLS = {"stateless": 0, "stateful": 0}


# No worker polls this server's job queue, so /health answers 503 `degraded`, as documented
# (its body is still checked against the spec): not a server error here.
DEGRADED_BY_DESIGN = [not_a_server_error, positive_data_acceptance]
# An export is text, whatever schemathesis makes of a body "of the wrong type" (an object,
# a number): on the wire it is text too, and audited as any export is.
AUDITS_ANY_TEXT = [negative_data_rejection]


def _call(operation: str, token: str | None = None, **parts: Any) -> Any:
    """One request to APP, for the examples below to act on."""
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    case = schema.find_operation_by_id(operation).Case(headers=headers, **parts)
    response = case.call()
    assert response.status_code < 300, (operation, response.status_code, response.text)
    return response.json()


async def _project_once() -> None:
    """Every projection applies what the feeds hold now, once, and acknowledges all it read."""
    from events.store import EventStore
    from service.readmodels.projections import consumers

    redis = await store_client(_VALKEY.url)
    try:
        for projection in consumers(redis, EventStore(redis)):
            await projection.catch_up()
    finally:
        await redis.aclose()


async def _log_once(game_id: str) -> None:
    """The game's head in the transparency log: noted (as the projection would, which may
    run in another app of the session's store) and taken by a batch of its own, as soon as
    no other writer holds the log."""
    from events.store import EventStore
    from service.assembly.background import log_writer
    from service.infra.clock import StoreClock
    from service.play import transparency_log

    redis = await store_client(_VALKEY.url)
    try:
        store = EventStore(redis)
        last = (await store.read(game_id))[-1]
        await transparency_log.mark(redis, [(game_id, last.seq, last.hash, False)], 0)
        settings = Settings().replace(log_checkpoint_seconds=0.0)
        writer = log_writer(store, StoreClock(redis), settings)
        while not await redis.hexists(transparency_log.GAMES, game_id):
            await writer.batch()
            await asyncio.sleep(0.05)
    finally:
        await redis.aclose()


class Games:
    """Games of this server for the examples phase, made as a client makes them."""

    @functools.cached_property
    def player(self) -> str:
        return _call("registerPlayer", body={"name": "Anton"})["id"]

    def open(self, game: str = "danger", seats: int = 3, joined: int = 0, **body: Any) -> Any:
        created = _call("createGame", body={"game": game, "seats": seats, **body})
        created["tokens"] = [
            _call(
                "joinGame",
                path_parameters={"game_id": created["id"]},
                body={"name": f"p{seat}", "invite": created.get("invite")},
            )["token"]
            for seat in range(joined)
        ]
        return created

    def started(self, game: str = "danger") -> Any:
        seats = max(3, GAMES[game].min_seats)
        created = self.open(game, seats, joined=seats)
        _call("startGame", created["admin_token"], path_parameters={"game_id": created["id"]})
        return created

    @functools.cached_property
    def showcase(self) -> Any:
        """A started game some commands in, whose round 1 the rounds projection has seen:
        played on an app of its own, then the projections brought up to date once (APP runs
        none). Not an app with its projections running: stopped, it would leave what it was
        last given pending for half a minute, under a consumer that is gone."""
        app = create_app(
            Settings().replace(
                background=False,
                rates=EVERY_KIND_GENEROUS,
                queue_url=getattr(_VALKEY, "queue_url", None),
            ),
            _VALKEY.url,
        )
        with TestClient(app) as client:
            created = client.post("/v1/games", json={"game": "danger", "seats": 3}).json()
            tokens = [
                client.post(f"/v1/games/{created['id']}/players", json={"name": f"p{s}"}).json()[
                    "token"
                ]
                for s in range(3)
            ]
            admin = {"Authorization": f"Bearer {created['admin_token']}"}
            assert client.post(f"/v1/games/{created['id']}/start", headers=admin).is_success
            while client.get(f"/v1/games/{created['id']}").json()["seq"] < 24:
                for token in tokens:
                    seat = {"Authorization": f"Bearer {token}"}
                    legal = client.get(f"/v1/games/{created['id']}", headers=seat).json()["legal"]
                    if legal:
                        sent = client.post(
                            f"/v1/games/{created['id']}/commands", json=legal[0], headers=seat
                        )
                        assert sent.is_success, sent.text
        asyncio.run(_project_once())
        asyncio.run(_log_once(created["id"]))
        created["tokens"] = tokens
        return created

    def fit(self, operation: str, case: Any) -> None:
        """Point an example at a game of this server the example can act on."""
        operation = READS_OF_HEAD.get(operation, operation)
        headers = dict(case.headers or {})
        headers.pop("Authorization", None)
        if "Idempotency-Key" in headers:  # an example's key is one: each request gets its own
            headers["Idempotency-Key"] = str(uuid.uuid4())
        path = dict(case.path_parameters or {})
        token = None
        if operation in READS:
            game = self.showcase
            token = game["tokens"][0] if operation != "auditGame" else None
        elif operation == "joinGame":
            body = case.body if isinstance(case.body, dict) else {}
            if body.get("team"):
                game = self.open("danger-danger", 4)
            elif "invite" in body:
                game = self.open(visibility="private")
                case.body = {**body, "invite": game["invite"]}
            else:
                game = self.open()
        elif operation == "startGame":
            game = self.open(joined=3)
            token = game["admin_token"]
        elif operation == "abandonGame":
            game = self.open()
            token = game["admin_token"]
        elif operation == "sendCommand":
            game = self.started(self.kind_of(case.body))
            token, seq = self.to_act(game)
            if "If-Match" in headers:
                headers["If-Match"] = f'"{seq}"'
        elif operation in (
            "leaveSeat",
            "changeTeam",
            "reissueSeatToken",
            "resignSeat",
            "rematchGame",
        ):
            game = self.open("danger-danger", 4, joined=3)
            token = game["admin_token"]
        elif operation == "logInclusionProof":
            game = self.showcase
            # The example's tree is the examples' own: here, the latest tree holds the game.
            case.query = {k: v for k, v in (case.query or {}).items() if k != "size"}
        elif operation in PLAYER_READS:
            path["player_id"] = self.player
            game = None
        else:
            game = None
        if game is not None and "game_id" in path:
            path["game_id"] = game["id"]
        if token is not None:
            headers["Authorization"] = f"Bearer {token}"
        case.path_parameters, case.headers = path, headers

    @staticmethod
    def kind_of(command: Any) -> str:
        tag = command.get("type") if isinstance(command, dict) else None
        return next(
            (
                name
                for name, rules in GAMES.items()
                if any(c.__struct_config__.tag == tag for c in rules.commands)
            ),
            "danger",
        )

    @staticmethod
    def to_act(game: Any) -> tuple[str, int]:
        """The token of a seat that may act now, and the game's seq."""
        for token in game["tokens"]:
            view = _call("getGame", token, path_parameters={"game_id": game["id"]})
            if view["legal"]:
                return token, view["seq"]
        return game["tokens"][0], view["seq"]


READS = {"getGame", "listEvents", "streamEvents", "replayGame", "exportGame", "auditGame"}
READS |= {"getRound"}
PLAYER_READS = {"getPlayer", "listPlayerGames", "exportPlayerGames"}
READS_OF_HEAD = {
    head_operation_id(get): get for get in (*READS, *PLAYER_READS, "logInclusionProof")
}
REAL = Games()
EXAMPLES: collections.Counter[tuple[str, int]] = collections.Counter()
"""The examples phase's answers, by operation and status."""


def _noted(case: Any, response: Any) -> None:
    """A problem answer, held to the spec's codes at the end of the session."""
    media = (response.headers.get("content-type") or [""])[0]
    LOG.answer(case.method, case.formatted_path, response.status_code, media, response.content)


@schema.parametrize()
@settings(max_examples=100, deadline=None, suppress_health_check=list(HealthCheck))
def test_every_operation_answers_as_documented(case):
    CALLS["stateless"] += 1
    operation = schema.get_operation_id(case.operation)
    example = case.meta is not None and case.meta.phase.name == TestPhase.EXAMPLES
    if example:
        REAL.fit(operation, case)
    excluded = DEGRADED_BY_DESIGN if case.path == "/health" else []
    if operation == "auditExport":
        excluded = AUDITS_ANY_TEXT
    response = case.call_and_validate(excluded_checks=excluded)
    _noted(case, response)
    if example:
        EXAMPLES[(operation, response.status_code)] += 1


@given(export=EXPORTS, media=st.sampled_from(["application/x-ndjson", "application/jsonl"]))
@settings(max_examples=50, deadline=None, suppress_health_check=list(HealthCheck))
def test_an_export_of_any_bytes_is_audited(export: bytes, media: str) -> None:
    """Lines of anything, JSON envelopes or not: each is audited, none is a server error."""
    case = schema.find_operation_by_id("auditExport").Case(body=export, media_type=media)
    response = case.call_and_validate()
    _noted(case, response)
    assert response.status_code == 200, response.text


def test_the_examples_act_on_real_games():
    """Runs after the test above (file order): the examples met games, not 404s."""
    assert sum(EXAMPLES.values()) > 60, EXAMPLES
    not_found = {key: n for key, n in EXAMPLES.items() if key[1] == 404}
    assert not not_found, not_found
    succeeded = {operation for (operation, status) in EXAMPLES if status < 300}
    assert len(succeeded) >= 25, sorted(EXAMPLES.items())


class Workflow(schema.as_state_machine()):  # type: ignore[misc]  # a class made at run time
    def setup(self) -> None:
        # A create's Idempotency-Key is its client's: were every scenario the same client, a
        # scenario run again (hypothesis replays and shrinks them) would meet the answers its
        # first run left under its keys, and take another path.
        self.client = "10." + ".".join(str(b) for b in secrets.token_bytes(3))

        # The tokens the answers handed out, by game: sent as the operations' security asks
        # (OpenAPI links cannot carry them: Authorization is not a parameter).
        self.admins: dict[str, str] = {}
        self.seats: dict[str, list[str]] = {}
        self.calls = 0

    def before_call(self, case) -> None:
        # The stateful cases take no parameter overrides: the request id is set here.
        case.headers = {
            **(case.headers or {}),
            "X-Forwarded-For": self.client,
            "X-Request-ID": REQUEST_ID,
        }

    def get_call_kwargs(self, case) -> dict:
        # Sent as the call's own headers, schemathesis knows the token is the scenario's (not
        # one it generated): it checks that the operation refuses the call without it.
        game = (case.path_parameters or {}).get("game_id", "")
        token = None
        if case.path.endswith(("/start", "/abandon")) and game in self.admins:
            token = self.admins[game]
        elif case.path != "/v1/games/{game_id}/players" and self.seats.get(game):
            seats, self.calls = self.seats[game], self.calls + 1
            token = seats[self.calls % len(seats)]
        return {"headers": {"Authorization": f"Bearer {token}"}} if token else {}

    def after_call(self, response, case) -> None:
        if response.status_code != 201:
            return
        body = response.json()
        if case.path == "/v1/games":
            self.admins[body["id"]] = body["admin_token"]
        elif case.path == "/v1/games/{game_id}/players":
            self.seats.setdefault(case.path_parameters["game_id"], []).append(body["token"])

    def validate_response(self, response, case, **kwargs):
        CALLS["stateful"] += 1
        _noted(case, response)
        super().validate_response(response, case, **kwargs)


Workflow.TestCase.settings = settings(
    max_examples=40, stateful_step_count=12, deadline=None, suppress_health_check=list(HealthCheck)
)
TestGameLifecycle = Workflow.TestCase


def test_at_least_a_thousand_generated_cases_ran():
    """Runs after the two above (file order): the fuzzing was not trivially small."""
    assert CALLS["stateless"] + CALLS["stateful"] >= 1000, CALLS
