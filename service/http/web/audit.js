// /games/{id}/audit and /audit: every check of the audit, green or red with its explanation,
// and on a failure a link to the first bad event in the replay. An exported file is sent to
// POST /v1/audit, which checks it as `danger audit FILE` does and keeps nothing.

import { call } from "./api.js";
import { h, clear, words } from "./dom.js";

const EXPLAINED = {
  hash_chain: "Each event names the hash of the one before it, and its own hash is the SHA-256 of its bytes: no event was changed, removed or inserted.",
  seed_commitment: "The seed revealed at the end hashes to the commitment published when the game was created: the deck order was fixed before anyone played.",
  shuffles: "Every shuffle and random draw is what the seed and the seats' entropy give.",
  rules: "Every command, decided again by the rulebook against the state before it, gives exactly the recorded events.",
  scores: "Every round's scoring and the final result are what the rulebook counts.",
  receipts: "Every receipt you kept while playing bears the service's signature, by a key it lists, and names the hash this log has at its seq: the log was not rewritten after the service answered you.",
};

// Receipts as a player keeps them: one JSON object, a list, or JSON Lines.
function receiptsOf(text) {
  const trimmed = text.trim();
  if (!trimmed) return [];
  try {
    const value = JSON.parse(trimmed);
    return Array.isArray(value) ? value : [value];
  } catch {
    return trimmed.split("\n").filter((line) => line.trim()).map((line) => JSON.parse(line));
  }
}

export function report(result, gameId) {
  const failed = result.checks.filter((c) => !c.ok);
  const firstBad = failed.map((c) => c.seq).filter((s) => s !== null && s !== undefined).sort((a, b) => a - b)[0];
  const game = result.game || gameId;
  const verdict = h(
    "p",
    { class: `verdict ${result.ok ? "ok" : "fail"}`, "data-audit": result.ok ? "ok" : "fail", "data-audit-seq": firstBad, role: "status" },
    result.ok ? "✓ The log passes every check." : `✗ ${failed.length} of ${result.checks.length} checks fail.`,
    result.finished ? null : " The game is not over: the checks that need its seed wait for its end.",
  );
  return h(
    "section",
    { class: "audit-report", "aria-label": "Audit report" },
    verdict,
    h(
      "ul",
      { class: "checks" },
      result.checks.map((check) =>
        h(
          "li",
          { class: check.ok ? "pass" : "fail", "data-check": check.name, "data-ok": check.ok },
          h("span", { class: "mark", "aria-hidden": "true" }, check.ok ? "✓" : "✗"),
          h("strong", {}, words(check.name)),
          h("span", { class: "visually-hidden" }, check.ok ? "passes" : "fails"),
          h("span", { class: "detail" }, `: ${check.detail}`),
          h("p", { class: "muted why" }, EXPLAINED[check.name] || ""),
          check.seq !== null && check.seq !== undefined && !check.ok
            ? h("p", {}, h("a", { href: `/games/${game}/replay#seq=${check.seq}`, "data-bad-seq": check.seq }, `First bad event: ${check.seq} (open it in the replay)`))
            : null,
          check.expected ? h("details", {}, h("summary", {}, "What the rules give there"), h("pre", {}, JSON.stringify(check.expected, null, 2))) : null,
        ),
      ),
    ),
  );
}

export async function gameAuditPage(main, id) {
  document.title = `Audit of ${id} · Danger Hall`;
  const place = h("div", {}, h("p", { class: "loading" }, "Auditing…"));
  clear(main, h("h1", {}, "Audit ", h("span", { class: "muted" }, id)), h("p", {}, h("a", { href: `/games/${id}` }, "The game"), " · ", h("a", { href: `/games/${id}/replay` }, "Its replay"), " · ", h("a", { href: `/v1/games/${id}/export`, download: `${id}.jsonl` }, "Export it")), place);
  try {
    clear(place, report(await call("GET", `/v1/games/${id}/audit`), id));
  } catch (error) {
    clear(place, h("p", { role: "alert" }, error.message));
  }
}

export function fileAuditPage(main) {
  document.title = "Audit an export · Danger Hall";
  const place = h("div", { "aria-live": "polite" });
  const input = h("input", { type: "file", id: "export-file", accept: ".jsonl,.ndjson,.json,application/x-ndjson,text/plain" });
  const receiptsInput = h("input", { type: "file", id: "receipts-file", "data-testid": "receipts-file", accept: ".json,.jsonl,.ndjson,application/json,text/plain" });
  let chosen = null;
  async function check(file) {
    chosen = file;
    clear(place, h("p", { class: "loading" }, `Auditing ${file.name}…`));
    try {
      const kept = receiptsInput.files[0];
      const body = kept
        ? { body: JSON.stringify({ export: await file.text(), receipts: receiptsOf(await kept.text()) }), type: "application/json" }
        : { body: await file.text(), type: "application/x-ndjson" };
      const result = await call("POST", "/v1/audit", body);
      const also = kept ? `, with the receipts of ${kept.name}` : "";
      clear(place, h("p", {}, `File ${file.name}${also}, game ${result.game || "unknown"}`), report(result, result.game));
    } catch (error) {
      clear(place, h("p", { role: "alert" }, error.message));
    }
  }
  input.addEventListener("change", () => input.files[0] && check(input.files[0]));
  receiptsInput.addEventListener("change", () => chosen && check(chosen));
  const zone = h(
    "div",
    { class: "drop", "aria-describedby": "drop-hint" },
    h("label", { for: "export-file" }, "Export file"), " ", input,
    h("p", { id: "drop-hint", class: "muted" }, "Choose a game's export (JSON Lines), or drop it here. It is checked as `danger audit` checks it, and nothing is kept."),
    h("p", {}, h("label", { for: "receipts-file" }, "Receipts you kept (optional)"), " ", receiptsInput),
    h("p", { class: "muted" }, "The receipts of your answers (each answer's `receipt`, one JSON object a line) prove what the service acknowledged: a log rewritten since, however well its hashes were recomputed, fails them."),
  );
  zone.addEventListener("dragover", (e) => { e.preventDefault(); zone.classList.add("over"); });
  zone.addEventListener("dragleave", () => zone.classList.remove("over"));
  zone.addEventListener("drop", (e) => {
    e.preventDefault();
    zone.classList.remove("over");
    if (e.dataTransfer.files[0]) check(e.dataTransfer.files[0]);
  });
  clear(main, h("h1", {}, "Audit an export"), zone, place);
}
