"""The API tests' problem answers are held to the spec's listing of codes (problem_codes.py)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from tests.api.problem_codes import LOG, ProblemLog


def _note(log: ProblemLog, response: httpx.Response) -> None:
    request = response.request
    log.answer(
        request.method,
        request.url.path,
        response.status_code,
        response.headers.get("content-type", ""),
        response.content,
    )


@pytest.fixture(scope="session", autouse=True)
def problem_answers() -> Iterator[ProblemLog]:
    """Every answer any httpx client of these tests receives (the session's client, the
    ones a test makes for an app of its own, those on a socket) passes through here: the
    real answer, read as it came, and handed on unchanged. At the end of the session, a
    problem answer whose code the spec does not list for its operation and status fails it.
    """
    sync_send, async_send = httpx.Client.send, httpx.AsyncClient.send

    def send(self: httpx.Client, request: httpx.Request, **kwargs: Any) -> httpx.Response:
        response = sync_send(self, request, **kwargs)
        if _is_problem(response):
            response.read()
            _note(LOG, response)
        return response

    async def asend(
        self: httpx.AsyncClient, request: httpx.Request, **kwargs: Any
    ) -> httpx.Response:
        response = await async_send(self, request, **kwargs)
        if _is_problem(response):
            await response.aread()
            _note(LOG, response)
        return response

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(httpx.Client, "send", send)
        patch.setattr(httpx.AsyncClient, "send", asend)
        yield LOG
    if LOG.unlisted():
        pytest.fail(LOG.report(), pytrace=False)


def _is_problem(response: httpx.Response) -> bool:
    return response.headers.get("content-type", "").startswith("application/problem+json")
