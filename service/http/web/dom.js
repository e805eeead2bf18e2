// A small element builder: h("button", {class: "x", onclick}, "text", child, ...).

export function h(tag, attributes = {}, ...children) {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (name.startsWith("on") && typeof value === "function") {
      element.addEventListener(name.slice(2), value);
    } else if (name === "class") {
      element.className = value;
    } else if (name === "dataset") {
      Object.assign(element.dataset, value);
    } else if (name === "value") {
      element.value = value;
    } else {
      element.setAttribute(name, value === true ? "" : String(value));
    }
  }
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    element.append(child instanceof Node ? child : String(child));
  }
  return element;
}

export function clear(element, ...children) {
  element.replaceChildren(...children.flat(Infinity).filter((c) => c !== null && c !== false));
  return element;
}

export const GAME_NAMES = {
  danger: "Danger",
  "high-voltage": "DANGER: The High Voltage Game",
  "danger-danger": "Danger Danger",
  "danger-13": "Danger 13",
};

export function words(name) {
  return String(name).replaceAll("_", " ");
}

// Any JSON value as readable markup: arrays of objects become tables, objects definition
// lists. Used where a game's data has no drawing of its own (a round's scoring).
export function plain(value) {
  if (value === null || value === undefined) return h("span", { class: "muted" }, "–");
  if (Array.isArray(value)) {
    if (!value.length) return h("span", { class: "muted" }, "none");
    if (value.every((v) => v && typeof v === "object" && !Array.isArray(v))) {
      const columns = [...new Set(value.flatMap((v) => Object.keys(v)))];
      return h(
        "table",
        { class: "plain" },
        h("thead", {}, h("tr", {}, columns.map((c) => h("th", { scope: "col" }, words(c))))),
        h("tbody", {}, value.map((row) => h("tr", {}, columns.map((c) => h("td", {}, plain(row[c])))))),
      );
    }
    return value.map((v, i) => [i ? ", " : "", plain(v)]);
  }
  if (typeof value === "object") {
    return h("dl", { class: "plain" }, Object.entries(value).map(([k, v]) => [h("dt", {}, words(k)), h("dd", {}, plain(v))]));
  }
  if (typeof value === "boolean") return value ? "yes" : "no";
  return String(value);
}

export function relative(deadline) {
  const seconds = Math.max(0, Math.round((Date.parse(deadline) - Date.now()) / 1000));
  if (seconds < 60) return `${seconds} s`;
  return `${Math.floor(seconds / 60)} min ${String(seconds % 60).padStart(2, "0")} s`;
}
