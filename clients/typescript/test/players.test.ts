// A registered player's stream tells of the games they join and start, on one connection.
import assert from "node:assert/strict";
import { test } from "node:test";

import { Client, type PlayerNotice } from "../src/index.js";
import { API } from "./service.js";

test("a player's stream tells how their games stand, then what happens", { timeout: 30_000 }, async () => {
  const anyone = new Client(API);
  const ann = await anyone.players.register({ name: "Ann" });
  const player = new Client(API, { token: ann.token });
  const created = await anyone.games.create({ game: "danger", seats: 2 });
  const admin = anyone.game(created.id, created.admin_token);
  await player.game(created.id).join({ name: "Ann" });
  await admin.join({ name: "Bob" });

  const stream = player.players.stream(ann.id, { signal: AbortSignal.timeout(20_000) });
  const notices: PlayerNotice[] = [];
  const next = async (): Promise<PlayerNotice> => {
    const step = await stream.next();
    assert.ok(!step.done, "the stream goes on");
    notices.push(step.value);
    return step.value;
  };
  // On connecting: the game Ann sits in, open.
  const open = { type: "game_joined", game: created.id, kind: "danger", seat: 0, status: "open", seq: 3 };
  assert.deepEqual(await next(), open);
  await admin.start();
  while (!notices.some((n) => n.type === "game_started")) await next();
  const started = notices.at(-1)!;
  assert.deepEqual([started.game, started.status, started.seat], [created.id, "active", 0]);
  await stream.return(undefined);
});
