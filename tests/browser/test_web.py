"""A person with only a browser: creates, joins, plays, watches, replays and audits games of
each kind by clicking what the pages offer (the hooks of docs/web.md), in separate browser
contexts (separate people: each its own storage and tokens)."""

from __future__ import annotations

import json
import re
from typing import Any

import httpx
import pytest

from tests.browser.games import played
from tests.browser.serving import CHROMIUM
from tests.players import bearer

if not CHROMIUM:
    pytest.skip("no Chromium installed (apt-get install chromium)", allow_module_level=True)
pytest.importorskip("playwright.async_api")

from playwright.async_api import Page, expect

COMMANDS = ".controls button[data-command]:visible:not([disabled])"


async def seq_of(page: Page) -> int:
    return int(await page.locator("[data-seq]").first.get_attribute("data-seq") or 0)


async def status_of(page: Page) -> str:
    return await page.locator("[data-status]").first.get_attribute("data-status") or ""


async def create(page: Page, game: str, seats: int) -> str:
    await page.goto("/")
    await page.get_by_label("Game", exact=True).select_option(game)
    await page.get_by_label("Seats").fill(str(seats))
    await page.get_by_role("button", name="Create").click()
    await page.wait_for_url(re.compile(r"/games/[A-Za-z0-9_-]+$"))
    return page.url.rsplit("/", 1)[1]


async def join(page: Page, game_id: str, name: str, team: str | None = None) -> None:
    await page.goto(f"/games/{game_id}")
    await page.get_by_label("Name", exact=True).fill(name)
    if team is not None:
        await page.locator("#join-team").select_option(team)
    await page.get_by_role("button", name="Join", exact=True).click()
    await expect(page.locator(".who")).to_contain_text("You play seat")


async def start(admin: Page) -> None:
    await admin.get_by_role("button", name="Start the game").click()
    await expect(admin.locator("[data-status]")).to_have_attribute("data-status", "active")


async def until_seq(page: Page, seq: int) -> None:
    await page.wait_for_function(
        "s => Number(document.querySelector('[data-seq]').dataset.seq) >= s", arg=seq
    )


async def click_a_command(page: Page) -> bool:
    """Click the page's first command (in a High Voltage draft: tick a legal pick's cards
    and keep them); False when the page offers none."""
    pick = page.locator("form.pick")
    if await pick.count():
        listed = pick.locator("button[data-command]").first
        first = json.loads(await listed.get_attribute("data-command") or "{}")
        for card in first["cards"]:
            await page.locator(f"#pick-{card}").check()
        keep = pick.get_by_role("button", name=re.compile("^Keep"))
        assert json.loads(await keep.get_attribute("data-command") or "{}") == first
        await keep.click()
        return True
    button = page.locator(COMMANDS).first
    if not await button.count():
        return False
    await button.click()
    return True


async def play(pages: list[Page], moves: int | None = None) -> int:
    """Click commands, each on whichever page offers one once every page shows the latest
    event, until the game is over (or `moves` were made); the moves made."""
    made = 0
    latest = max([await seq_of(p) for p in pages])
    while moves is None or made < moves:
        for page in pages:
            await until_seq(page, latest)
        if await status_of(pages[0]) in ("finished", "abandoned"):
            return made
        for page in pages:
            if await click_a_command(page):
                await until_seq(page, latest + 1)
                latest = await seq_of(page)
                made += 1
                break
        else:
            await pages[0].wait_for_timeout(100)  # a timer or a bot is due
    return made


async def api(service: str, path: str, token: str | None = None) -> Any:
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    async with httpx.AsyncClient(base_url=service) as http:
        answer = await http.get(path, headers=headers)
        answer.raise_for_status()
        json_body = answer.headers["content-type"].startswith("application/json")
        return answer.json() if json_body else answer.text


