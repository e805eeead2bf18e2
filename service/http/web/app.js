// The web client's router: every page is this one document; the address names the page
// (docs/web.md keeps the addresses stable).

import { fileAuditPage, gameAuditPage } from "./audit.js";
import { h, clear } from "./dom.js";
import { gamePage } from "./game.js";
import { lobbyPage } from "./lobby.js";
import { playerPage } from "./players.js";
import { leaderboardPage } from "./ratings.js";
import { replayPage } from "./replay.js";

const ROUTES = [
  [/^\/$/, (main) => lobbyPage(main)],
  [/^\/audit\/?$/, (main) => fileAuditPage(main)],
  [/^\/games\/([^/]+)\/replay\/?$/, (main, id) => replayPage(main, id)],
  [/^\/games\/([^/]+)\/audit\/?$/, (main, id) => gameAuditPage(main, id)],
  [/^\/games\/([^/]+)\/?$/, (main, id) => gamePage(main, id)],
  [/^\/players\/([^/]+)\/?$/, (main, id) => playerPage(main, id)],
  [/^\/leaderboards\/?$/, (main) => leaderboardPage(main, null)],
  [/^\/leaderboards\/([^/]+)\/?$/, (main, game) => leaderboardPage(main, game)],
];

async function start() {
  const main = document.getElementById("main");
  for (const link of document.querySelectorAll("header nav a")) {
    if (link.getAttribute("href") === location.pathname || (link.dataset.section && location.pathname.startsWith(link.dataset.section))) link.setAttribute("aria-current", "page");
  }
  for (const [pattern, page] of ROUTES) {
    const found = location.pathname.match(pattern);
    if (found) {
      try {
        await page(main, ...found.slice(1).map(decodeURIComponent));
      } catch (error) {
        clear(main, h("h1", {}, "Something went wrong"), h("p", { role: "alert" }, error.message));
      }
      document.body.dataset.ready = "true";
      return;
    }
  }
  clear(main, h("h1", {}, "No such page"), h("p", {}, h("a", { href: "/" }, "Back to the lobby")));
}

start();
