// The hand-written layer over the generated one: resources and their methods, tokens sent
// where each operation takes them, refusals raised as DangerError, retries by Retry-After,
// and an Idempotency-Key on every write so that a retry is applied once.
import createClient, { type Client as FetchClient } from "openapi-fetch";

import { DangerError } from "./errors.js";
import { retrying, type RetryOptions } from "./retry.js";
import type { paths } from "./schema.js";
import { follow, gameMessage, playerNotice, type FollowOptions, type StreamOptions } from "./stream.js";
import type {
  Command,
  CommandResult,
  CreateGame,
  Created,
  EventPage,
  GameOut,
  JoinGame,
  Joined,
  Lobby,
  LobbyQuery,
  PlayerGames,
  PlayerGamesQuery,
  PlayerNotice,
  PlayerStats,
  Registered,
  RegisterPlayer,
  StreamMessage,
} from "./types.js";

export interface ClientOptions {
  /** A registered player's token (`dhp_...`): a join seats that player, and their own
   * game list shows their private games too. */
  token?: string;
  /** An app key (`dhk_...`): creates, registrations and anonymous joins count under it. */
  appKey?: string;
  /** How 429, 503 and lost connections are retried (see RetryOptions). */
  retry?: RetryOptions;
  /** The fetch underneath (the global one by default). */
  fetch?: typeof fetch;
}

export interface WriteOptions {
  /** The write's Idempotency-Key; a fresh one by default. Send a write again with the same
   * key to learn its answer without applying it twice. */
  idempotencyKey?: string;
}

export interface CommandOptions extends WriteOptions {
  /** The seq the command was chosen at: refused (412 `stale_seq`) if the game has moved. */
  ifMatch?: number;
}

type Answer<T> = { data?: T; error?: unknown; response: Response };

/** The answer's body, or the refusal raised as a DangerError. */
async function answer<T>(call: Promise<Answer<T>>): Promise<T> {
  const { data, error, response } = await call;
  if (!response.ok || data === undefined) throw DangerError.fromBody(response, error);
  return data;
}

function bearer(token: string | undefined): Record<string, string> {
  return token ? { Authorization: `Bearer ${token}` } : {};
}

function key(options: WriteOptions | undefined): string {
  return options?.idempotencyKey ?? crypto.randomUUID();
}

/** Danger Hall's API: `client.games`, `client.game(id, token)`, `client.players`, and
 * `client.api`, the generated client of every operation of the spec. */
export class Client {
  /** Every operation of the spec, typed (openapi-fetch), with this client's retries. */
  readonly api: FetchClient<paths>;
  readonly games: Games;
  readonly players: Players;
  readonly baseUrl: string;
  readonly token: string | undefined;
  readonly appKey: string | undefined;
  /** The fetch underneath: a stream retries by itself, on each reconnect. */
  readonly baseFetch: typeof fetch;
  readonly retry: RetryOptions;

  constructor(baseUrl: string, options: ClientOptions = {}) {
    this.baseUrl = baseUrl.replace(/\/+$/, "");
    this.token = options.token;
    this.appKey = options.appKey;
    this.retry = options.retry ?? {};
    this.baseFetch = options.fetch ?? globalThis.fetch;
    const send = retrying(this.retry, this.baseFetch);
    this.api = createClient<paths>({ baseUrl: this.baseUrl, fetch: send });
    this.games = new Games(this);
    this.players = new Players(this);
  }

  /** A game, acting with `token`: a seat's (its cards, its commands), the admin's (start,
   * abandon), or none (a spectator). */
  game(id: string, token?: string): Game {
    return new Game(this, id, token);
  }
}

export class Games {
  constructor(private readonly client: Client) {}

  /** A new game (`{game: "danger", seats: 3, options: {...}}`); the answer holds its
   * `admin_token`, shown once. */
  create(body: CreateGame, options?: WriteOptions): Promise<Created> {
    const { api, appKey } = this.client;
    const headers = { ...bearer(appKey), "Idempotency-Key": key(options) };
    return answer(api.POST("/v1/games", { body, headers }));
  }

  /** The lobby: public games, newest first, filtered and paged by `query`. */
  list(query: LobbyQuery = {}): Promise<Lobby> {
    return answer(this.client.api.GET("/v1/games", { params: { query } }));
  }
}

export class Players {
  constructor(private readonly client: Client) {}

  /** A registered player; the answer's `token` is shown once. */
  register(body: RegisterPlayer): Promise<Registered> {
    const headers = bearer(this.client.appKey);
    return answer(this.client.api.POST("/v1/players", { body, headers }));
  }

