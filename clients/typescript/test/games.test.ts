// The resources against the running service: a game created, listed, joined, started and
// read; a refusal raised as a typed DangerError; a burst of creates retried past 429.
import assert from "node:assert/strict";
import { test } from "node:test";

import { Client, DangerError, type RetryInfo } from "../src/index.js";
import { API, table } from "./service.js";

test("a game is created, listed, joined by three seats and started", async () => {
  const client = new Client(API);
  const created = await client.games.create({ game: "danger", seats: 3 });
  assert.equal(created.status, "open");
  // The lobby is fed by the event feeds: the game shows there a moment after it is made.
  let listed = false;
  for (let tries = 0; tries < 100 && !listed; tries++) {
    const lobby = await client.games.list({ game: "danger", status: "open", limit: 100 });
    listed = lobby.games.some((entry) => entry.id === created.id);
    if (!listed) await new Promise((resolve) => setTimeout(resolve, 100));
  }
  assert.ok(listed, "listed in the lobby within 10 s");

  const admin = client.game(created.id, created.admin_token);
  const joined = [];
  for (const name of ["Ann", "Bob", "Cid"]) joined.push(await admin.join({ name }));
  assert.deepEqual(joined.map((j) => j.seat), [0, 1, 2]);
  const started = await admin.start();
  assert.equal(started.status, "active");

  const seats = joined.map((j) => admin.as(j.token ?? undefined));
  const views = await Promise.all(seats.map((seat) => seat.get()));
  assert.deepEqual(views.map((v) => v.view.you), [0, 1, 2]);
  assert.equal(views.filter((v) => v.legal.length > 0).length, 1, "one seat may act");
  const page = await seats[0]!.events();
  assert.equal(page.events.at(-1)?.seq, started.seq);
});

test("a refusal raises a DangerError with the problem's status, code and detail", async () => {
  const client = new Client(API);
  await assert.rejects(client.game("no-such-game").get(), (error: unknown) => {
    assert.ok(error instanceof DangerError);
    assert.equal(error.status, 404);
    assert.equal(error.code, "unknown_game");
    assert.match(error.detail, /\S/);
    return true;
  });

  const { seats } = await table(client, { game: "danger", seats: 2 }, ["Ann", "Bob"]);
  const views = await Promise.all(seats.map((seat) => seat.get()));
  const waiting = views.findIndex((v) => v.legal.length === 0);
  const acting = views.find((v) => v.legal.length > 0)!;
  // The seat whose turn it is not sends the other's command.
  await assert.rejects(seats[waiting]!.command(acting.legal[0]!), (error: unknown) => {
    assert.ok(error instanceof DangerError);
    assert.equal(error.status, 409);
    assert.equal(error.code, "not_your_turn");
    return true;
  });
});

test("creates refused with 429 are sent again after Retry-After, and all succeed", async () => {
  // The service under test allows 4 creates per 2 s to an address (scripts/with-service.mjs).
  const retries: RetryInfo[] = [];
  const client = new Client(API, { retry: { onRetry: (retry) => retries.push(retry) } });
  const ids = [];
  for (let n = 0; n < 6; n += 1) ids.push((await client.games.create({ game: "danger", seats: 2 })).id);
  assert.equal(new Set(ids).size, 6);
  assert.ok(retries.some((r) => r.status === 429 && r.pauseMs > 0), JSON.stringify(retries));
  for (const id of ids) {
    const created = await client.game(id).get();
    assert.equal(created.status, "open");
  }
});

test("a 429 past the retries' bound is raised, with its code", async () => {
  const client = new Client(API, { retry: { attempts: 1 } });
  const burst = Array.from({ length: 8 }, () => client.games.create({ game: "danger", seats: 2 }));
  const results = await Promise.allSettled(burst);
  const refused = results.flatMap((r) => (r.status === "rejected" ? [r.reason] : []));
  assert.ok(refused.length > 0, "a burst of 8 creates past a bucket of 4 meets 429");
  for (const error of refused) {
    assert.ok(error instanceof DangerError);
    assert.equal(error.status, 429);
    assert.equal(error.code, "rate_limited");
  }
});
