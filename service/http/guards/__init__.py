"""What stands before a request reaches a handler: who the client is, app keys, rate limits, caps
on open games and connections."""
