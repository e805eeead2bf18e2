"""Screenshots of every page of the web client at desktop and phone width, into
docs/screenshots/ (`make screenshots`): a Danger game with two people and a bot, played
partway, a finished game's replay and audit, an export's failed audit, and a registered
player's games.

    .venv/bin/python -m tests.browser.screenshots [--out docs/screenshots]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import tempfile
from pathlib import Path

import httpx
from playwright.async_api import Page, async_playwright

from tests.browser.serving import CHROMIUM, FLAGS, serving

SIZES = {"desktop": (1280, 900), "phone": (390, 844)}


TEAMS = {"danger-danger": ["pink", "yellow", "pink", "yellow"]}


async def game_in_play(http: httpx.AsyncClient, game: str = "danger") -> tuple[str, str]:
    """A game of two people and bots, some turns in; (its id, a seat's token)."""
    seats = 4 if game in TEAMS else 3
    created = (await http.post("/v1/games", json={"game": game, "seats": seats})).json()
    game_id = created["id"]
    teams = TEAMS.get(game, [None] * seats)
    tokens = []
    for n, name in enumerate(("Ann", "Bob")):
        body = {"name": name, **({"team": teams[n]} if teams[n] else {})}
        joined = await http.post(f"/v1/games/{game_id}/players", json=body)
        tokens.append(joined.json()["token"])
    for n in range(2, seats):
        bot = {"name": f"Bot {n - 1}", "bot": "greedy", "think_ms": 1500}
        if teams[n]:
            bot["team"] = teams[n]
        await http.post(f"/v1/games/{game_id}/players", json=bot)
    admin = {"Authorization": f"Bearer {created['admin_token']}"}
    await http.post(f"/v1/games/{game_id}/start", headers=admin)
    for _ in range(14 if game == "danger" else 3):
        for token in tokens:
            auth = {"Authorization": f"Bearer {token}"}
            legal = (await http.get(f"/v1/games/{game_id}", headers=auth)).json()["legal"]
            if legal:
                await http.post(f"/v1/games/{game_id}/commands", json=legal[0], headers=auth)
        await asyncio.sleep(0.05)
    return game_id, tokens[0]


async def finished_game(http: httpx.AsyncClient) -> str:
    created = (await http.post("/v1/games", json={"game": "danger", "seats": 2})).json()
    for n in range(2):
        body = {"name": f"Bot {n + 1}", "bot": "greedy", "think_ms": 0}
        await http.post(f"/v1/games/{created['id']}/players", json=body)
    admin = {"Authorization": f"Bearer {created['admin_token']}"}
    await http.post(f"/v1/games/{created['id']}/start", headers=admin)
    while (await http.get(f"/v1/games/{created['id']}")).json()["status"] != "finished":
        await asyncio.sleep(0.2)
    return str(created["id"])


async def player_with_games(http: httpx.AsyncClient) -> str:
    """A registered player, Ann, with a game won or lost against Bob, one abandoned and one
    waiting for its players; her id."""
    ann = (await http.post("/v1/players", json={"name": "Ann"})).json()
    mine = {"Authorization": f"Bearer {ann['token']}"}
    for kind, seats, then in (
        ("danger", 2, "finish"),
        ("high-voltage", 3, "abandon"),
        ("danger-13", 3, "wait"),
    ):
        created = (await http.post("/v1/games", json={"game": kind, "seats": seats})).json()
        game_id, admin = created["id"], {"Authorization": f"Bearer {created['admin_token']}"}
        joined = await http.post(f"/v1/games/{game_id}/players", json={"name": "Ann"}, headers=mine)
        if then == "abandon":
            await http.post(f"/v1/games/{game_id}/abandon", headers=admin)
        if then != "finish":
            continue
        bob = (await http.post(f"/v1/games/{game_id}/players", json={"name": "Bob"})).json()
        seats_ = [{"Authorization": f"Bearer {t}"} for t in (joined.json()["token"], bob["token"])]
        await http.post(f"/v1/games/{game_id}/start", headers=admin)
        while (await http.get(f"/v1/games/{game_id}")).json()["status"] != "finished":
            for seat in seats_:
                legal = (await http.get(f"/v1/games/{game_id}", headers=seat)).json()["legal"]
                if legal:
                    await http.post(f"/v1/games/{game_id}/commands", json=legal[0], headers=seat)
    await asyncio.sleep(1)  # the projections file them
    return str(ann["id"])


async def shoot(page: Page, path: str, out: Path, name: str) -> None:
    await page.goto(path)
    await page.wait_for_selector("body[data-ready]")
    await page.wait_for_timeout(400)
    await page.screenshot(path=str(out / f"{name}.png"), full_page=True)


async def main(out: Path) -> None:
    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as data, serving(Path(data)) as url:
        async with httpx.AsyncClient(base_url=url, timeout=30) as http:
            playing, token = await game_in_play(http)
            others = {
                game: await game_in_play(http, game)
                for game in ("high-voltage", "danger-13", "danger-danger")
            }
            over = await finished_game(http)
            player = await player_with_games(http)
            export = (await http.get(f"/v1/games/{over}/export")).content
        lines = export.splitlines()
        event = json.loads(lines[11])
        event["actor"] = "admin"
        lines[11] = json.dumps(event, separators=(",", ":")).encode()
        tampered = Path(data) / "tampered.jsonl"
        tampered.write_bytes(b"\n".join(lines) + b"\n")
        async with async_playwright() as playwright:
            browser = await playwright.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
            for size, (width, height) in SIZES.items():
                context = await browser.new_context(
                    base_url=url, viewport={"width": width, "height": height}
                )
                page = await context.new_page()
                await shoot(page, "/", out, f"lobby-{size}")
                await shoot(page, f"/games/{playing}", out, f"watch-{size}")
                await shoot(page, f"/games/{playing}#token={token}", out, f"play-{size}")
                for game, (other, seat) in others.items():
                    await page.goto("/")
                    await shoot(page, f"/games/{other}#token={seat}", out, f"play-{game}-{size}")
                await shoot(page, f"/games/{over}/replay#seq=60", out, f"replay-{size}")
                await shoot(page, f"/games/{over}/audit", out, f"audit-{size}")
                await page.goto("/audit")
                await page.get_by_label("Export file").set_input_files(str(tampered))
                await page.wait_for_selector("[data-audit]")
                await page.screenshot(path=str(out / f"audit-file-{size}.png"), full_page=True)
                await shoot(page, f"/players/{player}", out, f"player-{size}")
                await context.close()
            await browser.close()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(prog="tests.browser.screenshots", description=__doc__)
    parser.add_argument("--out", type=Path, default=Path("docs/screenshots"))
    asyncio.run(main(parser.parse_args().out))
