// The four games drawn as card tables, from a view as the API gives it (GET /v1/games/{id}
// or /replay): nothing here knows more than the view shows its reader.

import { h, plain, words } from "./dom.js";

const DANGER_COLOURS = { R: "red", B: "blue", G: "green", Y: "yellow" };
const HV_COLOURS = { 1: "ten", 2: "twenty", 3: "thirty", 4: "forty", 5: "fifty" };

function playerName(view, seat) {
  const player = (view.players || []).find((p) => p.seat === seat);
  return player ? player.name : `Seat ${seat}`;
}

function seatName(view, seat) {
  const name = playerName(view, seat);
  return view.you === seat ? `${name} (you)` : name;
}

// The seat's number as the API gives it (0 first), as the commands and the replay name it.
function seatLabel(view, seat) {
  return `${playerName(view, seat)} (${view.you === seat ? "you, " : ""}seat ${seat})`;
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
    h("h3", {}, seatName(view, seat), h("span", { class: "muted seat-number" }, `seat ${seat}`), turn ? h("span", { class: "badge" }, "to play") : null, extra || null),
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

function plural(n, one, many = `${one}s`) {
  return `${n} ${n === 1 ? one : many}`;
}

// A game over keeps its last round's cards only in that round's scoring: the table shows
// them there, not the emptied rows, stacks and hands the rules leave behind.
function over(s) {
  return s.phase === "over";
}

function dangerRows(view, seat, rows, scored) {
  return h(
    "table",
    { class: "rows" },
    h("caption", { class: "visually-hidden" }, `${scored ? "Final rows" : "Rows"} of ${seatName(view, seat)}`),
    h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "Row"), h("th", { scope: "col" }, "Cards"), h("th", { scope: "col" }, "Sum"), scored ? h("th", { scope: "col" }, "Points") : null)),
    h(
      "tbody",
      {},
      rows.map(([colour, row]) =>
        h(
          "tr",
          { class: `row ${colour}`, "data-row": colour },
          h("th", { scope: "row" }, colour, row.protected ? h("span", { class: "badge", title: "protected" }, "protected") : null, row.closed ? h("span", { class: "badge", title: "closed" }, "closed") : null),
          h("td", {}, cards(row.cards, dangerCard)),
          h("td", { class: "sum" }, row.sum),
          scored ? h("td", { class: "points", title: row.note || "" }, row.points) : null,
        ),
      ),
    ),
  );
}

function danger(view, s) {
  const ended = over(s) && s.last_round;
  const table = h(
    "div",
    { class: "middle" },
    facts(
      ended
        ? [["Round", `${s.round} of ${s.rounds}`], ["Phase", "game over"]]
        : [
            ["Round", `${s.round} of ${s.rounds}`],
            ["Stack", plural(s.stack_size, "card")],
            ["Discard", s.discard.top ? [dangerCard(s.discard.top), ` (${s.discard.count})`] : plural(s.discard.count, "card")],
            s.drawn ? ["Drawn", dangerCard(s.drawn)] : null,
            ["Phase", words(s.phase)],
          ],
    ),
  );
  const boards = s.boards.map((board) => {
    const scored = ended ? s.last_round.rows.filter((r) => r.seat === board.seat) : null;
    return seatPanel(
      view,
      board.seat,
      { turn: view.status === "active" && s.turn === board.seat },
      scored
        ? [
            dangerRows(view, board.seat, scored.map((r) => [r.colour, r]), true),
            h("p", { class: "muted" }, `Last round: ${plural(s.last_round.points[board.seat], "point")}`),
          ]
        : [
            dangerRows(view, board.seat, Object.entries(board.rows), false),
            h("p", { class: "muted" }, `${plural(board.cards_in_front, "card")} in front`),
          ],
    );
  });
  return [table, h("div", { class: "seats" }, boards), totals(view, s.totals), winners(view, s.winners)];
}

// High Voltage: the hand, the trick in play, and each seat's won cards by zone.
function hvCard(value) {
  const colour = HV_COLOURS[Math.floor(value / 10)];
  return card(value, `hv ${colour}`, `${value}`);
}

function zonesTable(view, seat, zones) {
  if (!zones || !zones.length) return h("p", { class: "muted" }, "No cards won");
  const list = (values) => (values.length ? cards(values, hvCard) : h("span", { class: "muted" }, "none"));
  return h(
    "table",
    { class: "zones" },
    h("caption", { class: "visually-hidden" }, `Won cards of ${seatName(view, seat)} by colour`),
    h("thead", {}, h("tr", {}, ["Colour", "Safe", "Danger", "Catastrophic", "Points"].map((c) => h("th", { scope: "col" }, c)))),
    h(
      "tbody",
      {},
      zones.map((zone) =>
        h(
          "tr",
          {},
          h("th", { scope: "row" }, zone.colour),
          h("td", {}, zone.safe === null ? h("span", { class: "muted" }, "none") : hvCard(zone.safe)),
          h("td", {}, list(zone.danger)),
          h("td", {}, list(zone.catastrophic)),
          h("td", { class: "sum" }, zone.points),
        ),
      ),
    ),
  );
}