async def test_three_people_play_a_whole_game_of_danger_and_a_spectator_watches_it(
    new_page, service
):
    ann, bob, cyd, watcher = [await new_page() for _ in range(4)]
    game_id = await create(ann, "danger", 3)
    await join(ann, game_id, "Ann")
    await join(bob, game_id, "Bob")
    await join(cyd, game_id, "Cyd")
    await watcher.goto(f"/games/{game_id}")
    await expect(watcher.locator(".who")).to_contain_text("spectator")
    await ann.reload()
    await start(ann)

    made = await play([ann, bob, cyd])

    for page in (ann, bob, cyd, watcher):
        await expect(page.locator("[data-status]")).to_have_attribute("data-status", "finished")
    final = await api(service, f"/v1/games/{game_id}")
    assert made > 50
    await until_seq(watcher, final["seq"])
    # The spectator's board is the final table: every row and sum of the last round, as the
    # spectator's view gives it.
    for row in final["view"]["state"]["last_round"]["rows"]:
        shown = watcher.locator(f'[data-seat="{row["seat"]}"] tr[data-row="{row["colour"]}"]')
        cards = await shown.locator("[data-card]").evaluate_all(
            "cards => cards.map(c => c.dataset.card)"
        )
        assert cards == row["cards"]
        await expect(shown.locator("td.sum")).to_have_text(str(row["sum"]))
    await expect(watcher.locator(".winners")).to_be_visible()
    assert await watcher.locator("[data-command]").count() == 0


async def test_a_refused_command_shows_the_rule_in_words(new_page, browser, service):
    ann, bob = [await new_page() for _ in range(2)]
    game_id = await create(ann, "danger", 2)
    await join(ann, game_id, "Ann")
    await join(bob, game_id, "Bob")
    await ann.reload()
    await start(ann)
    # Ann's second tab (the same browser: the same seat) hears no stream, so it keeps
    # offering the command her first tab has just used.
    stale = await ann.context.new_page()
    await stale.route("**/stream?*", lambda route: route.abort())
    await stale.goto(f"/games/{game_id}")
    first = ann.locator(COMMANDS).first
    body = await first.get_attribute("data-command")
    await expect(stale.locator(COMMANDS).first).to_have_attribute("data-command", body or "")
    seq = await seq_of(ann)
    await first.click()
    await until_seq(ann, seq + 1)
    await stale.locator(COMMANDS).first.click()

    async with httpx.AsyncClient(base_url=service) as http:
        token = await ann.evaluate(
            "id => JSON.parse(localStorage.getItem('danger-hall:tokens'))[id].seat", game_id
        )
        again = await http.post(
            f"/v1/games/{game_id}/commands",
            content=body,
            headers={"Authorization": f"Bearer {token}", "Content-Type": "application/json"},
        )
    assert again.status_code == 409
    refusal = f"Not allowed: {again.json()['detail']}"
    await expect(stale.get_by_role("alert")).to_contain_text(refusal)
    assert await seq_of(ann) == seq + 1 or await status_of(ann) == "active"


@pytest.mark.parametrize(
    ("game", "seats", "teams"),
    [
        ("high-voltage", 3, None),
        ("danger-13", 3, None),
        ("danger-danger", 4, ["pink", "yellow", "pink", "yellow"]),
    ],
)
async def test_three_people_play_part_of_every_other_game(new_page, service, game, seats, teams):
    pages = [await new_page() for _ in range(3)]
    game_id = await create(pages[0], game, seats)
    names = ["Ann", "Bob", "Cyd"]
    for n, page in enumerate(pages):
        await join(page, game_id, names[n], teams[n] if teams else None)
    if seats > 3:  # the fourth seat: a bot, added on the page
        await pages[0].reload()
        await pages[0].get_by_label("Bot's name").fill("Dot")
        if teams:
            await pages[0].locator("#bot-team").select_option(teams[3])
        await pages[0].get_by_role("button", name="Add a bot").click()
        await expect(pages[0].locator(".players li").nth(3)).to_contain_text("Dot")
    await pages[0].reload()
    await start(pages[0])

    made = await play(pages, moves=12)

    assert made == 12 or await status_of(pages[0]) in ("finished", "abandoned")
    for page in pages:  # each seat's own board, no one else's hidden cards
        seat = await page.evaluate(
            "id => JSON.parse(localStorage.getItem('danger-hall:tokens'))[id].seat", game_id
        )
        view = await api(service, f"/v1/games/{game_id}", seat)
        await until_seq(page, view["seq"])
        hand = view["view"]["state"].get("hand")
        if hand is not None:
            shown = page.locator('[aria-label="Your hand"] [data-card]')
            assert await shown.evaluate_all("cs => cs.map(c => Number(c.dataset.card))") == hand
        offered = await page.locator(".controls [data-command]").evaluate_all(
            "bs => bs.map(b => b.dataset.command)"
        )
        # Exactly the bodies `legal` gives, byte for byte as JSON.stringify writes them.
        legal = {json.dumps(c, separators=(",", ":"), ensure_ascii=False) for c in view["legal"]}
        assert set(offered) == legal, "every legal command is a control, and nothing else is"


