// /: the lobby (open and active games by kind) and the form that creates a game. The form is
// drawn from the spec's create schemas, with their limits, so it offers what the API takes.

import { call, openapi, tokens } from "./api.js";
import { h, clear, GAME_NAMES } from "./dom.js";
import { optionText } from "./options.js";
import { playNow } from "./ratings.js";

const CREATE_SCHEMAS = {
  danger: "CreateDangerGame",
  "high-voltage": "CreateHighVoltageGame",
  "danger-13": "CreateDanger13Game",
  "danger-danger": "CreateDangerDangerGame",
};

function resolve(spec, schema) {
  while (schema && schema.$ref) schema = spec.components.schemas[schema.$ref.split("/").pop()];
  return schema || {};
}

// One option's control, or null for what the form leaves out (sandbox-only settings).
function optionField(spec, game, name, schema, prefix) {
  schema = resolve(spec, schema);
  const description = schema.description || "";
  if (description.startsWith("Sandbox only")) return null;
  const { label, help: helpText, choices } = optionText(game, name, description);
  const id = `${prefix}-${name}`;
  const help = helpText ? h("small", { id: `${id}-help`, class: "muted" }, helpText) : null;
  const common = { id, name, "aria-describedby": helpText ? `${id}-help` : null };
  if (schema.enum) {
    return h("div", { class: "field" }, h("label", { for: id }, label), h("select", common, schema.enum.map((v) => h("option", { value: v, selected: v === schema.default }, choices[v] || v))), help);
  }
  if (schema.type === "boolean") {
    return h("div", { class: "field check" }, h("input", { ...common, type: "checkbox", checked: schema.default === true }), h("label", { for: id }, label), help);
  }
  const numeric = schema.type === "number" || schema.type === "integer" ? schema : (schema.oneOf || []).map((s) => resolve(spec, s)).find((s) => s.type === "number" || s.type === "integer");
  if (numeric) {
    return h(
      "div",
      { class: "field" },
      h("label", { for: id }, label),
      h("input", { ...common, type: "number", inputmode: "decimal", min: numeric.minimum, max: numeric.maximum, step: numeric.type === "integer" ? 1 : "any", value: schema.default ?? "", placeholder: schema.default === null || schema.default === undefined ? "none" : null, "data-kind": numeric.type }),
      help,
    );
  }
  if (schema.type === "object" && schema.properties) {
    // A deck composition: one count per kind of card, filled with the default deck's.
    const counts = Object.entries(schema.properties).map(([card, s]) => {
      const standard = Number(((s.description || "").match(/(\d+) in the default deck/) || [])[1] || 0);
      const cid = `${id}-${card}`;
      return h("div", { class: "count" }, h("label", { for: cid }, card), h("input", { id: cid, type: "number", min: s.minimum ?? 0, max: s.maximum, step: 1, value: standard, "data-card": card, "data-standard": standard, title: s.description || "" }));
    });
    return h("details", { class: "field deck", "data-option": name }, h("summary", {}, label), help, h("div", { class: "counts" }, counts));
  }
  return null;
}

function readOptions(fieldset) {
  const options = {};
  for (const input of fieldset.querySelectorAll(":scope > .field > input, :scope > .field > select")) {
    if (input.type === "checkbox") {
      options[input.name] = input.checked;
    } else if (input.type === "number") {
      if (input.value !== "") options[input.name] = input.dataset.kind === "integer" ? parseInt(input.value, 10) : Number(input.value);
    } else {
      options[input.name] = input.value;
    }
  }
  for (const deck of fieldset.querySelectorAll(".deck")) {
    const counts = [...deck.querySelectorAll("input[data-card]")];
    if (counts.some((c) => Number(c.value) !== Number(c.dataset.standard))) {
      options[deck.dataset.option] = Object.fromEntries(counts.map((c) => [c.dataset.card, parseInt(c.value || "0", 10)]));
    }
  }
  return options;
}

