export { Client, Game, Games, Players } from "./client.js";
export type { ClientOptions, CommandOptions, WriteOptions } from "./client.js";
export { DangerError } from "./errors.js";
export { retryAfterMs, type RetryInfo, type RetryOptions } from "./retry.js";
export type { FollowOptions, StreamOptions } from "./stream.js";
export { isView } from "./types.js";
export type * from "./types.js";
export type { components, operations, paths } from "./schema.js";