async def finished_danger_game(service: str) -> str:
    """A Danger game of two seats played to its end through the API."""
    async with httpx.AsyncClient(base_url=service, timeout=30) as http:
        return (await played(http, "danger", seats=2)).id


async def test_the_replay_slider_shows_the_game_as_the_replay_endpoint_gives_it(new_page, service):
    game_id = await finished_danger_game(service)
    final = await api(service, f"/v1/games/{game_id}")
    page = await new_page()
    await page.goto(f"/games/{game_id}/replay#seq=20")
    slider = page.get_by_role("slider", name="Replay position")
    await expect(slider).to_have_value("20")
    assert await slider.get_attribute("max") == str(final["seq"])

    async def shows(seq: int) -> None:
        await expect(page.locator("[data-seq]")).to_have_attribute("data-seq", str(seq))
        assert page.url.endswith(f"#seq={seq}")
        replayed = await api(service, f"/v1/games/{game_id}/replay?seq={seq}")
        await expect(page.locator("[data-status]")).to_have_attribute(
            "data-status", replayed["status"]
        )
        state = replayed["view"]["state"]
        rows = (  # a game over shows its last round's rows
            [(r["seat"], r["colour"], r) for r in state["last_round"]["rows"]]
            if state["phase"] == "over"
            else [(b["seat"], c, r) for b in state["boards"] for c, r in b["rows"].items()]
        )
        for seat, colour, row in rows:
            shown = page.locator(f'[data-seat="{seat}"] tr[data-row="{colour}"]')
            cards = await shown.locator("[data-card]").evaluate_all(
                "cs => cs.map(c => c.dataset.card)"
            )
            assert cards == row["cards"], (seq, seat, colour)
        await expect(page.locator(".event-list [aria-current]")).to_have_attribute(
            "data-event-seq", str(seq)
        )

    await shows(20)
    await slider.focus()
    for _ in range(3):
        await page.keyboard.press("ArrowRight")
    await shows(23)
    await page.get_by_role("button", name="Previous event").click()
    await shows(22)
    middle = final["seq"] // 2
    await slider.fill(str(middle))
    await shows(middle)
    await page.get_by_role("button", name="Last event").click()
    await shows(final["seq"])
    await expect(page.locator(".rounds details").first).to_contain_text("round scored")
    # Every point's reason, as the round's scoring event gives it.
    scored = [
        e
        for e in (await api(service, f"/v1/games/{game_id}/events"))["events"]
        if e["type"] == "round_scored"
    ]
    reasons = {row["reason"] for row in scored[0]["data"]["rows"]}
    for reason in reasons:
        await expect(page.locator(".rounds details").first).to_contain_text(reason)
    # The address opens the position it names.
    other = await new_page()
    await other.goto(f"/games/{game_id}/replay#seq=5")
    await expect(other.locator("[data-seq]")).to_have_attribute("data-seq", "5")