async function createForm() {
  const spec = await openapi();
  const kind = h("select", { id: "create-game", name: "game" }, Object.entries(GAME_NAMES).map(([value, label]) => h("option", { value }, label)));
  const seats = h("input", { id: "create-seats", name: "seats", type: "number", step: 1, required: true });
  const seatsHelp = h("small", { id: "create-seats-help", class: "muted" });
  seats.setAttribute("aria-describedby", "create-seats-help");
  const visibility = h("select", { id: "create-visibility" }, h("option", { value: "public" }, "public: listed in the lobby"), h("option", { value: "private" }, "private: by invitation"));
  const options = h("fieldset", { class: "options" });
  const message = h("p", { role: "alert" });

  function follow() {
    const schema = resolve(spec, spec.components.schemas[CREATE_SCHEMAS[kind.value]]);
    const seatSchema = schema.properties.seats;
    seats.min = seatSchema.minimum;
    seats.max = seatSchema.maximum;
    if (!seats.value || Number(seats.value) < seats.min || Number(seats.value) > seats.max) seats.value = Math.max(seatSchema.minimum, Math.min(3, seatSchema.maximum));
    seatsHelp.textContent = `${seatSchema.minimum} to ${seatSchema.maximum}`;
    const optionSchema = resolve(spec, schema.properties.options);
    clear(options, h("legend", {}, "Options"), Object.entries(optionSchema.properties || {}).map(([name, s]) => optionField(spec, kind.value, name, s, "option")));
  }
  kind.addEventListener("change", follow);
  follow();

  return h(
    "form",
    {
      class: "create",
      "aria-labelledby": "create-title",
      onsubmit: async (event) => {
        event.preventDefault();
        const body = { game: kind.value, seats: parseInt(seats.value, 10), visibility: visibility.value, options: readOptions(options) };
        try {
          const created = await call("POST", "/v1/games", { body });
          tokens.set(created.id, "admin", created.admin_token);
          if (created.invite) tokens.set(created.id, "invite", created.invite);
          location.assign(`/games/${created.id}`);
        } catch (error) {
          message.textContent = error.message;
        }
      },
    },
    h("h2", { id: "create-title" }, "Create a game"),
    h("div", { class: "field" }, h("label", { for: "create-game" }, "Game"), kind),
    h("div", { class: "field" }, h("label", { for: "create-seats" }, "Seats"), seats, seatsHelp),
    h("div", { class: "field" }, h("label", { for: "create-visibility" }, "Visibility"), visibility),
    options,
    message,
    h("button", { type: "submit" }, "Create"),
  );
}

function gamesTable(status, filter) {
  const body = h("tbody");
  const more = h("button", { type: "button", hidden: true }, "More");
  const table = h(
    "section",
    { class: "listing", "aria-labelledby": `title-${status}` },
    h("h2", { id: `title-${status}` }, status === "open" ? "Open games" : "Games in play"),
    h(
      "table",
      { "data-lobby": status },
      h("thead", {}, h("tr", {}, ["Game", "Kind", "Players", "Event"].map((c) => h("th", { scope: "col" }, c)))),
      body,
    ),
    more,
  );
  let cursor = null;
  async function load() {
    const query = new URLSearchParams({ status, limit: 20 });
    if (filter.value) query.set("game", filter.value);
    if (cursor) query.set("cursor", cursor);
    const page = await call("GET", `/v1/games?${query}`);
    for (const game of page.games) {
      body.append(
        h(
          "tr",
          { "data-game": game.id },
          h("td", {}, h("a", { href: `/games/${game.id}` }, game.id)),
          h("td", {}, GAME_NAMES[game.game] || game.game),
          h("td", {}, `${game.players.length} of ${game.seats}`, game.players.length ? h("span", { class: "muted" }, `: ${game.players.join(", ")}`) : null),
          h("td", {}, game.seq),
        ),
      );
    }
    if (!body.children.length) body.append(h("tr", {}, h("td", { colspan: 4, class: "muted" }, "None now.")));
    cursor = page.next;
    more.hidden = !cursor;
  }
  more.addEventListener("click", load);
  return { element: table, reload: () => { clear(body); cursor = null; return load(); } };
}

export async function lobbyPage(main) {
  document.title = "Lobby · Danger Hall";
  const filter = h("select", { id: "lobby-kind" }, h("option", { value: "" }, "every game"), Object.entries(GAME_NAMES).map(([value, label]) => h("option", { value }, label)));
  const open = gamesTable("open", filter);
  const active = gamesTable("active", filter);
  const reload = () => Promise.all([open.reload(), active.reload()]).catch(() => {});
  filter.addEventListener("change", reload);
  const goTo = h("input", { id: "go-to", name: "id", required: true, pattern: "[A-Za-z0-9_-]{1,64}" });
  clear(
    main,
    h("h1", {}, "Lobby"),
    h("div", { class: "lobby" },
      h("div", {},
        h("div", { class: "field" }, h("label", { for: "lobby-kind" }, "Show"), filter),
        open.element,
        active.element,
        h("form", { class: "go", onsubmit: (e) => { e.preventDefault(); location.assign(`/games/${encodeURIComponent(goTo.value)}`); } },
          h("label", { for: "go-to" }, "Open a game by its id"), goTo, h("button", { type: "submit" }, "Open")),
      ),
      h("div", {}, playNow(), await createForm()),
    ),
  );
  await reload();
}
