// The four games drawn as card tables, from a view as the API gives it (GET /v1/games/{id}
// or /replay): nothing here knows more than the view shows its reader.

import { h, plain, words } from "./dom.js";

const DANGER_COLOURS = { R: "red", B: "blue", G: "green", Y: "yellow" };
const HV_COLOURS = { 1: "ten", 2: "twenty", 3: "thirty", 4: "forty", 5: "fifty" };

function seatName(view, seat) {
  const player = (view.players || []).find((p) => p.seat === seat);
  const name = player ? player.name : `Seat ${seat + 1}`;
  return view.you === seat ? `${name} (you)` : name;
}

function card(text, colour, label) {
  return h("span", { class: `card ${colour || ""}`, role: "img", "aria-label": label || String(text), "data-card": text }, String(text));
}

function cards(list, make) {
  if (!list || !list.length) return h("span", { class: "muted" }, "none");
  return h("span", { class: "cards" }, list.map(make));
}

function seatPanel(view, seat, { turn, extra } = {}, ...children) {
  return h(
    "section",
    {
      class: `seat${turn ? " turn" : ""}${view.you === seat ? " you" : ""}`,
      "aria-label": seatName(view, seat),
      "data-seat": seat,
    },
    h("h3", {}, seatName(view, seat), turn ? h("span", { class: "badge" }, "to play") : null, extra || null),
    children,
  );
}

function facts(entries) {
  return h(
    "dl",
    { class: "facts" },
    entries.filter(Boolean).map(([k, v]) => [h("dt", {}, k), h("dd", {}, v)]),
  );
}

function totals(view, values, label = "Totals") {
  if (!values) return null;
  return h(
    "table",
    { class: "totals" },
    h("caption", {}, label),
    h("tbody", {}, values.map((v, seat) => h("tr", {}, h("th", { scope: "row" }, seatName(view, seat)), h("td", {}, v)))),
  );
}

function winners(view, list) {
  if (!list) return null;
  return h("p", { class: "winners", role: "status" }, "Won by ", list.map((s) => seatName(view, s)).join(" and "));
}

// Danger: four colour rows per seat, each with its cards, sum and protection.
function dangerCard(text) {
  const colour = DANGER_COLOURS[String(text)[0]];
  return card(text, colour, colour ? `${colour} ${String(text).slice(1)}` : text);
}

function danger(view, s) {
  const table = h(
    "div",
    { class: "middle" },
    facts([
      ["Round", `${s.round} of ${s.rounds}`],
      ["Stack", `${s.stack_size} cards`],
      ["Discard", s.discard.top ? [dangerCard(s.discard.top), ` (${s.discard.count})`] : `${s.discard.count} cards`],
      s.drawn ? ["Drawn", dangerCard(s.drawn)] : null,
      ["Phase", words(s.phase)],
    ]),
  );
  const boards = s.boards.map((board) =>
    seatPanel(
      view,
      board.seat,
      { turn: view.status === "active" && s.turn === board.seat },
      h(
        "table",
        { class: "rows" },
        h("caption", { class: "visually-hidden" }, `Rows of ${seatName(view, board.seat)}`),
        h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "Row"), h("th", { scope: "col" }, "Cards"), h("th", { scope: "col" }, "Sum"))),
        h(
          "tbody",
          {},
          Object.entries(board.rows).map(([colour, row]) =>
            h(
              "tr",
              { class: `row ${colour}`, "data-row": colour },
              h("th", { scope: "row" }, colour, row.protected ? h("span", { class: "badge", title: "protected" }, "protected") : null, row.closed ? h("span", { class: "badge", title: "closed" }, "closed") : null),
              h("td", {}, cards(row.cards, dangerCard)),
              h("td", { class: "sum" }, row.sum),
            ),
          ),
        ),
      ),
      h("p", { class: "muted" }, `${board.cards_in_front} cards in front`),
    ),
  );
  return [table, h("div", { class: "seats" }, boards), totals(view, s.totals), winners(view, s.winners)];
}

