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

/** What GET /v1/games/{id} answers, with `type: "view"`: sent on a game's stream with
 * `view: true` whenever the game comes to rest. */
export type ViewMessage = Schemas["ViewMessage"];
/** A message of a game's stream: one of its events, or (with `view: true`) the caller's view. */
export type StreamMessage = EventOut | ViewMessage;

/** A notice of a registered player's stream, about one of their games: joined, started,
 * their turn, over, or left (first, for each game open or running when the stream opens). */
export type PlayerNotice = Schemas["PlayerNotice"];

/** The caller's view, as opposed to an event (whose `type` is a plain string). */
export function isView(message: StreamMessage): message is ViewMessage {
  return message.type === "view";
}
