"""Every page of the web client at desktop (1280x800) and phone (390x844) width, as a person
sees it: nothing wider than the screen, every seat numbered as the API numbers it (0 first),
every character and icon drawn (none an empty box), a finished game showing its final table
and result, and every game option labelled in words. Each page's screenshot is saved to
$DANGER_TEST_SCREENSHOTS when set (`make screenshots` sets docs/screenshots/)."""

from __future__ import annotations

import asyncio
import json
import os
import re
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.browser.games import SEATS, Game, bearer, played
from tests.browser.serving import CHROMIUM

if not CHROMIUM:
    pytest.skip("no Chromium installed (apt-get install chromium)", allow_module_level=True)
pytest.importorskip("playwright.async_api")

from playwright.async_api import Page, expect

SIZES = {"desktop": (1280, 800), "phone": (390, 844)}
KINDS = tuple(SEATS)
PAGES = [
    "lobby",
    "watch",
    *(f"play-{kind}" for kind in KINDS),
    *(f"finished-{kind}" for kind in KINDS),
    "replay",
    "audit",
    "audit-file",
    "player",
    "leaderboard",
]
# The screenshots' names that docs/web.md and the README already link to.
SHOT_NAMES = {"play-danger": "play"}

# Each character of the page drawn in its element's font, compared with a character no font
# has: the same bitmap means the browser drew the empty box of a missing glyph. A button
# without text must hold an icon with a size.
GLYPHS = """() => {
  const canvas = document.createElement("canvas");
  canvas.width = canvas.height = 64;
  const ctx = canvas.getContext("2d", { willReadFrequently: true });
  const bitmap = (font, text) => {
    ctx.clearRect(0, 0, 64, 64);
    ctx.font = font;
    ctx.textBaseline = "middle";
    ctx.fillText(text, 8, 32);
    return ctx.getImageData(0, 0, 64, 64).data.filter((_, i) => i % 4 === 3).join(",");
  };
  const missing = new Set();
  const seen = new Set();
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const style = getComputedStyle(node.parentElement);
    const font = `${style.fontStyle} ${style.fontWeight} 32px ${style.fontFamily}`;
    let box = null;
    for (const ch of node.textContent) {
      if (ch.codePointAt(0) < 0x80 || /\\s/.test(ch) || seen.has(font + ch)) continue;
      seen.add(font + ch);
      box = box || bitmap(font, "\\u{10FFFD}");
      if (bitmap(font, ch) === box) missing.add(ch);
    }
  }
  const shown = [...document.querySelectorAll("button")].filter((b) => b.getClientRects().length);
  const blank = shown.filter((b) => {
    const svg = b.querySelector("svg");
    if (!svg) return !b.textContent.trim();
    const r = svg.getBoundingClientRect();
    return !(r.width > 0 && r.height > 0 && svg.querySelector("path, rect, polygon"));
  }).map((b) => b.getAttribute("aria-label") || b.outerHTML);
  return { missing: [...missing], blank };
}"""

# The options of the create form as a person reads them, for the game chosen.
OPTION_LABELS = """() => [...document.querySelectorAll("fieldset.options > .field")].map((f) => {
  const control = f.querySelector("input, select");
  const name = f.dataset.option || control.id.replace(/^option-/, "");
  const label = f.matches("details")
    ? f.querySelector("summary").textContent
    : f.querySelector(`label[for="${control.id}"]`).textContent;
  const help = f.querySelector(":scope > small");
  const choices = control.matches("select")
    ? [...control.options].map((o) => [o.value, o.textContent])
    : [];
  return { name, label, help: help ? help.textContent : "", choices };
})"""


async def api(service: str, path: str, token: str | None = None) -> Any:
    async with httpx.AsyncClient(base_url=service) as http:
        answer = await http.get(path, headers=bearer(token) if token else {})
        answer.raise_for_status()
        return answer.json()


@pytest.fixture(scope="module")
async def games(service: str) -> dict[str, Any]:
    """Of every kind a game some commands in and one played to its end; Ann, a registered
    player, holds seat 0 of the finished Danger game."""
    async with httpx.AsyncClient(base_url=service, timeout=30) as http:
        ann = (await http.post("/v1/players", json={"name": "Ann"})).json()
        started = await asyncio.gather(*(played(http, kind, commands=12) for kind in KINDS))
        finished = await asyncio.gather(
            *(
                played(http, kind, first=ann["token"] if kind == "danger" else None)
                for kind in KINDS
            )
        )
    return {
        "player": ann["id"],
        "started": dict(zip(KINDS, started, strict=True)),
        "finished": dict(zip(KINDS, finished, strict=True)),
    }


@pytest.fixture
def shots(tmp_path: Path) -> Path:
    out = Path(os.environ.get("DANGER_TEST_SCREENSHOTS") or tmp_path)
    out.mkdir(parents=True, exist_ok=True)
    return out


