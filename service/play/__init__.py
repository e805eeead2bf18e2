"""The command path: load a game and catch it up, decide, seal and append, answer; and what a seat
is (tokens, seats, players, names, idempotency)."""
