"""schemathesis over the whole spec, stateless and stateful (create -> join -> start ->
command via the spec's OpenAPI links): no server error, every answer as documented."""

from __future__ import annotations

import atexit
import tempfile
from pathlib import Path

import schemathesis
from hypothesis import HealthCheck, settings

from service.app import create_app
from service.config import Settings
from service.embedded import EmbeddedValkey

_VALKEY = EmbeddedValkey(Path(tempfile.mkdtemp(prefix="danger-schema-")))
_VALKEY.start()
atexit.register(_VALKEY.stop)
APP = create_app(Settings(background=False), _VALKEY.url)
APP.state.keep_alive = 0.05

schema = schemathesis.openapi.from_asgi("/schema/openapi.json", APP)


@schema.parametrize()
@settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck))
def test_every_operation_answers_as_documented(case):
    case.call_and_validate()


Workflow = schema.as_state_machine()
Workflow.TestCase.settings = settings(
    max_examples=40, stateful_step_count=12, deadline=None, suppress_health_check=list(HealthCheck)
)
TestGameLifecycle = Workflow.TestCase