async def seats_numbered_as_the_api(page: Page, view: dict[str, Any]) -> None:
    """Every seat's panel, the seating list and the team lists give each seat the API's number."""
    for player in view["players"]:
        seat, name = player["seat"], player["name"]
        await expect(page.locator(".players li").nth(seat)).to_contain_text(f"Seat {seat}: {name}")
        if view["state"]["game"] == "danger-danger":
            label = re.compile(rf"{name} \((you, )?seat {seat}\)")
            await expect(page.locator(".team").filter(has_text=label)).to_have_count(1)
        else:
            heading = page.locator(f'section[data-seat="{seat}"] h3')
            await expect(heading).to_contain_text(name)
            await expect(heading).to_contain_text(re.compile(rf"seat {seat}(?!\d)"))


async def lobby(page: Page, service: str, games: dict[str, Any], tmp: Path) -> None:
    answer = await page.goto("/")
    assert answer is not None
    policy = answer.headers["content-security-policy"]
    assert "default-src 'self'" in policy and "script-src 'self'" in policy
    await page.wait_for_selector("body[data-ready]")
    for kind in KINDS:
        await page.get_by_label("Game", exact=True).select_option(kind)
        options = await page.evaluate(OPTION_LABELS)
        wide, width = await page.evaluate(
            "[document.documentElement.scrollWidth, window.innerWidth]"
        )
        assert wide <= width, f"the form for {kind} is {wide} px wide on a {width} px screen"
        assert options, kind
        for option in options:
            raw = option["name"].replace("_", " ")
            label = option["label"].strip()
            assert label[0].isupper() and label.lower() != raw, (kind, option)
            assert option["help"].strip(), (kind, option)
            assert "RULINGS" not in option["help"] + label, (kind, option)
            for value, text in option["choices"]:
                assert text != value, (kind, option)
    # A game's id is 12 random letters and digits, and breaks at no space: the widest the
    # service may make must not push the lobby sideways either.
    await page.evaluate(
        "for (const a of document.querySelectorAll('[data-lobby] td:first-child a'))"
        " a.textContent = 'W'.repeat(12)"
    )
    wide, width = await page.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
    assert wide <= width, f"the lobby with the widest ids is {wide} px wide on a {width} px screen"
    await page.reload()


async def watch(page: Page, service: str, games: dict[str, Any], tmp: Path) -> None:
    game: Game = games["started"]["danger"]
    await page.goto(f"/games/{game.id}")
    await expect(page.locator(".who")).to_contain_text("spectator")
    await seats_numbered_as_the_api(page, (await api(service, f"/v1/games/{game.id}"))["view"])


def play(kind: str) -> Callable[[Page, str, dict[str, Any], Path], Awaitable[None]]:
    async def open_(page: Page, service: str, games: dict[str, Any], tmp: Path) -> None:
        game: Game = games["started"][kind]
        await page.goto(f"/games/{game.id}#token={game.tokens[0]}")
        view = (await api(service, f"/v1/games/{game.id}", game.tokens[0]))["view"]
        you = view["you"]
        name = next(p["name"] for p in view["players"] if p["seat"] == you)
        await expect(page.locator(".who")).to_contain_text(f"You play seat {you}, {name}.")
        await seats_numbered_as_the_api(page, view)

    return open_


# What a game in play shows and a finished one must not: the turn, the card drawn, the
# trick, the dealer's card, the relay.
LEFTOVERS = {
    "danger": ["to play", "Drawn", "Stack", "Discard"],
    "high-voltage": ["to play", "Trick", "no card yet", "In hand"],
    "danger-13": ["to play", "Dealer", "Revealed", "has a card", "Packet", "Sum"],
    "danger-danger": ["to play", "Next to draw", "Held card"],
}


def finished(kind: str) -> Callable[[Page, str, dict[str, Any], Path], Awaitable[None]]:
    async def open_(page: Page, service: str, games: dict[str, Any], tmp: Path) -> None:
        game: Game = games["finished"][kind]
        await page.goto(f"/games/{game.id}")
        await expect(page.locator("[data-status]")).to_have_attribute("data-status", "finished")
        view = (await api(service, f"/v1/games/{game.id}"))["view"]
        state = view["state"]
        board = page.locator(".board")
        await expect(board).to_contain_text("game over")
        await expect(page.locator(".winners")).to_be_visible()
        shown = await board.inner_text()
        for word in LEFTOVERS[kind]:
            assert not re.search(rf"\b{word}\b", shown), (kind, word)
        await seats_numbered_as_the_api(page, view)
        if kind == "danger":  # the last round's rows, not the emptied ones
            for row in state["last_round"]["rows"]:
                cells = page.locator(f'[data-seat="{row["seat"]}"] tr[data-row="{row["colour"]}"]')
                cards = await cells.locator("[data-card]").evaluate_all(
                    "cs => cs.map(c => c.dataset.card)"
                )
                assert cards == row["cards"], row
                await expect(cells.locator("td.points")).to_have_text(str(row["points"]))
        if kind == "high-voltage":
            for seat, zones in enumerate(state["zones"]):
                await expect(
                    page.locator(f'[data-seat="{seat}"] table.zones tbody tr')
                ).to_have_count(len(zones))
        if kind == "danger-13":
            for seat, row in enumerate(state["last_round"]["discarded"]):
                panel = page.locator(f'[data-seat="{seat}"]')
                cards = await panel.locator("dd [data-card]").evaluate_all(
                    "cs => cs.map(c => c.dataset.card)"
                )
                assert cards == row, seat
                won = await panel.locator("p [data-card]").evaluate_all(
                    "cs => cs.map(c => c.dataset.card)"
                )
                assert won == state["all_won"][seat], seat
        if kind == "danger-danger":
            for number, stack in enumerate(state["stacks"]):
                item = page.locator(f'[data-stack="{number}"]')
                await expect(item).to_contain_text(f"Stack {number}:")
                await expect(item.locator("[data-card]")).to_have_attribute("data-card", stack[-1])

    return open_


