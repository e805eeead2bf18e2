// Names for the spec's schemas that the hand-written layer speaks of.
import type { components, operations } from "./schema.js";

export type Schemas = components["schemas"];
export type Problem = Schemas["Problem"];
export type GameOut = Schemas["GameOut"];
export type EventOut = Schemas["EventOut"];
export type EventPage = Schemas["EventPage"];
export type Created = Schemas["Created"];
export type Joined = Schemas["Joined"];
export type JoinGame = Schemas["JoinGame"];
export type CommandResult = Schemas["CommandResult"];
export type Lobby = Schemas["Lobby"];
export type Registered = Schemas["Registered"];
export type RegisterPlayer = Schemas["RegisterPlayer"];
export type PlayerStats = Schemas["PlayerStats"];
export type PlayerGames = Schemas["PlayerGames"];

/** The body of POST /v1/games: one kind of game, its seats and its options. */
export type CreateGame = operations["createGame"]["requestBody"]["content"]["application/json"];
/** Any command of any kind of game, as a seat's `legal` lists them. */
export type Command = GameOut["legal"][number];
/** The filters and paging of GET /v1/games. */
export type LobbyQuery = NonNullable<operations["listGames"]["parameters"]["query"]>;
/** The filters and paging of GET /v1/players/{id}/games. */
export type PlayerGamesQuery = NonNullable<operations["listPlayerGames"]["parameters"]["query"]>;

/** What GET /v1/games/{id} answers, sent on the stream (`view: true`) as `event: view`. */
export type ViewMessage = GameOut & { type: "view" };
/** A message of a game's stream: one of its events, or (with `view: true`) the caller's view. */
export type StreamMessage = EventOut | ViewMessage;

/** A message of a registered player's stream, about one of their games: joined, started,
 * over, or (also for each game where it is so when the stream opens) the player's turn. */
export interface PlayerMessage {
  type: "game_joined" | "game_started" | "your_turn" | "game_ended";
  /** The game's id. */
  game: string;
  /** The kind of game: "danger", "high-voltage", "danger-13", "danger-danger". */
  kind: string;
  seat: number;
  seq: number;
}

/** The caller's view, as opposed to an event (whose `type` is a plain string). */
export function isView(message: StreamMessage): message is ViewMessage {
  return message.type === "view";
}