// High Voltage: the hand, the trick in play, and each seat's won cards by zone.
function hvCard(value) {
  const colour = HV_COLOURS[Math.floor(value / 10)];
  return card(value, `hv ${colour}`, `${value}`);
}

function highVoltage(view, s) {
  const middle = h(
    "div",
    { class: "middle" },
    facts([
      ["Round", `${s.round} of ${s.rounds}`],
      ["Phase", s.phase === "draft" ? `draft, stage ${s.stage}` : words(s.phase)],
      s.phase === "tricks" ? ["Trick", s.trick] : null,
    ]),
    h("div", { class: "trick", "aria-label": "Current trick" }, h("h3", {}, "Trick"), s.plays.length ? s.plays.map((p) => h("span", { class: "play" }, seatName(view, p.seat), ": ", hvCard(p.card))) : h("span", { class: "muted" }, "no card yet")),
    s.hand ? h("div", { class: "hand", "aria-label": "Your hand" }, h("h3", {}, "Your hand"), cards(s.hand, hvCard)) : null,
    s.choose_from && s.choose_from.length ? h("div", { class: "hand" }, h("h3", {}, "To choose from"), cards(s.choose_from, hvCard)) : null,
  );
  const seats = s.hand_sizes.map((size, seat) =>
    seatPanel(
      view,
      seat,
      { turn: view.status === "active" && s.turn === seat },
      facts([
        ["In hand", size],
        s.phase === "draft" ? ["Picked", s.picked[seat] ? "yes" : "not yet"] : null,
        ["This round", `${s.round_points[seat]} points`],
      ]),
      h(
        "div",
        { class: "zones" },
        (s.zones[seat] || []).length
          ? s.zones[seat].map((zone) => h("div", { class: "zone" }, plain(zone)))
          : h("span", { class: "muted" }, "no cards won"),
      ),
      s.won[seat] && s.won[seat].length ? h("p", {}, "Won: ", cards(s.won[seat], hvCard)) : null,
    ),
  );
  return [middle, h("div", { class: "seats" }, seats), totals(view, s.totals), s.team_totals ? totals(view, s.team_totals, "Team totals") : null, winners(view, s.winners)];
}

// Danger 13: the dealer's revealed card, and each seat's row with its sum and limit.
function d13Card(text) {
  const kind = String(text).startsWith("++") ? "plus2" : String(text).startsWith("+") ? "plus1" : /^draw/.test(text) ? "draw" : /^[0-9]/.test(text) ? "number" : "special";
  return card(text, `d13 ${kind}`, words(text));
}

function danger13(view, s) {
  const middle = h(
    "div",
    { class: "middle" },
    facts([
      ["Round", s.round],
      ["Dealer", seatName(view, s.dealer)],
      ["Revealed", s.revealed ? d13Card(s.revealed) : "none"],
      ["Packet", `${s.packet_size} cards`],
      ["Pile", `${s.pile_size} cards`],
      ["Discard", `${s.discard_size} cards`],
      ["Phase", words(s.phase)],
      s.pending ? ["Decision", [seatName(view, s.pending.seat), ": ", d13Card(s.pending.card)]] : null,
    ]),
  );
  const seats = s.rows.map((row, seat) =>
    seatPanel(
      view,
      seat,
      { turn: view.status === "active" && s.dealer === seat, extra: s.received[seat] ? h("span", { class: "badge" }, "has a card") : null },
      h("p", {}, cards(row, d13Card)),
      facts([
        ["Sum", `${s.sums[seat]} of ${s.limits[seat]}`],
        ["Won", `${s.won_counts[seat]} cards`],
      ]),
    ),
  );
  return [middle, h("div", { class: "seats" }, seats), s.won && s.won.length ? h("p", {}, "Your won cards: ", cards(s.won, d13Card)) : null, winners(view, s.winners)];
}

