"""The plumbing every process shares: settings, the store's connections, the embedded Valkey,
durability, shards, the store's clock, Lua scripts, logs, metrics and the supervisor."""
