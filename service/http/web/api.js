// The REST API and its streams, as the pages use them: same origin, JSON in and out,
// problem details turned into errors that carry their `code`.

export class Problem extends Error {
  constructor(status, body) {
    super((body && (body.detail || body.title)) || `The service answered ${status}.`);
    this.status = status;
    this.code = body && body.code;
    this.body = body;
  }
}

export async function call(method, path, { body, token, type, signal } = {}) {
  const headers = { Accept: "application/json" };
  if (token) headers.Authorization = `Bearer ${token}`;
  const init = { method, headers, signal };
  if (body !== undefined) {
    headers["Content-Type"] = type || "application/json";
    init.body = typeof body === "string" || body instanceof Blob ? body : JSON.stringify(body);
  }
  let answer;
  try {
    answer = await fetch(path, init);
  } catch (error) {
    if (error.name === "AbortError") throw error;
    throw new Problem(0, { detail: "The service cannot be reached; check the connection." });
  }
  const text = await answer.text();
  let data = null;
  try {
    data = text ? JSON.parse(text) : null;
  } catch {
    data = { detail: text };
  }
  if (!answer.ok) throw new Problem(answer.status, data);
  return data;
}

// Tokens, kept per game in this browser (localStorage) so that a reload keeps the seat.
const KEY = "danger-hall:tokens";

function allTokens() {
  try {
    return JSON.parse(localStorage.getItem(KEY) || "{}");
  } catch {
    return {};
  }
}

export const tokens = {
  of(game) {
    return allTokens()[game] || {};
  },
  set(game, kind, token) {
    const all = allTokens();
    all[game] = { ...(all[game] || {}), [kind]: token };
    localStorage.setItem(KEY, JSON.stringify(all));
  },
  drop(game, kind) {
    const all = allTokens();
    if (!all[game]) return;
    delete all[game][kind];
    if (!Object.keys(all[game]).length) delete all[game];
    localStorage.setItem(KEY, JSON.stringify(all));
  },
  // `#token=<token>` hands a seat's or the admin's token to this browser, `#invite=<invite>`
  // a private game's invite; they leave the address bar at once.
  fromAddress(game) {
    const address = new URLSearchParams(location.hash.slice(1));
    const found = address.get("token");
    const invite = address.get("invite");
    if (!found && !invite) return;
    if (found) tokens.set(game, found.includes(".admin.") ? "admin" : "seat", found);
    if (invite) tokens.set(game, "invite", invite);
    history.replaceState(null, "", location.pathname + location.search);
  },
};

// Server-Sent Events over fetch (EventSource cannot send a bearer token). Calls onEvent
// with {id, event, data} for each message; resolves when the server ends the stream.
export async function follow(path, token, onEvent, signal) {
  const headers = { Accept: "text/event-stream" };
  if (token) headers.Authorization = `Bearer ${token}`;
  const answer = await fetch(path, { headers, signal });
  if (!answer.ok) throw new Problem(answer.status, await answer.json().catch(() => null));
  const reader = answer.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = "";
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return;
    buffer += value;
    let end;
    while ((end = buffer.search(/\r?\n\r?\n/)) >= 0) {
      const frame = buffer.slice(0, end);
      buffer = buffer.slice(end).replace(/^\r?\n\r?\n/, "");
      const message = {};
      for (const line of frame.split(/\r?\n/)) {
        if (!line || line.startsWith(":")) continue;
        const colon = line.indexOf(":");
        const field = colon < 0 ? line : line.slice(0, colon);
        const text = colon < 0 ? "" : line.slice(colon + 1).replace(/^ /, "");
        message[field] = field === "data" && message.data ? `${message.data}\n${text}` : text;
      }
      if (message.data !== undefined) onEvent(message);
    }
  }
}

// The spec, read once: the create form follows its schemas and their limits.
let spec = null;
export async function openapi() {
  if (!spec) spec = await call("GET", "/schema/openapi.json");
  return spec;
}
