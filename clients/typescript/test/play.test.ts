// Whole games of each of the four kinds, played to their end by random legal commands: each
// seat follows its own stream with its view, and answers each view that gives it something
// to do with one of its `legal` commands.
import assert from "node:assert/strict";
import { test } from "node:test";

import { Client, DangerError, isView, type CreateGame, type Game } from "../src/index.js";
import { API, random, table } from "./service.js";

// A bound, not a speed: a game takes some 5 to 25 s here, but the views are written by a
// stream writer at the lowest CPU priority, which a busy machine can hold back many times over.
const GAME_MS = 240_000;
const MAX_COMMANDS = 3_000;
const SEED = Number(process.env.DANGER_SEED ?? Date.now() % 1_000_000);

const KINDS: { body: CreateGame; seats: number }[] = [
  { body: { game: "danger", seats: 3 }, seats: 3 },
  { body: { game: "high-voltage", seats: 3 }, seats: 3 },
  { body: { game: "danger-13", seats: 3 }, seats: 3 },
  { body: { game: "danger-danger", seats: 4 }, seats: 4 },
];

/** What a seat last saw and was told, said when its game does not end. */
interface Trace {
  view?: number;
  legal?: number;
  refused: string[];
}

/** The seat's moves until its view shows the game over. */
async function playSeat(
  seat: Game,
  choose: () => number,
  signal: AbortSignal,
  sent: { n: number },
  trace: Trace,
): Promise<string> {
  for await (const message of seat.stream({ view: true, signal })) {
    if (!isView(message)) continue;
    trace.view = message.seq;
    trace.legal = message.legal.length;
    if (message.status === "finished" || message.status === "abandoned") return message.status;
    if (message.legal.length === 0) continue;
    assert.ok(sent.n < MAX_COMMANDS, "the game ends within its bound of commands");
    const command = message.legal[Math.floor(choose() * message.legal.length)]!;
    try {
      await seat.command(command, { ifMatch: message.seq });
      sent.n += 1;
    } catch (error) {
      // The game moved between the view and the command (a timer, another seat): the
      // view that follows says what this seat may do now.
      if (error instanceof DangerError && (error.status === 412 || error.status === 409)) {
        trace.refused = [...trace.refused.slice(-4), `${message.seq}: ${error.code}`];
        continue;
      }
      throw error;
    }
  }
  throw new Error("the stream ended before the view showed the game over");
}

for (const [n, kind] of KINDS.entries()) {
  const name = `a game of ${kind.body.game} is played to its end by views of the stream (seed ${SEED + n})`;
  test(name, { timeout: GAME_MS + 10_000 }, async (t) => {
    const began = Date.now();
    const client = new Client(API);
    const names = Array.from({ length: kind.seats }, (_, seat) => `p${seat}`);
    const { admin, seats } = await table(client, kind.body, names);
    const choose = random(SEED + n);
    const signal = AbortSignal.timeout(GAME_MS);
    const sent = { n: 0 };
    const traces: Trace[] = seats.map(() => ({ refused: [] }));
    const playing = seats.map((seat, n) => playSeat(seat, choose, signal, sent, traces[n]!));
    const ends = await Promise.all(playing).catch(async (error: unknown) => {
      const now = await Promise.all(seats.map((seat) => seat.get()));
      const told = now.map((v, n) => ({ seq: v.seq, legal: v.legal.length, ...traces[n] }));
      throw new Error(`${String(error)}; game ${admin.id} after ${sent.n} commands: ${JSON.stringify(told)}`);
    });
    assert.deepEqual(ends, seats.map(() => "finished"));
    const over = await admin.get();
    assert.equal(over.status, "finished");
    assert.ok(sent.n > 0);
    t.diagnostic(`${sent.n} commands in ${Date.now() - began} ms`);
    const events = (await admin.events()).events.map((e) => e.type);
    assert.ok(events.includes("game_ended"), events.slice(-5).join(", "));
  });
}