async def replay(page: Page, service: str, games: dict[str, Any], tmp: Path) -> None:
    game: Game = games["finished"]["danger"]
    await page.goto(f"/games/{game.id}/replay#seq=40")
    await expect(page.locator("[data-seq]")).to_have_attribute("data-seq", "40")
    for name in ("First event", "Previous event", "Next event", "Last event"):
        await expect(page.get_by_role("button", name=name, exact=True)).to_be_visible()
    view = (await api(service, f"/v1/games/{game.id}/replay?seq=40"))["view"]
    for player in view["players"]:
        heading = page.locator(f'section[data-seat="{player["seat"]}"] h3')
        await expect(heading).to_contain_text(re.compile(rf"seat {player['seat']}(?!\d)"))


async def audit(page: Page, service: str, games: dict[str, Any], tmp: Path) -> None:
    await page.goto(f"/games/{games['finished']['danger'].id}/audit")
    await expect(page.locator("[data-audit]")).to_have_attribute("data-audit", "ok")


async def audit_file(page: Page, service: str, games: dict[str, Any], tmp: Path) -> None:
    async with httpx.AsyncClient(base_url=service) as http:
        export = (await http.get(f"/v1/games/{games['finished']['danger'].id}/export")).content
    lines = export.splitlines()
    event = json.loads(lines[11])
    event["actor"] = "admin" if event["actor"] != "admin" else "anyone"
    lines[11] = json.dumps(event, separators=(",", ":")).encode()
    (tmp / "tampered.jsonl").write_bytes(b"\n".join(lines) + b"\n")
    await page.goto("/audit")
    await page.get_by_label("Export file").set_input_files(str(tmp / "tampered.jsonl"))
    await expect(page.locator("[data-audit]")).to_have_attribute("data-audit-seq", "12")


async def player(page: Page, service: str, games: dict[str, Any], tmp: Path) -> None:
    game: Game = games["finished"]["danger"]
    row = page.locator(f'tr[data-game="{game.id}"]')
    for _ in range(50):  # the projections file a game a moment after it ends
        await page.goto(f"/players/{games['player']}")
        await page.wait_for_selector("body[data-ready]")
        if await row.count():
            break
        await page.wait_for_timeout(200)
    listed = await api(service, f"/v1/players/{games['player']}/games")
    seat = next(g["seat"] for g in listed["games"] if g["id"] == game.id)
    await expect(row.locator("td").nth(1)).to_contain_text(re.compile(rf"seat {seat}(?!\d)"))


async def leaderboard(page: Page, service: str, games: dict[str, Any], tmp: Path) -> None:
    await page.goto("/leaderboards/danger")
    await page.wait_for_selector("body[data-ready]")
    await expect(page.locator("table[data-leaderboard='danger']")).to_be_visible()


OPEN: dict[str, Callable[[Page, str, dict[str, Any], Path], Awaitable[None]]] = {
    "lobby": lobby,
    "watch": watch,
    **{f"play-{kind}": play(kind) for kind in KINDS},
    **{f"finished-{kind}": finished(kind) for kind in KINDS},
    "replay": replay,
    "audit": audit,
    "audit-file": audit_file,
    "player": player,
    "leaderboard": leaderboard,
}


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("name", PAGES)
async def test_a_page_fits_the_screen_numbers_seats_as_the_api_and_draws_every_glyph(
    new_page, service, games, shots, tmp_path, name, size
):
    width, height = SIZES[size]
    page = await new_page(width, height)
    await OPEN[name](page, service, games, tmp_path)
    await page.wait_for_selector("body[data-ready]")

    assert await page.locator("h1").count() == 1
    wide = await page.evaluate("document.documentElement.scrollWidth")
    assert wide <= width, f"{name} is {wide} px wide on a {width} px screen"
    drawn = await page.evaluate(GLYPHS)
    assert not drawn["missing"], f"{name} draws these as empty boxes: {drawn['missing']}"
    assert not drawn["blank"], f"{name} has buttons showing nothing: {drawn['blank']}"
    await page.screenshot(
        path=str(shots / f"{SHOT_NAMES.get(name, name)}-{size}.png"), full_page=True
    )
