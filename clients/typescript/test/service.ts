// What the tests share: the running service's address, a seeded choice, and a relay that
// loses connections on loopback between a client and the service.
import { createConnection, createServer, type Server, type Socket } from "node:net";

import { Client, type Game } from "../src/index.js";

export const API: string = (() => {
  const url = process.env.DANGER_API;
  if (!url) throw new Error("DANGER_API is not set: run the tests with scripts/with-service.mjs");
  return url;
})();

/** A game with `names.length` seats joined, started unless `start` is false: the admin's
 * game and each seat's. */
export async function table(
  client: Client,
  body: Parameters<Client["games"]["create"]>[0],
  names: string[],
  start = true,
): Promise<{ admin: Game; seats: Game[] }> {
  const created = await client.games.create(body);
  const admin = client.game(created.id, created.admin_token);
  const seats: Game[] = [];
  for (const name of names) {
    const joined = await admin.join({ name });
    seats.push(admin.as(joined.token ?? undefined));
  }
  if (start) await admin.start();
  return { admin, seats };
}

/** A small seeded generator (mulberry32): a failing game can be played again. */
export function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export interface RelayOptions {
  /** The answers of the first `lose` connections are lost: the request reaches the
   * service, and the connection closes as its answer starts. */
  lose?: number;
  /** Connection n (in order) closes once `cuts[n]` bytes of its answer have passed. */
  cuts?: number[];
  /** Connection n (in order) goes silent, still open, once `stalls[n]` bytes have passed. */
  stalls?: number[];
}

/** A TCP relay on loopback to the service, which loses what it is told to. */
export class Relay {
  private server: Server | undefined;
  /** The head of each request that came through, in order. */
  readonly requests: string[] = [];
  private lose: number;
  private readonly cuts: number[];
  private readonly stalls: number[];
  private readonly sockets = new Set<Socket>();

  constructor(options: RelayOptions = {}) {
    this.lose = options.lose ?? 0;
    this.cuts = [...(options.cuts ?? [])];
    this.stalls = [...(options.stalls ?? [])];
  }

  async start(): Promise<string> {
    const target = new URL(API);
    this.server = createServer((client) => {
      const lose = this.lose > 0;
      this.lose -= lose ? 1 : 0;
      const cut = this.cuts.shift();
      const stall = this.stalls.shift();
      const index = this.requests.push("") - 1;
      const upstream = createConnection(Number(target.port), target.hostname);
      this.sockets.add(client).add(upstream);
      let passed = 0;
      let stalled = false; // the client hears nothing more, not even the end
      client.on("data", (chunk: Buffer) => {
        if (this.requests[index]!.length < 4096) this.requests[index] += chunk.toString("latin1");
        upstream.write(chunk);
      });
      upstream.on("data", (chunk: Buffer) => {
        if (lose) return end();
        if (stalled) return;
        if (stall !== undefined && passed + chunk.length >= stall) {
          client.write(chunk.subarray(0, stall - passed));
          stalled = true;
          return;
        }
        if (cut !== undefined && passed + chunk.length >= cut) {
          client.write(chunk.subarray(0, cut - passed));
          return end();
        }
        passed += chunk.length;
        client.write(chunk);
      });
      const end = (): void => {
        client.destroy();
        upstream.destroy();
      };
      client.on("close", end).on("error", end);
      upstream.on("close", () => (stalled ? undefined : end())).on("error", end);
    });
    await new Promise<void>((resolve) => this.server!.listen(0, "127.0.0.1", resolve));
    const address = this.server.address();
    if (address === null || typeof address === "string") throw new Error("no port");
    return `http://127.0.0.1:${address.port}`;
  }

  async stop(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => this.server?.close(() => resolve()) ?? resolve());
  }
}
