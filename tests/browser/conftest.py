"""The web client in a real browser: Playwright (PyPI) driving Debian's Chromium
(`apt-get install chromium`; never a browser Playwright downloads), against a real
`danger serve` on its own embedded Valkey. Skipped where no Chromium is installed; `make
test-browser` and CI install it and run them."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest

from tests.browser.serving import CHROMIUM, FLAGS, serving


@pytest.fixture(scope="session")
def service(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with serving(Path(tmp_path_factory.mktemp("web-data"))) as url:
        yield url


@pytest.fixture(scope="session")
async def browser() -> AsyncIterator[object]:
    from playwright.async_api import async_playwright

    async with async_playwright() as playwright:
        chromium = await playwright.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
        yield chromium
        await chromium.close()


@pytest.fixture
async def new_page(browser, service):
    """Pages, each in a browser context of its own (its own storage: another person), that
    fail the test on any script error or request that leaves the service's origin."""
    contexts = []
    problems: list[str] = []

    async def make(width: int = 1280, height: int = 900, address: str | None = None):
        # `address`: the client this person is to the service (X-Forwarded-For, which the
        # service trusts from 127.0.0.1), so that two people are two clients.
        context = await browser.new_context(
            base_url=service,
            viewport={"width": width, "height": height},
            extra_http_headers={"X-Forwarded-For": address} if address else None,
        )
        contexts.append(context)
        page = await context.new_page()
        page.on("pageerror", lambda error: problems.append(f"script error: {error}"))
        page.on(
            "request",
            lambda request: (
                None
                if request.url.startswith(service) or request.url.startswith("data:")
                else problems.append(f"request elsewhere: {request.url}")
            ),
        )
        return page

    yield make
    for context in contexts:
        await context.close()
    assert not problems, problems
