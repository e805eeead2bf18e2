// The README's example is examples/play.ts, word for word, and plays a game to its end.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { test } from "node:test";
import { fileURLToPath } from "node:url";

import { API } from "./service.js";

const here = (path: string): string => fileURLToPath(new URL(path, import.meta.url));

test("the README's example plays a game of Danger to its end", { timeout: 250_000 }, () => {
  const example = readFileSync(here("../../examples/play.ts"), "utf8");
  const readme = readFileSync(here("../../README.md"), "utf8");
  assert.ok(readme.includes("```ts\n" + example + "```"), "README.md shows examples/play.ts as it is");

  const run = spawnSync(process.execPath, [here("../examples/play.js")], {
    env: { ...process.env, DANGER_API: API },
    encoding: "utf8",
    timeout: 240_000, // a bound, as for the games of play.test.ts
  });
  assert.equal(run.status, 0, run.stderr);
  assert.match(run.stdout, /^totals \[ \d+, \d+ \] winners \[ [01](, 1)? \]\n$/);
});