// Danger Danger: the six stacks, each team's relay, held card and Swap Card.
function ddCard(text) {
  if (!text) return h("span", { class: "muted" }, "none");
  const colour = String(text)[0] === "P" ? "pink" : "yellowteam";
  return card(text, `dd ${colour}`, words(text));
}

function dangerDanger(view, s) {
  const stacks = h(
    "ol",
    { class: "stacks", "aria-label": "Stacks" },
    s.stacks.map((stack, i) => h("li", { "data-stack": i }, h("span", { class: "muted" }, `Stack ${i + 1}: `), stack.length ? ddCard(stack[stack.length - 1]) : h("span", { class: "muted" }, "empty"), stack.length > 1 ? h("span", { class: "muted" }, ` (${stack.length})`) : null)),
  );
  const teams = Object.entries(s.teams).map(([name, team]) =>
    h(
      "section",
      { class: `team ${name}${s.your_team === name ? " you" : ""}`, "aria-label": `Team ${name}` },
      h("h3", {}, `Team ${name}`, s.your_team === name ? h("span", { class: "badge" }, "yours") : null, team.out ? h("span", { class: "badge" }, "out") : null),
      facts([
        ["Seats", team.seats.map((seat) => seatName(view, seat)).join(", ")],
        ["Next to draw", seatName(view, team.next_to_draw)],
        ["Held card", team.holder === null ? "none" : [seatName(view, team.holder), ": ", team.holding ? ddCard(team.holding) : "a card"]],
        ["Swap Card", ddCard(team.swap)],
        ["Pile", `${team.pile_size} cards`],
        ["Hands flat", team.declared.length ? team.declared.map((seat) => seatName(view, seat)).join(", ") : "nobody"],
        ["Trashed", cards(team.trashed, ddCard)],
        ["Cases now", s.cases_now[name]],
        ["Tokens", s.tokens[name]],
      ]),
    ),
  );
  return [
    h("div", { class: "middle" }, facts([["Round", s.round], ["Attempt", s.attempt], ["Phase", words(s.phase)]]), stacks),
    h("div", { class: "seats" }, teams),
    s.winner ? h("p", { class: "winners", role: "status" }, `Won by team ${s.winner}`) : null,
  ];
}

const BOARDS = { danger, "high-voltage": highVoltage, "danger-13": danger13, "danger-danger": dangerDanger };

export function board(view) {
  const state = view.state;
  const draw = state && BOARDS[state.game];
  const parts = draw ? draw(view, state) : [plain(state)];
  const last = state && state.last_round;
  return h(
    "div",
    { class: `board ${state ? state.game : ""}` },
    parts,
    last ? h("details", { class: "last-round" }, h("summary", {}, `Round ${last.round} scored`), plain(last)) : null,
  );
}

// A command of the `legal` list in plain words.
export function describe(command, view) {
  const c = command;
  switch (c.type) {
    case "draw": return "Draw a card";
    case "take_discard": return "Take the discard";
    case "protect": return `Protect the ${c.colour} row`;
    case "end_turn": return "End the turn";
    case "give": return `Give the card to ${seatName(view, c.seat)}`;
    case "refuse": return "Refuse the card";
    case "accept": return "Accept the card";
    case "draw_card": return "Draw the team's next card";
    case "play_card": return `Play on stack ${c.stack + 1} (on ${c.on})`;
    case "new_stack": return "Start a new stack";
    case "swap": return "Swap with the Swap Card";
    case "trash": return "Trash the held card";
    case "go_out": return "Put your hands flat";
    case "pick": return `Keep ${c.cards.join(", ")}`;
    case "play": return `Play ${c.card}`;
    default:
      return [words(c.type), ...Object.entries(c).filter(([k]) => k !== "type").map(([k, v]) => `${words(k)} ${JSON.stringify(v)}`)].join(" ");
  }
}
