// Whole games of each of the four kinds, played to their end by random legal commands: each
// seat follows its own stream with its view, and answers each view that gives it something
// to do with one of its `legal` commands.
import assert from "node:assert/strict";
import { test } from "node:test";

import { Client, DangerError, isView, type CreateGame, type Game } from "../src/index.js";
import { API, random, table } from "./service.js";

const GAME_MS = 90_000;
const MAX_COMMANDS = 3_000;
const SEED = Number(process.env.DANGER_SEED ?? Date.now() % 1_000_000);

const KINDS: { body: CreateGame; seats: number }[] = [
  { body: { game: "danger", seats: 3 }, seats: 3 },
  { body: { game: "high-voltage", seats: 3 }, seats: 3 },
  { body: { game: "danger-13", seats: 3 }, seats: 3 },
  { body: { game: "danger-danger", seats: 4 }, seats: 4 },
];

/** The seat's moves until its view shows the game over. */
async function playSeat(
  seat: Game,
  choose: () => number,
  signal: AbortSignal,
  sent: { n: number },
): Promise<string> {
  for await (const message of seat.stream({ view: true, signal })) {
    if (!isView(message)) continue;
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
      if (error instanceof DangerError && (error.status === 412 || error.status === 409)) continue;
      throw error;
    }
  }
  throw new Error("the stream ended before the view showed the game over");
}

for (const [n, kind] of KINDS.entries()) {
  const name = `a game of ${kind.body.game} is played to its end by views of the stream (seed ${SEED + n})`;
  test(name, { timeout: GAME_MS + 10_000 }, async () => {
    const client = new Client(API);
    const names = Array.from({ length: kind.seats }, (_, seat) => `p${seat}`);
    const { admin, seats } = await table(client, kind.body, names);
    const choose = random(SEED + n);
    const signal = AbortSignal.timeout(GAME_MS);
    const sent = { n: 0 };
    const ends = await Promise.all(seats.map((seat) => playSeat(seat, choose, signal, sent)));
    assert.deepEqual(ends, seats.map(() => "finished"));
    const over = await admin.get();
    assert.equal(over.status, "finished");
    assert.ok(sent.n > 0);
    const events = (await admin.events()).events.map((e) => e.type);
    assert.ok(events.includes("game_ended"), events.slice(-5).join(", "));
  });
}
