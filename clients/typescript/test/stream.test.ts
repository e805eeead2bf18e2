// The stream across dropped connections, and a command whose answer was lost: through a
// relay on loopback that cuts connections, against the running service.
import assert from "node:assert/strict";
import { test } from "node:test";

import { Client, isView, type EventOut } from "../src/index.js";
import { API, Relay, table } from "./service.js";

test("a cut stream resumes with Last-Event-ID, with no gap and no duplicate", { timeout: 60_000 }, async () => {
  const client = new Client(API);
  const names = ["Ann", "Bob", "Cid", "Dan", "Eve", "Fay"];
  const { admin } = await table(client, { game: "danger", seats: 6 }, names, false);
  await admin.abandon(); // the log is complete: the stream ends after its last event
  const log = (await admin.events()).events;

  // Each of the first five connections is cut after 1300 bytes of its answer: its head (some
  // 330 bytes) and an event or two (some 600 each).
  const relay = new Relay({ cuts: [1300, 1300, 1300, 1300, 1300] });
  const url = await relay.start();
  try {
    const watcher = new Client(url).game(admin.id);
    const seen: EventOut[] = [];
    for await (const message of watcher.stream({ signal: AbortSignal.timeout(30_000) })) {
      if (!isView(message)) seen.push(message);
    }
    assert.deepEqual(seen.map((e) => e.seq), log.map((e) => e.seq));
    assert.deepEqual(seen.map((e) => e.hash), log.map((e) => e.hash));
    // Each reconnect named the last event it had.
    const resumed = relay.requests.map((head) => /^last-event-id: (\d+)\r$/im.exec(head)?.[1]);
    assert.equal(resumed[0], undefined);
    const named = resumed.filter((id) => id !== undefined).map(Number);
    assert.ok(named.length >= 3, `resumed ${named.length} times: ${resumed.join(", ")}`);
    assert.deepEqual(named, [...new Set(named)].sort((a, b) => a - b));
    assert.ok(named.every((id) => log.some((e) => e.seq === id)));
  } finally {
    await relay.stop();
  }
});

test("a stream gone silent past readTimeoutMs is opened again where it stood", { timeout: 30_000 }, async () => {
  const client = new Client(API);
  const { admin } = await table(client, { game: "danger", seats: 4 }, ["Ann", "Bob", "Cid", "Dan"], false);
  await admin.abandon();
  const log = (await admin.events()).events;

  // The first connection stops after its head and an event, and stays open.
  const relay = new Relay({ stalls: [1300] });
  const url = await relay.start();
  try {
    const watcher = new Client(url).game(admin.id);
    const seen: number[] = [];
    const signal = AbortSignal.timeout(20_000);
    for await (const message of watcher.stream({ readTimeoutMs: 1_000, signal })) {
      if (!isView(message)) seen.push(message.seq);
    }
    assert.deepEqual(seen, log.map((e) => e.seq));
    assert.equal(relay.requests.length, 2);
    assert.match(relay.requests[1]!, new RegExp(`^last-event-id: ${seen[0]}\r$`, "im"));
  } finally {
    await relay.stop();
  }
});

test("a stream opened after a seq sends only what follows it", { timeout: 30_000 }, async () => {
  const client = new Client(API);
  const { admin } = await table(client, { game: "danger", seats: 2 }, ["Ann", "Bob"], false);
  await admin.abandon();
  const log = (await admin.events()).events;
  const after = log[1]!.seq;
  const seen: number[] = [];
  for await (const message of admin.stream({ after, signal: AbortSignal.timeout(20_000) })) {
    if (!isView(message)) seen.push(message.seq);
  }
  assert.deepEqual(seen, log.filter((e) => e.seq > after).map((e) => e.seq));
});

test("a command whose answer was lost is sent again and applied once", { timeout: 30_000 }, async () => {
  const client = new Client(API);
  const { seats } = await table(client, { game: "danger", seats: 2 }, ["Ann", "Bob"]);
  const views = await Promise.all(seats.map((seat) => seat.get()));
  const index = views.findIndex((v) => v.legal.length > 0);
  const before = views[index]!;

  const relay = new Relay({ lose: 1 });
  const url = await relay.start();
  try {
    const retries: unknown[] = [];
    const relayed = new Client(url, { retry: { onRetry: (r) => retries.push(r) } });
    const seat = relayed.game(seats[index]!.id, seats[index]!.token);
    const result = await seat.command(before.legal[0]!);
    assert.equal(retries.length, 1, "sent twice: the first answer was lost");
    assert.equal(relay.requests.length, 2);
    const log = (await seats[index]!.events(before.seq)).events;
    // Its events are in the log once: the retry got the first answer back.
    assert.deepEqual(log.map((e) => e.seq), result.events.map((e) => e.seq));
    assert.equal(result.seq, (await seats[index]!.get()).seq);
  } finally {
    await relay.stop();
  }
});
