// Runs a command against a running service: `node scripts/with-service.mjs -- npm test`.
//
// Starts `danger serve` (DANGER_CLI, else the repository's .venv/bin/danger) on a free
// loopback port, its embedded Valkey in a temporary data directory, waits for /health,
// runs the command with DANGER_API set to the service's address, then stops the service
// and deletes the directory. Exits with the command's status; when it failed, the end of
// the service's log comes first.
import { spawn } from "node:child_process";
import { mkdtempSync, openSync, readFileSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("../../../", import.meta.url));
const DANGER = process.env.DANGER_CLI ?? join(ROOT, ".venv/bin/danger");
const READY_MS = 90_000;
const STOP_MS = 20_000;

// What the tests need of the service: the streams they open and reconnect, and the games
// they leave open, are more than one address may do by default; creates are limited
// tightly, so that a burst of them meets 429 and the client's retries.
const SETTINGS = {
  DANGER_RATE_STREAM: "600/60",
  DANGER_RATE_CREATE: "4/2",
  DANGER_OPEN_GAMES_PER_CLIENT: "0",
};

function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

function exited(child) {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve();
    else child.once("exit", () => resolve());
  });
}

async function ready(url, child) {
  const deadline = Date.now() + READY_MS;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`danger serve exited with ${child.exitCode}`);
    try {
      const response = await fetch(`${url}/health`);
      await response.body?.cancel();
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`danger serve did not answer /health within ${READY_MS} ms`);
}

async function stop(child) {
  if (child.exitCode !== null) return;
  child.kill("SIGINT"); // as Ctrl-C: the service stops its processes and its Valkey
  const stopped = await Promise.race([exited(child).then(() => true), delay(STOP_MS, false)]);
  if (!stopped) process.kill(-child.pid, "SIGKILL"); // its own process group: everything it started
  await exited(child);
}

function delay(ms, value) {
  return new Promise((resolve) => setTimeout(() => resolve(value), ms));
}

function run(command, env) {
  return new Promise((resolve) => {
    const child = spawn(command[0], command.slice(1), { stdio: "inherit", env });
    child.once("exit", (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });
}

const command = process.argv.slice(process.argv.indexOf("--") + 1);
if (!process.argv.includes("--") || command.length === 0) {
  console.error("usage: node scripts/with-service.mjs -- <command> [args...]");
  process.exit(2);
}
const dataDir = mkdtempSync(join(tmpdir(), "danger-ts-"));
const port = await freePort();
const url = `http://127.0.0.1:${port}`;
const log = join(dataDir, "serve.log");
const serve = ["serve", "--host", "127.0.0.1", "--port", String(port), "--data-dir", dataDir];
const service = spawn(DANGER, serve, {
  cwd: dataDir,
  detached: true, // a process group of its own, to be stopped whole
  stdio: ["ignore", openSync(log, "w"), openSync(log, "a")],
  env: { ...process.env, ...SETTINGS },
});
let status = 1;
try {
  await ready(url, service);
  status = await run(command, { ...process.env, DANGER_API: url });
} catch (error) {
  console.error(String(error));
} finally {
  await stop(service);
  if (status !== 0) {
    const lines = readFileSync(log, "utf8").trimEnd().split("\n");
    console.error(`danger serve's log, its last lines:\n${lines.slice(-40).join("\n")}`);
  }
  rmSync(dataDir, { recursive: true, force: true });
}
process.exit(status);
