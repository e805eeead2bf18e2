"""The audit page with the receipts a player kept: a rewrite with every hash recomputed
passes the export's own checks in the browser, and fails on the receipts."""

from __future__ import annotations

import json

import httpx
import pytest

from tests.transparency.rewrite import renamed
from tests.transparency.test_audit_receipts import finished_with_receipts

pytest.importorskip("playwright.async_api")

from playwright.async_api import expect


async def test_the_audit_page_checks_receipts_and_catches_a_rewrite(new_page, service, tmp_path):
    async with httpx.AsyncClient(base_url=service, timeout=30) as client:
        _, export, receipts = await finished_with_receipts(client)
    (tmp_path / "game.jsonl").write_bytes(export)
    (tmp_path / "rewritten.jsonl").write_bytes(renamed(export))
    (tmp_path / "receipts.jsonl").write_text("\n".join(json.dumps(r) for r in receipts))
    page = await new_page()

    await page.goto("/audit")
    await page.get_by_label("Export file").set_input_files(str(tmp_path / "rewritten.jsonl"))
    await expect(page.locator("[data-audit]")).to_have_attribute("data-audit", "ok")

    await page.get_by_label("Receipts you kept").set_input_files(str(tmp_path / "receipts.jsonl"))
    verdict = page.locator("[data-audit]")
    await expect(verdict).to_have_attribute("data-audit", "fail")
    receipts_check = page.locator('[data-check="receipts"]')
    await expect(receipts_check).to_have_class("fail")
    await expect(receipts_check).to_contain_text("rewritten")

    await page.get_by_label("Export file").set_input_files(str(tmp_path / "game.jsonl"))
    await expect(verdict).to_have_attribute("data-audit", "ok")
    await expect(page.locator('[data-check="receipts"]')).to_have_class("pass")
