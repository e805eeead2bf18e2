"""The event envelope, its canonical encoding and hash chain, and the Redis event store."""
