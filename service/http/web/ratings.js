// Ratings and quick play: /leaderboards/{game} (GET /v1/leaderboards/{game}, paged by its
// cursor), and the lobby's "Play now" for the registered player this browser plays as
// (POST /v1/quick-play, then its long poll until a seat is found, whose token is kept like
// any seat's and whose game page opens).

import { call, tokens } from "./api.js";
import { h, clear, GAME_NAMES } from "./dom.js";

// The registered player this browser plays as: {id, name, token}, kept in localStorage.
const PLAYER_KEY = "danger-hall:player";

export const me = {
  get() {
    try {
      return JSON.parse(localStorage.getItem(PLAYER_KEY) || "null");
    } catch {
      return null;
    }
  },
  set(player) {
    localStorage.setItem(PLAYER_KEY, JSON.stringify(player));
  },
  forget() {
    localStorage.removeItem(PLAYER_KEY);
  },
};

function ratingText(rating) {
  return `${Math.round(rating.rating)} ± ${Math.round(2 * rating.deviation)}`;
}

function boardRow(row, mine) {
  return h(
    "tr",
    { "data-player": row.player, "data-provisional": row.provisional ? "true" : "false", "aria-current": mine ? "true" : null },
    h("td", {}, row.rank),
    h("td", {}, h("a", { href: `/players/${row.player}` }, row.name || row.player), mine ? h("span", { class: "muted" }, " (you)") : null),
    h("td", {}, ratingText(row), row.provisional ? h("abbr", { title: "provisional: too few games to say much yet", class: "provisional" }, " ?") : null),
    h("td", {}, row.games),
  );
}

export async function leaderboardPage(main, game) {
  game = game || "danger";
  if (!GAME_NAMES[game]) throw new Error(`There is no game ${game}.`);
  document.title = `${GAME_NAMES[game]} leaderboard · Danger Hall`;
  const player = me.get();
  const kind = h("select", { id: "board-kind" }, Object.entries(GAME_NAMES).map(([value, label]) => h("option", { value, selected: value === game }, label)));
  kind.addEventListener("change", () => location.assign(`/leaderboards/${kind.value}`));
  const body = h("tbody");
  const total = h("p", { class: "muted", role: "status" });
  const you = h("p", { "data-you": "" });
  const more = h("button", { type: "button", hidden: true }, "More");
  let cursor = null;

  async function load() {
    const q = new URLSearchParams({ limit: 20 });
    if (cursor) q.set("cursor", cursor);
    if (player) q.set("player", player.id);
    const page = await call("GET", `/v1/leaderboards/${game}?${q}`);
    body.append(...page.players.map((row) => boardRow(row, player && row.player === player.id)));
    if (!body.children.length) body.append(h("tr", {}, h("td", { colspan: 4, class: "muted" }, "Nobody is rated in this game yet.")));
    total.textContent = `${page.total} rated player${page.total === 1 ? "" : "s"}`;
    total.dataset.total = page.total;
    if (page.you) clear(you, `You are ${page.you.rank} of ${page.total}: ${ratingText(page.you)}${page.you.provisional ? " (provisional)" : ""}.`);
    cursor = page.next;
    more.hidden = !cursor;
  }
  more.addEventListener("click", () => load().catch(() => {}));
  clear(
    main,
    h("h1", {}, "Leaderboard"),
    h("div", { class: "field" }, h("label", { for: "board-kind" }, "Game"), kind),
    total,
    you,
    h(
      "div",
      { class: "scroll" },
      h(
        "table",
        { "data-leaderboard": game },
        h("caption", { class: "visually-hidden" }, `${GAME_NAMES[game]}: rated players, highest first`),
        h("thead", {}, h("tr", {}, ["Rank", "Player", "Rating", "Games"].map((c) => h("th", { scope: "col" }, c)))),
        body,
      ),
    ),
    more,
    h("p", { class: "muted" }, "Glicko-2 ratings: the number ± twice the deviation. A rating moves a few seconds after a rated game ends."),
  );
  await load();
}

