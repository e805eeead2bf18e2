// src/schema.ts is what scripts/generate.mjs makes of the committed spec today.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { test } from "node:test";
import { fileURLToPath } from "node:url";

test("the committed types are current with openapi/openapi.json", () => {
  const script = fileURLToPath(new URL("../../scripts/generate.mjs", import.meta.url));
  const run = spawnSync(process.execPath, [script, "--check"], { encoding: "utf8", timeout: 60_000 });
  assert.equal(run.status, 0, run.stderr);
});
