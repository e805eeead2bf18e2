// /games/{id}/replay#seq=N: the game as it stood after event N, under a slider over its
// events, with the event list beside the board and each round's scoring with its reasons.
// The address follows the slider, so each position can be shared.

import { call, tokens } from "./api.js";
import { board } from "./boards.js";
import { h, clear, GAME_NAMES, plain, words } from "./dom.js";
import { icon } from "./icons.js";

async function allEvents(id, token) {
  const events = [];
  let after = 0;
  for (;;) {
    const page = await call("GET", `/v1/games/${id}/events?after=${after}&limit=5000`, { token });
    events.push(...page.events);
    if (!page.events.length || events[events.length - 1].seq >= page.last_seq) return events;
    after = events[events.length - 1].seq;
  }
}

function seqInAddress() {
  const n = Number(new URLSearchParams(location.hash.slice(1)).get("seq"));
  return Number.isInteger(n) && n > 0 ? n : null;
}

export async function replayPage(main, id) {
  tokens.fromAddress(id);
  const token = tokens.of(id).seat;
  let events;
  try {
    events = await allEvents(id, token);
  } catch (error) {
    clear(main, h("h1", {}, "No such game"), h("p", { role: "alert" }, error.message), h("p", {}, h("a", { href: "/" }, "Back to the lobby")));
    return;
  }
  const last = events.length ? events[events.length - 1].seq : 1;
  const kind = events[0] && events[0].data && events[0].data.game;
  document.title = `Replay of ${id} · Danger Hall`;

  const slider = h("input", { type: "range", id: "replay-slider", min: 1, max: last, step: 1, value: last, "aria-label": "Replay position" });
  const shown = h("output", { for: "replay-slider", "data-seq": "" });
  const status = h("strong", { "data-status": "" });
  const place = h("div", { class: "table" });
  const list = h("ol", { class: "events", "aria-label": "Events" });
  const step = (delta) => go(Number(slider.value) + delta);
  const button = (label, text, action) => h("button", { type: "button", "aria-label": label, title: label, onclick: action }, text);

  for (const event of events) {
    list.append(
      h(
        "li",
        { "data-event-seq": event.seq, value: event.seq },
        h("a", { href: `#seq=${event.seq}`, onclick: (e) => { e.preventDefault(); go(event.seq); } }, words(event.type)),
        event.actor && event.actor !== "anyone" ? h("span", { class: "muted" }, ` · ${event.actor}`) : null,
      ),
    );
  }

  const rounds = events.filter((e) => e.type === "round_scored" || e.type === "game_ended" || e.type === "game_abandoned");
  clear(
    main,
    h(
      "header",
      { class: "game-head" },
      h("h1", {}, `Replay: ${GAME_NAMES[kind] || kind || "game"} `, h("span", { class: "muted" }, id)),
      h("p", {}, "Status ", status, " after event ", shown, " of ", last, " · ", h("a", { href: `/games/${id}` }, "Live game"), " · ", h("a", { href: `/games/${id}/audit` }, "Audit")),
    ),
    h(
      "div",
      { class: "replay-bar" },
      button("First event", icon("first"), () => go(1)),
      button("Previous event", icon("previous"), () => step(-1)),
      slider,
      button("Next event", icon("next"), () => step(1)),
      button("Last event", icon("last"), () => go(last)),
    ),
    h("p", { class: "muted hint" }, "Arrow keys step through the events; the address names the position."),
    h("div", { class: "replay" }, place, h("aside", { class: "event-list" }, h("h2", {}, "Events"), list)),
    h(
      "section",
      { class: "rounds" },
      h("h2", {}, "Scoring"),
      rounds.length
        ? rounds.map((e, i) => h("details", { open: i === rounds.length - 1 }, h("summary", {}, h("a", { href: `#seq=${e.seq}`, onclick: (ev) => { ev.preventDefault(); go(e.seq); } }, `${words(e.type)}${e.data.round ? ` (round ${e.data.round})` : ""}, event ${e.seq}`)), plain(e.data)))
        : h("p", { class: "muted" }, "No round scored yet."),
    ),
  );

  let asked = 0;
  let timer = null;
  async function show(seq) {
    const mine = ++asked;
    try {
      const replayed = await call("GET", `/v1/games/${id}/replay?seq=${seq}`, { token });
      if (mine !== asked) return; // a later position was asked for meanwhile
      status.dataset.status = replayed.status;
      status.textContent = replayed.status;
      shown.dataset.seq = replayed.seq;
      shown.textContent = replayed.seq;
      clear(place, board(replayed.view));
    } catch (error) {
      if (mine === asked) clear(place, h("p", { role: "alert" }, error.message));
    }
  }

  function go(seq) {
    seq = Math.min(last, Math.max(1, seq));
    slider.value = seq;
    history.replaceState(null, "", `#seq=${seq}`);
    for (const item of list.querySelectorAll("[aria-current]")) item.removeAttribute("aria-current");
    const item = list.querySelector(`[data-event-seq="${seq}"]`);
    if (item) {
      item.setAttribute("aria-current", "step");
      item.scrollIntoView({ block: "nearest" });
    }
    clearTimeout(timer);
    timer = setTimeout(() => show(seq), 60); // a dragged slider asks once it rests
  }

  slider.addEventListener("input", () => go(Number(slider.value)));
  window.addEventListener("hashchange", () => {
    const n = seqInAddress();
    if (n && n !== Number(slider.value)) go(n);
  });
  document.addEventListener("keydown", (event) => {
    if (event.target instanceof HTMLInputElement || event.target instanceof HTMLTextAreaElement || event.target instanceof HTMLSelectElement) return;
    if (event.key === "ArrowLeft") { event.preventDefault(); step(-1); }
    if (event.key === "ArrowRight") { event.preventDefault(); step(1); }
    if (event.key === "Home") { event.preventDefault(); go(1); }
    if (event.key === "End") { event.preventDefault(); go(last); }
  });
  go(seqInAddress() || last);
}