function highVoltage(view, s) {
  const ended = over(s);
  const middle = h(
    "div",
    { class: "middle" },
    facts([
      ["Round", `${s.round} of ${s.rounds}`],
      ["Phase", ended ? "game over" : s.phase === "draft" ? `draft, stage ${s.stage}` : words(s.phase)],
      s.phase === "tricks" ? ["Trick", s.trick] : null,
    ]),
    ended ? null : h("div", { class: "trick", "aria-label": "Current trick" }, h("h3", {}, "Trick"), s.plays.length ? s.plays.map((p) => h("span", { class: "play" }, seatName(view, p.seat), ": ", hvCard(p.card))) : h("span", { class: "muted" }, "no card yet")),
    s.hand && !ended ? h("div", { class: "hand", "aria-label": "Your hand" }, h("h3", {}, "Your hand"), cards(s.hand, hvCard)) : null,
    s.choose_from && s.choose_from.length ? h("div", { class: "hand" }, h("h3", {}, "To choose from"), cards(s.choose_from, hvCard)) : null,
  );
  const seats = s.hand_sizes.map((size, seat) =>
    seatPanel(
      view,
      seat,
      { turn: view.status === "active" && s.turn === seat },
      facts([
        ended ? null : ["In hand", plural(size, "card")],
        s.phase === "draft" ? ["Picked", s.picked[seat] ? "yes" : "not yet"] : null,
        [ended ? "Last round" : "This round", plural(s.round_points[seat], "point")],
      ]),
      zonesTable(view, seat, s.zones[seat]),
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
  const ended = over(s);
  const middle = h(
    "div",
    { class: "middle" },
    facts(
      ended
        ? [["Round", s.round], ["Phase", "game over"]]
        : [
            ["Round", s.round],
            ["Dealer", seatName(view, s.dealer)],
            ["Revealed", s.revealed ? d13Card(s.revealed) : "none"],
            ["Packet", plural(s.packet_size, "card")],
            ["Pile", plural(s.pile_size, "card")],
            ["Discard", plural(s.discard_size, "card")],
            ["Phase", words(s.phase)],
            s.pending ? ["Decision", [seatName(view, s.pending.seat), ": ", d13Card(s.pending.card)]] : null,
          ],
    ),
  );
  const seats = s.rows.map((row, seat) => {
    const discarded = ended && s.last_round ? s.last_round.discarded[seat] : null;
    return seatPanel(
      view,
      seat,
      { turn: view.status === "active" && s.dealer === seat, extra: !ended && s.received[seat] ? h("span", { class: "badge" }, "has a card") : null },
      ended
        ? facts([
            ["Last row", cards(discarded, d13Card)],
            ["Won", plural(s.won_counts[seat], "card")],
            s.plus_signs ? ["“+” signs", s.plus_signs[seat]] : null,
          ])
        : [
            h("p", {}, cards(row, d13Card)),
            facts([
              ["Sum", `${s.sums[seat]} of ${s.limits[seat]}`],
              ["Won", plural(s.won_counts[seat], "card")],
            ]),
          ],
      ended && s.all_won ? h("p", {}, "Won cards: ", cards(s.all_won[seat], d13Card)) : null,
    );
  });
  const yours = !ended && s.won && s.won.length ? h("p", {}, "Your won cards: ", cards(s.won, d13Card)) : null;
  return [middle, h("div", { class: "seats" }, seats), yours, winners(view, s.winners)];
}

// Danger Danger: the six stacks, each team's relay, held card and Swap Card.
function ddCard(text) {
  if (!text) return h("span", { class: "muted" }, "none");
  const colour = String(text)[0] === "P" ? "pink" : "yellowteam";
  return card(text, `dd ${colour}`, words(text));
}

function dangerDanger(view, s) {
  const ended = over(s);
  const stacks = h(
    "ol",
    { class: "stacks", "aria-label": "Stacks" },
    s.stacks.map((stack, i) => h("li", { "data-stack": i }, h("span", { class: "muted" }, `Stack ${i}: `), stack.length ? ddCard(stack[stack.length - 1]) : h("span", { class: "muted" }, "empty"), stack.length > 1 ? h("span", { class: "muted" }, ` (${stack.length})`) : null)),
  );
  const teams = Object.entries(s.teams).map(([name, team]) =>
    h(
      "section",
      { class: `team ${name}${s.your_team === name ? " you" : ""}`, "aria-label": `Team ${name}` },
      h("h3", {}, `Team ${name}`, s.your_team === name ? h("span", { class: "badge" }, "yours") : null, team.out ? h("span", { class: "badge" }, "out") : null),
      facts([
        ["Seats", team.seats.map((seat) => seatLabel(view, seat)).join(", ")],
        ended ? null : ["Next to draw", seatName(view, team.next_to_draw)],
        ended ? null : ["Held card", team.holder === null ? "none" : [seatName(view, team.holder), ": ", team.holding ? ddCard(team.holding) : "a card"]],
        ["Swap Card", ddCard(team.swap)],
        ["Pile", plural(team.pile_size, "card")],
        ["Hands flat", team.declared.length ? team.declared.map((seat) => seatName(view, seat)).join(", ") : "nobody"],
        ["Trashed", cards(team.trashed, ddCard)],
        [ended ? "Cases" : "Cases now", s.cases_now[name]],
        ["Tokens", s.tokens[name]],
      ]),
    ),
  );
  return [
    h("div", { class: "middle" }, facts([["Round", s.round], ["Attempt", s.attempt], ["Phase", ended ? "game over" : words(s.phase)]]), stacks),
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
    case "play_card": return `Play on stack ${c.stack} (on ${c.on})`;
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