async def test_the_audit_pages_show_ok_for_a_game_and_fail_at_the_tampered_event(
    new_page, service, tmp_path
):
    game_id = await finished_danger_game(service)
    page = await new_page()
    await page.goto(f"/games/{game_id}/audit")
    await expect(page.locator("[data-audit]")).to_have_attribute("data-audit", "ok")
    await expect(page.locator("li.pass")).to_have_count(5)

    export = (await api(service, f"/v1/games/{game_id}/export")).encode()
    lines = export.splitlines()
    event = json.loads(lines[11])  # event 12
    event["actor"] = "admin" if event["actor"] != "admin" else "anyone"
    lines[11] = json.dumps(event, separators=(",", ":")).encode()
    bad = tmp_path / "tampered.jsonl"
    bad.write_bytes(b"\n".join(lines) + b"\n")

    await page.goto("/audit")
    await page.get_by_label("Export file").set_input_files(str(bad))
    verdict = page.locator("[data-audit]")
    await expect(verdict).to_have_attribute("data-audit", "fail")
    await expect(verdict).to_have_attribute("data-audit-seq", "12")
    link = page.locator('[data-check="hash_chain"] a[data-bad-seq]')
    await link.click()
    await page.wait_for_url(f"**/games/{game_id}/replay#seq=12")
    await expect(page.locator("[data-seq]")).to_have_attribute("data-seq", "12")

    good = tmp_path / "good.jsonl"
    good.write_bytes(export)
    await page.goto("/audit")
    await page.get_by_label("Export file").set_input_files(str(good))
    await expect(page.locator("[data-audit]")).to_have_attribute("data-audit", "ok")


async def test_a_private_game_is_joined_through_its_invite_link(new_page):
    ann, bob, eve = [await new_page() for _ in range(3)]
    await ann.goto("/")
    await ann.get_by_label("Visibility").select_option("private")
    await ann.get_by_role("button", name="Create").click()
    await ann.wait_for_url(re.compile(r"/games/[A-Za-z0-9_-]+$"))
    game_id = ann.url.rsplit("/", 1)[1]
    invite = await ann.locator("[data-invite]").get_attribute("data-invite")
    link = await ann.locator("[data-invite]").text_content() or ""
    assert link.endswith(f"/games/{game_id}#invite={invite}")

    await eve.goto(f"/games/{game_id}")  # the id alone is not an invitation
    await eve.get_by_label("Name", exact=True).fill("Eve")
    await eve.get_by_role("button", name="Join", exact=True).click()
    await expect(eve.get_by_role("alert")).to_contain_text("There is no game")

    await bob.goto(link)
    await expect(bob).to_have_url(link.split("#")[0])  # the invite leaves the address bar
    await bob.get_by_label("Name", exact=True).fill("Bob")
    await bob.get_by_role("button", name="Join", exact=True).click()
    await expect(bob.locator(".who")).to_contain_text("You play seat 0, Bob")


async def game_of_player(service: str, token: str, finish: bool) -> str:
    """A Danger game of two seats, the first taken by the registered player whose token is
    `token`, played to its end through the API (each seat sending its first legal command)
    if `finish`, else left open."""
    async with httpx.AsyncClient(base_url=service, timeout=30) as http:
        created = (await http.post("/v1/games", json={"game": "danger", "seats": 2})).json()
        game_id = created["id"]
        seats = []
        for n, auth in enumerate(({"Authorization": f"Bearer {token}"}, {})):
            body = {"name": f"P{n}"}
            r = await http.post(f"/v1/games/{game_id}/players", json=body, headers=auth)
            assert r.is_success, r.text
            seats.append({"Authorization": f"Bearer {r.json()['token']}"})
        if not finish:
            return str(game_id)
        admin = {"Authorization": f"Bearer {created['admin_token']}"}
        assert (await http.post(f"/v1/games/{game_id}/start", headers=admin)).is_success
        for _ in range(5000):
            moved = False
            for seat in seats:
                game = (await http.get(f"/v1/games/{game_id}", headers=seat)).json()
                if game["status"] == "finished":
                    return str(game_id)
                if game["legal"]:
                    r = await http.post(
                        f"/v1/games/{game_id}/commands", json=game["legal"][0], headers=seat
                    )
                    assert r.is_success, r.text
                    moved = True
            assert moved, "while the game runs, some seat has a legal command"
    raise AssertionError("the game did not end")


