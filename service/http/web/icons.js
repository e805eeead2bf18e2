// Icons drawn as inline SVG: a glyph such as ⏮ is missing from many system fonts and
// shows as an empty box. Decorative only: the control carrying one names itself.

const PATHS = {
  first: "M2 2h2.5v12H2zM14 2 5.5 8 14 14z",
  previous: "M12 2 3.5 8 12 14z",
  next: "M4 2l8.5 6L4 14z",
  last: "M2 2l8.5 6L2 14zM11.5 2H14v12h-2.5z",
};

const SVG = "http://www.w3.org/2000/svg";

export function icon(name) {
  const svg = document.createElementNS(SVG, "svg");
  for (const [key, value] of Object.entries({ viewBox: "0 0 16 16", width: 16, height: 16, fill: "currentColor", "aria-hidden": "true", focusable: "false", class: "icon" })) {
    svg.setAttribute(key, String(value));
  }
  const path = document.createElementNS(SVG, "path");
  path.setAttribute("d", PATHS[name]);
  svg.append(path);
  return svg;
}
