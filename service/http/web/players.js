// /players/{id}: a registered player's record and games, newest first (GET /v1/players/{id}
// and /v1/players/{id}/games), filtered by kind and result, paged by the list's cursor; each
// game links to its page, its replay and its audit. A private game is listed to its player's
// own app alone (with the player's token), so this page shows the public ones.

import { call } from "./api.js";
import { h, clear, GAME_NAMES } from "./dom.js";
import { ratingsList } from "./ratings.js";

const RESULTS = { playing: "playing", won: "won", lost: "lost", abandoned: "abandoned" };

function when(at) {
  return at ? at.replace("T", " ").slice(0, 16) : "";
}

function row(game) {
  const kind = GAME_NAMES[game.game] || game.game;
  const outcome = game.result === "playing" ? `playing (${game.status})` : game.result;
  return h(
    "tr",
    { "data-game": game.id, "data-result": game.result },
    h(
      "td",
      {},
      h("a", { href: `/games/${game.id}` }, game.id),
      h("br"),
      h("span", { class: "muted" }, kind),
      h(
        "span",
        { class: "links" },
        h("a", { href: `/games/${game.id}/replay`, "data-link": "replay", "aria-label": `Replay of ${game.id}` }, "Replay"),
        " · ",
        h("a", { href: `/games/${game.id}/audit`, "data-link": "audit", "aria-label": `Audit of ${game.id}` }, "Audit"),
      ),
    ),
    h("td", {}, `seat ${game.seat} (${game.seats} seats)`),
    h("td", {}, outcome, game.score !== null ? h("span", { class: "muted" }, ` · ${game.score}`) : null),
    h("td", {}, h("time", { datetime: game.created_at }, when(game.created_at))),
  );
}

export async function playerPage(main, id) {
  const path = `/v1/players/${encodeURIComponent(id)}`;
  const player = await call("GET", path);
  document.title = `${player.name} · Danger Hall`;
  const kind = h("select", { id: "player-kind" }, h("option", { value: "" }, "every game"), Object.entries(GAME_NAMES).map(([value, label]) => h("option", { value }, label)));
  const result = h("select", { id: "player-result" }, h("option", { value: "" }, "any result"), Object.entries(RESULTS).map(([value, label]) => h("option", { value }, label)));
  const body = h("tbody");
  const total = h("p", { class: "muted", role: "status" });
  const more = h("button", { type: "button", hidden: true }, "More");
  const exported = h("a", { download: `${id}-games.ndjson` }, "Export as JSON Lines");
  let cursor = null;

  function query(extra) {
    const q = new URLSearchParams(extra);
    if (kind.value) q.set("game", kind.value);
    if (result.value) q.set("result", result.value);
    return q;
  }

  async function load() {
    const q = query({ limit: 20 });
    if (cursor) q.set("cursor", cursor);
    const page = await call("GET", `${path}/games?${q}`);
    body.append(...page.games.map(row));
    if (!body.children.length) body.append(h("tr", {}, h("td", { colspan: 4, class: "muted" }, "No games.")));
    total.textContent = `${page.total} game${page.total === 1 ? "" : "s"}`;
    total.dataset.total = page.total;
    cursor = page.next;
    more.hidden = !cursor;
  }

  async function reload() {
    clear(body);
    cursor = null;
    exported.href = `${path}/games/export?${query({ max: 10000 })}`;
    await load();
  }

  kind.addEventListener("change", () => reload().catch(() => {}));
  result.addEventListener("change", () => reload().catch(() => {}));
  more.addEventListener("click", () => load().catch(() => {}));
  const record = Object.entries(player.by_game).map(([game, s]) => h("li", {}, `${GAME_NAMES[game] || game}: ${s.games} finished, ${s.wins} won, ${s.average_score} on average`));
  clear(
    main,
    h("h1", {}, player.name, " ", h("span", { class: "muted" }, id)),
    h(
      "section",
      { class: "record", "aria-labelledby": "record-title", "data-player": id },
      h("h2", { id: "record-title" }, "Record"),
      h("p", {}, `${player.games} finished game${player.games === 1 ? "" : "s"}, ${player.wins} won.`),
      record.length ? h("ul", {}, record) : null,
      ratingsList(player.ratings),
    ),
    h(
      "section",
      { class: "listing", "aria-labelledby": "games-title" },
      h("h2", { id: "games-title" }, "Games"),
      h("div", { class: "filters" },
        h("div", { class: "field" }, h("label", { for: "player-kind" }, "Game"), kind),
        h("div", { class: "field" }, h("label", { for: "player-result" }, "Result"), result),
      ),
      total,
      h(
        "div",
        { class: "scroll" },
        h(
          "table",
          { "data-player-games": id },
          h("caption", { class: "visually-hidden" }, `${player.name}'s games, newest first`),
          h("thead", {}, h("tr", {}, ["Game", "Seat", "Result", "Created (UTC)"].map((c) => h("th", { scope: "col" }, c)))),
          body,
        ),
      ),
      more,
      h("p", {}, exported),
    ),
  );
  await reload();
}