  /** A player's name and record. */
  get(id: string): Promise<PlayerStats> {
    return answer(this.client.api.GET("/v1/players/{player_id}", { params: { path: { player_id: id } } }));
  }

  /** What happens at the games of the player whose token the client holds: a game joined,
   * started, their turn, over or left; on each (re)connection, first how each of their open
   * and running games stands. `after` does not apply: it begins anew each time. */
  stream(id: string, options: Omit<FollowOptions, "after"> = {}): AsyncGenerator<PlayerNotice> {
    const { baseUrl, baseFetch, retry, token } = this.client;
    const url = `${baseUrl}/v1/players/${encodeURIComponent(id)}/stream`;
    const headers = bearer(token);
    const target = { url, resumes: false, query: {}, headers, fetch: baseFetch, retry, decode: playerNotice };
    return follow(target, options);
  }

  /** The games a player sits in, newest first (their private ones with their token). */
  games(id: string, query: PlayerGamesQuery = {}): Promise<PlayerGames> {
    const params = { path: { player_id: id }, query };
    const headers = bearer(this.client.token);
    return answer(this.client.api.GET("/v1/players/{player_id}/games", { params, headers }));
  }
}

export class Game {
  constructor(
    private readonly client: Client,
    readonly id: string,
    readonly token?: string,
  ) {}

  private get path() {
    return { path: { game_id: this.id } };
  }

  /** The same game, acting with another token. */
  as(token: string | undefined): Game {
    return new Game(this.client, this.id, token);
  }

  /** The game as this token sees it: `status`, `seq`, `view`, the commands it may send now
   * (`legal`) and the running `clocks`. */
  get(): Promise<GameOut> {
    const headers = bearer(this.token);
    return answer(this.client.api.GET("/v1/games/{game_id}", { params: this.path, headers }));
  }

  /** Takes a seat: seated as the client's player where it has a player's token (else
   * counted under its app key). The answer's `token` is the seat's, shown once; `seat()`
   * gives the game acting with it. */
  join(body: JoinGame, options?: WriteOptions): Promise<Joined> {
    const { appKey, token } = this.client;
    const headers = { ...bearer(token ?? appKey), "Idempotency-Key": key(options) };
    return answer(this.client.api.POST("/v1/games/{game_id}/players", { params: this.path, body, headers }));
  }

  /** Starts the game (the admin's token). */
  start(options?: WriteOptions): Promise<GameOut> {
    const headers = { ...bearer(this.token), "Idempotency-Key": key(options) };
    return answer(this.client.api.POST("/v1/games/{game_id}/start", { params: this.path, headers }));
  }

  /** Ends an open or running game (the admin's token). */
  abandon(options?: WriteOptions): Promise<GameOut> {
    const headers = { ...bearer(this.token), "Idempotency-Key": key(options) };
    return answer(this.client.api.POST("/v1/games/{game_id}/abandon", { params: this.path, headers }));
  }

  /** Sends one of the seat's `legal` commands (a seat's token). */
  command(command: Command, options?: CommandOptions): Promise<CommandResult> {
    const headers: Record<string, string> = { ...bearer(this.token), "Idempotency-Key": key(options) };
    if (options?.ifMatch !== undefined) headers["If-Match"] = `"${options.ifMatch}"`;
    return answer(
      this.client.api.POST("/v1/games/{game_id}/commands", { params: this.path, body: command, headers }),
    );
  }

  /** The events after seq `after`, as this token may see them. */
  events(after = 0): Promise<EventPage> {
    const params = { ...this.path, query: { after } };
    const headers = bearer(this.token);
    return answer(this.client.api.GET("/v1/games/{game_id}/events", { params, headers }));
  }

  /** The game's messages as they come (`for await (const m of game.stream({view: true}))`):
   * its events and, with `view`, this token's view of the game; across dropped connections,
   * with no gap and no duplicate. */
  stream(options: StreamOptions = {}): AsyncGenerator<StreamMessage> {
    const { baseUrl, baseFetch, retry } = this.client;
    const url = `${baseUrl}/v1/games/${encodeURIComponent(this.id)}/stream`;
    const query: Record<string, string> = options.view ? { view: "true" } : {};
    const headers = bearer(this.token);
    const target = { url, resumes: true, query, headers, fetch: baseFetch, retry, decode: gameMessage };
    return follow(target, options);
  }
}