// The lobby's panel: register (once per browser), then "Play now".
export function playNow() {
  const panel = h("section", { class: "play-now", "aria-labelledby": "play-now-title" });
  const message = h("p", { role: "status", "data-quick-play": "" });

  function registerForm() {
    const name = h("input", { id: "player-name", name: "name", required: true, maxlength: 40, autocomplete: "nickname" });
    return h(
      "form",
      {
        onsubmit: async (event) => {
          event.preventDefault();
          try {
            const made = await call("POST", "/v1/players", { body: { name: name.value } });
            me.set({ id: made.id, name: made.name, token: made.token });
            draw();
          } catch (error) {
            message.textContent = error.message;
          }
        },
      },
      h("p", { class: "muted" }, "Register to be rated and seated with other players."),
      h("div", { class: "field" }, h("label", { for: "player-name" }, "Your name"), name),
      h("button", { type: "submit" }, "Register"),
    );
  }

  function playForm(player) {
    const kind = h("select", { id: "play-kind" }, Object.entries(GAME_NAMES).map(([value, label]) => h("option", { value }, label)));
    const seats = h("input", { id: "play-seats", type: "number", min: 2, max: 8, step: 1, value: 2, required: true });
    const cancel = h("button", { type: "button", hidden: true }, "Stop waiting");
    let waiting = null;
    cancel.addEventListener("click", async () => {
      if (!waiting) return;
      await call("DELETE", `/v1/quick-play/${waiting}`, { token: player.token }).catch(() => {});
      waiting = null;
      cancel.hidden = true;
      message.dataset.quickPlay = "cancelled";
      message.textContent = "Stopped waiting.";
    });
    return h(
      "form",
      {
        onsubmit: async (event) => {
          event.preventDefault();
          try {
            let asked = await call("POST", "/v1/quick-play", { token: player.token, body: { game: kind.value, seats: parseInt(seats.value, 10) } });
            waiting = asked.id;
            cancel.hidden = false;
            message.dataset.quickPlay = asked.status;
            message.textContent = "Waiting for players…";
            while (asked.status === "waiting" || asked.status === "seating") {
              asked = await call("GET", `/v1/quick-play/${asked.id}?wait=30`, { token: player.token });
              if (!waiting) return;
            }
            message.dataset.quickPlay = asked.status;
            if (asked.status !== "seated") {
              message.textContent = asked.status === "expired" ? "Nobody came in time: try again." : `The request is ${asked.status}.`;
              cancel.hidden = true;
              return;
            }
            tokens.set(asked.seated.game, "seat", asked.seated.token);
            location.assign(`/games/${asked.seated.game}`);
          } catch (error) {
            message.textContent = error.message;
          }
        },
      },
      h("p", {}, "Playing as ", h("a", { href: `/players/${player.id}` }, player.name), ". ", h("button", { type: "button", class: "link", onclick: () => { me.forget(); draw(); } }, "Not you?")),
      h("div", { class: "field" }, h("label", { for: "play-kind" }, "Game"), kind),
      h("div", { class: "field" }, h("label", { for: "play-seats" }, "Players"), seats),
      h("button", { type: "submit" }, "Play now"),
      cancel,
    );
  }

  function draw() {
    const player = me.get();
    clear(panel, h("h2", { id: "play-now-title" }, "Play now"), player ? playForm(player) : registerForm(), message);
  }
  draw();
  return panel;
}

// A player's ratings, for their page.
export function ratingsList(ratings) {
  const rows = Object.entries(ratings || {});
  if (!rows.length) return null;
  return h(
    "ul",
    { "data-ratings": "" },
    rows.map(([game, r]) => h("li", { "data-game": game }, `${GAME_NAMES[game] || game}: `, h("a", { href: `/leaderboards/${game}` }, `${ratingText(r)}, rank ${r.rank}`), `, ${r.games} rated game${r.games === 1 ? "" : "s"}`, r.provisional ? " (provisional)" : "")),
  );
}
