// A live stream of the service (Server-Sent Events), one message at a time: a game's,
// GET /v1/games/{id}/stream, or a player's, GET /v1/players/{id}/stream.
//
// Each message's id is the seq it stands at (a game's: of the game's log). When the connection drops, or
// goes silent past the server's keep-alives, the stream is opened again with Last-Event-ID:
// the server sends what follows that seq, so no event is missed or seen twice. A refusal to
// open it with 429 or 503 is waited out by Retry-After. The server ends a game's stream after
// the game's last event (a seat's, also after the event that withdraws its token); so does this.
import { createParser, type EventSourceMessage } from "eventsource-parser";

import { DangerError } from "./errors.js";
import { RetryBudget, RETRIED_STATUSES, sleep, type RetryOptions } from "./retry.js";
import type { EventOut, PlayerNotice, StreamMessage, ViewMessage } from "./types.js";

export interface FollowOptions {
  /** Only the messages after this seq (0: from the start). */
  after?: number;
  /** Ends the stream (its iterator throws the signal's reason). */
  signal?: AbortSignal;
  /** Reconnects in a row without a message between them, at most (10); they also end
   * once the client's `retry.maxElapsedMs` has passed since the first of them. */
  reconnects?: number;
  /** The longest silence before the connection is taken for lost (60 000 ms; the server
   * sends a keep-alive every 15 s). */
  readTimeoutMs?: number;
}

export interface StreamOptions extends FollowOptions {
  /** Also the caller's view: after the backlog, and after each run of events that leaves
   * the game at rest (`event: view`; see `isView`). */
  view?: boolean;
}

export interface StreamTarget<T> {
  url: string;
  /** Whether it takes `after` and Last-Event-ID (a player's stream begins anew each time). */
  resumes: boolean;
  query: Record<string, string>;
  headers: Record<string, string>;
  fetch: typeof fetch;
  retry: RetryOptions;
  decode: (message: EventSourceMessage) => T;
}

class Lost extends Error {}

export async function* follow<T extends { seq: number }>(
  target: StreamTarget<T>,
  options: FollowOptions = {},
): AsyncGenerator<T> {
  const { after = 0, signal, reconnects = 10, readTimeoutMs = 60_000 } = options;
  const query = target.resumes ? { ...target.query, after: String(after) } : target.query;
  const url = Object.keys(query).length ? `${target.url}?${new URLSearchParams(query)}` : target.url;
  const budget = new RetryBudget({ ...target.retry, attempts: reconnects + 1 });
  let last: string | undefined = after > 0 ? String(after) : undefined;
  const get = target.fetch; // called on its own: a browser's fetch refuses another `this`

  for (;;) {
    const connection = new AbortController();
    const signals = signal ? [signal, connection.signal] : [connection.signal];
    const headers: Record<string, string> = { ...target.headers, Accept: "text/event-stream" };
    if (target.resumes && last !== undefined) headers["Last-Event-ID"] = last;
    let pause: number | undefined;
    try {
      const response = await get(url, { headers, signal: AbortSignal.any(signals) });
      if (RETRIED_STATUSES.has(response.status)) {
        pause = budget.next(response.headers.get("Retry-After"));
        if (pause === undefined) throw await DangerError.fromResponse(response);
        await response.body?.cancel();
      } else if (!response.ok || !response.body) {
        throw await DangerError.fromResponse(response);
      } else {
        for await (const message of messages(response.body, connection, readTimeoutMs)) {
          const parsed = target.decode(message);
          last = message.id ?? String(parsed.seq);
          budget.reset();
          yield parsed;
        }
        return; // the server ended it: the game's log is complete, or the token withdrawn
      }
    } catch (error) {
      if (signal?.aborted || error instanceof DangerError) throw error;
      pause = budget.next(undefined);
      if (pause === undefined) throw error;
    } finally {
      connection.abort();
    }
    await sleep(pause, signal);
  }
}

/** A game's message: an event, or (`event: view`) the caller's view. */
export function gameMessage(message: EventSourceMessage): StreamMessage {
  const data = JSON.parse(message.data) as Record<string, unknown>;
  if (message.event === "view") return { ...data, type: "view" } as ViewMessage;
  return data as EventOut;
}

/** A player's notice: what happened at one of their games. */
export function playerNotice(message: EventSourceMessage): PlayerNotice {
  return JSON.parse(message.data) as PlayerNotice;
}

/** The SSE messages of one connection's body; Lost when it stays silent too long. */
async function* messages(
  body: ReadableStream<Uint8Array>,
  connection: AbortController,
  readTimeoutMs: number,
): AsyncGenerator<EventSourceMessage> {
  const ready: EventSourceMessage[] = [];
  const parser = createParser({ onEvent: (message) => ready.push(message) });
  const decoder = new TextDecoder();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const watch = (): void => {
    clearTimeout(timer);
    timer = setTimeout(() => connection.abort(new Lost("the stream went silent")), readTimeoutMs);
  };
  watch();
  try {
    for await (const chunk of body) {
      watch(); // a keep-alive comment counts: the connection is there
      parser.feed(decoder.decode(chunk, { stream: true }));
      yield* ready.splice(0);
    }
  } finally {
    clearTimeout(timer);
  }
}
