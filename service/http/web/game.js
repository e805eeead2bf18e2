// /games/{id}: one game, live. The seat whose token this browser holds plays it; anyone else
// watches it as a spectator, seeing what the API shows a spectator and nothing more.

import { call, follow, tokens, Problem } from "./api.js";
import { board, describe } from "./boards.js";
import { h, clear, GAME_NAMES, relative } from "./dom.js";

const TEAMS = { "danger-danger": ["pink", "yellow"] };

export async function gamePage(main, id) {
  tokens.fromAddress(id);
  const status = h("strong", { "data-status": "" });
  const seq = h("span", { "data-seq": "" });
  const title = h("h1", {}, `Game ${id}`);
  const who = h("p", { class: "who" });
  const notice = h("div", { class: "notice", role: "alert", "aria-live": "assertive" });
  const table = h("div", { class: "table", "aria-live": "off" });
  const controls = h("section", { class: "controls", "aria-label": "Your commands" });
  const clocks = h("section", { class: "clocks", "aria-label": "Clocks" });
  const lobby = h("section", { class: "seating" });
  clear(
    main,
    h(
      "header",
      { class: "game-head" },
      title,
      h(
        "p",
        {},
        "Status ", status, " · event ", seq, " · ",
        h("a", { href: `/games/${id}/replay` }, "Replay"), " · ",
        h("a", { href: `/games/${id}/audit` }, "Audit"), " · ",
        h("a", { href: `/v1/games/${id}/export`, download: `${id}.jsonl` }, "Export"),
      ),
      who,
    ),
    notice,
    lobby,
    controls,
    clocks,
    table,
  );

  let current = null;
  let pending = null;

  const reader = () => tokens.of(id).seat;

  function say(text, kind = "error") {
    clear(notice, text ? h("p", { class: kind }, text) : null);
  }

  async function refresh() {
    let game;
    try {
      game = await call("GET", `/v1/games/${id}`, { token: reader() });
    } catch (error) {
      if (error instanceof Problem && (error.status === 401 || error.status === 403) && reader()) {
        tokens.drop(id, "seat"); // a token given up or replaced: watch instead
        return refresh();
      }
      throw error;
    }
    current = game;
    draw(game);
    return game;
  }

  function schedule() {
    if (pending) return;
    pending = setTimeout(async () => {
      pending = null;
      try {
        await refresh();
      } catch (error) {
        say(error.message);
      }
    }, 50);
  }

  function draw(game) {
    const view = game.view;
    // The control in focus is drawn anew: focus its successor, so a keyboard keeps its place.
    const focused = document.activeElement && document.activeElement.dataset && document.activeElement.dataset.command;
    document.title = `${GAME_NAMES[game.game] || game.game} ${id} · Danger Hall`;
    clear(title, `${GAME_NAMES[game.game] || game.game} `, h("span", { class: "muted" }, id));
    status.dataset.status = game.status;
    status.textContent = game.status;
    seq.dataset.seq = game.seq;
    seq.textContent = game.seq;
    const you = view.you;
    clear(
      who,
      you === null || you === undefined
        ? "You are watching as a spectator."
        : [`You play seat ${you}, ${view.players.find((p) => p.seat === you)?.name}. `,
           h("button", { type: "button", class: "link", onclick: () => { tokens.drop(id, "seat"); refresh(); } }, "Forget this seat here")],
    );
    drawSeating(game);
    drawControls(game);
    drawClocks(game);
    clear(table, board(view));
    if (focused) (controls.querySelector(`[data-command='${CSS.escape(focused)}']`) || controls.querySelector("button[data-command]"))?.focus();
  }

  function drawSeating(game) {
    const view = game.view;
    const players = h(
      "ul",
      { class: "players", "aria-label": "Seats" },
      Array.from({ length: view.seats }, (_, seat) => {
        const player = view.players.find((p) => p.seat === seat);
        // A registered player's name leads to their games (/players/{id}).
        const name = player && player.player ? h("a", { href: `/players/${player.player}`, "data-player": player.player }, player.name) : player && player.name;
        // Numbered as the API numbers seats (0 first), not as a list counts.
        return h("li", {}, h("span", { class: "muted" }, `Seat ${seat}: `), player ? [name, player.team ? ` (team ${player.team})` : "", player.bot ? ` · ${player.bot} bot` : ""] : h("span", { class: "muted" }, "empty"));
      }),
    );
    if (game.status !== "open") {
      clear(lobby, h("details", {}, h("summary", {}, "Players"), players));
      return;
    }
    const { admin, invite } = tokens.of(id);
    const teams = TEAMS[game.game] || (view.options && view.options.teams ? null : null);
    const name = h("input", { id: "join-name", name: "name", required: true, maxlength: 40, autocomplete: "nickname" });
    const team = teams ? h("select", { id: "join-team", name: "team" }, teams.map((t) => h("option", { value: t }, t))) : null;
    const join = h(
      "form",
      {
        class: "join",
        onsubmit: async (event) => {
          event.preventDefault();
          const body = { name: name.value };
          if (team) body.team = team.value;
          if (tokens.of(id).invite) body.invite = tokens.of(id).invite;
          try {
            const joined = await call("POST", `/v1/games/${id}/players`, { body });
            tokens.set(id, "seat", joined.token);
            say("");
            await refresh();
          } catch (error) {
            say(error.message);
          }
        },
      },
      h("label", { for: "join-name" }, "Name"), name,
      team ? [h("label", { for: "join-team" }, "Team"), team] : null,
      h("button", { type: "submit" }, "Join"),
    );
    const botName = h("input", { id: "bot-name", name: "bot-name", required: true, maxlength: 40, value: `Bot ${view.players.length + 1}` });
    const botKind = h("select", { id: "bot-kind" }, h("option", { value: "greedy" }, "greedy"), h("option", { value: "random" }, "random"));
    const botTeam = teams ? h("select", { id: "bot-team" }, teams.map((t) => h("option", { value: t }, t))) : null;
    const bot = h(
      "form",
      {
        class: "join bot",
        onsubmit: async (event) => {
          event.preventDefault();
          const body = { name: botName.value, bot: botKind.value };
          if (botTeam) body.team = botTeam.value;
          if (tokens.of(id).invite) body.invite = tokens.of(id).invite;
          try {
            await call("POST", `/v1/games/${id}/players`, { body });
            say("");
            await refresh();
          } catch (error) {
            say(error.message);
          }
        },
      },
      h("label", { for: "bot-name" }, "Bot's name"), botName,
      h("label", { for: "bot-kind" }, "Plays"), botKind,
      botTeam ? [h("label", { for: "bot-team" }, "Team"), botTeam] : null,
      h("button", { type: "submit" }, "Add a bot"),
    );
    const adminTools = admin
      ? h(
          "div",
          { class: "admin" },
          h("button", { type: "button", onclick: () => adminCall("start") }, "Start the game"),
          h("button", { type: "button", class: "danger", onclick: () => adminCall("abandon") }, "Abandon the game"),
          h("details", {}, h("summary", {}, "Your admin link"), h("p", {}, "Keep it to start this game from another browser: "), h("code", {}, `${location.origin}/games/${id}#token=${admin}`)),
          invite ? h("p", { class: "invite" }, "A private game: share this link to invite players: ", h("code", { "data-invite": invite }, `${location.origin}/games/${id}#invite=${invite}`)) : null,
        )
      : null;
    clear(
      lobby,
      h("h2", {}, "Seats"),
      players,
      view.you === null || view.you === undefined ? join : null,
      bot,
      adminTools,
    );
  }

  async function adminCall(what) {
    try {
      await call("POST", `/v1/games/${id}/${what}`, { token: tokens.of(id).admin });
      say("");
      await refresh();
    } catch (error) {
      say(error.message);
    }
  }

  async function send(body) {
    try {
      await call("POST", `/v1/games/${id}/commands`, { body, token: reader() });
      say("");
    } catch (error) {
      say(error.status === 409 ? `Not allowed: ${error.message}` : error.message);
    }
    schedule();
  }

  function commandButton(command, view) {
    const body = JSON.stringify(command);
    return h("button", { type: "button", class: "command", "data-command": body, onclick: () => send(body) }, describe(command, view));
  }

  function drawControls(game) {
    const legal = game.legal || [];
    if (!legal.length) {
      clear(controls, game.view.you !== null && game.view.you !== undefined && game.status === "active" ? h("p", { class: "muted" }, "Nothing to do now: wait for the others.") : null);
      return;
    }
    const picks = legal.filter((c) => c.type === "pick");
    const rest = legal.filter((c) => c.type !== "pick");
    clear(
      controls,
      h("h2", {}, "Your move"),
      picks.length ? pickForm(picks, game.view) : null,
      h("div", { class: "commands" }, rest.map((c) => commandButton(c, game.view))),
    );
  }

  // A High Voltage draft has one legal pick per choice of three cards: choose them with
  // checkboxes; every pick is still a control of its own in the list below the form.
  function pickForm(picks, view) {
    const from = [...new Set(picks.flatMap((p) => p.cards))].sort((a, b) => a - b);
    const size = picks[0].cards.length;
    const keep = h("button", { type: "submit", class: "command", disabled: true }, `Keep ${size} cards`);
    const boxes = from.map((c) => h("input", { type: "checkbox", id: `pick-${c}`, value: c }));
    const chosen = () => boxes.filter((b) => b.checked).map((b) => Number(b.value)).sort((a, b) => a - b);
    const match = () => picks.find((p) => JSON.stringify([...p.cards].sort((a, b) => a - b)) === JSON.stringify(chosen()));
    const update = () => {
      const found = match();
      keep.disabled = !found;
      if (found) keep.dataset.command = JSON.stringify(found);
      else delete keep.dataset.command;
    };
    boxes.forEach((b) => b.addEventListener("change", update));
    return h(
      "form",
      { class: "pick", onsubmit: (e) => { e.preventDefault(); const found = match(); if (found) send(JSON.stringify(found)); } },
      h("fieldset", {}, h("legend", {}, `Choose ${size} cards to keep`), boxes.map((b, i) => h("label", { for: b.id, class: "pick-card" }, b, ` ${from[i]}`))),
      keep,
      h("details", {}, h("summary", {}, `Every choice (${picks.length})`), h("div", { class: "commands" }, picks.map((c) => commandButton(c, view)))),
    );
  }

  function drawClocks(game) {
    const list = game.clocks || [];
    clear(
      clocks,
      list.length ? h("h2", {}, "Clocks") : null,
      list.length ? h("ul", {}, list.map((c) => h("li", {}, `${c.timer.replaceAll("_", " ")}: `, h("time", { datetime: c.deadline, "data-deadline": c.deadline }, relative(c.deadline))))) : null,
    );
  }

  // A seat's link opened on this page (`#token=`): take the token and read the game as it.
  window.addEventListener("hashchange", () => {
    const address = new URLSearchParams(location.hash.slice(1));
    if (address.get("token") || address.get("invite")) {
      tokens.fromAddress(id);
      schedule();
    }
  });

  setInterval(() => {
    for (const clock of clocks.querySelectorAll("[data-deadline]")) clock.textContent = relative(clock.dataset.deadline);
  }, 1000);

  try {
    await refresh();
  } catch (error) {
    clear(main, h("h1", {}, "No such game"), h("p", { role: "alert" }, error.message), h("p", {}, h("a", { href: "/" }, "Back to the lobby")));
    return;
  }

  // Live: each event the stream brings makes the page read the game again, as the seat or
  // the spectator reads it (the events only say when); the stream ends after the game's
  // last event, and is followed again after a break.
  (async () => {
    let after = current.seq;
    for (;;) {
      let ended = false;
      try {
        await follow(`/v1/games/${id}/stream?after=${after}`, null, (message) => {
          after = Number(message.id) || after;
          if (message.event === "seed_revealed") ended = true;
          schedule();
        });
      } catch (error) {
        if (error instanceof Problem && error.status === 404) return;
      }
      if (ended || ["finished", "abandoned"].includes(current.status)) {
        schedule();
        return;
      }
      await new Promise((resolve) => setTimeout(resolve, 2000));
    }
  })();
}
