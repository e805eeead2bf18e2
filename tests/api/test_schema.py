"""schemathesis over the whole spec, stateless and stateful (create -> join -> start ->
command via the spec's OpenAPI links): no server error, every answer as documented."""

from __future__ import annotations

import atexit
import secrets
import tempfile
from pathlib import Path

import schemathesis
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import positive_data_acceptance

from service.app import create_app
from service.config import Rate, Rates, Settings
from service.embedded import EmbeddedValkey
from tests.stores import EXTERNAL, External

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
APP = create_app(
    Settings(
        background=False,
        rates=Rates(GENEROUS, GENEROUS, GENEROUS, GENEROUS, GENEROUS),
        open_games_per_client=0,
        trusted_proxies=("*",),  # each scenario below names itself a client of its own
        queue_url=getattr(_VALKEY, "queue_url", None),
    ),
    _VALKEY.url,
)
APP.state.keep_alive = 0.05

# An export for POST /v1/audit: lines of anything, JSON envelopes or not (each is audited).
LINE = st.binary(min_size=1, max_size=200).filter(lambda b: b"\n" not in b and b.strip())
EXPORTS = st.lists(LINE, min_size=1, max_size=5).map(b"\n".join)
for media in ("application/x-ndjson", "application/jsonl"):
    schemathesis.openapi.media_type(media, EXPORTS)

schema = schemathesis.openapi.from_asgi("/schema/openapi.json", APP)
CALLS = {"stateless": 0, "stateful": 0}


# No worker polls this server's job queue, so /health answers 503 `degraded`, as documented
# (its body is still checked against the spec): not a server error here.
DEGRADED_BY_DESIGN = [not_a_server_error, positive_data_acceptance]


@schema.parametrize()
@settings(max_examples=100, deadline=None, suppress_health_check=list(HealthCheck))
def test_every_operation_answers_as_documented(case):
    CALLS["stateless"] += 1
    excluded = DEGRADED_BY_DESIGN if case.path == "/health" else []
    case.call_and_validate(excluded_checks=excluded)


class Workflow(schema.as_state_machine()):  # type: ignore[misc]
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
        headers = {**(case.headers or {}), "X-Forwarded-For": self.client}
        game = (case.path_parameters or {}).get("game_id")
        if case.path.endswith(("/start", "/abandon")) and game in self.admins:
            headers["Authorization"] = f"Bearer {self.admins[game]}"
        elif case.path != "/v1/games/{game_id}/players" and self.seats.get(game):
            seats, self.calls = self.seats[game], self.calls + 1
            headers["Authorization"] = f"Bearer {seats[self.calls % len(seats)]}"
        case.headers = headers

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
        super().validate_response(response, case, **kwargs)


Workflow.TestCase.settings = settings(
    max_examples=40, stateful_step_count=12, deadline=None, suppress_health_check=list(HealthCheck)
)
TestGameLifecycle = Workflow.TestCase


def test_at_least_a_thousand_generated_cases_ran():
    """Runs after the two above (file order): the fuzzing was not trivially small."""
    assert CALLS["stateless"] + CALLS["stateful"] >= 1000, CALLS