async def test_a_players_page_lists_their_games_with_links_to_replay_and_audit(new_page, service):
    async with httpx.AsyncClient(base_url=service) as http:
        ann = (await http.post("/v1/players", json={"name": "Ann"})).json()
    finished = await game_of_player(service, ann["token"], finish=True)
    waiting = await game_of_player(service, ann["token"], finish=False)
    page = await new_page()
    # The seat's name on the game's page leads to the player's page.
    await page.goto(f"/games/{waiting}")
    await page.locator(f'a[data-player="{ann["id"]}"]').click()
    await page.wait_for_url(f"**/players/{ann['id']}")
    await expect(page.locator("h1")).to_contain_text("Ann")
    rows = page.locator(f'table[data-player-games="{ann["id"]}"] tr[data-game]')
    for _ in range(50):  # the projections file a game a moment after it changes
        if await rows.count() == 2:
            break
        await page.wait_for_timeout(200)
        await page.reload()
    assert await rows.evaluate_all("rs => rs.map(r => r.dataset.game)") == [waiting, finished]
    listed = await api(service, f"/v1/players/{ann['id']}/games")
    result = next(g["result"] for g in listed["games"] if g["id"] == finished)
    assert await rows.nth(1).get_attribute("data-result") == result in ("won", "lost")
    assert await rows.nth(0).get_attribute("data-result") == "playing"

    await page.get_by_label("Result").select_option("playing")
    await expect(rows).to_have_count(1)
    assert await rows.first.get_attribute("data-game") == waiting
    await page.get_by_label("Result").select_option("")
    await expect(rows).to_have_count(2)

    await page.get_by_role("link", name=f"Replay of {finished}").click()
    await page.wait_for_url(f"**/games/{finished}/replay")
    final = await api(service, f"/v1/games/{finished}")
    slider = page.get_by_role("slider", name="Replay position")
    assert await slider.get_attribute("max") == str(final["seq"])
    await page.go_back()
    await page.get_by_role("link", name=f"Audit of {finished}").click()
    await page.wait_for_url(f"**/games/{finished}/audit")
    await expect(page.locator("[data-audit]")).to_have_attribute("data-audit", "ok")


async def test_two_players_press_play_now_meet_at_one_table_and_the_leaderboard_ranks_them(
    new_page, service
):
    people = []
    for n, name in enumerate(["Una", "Vik"]):
        page = await new_page(address=f"198.51.100.{40 + n}")
        await page.goto("/")
        await page.get_by_label("Your name").fill(name)
        await page.get_by_role("button", name="Register").click()
        await expect(page.locator(".play-now")).to_contain_text(f"Playing as {name}")
        await page.get_by_label("Players").fill("2")
        people.append(page)
    una, vik = people
    await una.get_by_role("button", name="Play now").click()
    await expect(una.locator("[data-quick-play]")).to_have_attribute("data-quick-play", "waiting")
    await vik.get_by_role("button", name="Play now").click()
    for page in people:  # both are seated at one new table, each with their own seat
        await page.wait_for_url("**/games/*", timeout=40_000)
        await expect(page.locator("[data-status]").first).to_have_attribute("data-status", "active")
    assert una.url == vik.url
    game = una.url.rsplit("/", 1)[-1]
    seat_token = await vik.evaluate(
        f"JSON.parse(localStorage.getItem('danger-hall:tokens'))[{game!r}].seat"
    )
    async with httpx.AsyncClient(base_url=service) as http:
        state = (await http.get(f"/v1/games/{game}", headers=bearer(seat_token))).json()
        seat = state["view"]["you"]
        resigned = await http.post(
            f"/v1/games/{game}/players/{seat}/resign", headers=bearer(seat_token)
        )
        assert resigned.status_code == 200, resigned.text

    await una.goto("/leaderboards/danger")
    rows = una.locator("table[data-leaderboard='danger'] tr[data-player]")
    for _ in range(50):  # a rating moves a couple of seconds after its game ends
        if await rows.count() == 2:
            break
        await una.wait_for_timeout(300)
        await una.reload()
    assert await rows.count() == 2
    assert "Una" in await rows.nth(0).inner_text() and "Vik" in await rows.nth(1).inner_text()
    assert await rows.nth(0).get_attribute("aria-current") == "true"  # Una, the winner, is you
    assert await rows.nth(0).get_attribute("data-provisional") == "true"
    await expect(una.locator("[data-you]")).to_contain_text("You are 1 of 2")
    await una.get_by_role("link", name="Una").click()
    await una.wait_for_url("**/players/*")
    await expect(una.locator("[data-ratings] li[data-game='danger']")).to_contain_text("rank 1")
